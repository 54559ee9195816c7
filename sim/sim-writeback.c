/* SPDX-License-Identifier: MIT */
/*
 * sim-writeback - run a writeback scenario: read SCENARIO.ini (and the fio
 * jobs it names), apply --set/--seed overrides, check everything, then
 * simulate and report.
 *
 * Exit status: 0 success, 2 bad input or usage (message on stderr prefixed
 * "sim-writeback: "), 1 when a simulation fails.
 *
 * run_scenario() is the one place a single simulation is called: the
 * library returns the results as data, and this program prints them (text,
 * JSON or a CSV row on stdout or --output, the time series and the trace to
 * the files asked for). run_sweep() runs the points of a sweep ([sweep] in
 * the scenario, --sweep on the command line) --jobs at a time and prints
 * one report, JSON line or CSV row per point, in point order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <wbsim/wbsim.h>
#include "workload/run.h"
#include "workload/sweep.h"
#include "report/report.h"

#define PROG "sim-writeback"

enum exit_status {
	EXIT_OK = 0,
	EXIT_SIM_FAILED = 1,
	EXIT_BAD_INPUT = 2,
};

enum output_format {
	OUTPUT_TEXT,
	OUTPUT_JSON,
	OUTPUT_CSV,
};

/* No more threads than this, whatever --jobs says. */
#define MAX_JOBS 1024

/**
 * struct run_options - what the command line asks of a run
 * @format: text, json or csv
 * @out: where reports go: stdout, or the --output file
 * @out_name: "standard output" or the --output file name
 * @series_file: --series: CSV time series destination, or NULL
 * @trace_file: --trace: tracepoint-style event log destination, or NULL
 * @check: --check: verify the model's invariants while running
 * @wall_time: report wall-clock figures (not with --no-wall-time)
 * @name: the scenario file as given
 */
struct run_options {
	const char *name;
	enum output_format format;
	FILE *out;
	const char *out_name;
	const char *series_file;
	const char *trace_file;
	gboolean check;
	gboolean wall_time;
};

static gboolean opt_version;
static gboolean opt_dump_config;
static gboolean opt_parse_only;
static gboolean opt_check;
static gboolean opt_no_wall_time;
static gboolean opt_dump_keys_markdown;
static char *opt_seed;
static char *opt_output_format;
static char *opt_series;
static char *opt_trace;
static char **opt_sets;
static char **opt_sweeps;
static char *opt_jobs;
static char *opt_output;
static char **opt_args;

static const GOptionEntry entries[] = {
	{ "version", 'V', 0, G_OPTION_ARG_NONE, &opt_version,
	  "Print the program and library versions and exit", NULL },
	{ "seed", 0, 0, G_OPTION_ARG_STRING, &opt_seed,
	  "Seed of the random generator (overrides [run] seed)", "N" },
	{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_sets,
	  "Override a scenario key (repeatable)", "SECTION.KEY=VALUE" },
	{ "sweep", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_sweeps,
	  "Run the scenario once per value of KEY (repeatable: the product); VALUES is FIRST..LAST[:STEP] or V1,V2,...", "SECTION.KEY=VALUES" },
	{ "jobs", 'j', 0, G_OPTION_ARG_STRING, &opt_jobs,
	  "Sweep points simulated at once (default: the host's CPUs)", "N" },
	{ "output-format", 0, 0, G_OPTION_ARG_STRING, &opt_output_format,
	  "Report format: text (default for one run), json, or csv (default for a sweep)", "FORMAT" },
	{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
	  "Write the reports to FILE instead of standard output", "FILE" },
	{ "dump-config", 0, 0, G_OPTION_ARG_NONE, &opt_dump_config,
	  "Print the resolved scenario (every default explicit, fio jobs inline) and exit", NULL },
	{ "parse-only", 0, 0, G_OPTION_ARG_NONE, &opt_parse_only,
	  "Check the scenario and its fio jobs, then exit", NULL },
	{ "series", 0, 0, G_OPTION_ARG_FILENAME, &opt_series,
	  "Write the time series (CSV) to FILE", "FILE" },
	{ "trace", 0, 0, G_OPTION_ARG_FILENAME, &opt_trace,
	  "Write writeback tracepoint events to FILE", "FILE" },
	{ "check", 0, 0, G_OPTION_ARG_NONE, &opt_check,
	  "Verify the model's invariants as the run goes", NULL },
	{ "no-wall-time", 0, 0, G_OPTION_ARG_NONE, &opt_no_wall_time,
	  "Leave wall-clock figures out of the report (byte-identical output for a seed)", NULL },
	{ "dump-keys-markdown", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE,
	  &opt_dump_keys_markdown,
	  "Print the scenario key reference as Markdown (for scenarios/README.md)", NULL },
	{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_args,
	  NULL, "SCENARIO.ini" },
	G_OPTION_ENTRY_NULL
};

static void free_options(void)
{
	g_free(opt_seed);
	g_free(opt_output_format);
	g_free(opt_series);
	g_free(opt_trace);
	g_strfreev(opt_sets);
	g_strfreev(opt_sweeps);
	g_free(opt_jobs);
	g_free(opt_output);
	g_strfreev(opt_args);
}

static int fail(int status, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* --trace FILE: one tracepoint line per call. */
static void write_trace_line(void *arg, const char *line)
{
	FILE *f = arg;

	fputs(line, f);
	fputc('\n', f);
}

static gboolean write_file(const char *path, const char *text, gsize len, GError **error)
{
	GError *e = NULL;

	if (!g_file_set_contents(path, text, (gssize)len, &e)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "--series %s: %s", path, e->message);
		g_error_free(e);
		return FALSE;
	}
	return TRUE;
}

/* The fio reporting groups of @scn, increasing (the CSV's group columns). */
static GArray *scenario_groups(const struct wbsim_scenario *scn)
{
	const struct wbsim_fio_file *fio = wbsim_scenario_fio(scn);
	GArray *groups = g_array_new(FALSE, FALSE, sizeof(guint));

	for (guint i = 0; i < fio->jobs->len; i++) {
		guint id = ((const struct wbsim_fio_job *)fio->jobs->pdata[i])->group_id;
		guint k = 0;

		while (k < groups->len && g_array_index(groups, guint, k) < id)
			k++;
		if (k == groups->len || g_array_index(groups, guint, k) != id)
			g_array_insert_val(groups, k, id);
	}
	return groups;
}

/**
 * run_scenario() - simulate @scn and report on @ro->out
 * @scn: a loaded, checked scenario
 * @ro: output format and destination, series/trace destinations, --check
 * @error: WBSIM_ERROR_SIMULATION when the run fails (exit status 1);
 *	   any other error is bad input (exit status 2)
 *
 * This is the one place the integrator plugs the simulation in: build the
 * simulation from wbsim_scenario_config() and wbsim_scenario_fio(), run
 * it, write the report in @ro->format and the --series/--trace files.
 *
 * Return: TRUE on success.
 */
static gboolean run_scenario(const struct wbsim_scenario *scn,
			     const struct run_options *ro, GError **error)
{
	struct wbsim_run_options opts = { .name = ro->name, .check = ro->check };
	struct wbsim_run_result *r;
	FILE *trace = NULL;
	gboolean ok = TRUE;

	if (ro->trace_file) {
		trace = fopen(ro->trace_file, "w");
		if (!trace) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "--trace %s: %s",
				    ro->trace_file, g_strerror(errno));
			return FALSE;
		}
		/* The kernel's tracefs header, then the events. */
		fputs("# tracer: nop\n#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		      "#              | |         |   |||||     |         |\n", trace);
		opts.trace_fn = write_trace_line;
		opts.trace_arg = trace;
	}
	r = wbsim_run_scenario(scn, &opts, error);
	if (trace && fclose(trace) != 0 && r) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "--trace %s: %s",
			    ro->trace_file, g_strerror(errno));
		ok = FALSE;
	}
	if (!r)
		return FALSE;
	if (ok && ro->series_file) {
		g_autoptr(GString) csv = wbsim_report_csv(r);

		ok = write_file(ro->series_file, csv->str, csv->len, error);
	}
	if (ok) {
		if (ro->format == OUTPUT_JSON) {
			g_autofree char *json = wbsim_report_json(r, ro->wall_time);

			fputs(json, ro->out);
			fputc('\n', ro->out);
		} else if (ro->format == OUTPUT_CSV) {
			g_autoptr(GArray) groups = NULL;
			g_autofree char *header = NULL, *row = NULL;

			groups = scenario_groups(scn);
			header = wbsim_sweep_csv_header(NULL, groups);
			row = wbsim_sweep_csv_row(NULL, 0, r, groups);
			fputs(header, ro->out);
			fputs(row, ro->out);
		} else {
			g_autoptr(GString) text = wbsim_report_text(r, ro->wall_time);

			fputs(text->str, ro->out);
		}
	}
	wbsim_run_result_free(r);
	return ok;
}

/**
 * struct sweep_output - how run_sweep() prints the points
 * @ro: format, destination, wall time
 * @groups: the fio reporting groups of all points (CSV columns)
 */
struct sweep_output {
	const struct run_options *ro;
	const GArray *groups;
};

/* A point's text, made in the worker thread that simulated it. */
static char *format_point(const struct wbsim_sweep *sw, size_t point,
			  const struct wbsim_run_result *r, void *arg)
{
	const struct sweep_output *so = arg;
	g_autofree char *label = NULL;
	g_autoptr(GString) report = NULL;
	GString *text;

	switch (so->ro->format) {
	case OUTPUT_CSV:
		return wbsim_sweep_csv_row(sw, point, r, so->groups);
	case OUTPUT_JSON:
		return wbsim_sweep_json_line(sw, point, r, so->ro->wall_time);
	case OUTPUT_TEXT:
		break;
	}
	label = wbsim_sweep_label(sw, point);
	report = wbsim_report_text(r, so->ro->wall_time);
	/* "# sweep point N/M: KEY=VALUE ..." then the report; a blank line between */
	text = g_string_new(point ? "\n" : "");
	g_string_append_printf(text, "# sweep point %zu/%zu: %s\n", point + 1,
			       wbsim_sweep_n_points(sw), label);
	g_string_append(text, report->str);
	return g_string_free(text, FALSE);
}

/* Write a point's text as soon as it and the points before it are done. */
static gboolean emit_point(size_t point, const char *text, void *arg,
			   GError **error)
{
	const struct sweep_output *so = arg;

	(void)point;
	if (fputs(text, so->ro->out) == EOF || fflush(so->ro->out) != 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
			    "cannot write to %s: %s", so->ro->out_name,
			    g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

/**
 * run_sweep() - simulate every point of @sw and report each, in order
 * @sw: the sweep (at least one axis)
 * @path: the scenario file
 * @overrides: the --set overrides
 * @groups: the fio reporting groups of all points (wbsim_sweep_check())
 * @ro: format, destination, --check, wall time
 * @jobs: points simulated at once
 * @error: as run_scenario()
 *
 * CSV: a header row, then one row per point. JSON: one line per point.
 * Text: each point's report after a line "# sweep point N/M: KEY=VALUE".
 *
 * Return: TRUE when every point ran and was written.
 */
static gboolean run_sweep(const struct wbsim_sweep *sw, const char *path,
			  const char *const *overrides, const GArray *groups,
			  const struct run_options *ro, unsigned int jobs,
			  GError **error)
{
	struct wbsim_run_options opts = { .name = ro->name, .check = ro->check };
	struct sweep_output so = { ro, groups };

	if (ro->format == OUTPUT_CSV) {
		g_autofree char *header = wbsim_sweep_csv_header(sw, groups);

		if (!emit_point(0, header, &so, error))
			return FALSE;
	}
	return wbsim_sweep_run(sw, path, overrides, &opts, jobs, format_point,
			       &so, emit_point, &so, error);
}

/* --output FILE, opened once the input is known to be good. */
static int open_output(struct run_options *ro)
{
	if (!opt_output) {
		ro->out = stdout;
		ro->out_name = "standard output";
		return EXIT_OK;
	}
	ro->out = fopen(opt_output, "w");
	ro->out_name = opt_output;
	if (!ro->out)
		return fail(EXIT_BAD_INPUT, "--output %s: %s", opt_output,
			    g_strerror(errno));
	return EXIT_OK;
}

static int run(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) overrides = g_ptr_array_new_with_free_func(g_free);
	struct wbsim_scenario *scn;
	struct wbsim_sweep *sw;
	g_autoptr(GArray) groups = NULL;
	struct run_options ro = { 0 };
	unsigned int jobs = g_get_num_processors();
	int status = EXIT_OK;

	/* the usage line takes "SCENARIO.ini" from the G_OPTION_REMAINING entry */
	ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx,
		"Simulate Linux page-cache writeback for the machine, device, filesystem\n"
		"and fio workload described in SCENARIO.ini.");
	g_option_context_set_description(ctx,
		"Exit status: 0 on success, 2 for bad input or usage, 1 when a\n"
		"simulation fails. Scenario keys are documented in scenarios/README.md.\n");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error))
		return fail(EXIT_BAD_INPUT, "%s (try --help)", error->message);

	if (opt_version) {
		printf(PROG " %s\nlibwbsim %s\n", WBSIM_VERSION_STRING,
		       wbsim_version_string());
		return EXIT_OK;
	}
	if (opt_dump_keys_markdown) {
		g_autofree char *md = wbsim_config_keys_markdown();

		fputs(md, stdout);
		return EXIT_OK;
	}

	if (!opt_output_format || strcmp(opt_output_format, "text") == 0)
		ro.format = OUTPUT_TEXT;
	else if (strcmp(opt_output_format, "json") == 0)
		ro.format = OUTPUT_JSON;
	else if (strcmp(opt_output_format, "csv") == 0)
		ro.format = OUTPUT_CSV;
	else
		return fail(EXIT_BAD_INPUT, "--output-format %s: expected text, json or csv",
			    opt_output_format);
	if (opt_jobs) {
		guint64 n;

		if (!g_ascii_string_to_unsigned(opt_jobs, 10, 1, MAX_JOBS, &n, NULL))
			return fail(EXIT_BAD_INPUT,
				    "--jobs %s: expected an integer from 1 to %d",
				    opt_jobs, MAX_JOBS);
		jobs = (unsigned int)n;
	}
	ro.series_file = opt_series;
	ro.trace_file = opt_trace;
	ro.check = opt_check;
	ro.wall_time = !opt_no_wall_time;

	if (!opt_args || !opt_args[0])
		return fail(EXIT_BAD_INPUT, "no scenario file given: expected one SCENARIO.ini (try --help)");
	if (opt_args[1])
		return fail(EXIT_BAD_INPUT, "%s: expected one scenario file, found a second argument",
			    opt_args[1]);

	for (size_t i = 0; opt_sets && opt_sets[i]; i++)
		g_ptr_array_add(overrides, g_strdup(opt_sets[i]));
	if (opt_seed) {
		guint64 seed;

		/* --seed wins over [run] seed and over --set run.seed */
		if (!g_ascii_string_to_unsigned(opt_seed, 10, 0, G_MAXUINT64,
						&seed, NULL))
			return fail(EXIT_BAD_INPUT,
				    "--seed %s: expected an integer from 0 to %" G_GUINT64_FORMAT,
				    opt_seed, G_MAXUINT64);
		g_ptr_array_add(overrides,
				g_strdup_printf("run.seed=%" G_GUINT64_FORMAT, seed));
	}
	g_ptr_array_add(overrides, NULL);

	ro.name = opt_args[0];
	scn = wbsim_scenario_load(opt_args[0],
				  (const char *const *)overrides->pdata, &error);
	if (!scn)
		return fail(EXIT_BAD_INPUT, "%s", error->message);
	sw = wbsim_sweep_new(wbsim_scenario_config(scn), &error);
	for (size_t i = 0; sw && opt_sweeps && opt_sweeps[i]; i++) {
		if (!wbsim_sweep_add_option(sw, opt_sweeps[i], &error))
			g_clear_pointer(&sw, wbsim_sweep_free);
	}
	if (!sw) {
		wbsim_scenario_free(scn);
		return fail(EXIT_BAD_INPUT, "%s", error->message);
	}
	if (wbsim_sweep_n_axes(sw)) {
		/* every point's values are checked before anything runs */
		if (!opt_dump_config &&
		    !wbsim_sweep_check(sw, opt_args[0],
				       (const char *const *)overrides->pdata,
				       &groups, &error))
			status = fail(EXIT_BAD_INPUT, "%s", error->message);
		else if (opt_series || opt_trace)
			status = fail(EXIT_BAD_INPUT,
				      "%s: one file per run: not with a sweep (run a point alone with --set)",
				      opt_series ? "--series" : "--trace");
		if (!opt_output_format)
			ro.format = OUTPUT_CSV;
	}

	if (status != EXIT_OK || opt_parse_only) {
		/* nothing more */
	} else if ((status = open_output(&ro)) != EXIT_OK) {
		/* the message is out */
	} else if (opt_dump_config) {
		g_autofree char *dump = wbsim_scenario_dump(scn);

		fputs(dump, ro.out);
	} else if (wbsim_sweep_n_axes(sw)
		   ? !run_sweep(sw, opt_args[0], (const char *const *)overrides->pdata,
				groups, &ro, jobs, &error)
		   : !run_scenario(scn, &ro, &error)) {
		status = fail(g_error_matches(error, WBSIM_ERROR,
					      WBSIM_ERROR_SIMULATION)
			      ? EXIT_SIM_FAILED : EXIT_BAD_INPUT,
			      "%s", error->message);
	}
	if (ro.out && ro.out != stdout && fclose(ro.out) != 0 && status == EXIT_OK)
		status = fail(EXIT_BAD_INPUT, "--output %s: %s", opt_output,
			      g_strerror(errno));
	wbsim_sweep_free(sw);
	wbsim_scenario_free(scn);
	return status;
}

int main(int argc, char **argv)
{
	int status = run(argc, argv);

	free_options();
	if (fflush(stdout) != 0 && status == EXIT_OK)
		status = fail(EXIT_BAD_INPUT, "cannot write to standard output");
	return status;
}
