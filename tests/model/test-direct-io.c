/* SPDX-License-Identifier: MIT */
/*
 * test-direct-io.c - direct=1 jobs bypass the page cache and keep iodepth
 * writes in flight (asynchronous engines) or one (synchronous engines).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>
#include "model-harness.h"

static const char direct[] =
	"[machine]\ncpus = 4\nmemory = 2G\n"
	"[device]\npreset = samsung-pm1733-3.84t\n"
	"[filesystem]\ntype = xfs\n"
	"[fio:d]\nrw=randwrite\nbs=4k\nsize=1g\ndirect=1\nioengine=io_uring\n"
	"time_based\nruntime=1s\n";

static double iops(const struct wbsim_run_result *r)
{
	const struct wbsim_job_result *j = r->jobs->pdata[0];

	return j->total_ios / (j->runtime_ns / 1e9);
}

static void test_direct_bypasses_page_cache(void **state)
{
	g_autofree char *qd32 = g_strconcat(direct, "iodepth=32\n", NULL);
	struct wbsim_run_result *r = run_text(qd32, NULL, TRUE);

	assert_int_equal(r->nr_dirtied, 0);
	assert_int_equal(r->nr_written, 0);
	/* every write reached the device as its own request */
	assert_int_equal(r->device_stats.bytes,
			 ((struct wbsim_job_result *)r->jobs->pdata[0])->io_bytes);
	wbsim_run_result_free(r);
}

/* At queue depth 1 a write's latency is the whole cycle, so IOPS is its
 * inverse; a deep queue saturates at the preset's random-write IOPS. */
static void test_queue_depth(void **state)
{
	g_autofree char *qd1 = g_strconcat(direct, "iodepth=1\n", NULL);
	g_autofree char *qd32 = g_strconcat(direct, "iodepth=32\n", NULL);
	g_autofree char *psync = g_strconcat(direct, "iodepth=32\nioengine=psync\n", NULL);
	struct wbsim_run_result *a = run_text(qd1, NULL, FALSE);
	struct wbsim_run_result *b = run_text(qd32, NULL, FALSE);
	struct wbsim_run_result *c = run_text(psync, NULL, FALSE);
	const struct wbsim_job_result *ja = a->jobs->pdata[0];
	double mean_clat = wbsim_lat_hist_mean(&ja->clat);

	assert_true(fabs(iops(a) - 1e9 / mean_clat) < 0.02 * iops(a));
	/* the PM1733 preset: 135K random 4 KiB write IOPS */
	assert_true(fabs(iops(b) - 135000) < 0.05 * 135000);
	/* depth 1 waits out the preset's 15 us write latency and the CPU of
	 * each write; depth 32 goes past what any depth-1 cycle could do,
	 * whatever the host's CPU costs */
	assert_true(iops(a) < 1e9 / 15000.0);
	assert_true(iops(b) > 2 * 1e9 / 15000.0);
	/* psync submits one write at a time whatever iodepth says */
	assert_true(fabs(iops(c) - iops(a)) < 0.02 * iops(a));
	wbsim_run_result_free(a);
	wbsim_run_result_free(b);
	wbsim_run_result_free(c);
}

/* A sized job ends when its last write completed: fio reaps the writes in
 * flight at the end of a pass, so every block of the file is written and
 * counted, whatever the queue depth. */
static void test_sized_job_drains(void **state)
{
	static const char sized[] =
		"[machine]\ncpus = 4\nmemory = 2G\n"
		"[device]\npreset = samsung-pm1733-3.84t\n"
		"[filesystem]\ntype = xfs\n"
		"[fio:d]\nrw=randwrite\nbs=64k\nsize=4m\ndirect=1\n"
		"ioengine=io_uring\niodepth=4\n";
	struct wbsim_run_result *r = run_text(sized, NULL, TRUE);
	const struct wbsim_job_result *j = r->jobs->pdata[0];

	assert_int_equal(j->total_ios, 64);
	assert_int_equal(j->io_bytes, 4 << 20);
	assert_int_equal(r->device_stats.bytes, 4 << 20);
	wbsim_run_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_bypasses_page_cache),
		cmocka_unit_test(test_queue_depth),
		cmocka_unit_test(test_sized_job_drains),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
