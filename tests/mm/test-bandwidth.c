/* SPDX-License-Identifier: MIT */
/*
 * test-bandwidth.c - write bandwidth estimation and the dirty ratelimit
 * (lib/mm/bandwidth.c): convergence properties and exact single steps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mm/bandwidth.h"
#include "mm/dirty-limits.h"

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* Completions at @rate pages/s, one bandwidth update every 200 ms. */
static unsigned int steps_to_converge(unsigned int hz, uint64_t rate,
				      unsigned int max_steps)
{
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_bw wb;
	struct wbsim_wb_bw_update up;
	struct wbsim_wb_bw_input in = { .has_dirty_io = true };
	uint64_t step = hz / 5;

	wbsim_vm_dirty_init(&vm, hz, 8);
	wbsim_wb_bw_init(&wb, 0);
	for (unsigned int i = 1; i <= max_steps; i++) {
		in.now += step;
		in.written += rate / 5;
		wbsim_wb_update_bandwidth(&vm, &wb, NULL, NULL, false, &in, &up);
		if (absdiff(wb.avg_write_bandwidth, rate) * 100 <= rate &&
		    absdiff(wb.write_bandwidth, rate) * 100 <= rate)
			return i;
	}
	return 0;
}

static void test_write_bw_converges(void **state)
{
	unsigned int n;

	(void)state;
	/*
	 * From INIT_BW 25600 to 50000 pages/s: each step keeps 3896/4096 of
	 * the old estimate, so the error 24400 needs ~77 steps to fall below
	 * 1 % (500); avg lags a few steps more. Bound: 15 s of updates.
	 */
	n = steps_to_converge(1000, 50000, 75);
	assert_int_equal(n, 0);		/* not within 15 s of 200 ms... */
	n = steps_to_converge(1000, 50000, 200);
	assert_true(n > 75 && n <= 120);
	/* HZ 250: P = 1024, elapsed 50: the same 4.096 s window */
	n = steps_to_converge(250, 50000, 200);
	assert_true(n > 75 && n <= 120);
	/* downward: 1 GiB/s estimate falling to 10000 pages/s */
	n = steps_to_converge(1000, 10000, 300);
	assert_true(n > 0 && n <= 200);
}

static void test_write_bw_exact_step(void **state)
{
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_bw wb;
	int64_t delta;

	(void)state;
	wbsim_vm_dirty_init(&vm, 1000, 8);
	wbsim_wb_bw_init(&wb, 0);
	/* 10000 pages in 200 ms: (10000 * 1000 + 25600 * 3896) >> 12 =
	 * 109737600 >> 12 = 26791; avg 25600 < old 25600? no: unchanged */
	delta = wbsim_wb_update_write_bandwidth(&vm, &wb, 200, 10000, true);
	assert_int_equal(wb.write_bandwidth, 26791);
	assert_int_equal(wb.avg_write_bandwidth, 25600);
	assert_int_equal(delta, 0);
	/* next: (10000 * 1000 + 26791 * 3896) >> 12 = 27924 (from stamp 0,
	 * not moved by the bare function); avg < old <= bw: + (26791 -
	 * 25600) >> 3 = 148 */
	delta = wbsim_wb_update_write_bandwidth(&vm, &wb, 200, 10000, true);
	assert_int_equal(wb.write_bandwidth, 27924);
	assert_int_equal(wb.avg_write_bandwidth, 25748);
	assert_int_equal(delta, 148);
	/* no dirty IO: no tot_write_bandwidth change reported */
	delta = wbsim_wb_update_write_bandwidth(&vm, &wb, 200, 10000, false);
	assert_int_equal(delta, 0);
	assert_true(wb.avg_write_bandwidth > 25748);
}

static void test_write_bw_restart(void **state)
{
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_bw wb;
	int64_t delta;

	(void)state;
	wbsim_vm_dirty_init(&vm, 1000, 8);
	wbsim_wb_bw_init(&wb, 0);
	/* elapsed 5000 > P 4096: bw = 250000 * 1000 / 5000, avg = bw */
	delta = wbsim_wb_update_write_bandwidth(&vm, &wb, 5000, 250000, true);
	assert_int_equal(wb.write_bandwidth, 50000);
	assert_int_equal(wb.avg_write_bandwidth, 50000);
	assert_int_equal(delta, 50000 - 25600);
	/* nothing written for longer than P: avg drops to the floor 1 */
	wb.written_stamp = 250000;
	wbsim_wb_update_write_bandwidth(&vm, &wb, 4097, 250000, true);
	assert_int_equal(wb.write_bandwidth, 0);
	assert_int_equal(wb.avg_write_bandwidth, 1);
	/* WB_WRITTEN below the stamp (redirty) counts as 0, no wrap */
	wbsim_wb_bw_init(&wb, 0);
	wb.written_stamp = 1000;
	wbsim_wb_update_write_bandwidth(&vm, &wb, 5000, 10, true);
	assert_int_equal(wb.write_bandwidth, 0);
}

static void test_estimate_start(void **state)
{
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_bw wb;
	struct wbsim_wb_bw_input in = { .now = 1000, .dirtied = 7,
					.written = 9 };

	(void)state;
	wbsim_vm_dirty_init(&vm, 1000, 8);
	wbsim_wb_bw_init(&wb, 0);
	/* exactly 1 s: not more than HZ */
	assert_false(wbsim_wb_bandwidth_estimate_start(&vm, &wb, 0, &in));
	in.now = 1001;
	/* inodes under writeback: keep measuring */
	assert_false(wbsim_wb_bandwidth_estimate_start(&vm, &wb, 1, &in));
	assert_true(wbsim_wb_bandwidth_estimate_start(&vm, &wb, 0, &in));
	assert_int_equal(wb.bw_time_stamp, 1001);
	assert_int_equal(wb.dirtied_stamp, 7);
	assert_int_equal(wb.written_stamp, 9);
	assert_false(wbsim_wb_bandwidth_due(&vm, &wb, 1201));
	assert_true(wbsim_wb_bandwidth_due(&vm, &wb, 1202));
}

struct rl_fixture {
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local local;
	struct wbsim_wb_bw wb;
	struct wbsim_bdi_dirty bdi;
	struct wbsim_dtc dtc;
};

/* Domain with setpoint 733696 (16 GiB, dirty_limit = thresh). */
static void rl_init(struct rl_fixture *f)
{
	wbsim_vm_dirty_init(&f->vm, 1000, 8);
	wbsim_wb_domain_init(&f->dom, 0);
	f->dom.dirty_limit = 838656;
	wbsim_fprop_local_init(&f->local);
	wbsim_wb_bw_init(&f->wb, 0);
	f->bdi = (struct wbsim_bdi_dirty){
		.max_ratio = 100 * WBSIM_BDI_RATIO_SCALE,
		.max_prop_frac = WBSIM_FPROP_FRAC_BASE };
	f->dtc = (struct wbsim_dtc){ .dom = &f->dom, .wb_completions = &f->local,
		.wb = &f->wb, .bdi = &f->bdi, .thresh = 838656,
		.bg_thresh = 418816 };
}

/*
 * N tasks each dirtying at task_ratelimit for 200 ms, then one update.
 * Return the new dirty_ratelimit.
 */
static uint64_t rl_step(struct rl_fixture *f, unsigned int n, uint64_t *dirtied)
{
	uint64_t task_r = f->wb.dirty_ratelimit * f->dtc.pos_ratio >> 10;

	*dirtied += n * task_r / 5;
	wbsim_wb_update_dirty_ratelimit(&f->vm, &f->dtc, *dirtied, 200, NULL);
	f->wb.dirtied_stamp = *dirtied;
	return f->wb.dirty_ratelimit;
}

static void test_ratelimit_exact_step(void **state)
{
	struct rl_fixture f;
	struct wbsim_trace_rec_ratelimit tr;
	uint64_t dirtied = 10240;

	(void)state;
	rl_init(&f);
	f.dtc.dirty = 800000;		/* above the setpoint */
	f.dtc.pos_ratio = 512;
	/* dirty_rate = 10240 * 1000 / 200 = 51200; task_r = 12800 + 1;
	 * balanced = 12801 * 25600 / 51201 = 6400; x = max(25600 (old
	 * balanced = INIT_BW), 6400, 12801): R is not above x: no step */
	wbsim_wb_update_dirty_ratelimit(&f.vm, &f.dtc, dirtied, 200, &tr);
	assert_int_equal(f.wb.dirty_ratelimit, 25600);
	assert_int_equal(f.wb.balanced_dirty_ratelimit, 6400);
	assert_int_equal(tr.dirty_rate, 4 * 51200);
	assert_int_equal(tr.task_ratelimit, 4 * 12801);
	assert_int_equal(tr.balanced_dirty_ratelimit, 4 * 6400);
	/* again: x = max(6400, 6400, 12801) = 12801; step = 12799;
	 * shift = 25600 / 25599 = 1; ceil((12799 >> 1) / 8) = 800 */
	wbsim_wb_update_dirty_ratelimit(&f.vm, &f.dtc, 2 * dirtied, 200, &tr);
	assert_int_equal(f.wb.dirty_ratelimit, 24800);
	assert_int_equal(tr.dirty_ratelimit, 4 * 24800);
}

static void test_ratelimit_converges(void **state)
{
	struct rl_fixture f;
	uint64_t dirtied = 0, r, prev = 25600;

	(void)state;
	rl_init(&f);
	/*
	 * 4 dirtiers on a 25600 pages/s wb; dirty well above the setpoint
	 * (pos_ratio 0.5): R must fall monotonically toward B / N = 6400
	 * and stop short of it by the damping (never below).
	 */
	f.dtc.dirty = 800000;
	f.dtc.pos_ratio = 512;
	for (int i = 0; i < 600; i++) {
		r = rl_step(&f, 4, &dirtied);
		assert_true(r <= prev);
		assert_true(r >= 6400);
		prev = r;
	}
	assert_true(r <= 6400 + 640);		/* within 10 % of B / N */

	/* 1 dirtier: the balanced rate is the whole bandwidth; with dirty
	 * below the setpoint (pos 1.5) R rises toward it */
	f.dtc.dirty = 700000;
	f.dtc.pos_ratio = 1536;
	for (int i = 0; i < 600; i++) {
		r = rl_step(&f, 1, &dirtied);
		assert_true(r >= prev);
		assert_true(r <= 25600);
		prev = r;
	}
	assert_true(r >= 25600 - 2560);
}

static void test_ratelimit_follows_position(void **state)
{
	struct rl_fixture f;
	uint64_t seed = 12345;

	(void)state;
	rl_init(&f);
	/* below the setpoint, 4 dirtiers want R down to 6400: R must not
	 * move down */
	f.dtc.dirty = 700000;
	f.dtc.pos_ratio = 1100;
	f.wb.dirtied_stamp = 0;
	wbsim_wb_update_dirty_ratelimit(&f.vm, &f.dtc, 4 * 25600 / 5, 200, NULL);
	assert_int_equal(f.wb.dirty_ratelimit, 25600);
	assert_true(f.wb.balanced_dirty_ratelimit < 25600);

	/* random states: the sign of the move always matches the position */
	for (int i = 0; i < 20000; i++) {
		uint64_t before;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		f.wb.dirty_ratelimit = 1 + (seed >> 20) % 200000;
		f.wb.avg_write_bandwidth = 1 + (seed >> 40) % 100000;
		f.wb.balanced_dirty_ratelimit = 1 + (seed >> 8) % 200000;
		f.dtc.pos_ratio = (seed >> 30) % 4096;
		f.dtc.dirty = 600000 + (seed >> 3) % 270000;
		f.wb.dirtied_stamp = 0;
		before = f.wb.dirty_ratelimit;
		wbsim_wb_update_dirty_ratelimit(&f.vm, &f.dtc,
						(seed >> 17) % 100000, 200, NULL);
		if (f.dtc.dirty < 733696)
			assert_true(f.wb.dirty_ratelimit >= before);
		else
			assert_true(f.wb.dirty_ratelimit <= before);
		assert_true(f.wb.dirty_ratelimit >= 1);
	}
}

static void test_split_bdi_pages(void **state)
{
	(void)state;
	/* ceil(1000 * 100 / 300) */
	assert_int_equal(wbsim_wb_split_bdi_pages(1000, 100, 300), 334);
	assert_int_equal(wbsim_wb_split_bdi_pages(1000, 300, 300), 1000);
	assert_int_equal(wbsim_wb_split_bdi_pages(1000, 100, 0), 1000);
	assert_true(wbsim_wb_split_bdi_pages(WBSIM_LONG_MAX, 1, 300) ==
		    WBSIM_LONG_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_bw_converges),
		cmocka_unit_test(test_write_bw_exact_step),
		cmocka_unit_test(test_write_bw_restart),
		cmocka_unit_test(test_estimate_start),
		cmocka_unit_test(test_ratelimit_exact_step),
		cmocka_unit_test(test_ratelimit_converges),
		cmocka_unit_test(test_ratelimit_follows_position),
		cmocka_unit_test(test_split_bdi_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
