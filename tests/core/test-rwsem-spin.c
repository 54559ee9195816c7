/* SPDX-License-Identifier: MIT */
/*
 * test-rwsem-spin.c - a lock that behaves as a kernel rw_semaphore
 * (wbsim_lock_set_rwsem(), the inode's i_rwsem) on hand-computed
 * schedules: a writer spins while the owner runs and takes the lock at the
 * release; one that finds no idle CPU first waits for one; one that cannot
 * spin sleeps, pays the sleep when the lock is handed to it, and its waker
 * pays the wake-up; a task not on a CPU runs before it tries the lock; a
 * woken task does not end a spin, which ends once the spinner's entity has
 * run its slice while a task waits (need_resched()); the first sleeper
 * takes the lock ahead of a spinner
 * once it has waited RWSEM_WAIT_TIMEOUT (4 ms); on a lock readers hold
 * (XFS's ILOCK) a writer spins while the one reader runs, at most the
 * reader spin threshold.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/sim.h>
#include "core/cpus.h"
#include "core/lock.h"
#include "core/sim.h"

#define SLEEP_NS 500
#define WAKE_NS 300

/* A writer: once granted the lock, holds it for a CPU burst of @run ns,
 * then @off ns off the CPU (a throttle pause under the lock) and another
 * burst of @run2 ns, then releases it and runs the wake-up the release
 * returns. */
struct writer {
	wbsim_task task;
	wbsim_cpus *cpus;
	wbsim_lock *lock;
	wbsim_time_t run, off, run2;
	wbsim_time_t granted, released, wake, done;
};

static void writer_done(wbsim_sim *sim, void *arg)
{
	struct writer *w = arg;

	w->done = wbsim_sim_now(sim);
}

static void writer_release(wbsim_sim *sim, void *arg)
{
	struct writer *w = arg;

	w->released = wbsim_sim_now(sim);
	w->wake = wbsim_lock_release_waking(w->lock, &w->task);
	if (w->wake)
		wbsim_cpus_run(w->cpus, &w->task, w->wake, writer_done, w);
	else
		writer_done(sim, w);
}

static void writer_paused(wbsim_sim *sim, void *arg)
{
	struct writer *w = arg;

	if (w->run2)
		wbsim_cpus_run(w->cpus, &w->task, w->run2, writer_release, w);
	else
		writer_release(sim, w);
}

/* The burst under the lock is over: release at once (as a write's
 * inode_unlock() follows its last write) or after the pause. */
static void writer_ran(wbsim_sim *sim, void *arg)
{
	struct writer *w = arg;

	if (w->off)
		wbsim_sim_schedule_after(sim, w->off, writer_paused, w);
	else
		writer_release(sim, w);
}

static void writer_granted(wbsim_sim *sim, void *arg)
{
	struct writer *w = arg;

	w->granted = wbsim_sim_now(sim);
	assert_ptr_equal(wbsim_lock_owner(w->lock), &w->task);
	wbsim_cpus_run(w->cpus, &w->task, w->run, writer_ran, w);
}

static void writer_ask(wbsim_sim *sim, void *arg)
{
	struct writer *w = arg;

	(void)sim;
	wbsim_lock_acquire(w->lock, &w->task, writer_granted, w);
}

struct setup {
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	wbsim_lock lock;
	struct writer w[3];
};

static void setup_init(struct setup *s, unsigned int nr_cpus)
{
	s->sim = wbsim_sim_new(1);
	s->cpus = wbsim_cpus_new(s->sim, nr_cpus, NULL);
	wbsim_lock_init(&s->lock, s->sim, "i_rwsem");
	wbsim_lock_set_rwsem(&s->lock, s->cpus, SLEEP_NS, WAKE_NS);
	for (int i = 0; i < 3; i++) {
		s->w[i] = (struct writer){ .cpus = s->cpus, .lock = &s->lock };
		wbsim_task_init(&s->w[i].task, "writer", WBSIM_TASK_DIRTIER);
	}
}

static void setup_clear(struct setup *s)
{
	assert_null(wbsim_lock_owner(&s->lock));
	for (int i = 0; i < 3; i++)
		wbsim_task_clear(&s->w[i].task);
	wbsim_lock_clear(&s->lock);
	wbsim_cpus_free(s->cpus);
	wbsim_sim_free(s->sim);
}

/*
 * Two CPUs. A takes the lock at 0 and runs 1000 ns with it; B asks at 100,
 * finds A running and a CPU idle, and spins: 900 ns of CPU, bounded by A's
 * hold. At A's release (1000) B takes it without sleeping, so nobody pays
 * a sleep or a wake-up; B runs 1000-2000.
 */
static void test_spinner_burns_cpu_bounded_by_the_hold(void **state)
{
	struct setup s;

	(void)state;
	setup_init(&s, 2);
	s.w[0].run = 1000;
	s.w[1].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, writer_ask, &s.w[0]);
	wbsim_sim_schedule_at(s.sim, 100, writer_ask, &s.w[1]);
	wbsim_sim_run(s.sim);
	assert_int_equal(s.w[0].granted, 0);
	assert_int_equal(s.w[0].released, 1000);
	assert_int_equal(s.w[0].wake, 0);
	assert_int_equal(s.w[1].granted, 1000);
	assert_int_equal(s.w[1].released, 2000);
	/* B's CPU: 900 spinning, 1000 under the lock */
	assert_int_equal(s.w[1].task.cpu_ns, 900 + 1000);
	assert_int_equal(s.w[1].task.lock_wait_ns, 900);
	assert_int_equal(s.lock.spins, 1);
	assert_int_equal(s.lock.sleeps, 0);
	assert_int_equal(s.lock.contended, 1);
	assert_int_equal(wbsim_cpus_busy_ns(s.cpus), 1000 + 900 + 1000);
	/* a spinner keeps its CPU: no voluntary context switch */
	assert_int_equal(s.w[0].task.nvcsw, 0);
	assert_int_equal(s.w[1].task.nvcsw, 0);
	setup_clear(&s);
}

/*
 * One CPU. A takes the lock at 0, runs 1000 ns with it and then pauses
 * 5000 ns holding it. B asks at 100: A runs and no CPU is idle, so B is
 * runnable, not running, and waits for the CPU (100-1000); running at
 * 1000, it finds A off its CPU and sleeps (no CPU while it sleeps). A's
 * release at 6000 wakes it: B's sleep (the slowpath and context switches,
 * 6000-6500) runs first on the one CPU; back on it, B finds the lock free,
 * takes it and goes on there with its hold (6500-7500), ahead of A's
 * wake-up (7500-7800). B waited for the CPU 100-1000, for the lock from
 * its try until it took it (1000-6500).
 */
static void test_sleeper_pays_the_switch_and_waker_the_wakeup(void **state)
{
	struct setup s;

	(void)state;
	setup_init(&s, 1);
	s.w[0].run = 1000;
	s.w[0].off = 5000;
	s.w[1].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, writer_ask, &s.w[0]);
	wbsim_sim_schedule_at(s.sim, 100, writer_ask, &s.w[1]);
	wbsim_sim_run(s.sim);
	assert_int_equal(s.w[0].released, 6000);
	assert_int_equal(s.w[0].wake, WAKE_NS);
	assert_int_equal(s.w[0].task.cpu_ns, 1000 + WAKE_NS);
	assert_int_equal(s.w[0].done, 6000 + SLEEP_NS + 1000 + WAKE_NS);
	/* woken, not handed the lock: B takes it when it runs after its sleep */
	assert_int_equal(s.w[1].granted, 6000 + SLEEP_NS);
	assert_int_equal(s.w[1].task.lock_wait_ns, 6000 + SLEEP_NS - 1000);
	assert_int_equal(s.w[1].task.cpu_ns, SLEEP_NS + 1000);
	assert_int_equal(s.w[1].task.cpu_wait_ns, 900);
	assert_int_equal(s.w[1].released, 6000 + SLEEP_NS + 1000);
	assert_int_equal(s.w[1].wake, 0);
	assert_int_equal(s.lock.spins, 0);
	assert_int_equal(s.lock.sleeps, 1);
	assert_int_equal(s.lock.contended, 1);
	/* each slept once: A in its pause, B on the lock (the time B waited
	 * for the CPU it was runnable: not a voluntary switch) */
	assert_int_equal(s.w[0].task.nvcsw, 1);
	assert_int_equal(s.w[1].task.nvcsw, 1);
	setup_clear(&s);
}

/*
 * One CPU. B asks at 100 while A runs its 1000 ns under the lock and
 * releases it at once: B waits for the CPU and, running at 1000, finds
 * the lock free and takes it (the fast path): no sleep, no wake-up, and
 * no contention: it waited for the CPU (900 ns), never for the lock.
 */
static void test_runnable_writer_takes_a_freed_lock(void **state)
{
	struct setup s;

	(void)state;
	setup_init(&s, 1);
	s.w[0].run = 1000;
	s.w[1].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, writer_ask, &s.w[0]);
	wbsim_sim_schedule_at(s.sim, 100, writer_ask, &s.w[1]);
	wbsim_sim_run(s.sim);
	assert_int_equal(s.w[0].wake, 0);
	assert_int_equal(s.w[1].granted, 1000);
	assert_int_equal(s.w[1].released, 2000);
	assert_int_equal(s.w[1].task.cpu_ns, 1000);
	assert_int_equal(s.w[1].task.cpu_wait_ns, 900);
	assert_int_equal(s.w[1].task.lock_wait_ns, 0);
	assert_int_equal(s.lock.spins + s.lock.sleeps, 0);
	assert_int_equal(s.lock.contended, 0);
	setup_clear(&s);
}

struct hog {
	wbsim_task task;
	wbsim_time_t done;
};

static void hog_done(wbsim_sim *sim, void *arg)
{
	((struct hog *)arg)->done = wbsim_sim_now(sim);
}

static struct setup *need_resched_setup;
static struct hog need_resched_hog;

/* Two CPUs and a third task, @name (a kernel thread), beside the writers */
static void hog_setup_init(struct setup *s, const char *name)
{
	setup_init(s, 2);
	need_resched_setup = s;
	need_resched_hog = (struct hog){ 0 };
	wbsim_task_init(&need_resched_hog.task, name, WBSIM_TASK_OTHER);
}

static void hog_ask(wbsim_sim *sim, void *arg)
{
	(void)sim;
	(void)arg;
	wbsim_cpus_run(need_resched_setup->cpus, &need_resched_hog.task, 500, hog_done,
		       &need_resched_hog);
}

static void hog_slept(wbsim_sim *sim, void *arg)
{
	(void)sim;
	(void)arg;
}

/* The task's first burst, 10 ns; it then sleeps. */
static void hog_first(wbsim_sim *sim, void *arg)
{
	(void)sim;
	(void)arg;
	wbsim_cpus_run(need_resched_setup->cpus, &need_resched_hog.task, 10, hog_slept, NULL);
}

/* B runs 200 ns on its CPU and asks for the lock from there (kept CPU) */
static void b_start(wbsim_sim *sim, void *arg)
{
	struct writer *w = arg;

	(void)sim;
	wbsim_cpus_run_on(w->cpus, &w->task, 200, writer_ask, w);
}

/*
 * Two CPUs. A third task, a kernel thread, runs 0-10 and sleeps. A takes
 * the lock at 20 and runs 1000 ns with it on CPU 0; B runs on CPU 1 from
 * 20 and asks for the lock at 220, still on its CPU; the third task woke
 * at 50 and has waited for a CPU since. A woken task does not preempt one
 * within its slice (RUN_TO_PARITY): B spins on the running A until A's
 * release at 1020, takes the lock there and holds it (1020-2020); the
 * woken task gets the CPU A leaves (1020-1520). Under the old rule (a
 * woken task sets need_resched at once) B slept at 220 and the other task
 * ran 220-720.
 */
static void test_woken_task_waits_for_the_spinner(void **state)
{
	struct setup s;

	(void)state;
	hog_setup_init(&s, "hog");
	s.w[0].run = 1000;
	s.w[1].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, hog_first, NULL);
	wbsim_sim_schedule_at(s.sim, 20, writer_ask, &s.w[0]);
	wbsim_sim_schedule_at(s.sim, 20, b_start, &s.w[1]);
	wbsim_sim_schedule_at(s.sim, 50, hog_ask, NULL);
	wbsim_sim_run(s.sim);
	assert_int_equal(need_resched_hog.done, 1520);
	assert_int_equal(need_resched_hog.task.cpu_wait_ns, 1020 - 50);
	assert_int_equal(s.w[0].released, 1020);
	assert_int_equal(s.w[0].wake, 0);
	assert_int_equal(s.w[1].granted, 1020);
	assert_int_equal(s.lock.spins, 1);
	assert_int_equal(s.lock.sleeps, 0);
	/* B's CPU: its 200, the spin, its hold */
	assert_int_equal(s.w[1].task.cpu_ns, 200 + 800 + 1000);
	wbsim_task_clear(&need_resched_hog.task);
	setup_clear(&s);
}

/*
 * Two CPUs, the autogroup on (the default). A takes the lock at 0 and runs
 * 2 ms with it on CPU 0. A kernel thread runs 1-11 on CPU 1 and sleeps; B,
 * new, has waited since 2 and gets CPU 1 at 11 (the group's run of CPU 1
 * begins). The kernel thread wakes at 100 and waits. B runs 11-211 and
 * asks for the lock on its CPU: A runs, so B spins; the woken thread does
 * not end the spin, the tick does, once the group's entity has held CPU 1
 * a slice (1.5 ms on two CPUs: need_resched at 1,500,011). B then sleeps,
 * the thread runs 500 ns, and A's release at 2 ms wakes B.
 */
static void test_spin_ends_at_the_slice(void **state)
{
	const wbsim_time_t slice = 1500 * 1000;
	struct setup s;

	(void)state;
	hog_setup_init(&s, "kworker");
	s.w[0].run = 2000 * 1000;
	s.w[1].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, writer_ask, &s.w[0]);
	wbsim_sim_schedule_at(s.sim, 1, hog_first, NULL);
	wbsim_sim_schedule_at(s.sim, 2, b_start, &s.w[1]);
	wbsim_sim_schedule_at(s.sim, 100, hog_ask, NULL);
	wbsim_sim_run(s.sim);
	assert_int_equal(s.lock.spins, 1);
	assert_int_equal(s.lock.sleeps, 1);
	assert_int_equal(need_resched_hog.done, 11 + slice + 500);
	assert_int_equal(need_resched_hog.task.nvcsw, 1);
	assert_int_equal(need_resched_hog.task.nivcsw, 0);
	assert_int_equal(s.w[0].released, 2000 * 1000);
	assert_int_equal(s.w[1].granted, 2000 * 1000 + SLEEP_NS);
	/* B's CPU: its 200, the spin, its sleep, its hold */
	assert_int_equal(s.w[1].task.cpu_ns, 200 + (11 + slice - 211) + SLEEP_NS + 1000);
	wbsim_task_clear(&need_resched_hog.task);
	setup_clear(&s);
}

/*
 * Two CPUs. A takes the lock at 0, runs 1000 ns and then holds it 5000 ns
 * off the CPU (a pause under the lock). B spins from 100 until A leaves
 * its CPU at 1000 (900 ns), then sleeps; A's release at 6000 wakes it, and
 * B pays its sleep (6000-6500) before it takes the lock and holds it.
 */
static void test_spinner_sleeps_when_the_owner_leaves_its_cpu(void **state)
{
	struct setup s;

	(void)state;
	setup_init(&s, 2);
	s.w[0].run = 1000;
	s.w[0].off = 5000;
	s.w[1].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, writer_ask, &s.w[0]);
	wbsim_sim_schedule_at(s.sim, 100, writer_ask, &s.w[1]);
	wbsim_sim_run(s.sim);
	assert_int_equal(s.w[0].released, 6000);
	assert_int_equal(s.w[0].wake, WAKE_NS);
	assert_int_equal(s.w[1].granted, 6000 + SLEEP_NS);
	assert_int_equal(s.w[1].task.cpu_ns, 900 + SLEEP_NS + 1000);
	assert_int_equal(s.w[1].task.lock_wait_ns, 6000 + SLEEP_NS - 100);
	assert_int_equal(s.lock.spins, 1);
	assert_int_equal(s.lock.sleeps, 1);
	assert_int_equal(s.lock.contended, 1);
	setup_clear(&s);
}

/*
 * Two CPUs. A takes the lock at 0, runs 1000 ns, pauses 3 ms holding it
 * and runs 2 ms more (until 5.001 ms). B asks at 2000 ns, finds A off its
 * CPU and sleeps. C asks at 3.5 ms, when B has waited less than
 * RWSEM_WAIT_TIMEOUT, and spins on the running A. At A's release B has
 * waited more: the lock goes to B by handoff (its sleep, then its 1 ms
 * hold), not to the spinner; C, whose CPU A's wake-up then takes, sleeps
 * and gets the lock at B's release, after its own sleep.
 */
static void test_handoff_to_the_first_sleeper(void **state)
{
	struct setup s;
	const wbsim_time_t us = WBSIM_NSEC_PER_USEC;

	(void)state;
	setup_init(&s, 2);
	s.w[0].run = 1000;
	s.w[0].off = 3000 * us;
	s.w[0].run2 = 2000 * us;
	s.w[1].run = 1000 * us;
	s.w[2].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, writer_ask, &s.w[0]);
	wbsim_sim_schedule_at(s.sim, 2000, writer_ask, &s.w[1]);
	wbsim_sim_schedule_at(s.sim, 3500 * us, writer_ask, &s.w[2]);
	wbsim_sim_run(s.sim);
	assert_int_equal(s.w[0].released, 1000 + 5000 * us);
	assert_int_equal(s.w[0].wake, WAKE_NS);
	assert_int_equal(s.w[1].granted, s.w[0].released + SLEEP_NS);
	assert_int_equal(s.w[1].released, s.w[1].granted + 1000 * us);
	assert_int_equal(s.w[1].wake, WAKE_NS);
	assert_int_equal(s.w[2].granted, s.w[1].released + SLEEP_NS);
	assert_int_equal(s.lock.spins, 1);
	assert_int_equal(s.lock.sleeps, 2);
	setup_clear(&s);
}

/*
 * Two CPUs. A takes the lock at 0, runs 1000 ns and releases it at 6000
 * after a pause off the CPU. B asks at 2000, finds A off its CPU and
 * sleeps. A's release wakes B without giving it the lock (rwsem_mark_wake:
 * other writers may steal it until B runs): B's sleep runs 6000-6500, A's
 * wake-up 6000-6300 on the other CPU. C asks at 6100, waits for a CPU
 * until A's wake-up ends, and running at 6300 finds the lock free and
 * takes it (no handoff: B has waited far less than RWSEM_WAIT_TIMEOUT); it
 * holds the lock 6300-7300.
 * B, back on a CPU at 6500, finds it stolen and sleeps again, first in the
 * queue; C's release wakes it once more (C pays the wake-up), and B takes
 * the lock after its second sleep (7800) and holds it on (7800-8800).
 */
static void test_woken_writer_finds_the_lock_stolen(void **state)
{
	struct setup s;

	(void)state;
	setup_init(&s, 2);
	s.w[0].run = 1000;
	s.w[0].off = 5000;
	s.w[1].run = 1000;
	s.w[2].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, writer_ask, &s.w[0]);
	wbsim_sim_schedule_at(s.sim, 2000, writer_ask, &s.w[1]);
	wbsim_sim_schedule_at(s.sim, 6100, writer_ask, &s.w[2]);
	wbsim_sim_run(s.sim);
	assert_int_equal(s.w[0].released, 6000);
	assert_int_equal(s.w[0].wake, WAKE_NS);
	assert_int_equal(s.w[2].granted, 6000 + WAKE_NS);
	assert_int_equal(s.w[2].task.cpu_wait_ns, 6000 + WAKE_NS - 6100);
	assert_int_equal(s.w[2].released, 6000 + WAKE_NS + 1000);
	assert_int_equal(s.w[2].wake, WAKE_NS);
	assert_int_equal(s.w[1].granted, s.w[2].released + SLEEP_NS);
	assert_int_equal(s.w[1].released, s.w[1].granted + 1000);
	assert_int_equal(s.w[1].task.cpu_ns, 2 * SLEEP_NS + 1000);
	assert_int_equal(s.w[1].task.lock_wait_ns, s.w[1].granted - 2000);
	assert_int_equal(s.lock.sleeps, 2);
	assert_int_equal(s.lock.spins, 0);
	assert_int_equal(s.lock.contended, 1);
	setup_clear(&s);
}

/*
 * Two CPUs, and a third task D that wants a CPU all along. A holds the
 * lock for 1000 ns from 0 on CPU 0; D runs 0-3000 on CPU 1. B asks at 100
 * with no CPU idle: it waits for one, behind nobody (D holds CPU 1, A CPU
 * 0). At 1000 A's burst ends and A releases at once; the CPU A leaves goes
 * to B, the longest waiter, which finds the lock free and takes it. E,
 * asking at 500, queued behind B for a CPU; at 1000 it still waits: B goes
 * on into its hold (1000-2000) on the CPU it got, without queueing again
 * behind E (who would otherwise find B off its CPU and sleep). E gets that
 * CPU at 2000, when B releases, and takes the free lock.
 */
static void other_done(wbsim_sim *sim, void *arg)
{
	(void)sim;
	(void)arg;
}

static void test_writer_goes_on_on_the_cpu_it_got(void **state)
{
	struct setup s;
	wbsim_task d;
	struct writer e;

	(void)state;
	setup_init(&s, 2);
	wbsim_task_init(&d, "other", WBSIM_TASK_OTHER);
	e = (struct writer){ .cpus = s.cpus, .lock = &s.lock, .run = 1000 };
	wbsim_task_init(&e.task, "writer", WBSIM_TASK_DIRTIER);
	s.w[0].run = 1000;
	s.w[1].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, writer_ask, &s.w[0]);
	wbsim_cpus_run(s.cpus, &d, 3000, other_done, NULL);
	wbsim_sim_schedule_at(s.sim, 100, writer_ask, &s.w[1]);
	wbsim_sim_schedule_at(s.sim, 500, writer_ask, &e);
	wbsim_sim_run(s.sim);
	assert_int_equal(s.w[0].released, 1000);
	assert_int_equal(s.w[1].granted, 1000);
	assert_int_equal(s.w[1].released, 2000);
	assert_int_equal(s.w[1].task.cpu_wait_ns, 900);
	assert_int_equal(e.granted, 2000);
	assert_int_equal(e.released, 3000);
	assert_int_equal(e.task.cpu_wait_ns, 1500);
	/* nobody slept or even found it busy: B and E each tried the lock
	 * once on a CPU, and found it free */
	assert_int_equal(s.lock.sleeps, 0);
	assert_int_equal(s.lock.spins, 0);
	assert_int_equal(s.lock.contended, 0);
	wbsim_task_clear(&e.task);
	wbsim_task_clear(&d);
	setup_clear(&s);
}

/* A reader: takes the lock shared at its start, runs @run ns on a CPU and
 * drops it (XFS's flusher looking a mapping up under the ILOCK). */
struct reader {
	wbsim_task task;
	wbsim_cpus *cpus;
	wbsim_lock *lock;
	wbsim_time_t run, granted, released;
};

static void reader_ran(wbsim_sim *sim, void *arg)
{
	struct reader *r = arg;

	r->released = wbsim_sim_now(sim);
	wbsim_lock_release_shared(r->lock, &r->task);
}

static void reader_granted(wbsim_sim *sim, void *arg)
{
	struct reader *r = arg;

	r->granted = wbsim_sim_now(sim);
	wbsim_cpus_run(r->cpus, &r->task, r->run, reader_ran, r);
}

static void reader_ask(wbsim_sim *sim, void *arg)
{
	struct reader *r = arg;

	(void)sim;
	wbsim_lock_acquire_shared(r->lock, &r->task, reader_granted, r);
}

/*
 * Two CPUs. R takes the lock shared at 0 and runs 1000 ns; W asks for it
 * exclusive at 100, finds the one reader running and a CPU idle, and spins
 * until R's burst ends (900 ns, under the reader spin threshold of
 * (20 + 1) / 2 us); at R's up_read() it takes the lock on its CPU.
 */
static void test_writer_spins_on_the_running_reader(void **state)
{
	struct setup s;
	struct reader r;

	(void)state;
	setup_init(&s, 2);
	r = (struct reader){ .cpus = s.cpus, .lock = &s.lock, .run = 1000 };
	wbsim_task_init(&r.task, "flusher", WBSIM_TASK_FLUSHER);
	s.w[0].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, reader_ask, &r);
	wbsim_sim_schedule_at(s.sim, 100, writer_ask, &s.w[0]);
	wbsim_sim_run(s.sim);
	assert_int_equal(r.released, 1000);
	assert_int_equal(s.w[0].granted, 1000);
	assert_int_equal(s.w[0].task.cpu_ns, 900 + 1000);
	assert_int_equal(s.w[0].task.lock_wait_ns, 900);
	assert_int_equal(s.lock.spins, 1);
	assert_int_equal(s.lock.sleeps, 0);
	assert_int_equal(s.w[0].task.nvcsw, 0);
	wbsim_task_clear(&r.task);
	setup_clear(&s);
}

/*
 * Two CPUs. R holds the lock shared for a 30,000 ns burst; W asks at 100
 * and spins for the reader spin threshold, (20 + 1) / 2 = 10.5 us, then
 * sleeps (the kernel cannot tell how long readers run). R's up_read() at
 * 30,000 wakes it: W pays its sleep and takes the lock at 30,500. Its CPU
 * is the spin, the sleep and its hold.
 */
static void test_writer_spins_on_readers_at_most_the_threshold(void **state)
{
	struct setup s;
	struct reader r;

	(void)state;
	setup_init(&s, 2);
	r = (struct reader){ .cpus = s.cpus, .lock = &s.lock, .run = 30000 };
	wbsim_task_init(&r.task, "flusher", WBSIM_TASK_FLUSHER);
	s.w[0].run = 1000;
	wbsim_sim_schedule_at(s.sim, 0, reader_ask, &r);
	wbsim_sim_schedule_at(s.sim, 100, writer_ask, &s.w[0]);
	wbsim_sim_run(s.sim);
	assert_int_equal(r.released, 30000);
	assert_int_equal(s.w[0].granted, 30000 + SLEEP_NS);
	assert_int_equal(s.w[0].task.cpu_ns, 10500 + SLEEP_NS + 1000);
	assert_int_equal(s.lock.spins, 1);
	assert_int_equal(s.lock.sleeps, 1);
	assert_int_equal(s.w[0].task.nvcsw, 1);
	wbsim_task_clear(&r.task);
	setup_clear(&s);
}

/*
 * Two CPUs, both busy: D runs 0-1000 and E 0-3000, neither near the lock.
 * R asks for it shared at 100 from an event (a flusher woken by I/O), not
 * on a CPU: it takes it only once it runs, at 1000, and holds it for its
 * 1000 ns there. At 500 the lock is free: nobody holds it while waiting
 * for a CPU (a writer then would spin the reader spin threshold on it).
 */
static struct setup *free_check_setup;
static unsigned int readers_at_500;

static void check_readers(wbsim_sim *sim, void *arg)
{
	(void)sim;
	(void)arg;
	readers_at_500 = free_check_setup->lock.readers;
}

static void test_reader_takes_the_lock_on_a_cpu(void **state)
{
	struct setup s;
	struct reader r;
	wbsim_task d, e;

	(void)state;
	setup_init(&s, 2);
	free_check_setup = &s;
	readers_at_500 = 99;
	wbsim_task_init(&d, "d", WBSIM_TASK_OTHER);
	wbsim_task_init(&e, "e", WBSIM_TASK_OTHER);
	r = (struct reader){ .cpus = s.cpus, .lock = &s.lock, .run = 1000 };
	wbsim_task_init(&r.task, "flusher", WBSIM_TASK_FLUSHER);
	wbsim_cpus_run(s.cpus, &d, 1000, other_done, NULL);
	wbsim_cpus_run(s.cpus, &e, 3000, other_done, NULL);
	wbsim_sim_schedule_at(s.sim, 100, reader_ask, &r);
	wbsim_sim_schedule_at(s.sim, 500, check_readers, NULL);
	wbsim_sim_run(s.sim);
	assert_int_equal(readers_at_500, 0);
	assert_int_equal(r.granted, 1000);
	assert_int_equal(r.released, 2000);
	assert_int_equal(r.task.cpu_wait_ns, 900);
	assert_int_equal(r.task.lock_wait_ns, 0);
	assert_int_equal(s.lock.acquisitions, 1);
	wbsim_task_clear(&r.task);
	wbsim_task_clear(&d);
	wbsim_task_clear(&e);
	setup_clear(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spinner_burns_cpu_bounded_by_the_hold),
		cmocka_unit_test(test_woken_task_waits_for_the_spinner),
		cmocka_unit_test(test_spin_ends_at_the_slice),
		cmocka_unit_test(test_sleeper_pays_the_switch_and_waker_the_wakeup),
		cmocka_unit_test(test_runnable_writer_takes_a_freed_lock),
		cmocka_unit_test(test_spinner_sleeps_when_the_owner_leaves_its_cpu),
		cmocka_unit_test(test_handoff_to_the_first_sleeper),
		cmocka_unit_test(test_woken_writer_finds_the_lock_stolen),
		cmocka_unit_test(test_writer_goes_on_on_the_cpu_it_got),
		cmocka_unit_test(test_writer_spins_on_the_running_reader),
		cmocka_unit_test(test_writer_spins_on_readers_at_most_the_threshold),
		cmocka_unit_test(test_reader_takes_the_lock_on_a_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
