/* SPDX-License-Identifier: MIT */
/*
 * sweep-cli.c - what sim-writeback and sim-writeback-mpi share
 * (sim/sweep-cli.h), on the public API (wbsim/sweep.h): their common
 * options, loading a scenario with its
 * sweep, one point's output (plain, or summarised over --repeat seeds), the
 * --results file that makes a sweep resumable, the ordered output, and the
 * progress line shown on a terminal.
 */
#include <errno.h>
#include <string.h>

#include <wbsim/wbsim.h>
#include "sweep-cli.h"
#include "prog-fail.h"
#include "out-ident.h"

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

/* The groups of --help, in its order: name, heading */
static const char *const group_names[WBSIM_CLI_NR_GROUPS][2] = {
	[WBSIM_CLI_SCENARIO] = { "scenario", "Scenario options:" },
	[WBSIM_CLI_OUTPUT] = { "output", "Output options:" },
	[WBSIM_CLI_SWEEP] = { "sweep", "Sweep options:" },
	[WBSIM_CLI_INFO] = { "info", "Information options:" },
};

void wbsim_sweep_cli_add_entries(GOptionContext *ctx, struct wbsim_sweep_cli *cli,
				 const GOptionEntry *const own[WBSIM_CLI_NR_GROUPS])
{
	const GOptionEntry shared[WBSIM_CLI_NR_GROUPS][8] = {
	[WBSIM_CLI_SCENARIO] = {
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &cli->opt_sets,
		  "Override a scenario key (repeatable)", "SECTION.KEY=VALUE" },
		{ "seed", 0, 0, G_OPTION_ARG_STRING, &cli->opt_seed,
		  "Seed of the random generator (overrides [run] seed)", "N" },
		{ "check", 0, 0, G_OPTION_ARG_NONE, &cli->opt_check,
		  "Verify the model's invariants as the run goes", NULL },
		G_OPTION_ENTRY_NULL },
	[WBSIM_CLI_OUTPUT] = {
		{ "output-format", 0, 0, G_OPTION_ARG_STRING, &cli->opt_output_format,
		  "Report format: text (default for one run), json, json+ (json with fio's latency bins; one run), or csv (default for a sweep)", "FORMAT" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &cli->opt_output,
		  "Write the reports to FILE instead of standard output", "FILE" },
		{ "no-wall-time", 0, 0, G_OPTION_ARG_NONE, &cli->opt_no_wall_time,
		  "Leave wall-clock figures out of the report (byte-identical output for a seed)", NULL },
		G_OPTION_ENTRY_NULL },
	[WBSIM_CLI_SWEEP] = {
		{ "sweep", 0, 0, G_OPTION_ARG_STRING_ARRAY, &cli->opt_sweeps,
		  "Run the scenario once per value of KEY (repeatable: the product); VALUES is FIRST..LAST[:STEP] or V1,V2,...", "SECTION.KEY=VALUES" },
		{ "repeat", 0, 0, G_OPTION_ARG_STRING, &cli->opt_repeat,
		  "Run each point with K seeds (the first the point's own, then splitmix64(seed + k)) and report the mean, standard deviation and 95% confidence interval of the headline figures", "K" },
		{ "results", 0, 0, G_OPTION_ARG_FILENAME, &cli->opt_results,
		  "Append each finished point to FILE (JSON Lines) and, when FILE holds points of the same sweep, skip them: an interrupted sweep resumes", "FILE" },
		{ "progress", 0, 0, G_OPTION_ARG_NONE, &cli->opt_progress,
		  "Show a sweep's progress on standard error even when it is not a terminal", NULL },
		G_OPTION_ENTRY_NULL },
	[WBSIM_CLI_INFO] = {
		{ "help", 'h', 0, G_OPTION_ARG_NONE, &cli->opt_help,
		  "Show the options, in groups, with examples, and exit", NULL },
		G_OPTION_ENTRY_NULL },
	};
	const GOptionEntry remaining[] = {
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &cli->opt_args,
		  NULL, "SCENARIO.ini" },
		G_OPTION_ENTRY_NULL
	};

	/* --help is the program's: every group at once (GLib's shows only
	 * the main group and hides the others behind --help-GROUP) */
	g_option_context_set_help_enabled(ctx, FALSE);
	for (int g = 0; g < WBSIM_CLI_NR_GROUPS; g++) {
		GOptionGroup *group = g_option_group_new(group_names[g][0], group_names[g][1],
							 group_names[g][1], NULL, NULL);

		g_option_group_add_entries(group, shared[g]);
		if (own && own[g])
			g_option_group_add_entries(group, own[g]);
		g_option_context_add_group(ctx, group);
	}
	g_option_context_add_main_entries(ctx, remaining, NULL);
}

char *wbsim_sweep_cli_help(GOptionContext *ctx)
{
	/* main_help FALSE and no group: every group, in the order added */
	return g_option_context_get_help(ctx, FALSE, NULL);
}

gboolean wbsim_sweep_cli_parse(struct wbsim_sweep_cli *cli, GError **error)
{
	const char *f = cli->opt_output_format;

	cli->format_given = f != NULL;
	if (!f || strcmp(f, "text") == 0) {
		cli->format = WBSIM_FORMAT_TEXT;
	} else if (strcmp(f, "json") == 0) {
		cli->format = WBSIM_FORMAT_JSON;
	} else if (strcmp(f, "json+") == 0) {
		cli->format = WBSIM_FORMAT_JSON_PLUS;
	} else if (strcmp(f, "csv") == 0) {
		cli->format = WBSIM_FORMAT_CSV;
	} else {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "--output-format %s: expected text, json, json+ or csv", f);
		return FALSE;
	}
	cli->repeat = 1;
	if (cli->opt_repeat) {
		guint64 k;

		if (!g_ascii_string_to_unsigned(cli->opt_repeat, 10, 2,
						WBSIM_SWEEP_MAX_REPEAT, &k, NULL)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "--repeat %s: expected an integer from 2 to %d",
				    cli->opt_repeat, WBSIM_SWEEP_MAX_REPEAT);
			return FALSE;
		}
		cli->repeat = (unsigned int)k;
	}
	cli->wall_time = !cli->opt_no_wall_time;
	return TRUE;
}

wbsim_run_opts wbsim_sweep_cli_run_opts(const struct wbsim_sweep_cli *cli)
{
	return (wbsim_run_opts) {
		.name = cli->name,
		.check = cli->opt_check,
		/* the reports of the command-line programs read no series rows */
		.stream_series = TRUE,
	};
}

gboolean wbsim_sweep_cli_is_sweep(const struct wbsim_sweep_cli *cli)
{
	return wbsim_sweep_info(cli->sw)->sweep;
}

gboolean wbsim_sweep_cli_load(struct wbsim_sweep_cli *cli, gboolean check_points,
			      GError **error)
{
	char **args = cli->opt_args;
	wbsim_sweep_opts opts = { 0 };

	if (!args || !args[0]) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "no scenario file given: expected one SCENARIO.ini (try --help)");
		return FALSE;
	}
	if (args[1]) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "%s: expected one scenario file, found a second argument",
			    args[1]);
		return FALSE;
	}
	cli->overrides = g_ptr_array_new_with_free_func(g_free);
	for (size_t i = 0; cli->opt_sets && cli->opt_sets[i]; i++)
		g_ptr_array_add(cli->overrides, g_strdup(cli->opt_sets[i]));
	if (cli->opt_seed) {
		guint64 seed;

		/* --seed wins over [run] seed and over --set run.seed */
		if (!g_ascii_string_to_unsigned(cli->opt_seed, 10, 0, G_MAXUINT64,
						&seed, NULL)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "--seed %s: expected an integer from 0 to %" G_GUINT64_FORMAT,
				    cli->opt_seed, G_MAXUINT64);
			return FALSE;
		}
		g_ptr_array_add(cli->overrides,
				g_strdup_printf("run.seed=%" G_GUINT64_FORMAT, seed));
	}
	g_ptr_array_add(cli->overrides, NULL);

	/* a bundled scenario's name, or a file (wbsim/scenario.h) */
	cli->path = wbsim_scenario_find(args[0], error);
	if (!cli->path)
		return FALSE;
	cli->name = args[0];
	opts.overrides = (const char *const *)cli->overrides->pdata;
	opts.sweeps = (const char *const *)cli->opt_sweeps;
	/* a sweep writes CSV unless --output-format says otherwise */
	opts.format = cli->format_given ? cli->format : WBSIM_FORMAT_CSV;
	opts.repeat = cli->repeat;
	opts.no_wall_time = !cli->wall_time;
	opts.results = cli->opt_results;
	opts.no_point_check = !check_points;
	cli->sw = wbsim_sweep_load(cli->path, &opts, error);
	if (!cli->sw) {
		prog_option_words(error ? *error : NULL);
		return FALSE;
	}
	cli->scn = wbsim_sweep_scenario(cli->sw);
	if (wbsim_sweep_cli_is_sweep(cli))
		cli->format = opts.format;
	return TRUE;
}

gboolean wbsim_sweep_cli_check_outputs(const struct wbsim_sweep_cli *cli,
				       const char *const *more, GError **error)
{
	g_autoptr(GArray) ids = g_array_new(FALSE, TRUE, sizeof(struct out_ident));
	struct out_ident id;
	gboolean ok;

	out_ident_init(&id, "--output", cli->opt_output);
	g_array_append_val(ids, id);
	out_ident_init(&id, "--results", cli->opt_results);
	g_array_append_val(ids, id);
	for (size_t i = 0; more && more[i]; i += 2) {
		out_ident_init(&id, more[i], more[i + 1]);
		g_array_append_val(ids, id);
	}
	ok = out_idents_check((const struct out_ident *)(void *)ids->data, ids->len, error);
	for (guint i = 0; i < ids->len; i++)
		out_ident_clear(&g_array_index(ids, struct out_ident, i));
	return ok;
}

gboolean wbsim_sweep_cli_open_output(struct wbsim_sweep_cli *cli, GError **error)
{
	if (!cli->opt_output) {
		cli->out = stdout;
		cli->out_name = "standard output";
		return TRUE;
	}
	/* --output FILE is truncated: not the --results file it would destroy */
	if (!wbsim_sweep_cli_check_outputs(cli, NULL, error))
		return FALSE;
	cli->out = fopen(cli->opt_output, "w");
	cli->out_name = cli->opt_output;
	if (!cli->out) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "--output %s: %s",
			    cli->opt_output, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

gboolean wbsim_sweep_cli_close_output(struct wbsim_sweep_cli *cli, GError **error)
{
	FILE *out = cli->out;

	cli->out = NULL;
	if (out && out != stdout && fclose(out) != 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "--output %s: %s",
			    cli->opt_output, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Progress on a terminal                                                   */

/* A point being computed in this process. */
struct progress_slot {
	struct wbsim_sweep_progress *pg;
	gboolean busy;
	size_t point;
	wbsim_time_t sim_ns;	/* simulated time reached */
};

struct wbsim_sweep_progress {
	GMutex lock;
	FILE *stream;
	size_t total;
	size_t done;		/* written or read from --results */
	size_t computed;	/* computed by this run */
	unsigned int n_slots;
	struct progress_slot *slots;
	gint64 start_us;
	gint64 last_us;
	gboolean shown;
};

#define PROGRESS_INTERVAL_US 250000

static void append_duration(GString *s, double secs)
{
	if (secs >= 3600.0)
		g_string_append_printf(s, "%dh%02dm", (int)(secs / 3600.0),
				       (int)(secs / 60.0) % 60);
	else if (secs >= 60.0)
		g_string_append_printf(s, "%dm%02ds", (int)(secs / 60.0), (int)secs % 60);
	else
		g_string_append_printf(s, "%ds", (int)secs);
}

/* Redraw the line (lock held); at most every 250 ms unless @force. */
static void progress_draw(struct wbsim_sweep_progress *pg, gboolean force)
{
	gint64 now = g_get_monotonic_time();
	g_autoptr(GString) s = NULL;
	unsigned int shown = 0;

	if (!force && now - pg->last_us < PROGRESS_INTERVAL_US)
		return;
	pg->last_us = now;
	s = g_string_new("\r\033[K");
	g_string_append_printf(s, "sweep: %zu/%zu points done", pg->done, pg->total);
	for (unsigned int i = 0; i < pg->n_slots && shown < 4; i++) {
		const struct progress_slot *sl = &pg->slots[i];

		if (!sl->busy)
			continue;
		g_string_append_printf(s, "%s point %zu at %.1f s simulated",
				       shown++ ? "," : ";", sl->point + 1,
				       (double)sl->sim_ns / 1e9);
	}
	if (pg->computed && pg->done < pg->total) {
		double elapsed = (double)(now - pg->start_us) / 1e6;

		g_string_append(s, "; about ");
		append_duration(s, elapsed * (double)(pg->total - pg->done) /
				   (double)pg->computed);
		g_string_append(s, " left");
	}
	fputs(s->str, pg->stream);
	fflush(pg->stream);
	pg->shown = TRUE;
}

static struct wbsim_sweep_progress *progress_new(FILE *stream, size_t total,
						 size_t done, unsigned int n_slots)
{
	struct wbsim_sweep_progress *pg = g_new0(struct wbsim_sweep_progress, 1);

	g_mutex_init(&pg->lock);
	pg->stream = stream;
	pg->total = total;
	pg->done = done;
	pg->n_slots = MAX(n_slots, 1u);
	pg->slots = g_new0(struct progress_slot, pg->n_slots);
	for (unsigned int i = 0; i < pg->n_slots; i++)
		pg->slots[i].pg = pg;
	pg->start_us = g_get_monotonic_time();
	g_mutex_lock(&pg->lock);
	progress_draw(pg, TRUE);
	g_mutex_unlock(&pg->lock);
	return pg;
}

static void progress_free(struct wbsim_sweep_progress *pg)
{
	if (!pg)
		return;
	g_mutex_clear(&pg->lock);
	g_free(pg->slots);
	g_free(pg);
}

/* A point starts in this process: a free slot (NULL if none is free). */
static struct progress_slot *progress_begin(struct wbsim_sweep_progress *pg,
					    size_t point)
{
	struct progress_slot *sl = NULL;

	g_mutex_lock(&pg->lock);
	for (unsigned int i = 0; i < pg->n_slots && !sl; i++) {
		if (!pg->slots[i].busy) {
			sl = &pg->slots[i];
			sl->busy = TRUE;
			sl->point = point;
			sl->sim_ns = 0;
		}
	}
	g_mutex_unlock(&pg->lock);
	return sl;
}

static void progress_end(struct progress_slot *sl)
{
	g_mutex_lock(&sl->pg->lock);
	sl->busy = FALSE;
	g_mutex_unlock(&sl->pg->lock);
}

/* wbsim_sample_fn: the simulated time reached. */
static void progress_sample(wbsim_time_t now, const char *const *columns,
			    const double *row, unsigned int n, void *arg)
{
	struct progress_slot *sl = arg;

	(void)columns;
	(void)row;
	(void)n;
	g_mutex_lock(&sl->pg->lock);
	sl->sim_ns = now;
	progress_draw(sl->pg, FALSE);
	g_mutex_unlock(&sl->pg->lock);
}

void wbsim_sweep_cli_progress_clear(struct wbsim_sweep_cli *cli)
{
	struct wbsim_sweep_progress *pg = cli->progress;

	if (!pg)
		return;
	g_mutex_lock(&pg->lock);
	if (pg->shown)
		fputs("\r\033[K", pg->stream);
	fflush(pg->stream);
	pg->shown = FALSE;
	pg->last_us = g_get_monotonic_time();
	g_mutex_unlock(&pg->lock);
}

/* ------------------------------------------------------------------------ */
/* Points                                                                   */

gboolean wbsim_sweep_cli_start(struct wbsim_sweep_cli *cli, unsigned int n_slots,
			       GError **error)
{
	const struct wbsim_sweep_info *info = wbsim_sweep_info(cli->sw);

	if (!wbsim_sweep_start(cli->sw, error)) {
		prog_option_words(error ? *error : NULL);
		return FALSE;
	}
	if (info->header && !wbsim_sweep_cli_emit(0, info->header, cli, error))
		return FALSE;
	if (cli->progress_stream)
		cli->progress = progress_new(cli->progress_stream, info->n_points,
					     info->n_done, n_slots);
	return TRUE;
}

const char *wbsim_sweep_cli_done_text(const struct wbsim_sweep_cli *cli,
				      size_t point)
{
	return wbsim_sweep_done_text(cli->sw, point);
}

char *wbsim_sweep_cli_point(const struct wbsim_sweep_cli *cli, size_t point,
			    GError **error)
{
	wbsim_run_opts opts = wbsim_sweep_cli_run_opts(cli);
	struct progress_slot *sl = NULL;
	char *text;

	if (cli->progress)
		sl = progress_begin(cli->progress, point);
	if (sl) {
		opts.sample_fn = progress_sample;
		opts.user_data = sl;
	}
	text = wbsim_sweep_point_output(cli->sw, point, &opts, error);
	if (!text)
		prog_option_words(error ? *error : NULL);
	if (sl)
		progress_end(sl);
	return text;
}

gboolean wbsim_sweep_cli_finished(struct wbsim_sweep_cli *cli, size_t point,
				  const char *text, GError **error)
{
	struct wbsim_sweep_progress *pg = cli->progress;

	if (!wbsim_sweep_record(cli->sw, point, text, error)) {
		prog_option_words(error ? *error : NULL);
		return FALSE;
	}
	if (pg) {
		g_mutex_lock(&pg->lock);
		pg->done++;
		pg->computed++;
		progress_draw(pg, TRUE);
		g_mutex_unlock(&pg->lock);
	}
	return TRUE;
}

gboolean wbsim_sweep_cli_emit(size_t point, const char *text, void *arg,
			      GError **error)
{
	const struct wbsim_sweep_cli *cli = arg;

	(void)point;
	if (fputs(text, cli->out) == EOF || fflush(cli->out) != 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
			    "cannot write to %s: %s", cli->out_name,
			    g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

G_DEFINE_QUARK(wbsim-sweep-cli-interrupted, wbsim_sweep_cli_interrupted)

/*
 * A local worker's point: from the results file, or computed and recorded;
 * after a stop request, not started (a point under way runs to its end: a
 * sweep's points are whole runs, and --results records them).
 */
static char *local_task(size_t point, void *arg, GError **error)
{
	struct wbsim_sweep_cli *cli = arg;
	const char *done = wbsim_sweep_cli_done_text(cli, point);
	char *text;

	if (done)
		return g_strdup(done);
	if (cli->stop && *cli->stop) {
		g_set_error(error, WBSIM_SWEEP_CLI_INTERRUPTED, 0,
			    "sweep point %zu/%zu: not started: interrupted", point + 1,
			    wbsim_sweep_info(cli->sw)->n_points);
		return NULL;
	}
	text = wbsim_sweep_cli_point(cli, point, error);
	if (text && !wbsim_sweep_cli_finished(cli, point, text, error))
		g_clear_pointer(&text, g_free);
	return text;
}

/* wbsim_sweep_cli_emit(), counted */
static gboolean local_emit(size_t point, const char *text, void *arg, GError **error)
{
	struct wbsim_sweep_cli *cli = arg;

	if (!wbsim_sweep_cli_emit(point, text, cli, error))
		return FALSE;
	cli->n_emitted++;
	return TRUE;
}

gboolean wbsim_sweep_cli_run_local(struct wbsim_sweep_cli *cli, unsigned int jobs,
				   GError **error)
{
	gboolean ok;

	cli->n_emitted = 0;
	ok = wbsim_sweep_run_tasks(wbsim_sweep_info(cli->sw)->n_points, jobs, local_task, cli,
				   local_emit, cli, error);

	wbsim_sweep_cli_progress_clear(cli);
	return ok;
}

void wbsim_sweep_cli_clear(struct wbsim_sweep_cli *cli)
{
	g_free(cli->opt_seed);
	g_free(cli->opt_output_format);
	g_strfreev(cli->opt_sets);
	g_strfreev(cli->opt_sweeps);
	g_free(cli->opt_output);
	g_free(cli->opt_results);
	g_free(cli->opt_repeat);
	g_strfreev(cli->opt_args);
	g_free(cli->path);
	if (cli->overrides)
		g_ptr_array_unref(cli->overrides);
	wbsim_sweep_free(cli->sw);
	progress_free(cli->progress);
	memset(cli, 0, sizeof(*cli));
}
