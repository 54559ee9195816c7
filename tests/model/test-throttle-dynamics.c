/* SPDX-License-Identifier: MIT */
/*
 * test-throttle-dynamics.c - the closed loop of dirtiers, balance_dirty_pages
 * and the flusher on the ideal device (1 GB/s, 100 us): physical properties
 * the kernel's dirty throttling is designed to have.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>
#include "model-harness.h"
#include "mm/writeback-control.h"

/* 2 GiB of RAM: thresholds of about 300 MB, so the loop settles quickly.
 * CPUs twice the lab host's: one dirtier of 4 KiB writes then dirties
 * about 1.9 GB/s, well above the device (at the lab host's speed it is
 * CPU-bound near 0.94 GB/s, and throttling would have nothing to do). */
#define MACHINE \
	"[machine]\ncpus = 4\nmemory = 2G\ncpu_speed = 200\n" \
	"[device]\npreset = ideal\n" \
	"[filesystem]\ntype = ideal\n"

static const char one_writer[] =
	MACHINE
	"[fio:w]\nrw=write\nbs=4k\nsize=256g\ntime_based\nruntime=60s\ninvalidate=0\n";

/*
 * One dirtier much faster than the device (it copies at several GB/s): once
 * the bandwidth estimate has converged, its rate equals the device's write
 * bandwidth within 5%, and the dirty count stays in the control band
 * [freerun, limit] centred on the setpoint, rising toward the setpoint as
 * dirty_ratelimit slowly approaches the write bandwidth (the kernel damps
 * its steps once it is within a few percent of the balanced rate). While
 * dirty_ratelimit is still low the dirtier alternates between freerun and
 * pauses at the band's lower edge: a pause that began above freerun can
 * end below it by what the device (1 GB/s) writes during the pause, no
 * more (the per-CPU ratelimit makes the dirtier look again within
 * ratelimit_pages once it runs free).
 */
static void test_one_dirtier_converges(void **state)
{
	struct wbsim_run_result *r = run_text(one_writer, NULL, FALSE);
	int c_dirty = series_col(r, "dirty_pages"), c_wb = series_col(r, "writeback_pages");
	int c_bg = series_col(r, "bg_thresh_pages"), c_th = series_col(r, "thresh_pages");
	int c_sp = series_col(r, "setpoint_pages"), c_lim = series_col(r, "limit_pages");
	int c_bytes = series_col(r, "job0_bytes");
	guint a = series_row_at(r, 40.0), b = series_row_at(r, 60.0);
	double rate = (series_at(r, b, c_bytes) - series_at(r, a, c_bytes)) /
		      (series_at(r, b, 0) - series_at(r, a, 0));

	const struct wbsim_job_result *j0 = r->jobs->pdata[0];
	double drained = 1e9 * ((double)j0->max_sleep_ns / WBSIM_NSEC_PER_SEC) / WBSIM_PAGE_SIZE;

	assert_true(fabs(rate - 1e9) < 0.05 * 1e9);
	for (guint i = a; i <= b; i++) {
		double dirty = series_at(r, i, c_dirty) + series_at(r, i, c_wb);
		double freerun = floor((series_at(r, i, c_th) + series_at(r, i, c_bg)) / 2);

		assert_true(dirty >= freerun - drained);
		assert_true(dirty <= series_at(r, i, c_lim));
	}
	/* ... and it approaches the setpoint as dirty_ratelimit converges. */
	{
		guint m1 = series_row_at(r, 30.0), m2 = series_row_at(r, 40.0);
		guint m3 = series_row_at(r, 50.0);
		double early = 0, late = 0;

		for (guint i = m1; i < m2; i++)
			early += series_at(r, i, c_dirty) + series_at(r, i, c_wb);
		for (guint i = m3; i < b; i++)
			late += series_at(r, i, c_dirty) + series_at(r, i, c_wb);
		early /= m2 - m1;
		late /= b - m3;
		assert_true(late > early);
		assert_true(late < series_at(r, b, c_sp));
	}
	/* The dirtier is throttled: it sleeps, never longer than MAX_PAUSE. */
	{
		struct wbsim_job_result *j = r->jobs->pdata[0];

		assert_true(j->pauses > 100);
		assert_true(j->max_sleep_ns <= 200 * WBSIM_NSEC_PER_MSEC);
	}
	wbsim_run_result_free(r);
}

/* N equal dirtiers share the device: each gets 1/N of it within 10%. */
static void test_equal_dirtiers_share(void **state)
{
	static const char four[] =
		MACHINE
		"[fio:w]\nrw=write\nbs=4k\nsize=64g\ntime_based\nruntime=40s\ninvalidate=0\n"
		"numjobs=4\n";
	struct wbsim_run_result *r = run_text(four, NULL, FALSE);
	guint a = series_row_at(r, 20.0), b = series_row_at(r, 40.0);
	double dt = series_at(r, b, 0) - series_at(r, a, 0), total = 0;
	double rate[4];

	assert_int_equal(r->jobs->len, 4);
	for (int j = 0; j < 4; j++) {
		char name[32];
		int c;

		g_snprintf(name, sizeof(name), "job%d_bytes", j);
		c = series_col(r, name);
		rate[j] = (series_at(r, b, c) - series_at(r, a, c)) / dt;
		total += rate[j];
	}
	assert_true(fabs(total - 1e9) < 0.05 * 1e9);
	for (int j = 0; j < 4; j++)
		assert_true(fabs(rate[j] - total / 4) < 0.10 * total / 4);
	wbsim_run_result_free(r);
}

/* A dirtier that never brings the dirty count to the freerun ceiling is
 * never paused: 50 MB/s for 4 s is 200 MB, below the ceiling of ~225 MB
 * even without any writeback. */
static void test_below_freerun_no_pause(void **state)
{
	static const char slow[] =
		MACHINE
		"[fio:w]\nrw=write\nbs=4k\nsize=1g\ntime_based\nruntime=4s\ninvalidate=0\n"
		"rate=50m\n";
	struct wbsim_run_result *r = run_text(slow, NULL, FALSE);
	struct wbsim_job_result *j = r->jobs->pdata[0];
	int c_dirty = series_col(r, "dirty_pages"), c_wb = series_col(r, "writeback_pages");
	int c_bg = series_col(r, "bg_thresh_pages"), c_th = series_col(r, "thresh_pages");

	for (guint i = 0; i < series_rows(r); i++)
		assert_true(series_at(r, i, c_dirty) + series_at(r, i, c_wb) <
			    (series_at(r, i, c_th) + series_at(r, i, c_bg)) / 2);
	assert_int_equal(j->pauses, 0);
	/* and the rate limit held: 50 MiB/s (fio's m is 2^20) for 4 s */
	assert_true(fabs((double)j->io_bytes - 4.0 * 50 * 1048576) < 0.01 * 4.0 * 50 * 1048576);
	wbsim_run_result_free(r);
}

/*
 * A page dirtied once, with nothing else going on, is written back by the
 * periodic (kupdate) writeback once it is older than dirty_expire_centisecs:
 * not before 30 s, and no later than 30 s + one dirty_writeback_centisecs
 * tick (5 s) + the time to write it. A warm-up job first gives the wb its
 * share of the writeout (a wb that never wrote has a background threshold
 * of 0 and would start background writeback at its first wakeup). The
 * syncfs at 49 s keeps the simulation going after the jobs end.
 */
static void test_dirtied_page_written_after_expiry(void **state)
{
	static const char once[] =
		MACHINE
		"[events]\nat = 49s syncfs\n"
		"[fio:warm]\nrw=write\nbs=4k\nsize=64m\nend_fsync=1\n"
		"[fio:once]\nstonewall\nstartdelay=10s\nrw=write\nbs=4k\nsize=4k\n";
	struct wbsim_run_result *r = run_text(once, NULL, FALSE);
	int c_written = series_col(r, "wb0_written_pages");
	int c_bytes = series_col(r, "job1_bytes");
	double warm = series_at(r, series_row_at(r, 9.0), c_written);
	double dirtied = -1, first = -1;

	assert_true(warm == 64.0 * 1024 * 1024 / 4096);
	for (guint i = 0; i < series_rows(r); i++) {
		if (dirtied < 0 && series_at(r, i, c_bytes) >= 4096)
			dirtied = series_at(r, i, 0);
		if (first < 0 && series_at(r, i, c_written) > warm)
			first = series_at(r, i, 0);
	}
	/* the series is sampled every 100 ms */
	assert_true(dirtied >= 10.0 && dirtied < 10.5);
	assert_true(first - dirtied >= 30.0 - 0.1);
	assert_true(first - dirtied <= 35.0 + 0.2);
	assert_int_equal(r->nr_written, warm + 1);
	wbsim_run_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_dirtier_converges),
		cmocka_unit_test(test_equal_dirtiers_share),
		cmocka_unit_test(test_below_freerun_no_pause),
		cmocka_unit_test(test_dirtied_page_written_after_expiry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
