/* SPDX-License-Identifier: MIT */
/*
 * test-throttle.c - pause bounds, the ratelimited entry and single passes
 * of balance_dirty_pages() (lib/mm/throttle.c), exact values by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mm/dirty-limits.h"
#include "mm/throttle.h"

#define GBPS_PAGES UINT64_C(262144)	/* 1 GiB/s in pages/s */

static void test_max_pause(void **state)
{
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_bw wb = { .avg_write_bandwidth = GBPS_PAGES };

	(void)state;
	wbsim_vm_dirty_init(&vm, 1000, 8);
	/* HZ 1000: 262144 / roundup_pow2(126) = 128 -> 2048; 1 + 2048;
	 * 100000 / 2049 = 48, + 1 */
	assert_int_equal(wbsim_wb_max_pause(&vm, &wb, 100000), 49);
	/* 1000000 / 2049 + 1 = 489 -> MAX_PAUSE 200 */
	assert_int_equal(wbsim_wb_max_pause(&vm, &wb, 1000000), 200);
	assert_int_equal(wbsim_wb_max_pause(&vm, &wb, 0), 1);

	/* HZ 250: roundup_pow2(1 + 31) = 32 -> 8192; 100000 / 8193 + 1 */
	wbsim_vm_dirty_init(&vm, 250, 8);
	assert_int_equal(wbsim_wb_max_pause(&vm, &wb, 100000), 13);
	/* 1000000 / 8193 + 1 = 123 -> MAX_PAUSE 50 */
	assert_int_equal(wbsim_wb_max_pause(&vm, &wb, 1000000), 50);
}

static void test_min_pause(void **state)
{
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_bw wb = { .avg_write_bandwidth = GBPS_PAGES,
				  .dirty_ratelimit = GBPS_PAGES / 4 };
	uint64_t pages;

	(void)state;
	/*
	 * HZ 1000, 4 dirtiers on 1 GiB/s (R = 65536): ilog2 18 vs 16;
	 * t = 10 + 2 * 10000 / 1024 = 29 -> min(29, 1 + 49 / 2) = 25;
	 * pages = 65536 * 25 / 1024 = 1600; next pause 1000 * 1600 / 65537
	 * = 24 <= 49; min_pause = 1 + 25 / 2 = 13
	 */
	wbsim_vm_dirty_init(&vm, 1000, 8);
	assert_int_equal(wbsim_wb_min_pause(&vm, &wb, 49, 65536, 65536,
					    &pages), 13);
	assert_int_equal(pages, 1600);
	/*
	 * HZ 250: t = 2 + 2 * 2500 / 1024 = 6 (<= 1 + 13 / 2);
	 * pages = 65536 * 6 / 256 = 1536; min_pause = 1 + 3
	 */
	wbsim_vm_dirty_init(&vm, 250, 8);
	assert_int_equal(wbsim_wb_min_pause(&vm, &wb, 13, 65536, 65536,
					    &pages), 4);
	assert_int_equal(pages, 1536);

	/* one dirtier (R = bw): t = 10, pages = 262144 * 10 / 1024 = 2560,
	 * min_pause 6 */
	wbsim_vm_dirty_init(&vm, 1000, 8);
	wb.dirty_ratelimit = GBPS_PAGES;
	assert_int_equal(wbsim_wb_min_pause(&vm, &wb, 49, GBPS_PAGES,
					    GBPS_PAGES, &pages), 6);
	assert_int_equal(pages, 2560);

	/*
	 * Slow rate R = 1000: t = 10 + 9 * 10000 / 1024 = 97 -> 25;
	 * pages = 24 < 32: t = 49, pages = 47 > 32 -> 32, t = 32000 / 1000
	 * = 32; pause at task_r 1000: 32000 / 1001 = 31 <= 49;
	 * min_pause = 1 + 32 / 2
	 */
	wb.dirty_ratelimit = 1000;
	assert_int_equal(wbsim_wb_min_pause(&vm, &wb, 49, 1000, 1000, &pages),
			 17);
	assert_int_equal(pages, 32);
	/* task_r 500: 32000 / 501 = 63 > 49: t = 49, pages = 500 * 49 /
	 * 1024 = 23 < 32 -> min_pause = t */
	assert_int_equal(wbsim_wb_min_pause(&vm, &wb, 49, 500, 1000, &pages),
			 49);
	assert_int_equal(pages, 23);
}

static void test_ratelimited(void **state)
{
	struct wbsim_vm_dirty vm;
	struct wbsim_task_dirty t;
	struct wbsim_cpu_dirty cpu = { 0 };

	(void)state;
	wbsim_vm_dirty_init(&vm, 1000, 8);	/* ratelimit_pages 32 */
	wbsim_task_dirty_init(&t);
	assert_int_equal(t.nr_dirtied_pause, 32);

	wbsim_task_account_dirtied(&t, &cpu, 31);
	assert_false(wbsim_balance_dirty_pages_ratelimited(&vm, &t, &cpu,
							   false));
	assert_int_equal(cpu.bdp_ratelimits, 31);
	wbsim_task_account_dirtied(&t, &cpu, 1);
	assert_true(wbsim_balance_dirty_pages_ratelimited(&vm, &t, &cpu,
							  false));
	assert_int_equal(cpu.bdp_ratelimits, 0);

	/* dirty_exceeded: 8 pages are enough */
	wbsim_task_dirty_init(&t);
	wbsim_task_account_dirtied(&t, &cpu, 8);
	assert_false(wbsim_balance_dirty_pages_ratelimited(&vm, &t, &cpu,
							   false));
	assert_true(wbsim_balance_dirty_pages_ratelimited(&vm, &t, &cpu,
							  true));

	/* the CPU counter forces a check of a task with a large pause */
	wbsim_task_dirty_init(&t);
	t.nr_dirtied_pause = 1000;
	cpu.bdp_ratelimits = 40;
	wbsim_task_account_dirtied(&t, &cpu, 1);
	assert_true(wbsim_balance_dirty_pages_ratelimited(&vm, &t, &cpu,
							  false));
	assert_int_equal(cpu.bdp_ratelimits, 0);

	/* leaks of exited tasks are taken up to the ratelimit */
	wbsim_task_dirty_init(&t);
	cpu.dirty_throttle_leaks = 100;
	wbsim_task_account_dirtied(&t, &cpu, 10);
	assert_true(wbsim_balance_dirty_pages_ratelimited(&vm, &t, &cpu,
							  false));
	assert_int_equal(t.nr_dirtied, 32);
	assert_int_equal(cpu.dirty_throttle_leaks, 78);
	wbsim_task_dirty_exit(&t, &cpu);
	assert_int_equal(cpu.dirty_throttle_leaks, 110);
}

/*
 * One wb owning the 16 GiB domain: thresh 838656, bg 418816, freerun
 * 628736, dirty_limit 838656, setpoint 733696; share 1.0; INIT_BW rates.
 */
struct fixture {
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local local;
	struct wbsim_wb_bw bw;
	struct wbsim_bdi_dirty bdi;
	struct wbsim_dtc gdtc;
	struct wbsim_bdp_input in;
	struct wbsim_task_dirty task;
	struct wbsim_bdp_result res;
};

static void fixture_init(struct fixture *f, uint64_t now)
{
	wbsim_vm_dirty_init(&f->vm, 1000, 8);
	wbsim_wb_domain_init(&f->dom, now);
	f->dom.dirty_limit = 838656;
	f->dom.completions.events = 1000;
	wbsim_fprop_local_init(&f->local);
	f->local.events = 1000;
	wbsim_wb_bw_init(&f->bw, now);
	f->bdi = (struct wbsim_bdi_dirty){
		.max_ratio = 100 * WBSIM_BDI_RATIO_SCALE,
		.max_prop_frac = WBSIM_FPROP_FRAC_BASE };
	f->gdtc = (struct wbsim_dtc){ .dom = &f->dom, .wb_completions = &f->local,
		.wb = &f->bw, .bdi = &f->bdi, .avail = UINT64_C(4194304) };
	f->in = (struct wbsim_bdp_input){ .gdtc = &f->gdtc, .now = now,
		.start_time = now };
	wbsim_task_dirty_init(&f->task);
}

static void test_bdp_freerun(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 5000);
	f.gdtc.dirty = 100000;
	f.in.nr_dirty = 100000;
	f.in.pages_dirtied = 32;
	f.task.nr_dirtied = 32;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_true(f.res.freerun);
	assert_false(f.res.wake_flusher);	/* 100000 <= bg */
	assert_false(f.res.traced);
	/* poll: gap 738656, ilog2 19 >> 1 = 9 */
	assert_int_equal(f.task.nr_dirtied_pause, 512);
	assert_int_equal(f.task.nr_dirtied, 0);
	assert_int_equal(f.task.dirty_paused_when, 5000);
	assert_int_equal(f.res.pause, 0);

	/* over bg but under freerun: kick the flusher, still freerun */
	f.gdtc.dirty = 600000;
	f.in.nr_dirty = 500000;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_true(f.res.freerun);
	assert_true(f.res.wake_flusher);
	f.in.writeback_in_progress = true;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_false(f.res.wake_flusher);
}

static void test_bdp_throttled(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 5000);
	f.gdtc.dirty = 733696;			/* at the setpoint */
	f.gdtc.wb_reclaimable = 633696;
	f.gdtc.wb_writeback = 100000;
	f.in.nr_dirty = 633696;
	f.in.pages_dirtied = 256;
	f.task.dirty_paused_when = 4998;	/* 2 ms of think time */
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);

	assert_false(f.res.freerun);
	assert_true(f.res.wake_flusher);
	assert_true(f.res.flush_foreign);
	assert_false(f.res.bandwidth_updated);	/* stamped at 5000 */
	assert_false(f.res.dirty_exceeded);
	assert_int_equal(f.gdtc.wb_thresh, 838656);
	assert_int_equal(f.gdtc.wb_bg_thresh, 418816);
	/* wb line at wb_dirty 733696: 1023 (see test-position-ratio) */
	assert_int_equal(f.res.pos_ratio, 1023);
	/* 25600 * 1023 >> 10 */
	assert_int_equal(f.res.task_ratelimit, 25575);
	/* 733696 / (1 + 25600 / 128) + 1 = 3651 -> 200 */
	assert_int_equal(f.res.max_pause, 200);
	/* t 10, pages 250, min_pause 6 */
	assert_int_equal(f.res.min_pause, 6);
	/* period = 1000 * 256 / 25575 = 10; pause = 10 - 2 */
	assert_int_equal(f.res.period, 10);
	assert_int_equal(f.res.pause, 8);
	assert_int_equal(f.res.think, 2);
	assert_false(f.res.repeat);
	assert_int_equal(f.task.dirty_paused_when, 5008);
	assert_int_equal(f.task.nr_dirtied_pause, 250);
	assert_int_equal(f.task.nr_dirtied, 0);

	assert_true(f.res.traced);
	assert_int_equal(f.res.trace.limit, 838656);
	assert_int_equal(f.res.trace.setpoint, 733696);
	assert_int_equal(f.res.trace.dirty, 733696);
	/* 733696 * 838656 / 838657 */
	assert_int_equal(f.res.trace.wb_setpoint, 733695);
	assert_int_equal(f.res.trace.wb_dirty, 733696);
	assert_int_equal(f.res.trace.dirty_ratelimit, 102400);	/* KB/s */
	assert_int_equal(f.res.trace.task_ratelimit, 102300);
	assert_int_equal(f.res.trace.dirtied, 256);
	assert_int_equal(f.res.trace.dirtied_pause, 32);
	assert_int_equal(f.res.trace.think, 2);
	assert_int_equal(f.res.trace.period, 10);
	assert_int_equal(f.res.trace.pause, 8);
	assert_int_equal(f.res.trace.paused, 0);
}

/*
 * BDP_ASYNC (an io_uring IOCB_NOWAIT write): the pass of
 * test_bdp_throttled computes the same 8 ms pause and traces it, then
 * returns -EAGAIN with the task's state as it was; the next call, 5 ms
 * later, finds 7 ms of think time: pause 10 - 7 = 3 < min_pause 6, no
 * -EAGAIN, and the virtual time advances by the period.
 */
static void test_bdp_async(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 5000);
	f.gdtc.dirty = 733696;
	f.gdtc.wb_reclaimable = 633696;
	f.gdtc.wb_writeback = 100000;
	f.in.nr_dirty = 633696;
	f.in.pages_dirtied = 256;
	f.in.async = true;
	f.task.nr_dirtied = 256;
	f.task.dirty_paused_when = 4998;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_true(f.res.eagain);
	assert_int_equal(f.res.period, 10);
	assert_int_equal(f.res.pause, 8);
	assert_true(f.res.traced);
	assert_int_equal(f.res.trace.pause, 8);
	assert_int_equal(f.task.dirty_paused_when, 4998);
	assert_int_equal(f.task.nr_dirtied, 256);
	assert_int_equal(f.task.nr_dirtied_pause, 32);

	f.in.now = 5005;
	f.in.start_time = 5005;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_false(f.res.eagain);
	assert_int_equal(f.res.pause, 0);
	assert_int_equal(f.res.think, 7);
	assert_int_equal(f.task.dirty_paused_when, 5008);
	assert_int_equal(f.task.nr_dirtied, 0);
}

static void test_bdp_short_pause(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 5000);
	f.gdtc.dirty = 733696;
	f.gdtc.wb_reclaimable = 733696;
	f.in.nr_dirty = 733696;
	f.in.pages_dirtied = 256;
	/* think time 5 ms: pause 10 - 5 = 5 < min_pause 6: no sleep, the
	 * virtual time advances by the period */
	f.task.dirty_paused_when = 4995;
	f.task.nr_dirtied = 256;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_int_equal(f.res.pause, 0);
	assert_int_equal(f.res.period, 10);
	assert_int_equal(f.task.dirty_paused_when, 5005);
	assert_int_equal(f.task.nr_dirtied, 0);
	assert_int_equal(f.task.nr_dirtied_pause, 32);	/* unchanged */
	assert_true(f.res.traced);
	assert_int_equal(f.res.trace.pause, 0);		/* min(pause, 0) */

	/* more than 1 s of think time: reset to now */
	f.task.dirty_paused_when = 3000;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_int_equal(f.res.pause, 0);
	assert_int_equal(f.task.dirty_paused_when, 5000);
	assert_int_equal(f.res.think, 2000);
	/* 10 - 2000 */
	assert_int_equal(f.res.trace.pause, -1990);
}

static void test_bdp_hard_stop(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 5000);
	f.gdtc.dirty = 838656;			/* at the limit */
	f.gdtc.wb_reclaimable = 838656;
	f.in.nr_dirty = 838656;
	f.in.pages_dirtied = 32;
	f.in.start_time = 4800;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_int_equal(f.res.pos_ratio, 0);
	assert_int_equal(f.res.task_ratelimit, 0);
	assert_int_equal(f.res.pause, 200);
	assert_int_equal(f.res.period, 200);
	assert_true(f.res.repeat);		/* wb_dirty > 256 */
	assert_true(f.res.dirty_exceeded == false);	/* wb_dirty == wb_thresh */
	assert_int_equal(f.res.trace.paused, 200);
	assert_int_equal(f.task.dirty_paused_when, 5200);

	/* over the wb threshold too: dirty_exceeded */
	f.gdtc.dirty = 838657;
	f.gdtc.wb_reclaimable = 838657;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_true(f.res.dirty_exceeded);
	assert_true(f.bw.dirty_exceeded);

	/* an (almost) empty wb is let through after one sleep */
	f.gdtc.wb_reclaimable = 256;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_int_equal(f.res.task_ratelimit, 0);
	assert_false(f.res.repeat);
}

static void test_bdp_bandwidth_update(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 5000);
	f.gdtc.dirty = 733696;
	f.gdtc.wb_reclaimable = 733696;
	f.in.nr_dirty = 733696;
	f.in.pages_dirtied = 256;
	f.in.now = 5201;		/* > stamp + 200 */
	f.in.wb_dirtied = 5120;		/* 25600 pages/s over 200 ms */
	f.in.wb_written = 5120;
	f.in.wb_has_dirty_io = true;
	f.dom.dirty_limit_tstamp = 5000;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_true(f.res.bandwidth_updated);
	assert_int_equal(f.res.bw.nr_traces, 1);
	assert_int_equal(f.bw.bw_time_stamp, 5201);
	assert_int_equal(f.bw.dirtied_stamp, 5120);
	/* dirty_rate = 5120 * 1000 / 201 = 25472 pages/s */
	assert_int_equal(f.res.bw.trace[0].dirty_rate, 4 * 25472);
	/* task_ratelimit of the update: 25575 + 1 */
	assert_int_equal(f.res.bw.trace[0].task_ratelimit, 4 * 25576);
	/* balanced = 25576 * 25600 / (25472 | 1 = 25473) = 25703 -> capped
	 * at write_bw 25600 */
	assert_int_equal(f.res.bw.trace[0].balanced_dirty_ratelimit,
			 4 * 25600);
	assert_int_equal(f.res.dirty_ratelimit, f.bw.dirty_ratelimit);
}

static void test_bdp_memcg_domain(void **state)
{
	struct fixture f;
	struct wbsim_wb_domain mdom;
	struct wbsim_fprop_local mlocal;
	struct wbsim_dtc mdtc;

	(void)state;
	fixture_init(&f, 5000);
	wbsim_wb_domain_init(&mdom, 5000);
	mdom.dirty_limit = 52416;
	mdom.completions.events = 500;
	wbsim_fprop_local_init(&mlocal);
	mlocal.events = 500;
	/*
	 * memcg of 1 GiB dirtyable: thresh 819 * 64 = 52416, bg 409 * 64 =
	 * 26176, freerun 39296, setpoint 45856; dirty 50000:
	 * x = -4144 * 1024 / 6561 = -646; 646^2 >> 10 = 407;
	 * 407 * -646 >> 10 = -257; pos 767; wb line: wb_dirty 733696 is
	 * past the floor: 767 / 4 = 191.
	 * Global domain in freerun (dirty 100000) but the memcg is not, so
	 * the task is throttled, by the memcg's smaller pos_ratio.
	 */
	mdtc = (struct wbsim_dtc){ .gdtc = &f.gdtc, .dom = &mdom,
		.wb_completions = &mlocal, .wb = &f.bw, .bdi = &f.bdi,
		.avail = UINT64_C(262144), .dirty = 50000,
		.wb_reclaimable = 733696 };
	f.in.mdtc = &mdtc;
	f.gdtc.dirty = 100000;
	f.gdtc.wb_reclaimable = 733696;
	f.in.nr_dirty = 100000;
	f.in.pages_dirtied = 256;
	f.in.now = 5201;
	f.in.wb_dirtied = 1000;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_false(f.res.freerun);
	assert_int_equal(mdtc.thresh, 52416);
	assert_int_equal(mdtc.bg_thresh, 26176);
	assert_true(f.res.memcg_selected);
	assert_int_equal(mdtc.pos_ratio, 191);
	assert_int_equal(f.res.pos_ratio, 191);
	/* global line 2048 * 204784 / 204797 = 2047 */
	assert_int_equal(f.gdtc.pos_ratio, 2047);
	/* both domains updated the same dirty_ratelimit, G then M */
	assert_true(f.res.bandwidth_updated);
	assert_int_equal(f.res.bw.nr_traces, 2);
	assert_int_equal(mdom.dirty_limit_tstamp, 5201);
	/* task_ratelimit from the updated R and the memcg's pos_ratio */
	assert_int_equal(f.res.task_ratelimit,
			 f.bw.dirty_ratelimit * 191 >> 10);
	assert_int_equal(f.res.trace.limit, 52416);
	assert_int_equal(f.res.trace.setpoint, 45856);

	/* both in freerun: the smaller poll interval of the two wins */
	mdtc.dirty = 30000;
	wbsim_balance_dirty_pages(&f.vm, &f.in, &f.task, &f.res);
	assert_true(f.res.freerun);
	/* min(poll(738656) = 512, poll(22416): ilog2 14 >> 1 -> 128) */
	assert_int_equal(f.task.nr_dirtied_pause, 128);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_max_pause),
		cmocka_unit_test(test_min_pause),
		cmocka_unit_test(test_ratelimited),
		cmocka_unit_test(test_bdp_freerun),
		cmocka_unit_test(test_bdp_throttled),
		cmocka_unit_test(test_bdp_async),
		cmocka_unit_test(test_bdp_short_pause),
		cmocka_unit_test(test_bdp_hard_stop),
		cmocka_unit_test(test_bdp_bandwidth_update),
		cmocka_unit_test(test_bdp_memcg_domain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
