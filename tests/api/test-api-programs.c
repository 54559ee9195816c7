/* SPDX-License-Identifier: MIT */
/*
 * test-api-programs.c - the public API sim-writeback is built on, as a
 * program outside the tree uses it (shared library, public headers only):
 * result iterators, the run options for names, series, progress and fio
 * logs, the reports, the series as CSV rows, the tracepoint selection and
 * trace.dat, and sweeps with their results file and ordered runner.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>
#include <wbsim/wbsim.h>

/* A 2-CPU machine writing 8 MiB in two files, sampled every 50 ms. */
static char *small_text(void)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("small");

	assert_true(wbsim_scenario_builder_set(b, "machine.cpus", "2", NULL));
	assert_true(wbsim_scenario_builder_set(b, "machine.memory", "2G", NULL));
	assert_true(wbsim_scenario_builder_set(b, "run.series_interval", "50ms", NULL));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w",
		"rw=write\nbs=64k\nsize=8m\nnrfiles=2\nend_fsync=1\n", NULL));
	return wbsim_scenario_builder_text(b);
}

static wbsim_scenario *small_scenario(void)
{
	g_autofree char *text = small_text();
	g_autoptr(GError) error = NULL;
	wbsim_scenario *scn = wbsim_scenario_load_string(text, "small", NULL, NULL, &error);

	if (!scn)
		fail_msg("%s", error->message);
	return scn;
}

/* The scenario as a file in a new temporary folder (removed by the caller). */
static char *small_file(char **dir)
{
	g_autofree char *text = small_text();
	char *path;

	*dir = g_dir_make_tmp("wbsim-api-XXXXXX", NULL);
	assert_non_null(*dir);
	path = g_build_filename(*dir, "small.ini", NULL);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

/* Each list's accessor is its iterator: records from index 0 on, NULL
 * past the end (and again after it), as many as the summary counts. */
static void test_iterators(void **state)
{
	g_autoptr(wbsim_scenario) scn = small_scenario();
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = wbsim_run(scn, NULL, &error);
	const struct wbsim_result_summary *sum;
	const double *row;
	unsigned int n;

	(void)state;
	assert_non_null(r);
	sum = wbsim_result_summary(r);
	for (n = 0; wbsim_result_job(r, n); n++)
		;
	assert_int_equal(n, sum->n_jobs);
	assert_null(wbsim_result_job(r, n + 1));	/* stays at the end */
	assert_int_equal(wbsim_result_job_lat_percentile_ns(r, n, 50), 0);

	for (n = 0; wbsim_result_wb(r, n); n++)
		;
	assert_int_equal(n, sum->n_wbs);

	for (n = 0; wbsim_result_file(r, n); n++)
		;
	assert_int_equal(n, sum->n_files);
	assert_int_equal(n, 2);
	/* the same record each time: owned by the result */
	assert_ptr_equal(wbsim_result_file(r, 1), wbsim_result_file(r, 1));

	for (n = 0; wbsim_result_warning(r, n); n++)
		;
	assert_int_equal(n, sum->n_warnings);

	/* a row is the row's values, column by column; the first the time */
	for (n = 0; (row = wbsim_result_series_row(r, n)); n++)
		if (n)
			assert_true(row[0] > wbsim_result_series_row(r, n - 1)[0]);
	assert_int_equal(n, sum->n_series_rows);
	assert_true(n > 1);
	for (n = 0; wbsim_result_series_column(r, n); n++)
		;
	assert_int_equal(n, sum->n_series_columns);
}

/* What the callbacks saw. */
struct seen {
	GString *csv;
	unsigned int samples;
	unsigned int progress;
	double last_fraction;
	wbsim_time_t last_now;
	gboolean fraction_ok;
	GHashTable *logs;	/* name -> GString */
};

static void on_sample(wbsim_time_t now, const char *const *columns, const double *values,
		      unsigned int n, void *arg)
{
	struct seen *s = arg;

	(void)now;
	if (!s->samples++)
		wbsim_series_csv_head(s->csv, columns, n);
	wbsim_series_csv_row(s->csv, values, n);
}

static void on_progress(wbsim_time_t now, double fraction, unsigned int jobs_running,
			uint64_t bytes, void *arg)
{
	struct seen *s = arg;

	(void)jobs_running;
	(void)bytes;
	s->progress++;
	s->fraction_ok &= fraction >= 0 && fraction <= 1 && now >= s->last_now;
	s->last_fraction = fraction;
	s->last_now = now;
}

static void on_log(const char *name, const char *text, gboolean append, void *arg)
{
	struct seen *s = arg;
	GString *g = g_hash_table_lookup(s->logs, name);

	(void)append;
	if (!g) {
		assert_null(text);	/* a log is opened before it is written */
		g_hash_table_insert(s->logs, g_strdup(name), g_string_new(NULL));
		return;
	}
	if (text)
		g_string_append(g, text);
}

static void free_gstring(gpointer p)
{
	g_string_free(p, TRUE);
}

static void test_run_options(void **state)
{
	g_autoptr(wbsim_scenario) scn = small_scenario();
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = NULL;
	g_autofree char *json = NULL;
	struct seen s = { .csv = g_string_new(NULL), .fraction_ok = TRUE };
	const wbsim_run_opts opts = {
		.name = "named-run",
		.stream_series = TRUE,
		.sample_fn = on_sample,
		.progress_fn = on_progress,
		.user_data = &s,
	};
	g_auto(GStrv) lines = NULL;

	(void)state;
	r = wbsim_run(scn, &opts, &error);
	assert_non_null(r);
	/* the rows went to the callback only; the columns stay */
	assert_int_equal(wbsim_result_summary(r)->n_series_rows, 0);
	assert_null(wbsim_result_series_row(r, 0));
	assert_true(wbsim_result_summary(r)->n_series_columns > 1);
	assert_true(s.samples > 1);
	assert_int_equal(s.progress, s.samples);
	assert_true(s.fraction_ok);
	assert_true(s.last_fraction > 0.99);
	/* the CSV: a header row, then one row per sample */
	lines = g_strsplit(s.csv->str, "\n", -1);
	assert_int_equal(g_strv_length(lines), s.samples + 2);	/* and "" after the last \n */
	assert_true(g_str_has_prefix(lines[0], "time_s,"));
	assert_string_equal(lines[s.samples + 1], "");
	/* the name is the scenario's in the reports */
	json = wbsim_result_report(r, WBSIM_FORMAT_JSON, FALSE, NULL);
	assert_non_null(strstr(json, "\"named-run\""));
	g_string_free(s.csv, TRUE);
}

static void test_fio_logs(void **state)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("logs");
	g_autoptr(wbsim_scenario) scn = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = NULL;
	struct seen s = { .logs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							free_gstring) };
	const wbsim_run_opts opts = { .fio_log_fn = on_log, .user_data = &s };
	GString *bw;

	(void)state;
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w",
		"rw=write\nbs=64k\nsize=8m\nrate=4m\nwrite_bw_log=w\nlog_avg_msec=500\n", NULL));
	scn = wbsim_scenario_builder_build(b, &error);
	assert_non_null(scn);
	r = wbsim_run(scn, &opts, &error);
	assert_non_null(r);
	/* fio's name for the job's bandwidth log: PREFIX_bw.N.log */
	bw = g_hash_table_lookup(s.logs, "w_bw.1.log");
	assert_non_null(bw);
	assert_true(bw->len > 0);
	/* written, so no "not written" warning */
	assert_int_equal(wbsim_result_summary(r)->n_warnings, 0);
	assert_null(wbsim_result_warning(r, 0));
	g_hash_table_destroy(s.logs);
}

/* what the fio log callbacks of test_fio_log_checks saw */
struct log_checks {
	const char *refuse;	/* the log name to refuse with EACCES */
	unsigned int opens;	/* fio_log_open_fn calls */
	unsigned int appends;	/* ... with append TRUE */
	GHashTable *logs;	/* name -> GString, as on_log */
	unsigned int pieces;	/* fio_log_fn calls with text */
};

static int on_log_open(const char *name, gboolean append, void *arg)
{
	struct log_checks *c = arg;

	c->opens++;
	c->appends += append;
	return c->refuse && strcmp(name, c->refuse) == 0 ? EACCES : 0;
}

static void on_log_checked(const char *name, const char *text, gboolean append, void *arg)
{
	struct log_checks *c = arg;
	GString *g = g_hash_table_lookup(c->logs, name);

	(void)append;
	if (!text) {
		if (!g)
			g_hash_table_insert(c->logs, g_strdup(name), g_string_new(NULL));
		return;
	}
	assert_non_null(g);
	g_string_append(g, text);
	c->pieces++;
}

/*
 * wbsim_run_opts.fio_log_open_fn: every log is checked before the run, and
 * one it refuses fails the run with WBSIM_ERROR_IO naming the job's line
 * and option; per_job_logs=0 rows come in pieces at the job's end, having
 * waited in a temporary file of wbsim_run_opts.temp_dir (nothing left
 * there), and a temp_dir where no file can be made is an error.
 */
static void test_fio_log_checks(void **state)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("logs");
	g_autoptr(wbsim_scenario) scn = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = NULL;
	g_autofree char *dir = g_dir_make_tmp("wbsim-log-checks-XXXXXX", NULL);
	struct log_checks c = { .logs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							       free_gstring) };
	wbsim_run_opts opts = { .fio_log_fn = on_log_checked, .fio_log_open_fn = on_log_open,
				.temp_dir = dir, .user_data = &c };
	g_autoptr(GDir) d = NULL;
	g_auto(GStrv) rows = NULL;
	GString *lat;

	(void)state;
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w",
		"rw=write\nbs=4k\nsize=32m\nwrite_iops_log=w\nwrite_lat_log=all\nper_job_logs=0\n"
		"numjobs=2\n", NULL));
	scn = wbsim_scenario_builder_build(b, &error);
	assert_non_null(scn);
	/* refused: the run does not start */
	c.refuse = "all_clat.log";
	assert_null(wbsim_run(scn, &opts, &error));
	assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_IO));
	assert_non_null(strstr(error->message, ": job 'w': write_lat_log=all: cannot write the log "
					       "all_clat.log: Permission denied: expected "));
	assert_int_equal(c.pieces, 0);
	g_clear_error(&error);
	/* a temporary directory that is not there, for per_job_logs=0 */
	c.refuse = NULL;
	g_hash_table_remove_all(c.logs);
	opts.temp_dir = "/nonexistent-dir";
	assert_null(wbsim_run(scn, &opts, &error));
	assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_IO));
	assert_non_null(strstr(error->message, ": job 'w': per_job_logs=0: the rows of its logs wait "
					       "until the job ends in a temporary file: /nonexistent-dir: "));
	g_clear_error(&error);
	/* both clones' 8192 rows in each shared file, one clone after the other */
	g_hash_table_remove_all(c.logs);
	c.opens = c.appends = 0;
	opts.temp_dir = dir;
	r = wbsim_run(scn, &opts, &error);
	assert_non_null(r);
	assert_int_equal(c.opens, 2 * 4);	/* iops, lat, slat, clat per clone */
	assert_int_equal(c.appends, 2 * 4);
	lat = g_hash_table_lookup(c.logs, "all_lat.log");
	assert_non_null(lat);
	rows = g_strsplit(lat->str, "\n", -1);
	assert_int_equal(g_strv_length(rows), 2 * 8192 + 1);
	/* about 200 KB a log and clone: in pieces of 64 KiB (spooled), not
	 * one each (held in memory) */
	assert_true(c.pieces > 2 * 3 * 2);
	d = g_dir_open(dir, 0, NULL);
	assert_null(g_dir_read_name(d));	/* the spool left nothing */
	g_rmdir(dir);
	g_hash_table_destroy(c.logs);
}

/* wbsim_run_opts.temp_dir for trace.dat: a directory that is not there */
static void test_trace_dat_temp_dir(void **state)
{
	g_autoptr(wbsim_scenario) scn = small_scenario();
	g_autoptr(GError) error = NULL;
	const wbsim_run_opts opts = { .trace_dat = TRUE, .temp_dir = "/nonexistent-dir" };

	(void)state;
	assert_null(wbsim_run(scn, &opts, &error));
	assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_IO));
	assert_string_equal(error->message, "trace.dat: its pages wait until the end in a temporary "
			    "file: /nonexistent-dir: cannot make a temporary file there: No such file "
			    "or directory: expected a directory where files can be made");
}

static void test_reports(void **state)
{
	g_autoptr(wbsim_scenario) scn = small_scenario();
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = wbsim_run(scn, NULL, &error);
	g_autoptr(wbsim_result) again = wbsim_run(scn, NULL, &error);
	g_autofree char *text = NULL, *text2 = NULL, *json = NULL, *plus = NULL, *csv = NULL;
	g_autofree char *bw = wbsim_format_bandwidth(512 * 1024 * 1024);
	g_auto(GStrv) rows = NULL;

	(void)state;
	assert_non_null(r);
	text = wbsim_result_report(r, WBSIM_FORMAT_TEXT, FALSE, NULL);
	text2 = wbsim_result_report(again, WBSIM_FORMAT_TEXT, FALSE, NULL);
	assert_true(g_str_has_prefix(text, "w: (g=0): rw=write"));
	assert_string_equal(text, text2);	/* same seed, same bytes */
	json = wbsim_result_report(r, WBSIM_FORMAT_JSON, FALSE, NULL);
	plus = wbsim_result_report(r, WBSIM_FORMAT_JSON_PLUS, FALSE, NULL);
	assert_int_equal(json[0], '{');
	assert_int_equal(json[strlen(json) - 1], '\n');
	assert_null(strstr(json, "\"bins\""));
	assert_non_null(strstr(plus, "\"bins\""));
	csv = wbsim_result_report(r, WBSIM_FORMAT_CSV, FALSE, NULL);
	assert_true(g_str_has_prefix(csv, "write_bw_mib_s,pauses,max_pause_ms,"));
	rows = g_strsplit(csv, "\n", -1);
	assert_int_equal(g_strv_length(rows), 3);	/* header, row, "" */
	assert_string_equal(bw, "512MiB/s");
}

/*
 * issue 39: the result reports after its scenario is freed (result.h says
 * it may be: the reports read the fio jobs, which the result now keeps);
 * under ASan the text, JSON and CSV reports were heap uses after free.
 */
static void test_report_after_scenario_free(void **state)
{
	wbsim_scenario *scn = small_scenario();
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = wbsim_run(scn, NULL, &error);
	g_autofree char *before = NULL, *after = NULL, *csv_before = NULL, *csv_after = NULL;
	g_autofree char *json_before = NULL, *json_after = NULL;

	(void)state;
	assert_non_null(r);
	before = wbsim_result_report(r, WBSIM_FORMAT_TEXT, FALSE, &error);
	json_before = wbsim_result_report(r, WBSIM_FORMAT_JSON_PLUS, FALSE, &error);
	csv_before = wbsim_result_report(r, WBSIM_FORMAT_CSV, FALSE, &error);
	wbsim_scenario_free(scn);
	after = wbsim_result_report(r, WBSIM_FORMAT_TEXT, FALSE, &error);
	json_after = wbsim_result_report(r, WBSIM_FORMAT_JSON_PLUS, FALSE, &error);
	csv_after = wbsim_result_report(r, WBSIM_FORMAT_CSV, FALSE, &error);
	assert_null(error);
	assert_string_equal(after, before);
	assert_string_equal(json_after, json_before);
	assert_string_equal(csv_after, csv_before);
	/* the job's description and options come from the freed scenario's text */
	assert_non_null(strstr(json_after, "\"job options\""));
}

/* issue 39: a format out of enum wbsim_format's range was the text report */
static void test_report_format_range(void **state)
{
	g_autoptr(wbsim_scenario) scn = small_scenario();
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = wbsim_run(scn, NULL, &error);
	static const int bad[] = { 42, -1, WBSIM_FORMAT_CSV + 1 };

	(void)state;
	assert_non_null(r);
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree char *want = g_strdup_printf(
			"format %d: expected WBSIM_FORMAT_TEXT, WBSIM_FORMAT_JSON, "
			"WBSIM_FORMAT_JSON_PLUS or WBSIM_FORMAT_CSV", bad[i]);

		assert_null(wbsim_result_report(r, (enum wbsim_format)bad[i], FALSE, &error));
		assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
		assert_string_equal(error->message, want);
		g_clear_error(&error);
	}
}

static void test_trace_select(void **state)
{
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) one = wbsim_trace_events_select("writeback:balance_dirty_pages", &error);
	g_auto(GStrv) all = wbsim_trace_events_select("writeback", &error);
	g_auto(GStrv) none = NULL;

	(void)state;
	assert_non_null(one);
	assert_int_equal(g_strv_length(one), 1);
	assert_string_equal(one[0], "balance_dirty_pages");
	assert_true(g_strv_length(all) > 1);
	assert_true(g_strv_contains((const char *const *)all, "balance_dirty_pages"));
	none = wbsim_trace_events_select("writeback:no_such_event", &error);
	assert_null(none);
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
	/* issue 39: the library's parameter, not sim-writeback's --trace-events */
	assert_true(g_str_has_prefix(error->message, "trace event list writeback:no_such_event: "
				     "'writeback:no_such_event' matches no tracepoint: expected "));
	g_clear_error(&error);
	/* bytes that are not UTF-8 aborted in g_pattern_match_simple() (fuzz-trace-events) */
	assert_null(wbsim_trace_events_select("writeback\xba*", &error));
	assert_string_equal(error->message, "trace event list: not UTF-8 text: expected writeback, "
			    "writeback:EVENT or EVENT, comma-separated");
	g_clear_error(&error);
	assert_null(wbsim_trace_events_select("", &error));
	assert_string_equal(error->message, "trace event list '': an empty list selects no "
			    "tracepoint: expected writeback (every event), writeback:EVENT or EVENT, "
			    "comma-separated");
}

static void test_trace_dat(void **state)
{
	g_autoptr(wbsim_scenario) scn = small_scenario();
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = NULL, plain = NULL;
	const char *events[] = { "balance_dirty_pages", NULL };
	const char *bad[] = { "no_such_event", NULL };
	wbsim_run_opts opts = { .trace_dat = TRUE };
	g_autofree char *dir = g_dir_make_tmp("wbsim-dat-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "t.dat", NULL);
	g_autofree char *contents = NULL;
	gsize len = 0;
	FILE *f;

	(void)state;
	/* a name the model never emits is refused, not silently empty */
	opts.trace_events = bad;
	assert_null(wbsim_run(scn, &opts, &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	opts.trace_events = events;
	r = wbsim_run(scn, &opts, &error);
	assert_non_null(r);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_true(wbsim_result_write_trace_dat(r, f, path, &error));
	assert_int_equal(fclose(f), 0);
	assert_true(g_file_get_contents(path, &contents, &len, NULL));
	/* trace-cmd's magic, then "tracing" and the file version */
	assert_true(len > 10);
	assert_memory_equal(contents, "\x17\x08\x44tracing", 10);
	/* a run that recorded nothing has nothing to write */
	plain = wbsim_run(scn, NULL, &error);
	assert_non_null(plain);
	f = fopen(path, "wb");
	assert_false(wbsim_result_write_trace_dat(plain, f, path, &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
	fclose(f);
	g_unlink(path);
	g_rmdir(dir);
}

/* wbsim_sweep_run_tasks(): texts out of order, emitted in order */
static char *task_text(size_t point, void *arg, GError **error)
{
	(void)arg;
	(void)error;
	g_usleep((gulong)(3 - point) * 2000);	/* the last finishes first */
	return g_strdup_printf("%zu;", point);
}

static gboolean emit_text(size_t point, const char *text, void *arg, GError **error)
{
	(void)point;
	(void)error;
	g_string_append(arg, text);
	return TRUE;
}

static void test_sweep(void **state)
{
	g_autofree char *dir = NULL;
	g_autofree char *path = small_file(&dir);
	g_autofree char *results = g_build_filename(dir, "r.jsonl", NULL);
	g_autoptr(GError) error = NULL;
	const char *axes[] = { "writeback.contexts=1,2", NULL };
	const char *bad_axes[] = { "writeback.contexts", NULL };
	const char *seed_axes[] = { "writeback.contexts=1,2", "run.seed=1,2", NULL };
	wbsim_sweep_opts o = { .sweeps = axes, .format = WBSIM_FORMAT_CSV };
	const struct wbsim_sweep_info *info;
	g_autofree char *p0 = NULL, *p1 = NULL;
	g_autoptr(GString) order = g_string_new(NULL);

	(void)state;
	/* no axes, one seed, no results file: a plain run */
	{
		g_autoptr(wbsim_sweep) one = wbsim_sweep_load(path, NULL, &error);

		assert_non_null(one);
		assert_non_null(wbsim_sweep_scenario(one));
		info = wbsim_sweep_info(one);
		assert_false(info->sweep);
		assert_int_equal(info->n_axes, 0);
		assert_int_equal(info->n_points, 1);
		assert_null(info->header);
	}
	o.sweeps = bad_axes;
	assert_null(wbsim_sweep_load(path, &o, &error));
	assert_int_equal(error->code, WBSIM_ERROR_PARSE);
	g_clear_error(&error);
	o.sweeps = axes;
	{
		g_autoptr(wbsim_sweep) sw = wbsim_sweep_load(path, &o, &error);

		assert_non_null(sw);
		info = wbsim_sweep_info(sw);
		assert_true(info->sweep);
		assert_int_equal(info->n_axes, 1);
		assert_int_equal(info->n_points, 2);
		assert_true(g_str_has_prefix(info->header, "writeback.contexts,write_bw_mib_s,"));
		/* without a results file: nothing stored, nothing written */
		assert_true(wbsim_sweep_start(sw, &error));
		assert_int_equal(info->n_done, 0);
		assert_null(wbsim_sweep_done_text(sw, 0));
		p0 = wbsim_sweep_point_output(sw, 0, NULL, &error);
		p1 = wbsim_sweep_point_output(sw, 1, NULL, &error);
		assert_true(g_str_has_prefix(p0, "1,"));
		assert_true(g_str_has_prefix(p1, "2,"));
		assert_true(wbsim_sweep_record(sw, 1, p1, &error));
		assert_null(wbsim_sweep_point_output(sw, 2, NULL, &error));
		assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
		g_clear_error(&error);
	}

	/* the results file: a point recorded is there when reopened */
	o.results = results;
	{
		g_autoptr(wbsim_sweep) sw = wbsim_sweep_load(path, &o, &error);

		assert_non_null(sw);
		assert_true(wbsim_sweep_start(sw, &error));
		assert_int_equal(wbsim_sweep_info(sw)->n_done, 0);
		assert_null(wbsim_sweep_done_text(sw, 1));
		assert_true(wbsim_sweep_record(sw, 1, p1, &error));
	}
	{
		g_autoptr(wbsim_sweep) sw = wbsim_sweep_load(path, &o, &error);

		assert_non_null(sw);
		assert_true(wbsim_sweep_start(sw, &error));
		assert_int_equal(wbsim_sweep_info(sw)->n_done, 1);
		assert_string_equal(wbsim_sweep_done_text(sw, 1), p1);
		assert_null(wbsim_sweep_done_text(sw, 0));
	}
	/* another output is another sweep: the file is refused */
	o.format = WBSIM_FORMAT_JSON;
	{
		g_autoptr(wbsim_sweep) sw = wbsim_sweep_load(path, &o, &error);

		assert_non_null(sw);
		g_autofree char *want = g_strdup_printf(
			"wbsim_sweep_opts.results %s: holds the results of another sweep: its format "
			"is \"csv\", this run's is \"json\" (give another file, or remove it to start again)",
			results);

		assert_false(wbsim_sweep_start(sw, &error));
		assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
		/* issue 39: the library's parameter, not sim-writeback's --results */
		assert_string_equal(error->message, want);
		g_clear_error(&error);
	}
	/* a results file alone makes one run a sweep of one point */
	{
		const wbsim_sweep_opts one = { .results = results };
		g_autoptr(wbsim_sweep) sw = wbsim_sweep_load(path, &one, &error);

		assert_non_null(sw);
		assert_true(wbsim_sweep_info(sw)->sweep);
		assert_int_equal(wbsim_sweep_info(sw)->n_points, 1);
	}
	/* json+ is for one run; --repeat with the seed swept */
	o.results = NULL;
	o.format = WBSIM_FORMAT_JSON_PLUS;
	assert_null(wbsim_sweep_load(path, &o, &error));
	assert_string_equal(error->message,
			    "wbsim_sweep_opts.format WBSIM_FORMAT_JSON_PLUS: for one run (a sweep writes its points as json)");
	g_clear_error(&error);
	o.format = WBSIM_FORMAT_CSV;
	o.sweeps = seed_axes;
	o.repeat = 3;
	assert_null(wbsim_sweep_load(path, &o, &error));
	assert_string_equal(error->message,
			    "wbsim_sweep_opts.repeat 3: run.seed is swept: expected a repeat or a sweep of run.seed, not both");
	g_clear_error(&error);
	o.repeat = WBSIM_SWEEP_MAX_REPEAT + 1;
	o.sweeps = axes;
	assert_null(wbsim_sweep_load(path, &o, &error));
	assert_string_equal(error->message, "repeat 1001: expected an integer from 1 to 1000");
	g_clear_error(&error);
	/* issue 39: a format out of the enum's range was a JSON sweep */
	o.repeat = 0;
	o.format = (enum wbsim_format)42;
	assert_null(wbsim_sweep_load(path, &o, &error));
	assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	assert_string_equal(error->message, "wbsim_sweep_opts.format 42: expected WBSIM_FORMAT_TEXT, "
			    "WBSIM_FORMAT_JSON, WBSIM_FORMAT_JSON_PLUS or WBSIM_FORMAT_CSV");
	g_clear_error(&error);
	o.format = WBSIM_FORMAT_CSV;
	o.reserved[0] = &o;
	assert_null(wbsim_sweep_load(path, &o, &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);

	assert_true(wbsim_sweep_run_tasks(4, 3, task_text, NULL, emit_text, order, &error));
	assert_string_equal(order->str, "0;1;2;3;");
	g_unlink(results);
	g_unlink(path);
	g_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iterators),
		cmocka_unit_test(test_run_options),
		cmocka_unit_test(test_fio_logs),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_report_after_scenario_free),
		cmocka_unit_test(test_report_format_range),
		cmocka_unit_test(test_trace_select),
		cmocka_unit_test(test_trace_dat),
		cmocka_unit_test(test_trace_dat_temp_dir),
		cmocka_unit_test(test_fio_log_checks),
		cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
