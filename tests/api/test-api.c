/* SPDX-License-Identifier: MIT */
/*
 * test-api.c - the public API as a program outside the tree uses it (linked
 * against the shared library, public headers only): the scenario builder
 * and its errors, callbacks at samples, trace events and measurement
 * points, the result accessors, the affinity registry and its checks, and
 * the version check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>
#include <wbsim/wbsim.h>

/* Two files of 4 MiB written through the page cache of a 2-CPU machine. */
static wbsim_scenario *small_scenario(const char *affinity, const char *contexts)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("small");
	g_autoptr(GError) error = NULL;
	wbsim_scenario *scn;

	assert_true(wbsim_scenario_builder_set(b, "machine.cpus", "2", &error));
	assert_true(wbsim_scenario_builder_set(b, "machine.memory", "2G", &error));
	assert_true(wbsim_scenario_builder_set(b, "writeback.contexts", contexts, &error));
	assert_true(wbsim_scenario_builder_set(b, "writeback.affinity", affinity, &error));
	assert_true(wbsim_scenario_builder_set(b, "run.series_interval", "50ms", &error));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w",
		"rw=write\nbs=64k\nsize=8m\nnrfiles=2\nend_fsync=1\n", &error));
	scn = wbsim_scenario_builder_build(b, &error);
	if (!scn)
		fail_msg("%s", error->message);
	return scn;
}

static void test_builder_text_and_errors(void **state)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("demo");
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;
	wbsim_scenario *scn;

	assert_true(wbsim_scenario_builder_set(b, "vm.dirty_ratio", "20", NULL));
	assert_true(wbsim_scenario_builder_set(b, "machine.cpus", "4", NULL));
	assert_true(wbsim_scenario_builder_set(b, "vm.dirty_ratio", "30", NULL));
	assert_true(wbsim_scenario_builder_set(b, "events.at", "1s sync", NULL));
	assert_true(wbsim_scenario_builder_set(b, "events.at", "2s sync", NULL));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "j", "rw=write\nsize=1m", NULL));
	text = wbsim_scenario_builder_text(b);
	assert_string_equal(text,
		"# scenario built in code: demo\n"
		"\n[vm]\ndirty_ratio = 30\n"
		"\n[machine]\ncpus = 4\n"
		"\n[events]\nat = 1s sync\nat = 2s sync\n"
		"\n[fio:j]\nrw=write\nsize=1m\n");

	assert_false(wbsim_scenario_builder_set(b, "nodot", "1", &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
	assert_string_equal(error->message, "key 'nodot': expected section.key");
	g_clear_error(&error);
	assert_false(wbsim_scenario_builder_set(b, "vm.dirty_ratio", "1\n[vm]", &error));
	assert_string_equal(error->message, "value '1\n[vm]' holds a line break");
	g_clear_error(&error);
	assert_false(wbsim_scenario_builder_add_fio_job(b, "a]b", "", &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	assert_null(wbsim_run(NULL, NULL, &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
	assert_string_equal(error->message, "wbsim_run: invalid argument: expected scn != NULL");
	g_clear_error(&error);
	/* issue 21: "2;x" was read as 2, a header in job text made a job */
	assert_false(wbsim_scenario_builder_set(b, "machine.cpus", "2;x", &error));
	assert_string_equal(error->message,
			    "value '2;x' holds ';': expected text without ';' or '#' (a scenario line is cut there)");
	g_clear_error(&error);
	assert_false(wbsim_scenario_builder_add_fio_job(b, "w", "rw=write\n[fio:x]\nsize=1m", &error));
	assert_string_equal(error->message,
			    "fio job 'w': line 2 '[fio:x]' is a section header: expected option lines only (add each job with its own call)");
	g_clear_error(&error);

	/* issue 39: keys a scenario file's line could not hold back; each
	 * was accepted and read back as another key, or none */
	{
		static const char *const bad[][2] = {
			{ "vm.dirty_ratio=30", "'='" },
			{ "vm[x].dirty_ratio", "'['" },
			{ "vm.dirty]ratio", "']'" },
			{ "vm.dirty ratio", "a blank" },
			{ " vm.dirty_ratio", "a blank" },
			{ "vm.dirty_ratio\t", "a blank" },
			{ "vm.dirty\x01ratio", "a control character" },
		};

		for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
			g_autofree char *want = g_strdup_printf(
				"key '%s' holds %s: expected section.key without '=', '[', ']', "
				"blanks or control characters (a scenario file could not hold it)",
				bad[i][0], bad[i][1]);

			assert_false(wbsim_scenario_builder_set(b, bad[i][0], "30", &error));
			assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
			assert_string_equal(error->message, want);
			g_clear_error(&error);
		}
	}
	assert_false(wbsim_scenario_builder_add_fio_job(b, " w", "rw=write\n", &error));
	assert_string_equal(error->message,
			    "fio job name ' w': expected a non-empty name without '[', ']' or a blank at either end");
	g_clear_error(&error);
	{
		g_autofree char *again = wbsim_scenario_builder_text(b);

		assert_string_equal(again, text);	/* nothing refused was kept */
	}

	/* a bad value is found when building, named as a file line would be */
	assert_true(wbsim_scenario_builder_set(b, "vm.dirty_ratio", "200", NULL));
	scn = wbsim_scenario_builder_build(b, &error);
	assert_null(scn);
	assert_int_equal(error->domain, WBSIM_ERROR);
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
	assert_non_null(strstr(error->message, "demo:4: [vm] dirty_ratio = 200"));
}

struct seen {
	unsigned int samples;
	double last_row[64];
	unsigned int n_columns;
	unsigned int traces;
	unsigned int wrong_event;
	unsigned int job_ends;
	unsigned int run_ends;
	wbsim_time_t run_end_ns;
	char job_name[64];
};

static void on_sample(wbsim_time_t now_ns, const char *const *columns, const double *values,
		      unsigned int n_columns, void *user_data)
{
	struct seen *s = user_data;

	assert_string_equal(columns[0], "time_s");
	assert_true(values[0] == now_ns / 1e9);
	assert_true(n_columns <= G_N_ELEMENTS(s->last_row));
	memcpy(s->last_row, values, n_columns * sizeof(double));
	s->n_columns = n_columns;
	s->samples++;
}

static void on_trace(const char *event, const char *line, void *user_data)
{
	struct seen *s = user_data;

	s->traces++;
	if (strcmp(event, "global_dirty_state") || !strstr(line, " global_dirty_state: "))
		s->wrong_event++;
}

static void on_point(enum wbsim_point point, wbsim_time_t now_ns, int job, const char *name,
		     void *user_data)
{
	struct seen *s = user_data;

	if (point == WBSIM_POINT_JOB_END) {
		assert_int_equal(job, 0);
		g_strlcpy(s->job_name, name, sizeof(s->job_name));
		s->job_ends++;
	} else {
		assert_int_equal(job, -1);
		s->run_end_ns = now_ns;
		s->run_ends++;
	}
}

/* Callbacks see what the results hold; the accessors agree with each other. */
static void test_run_callbacks_and_results(void **state)
{
	g_autoptr(wbsim_scenario) scn = small_scenario("inode", "2");
	const char *const events[] = { "global_dirty_state", NULL };
	struct seen s = { 0 };
	const wbsim_run_opts opts = {
		.check = TRUE,
		.trace_events = events,
		.sample_fn = on_sample,
		.trace_fn = on_trace,
		.point_fn = on_point,
		.user_data = &s,
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = NULL;
	const struct wbsim_result_summary *sum;
	const struct wbsim_result_job *job;
	const struct wbsim_result_wb *wb;
	const struct wbsim_result_file *file;
	const double *row, *last = NULL;
	unsigned int i, rows;
	uint64_t written = 0;

	/* issue 21: a name never emitted was accepted and delivered nothing */
	{
		const char *const typo[] = { "global_dirty_state", "balance_dirty_page", NULL };
		const wbsim_run_opts bad = { .trace_events = typo, .trace_fn = on_trace,
					     .user_data = &s };

		assert_null(wbsim_run(scn, &bad, &error));
		assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
		/* the message goes on with every tracepoint's name */
		assert_true(g_str_has_prefix(error->message,
					     "wbsim_run_opts.trace_events: unknown tracepoint "
					     "'balance_dirty_page': expected one of writeback_queue, "));
		g_clear_error(&error);
	}
	/* a reserved member is refused: it may be an option of a newer wbsim */
	{
		const wbsim_run_opts newer = { .reserved = { [0] = &s } };

		assert_null(wbsim_run(scn, &newer, &error));
		assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
		assert_string_equal(error->message, "wbsim_run_opts.reserved[0]: not zero: "
				    "expected zero (an option of a newer wbsim?)");
		g_clear_error(&error);
	}
	r = wbsim_run(scn, &opts, &error);
	if (!r)
		fail_msg("%s", error->message);
	sum = wbsim_result_summary(r);

	/* jobs: fio's figures */
	assert_int_equal(sum->n_jobs, 1);
	job = wbsim_result_job(r, 0);
	assert_non_null(job);
	assert_null(wbsim_result_job(r, 1));		/* the end of the list */
	assert_string_equal(job->name, "w");
	assert_int_equal(job->bytes, 8 << 20);		/* fio: size is the total */
	assert_int_equal(job->ios, 128);
	assert_true(job->runtime_ns > 0);
	assert_true(job->bw_kibps == (8 << 20) / 1024.0 / (job->runtime_ns / 1e9));
	assert_true(job->iops == 128 / (job->runtime_ns / 1e9));
	assert_true(wbsim_result_job_lat_percentile_ns(r, 0, 50) <=
		    wbsim_result_job_lat_percentile_ns(r, 0, 99.9));
	assert_true(wbsim_result_job_lat_percentile_ns(r, 0, 50) > 0);
	assert_int_equal(wbsim_result_job_lat_percentile_ns(r, 1, 50), 0);
	assert_true(job->lat_mean_ns > 0);

	/* end_fsync: every dirtied page was written, by the device too */
	assert_int_equal(sum->pages_dirtied, 2048);
	assert_int_equal(sum->pages_written, 2048);
	assert_int_equal(sum->device_bytes, 8 << 20);
	assert_string_equal(sum->device, "ideal");
	assert_string_equal(sum->affinity, "inode");
	assert_int_equal(sum->n_wbs, 2);
	for (i = 0; (wb = wbsim_result_wb(r, i)); i++)
		written += wb->pages_completed;
	assert_int_equal(i, 2);
	assert_int_equal(written, 2048);

	/* files: two, each written back by the one context of its inode */
	assert_int_equal(sum->n_files, 2);
	for (i = 0; (file = wbsim_result_file(r, i)); i++) {
		assert_string_equal(file->moment, "end");
		assert_non_null(strstr(file->path, "w.0."));
		assert_true(file->extents >= 1);
		assert_true(file->written_by == 0 || __builtin_popcountll(file->written_by) == 1);
	}
	assert_int_equal(i, 2);

	/* the series as the sample callback saw it */
	for (rows = 0; (row = wbsim_result_series_row(r, rows)); rows++)
		last = row;
	assert_int_equal(rows, sum->n_series_rows);
	assert_int_equal(s.samples, rows);
	assert_int_equal(s.n_columns, sum->n_series_columns);
	assert_string_equal(wbsim_result_series_column(r, 0), "time_s");
	assert_null(wbsim_result_series_column(r, sum->n_series_columns));
	assert_int_equal(wbsim_result_series_find_column(r, "dirty_pages"), 1);
	assert_int_equal(wbsim_result_series_find_column(r, "no-such-column"), -1);
	assert_non_null(last);
	assert_memory_equal(last, s.last_row, sum->n_series_columns * sizeof(double));
	assert_true(last[0] == sum->sim_time_ns / 1e9);

	/* trace: only the selected event; points: one job end, one run end */
	assert_true(s.traces > 0);
	assert_int_equal(s.wrong_event, 0);
	assert_int_equal(s.job_ends, 1);
	assert_string_equal(s.job_name, "w");
	assert_int_equal(s.run_ends, 1);
	assert_int_equal(s.run_end_ns, sum->sim_time_ns);
}

static unsigned int first_select(struct wbsim_affinity_inode *inode, unsigned int nr_contexts)
{
	return 0;
}

static const struct wbsim_affinity_ops first_ops = {
	.name = "test-first",
	.version = WBSIM_AFFINITY_OPS_VERSION,
	.flags = WBSIM_AFFINITY_FIXED,
	.select = first_select,
};

/* Registration checks the ops as fio's check_engine_ops() does; a
 * registered policy is a valid [writeback] affinity and is used. */
/*
 * wbsim_run_opts.stop: a run whose flag is set (here by its own sample
 * callback, as a signal handler would between two events) stops at the
 * simulated time it reached and returns whole results of that time,
 * marked interrupted; the same stop gives the same results; a flag that
 * stays zero changes nothing.
 */
struct stop_state {
	volatile sig_atomic_t flag;
	unsigned int samples;
	unsigned int stop_at;		/* the sample that sets the flag */
	wbsim_time_t flagged_ns;	/* its time */
	wbsim_time_t last_sample_ns;
	wbsim_time_t run_end_ns;
	gboolean run_end;
};

static void stop_on_sample(wbsim_time_t now, const char *const *columns, const double *row,
			   unsigned int n, void *arg)
{
	struct stop_state *st = arg;

	(void)columns;
	(void)row;
	(void)n;
	st->last_sample_ns = now;
	if (++st->samples == st->stop_at) {
		st->flag = 1;
		st->flagged_ns = now;
	}
}

static void stop_on_point(enum wbsim_point point, wbsim_time_t now, int job,
			  const char *name, void *arg)
{
	struct stop_state *st = arg;

	(void)job;
	(void)name;
	if (point == WBSIM_POINT_RUN_END) {
		st->run_end = TRUE;
		st->run_end_ns = now;
	}
}

static wbsim_result *run_stopped(const wbsim_scenario *scn, struct stop_state *st)
{
	const wbsim_run_opts opts = {
		.check = TRUE,
		.sample_fn = stop_on_sample,
		.point_fn = stop_on_point,
		.user_data = st,
		.stop = &st->flag,
	};
	g_autoptr(GError) error = NULL;
	wbsim_result *r = wbsim_run(scn, &opts, &error);

	if (!r)
		fail_msg("%s", error->message);
	return r;
}

static void test_run_stop(void **state)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("stop");
	g_autoptr(wbsim_scenario) scn = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) whole = NULL, plain = NULL, r = NULL, again = NULL, at0 = NULL;
	g_autofree char *whole_text = NULL, *plain_text = NULL, *r_text = NULL, *again_text = NULL;
	g_autofree char *want = NULL;
	struct stop_state never = { 0 }, st = { .stop_at = 5 }, st2 = { .stop_at = 5 };
	struct stop_state pre = { .flag = 1 };
	const struct wbsim_result_summary *sum;
	const double *last;
	unsigned int n_warn;
	gboolean said = FALSE;

	(void)state;
	assert_true(wbsim_scenario_builder_set(b, "machine.cpus", "2", &error));
	assert_true(wbsim_scenario_builder_set(b, "machine.memory", "2G", &error));
	assert_true(wbsim_scenario_builder_set(b, "run.series_interval", "10ms", &error));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w", "rw=write\nbs=64k\nsize=256m\n",
						       &error));
	scn = wbsim_scenario_builder_build(b, &error);
	if (!scn)
		fail_msg("%s", error->message);

	/* a flag that stays zero: the run as without one */
	whole = run_stopped(scn, &never);
	plain = wbsim_run(scn, &(const wbsim_run_opts){ .check = TRUE }, &error);
	assert_non_null(plain);
	assert_false(wbsim_result_interrupted(whole));
	assert_false(wbsim_result_interrupted(plain));
	whole_text = wbsim_result_report(whole, WBSIM_FORMAT_JSON, FALSE, NULL);
	plain_text = wbsim_result_report(plain, WBSIM_FORMAT_JSON, FALSE, NULL);
	assert_string_equal(whole_text, plain_text);
	assert_int_equal(wbsim_result_job(whole, 0)->bytes, 256 << 20);
	assert_true(never.samples > 5);

	/* set at the fifth sample (40 ms): the run stops there */
	r = run_stopped(scn, &st);
	assert_true(wbsim_result_interrupted(r));
	assert_int_equal(st.flagged_ns, 40000000);
	sum = wbsim_result_summary(r);
	assert_int_equal(sum->sim_time_ns, st.flagged_ns);
	/* the final row is of that time, the run's end point too */
	assert_int_equal(st.last_sample_ns, st.flagged_ns);
	assert_true(st.run_end);
	assert_int_equal(st.run_end_ns, st.flagged_ns);
	assert_int_equal(sum->n_series_rows, 5);
	last = wbsim_result_series_row(r, sum->n_series_rows - 1);
	assert_true(last[0] == 0.04);
	/* the job's I/O so far, over the time it ran */
	assert_true(wbsim_result_job(r, 0)->bytes > 0);
	assert_true(wbsim_result_job(r, 0)->bytes < wbsim_result_job(whole, 0)->bytes);
	assert_true(wbsim_result_job(r, 0)->runtime_ns <= st.flagged_ns);
	/* a note says where it stopped */
	want = g_strdup_printf("the run was interrupted at 0.040000000 s of simulated time: "
			       "these are the results of the time simulated so far");
	n_warn = sum->n_warnings;
	for (unsigned int i = 0; i < n_warn; i++)
		said |= strcmp(wbsim_result_warning(r, i), want) == 0;
	assert_true(said);
	for (unsigned int i = 0; i < wbsim_result_summary(whole)->n_warnings; i++)
		assert_null(strstr(wbsim_result_warning(whole, i), "interrupted"));

	/* the same stop, the same results */
	again = run_stopped(scn, &st2);
	r_text = wbsim_result_report(r, WBSIM_FORMAT_JSON, FALSE, NULL);
	again_text = wbsim_result_report(again, WBSIM_FORMAT_JSON, FALSE, NULL);
	assert_string_equal(r_text, again_text);
	assert_string_not_equal(r_text, whole_text);

	/* set before the run: it stops at time 0 */
	at0 = run_stopped(scn, &pre);
	assert_true(wbsim_result_interrupted(at0));
	assert_int_equal(wbsim_result_summary(at0)->sim_time_ns, 0);
}

static void test_affinity_registry(void **state)
{
	struct wbsim_affinity_ops bad = first_ops;
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) names = NULL;
	g_autoptr(wbsim_result) r = NULL;
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("bad-affinity");
	wbsim_scenario *scn;

	bad.version = WBSIM_AFFINITY_OPS_VERSION + 1;
	assert_false(wbsim_affinity_register(&bad, &error));
	assert_string_equal(error->message, "affinity policy 'test-first': bad ops version 2 (want 1)");
	g_clear_error(&error);
	bad = first_ops;
	bad.select = NULL;
	assert_false(wbsim_affinity_register(&bad, &error));
	assert_string_equal(error->message, "affinity policy 'test-first': missing hook select");
	g_clear_error(&error);
	bad = first_ops;
	bad.name = "inode";
	assert_false(wbsim_affinity_register(&bad, &error));
	assert_string_equal(error->message, "affinity policy 'inode' is already registered");
	g_clear_error(&error);

	/* before registration the name is refused with the list of names */
	assert_true(wbsim_scenario_builder_set(b, "writeback.affinity", "test-first", NULL));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w", "rw=write\nsize=1m\n", NULL));
	assert_null(wbsim_scenario_builder_build(b, &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
	assert_non_null(strstr(error->message,
			       "[writeback] affinity = test-first: expected one of: inode, none"));
	g_clear_error(&error);

	assert_true(wbsim_affinity_register(&first_ops, &error));
	assert_ptr_equal(wbsim_affinity_lookup("test-first"), &first_ops);
	assert_null(wbsim_affinity_lookup("test-second"));
	names = wbsim_affinity_names();
	assert_int_equal(g_strv_length(names), 3);
	assert_string_equal(names[0], "inode");
	assert_string_equal(names[1], "none");
	assert_string_equal(names[2], "test-first");

	/* every file is charged to context 0, none to the others */
	scn = small_scenario("test-first", "4");
	r = wbsim_run(scn, NULL, &error);
	wbsim_scenario_free(scn);	/* the results outlive the scenario */
	if (!r)
		fail_msg("%s", error->message);
	assert_string_equal(wbsim_result_summary(r)->affinity, "test-first");
	assert_int_equal(wbsim_result_summary(r)->n_wbs, 4);
	assert_int_equal(wbsim_result_wb(r, 0)->pages_completed, 2048);
	for (unsigned int i = 1; i < 4; i++)
		assert_int_equal(wbsim_result_wb(r, i)->pages_completed, 0);
}

/* A device model written outside the tree: every request takes a fixed
 * time, one at a time. */
struct delay_dev {
	wbsim_time_t latency;
	struct wbsim_device *dev;
	struct wbsim_request *rq;
};

static const struct wbsim_param delay_params[] = {
	{ "latency", WBSIM_PARAM_TIME, offsetof(struct delay_dev, latency), "50us",
	  NULL, 1, 1e9, "time of one request" },
	{ .name = NULL },
};

static gboolean delay_init(struct wbsim_device *dev, GError **error)
{
	struct delay_dev *d = wbsim_device_priv(dev);

	d->dev = dev;
	wbsim_device_set_limits(dev, UINT64_C(1) << 31, 1, FALSE);
	return TRUE;
}

static void delay_done(wbsim_sim *sim, void *arg)
{
	struct delay_dev *d = arg;
	struct wbsim_request *rq = d->rq;

	d->rq = NULL;
	wbsim_device_end_request(d->dev, rq);
}

static void delay_queue_rq(struct wbsim_device *dev, struct wbsim_request *rq)
{
	struct delay_dev *d = wbsim_device_priv(dev);
	wbsim_sim *sim = wbsim_device_sim(dev);

	assert_null(d->rq);	/* queue depth 1 is respected */
	d->rq = rq;
	wbsim_sim_schedule_at(sim, wbsim_sim_now(sim) + d->latency, delay_done, d);
}

static const struct wbsim_device_ops delay_ops = {
	.name = "test-delay",
	.version = WBSIM_DEVICE_OPS_VERSION,
	.help = "fixed time per request, depth 1",
	.params = delay_params,
	.priv_size = sizeof(struct delay_dev),
	.default_scheduler = "none",
	.init = delay_init,
	.queue_rq = delay_queue_rq,
};

/* The device registry works from outside the tree: a preset file names the
 * registered model, and a scenario names the preset. */
static void test_external_device_model(void **state)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("wbsim-api-XXXXXX", NULL);
	g_autofree char *preset = g_build_filename(dir, "delay.ini", NULL);
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("ext-dev");
	g_autoptr(wbsim_scenario) scn = NULL;
	g_autoptr(wbsim_result) r = NULL;

	assert_true(wbsim_device_register(&delay_ops, &error));
	assert_true(g_file_set_contents(preset, "[device]\nmodel = test-delay\nlatency = 20us\n",
					-1, NULL));
	assert_true(wbsim_scenario_builder_set(b, "device.preset", preset, NULL));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w",
		"rw=write\nbs=1m\nsize=4m\nend_fsync=1\n", NULL));
	scn = wbsim_scenario_builder_build(b, &error);
	if (!scn)
		fail_msg("%s", error->message);
	r = wbsim_run(scn, NULL, &error);	/* the preset is read here */
	g_unlink(preset);
	g_rmdir(dir);
	if (!r)
		fail_msg("%s", error->message);
	assert_int_equal(wbsim_result_summary(r)->device_bytes, 4 << 20);
	assert_true(wbsim_result_summary(r)->device_requests >= 4);
}

/* Checks the fault of @table's first bad row: the exact message. */
static void assert_table_fault(const struct wbsim_param *table, size_t size, const char *msg)
{
	g_autoptr(GError) error = NULL;

	assert_false(wbsim_param_table_check(table, size, &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_ARGUMENT);
	assert_string_equal(error->message, msg);
}

/* wbsim/param.h: the model's table checked and its struct filled as the
 * registry fills it, in the one grammar; each fault named exactly. */
static void test_param_table(void **state)
{
	struct delay_dev d = { 0 };
	g_autoptr(GError) error = NULL;
	static const struct wbsim_param twice[] = {
		{ "latency", WBSIM_PARAM_TIME, 0, "1us", NULL, 0, 0, "a" },
		{ "latency", WBSIM_PARAM_TIME, 8, "1us", NULL, 0, 0, "b" },
		{ .name = NULL },
	};
	static const struct wbsim_param no_help[] = {
		{ "latency", WBSIM_PARAM_TIME, 0, "1us", NULL, 0, 0, "" },
		{ .name = NULL },
	};
	static const struct wbsim_param backwards[] = {
		{ "depth", WBSIM_PARAM_UINT, 0, "4", "requests", 8, 2, "queue depth" },
		{ .name = NULL },
	};
	static const struct wbsim_param bad_default[] = {
		{ "latency", WBSIM_PARAM_TIME, 0, "50", NULL, 0, 0, "time of one request" },
		{ .name = NULL },
	};
	static const struct wbsim_param default_out[] = {
		{ "depth", WBSIM_PARAM_UINT, 0, "64", "requests", 1, 32, "queue depth" },
		{ .name = NULL },
	};
	static const struct wbsim_param name_param[] = {
		{ "name", WBSIM_PARAM_STRING, 0, "disk0", NULL, 0, 0, "what to call it" },
		{ .name = NULL },
	};
	char *name = NULL;

	(void)state;
	assert_true(wbsim_param_table_check(delay_params, sizeof(struct delay_dev), &error));
	assert_true(wbsim_param_table_defaults(delay_params, &d, &error));
	assert_int_equal(d.latency, 50000);			/* "50us" */
	assert_true(wbsim_param_table_set(delay_params, &d, "latency", "2ms", &error));
	assert_int_equal(d.latency, 2000000);

	/* a bad value leaves the field as it was */
	assert_false(wbsim_param_table_set(delay_params, &d, "latency", "20", &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
	assert_string_equal(error->message, "parameter table: latency = 20: a number without "
			    "a unit: expected a time with a unit (ns, us, ms, s, m, h) from 1ns to 1s");
	g_clear_error(&error);
	assert_false(wbsim_param_table_set(delay_params, &d, "latency", "2s", &error));
	assert_string_equal(error->message, "parameter table: latency = 2s: expected a time "
			    "with a unit (ns, us, ms, s, m, h) from 1ns to 1s");
	g_clear_error(&error);
	assert_false(wbsim_param_table_set(delay_params, &d, "latncy", "2ms", &error));
	assert_int_equal(error->code, WBSIM_ERROR_UNKNOWN_KEY);
	assert_string_equal(error->message,
			    "parameter table: unknown key 'latncy': expected one of latency");
	g_clear_error(&error);
	assert_int_equal(d.latency, 2000000);

	/* a string row: set, replaced, cleared */
	assert_true(wbsim_param_table_defaults(name_param, &name, &error));
	assert_string_equal(name, "disk0");
	assert_true(wbsim_param_table_set(name_param, &name, "name", "disk1", &error));
	assert_string_equal(name, "disk1");
	wbsim_param_table_clear(name_param, &name);
	assert_null(name);

	/* the faults of a table, the first bad row named */
	assert_table_fault(delay_params, 4,
			   "parameter table: row 0: latency: its field (offset 0, 8 bytes) "
			   "lies outside the struct (4 bytes)");
	assert_table_fault(twice, 16, "parameter table: row 1: latency: the key is in the table twice");
	assert_table_fault(no_help, 8, "parameter table: row 0: latency: no help text");
	assert_table_fault(backwards, 8, "parameter table: row 0: depth: minimum 8 above maximum 2");
	assert_table_fault(bad_default, 8,
			   "parameter table: row 0: default of latency = 50: "
			   "a number without a unit: expected a time with a unit (ns, us, ms, s, m, h)");
	assert_table_fault(default_out, 8,
			   "parameter table: row 0: default of depth = 64: "
			   "expected an integer from 1 to 32");
}

/* A filesystem model written outside the tree: each file owns a region of
 * region_blocks blocks, written in place; one extent per written file. */
struct linear_params {
	uint64_t region_blocks;
};

static const struct wbsim_param linear_options[] = {
	{ "region_blocks", WBSIM_PARAM_UINT, offsetof(struct linear_params, region_blocks),
	  "4096", "blocks", 1, UINT64_C(1) << 32, "blocks reserved per file" },
	{ .name = NULL },
};

struct linear_fs {
	uint64_t next_ino;
	uint64_t next_region;
};

struct linear_inode {
	uint64_t start;		/* first device block of the region */
	uint64_t written;	/* blocks [0, written) of the file were mapped */
};

struct linear_call {
	wbsim_fs *fs;
	wbsim_fs_map_done_fn done;
	void *arg;
	struct wbsim_fs_map map;
};

/* Free space: four regions (64 MiB with region_blocks = 4096). */
static uint64_t linear_free(wbsim_fs *fs)
{
	const struct linear_params *p = wbsim_fs_params(fs);

	return 4 * p->region_blocks;
}

static gboolean linear_init(wbsim_fs *fs, GError **error)
{
	wbsim_fs_set_block_size(fs, 4096);
	wbsim_fs_set_private(fs, g_new0(struct linear_fs, 1));
	wbsim_fs_set_free_fn(fs, linear_free);
	return TRUE;
}

static void linear_exit(wbsim_fs *fs)
{
	g_free(wbsim_fs_get_private(fs));
}

static uint64_t linear_inode_init(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct linear_fs *lf = wbsim_fs_get_private(fs);
	const struct linear_params *p = wbsim_fs_params(fs);
	struct linear_inode *li = g_new0(struct linear_inode, 1);

	if (!wbsim_fs_inode_is_dir(inode))
		li->start = p->region_blocks * lf->next_region++;
	wbsim_fs_inode_set_private(inode, li);
	return 100 + lf->next_ino++;
}

static void linear_inode_exit(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	g_free(wbsim_fs_inode_get_private(inode));
}

static void linear_done(wbsim_sim *sim, void *arg)
{
	struct linear_call *c = arg;

	c->done(c->fs, c->arg, &c->map, 1, NULL);
	g_free(c);
}

static void linear_map_blocks(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			      uint64_t first, uint64_t nr, wbsim_fs_map_done_fn done, void *arg)
{
	struct linear_inode *li = wbsim_fs_inode_get_private(inode);
	struct linear_call *c = g_new0(struct linear_call, 1);
	wbsim_sim *sim = wbsim_fs_sim(fs);

	*c = (struct linear_call){ fs, done, arg, { first, li->start + first, nr, 0 } };
	li->written = MAX(li->written, first + nr);
	wbsim_sim_schedule_at(sim, wbsim_sim_now(sim), linear_done, c);
}

static void linear_fiemap(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out)
{
	struct linear_inode *li = wbsim_fs_inode_get_private(inode);
	struct wbsim_fs_extent e = { 0, li->start * 4096, li->written * 4096,
				     WBSIM_FIEMAP_EXTENT_LAST };

	if (li->written)
		g_array_append_val(out, e);
}

static const struct wbsim_fs_ops linear_ops = {
	.name = "test-linear",
	.version = WBSIM_FS_OPS_VERSION,
	.params_size = sizeof(struct linear_params),
	.options = linear_options,
	.init = linear_init,
	.exit = linear_exit,
	.inode_init = linear_inode_init,
	.inode_exit = linear_inode_exit,
	.map_blocks = linear_map_blocks,
	.fiemap = linear_fiemap,
};

/* The filesystem registry works from outside the tree too. */
static void test_external_fs_model(void **state)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("ext-fs");
	g_autoptr(wbsim_scenario) scn = NULL;
	g_autoptr(wbsim_result) r = NULL;

	assert_true(wbsim_fs_register(&linear_ops, &error));
	assert_true(wbsim_scenario_builder_set(b, "filesystem.type", "test-linear", NULL));
	assert_true(wbsim_scenario_builder_set(b, "filesystem.region_blocks", "2048", NULL));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w",
		"rw=randwrite\nbs=16k\nsize=8m\nnrfiles=2\nend_fsync=1\n", NULL));
	scn = wbsim_scenario_builder_build(b, &error);
	if (!scn)
		fail_msg("%s", error->message);
	r = wbsim_run(scn, NULL, &error);
	if (!r)
		fail_msg("%s", error->message);
	assert_int_equal(wbsim_result_summary(r)->device_bytes, 8 << 20);
	assert_int_equal(wbsim_result_summary(r)->n_files, 2);
	for (unsigned int i = 0; i < 2; i++)
		assert_int_equal(wbsim_result_file(r, i)->extents, 1);

	/* the free space the model tells (wbsim_fs_set_free_fn(), exported to
	 * models of one's own) is checked when loading: 2 files of 20 MiB do
	 * not fit in 4 regions of 2048 blocks (32 MiB) */
	wbsim_scenario_builder_free(g_steal_pointer(&b));
	g_clear_pointer(&scn, wbsim_scenario_free);
	b = wbsim_scenario_builder_new("ext-fs-full");
	assert_true(wbsim_scenario_builder_set(b, "filesystem.type", "test-linear", NULL));
	assert_true(wbsim_scenario_builder_set(b, "filesystem.region_blocks", "2048", NULL));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "w",
		"rw=write\nbs=1m\nsize=40m\nnrfiles=2\n", NULL));
	assert_null(wbsim_scenario_builder_build(b, &error));	/* the loader checks it */
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
	assert_string_equal(error->message, "ext-fs-full:10: job 'w': size=40m: the jobs' 2 files "
			    "need 41943040 bytes of the filesystem (test-linear), which has 33554432 "
			    "bytes free: expected files that fit (a smaller size= or nrfiles=, a "
			    "larger device)");
}

static void test_version(void **state)
{
	assert_string_equal(wbsim_version_string(), WBSIM_VERSION_STRING);
	assert_true(wbsim_check_version(WBSIM_VERSION_MAJOR, WBSIM_VERSION_MINOR,
					WBSIM_VERSION_MICRO));
	assert_true(wbsim_check_version(WBSIM_VERSION_MAJOR, 0, 0));
	assert_false(wbsim_check_version(WBSIM_VERSION_MAJOR + 1, 0, 0));
	assert_false(wbsim_check_version(WBSIM_VERSION_MAJOR, WBSIM_VERSION_MINOR + 1, 0));
	assert_false(wbsim_check_version(WBSIM_VERSION_MAJOR, WBSIM_VERSION_MINOR,
					 WBSIM_VERSION_MICRO + 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builder_text_and_errors),
		cmocka_unit_test(test_run_callbacks_and_results),
		cmocka_unit_test(test_run_stop),
		cmocka_unit_test(test_affinity_registry),
		cmocka_unit_test(test_external_device_model),
		cmocka_unit_test(test_param_table),
		cmocka_unit_test(test_external_fs_model),
		cmocka_unit_test(test_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
