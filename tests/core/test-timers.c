/* SPDX-License-Identifier: MIT */
/* test-timers.c - arming, re-arming, cancelling timers, and heap compaction
 * of the entries they leave behind. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/sim.h>
#include "core/sim-private.h"
#include "core/sim.h"

struct rec {
	int id;
	wbsim_time_t when;
};

static GArray *recs;

static void rec_fire(wbsim_sim *sim, void *arg)
{
	struct rec r = { GPOINTER_TO_INT(arg), wbsim_sim_now(sim) };

	g_array_append_val(recs, r);
}

static void test_arm_fire_cancel(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_timer a, b, c;

	recs = g_array_new(FALSE, FALSE, sizeof(struct rec));
	wbsim_timer_init(&a, rec_fire, GINT_TO_POINTER(1));
	wbsim_timer_init(&b, rec_fire, GINT_TO_POINTER(2));
	wbsim_timer_init(&c, rec_fire, GINT_TO_POINTER(3));
	assert_false(wbsim_timer_pending(&a));
	wbsim_timer_arm(sim, &a, 100);
	wbsim_timer_arm(sim, &b, 50);
	wbsim_timer_arm(sim, &c, 70);
	assert_true(wbsim_timer_pending(&a));
	assert_int_equal(wbsim_sim_pending(sim), 3);
	assert_true(wbsim_timer_cancel(sim, &c));
	assert_false(wbsim_timer_cancel(sim, &c));
	assert_false(wbsim_timer_pending(&c));
	assert_int_equal(wbsim_sim_pending(sim), 2);
	/* The cancelled entry is skipped, not counted as an event. */
	assert_int_equal(wbsim_sim_run(sim), 2);
	assert_false(wbsim_timer_pending(&a));
	assert_int_equal(recs->len, 2);
	assert_int_equal(g_array_index(recs, struct rec, 0).id, 2);
	assert_int_equal(g_array_index(recs, struct rec, 1).id, 1);
	assert_int_equal(g_array_index(recs, struct rec, 1).when, 100);
	g_array_free(recs, TRUE);
	wbsim_sim_free(sim);
}

static void test_order_after_rearm(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_timer a, b, c;

	recs = g_array_new(FALSE, FALSE, sizeof(struct rec));
	wbsim_timer_init(&a, rec_fire, GINT_TO_POINTER(1));
	wbsim_timer_init(&b, rec_fire, GINT_TO_POINTER(2));
	wbsim_timer_init(&c, rec_fire, GINT_TO_POINTER(3));
	wbsim_timer_arm(sim, &a, 100);
	wbsim_timer_arm(sim, &b, 50);
	wbsim_timer_arm(sim, &c, 70);
	wbsim_timer_arm(sim, &a, 20);
	wbsim_timer_cancel(sim, &c);
	/* Equal times: a timer re-armed later runs after one armed earlier. */
	wbsim_timer_arm(sim, &c, 50);
	wbsim_sim_run(sim);
	assert_int_equal(recs->len, 3);
	assert_int_equal(g_array_index(recs, struct rec, 0).id, 1);
	assert_int_equal(g_array_index(recs, struct rec, 0).when, 20);
	assert_int_equal(g_array_index(recs, struct rec, 1).id, 2);
	assert_int_equal(g_array_index(recs, struct rec, 1).when, 50);
	assert_int_equal(g_array_index(recs, struct rec, 2).id, 3);
	assert_int_equal(g_array_index(recs, struct rec, 2).when, 50);
	g_array_free(recs, TRUE);
	wbsim_sim_free(sim);
}

/* Re-arming one timer 10^5 times leaves stale entries; compaction must keep
 * the heap small and the timer must still fire once, at its last time. */
static void test_rearm_storm_compacts(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_timer t;

	recs = g_array_new(FALSE, FALSE, sizeof(struct rec));
	wbsim_timer_init(&t, rec_fire, GINT_TO_POINTER(9));
	for (int i = 0; i < 100000; i++)
		wbsim_timer_arm(sim, &t, 1000 + (wbsim_time_t)(i % 977));
	assert_int_equal(wbsim_sim_pending(sim), 1);
	assert_true(sim->queue.len <= 2100);
	wbsim_sim_run(sim);
	assert_int_equal(recs->len, 1);
	assert_int_equal(g_array_index(recs, struct rec, 0).when, 1000 + 99999 % 977);
	assert_int_equal(sim->queue.stale, 0);
	g_array_free(recs, TRUE);
	wbsim_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm_fire_cancel),
		cmocka_unit_test(test_order_after_rearm),
		cmocka_unit_test(test_rearm_storm_compacts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
