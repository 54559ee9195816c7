/* SPDX-License-Identifier: MIT */
/*
 * test-api-threads.c - independent simulations in separate threads: two
 * runs at once give exactly what each gives alone (every job figure, every
 * context, every file and every value of the time series), whether the
 * threads run different scenarios or share one scenario object.
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
	assert_int_equal(wbsim_result_sim_time_ns(a), wbsim_result_sim_time_ns(b));
	assert_int_equal(wbsim_result_nr_jobs(a), wbsim_result_nr_jobs(b));
	for (unsigned int j = 0; j < wbsim_result_nr_jobs(a); j++) {
		assert_int_equal(wbsim_result_job_bytes(a, j), wbsim_result_job_bytes(b, j));
		assert_int_equal(wbsim_result_job_runtime_ns(a, j),
				 wbsim_result_job_runtime_ns(b, j));
		assert_int_equal(wbsim_result_job_lat_percentile_ns(a, j, 99),
				 wbsim_result_job_lat_percentile_ns(b, j, 99));
		assert_int_equal(wbsim_result_job_paused_ns(a, j), wbsim_result_job_paused_ns(b, j));
	}
	assert_int_equal(wbsim_result_nr_wbs(a), wbsim_result_nr_wbs(b));
	for (unsigned int w = 0; w < wbsim_result_nr_wbs(a); w++) {
		assert_int_equal(wbsim_result_wb_pages_written(a, w),
				 wbsim_result_wb_pages_written(b, w));
		assert_int_equal(wbsim_result_wb_pages_completed(a, w),
				 wbsim_result_wb_pages_completed(b, w));
		assert_int_equal(wbsim_result_wb_cpu_ns(a, w), wbsim_result_wb_cpu_ns(b, w));
	}
	assert_int_equal(wbsim_result_nr_files(a), wbsim_result_nr_files(b));
	for (unsigned int f = 0; f < wbsim_result_nr_files(a); f++) {
		assert_int_equal(wbsim_result_file_extents(a, f), wbsim_result_file_extents(b, f));
		assert_int_equal(wbsim_result_file_written_by(a, f),
				 wbsim_result_file_written_by(b, f));
	}
	assert_int_equal(wbsim_result_series_nr_rows(a), wbsim_result_series_nr_rows(b));
	assert_int_equal(wbsim_result_series_nr_columns(a), wbsim_result_series_nr_columns(b));
	for (unsigned int row = 0; row < wbsim_result_series_nr_rows(a); row++)
		for (unsigned int c = 0; c < wbsim_result_series_nr_columns(a); c++)
			assert_true(wbsim_result_series_value(a, row, c) ==
				    wbsim_result_series_value(b, row, c));
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
	assert_int_equal(wbsim_result_job_bytes(ref_a, 0), 512 << 20);
	assert_int_equal(wbsim_result_job_bytes(ref_b, 0), 384 << 20);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_scenarios_at_once),
		cmocka_unit_test(test_one_scenario_two_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
