/* SPDX-License-Identifier: MIT */
/*
 * test-control-loop.c - the dirty throttling control law in closed loop.
 *
 * A tiny jiffy-stepped model wires the lib/mm functions the way the kernel
 * does: N tasks dirty pages as fast as their CPU allows (256 pages per
 * jiffy) and pass through balance_dirty_pages_ratelimited() /
 * balance_dirty_pages(); a device cleans dirty pages at B pages/s while
 * background writeback is on (wb_over_bg_thresh()); completions feed the
 * writeout fractions and the bandwidth estimate. The assertions are the
 * physical properties the control law exists for: the estimated bandwidth
 * finds B, the dirty count settles between freerun and limit near the
 * setpoint, the base rate finds ~B/N, and the dirtiers together get B.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "mm/bandwidth.h"
#include "mm/dirty-limits.h"
#include "mm/throttle.h"

#define HZ 1000
#define AVAIL UINT64_C(262144)		/* 1 GiB dirtyable */
#define MAX_TASKS 8
#define CPU_PAGES_PER_JIFFY 256

struct loop_task {
	struct wbsim_task_dirty td;
	struct wbsim_cpu_dirty cpu;
	uint64_t wake;
	bool repeat;			/* balance_dirty_pages call pending */
	uint64_t pages_dirtied;
	uint64_t start_time;
};

struct loop_result {
	uint64_t avg_dirty, min_dirty, max_dirty;
	uint64_t dirty_rate;		/* pages/s over the measured window */
	uint64_t avg_write_bandwidth, dirty_ratelimit;
	uint64_t freerun, setpoint, limit;
	uint64_t pauses;
};

static void run_loop(unsigned int ntasks, uint64_t bw, uint64_t seconds,
		     struct loop_result *r)
{
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local local;
	struct wbsim_wb_bw wb;
	struct wbsim_bdi_dirty bdi = { .max_ratio = 100 * WBSIM_BDI_RATIO_SCALE,
				       .max_prop_frac = WBSIM_FPROP_FRAC_BASE };
	struct loop_task tasks[MAX_TASKS];
	uint64_t nr_dirty = 0, dirtied = 0, written = 0, acc = 0;
	uint64_t end = seconds * HZ, measure_from = end / 2;
	uint64_t sum_dirty = 0, dirtied_at_measure = 0;
	bool flusher = false;

	wbsim_vm_dirty_init(&vm, HZ, 8);
	wbsim_wb_domain_init(&dom, 0);
	wbsim_writeback_set_ratelimit(&vm, &dom, AVAIL);
	wbsim_fprop_local_init(&local);
	wbsim_wb_bw_init(&wb, 0);
	for (unsigned int i = 0; i < ntasks; i++) {
		wbsim_task_dirty_init(&tasks[i].td);
		tasks[i].cpu = (struct wbsim_cpu_dirty){ 0 };
		tasks[i].wake = 0;
		tasks[i].repeat = false;
	}
	*r = (struct loop_result){ .min_dirty = UINT64_MAX };

	for (uint64_t t = 0; t < end; t++) {
		/* background writeback: on while over the bg threshold */
		struct wbsim_dtc bg = { .dom = &dom, .wb_completions = &local,
			.wb = &wb, .bdi = &bdi, .avail = AVAIL, .dirty = nr_dirty };

		if (!flusher || t % 100 == 0)
			flusher = wbsim_wb_over_bg_thresh(&vm, &bg, NULL, nr_dirty);
		if (flusher) {
			uint64_t k;

			acc += bw;
			k = acc / HZ;
			acc -= k * HZ;
			if (k > nr_dirty)
				k = nr_dirty;
			nr_dirty -= k;
			written += k;
			if (k)
				wbsim_wb_domain_writeout_add(&dom, &local,
						bdi.max_prop_frac, k, t, HZ);
		}
		if (dom.period_time && t >= dom.period_time)
			wbsim_writeout_period(&dom, t, HZ);
		/* end of a writepages chunk every 500 ms: bandwidth only */
		if (t % 500 == 0 && wbsim_wb_bandwidth_due(&vm, &wb, t)) {
			struct wbsim_wb_bw_input in = { .now = t,
				.dirtied = dirtied, .written = written,
				.has_dirty_io = nr_dirty > 0 };
			struct wbsim_wb_bw_update up;

			wbsim_wb_update_bandwidth(&vm, &wb, NULL, NULL, false,
						  &in, &up);
			bdi.tot_write_bandwidth += (uint64_t)up.tot_write_bandwidth_delta;
		}

		for (unsigned int i = 0; i < ntasks; i++) {
			struct loop_task *lt = &tasks[i];
			uint64_t budget = CPU_PAGES_PER_JIFFY;

			if (lt->wake > t)
				continue;
			while (budget > 0 || lt->repeat) {
				struct wbsim_dtc g = { .dom = &dom,
					.wb_completions = &local, .wb = &wb,
					.bdi = &bdi, .avail = AVAIL,
					.dirty = nr_dirty,
					.wb_reclaimable = nr_dirty };
				struct wbsim_bdp_input in = { .gdtc = &g,
					.nr_dirty = nr_dirty, .now = t,
					.writeback_in_progress = flusher,
					.wb_dirtied = dirtied,
					.wb_written = written,
					.wb_has_dirty_io = nr_dirty > 0 };
				struct wbsim_bdp_result res;

				if (!lt->repeat) {
					uint64_t rl = lt->td.nr_dirtied_pause;
					uint64_t n;

					if (wb.dirty_exceeded && rl > 8)
						rl = 8;
					n = rl > lt->td.nr_dirtied ?
					    rl - lt->td.nr_dirtied : 1;
					if (n > budget)
						n = budget;
					budget -= n;
					nr_dirty += n;
					dirtied += n;
					wbsim_task_account_dirtied(&lt->td,
								   &lt->cpu, n);
					if (!wbsim_balance_dirty_pages_ratelimited(
						    &vm, &lt->td, &lt->cpu,
						    wb.dirty_exceeded))
						continue;
					lt->pages_dirtied = lt->td.nr_dirtied;
					lt->start_time = t;
				}
				in.pages_dirtied = lt->pages_dirtied;
				in.start_time = lt->start_time;
				wbsim_balance_dirty_pages(&vm, &in, &lt->td, &res);
				if (res.bandwidth_updated)
					bdi.tot_write_bandwidth +=
					 (uint64_t)res.bw.tot_write_bandwidth_delta;
				if (res.wake_flusher)
					flusher = true;
				lt->repeat = false;
				if (res.pause > 0) {
					lt->wake = t + (uint64_t)res.pause;
					lt->repeat = res.repeat;
					if (t >= measure_from)
						r->pauses++;
					break;
				}
			}
		}

		if (t == measure_from)
			dirtied_at_measure = dirtied;
		if (t >= measure_from) {
			sum_dirty += nr_dirty;
			if (nr_dirty < r->min_dirty)
				r->min_dirty = nr_dirty;
			if (nr_dirty > r->max_dirty)
				r->max_dirty = nr_dirty;
		}
	}
	r->avg_dirty = sum_dirty / (end - measure_from);
	r->dirty_rate = (dirtied - dirtied_at_measure) * HZ / (end - measure_from);
	r->avg_write_bandwidth = wb.avg_write_bandwidth;
	r->dirty_ratelimit = wb.dirty_ratelimit;
	{
		struct wbsim_dtc d = { .dom = &dom, .avail = AVAIL };

		wbsim_domain_dirty_limits(&vm, &d, false);
		r->freerun = wbsim_dirty_freerun_ceiling(d.thresh, d.bg_thresh);
		r->limit = wbsim_hard_dirty_limit(&dom, d.thresh);
		r->setpoint = wbsim_dirty_setpoint(&d);
	}
	if (getenv("WBSIM_TEST_VERBOSE"))
		printf("N=%u B=%llu: dirty avg %llu [%llu, %llu] (freerun %llu "
		       "setpoint %llu limit %llu) rate %llu write_bw %llu "
		       "R %llu pauses %llu\n", ntasks,
		       (unsigned long long)bw, (unsigned long long)r->avg_dirty,
		       (unsigned long long)r->min_dirty,
		       (unsigned long long)r->max_dirty,
		       (unsigned long long)r->freerun,
		       (unsigned long long)r->setpoint,
		       (unsigned long long)r->limit,
		       (unsigned long long)r->dirty_rate,
		       (unsigned long long)r->avg_write_bandwidth,
		       (unsigned long long)r->dirty_ratelimit,
		       (unsigned long long)r->pauses);
}

static void check_loop(unsigned int ntasks, uint64_t bw)
{
	struct loop_result r;

	run_loop(ntasks, bw, 120, &r);
	/* the estimate finds the device */
	assert_true(r.avg_write_bandwidth * 100 >= bw * 95);
	assert_true(r.avg_write_bandwidth * 100 <= bw * 105);
	/* dirtiers together get the device's bandwidth */
	assert_true(r.dirty_rate * 100 >= bw * 95);
	assert_true(r.dirty_rate * 100 <= bw * 105);
	/* dirty pages held in the throttled band, never at the limit */
	assert_true(r.min_dirty >= r.freerun);
	assert_true(r.max_dirty < r.limit);
	/* ... around the setpoint */
	assert_true(r.avg_dirty * 100 >= r.setpoint * 90);
	assert_true(r.avg_dirty * 100 <= r.setpoint * 110);
	/* the base rate is about the fair share B / N */
	assert_true(r.dirty_ratelimit * ntasks * 100 >= bw * 70);
	assert_true(r.dirty_ratelimit * ntasks * 100 <= bw * 130);
	assert_true(r.pauses > 0);
}

static void test_loop_one_dirtier(void **state)
{
	(void)state;
	check_loop(1, 12800);		/* 50 MiB/s */
}

static void test_loop_four_dirtiers(void **state)
{
	(void)state;
	check_loop(4, 12800);
}

static void test_loop_fast_device(void **state)
{
	(void)state;
	check_loop(3, 51200);		/* 200 MiB/s */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_one_dirtier),
		cmocka_unit_test(test_loop_four_dirtiers),
		cmocka_unit_test(test_loop_fast_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
