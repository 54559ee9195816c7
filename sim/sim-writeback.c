/* SPDX-License-Identifier: MIT */
/*
 * sim-writeback - run a writeback scenario: read SCENARIO.ini (and the fio
 * jobs it names), apply --set/--seed overrides, check everything, then
 * simulate and report.
 *
 * Exit status: 0 success, 2 bad input or usage (message on stderr prefixed
 * "sim-writeback: "), 1 when a simulation fails.
 *
 * The writeback model is not wired in yet: run_scenario() is the one place
 * where the simulation will be called. Until then it says that no
 * simulation was run and prints the resolved scenario.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <wbsim/wbsim.h>

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
 */
struct run_options {
	enum output_format format;
	const char *series_file;
	const char *trace_file;
	gboolean check;
};

static gboolean opt_version;
static gboolean opt_dump_config;
static gboolean opt_parse_only;
static gboolean opt_check;
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

/* Until the model is wired in: no result, and nothing that looks like one. */
static const char not_run_line[] =
	"no simulation was run: the writeback model is not built into this version yet; this is the resolved scenario";

static gboolean report_not_run(const struct wbsim_scenario *scn,
			       const struct run_options *ro)
{
	g_autofree char *dump = wbsim_scenario_dump(scn);

	if (ro->format == OUTPUT_JSON) {
		g_autoptr(JsonBuilder) b = json_builder_new();
		g_autoptr(JsonGenerator) gen = json_generator_new();
		g_autoptr(JsonNode) root = NULL;
		g_autofree char *text = NULL;

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "sim-writeback version");
		json_builder_add_string_value(b, WBSIM_VERSION_STRING);
		json_builder_set_member_name(b, "simulated");
		json_builder_add_boolean_value(b, FALSE);
		json_builder_set_member_name(b, "message");
		json_builder_add_string_value(b, not_run_line);
		json_builder_set_member_name(b, "scenario");
		json_builder_add_string_value(b, dump);
		json_builder_end_object(b);
		root = json_builder_get_root(b);
		json_generator_set_root(gen, root);
		json_generator_set_pretty(gen, TRUE);
		json_generator_set_indent(gen, 2);
		text = json_generator_to_data(gen, NULL);
		printf("%s\n", text);
	} else {
		printf("# %s\n%s", not_run_line, dump);
	}
	if (ro->series_file)
		fprintf(stderr, PROG ": --series %s: nothing written: no simulation was run\n",
			ro->series_file);
	if (ro->trace_file)
		fprintf(stderr, PROG ": --trace %s: nothing written: no simulation was run\n",
			ro->trace_file);
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
	return report_not_run(scn, ro);
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
