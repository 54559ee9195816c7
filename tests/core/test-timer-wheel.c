/* SPDX-License-Identifier: MIT */
/*
 * test-timer-wheel.c - when the kernel's timer wheel fires a timer
 * (lib/core/timer-wheel.c): exact jiffies for each level's rounding, the
 * flusher's 5 s period at HZ=250 and HZ=1000, expired timers and the
 * wheel's longest timeout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "core/timer-wheel.h"

/* level 0 (under 63 jiffies away): a jiffy past the expiry */
static void test_level0(void **state)
{
	(void)state;
	assert_int_equal(wbsim_timer_wheel_expiry(1000, 1000, 250), 1001);
	assert_int_equal(wbsim_timer_wheel_expiry(1000, 1010, 250), 1011);
	assert_int_equal(wbsim_timer_wheel_expiry(1000, 1062, 250), 1063);
}

/* level 1 (63..503 away): 8-jiffy buckets, rounded up past the expiry */
static void test_level1(void **state)
{
	(void)state;
	assert_int_equal(wbsim_timer_wheel_expiry(1000, 1063, 250), 1064);
	assert_int_equal(wbsim_timer_wheel_expiry(1000, 1064, 250), 1072);
	assert_int_equal(wbsim_timer_wheel_expiry(1000, 1100, 250), 1104);
}

/* the flusher's periodic wake-up, 5 s: 1,250 jiffies at HZ=250 (level 2,
 * 64-jiffy buckets) and 5,000 at HZ=1000 (level 3, 512); from a bucket's
 * edge the next pass comes 5.12 s on, the lab's period */
static void test_five_seconds(void **state)
{
	(void)state;
	assert_int_equal(wbsim_timer_wheel_expiry(1280, 1280 + 1250, 250), 2560);
	assert_int_equal(wbsim_timer_wheel_expiry(2560, 2560 + 1250, 250), 3840);
	assert_int_equal(wbsim_timer_wheel_expiry(1300, 1300 + 1250, 250), 2560);
	assert_int_equal(wbsim_timer_wheel_expiry(5120, 5120 + 5000, 1000), 10240);
	/* never early, never a whole bucket late */
	for (uint64_t clk = 0; clk < 200; clk++) {
		uint64_t fire = wbsim_timer_wheel_expiry(clk, clk + 1250, 250);

		assert_true(fire > clk + 1250 && fire <= clk + 1250 + 64);
		assert_int_equal(fire % 64, 0);
	}
}

/* an expired timer runs at the next tick; a timeout beyond the last
 * level is cut to the wheel's longest (HZ=250: 9 levels, cut-off 63 << 24
 * jiffies, longest that less 2^24; HZ=100: 8 levels, 63 << 21) */
static void test_expired_and_cutoff(void **state)
{
	const uint64_t cut9 = 63ull << 24, max9 = cut9 - (1ull << 24);
	const uint64_t cut8 = 63ull << 21, max8 = cut8 - (1ull << 21);

	(void)state;
	assert_int_equal(wbsim_timer_wheel_expiry(1000, 900, 250), 1000);
	assert_int_equal(wbsim_timer_wheel_expiry(0, 10 * cut9, 250), ((max9 >> 24) + 1) << 24);
	assert_int_equal(wbsim_timer_wheel_expiry(0, 10 * cut8, 100), ((max8 >> 21) + 1) << 21);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level0),
		cmocka_unit_test(test_level1),
		cmocka_unit_test(test_five_seconds),
		cmocka_unit_test(test_expired_and_cutoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
