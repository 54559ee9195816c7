/* SPDX-License-Identifier: MIT */
/*
 * test-flex-proportions.c - the writeout fraction estimator and the
 * domain period timer (lib/mm/flex-proportions.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mm/writeback-control.h"

#define HZ 1000
#define PERIOD (3 * HZ)

static double share(struct wbsim_wb_domain *dom, struct wbsim_fprop_local *pl)
{
	uint64_t num, den;

	wbsim_fprop_fraction_percpu(&dom->completions, pl, &num, &den);
	return (double)num / (double)den;
}

static void test_first_events(void **state)
{
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local a, b;
	uint64_t num, den;

	(void)state;
	wbsim_wb_domain_init(&dom, 0);
	wbsim_fprop_local_init(&a);
	wbsim_fprop_local_init(&b);
	assert_int_equal(dom.completions.events, 1);	/* E starts at 1 */
	wbsim_fprop_fraction_percpu(&dom.completions, &a, &num, &den);
	assert_int_equal(num, 0);
	assert_int_equal(den, 1);
	/* first completion arms the timer 3 s later */
	assert_true(wbsim_wb_domain_writeout_add(&dom, &a, 1024, 300, 10, HZ));
	assert_int_equal(dom.period_time, 10 + PERIOD);
	assert_false(wbsim_wb_domain_writeout_add(&dom, &b, 1024, 100, 20, HZ));
	wbsim_fprop_fraction_percpu(&dom.completions, &a, &num, &den);
	assert_int_equal(num, 300);
	assert_int_equal(den, 401);
}

static void test_three_to_one(void **state)
{
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local a, b;
	uint64_t now = 0;

	(void)state;
	wbsim_wb_domain_init(&dom, 0);
	wbsim_fprop_local_init(&a);
	wbsim_fprop_local_init(&b);
	/* 20 periods: every 100 ms, A completes 300 pages, B 100 */
	for (int p = 0; p < 20; p++) {
		for (int i = 0; i < 30; i++) {
			now += 100;
			wbsim_wb_domain_writeout_add(&dom, &a, 1024, 300, now, HZ);
			wbsim_wb_domain_writeout_add(&dom, &b, 1024, 100, now, HZ);
			if (now >= dom.period_time)
				assert_true(wbsim_writeout_period(&dom, now, HZ));
		}
	}
	assert_float_equal(share(&dom, &a), 0.75, 0.0075);
	assert_float_equal(share(&dom, &b), 0.25, 0.0025);
	/* first period at 3100, then every 3 s up to 60000: 19 */
	assert_int_equal(dom.completions.period, 19);
}

static void test_aging_and_stop(void **state)
{
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local a, b;
	uint64_t num, den, e, now = 0;
	double before;
	int periods = 0;

	(void)state;
	wbsim_wb_domain_init(&dom, 0);
	wbsim_fprop_local_init(&a);
	wbsim_fprop_local_init(&b);
	wbsim_wb_domain_writeout_add(&dom, &a, 1024, 3000, now, HZ);
	wbsim_wb_domain_writeout_add(&dom, &b, 1024, 1000, now, HZ);
	e = dom.completions.events;
	assert_int_equal(e, 4001);
	before = share(&dom, &a);

	/* each silent period halves E and (lazily) every e_i, so the
	 * counts halve while the fraction of a silent domain stays */
	now = dom.period_time;
	assert_true(wbsim_writeout_period(&dom, now, HZ));
	assert_int_equal(dom.completions.events, 2000);
	wbsim_fprop_fraction_percpu(&dom.completions, &a, &num, &den);
	assert_int_equal(num, 1500);
	assert_int_equal(den, 2000);
	assert_float_equal(share(&dom, &a), before, 0.001);

	/* a period fired 2 periods late ages by 3 at once */
	now = dom.period_time + 2 * PERIOD + 5;
	assert_true(wbsim_writeout_period(&dom, now, HZ));
	assert_int_equal(dom.completions.events, 250);
	/* back on the grid: 6000 + 2 * 3000 + 3000 */
	assert_int_equal(dom.period_time, 5 * PERIOD);
	wbsim_fprop_fraction_percpu(&dom.completions, &a, &num, &den);
	assert_int_equal(num, 187);	/* 1500 >> 3 */

	/* decay until E <= 1: then the timer stops */
	while (wbsim_writeout_period(&dom, dom.period_time, HZ))
		periods++;
	assert_int_equal(periods, 7);	/* 250 -> 125 -> ... -> 1 */
	assert_int_equal(dom.completions.events, 1);
	assert_int_equal(dom.period_time, 0);
	/*
	 * A local count can outlive E by rounding: 187 >> 7 = 1 while E is
	 * 1; the fraction then reads 1/1 (den raised to num), as in the
	 * kernel.
	 */
	wbsim_fprop_fraction_percpu(&dom.completions, &a, &num, &den);
	assert_int_equal(num, 1);
	assert_int_equal(den, 1);

	/* the next completion restarts it 3 s later */
	now = 100000;
	assert_true(wbsim_wb_domain_writeout_add(&dom, &b, 1024, 10, now, HZ));
	assert_int_equal(dom.period_time, now + PERIOD);
	/* B's old count aged away too */
	wbsim_fprop_fraction_percpu(&dom.completions, &b, &num, &den);
	assert_int_equal(num, 10);
	assert_int_equal(den, 11);
}

static void test_idle_wb_share_decays(void **state)
{
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local a, b;
	uint64_t num, den, prev;

	(void)state;
	wbsim_wb_domain_init(&dom, 0);
	wbsim_fprop_local_init(&a);
	wbsim_fprop_local_init(&b);
	wbsim_wb_domain_writeout_add(&dom, &a, 1024, 4096, 0, HZ);
	prev = 4096;
	/* A goes idle, B keeps writing: A's count halves every period */
	for (int p = 0; p < 6; p++) {
		wbsim_writeout_period(&dom, dom.period_time, HZ);
		wbsim_wb_domain_writeout_add(&dom, &b, 1024, 1000,
					     dom.period_time - 1, HZ);
		wbsim_fprop_fraction_percpu(&dom.completions, &a, &num, &den);
		assert_int_equal(num, prev / 2);
		prev = num;
	}
	assert_true(share(&dom, &a) < 0.05);
}

static void test_max_prop_frac(void **state)
{
	struct wbsim_wb_domain dom;
	struct wbsim_fprop_local a, b;
	uint64_t num, den;

	(void)state;
	wbsim_wb_domain_init(&dom, 0);
	wbsim_fprop_local_init(&a);
	wbsim_fprop_local_init(&b);
	wbsim_wb_domain_writeout_add(&dom, &b, 1024, 100, 0, HZ);
	/* A capped at 50 %: tmp = 101 * 512 - 0 = 51712 < 1000 * 512:
	 * n = ceil(51712 / 512) = 101 */
	wbsim_wb_domain_writeout_add(&dom, &a, 512, 1000, 0, HZ);
	wbsim_fprop_fraction_percpu(&dom.completions, &a, &num, &den);
	assert_int_equal(num, 101);
	assert_int_equal(den, 202);
	/* at the cap: tmp = 202 * 512 - 101 * 1024 = 0: adds 0 */
	wbsim_wb_domain_writeout_add(&dom, &a, 512, 1000, 0, HZ);
	assert_int_equal(a.events, 101);
	/* under the cap by a margin: added in full */
	wbsim_wb_domain_writeout_add(&dom, &b, 1024, 1000, 0, HZ);
	wbsim_wb_domain_writeout_add(&dom, &a, 512, 10, 0, HZ);
	assert_int_equal(a.events, 111);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_events),
		cmocka_unit_test(test_three_to_one),
		cmocka_unit_test(test_aging_and_stop),
		cmocka_unit_test(test_idle_wb_share_decays),
		cmocka_unit_test(test_max_prop_frac),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
