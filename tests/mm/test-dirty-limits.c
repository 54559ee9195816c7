/* SPDX-License-Identifier: MIT */
/*
 * test-dirty-limits.c - exact values of the dirty thresholds, the wb share,
 * the background test, the poll interval, ratelimit_pages and the
 * writeback chunk (lib/mm/dirty-limits.c, lib/mm/writeback-chunk.c).
 * Every expected value is worked out by hand in the comment next to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mm/dirty-limits.h"
#include "mm/writeback-chunk.h"

#define GIB_PAGES (UINT64_C(1) << 18)	/* 1 GiB in 4 KiB pages */

struct fixture {
	struct wbsim_vm_dirty vm;
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local local;
	struct wbsim_wb_bw bw;
	struct wbsim_bdi_dirty bdi;
	struct wbsim_dtc dtc;
};

static void fixture_init(struct fixture *f)
{
	wbsim_vm_dirty_init(&f->vm, 1000, 8);
	wbsim_wb_domain_init(&f->dom, 0);
	wbsim_fprop_local_init(&f->local);
	f->bw = (struct wbsim_wb_bw){ .avg_write_bandwidth = 25600,
				      .write_bandwidth = 25600,
				      .dirty_ratelimit = 25600 };
	f->bdi = (struct wbsim_bdi_dirty){ .min_ratio = 0,
		.max_ratio = 100 * WBSIM_BDI_RATIO_SCALE,
		.max_prop_frac = WBSIM_FPROP_FRAC_BASE };
	f->dtc = (struct wbsim_dtc){ .dom = &f->dom, .wb_completions = &f->local,
				     .wb = &f->bw, .bdi = &f->bdi };
}

static void test_dirtyable_memory(void **state)
{
	(void)state;
	/* (1000 - 300) + 5000 + 1 */
	assert_int_equal(wbsim_global_dirtyable_memory(1000, 5000, 300), 5701);
	/* reserve above free: 0 + 50 + 1 */
	assert_int_equal(wbsim_global_dirtyable_memory(100, 50, 300), 51);
	assert_int_equal(wbsim_global_dirtyable_memory(0, 0, 0), 1);
}

static void test_ratio_limits(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.dtc.avail = 16 * GIB_PAGES;		/* 4194304 pages */
	wbsim_domain_dirty_limits(&f.vm, &f.dtc, false);
	/* r = 20 * 4096 / 100 = 819; 819 * 4194304 / 4096 = 838656 */
	assert_int_equal(f.dtc.thresh, 838656);
	/* r_bg = 10 * 4096 / 100 = 409; 409 * 1024 = 418816 */
	assert_int_equal(f.dtc.bg_thresh, 418816);
	/* (838656 + 418816) / 2 */
	assert_int_equal(wbsim_dirty_freerun_ceiling(f.dtc.thresh,
						     f.dtc.bg_thresh), 628736);
	/* dom.dirty_limit is 0: limit = thresh */
	assert_int_equal(wbsim_hard_dirty_limit(&f.dom, f.dtc.thresh), 838656);
	/* (628736 + 838656) / 2 */
	assert_int_equal(wbsim_dirty_setpoint(&f.dtc), 733696);
	f.dom.dirty_limit = 900000;
	assert_int_equal(wbsim_hard_dirty_limit(&f.dom, f.dtc.thresh), 900000);
	/* (628736 + 900000) / 2 */
	assert_int_equal(wbsim_dirty_setpoint(&f.dtc), 764368);
}

static void test_rt_boost(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.dtc.avail = 16 * GIB_PAGES;
	f.dom.dirty_limit = 838656;	/* /32 = 26208 */
	wbsim_domain_dirty_limits(&f.vm, &f.dtc, true);
	/* 838656 + 209664 + 26208 */
	assert_int_equal(f.dtc.thresh, 1074528);
	/* 418816 + 104704 + 26208 */
	assert_int_equal(f.dtc.bg_thresh, 549728);
}

static void test_bytes_limits(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.dtc.avail = 16 * GIB_PAGES;
	f.vm.vm_dirty_bytes = (UINT64_C(1) << 30) + 1;	/* rounds up */
	f.vm.dirty_background_bytes = UINT64_C(512) << 20;
	wbsim_domain_dirty_limits(&f.vm, &f.dtc, false);
	assert_int_equal(f.dtc.thresh, 262145);
	assert_int_equal(f.dtc.bg_thresh, 131072);

	/* bg above thresh: bg = thresh / 2 */
	f.vm.vm_dirty_bytes = UINT64_C(100) << 20;		/* 25600 pages */
	f.vm.dirty_background_bytes = UINT64_C(200) << 20;
	wbsim_domain_dirty_limits(&f.vm, &f.dtc, false);
	assert_int_equal(f.dtc.thresh, 25600);
	assert_int_equal(f.dtc.bg_thresh, 12800);
}

static void test_memcg_bytes(void **state)
{
	struct fixture f;
	struct wbsim_dtc gdtc = { .avail = 16 * GIB_PAGES };

	(void)state;
	fixture_init(&f);
	f.vm.vm_dirty_bytes = UINT64_C(1) << 30;
	f.dtc.gdtc = &gdtc;
	f.dtc.avail = GIB_PAGES;
	wbsim_domain_dirty_limits(&f.vm, &f.dtc, false);
	/* r = ceil(2^30 / 4194304) = 256 per 4096; 256 * 262144 / 4096 */
	assert_int_equal(f.dtc.thresh, 16384);
	/* bg stays a ratio: 409 * 262144 / 4096 = 26176 >= thresh -> /2 */
	assert_int_equal(f.dtc.bg_thresh, 8192);
}

static void test_update_dirty_limit(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.dtc.thresh = 838656;
	f.dtc.dirty = 0;
	wbsim_domain_update_dirty_limit(&f.vm, &f.dtc, 199);
	assert_int_equal(f.dom.dirty_limit, 0);		/* < 200 ms */
	wbsim_domain_update_dirty_limit(&f.vm, &f.dtc, 200);
	assert_int_equal(f.dom.dirty_limit, 838656);	/* jumps up */
	f.dtc.thresh = 400000;
	f.dtc.dirty = 500000;
	wbsim_domain_update_dirty_limit(&f.vm, &f.dtc, 399);
	assert_int_equal(f.dom.dirty_limit, 838656);
	wbsim_domain_update_dirty_limit(&f.vm, &f.dtc, 400);
	/* target max(400000, 500000); 838656 - (338656 >> 5 = 10583) */
	assert_int_equal(f.dom.dirty_limit, 828073);
	assert_int_equal(f.dom.dirty_limit_tstamp, 400);
	/* at the target it stays */
	f.dom.dirty_limit = 500000;
	wbsim_domain_update_dirty_limit(&f.vm, &f.dtc, 600);
	assert_int_equal(f.dom.dirty_limit, 500000);
}

static void test_wb_calc_thresh(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.dtc.avail = 16 * GIB_PAGES;
	wbsim_domain_dirty_limits(&f.vm, &f.dtc, false);
	f.dom.completions.events = 1000;
	f.local.events = 250;
	/* 838656 * 250 / 1000 */
	assert_int_equal(wbsim_wb_calc_thresh(&f.vm, &f.dtc, f.dtc.thresh),
			 209664);
	wbsim_wb_dirty_limits(&f.vm, &f.dtc);
	assert_int_equal(f.dtc.wb_thresh, 209664);
	/* 209664 * 418816 / 838656 */
	assert_int_equal(f.dtc.wb_bg_thresh, 104704);

	/* max_ratio 1 %: 838656 * 10000 / 1000000 = 8386 */
	f.bdi.max_ratio = WBSIM_BDI_RATIO_SCALE;
	assert_int_equal(wbsim_wb_calc_thresh(&f.vm, &f.dtc, f.dtc.thresh),
			 8386);

	/* min_ratio 5 % (the only bdi with one): 838656 * 0.95 -> 796723,
	 * * 250 / 1000 -> 199180, + 838656 * 0.05 -> 41932 */
	f.bdi.max_ratio = 100 * WBSIM_BDI_RATIO_SCALE;
	f.bdi.min_ratio = 5 * WBSIM_BDI_RATIO_SCALE;
	f.vm.bdi_min_ratio = 5 * WBSIM_BDI_RATIO_SCALE;
	assert_int_equal(wbsim_wb_calc_thresh(&f.vm, &f.dtc, f.dtc.thresh),
			 241112);

	/* cgroup split: this wb has 1/4 of the bdi's bandwidth, so its
	 * min_ratio is 5 % / 4: 199180 + 838656 * 12500 / 1e6 (10483) */
	f.bdi.tot_write_bandwidth = 4 * f.bw.avg_write_bandwidth;
	assert_int_equal(wbsim_wb_calc_thresh(&f.vm, &f.dtc, f.dtc.thresh),
			 209663);
}

static void test_strictlimit_bump(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.dtc.avail = 16 * GIB_PAGES;
	wbsim_domain_dirty_limits(&f.vm, &f.dtc, false);
	f.bdi.strictlimit = true;
	f.bdi.max_ratio = WBSIM_BDI_RATIO_SCALE;	/* FUSE: 1 % -> 8386 */
	f.dtc.dirty = 100000;
	/* share 0; bump min((838656 - 100000) / 100 = 7386, 8386 / 4) */
	assert_int_equal(wbsim_wb_calc_thresh(&f.vm, &f.dtc, f.dtc.thresh),
			 2096);
	f.dtc.dirty = 838000;
	/* (838656 - 838000) / 100 = 6 */
	assert_int_equal(wbsim_wb_calc_thresh(&f.vm, &f.dtc, f.dtc.thresh), 6);
}

static void test_over_bg_thresh(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.dom.completions.events = 1000;
	f.local.events = 250;
	f.dtc.avail = 16 * GIB_PAGES;
	f.dtc.dirty = 418817;		/* bg_thresh + 1 */
	assert_true(wbsim_wb_over_bg_thresh(&f.vm, &f.dtc, NULL, 0));
	f.dtc.dirty = 418816;
	/* wb_bg = 418816 * 250 / 1000 = 104704 */
	assert_true(wbsim_wb_over_bg_thresh(&f.vm, &f.dtc, NULL, 104705));
	assert_false(wbsim_wb_over_bg_thresh(&f.vm, &f.dtc, NULL, 104704));
	assert_int_equal(f.dtc.wb_bg_thresh, 104704);
}

static void test_poll_interval(void **state)
{
	(void)state;
	/* gap 838656: ilog2 19, >> 1 = 9 */
	assert_int_equal(wbsim_dirty_poll_interval(0, 838656), 512);
	assert_int_equal(wbsim_dirty_poll_interval(100000, 838656), 512);
	/* gap 65536: ilog2 16 -> 256; gap 65535: ilog2 15 -> 128 */
	assert_int_equal(wbsim_dirty_poll_interval(0, 65536), 256);
	assert_int_equal(wbsim_dirty_poll_interval(1, 65536), 128);
	assert_int_equal(wbsim_dirty_poll_interval(0, 4), 2);
	assert_int_equal(wbsim_dirty_poll_interval(0, 3), 1);
	assert_int_equal(wbsim_dirty_poll_interval(5, 5), 1);
	assert_int_equal(wbsim_dirty_poll_interval(9, 5), 1);
}

static void test_set_ratelimit(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	wbsim_writeback_set_ratelimit(&f.vm, &f.dom, 16 * GIB_PAGES);
	assert_int_equal(f.dom.dirty_limit, 838656);
	/* 838656 / (8 * 32) */
	assert_int_equal(f.vm.ratelimit_pages, 3276);
	/* thresh 1999 / 256 = 7 -> at least 16 */
	wbsim_writeback_set_ratelimit(&f.vm, &f.dom, 10000);
	assert_int_equal(f.dom.dirty_limit, 1999);
	assert_int_equal(f.vm.ratelimit_pages, 16);
	assert_int_equal(wbsim_wb_stat_error(8), 256);
	assert_int_equal(wbsim_wb_stat_error(2), 32);
}

static void test_chunk_size(void **state)
{
	(void)state;
	assert_true(wbsim_writeback_chunk_size(true, 25600, 838656, 10) ==
		    WBSIM_LONG_MAX);
	/* min(12800, 104832) + 1024 = 13824, down to 13 * 1024 */
	assert_int_equal(wbsim_writeback_chunk_size(false, 25600, 838656,
						    WBSIM_LONG_MAX), 13312);
	/* 1 GiB/s: min(131072, 104832) + 1024 -> 103 * 1024 */
	assert_int_equal(wbsim_writeback_chunk_size(false, 262144, 838656,
						    WBSIM_LONG_MAX), 105472);
	/* small work: 100 + 1024 -> 1024; never below 4 MiB */
	assert_int_equal(wbsim_writeback_chunk_size(false, 262144, 838656,
						    100), 1024);
	assert_int_equal(wbsim_writeback_chunk_size(false, 1, 838656,
						    WBSIM_LONG_MAX), 1024);
	/* exact multiple: 2048 + 1024 -> 3072 */
	assert_int_equal(wbsim_writeback_chunk_size(false, 4096, 838656,
						    WBSIM_LONG_MAX), 3072);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirtyable_memory),
		cmocka_unit_test(test_ratio_limits),
		cmocka_unit_test(test_rt_boost),
		cmocka_unit_test(test_bytes_limits),
		cmocka_unit_test(test_memcg_bytes),
		cmocka_unit_test(test_update_dirty_limit),
		cmocka_unit_test(test_wb_calc_thresh),
		cmocka_unit_test(test_strictlimit_bump),
		cmocka_unit_test(test_over_bg_thresh),
		cmocka_unit_test(test_poll_interval),
		cmocka_unit_test(test_set_ratelimit),
		cmocka_unit_test(test_chunk_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
