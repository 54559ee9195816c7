/* SPDX-License-Identifier: MIT */
/*
 * test-position-ratio.c - the cubic global control line and the linear wb
 * control line (lib/mm/position-ratio.c), exact values worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mm/dirty-limits.h"
#include "mm/position-ratio.h"

/*
 * setpoint 2000, limit 3025: limit - setpoint = 1025 is odd, so "| 1" is a
 * no-op and freerun = 2 * 2000 - 3025 = 975 maps to x = 1024 exactly.
 */
static void test_polynom_anchors(void **state)
{
	(void)state;
	assert_int_equal(wbsim_pos_ratio_polynom(2000, 975, 3025), 2048);
	assert_int_equal(wbsim_pos_ratio_polynom(2000, 2000, 3025), 1024);
	assert_int_equal(wbsim_pos_ratio_polynom(2000, 3025, 3025), 0);
	/* clamped at both ends */
	assert_int_equal(wbsim_pos_ratio_polynom(2000, 0, 3025), 2048);
	assert_int_equal(wbsim_pos_ratio_polynom(2000, 4000, 3025), 0);
	/* limit == setpoint: x = 10^9 * 1024, would overflow x^3 */
	assert_int_equal(wbsim_pos_ratio_polynom(UINT64_C(1000000000), 0,
						 UINT64_C(1000000000)), 2048);
	assert_int_equal(wbsim_pos_ratio_polynom(1, UINT64_C(1000000000), 1),
			 0);
	/* the bound does not change results near it: x = 2047 and 2048
	 * (setpoint 2047 or 2048 over a gap of 1) clamp to 2048 either way */
	assert_int_equal(wbsim_pos_ratio_polynom(2, 0, 3), 2048);
}

static void test_polynom_asymmetric(void **state)
{
	(void)state;
	/*
	 * dirty 1500: x = 500 * 1024 / 1025 = 499 (499.5 truncated);
	 * 499^2 = 249001 >> 10 = 243; 243 * 499 = 121257 >> 10 = 118;
	 * 1024 + 118 = 1142
	 */
	assert_int_equal(wbsim_pos_ratio_polynom(2000, 1500, 3025), 1142);
	/*
	 * dirty 2500: x = -499 (truncated toward 0); 243 as above;
	 * 243 * -499 = -121257 >> 10 = -119 (arithmetic shift rounds down,
	 * truncation would give -118); 1024 - 119 = 905
	 */
	assert_int_equal(wbsim_pos_ratio_polynom(2000, 2500, 3025), 905);
	/*
	 * dirty 2999: x = -999 * 1024 / 1025 = -998; 998^2 = 996004 >> 10 =
	 * 972; 972 * -998 = -970056 >> 10 = -948 (trunc: -947); 1024 - 948
	 */
	assert_int_equal(wbsim_pos_ratio_polynom(2000, 2999, 3025), 76);
	/*
	 * Real domain: 16 GiB, freerun 628736, setpoint 733696, limit
	 * 838656; limit - setpoint = 104960 is even, "| 1" makes it 104961:
	 * x = 104960 * 1024 / 104961 = 1023; 1023^2 >> 10 = 1022;
	 * 1022 * 1023 >> 10 = 1021; 2045, not 2048
	 */
	assert_int_equal(wbsim_pos_ratio_polynom(733696, 628736, 838656), 2045);
}

struct fixture {
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local local;
	struct wbsim_wb_bw bw;
	struct wbsim_bdi_dirty bdi;
	struct wbsim_dtc dtc;
};

/*
 * One wb owning the whole 16 GiB domain: thresh 838656, bg 418816,
 * dirty_limit 838656, setpoint 733696, wb_thresh = thresh, write_bw 25600.
 *	x = (838656 << 16) / 838657 = 65535
 *	wb_setpoint = 733696 * 65535 >> 16 = 733684
 *	span = (0 + 8 * 25600) * 65535 >> 16 = 204796
 *	x_intercept = 938480; the 1/4 floor starts at 938480 - 51199 = 887281
 *	reserve area below wb_thresh / 2 = 419328 (x8 below 52416)
 */
static void fixture_init(struct fixture *f)
{
	wbsim_wb_domain_init(&f->dom, 0);
	f->dom.dirty_limit = 838656;
	wbsim_fprop_local_init(&f->local);
	f->bw = (struct wbsim_wb_bw){ .avg_write_bandwidth = 25600 };
	f->bdi = (struct wbsim_bdi_dirty){
		.max_ratio = 100 * WBSIM_BDI_RATIO_SCALE,
		.max_prop_frac = WBSIM_FPROP_FRAC_BASE };
	f->dtc = (struct wbsim_dtc){ .dom = &f->dom, .wb_completions = &f->local,
		.wb = &f->bw, .bdi = &f->bdi, .thresh = 838656,
		.bg_thresh = 418816, .dirty = 733696, .wb_thresh = 838656,
		.wb_bg_thresh = 418816 };
}

static uint64_t wb_pos(struct fixture *f, uint64_t wb_dirty)
{
	f->dtc.wb_dirty = wb_dirty;
	wbsim_wb_position_ratio(&f->dtc);
	return f->dtc.pos_ratio;
}

static void test_wb_line(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	/* 1024 * (938480 - 733696) / (204796 | 1) = 1023 */
	assert_int_equal(wb_pos(&f, 733696), 1023);
	assert_int_equal(f.dtc.limit, 838656);
	/* 1024 * (938480 - 800000) / 204797 = 692 */
	assert_int_equal(wb_pos(&f, 800000), 692);
	/* near the end of the line: 1024 * 51480 / 204797 = 257 */
	assert_int_equal(wb_pos(&f, 887000), 257);
	/* last point on the line: 1024 * 51200 / 204797 = 256 (256.004) */
	assert_int_equal(wb_pos(&f, 887280), 256);
	/* floored at 1/4: 1024 / 4 */
	assert_int_equal(wb_pos(&f, 887281), 256);
	assert_int_equal(wb_pos(&f, 900000), 256);
	assert_int_equal(wb_pos(&f, 5000000), 256);
}

static void test_wb_reserve_area(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	/* line 1024 * 738480 / 204797 = 3692, * 419328 / 200000 = 7740:
	 * far above 2.0, and not clamped again */
	assert_int_equal(wb_pos(&f, 200000), 7740);
	/* line 1024 * 937480 / 204797 = 4687, below 52416: * 8 */
	assert_int_equal(wb_pos(&f, 1000), 37496);
	/* wb_dirty 0 is below the 1/8 point too: line 4692 * 8 */
	assert_int_equal(wb_pos(&f, 0), 37536);
}

static void test_hard_limit_and_idle_wb(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.dtc.dirty = 838656;		/* at the limit: hard stop */
	assert_int_equal(wb_pos(&f, 100), 0);
	f.dtc.dirty = 900000;
	assert_int_equal(wb_pos(&f, 100), 0);

	/*
	 * An idle wb (wb_thresh 0) still gets (limit - dirty) / 8 =
	 * 13120 as its threshold: x = (13120 << 16) / 838657 = 1025,
	 * wb_setpoint = 733696 * 1025 >> 16 = 11475,
	 * span = (838656 - 13120 + 204800) * 1025 >> 16 = 16114,
	 * x_intercept = 27589; at wb_dirty 7000 (> 6560 = r, no reserve):
	 * 1024 * 20589 / (16114 | 1 = 16115) = 1308
	 */
	fixture_init(&f);
	f.dtc.wb_thresh = 0;
	f.dtc.wb_bg_thresh = 0;
	assert_int_equal(wb_pos(&f, 7000), 1308);
}

static void test_strictlimit_line(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.bdi.strictlimit = true;
	/* wb_dirty < 8: min(2 * 1024, 2048) */
	assert_int_equal(wb_pos(&f, 7), 2048);
	/* at or over wb_thresh: 0 */
	f.dtc.wb_thresh = 2000;
	f.dtc.wb_bg_thresh = 1000;
	assert_int_equal(wb_pos(&f, 2000), 0);
	/* wb line: setpoint 1500, limit 2000: x = -100 * 1024 / 501 = -204;
	 * 204^2 >> 10 = 40; 40 * -204 = -8160 >> 10 = -8; 1016; min with
	 * the global 1024 */
	assert_int_equal(wb_pos(&f, 1600), 1016);
	/* below the wb setpoint the global line (1024) is the minimum */
	assert_int_equal(wb_pos(&f, 1200), 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_polynom_anchors),
		cmocka_unit_test(test_polynom_asymmetric),
		cmocka_unit_test(test_wb_line),
		cmocka_unit_test(test_wb_reserve_area),
		cmocka_unit_test(test_hard_limit_and_idle_wb),
		cmocka_unit_test(test_strictlimit_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
