/* SPDX-License-Identifier: MIT */
/*
 * test-rotational-depth.c - the depth a seeking disk sees from buffered
 * random writes, with one writeback context and with twelve.
 *
 * The kernel's flusher submits its bios asynchronously; it blocks only when
 * blk-wbt holds it back (wbt_wait: the tracked writes in flight have reached
 * the limit) or when no request is left (tags, nr_requests). Both limits
 * belong to the disk's queue and are shared by every context of the bdi.
 * For the SATA disk (NCQ depth 32, mq-deadline, 64 requests, 48 of them for
 * async writes) wbt's depth starts at 16 and scales, with writes only, to
 * 3/4 of the queue depth: 24 (rq_depth_calc_max_depth), which writes get in
 * full while the dirtiers are throttled (wb_recent_wait). So one flusher
 * keeps the disk about as deep as twelve (within a fifth), and never deeper
 * than 24.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "model-harness.h"

/* twelve writers, device-bound: the dirty limit is reached in a second */
static const char hdd_randwrite[] =
	"[machine]\ncpus = 12\nmemory = 2G\n"
	"[device]\npreset = hdd-7200-sata\n"
	"[filesystem]\ntype = xfs\n"
	"[writeback]\ncontexts = 1\n"
	"[run]\ntime_limit = 6s\n"
	"[fio:global]\nrw=randwrite\nbs=4k\nsize=64M\ntime_based\nruntime=6s\n"
	/* no fadvise writeback by the writers at their passes' ends: the
	 * depth is the flushers' alone (it made one context's mean swing by
	 * a quarter with the writers' CPU cost per write) */
	"invalidate=0\n"
	"[fio:w]\nnumjobs=12\n";

/* time-average of the in-flight requests at the device from @t0 seconds */
static double mean_in_flight(const struct wbsim_run_result *r, double t0, double *max)
{
	int col = series_col(r, "device_in_flight_requests");
	double sum = 0;
	guint n = 0;

	assert_true(col > 0);
	*max = 0;
	for (guint i = series_row_at(r, t0); i < series_rows(r); i++) {
		double d = series_at(r, i, col);

		sum += d;
		n++;
		if (d > *max)
			*max = d;
	}
	assert_true(n > 10);
	return sum / n;
}

static void test_one_context_fills_the_shared_limits(void **state)
{
	const char *one[] = { "writeback.contexts=1", NULL };
	const char *twelve[] = { "writeback.contexts=12", NULL };
	struct wbsim_run_result *r1 = run_text(hdd_randwrite, one, TRUE);
	struct wbsim_run_result *r12 = run_text(hdd_randwrite, twelve, TRUE);
	double max1, max12;
	double d1 = mean_in_flight(r1, 2.0, &max1);
	double d12 = mean_in_flight(r12, 2.0, &max12);

	/* wbt's cap, 3/4 of the NCQ depth, holds whatever the contexts */
	assert_true(r1->device_stats.max_queue_depth <= 24);
	assert_true(r12->device_stats.max_queue_depth <= 24);
	assert_true(max1 <= 24 && max12 <= 24);
	/* device-bound: the disk is busy */
	assert_true(r1->device_stats.utilisation > 0.9);
	assert_true(r12->device_stats.utilisation > 0.9);
	/* one flusher keeps the queue deep: it does not wait for each bio */
	assert_true(d1 > 12);
	fprintf(stderr, "in flight: one context %.2f (max %.0f), twelve %.2f (max %.0f)\n",
		d1, max1, d12, max12);
	/* twelve add no more than the shared limits allow: a little more
	 * depth (twelve flushers wait in wbt_wait to fill a freed slot at
	 * once, where one walks its pages first), never past the cap */
	assert_true(d12 <= d1 * 1.2);
	wbsim_run_result_free(r1);
	wbsim_run_result_free(r12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_context_fills_the_shared_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
