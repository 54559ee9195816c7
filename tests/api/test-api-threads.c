/* SPDX-License-Identifier: MIT */
/*
 * test-api-threads.c - independent simulations in separate threads: two
 * runs at once give exactly what each gives alone (every job figure, every
 * context, every file and every value of the time series), whether the
 * threads run different scenarios or share one scenario object; threads
 * reading one result at once see the same records.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <wbsim/wbsim.h>

/* random writes over 4 files; "none" draws contexts from the generator */
static wbsim_scenario *scenario(const char *affinity, const char *size, const char *seed)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new(affinity);
	g_autoptr(GError) error = NULL;
	g_autofree char *job = NULL;
	wbsim_scenario *scn;

	wbsim_scenario_builder_set(b, "machine.cpus", "4", NULL);
	wbsim_scenario_builder_set(b, "machine.memory", "2G", NULL);
	wbsim_scenario_builder_set(b, "filesystem.type", "xfs", NULL);
	wbsim_scenario_builder_set(b, "writeback.contexts", "4", NULL);
	wbsim_scenario_builder_set(b, "writeback.affinity", affinity, NULL);
	wbsim_scenario_builder_set(b, "run.seed", seed, NULL);
	wbsim_scenario_builder_set(b, "run.series_interval", "20ms", NULL);
	job = g_strdup_printf("rw=randwrite\nbs=16k\nsize=%s\nnrfiles=4\nend_fsync=1\n", size);
	wbsim_scenario_builder_add_fio_job(b, "r", job, NULL);
	scn = wbsim_scenario_builder_build(b, &error);
	if (!scn)
		fail_msg("%s", error->message);
	return scn;
}

static wbsim_result *run(const wbsim_scenario *scn)
{
	g_autoptr(GError) error = NULL;
	wbsim_result *r = wbsim_run(scn, NULL, &error);

	if (!r)
		fail_msg("%s", error->message);
	return r;
}

static gpointer thread_run(gpointer scn)
{
	return run(scn);
}

static void assert_same(const wbsim_result *a, const wbsim_result *b)
{
	const struct wbsim_result_summary *sa = wbsim_result_summary(a);
	const struct wbsim_result_summary *sb = wbsim_result_summary(b);
	const struct wbsim_result_job *ja, *jb;
	const struct wbsim_result_wb *wa, *wb;
	const struct wbsim_result_file *fa, *fb;
	const double *ra, *rb;
	unsigned int i;

	assert_int_equal(sa->sim_time_ns, sb->sim_time_ns);
	assert_int_equal(sa->n_jobs, sb->n_jobs);
	for (i = 0; (ja = wbsim_result_job(a, i)); i++) {
		jb = wbsim_result_job(b, i);
		assert_non_null(jb);
		assert_int_equal(ja->bytes, jb->bytes);
		assert_int_equal(ja->runtime_ns, jb->runtime_ns);
		assert_int_equal(wbsim_result_job_lat_percentile_ns(a, i, 99),
				 wbsim_result_job_lat_percentile_ns(b, i, 99));
		assert_int_equal(ja->paused_ns, jb->paused_ns);
	}
	assert_int_equal(sa->n_wbs, sb->n_wbs);
	for (i = 0; (wa = wbsim_result_wb(a, i)); i++) {
		wb = wbsim_result_wb(b, i);
		assert_non_null(wb);
		assert_int_equal(wa->pages_written, wb->pages_written);
		assert_int_equal(wa->pages_completed, wb->pages_completed);
		assert_int_equal(wa->cpu_ns, wb->cpu_ns);
	}
	assert_int_equal(sa->n_files, sb->n_files);
	for (i = 0; (fa = wbsim_result_file(a, i)); i++) {
		fb = wbsim_result_file(b, i);
		assert_non_null(fb);
		assert_int_equal(fa->extents, fb->extents);
		assert_int_equal(fa->written_by, fb->written_by);
		assert_true(fa->median_length == fb->median_length);
	}
	assert_int_equal(sa->n_series_rows, sb->n_series_rows);
	assert_int_equal(sa->n_series_columns, sb->n_series_columns);
	for (i = 0; (ra = wbsim_result_series_row(a, i)); i++) {
		rb = wbsim_result_series_row(b, i);
		assert_non_null(rb);
		assert_memory_equal(ra, rb, sa->n_series_columns * sizeof(double));
	}
}

/* Two different scenarios at once, each against its single-threaded run. */
static void test_two_scenarios_at_once(void **state)
{
	g_autoptr(wbsim_scenario) a = scenario("inode", "512m", "1");
	g_autoptr(wbsim_scenario) b = scenario("none", "384m", "7");
	g_autoptr(wbsim_result) ref_a = run(a);
	g_autoptr(wbsim_result) ref_b = run(b);
	GThread *ta = g_thread_new("run-a", thread_run, a);
	GThread *tb = g_thread_new("run-b", thread_run, b);
	g_autoptr(wbsim_result) ra = g_thread_join(ta);
	g_autoptr(wbsim_result) rb = g_thread_join(tb);

	/* the two scenarios differ, so a mix-up would show */
	assert_int_equal(wbsim_result_job(ref_a, 0)->bytes, 512 << 20);
	assert_int_equal(wbsim_result_job(ref_b, 0)->bytes, 384 << 20);
	assert_same(ra, ref_a);
	assert_same(rb, ref_b);
}

/* Two threads run one scenario object at once: it is only read. */
static void test_one_scenario_two_threads(void **state)
{
	g_autoptr(wbsim_scenario) b = scenario("none", "512m", "3");
	g_autoptr(wbsim_result) ref = run(b);
	GThread *t1 = g_thread_new("run-1", thread_run, b);
	GThread *t2 = g_thread_new("run-2", thread_run, b);
	g_autoptr(wbsim_result) r1 = g_thread_join(t1);
	g_autoptr(wbsim_result) r2 = g_thread_join(t2);

	assert_same(r1, ref);
	assert_same(r2, ref);
}

/* The first reader of a result's file records makes them, once: readers
 * in several threads at once see the same records. */
static gpointer thread_first_file(gpointer r)
{
	/* a later record first, so that both threads reach the making */
	(void)wbsim_result_file(r, 3);
	return (gpointer)wbsim_result_file(r, 0);
}

static void test_records_read_from_threads(void **state)
{
	g_autoptr(wbsim_scenario) scn = scenario("inode", "64m", "5");
	g_autoptr(wbsim_result) r = run(scn);
	GThread *t[4];
	gconstpointer first[4];

	(void)state;
	assert_int_equal(wbsim_result_summary(r)->n_files, 4);
	for (unsigned int i = 0; i < 4; i++)
		t[i] = g_thread_new("reader", thread_first_file, r);
	for (unsigned int i = 0; i < 4; i++)
		first[i] = g_thread_join(t[i]);
	assert_non_null(first[0]);
	for (unsigned int i = 1; i < 4; i++)
		assert_ptr_equal(first[i], first[0]);
	assert_ptr_equal(wbsim_result_file(r, 0), first[0]);
	assert_null(wbsim_result_file(r, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_scenarios_at_once),
		cmocka_unit_test(test_one_scenario_two_threads),
		cmocka_unit_test(test_records_read_from_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
