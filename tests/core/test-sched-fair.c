/* SPDX-License-Identifier: MIT */
/* test-sched-fair.c - the fair pick of a free CPU's next task: shares of
 * busy tasks, the autogroup, the sleeper's placement (lib/core/sched-fair.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/sim.h>
#include "core/cpus.h"
#include "core/sim.h"

#define US WBSIM_NSEC_PER_USEC
#define MS WBSIM_NSEC_PER_MSEC

/* A task that runs @nr bursts of @burst back to back, the first at @start
 * (and, if @pause, the rest @pause after the first). */
struct spinner {
	wbsim_task task;
	wbsim_cpus *cpus;
	wbsim_time_t burst, pause;
	int nr, done;
	wbsim_time_t finished;
};

static void spin_next(wbsim_sim *sim, void *arg);

static void spin_done(wbsim_sim *sim, void *arg)
{
	struct spinner *s = arg;

	s->done++;
	s->finished = wbsim_sim_now(sim);
	if (s->done >= s->nr)
		return;
	if (s->done == 1 && s->pause)
		wbsim_sim_schedule_after(sim, s->pause, spin_next, s);
	else
		spin_next(sim, s);
}

static void spin_next(wbsim_sim *sim, void *arg)
{
	struct spinner *s = arg;

	(void)sim;
	wbsim_cpus_run(s->cpus, &s->task, s->burst, spin_done, s);
}

static void spinner_init(struct spinner *s, wbsim_cpus *cpus, const char *name,
			 enum wbsim_task_kind kind, wbsim_time_t burst, int nr)
{
	*s = (struct spinner){ .cpus = cpus, .burst = burst, .nr = nr };
	wbsim_task_init(&s->task, name, kind);
}

/*
 * One CPU; three jobs' threads and one kworker each want 1 ms of CPU in
 * 10 us bursts, all from t=0. Entities take turns a base slice at a time
 * (0.75 ms on one CPU): the running one keeps the CPU until its slice is
 * over, then the one that has run least goes. With the autogroup the three
 * threads are one entity beside the kworker, which gets every other slice:
 * the group 0-0.75 ms, the kworker 0.75-1.5, the group 1.5-2.25, the
 * kworker its last 0.25 ms, done at 2.5 ms. Without it the four take turns:
 * the kworker's first slice is the fourth (2.25-3 ms), its last 0.25 ms
 * the last of the run, done at 4 ms. Either way the CPU never idles: the
 * last task ends at 4 ms exactly.
 */
static wbsim_time_t kworker_done_at(gboolean autogroup, wbsim_time_t *last)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	struct spinner t[4];
	wbsim_time_t k;

	wbsim_cpus_set_autogroup(cpus, autogroup);
	for (int i = 0; i < 3; i++)
		spinner_init(&t[i], cpus, "fio", WBSIM_TASK_DIRTIER, 10 * US, 100);
	spinner_init(&t[3], cpus, "kworker", WBSIM_TASK_FLUSHER, 10 * US, 100);
	for (int i = 0; i < 4; i++)
		spin_next(sim, &t[i]);
	wbsim_sim_run(sim);
	*last = 0;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(t[i].done, 100);
		assert_int_equal(t[i].task.cpu_ns, 1 * MS);
		*last = MAX(*last, t[i].finished);
		wbsim_task_clear(&t[i].task);
	}
	k = t[3].finished;
	assert_int_equal(wbsim_cpus_busy_ns(cpus), 4 * MS);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
	return k;
}

static void test_autogroup_shares(void **state)
{
	wbsim_time_t last, k;

	(void)state;
	k = kworker_done_at(TRUE, &last);
	assert_int_equal(last, 4 * MS);
	assert_int_equal(k, 2500 * US);
	k = kworker_done_at(FALSE, &last);
	assert_int_equal(last, 4 * MS);
	assert_int_equal(k, 4 * MS);
}

/*
 * One CPU. A kernel thread A is busy from t=0 (10 ms in 10 us bursts); B
 * runs one burst at t=0, sleeps until 5 ms, then wants 2 ms more. A has
 * had the CPU for more than a slice, so B takes it at A's next burst's
 * end. Placed on waking one base slice (0.75 ms on one CPU) behind the
 * least vruntime (A's, about 5 ms), B runs a slice (5-5.75 ms), then the
 * two take turns a slice each: A 5.75-6.5, B 6.5-7.25, A 7.25-8, B its
 * last 0.5 ms, done at 8.5 ms. Without the placement its 5 ms of credit
 * would let it run alone until 7 ms.
 */
static void test_sleeper_placement(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	struct spinner a, b;

	(void)state;
	spinner_init(&a, cpus, "a", WBSIM_TASK_OTHER, 10 * US, 1000);
	spinner_init(&b, cpus, "b", WBSIM_TASK_OTHER, 10 * US, 201);
	b.pause = 5 * MS - 10 * US;	/* asks again at 5 ms */
	spin_next(sim, &b);
	spin_next(sim, &a);
	wbsim_sim_run(sim);
	assert_int_equal(b.task.cpu_ns, 2 * MS + 10 * US);
	assert_in_range(b.finished, 8500 * US, 8500 * US + 20 * US);
	assert_int_equal(a.finished, 12 * MS + 10 * US);
	assert_int_equal(b.task.nvcsw, 1);
	wbsim_task_clear(&a.task);
	wbsim_task_clear(&b.task);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/*
 * Two CPUs busy with eight jobs' threads (10 us bursts, in step); a
 * kworker asks for 5 us at t=0 and again 1 ms after its first burst: it
 * runs ahead of the six threads waiting (first come, first served would
 * make it wait three rounds), but only once the autogroup's entity has
 * held a CPU for a slice (1.5 ms on two CPUs, RUN_TO_PARITY): at the first
 * burst's end after 1.5 ms. Its second request finds the other CPU's
 * group past its slice and waits one burst at most.
 */
static void test_kworker_waits_for_the_slice(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 2, NULL);
	struct spinner t[8], k;

	(void)state;
	for (int i = 0; i < 8; i++) {
		spinner_init(&t[i], cpus, "fio", WBSIM_TASK_DIRTIER, 10 * US, 300);
		spin_next(sim, &t[i]);
	}
	spinner_init(&k, cpus, "kworker", WBSIM_TASK_OTHER, 5 * US, 2);
	k.pause = 1 * MS;	/* its first burst at 0 queues; the second at ~1 ms */
	spin_next(sim, &k);
	wbsim_sim_run(sim);
	assert_int_equal(k.done, 2);
	assert_in_range(k.task.cpu_wait_ns, 1500 * US, 1500 * US + 2 * 10 * US);
	assert_int_equal(k.task.nivcsw, 0);
	for (int i = 0; i < 8; i++)
		wbsim_task_clear(&t[i].task);
	wbsim_task_clear(&k.task);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/*
 * cond_resched() inside kernel code: one CPU, the autogroup off. A runs
 * eight 100 us bursts back to back from 0, each followed by a scheduling
 * point whose work goes on after it; B asks for 300 us at 0 and waits. A's
 * slice (0.75 ms on one CPU) is over at 750 us: at the point after its
 * eighth burst (800 us) need_resched is set and B has run less, so A
 * leaves its CPU there, runnable; B runs 800-1100 us and A takes the rest
 * up at 1100 us. At the seven points before, A kept its CPU and went on at
 * once.
 */
struct resched_point {
	wbsim_task task;
	wbsim_cpus *cpus;
	int bursts, left_at;
	wbsim_time_t resumed;
};

static void point_burst(wbsim_sim *sim, void *arg);

static void point_resumed(wbsim_sim *sim, void *arg)
{
	struct resched_point *p = arg;

	p->resumed = wbsim_sim_now(sim);
	if (p->bursts < 8)
		point_burst(sim, p);
}

static void point_reached(wbsim_sim *sim, void *arg)
{
	struct resched_point *p = arg;

	if (wbsim_cpus_cond_resched(p->cpus, &p->task, point_resumed, p)) {
		p->left_at = p->bursts;
		return;
	}
	point_resumed(sim, p);
}

static void point_burst(wbsim_sim *sim, void *arg)
{
	struct resched_point *p = arg;

	(void)sim;
	p->bursts++;
	wbsim_cpus_run(p->cpus, &p->task, 100 * US, point_reached, p);
}

static void test_cond_resched_after_the_slice(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	struct resched_point a = { .cpus = cpus };
	struct spinner b;

	(void)state;
	wbsim_cpus_set_autogroup(cpus, FALSE);
	wbsim_task_init(&a.task, "a", WBSIM_TASK_OTHER);
	spinner_init(&b, cpus, "b", WBSIM_TASK_OTHER, 300 * US, 1);
	point_burst(sim, &a);
	spin_next(sim, &b);
	wbsim_sim_run(sim);
	assert_int_equal(a.left_at, 8);
	assert_int_equal(b.finished, 1100 * US);
	assert_int_equal(b.task.cpu_wait_ns, 800 * US);
	assert_int_equal(a.resumed, 1100 * US);
	assert_int_equal(a.task.cpu_ns, 800 * US);
	assert_int_equal(a.task.cpu_wait_ns, 300 * US);
	assert_int_equal(a.task.nivcsw, 1);
	assert_int_equal(a.task.nvcsw, 0);
	wbsim_task_clear(&a.task);
	wbsim_task_clear(&b.task);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_autogroup_shares),
		cmocka_unit_test(test_sleeper_placement),
		cmocka_unit_test(test_kworker_waits_for_the_slice),
		cmocka_unit_test(test_cond_resched_after_the_slice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
