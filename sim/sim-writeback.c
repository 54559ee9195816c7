/* SPDX-License-Identifier: MIT */
/*
 * sim-writeback - run a writeback scenario: read SCENARIO.ini (and the fio
 * jobs it names), apply --set/--seed overrides, check everything, then
 * simulate and report.
 *
 * Exit status: 0 success, 2 bad input or usage (message on stderr prefixed
 * "sim-writeback: "), 1 when a simulation fails.
 *
 * run_scenario() is the one place the simulation is called: the library
 * returns the results as data, and this program prints them (text or JSON
 * on stdout, the time series and the trace to the files asked for).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <wbsim/wbsim.h>
#include "workload/run.h"
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
};

/**
 * struct run_options - what the command line asks of a run
 * @format: text or json on stdout
 * @series_file: --series: CSV time series destination, or NULL
 * @trace_file: --trace: tracepoint-style event log destination, or NULL
 * @check: --check: verify the model's invariants while running
 * @wall_time: report wall-clock figures (not with --no-wall-time)
 * @name: the scenario file as given
 */
struct run_options {
	const char *name;
	enum output_format format;
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
static char **opt_args;

static const GOptionEntry entries[] = {
	{ "version", 'V', 0, G_OPTION_ARG_NONE, &opt_version,
	  "Print the program and library versions and exit", NULL },
	{ "seed", 0, 0, G_OPTION_ARG_STRING, &opt_seed,
	  "Seed of the random generator (overrides [run] seed)", "N" },
	{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_sets,
	  "Override a scenario key (repeatable)", "SECTION.KEY=VALUE" },
	{ "output-format", 0, 0, G_OPTION_ARG_STRING, &opt_output_format,
	  "Report format on stdout: text (default) or json", "FORMAT" },
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

/**
 * run_scenario() - simulate @scn and report on stdout
 * @scn: a loaded, checked scenario
 * @ro: output format, series/trace destinations, --check
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

			fputs(json, stdout);
			fputc('\n', stdout);
		} else {
			g_autoptr(GString) text = wbsim_report_text(r, ro->wall_time);

			fputs(text->str, stdout);
		}
	}
	wbsim_run_result_free(r);
	return ok;
}

static int run(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) overrides = g_ptr_array_new_with_free_func(g_free);
	struct wbsim_scenario *scn;
	struct run_options ro = { 0 };
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
	else
		return fail(EXIT_BAD_INPUT, "--output-format %s: expected text or json",
			    opt_output_format);
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

	if (opt_parse_only) {
		/* nothing */
	} else if (opt_dump_config) {
		g_autofree char *dump = wbsim_scenario_dump(scn);

		fputs(dump, stdout);
	} else if (!run_scenario(scn, &ro, &error)) {
		status = fail(g_error_matches(error, WBSIM_ERROR,
					      WBSIM_ERROR_SIMULATION)
			      ? EXIT_SIM_FAILED : EXIT_BAD_INPUT,
			      "%s", error->message);
	}
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
