/* SPDX-License-Identifier: MIT */
/* test-resources.c - the CPU pool and locks on hand-computed schedules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/sim.h>
#include <wbsim/error.h>
#include "core/sim.h"

/* A task that runs a fixed list of CPU bursts back to back. */
struct burster {
	wbsim_task task;
	wbsim_cpus *cpus;
	const wbsim_time_t *bursts;
	int nr, next;
	wbsim_time_t finished[4];
};

static void burst_done(wbsim_sim *sim, void *arg)
{
	struct burster *b = arg;

	b->finished[b->next - 1] = wbsim_sim_now(sim);
	if (b->next < b->nr) {
		b->next++;
		wbsim_cpus_run(b->cpus, &b->task, b->bursts[b->next - 1], burst_done, b);
	}
}

static void start_burster(wbsim_sim *sim, void *arg)
{
	struct burster *b = arg;

	b->next = 1;
	wbsim_cpus_run(b->cpus, &b->task, b->bursts[0], burst_done, b);
}

/*
 * Two CPUs; at t=0 A, B and C each ask for 100 ns (in that order); A then
 * asks for 50 more. By hand: A and B run 0-100 on CPU 0 and 1; C waits.
 * At 100 A's burst ends first: its end is a scheduling point, but nothing
 * has set need_resched for A (C, a kernel thread, waits beside the jobs'
 * autogroup, whose entity has held the CPU for less than a slice; a new
 * task does not preempt one within its slice, EEVDF's RUN_TO_PARITY), so A
 * goes on there 100-150 without a switch; B's burst ends at the same time
 * and B asks for nothing more: its CPU goes to C (100-200).
 */
static void test_cpu_pool_fifo(void **state)
{
	static const wbsim_time_t a_b[] = { 100, 50 }, b_b[] = { 100 }, c_b[] = { 100 };
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 2, NULL);
	struct burster a = { .cpus = cpus, .bursts = a_b, .nr = 2 };
	struct burster b = { .cpus = cpus, .bursts = b_b, .nr = 1 };
	struct burster c = { .cpus = cpus, .bursts = c_b, .nr = 1 };

	wbsim_task_init(&a.task, "a", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&b.task, "b", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&c.task, "c", WBSIM_TASK_FLUSHER);
	start_burster(sim, &a);
	start_burster(sim, &b);
	start_burster(sim, &c);
	assert_int_equal(wbsim_cpus_busy(cpus), 2);
	assert_int_equal(wbsim_cpus_waiting(cpus), 1);
	wbsim_sim_run(sim);
	assert_int_equal(a.finished[0], 100);
	assert_int_equal(a.finished[1], 150);
	assert_int_equal(b.finished[0], 100);
	assert_int_equal(c.finished[0], 200);
	assert_int_equal(a.task.cpu_ns, 150);
	assert_int_equal(a.task.cpu_wait_ns, 0);
	assert_int_equal(c.task.cpu_wait_ns, 100);
	assert_int_equal(a.task.bursts, 2);
	/* A kept its CPU at 100: no involuntary switch */
	assert_int_equal(a.task.nivcsw, 0);
	assert_int_equal(a.task.nvcsw, 0);
	assert_int_equal(c.task.nivcsw, 0);
	assert_int_equal(wbsim_cpus_busy_ns(cpus), 350);
	assert_int_equal(wbsim_cpus_busy(cpus), 0);
	wbsim_task_clear(&a.task);
	wbsim_task_clear(&b.task);
	wbsim_task_clear(&c.task);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/* One CPU, N tasks each needing 1 ms: the last finishes at N ms and the
 * total wait is 0 + 1 + ... + (N-1) ms. */
static void test_cpu_pool_serialises(void **state)
{
	static const wbsim_time_t one_ms[] = { WBSIM_NSEC_PER_MSEC };
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	struct burster t[8];
	wbsim_time_t wait = 0;

	for (int i = 0; i < 8; i++) {
		t[i] = (struct burster){ .cpus = cpus, .bursts = one_ms, .nr = 1 };
		wbsim_task_init(&t[i].task, "t", WBSIM_TASK_OTHER);
		start_burster(sim, &t[i]);
	}
	wbsim_sim_run(sim);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(t[i].finished[0], (wbsim_time_t)(i + 1) * WBSIM_NSEC_PER_MSEC);
		wait += t[i].task.cpu_wait_ns;
		wbsim_task_clear(&t[i].task);
	}
	assert_int_equal(wait, 28 * WBSIM_NSEC_PER_MSEC);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/* An interrupt for wbsim_cpus_irq() at a given time; @end is when it ends. */
struct irq_at {
	wbsim_cpus *cpus;
	wbsim_task *irq;
	unsigned int cpu;
	wbsim_time_t cost, end;
};

static void fire_irq(wbsim_sim *sim, void *arg)
{
	struct irq_at *i = arg;

	(void)sim;
	i->end = wbsim_cpus_irq(i->cpus, i->cpu, i->irq, i->cost);
}

/*
 * Two CPUs. A runs 0-100 on CPU 0; interrupts on CPU 0 at 30 (20 ns) and 40
 * (10 ns) run 30-50 and 50-60 and stretch A's burst to 130; B asks at 35
 * for 10 ns and runs on CPU 1 untouched (35-45).
 */
static void test_irq_preempts_the_running_burst(void **state)
{
	static const wbsim_time_t a_b[] = { 100 }, b_b[] = { 10 };
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 2, NULL);
	struct burster a = { .cpus = cpus, .bursts = a_b, .nr = 1 };
	struct burster b = { .cpus = cpus, .bursts = b_b, .nr = 1 };
	wbsim_task irq;
	struct irq_at i1 = { cpus, &irq, 0, 20, 0 }, i2 = { cpus, &irq, 0, 10, 0 };

	wbsim_task_init(&a.task, "a", WBSIM_TASK_FLUSHER);
	wbsim_task_init(&b.task, "b", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&irq, "irq", WBSIM_TASK_IRQ);
	start_burster(sim, &a);
	wbsim_sim_schedule_at(sim, 30, fire_irq, &i1);
	wbsim_sim_schedule_at(sim, 35, start_burster, &b);
	wbsim_sim_schedule_at(sim, 40, fire_irq, &i2);
	wbsim_sim_run(sim);
	assert_int_equal(i1.end, 50);
	assert_int_equal(i2.end, 60);
	assert_int_equal(a.finished[0], 130);
	assert_int_equal(a.task.cpu_ns, 100);
	assert_int_equal(a.task.irq_ns, 30);
	assert_int_equal(b.finished[0], 45);
	assert_int_equal(b.task.last_cpu, 1);
	assert_int_equal(b.task.irq_ns, 0);
	assert_int_equal(irq.cpu_ns, 30);
	assert_int_equal(irq.last_cpu, 0);
	/* conservation: the CPUs ran the bursts and the interrupts, once */
	assert_int_equal(wbsim_cpus_busy_ns(cpus), 100 + 10 + 30);
	assert_int_equal(wbsim_cpus_busy(cpus), 0);
	wbsim_task_clear(&a.task);
	wbsim_task_clear(&b.task);
	wbsim_task_clear(&irq);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/*
 * One CPU, idle: interrupts at 0 (50 ns) and 20 (10 ns) hold it until 60;
 * A asks at 10 for 100 ns and waits for the CPU until then (60-160).
 */
static void test_irq_holds_an_idle_cpu(void **state)
{
	static const wbsim_time_t a_b[] = { 100 };
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	struct burster a = { .cpus = cpus, .bursts = a_b, .nr = 1 };
	wbsim_task irq;
	struct irq_at i1 = { cpus, &irq, 0, 50, 0 }, i2 = { cpus, &irq, 0, 10, 0 };

	wbsim_task_init(&a.task, "a", WBSIM_TASK_FLUSHER);
	wbsim_task_init(&irq, "irq", WBSIM_TASK_IRQ);
	wbsim_sim_schedule_at(sim, 0, fire_irq, &i1);
	wbsim_sim_schedule_at(sim, 10, start_burster, &a);
	wbsim_sim_schedule_at(sim, 20, fire_irq, &i2);
	wbsim_sim_run_until(sim, 30);
	assert_int_equal(wbsim_cpus_busy(cpus), 1);
	assert_int_equal(wbsim_cpus_waiting(cpus), 1);
	wbsim_sim_run(sim);
	assert_int_equal(i2.end, 60);
	assert_int_equal(a.finished[0], 160);
	assert_int_equal(a.task.cpu_wait_ns, 50);
	assert_int_equal(a.task.irq_ns, 0);
	assert_int_equal(irq.cpu_ns, 60);
	/* one CPU busy without a gap from 0 to 160 */
	assert_int_equal(wbsim_cpus_busy_ns(cpus), 160);
	assert_int_equal(wbsim_cpus_busy(cpus), 0);
	wbsim_task_clear(&a.task);
	wbsim_task_clear(&irq);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/*
 * One CPU, idle exit latency 25 ns. A runs 0-100 and asks again at once
 * (100-150: its CPU was never idle). B asks at 200, when the CPU has idled
 * since 150: it waits 25 ns and runs 225-265. An interrupt at 300 (10 ns)
 * also waits: 325-335. An interrupt at 230 lands on the busy CPU and
 * stretches B's burst (to 275), with no latency. Time spent waking is no
 * CPU time: the pool was busy 100 + 50 + 40 + 10 + 10 ns.
 */
static void test_idle_exit_latency(void **state)
{
	static const wbsim_time_t a_b[] = { 100, 50 }, b_b[] = { 40 };
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	struct burster a = { .cpus = cpus, .bursts = a_b, .nr = 2 };
	struct burster b = { .cpus = cpus, .bursts = b_b, .nr = 1 };
	wbsim_task irq;
	struct irq_at busy = { cpus, &irq, 0, 10, 0 }, idle = { cpus, &irq, 0, 10, 0 };

	(void)state;
	wbsim_cpus_set_idle_exit_latency(cpus, 25, 0, 0);
	wbsim_task_init(&a.task, "a", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&b.task, "b", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&irq, "irq", WBSIM_TASK_IRQ);
	start_burster(sim, &a);
	wbsim_sim_schedule_at(sim, 200, start_burster, &b);
	wbsim_sim_schedule_at(sim, 230, fire_irq, &busy);
	wbsim_sim_schedule_at(sim, 300, fire_irq, &idle);
	wbsim_sim_run(sim);
	assert_int_equal(a.finished[0], 100);
	assert_int_equal(a.finished[1], 150);
	assert_int_equal(b.finished[0], 275);
	assert_int_equal(b.task.cpu_ns, 40);
	assert_int_equal(busy.end, 240);
	assert_int_equal(idle.end, 335);
	assert_int_equal(wbsim_cpus_busy_ns(cpus), 100 + 50 + 40 + 10 + 10);
	assert_int_equal(wbsim_cpus_busy(cpus), 0);
	wbsim_task_clear(&a.task);
	wbsim_task_clear(&b.task);
	wbsim_task_clear(&irq);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/*
 * One CPU that polls for 50 ns after it goes idle (wake-up within: 5 ns),
 * else 25 ns. A runs 0-100; B asks at 130, 30 ns into the idle period:
 * 135-175. An interrupt at 300 finds it idle for 125 ns: 325-335.
 */
static void test_idle_poll_window(void **state)
{
	static const wbsim_time_t a_b[] = { 100 }, b_b[] = { 40 };
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	struct burster a = { .cpus = cpus, .bursts = a_b, .nr = 1 };
	struct burster b = { .cpus = cpus, .bursts = b_b, .nr = 1 };
	wbsim_task irq;
	struct irq_at late = { cpus, &irq, 0, 10, 0 };

	(void)state;
	wbsim_cpus_set_idle_exit_latency(cpus, 25, 50, 5);
	wbsim_task_init(&a.task, "a", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&b.task, "b", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&irq, "irq", WBSIM_TASK_IRQ);
	start_burster(sim, &a);
	wbsim_sim_schedule_at(sim, 130, start_burster, &b);
	wbsim_sim_schedule_at(sim, 300, fire_irq, &late);
	wbsim_sim_run(sim);
	assert_int_equal(a.finished[0], 100);
	assert_int_equal(b.finished[0], 175);
	assert_int_equal(late.end, 335);
	assert_int_equal(wbsim_cpus_busy_ns(cpus), 100 + 40 + 10);
	wbsim_task_clear(&a.task);
	wbsim_task_clear(&b.task);
	wbsim_task_clear(&irq);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/* One burst of a shared task, asked for at a given time. */
struct wake_at {
	wbsim_cpus *cpus;
	wbsim_task *task;
	wbsim_time_t cost, end;
};

static void wake_done(wbsim_sim *sim, void *arg)
{
	struct wake_at *w = arg;

	w->end = wbsim_sim_now(sim);
}

static void wake_task(wbsim_sim *sim, void *arg)
{
	struct wake_at *w = arg;

	(void)sim;
	wbsim_cpus_run(w->cpus, w->task, w->cost, wake_done, w);
}

/*
 * One CPU polling 50 ns after it goes idle (latency 5 ns, the woken task
 * charged 7 ns), else latency 25 ns and 30 ns charged. S runs 0-10 (its
 * first burst: nothing to charge), sleeps, asks for 10 ns at 30 (idle
 * 20 ns: 35-52, 17 ns of CPU), and at 200 (idle 148 ns: 225-265, 40 ns).
 * A asks at 300 (its first burst, after 35 ns idle: the latency, no
 * charge) and runs 305-405; S asks at 350, waits for the CPU and gets it
 * as A releases it (never idle: 405-415, 10 ns).
 */
static void test_idle_exit_cost(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	wbsim_task s, a;
	struct wake_at s1 = { cpus, &s, 10, 0 }, s2 = { cpus, &s, 10, 0 },
		       s3 = { cpus, &s, 10, 0 }, s4 = { cpus, &s, 10, 0 },
		       a1 = { cpus, &a, 100, 0 };

	(void)state;
	wbsim_cpus_set_idle_exit_latency(cpus, 25, 50, 5);
	wbsim_cpus_set_idle_exit_cost(cpus, 30, 7);
	wbsim_task_init(&s, "s", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&a, "a", WBSIM_TASK_DIRTIER);
	wbsim_sim_schedule_at(sim, 0, wake_task, &s1);
	wbsim_sim_schedule_at(sim, 30, wake_task, &s2);
	wbsim_sim_schedule_at(sim, 200, wake_task, &s3);
	wbsim_sim_schedule_at(sim, 300, wake_task, &a1);
	wbsim_sim_schedule_at(sim, 350, wake_task, &s4);
	wbsim_sim_run(sim);
	assert_int_equal(s1.end, 10);
	assert_int_equal(s2.end, 52);
	assert_int_equal(s3.end, 265);
	assert_int_equal(a1.end, 405);
	assert_int_equal(s4.end, 415);
	assert_int_equal(s.cpu_ns, 10 + 17 + 40 + 10);
	assert_int_equal(s.idle_exit_ns, 7 + 30);
	assert_int_equal(a.cpu_ns, 100);
	assert_int_equal(a.idle_exit_ns, 0);
	assert_int_equal(wbsim_cpus_busy_ns(cpus), 77 + 100);
	wbsim_task_clear(&s);
	wbsim_task_clear(&a);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

static void test_zero_cpus_is_an_error(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	GError *error = NULL;

	assert_null(wbsim_cpus_new(sim, 0, &error));
	assert_non_null(error);
	assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	assert_string_equal(error->message, "a machine needs at least one CPU (got 0)");
	g_error_free(error);
	wbsim_sim_free(sim);
}

/* Lock: T1 takes it at 0 and holds 100 ns; T2 asks at 10, T3 at 20; each
 * holds 100 ns once granted. Grants at 0, 100, 200; waits 90 and 180. */
struct locker {
	wbsim_task task;
	wbsim_lock *lock;
	wbsim_time_t granted, released;
};

static void do_release(wbsim_sim *sim, void *arg)
{
	struct locker *l = arg;

	l->released = wbsim_sim_now(sim);
	wbsim_lock_release(l->lock, &l->task);
}

static void got_lock(wbsim_sim *sim, void *arg)
{
	struct locker *l = arg;

	l->granted = wbsim_sim_now(sim);
	assert_ptr_equal(wbsim_lock_owner(l->lock), &l->task);
	wbsim_sim_schedule_after(sim, 100, do_release, l);
}

static void ask_lock(wbsim_sim *sim, void *arg)
{
	struct locker *l = arg;

	wbsim_lock_acquire(l->lock, &l->task, got_lock, l);
}

static void test_lock_fifo_and_accounting(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_lock lock;
	struct locker t[3];

	wbsim_lock_init(&lock, sim, "ag-0");
	for (int i = 0; i < 3; i++) {
		t[i] = (struct locker){ .lock = &lock };
		wbsim_task_init(&t[i].task, "locker", WBSIM_TASK_FLUSHER);
	}
	wbsim_sim_schedule_at(sim, 0, ask_lock, &t[0]);
	wbsim_sim_schedule_at(sim, 20, ask_lock, &t[2]);
	wbsim_sim_schedule_at(sim, 10, ask_lock, &t[1]);
	wbsim_sim_run(sim);
	assert_int_equal(t[0].granted, 0);
	assert_int_equal(t[1].granted, 100);
	assert_int_equal(t[2].granted, 200);
	assert_int_equal(t[2].released, 300);
	assert_int_equal(t[1].task.lock_wait_ns, 90);
	assert_int_equal(t[2].task.lock_wait_ns, 180);
	assert_int_equal(lock.acquisitions, 3);
	assert_int_equal(lock.contended, 2);
	assert_int_equal(lock.wait_ns, 270);
	assert_int_equal(lock.max_wait_ns, 180);
	assert_int_equal(lock.hold_ns, 300);
	assert_null(wbsim_lock_owner(&lock));
	for (int i = 0; i < 3; i++)
		wbsim_task_clear(&t[i].task);
	wbsim_lock_clear(&lock);
	wbsim_sim_free(sim);
}

/* rw_semaphore: readers R1 (at 0) and R2 (at 10) share it; writer W asks
 * at 20 and waits for both (granted at 110, when R2 releases); reader R3
 * asks at 30, behind the waiting writer (FIFO: no writer starvation), and
 * gets it when W releases at 210. */
struct rw_locker {
	wbsim_task task;
	wbsim_lock *lock;
	gboolean shared;
	wbsim_time_t granted, released;
};

static void rw_release(wbsim_sim *sim, void *arg)
{
	struct rw_locker *l = arg;

	l->released = wbsim_sim_now(sim);
	if (l->shared)
		wbsim_lock_release_shared(l->lock, &l->task);
	else
		wbsim_lock_release(l->lock, &l->task);
}

static void rw_got(wbsim_sim *sim, void *arg)
{
	struct rw_locker *l = arg;

	l->granted = wbsim_sim_now(sim);
	wbsim_sim_schedule_after(sim, 100, rw_release, l);
}

static void rw_ask(wbsim_sim *sim, void *arg)
{
	struct rw_locker *l = arg;

	(void)sim;
	if (l->shared)
		wbsim_lock_acquire_shared(l->lock, &l->task, rw_got, l);
	else
		wbsim_lock_acquire(l->lock, &l->task, rw_got, l);
}

static void test_rwsem_readers_share_writer_waits(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_lock lock;
	struct rw_locker t[4];
	static const gboolean shared[4] = { TRUE, TRUE, FALSE, TRUE };

	(void)state;
	wbsim_lock_init(&lock, sim, "ilock");
	for (int i = 0; i < 4; i++) {
		t[i] = (struct rw_locker){ .lock = &lock, .shared = shared[i] };
		wbsim_task_init(&t[i].task, "rw", WBSIM_TASK_FLUSHER);
		wbsim_sim_schedule_at(sim, 10 * (wbsim_time_t)i, rw_ask, &t[i]);
	}
	wbsim_sim_run(sim);
	assert_int_equal(t[0].granted, 0);
	assert_int_equal(t[1].granted, 10);	/* shared with R1 */
	assert_int_equal(t[2].granted, 110);	/* after the last reader */
	assert_int_equal(t[3].granted, 210);	/* behind the waiting writer */
	assert_int_equal(t[2].task.lock_wait_ns, 90);
	assert_int_equal(t[3].task.lock_wait_ns, 180);
	assert_int_equal(lock.acquisitions, 4);
	assert_int_equal(lock.contended, 2);
	assert_int_equal(lock.wait_ns, 270);
	/* held from 0 to 310 without a gap */
	assert_int_equal(lock.hold_ns, 310);
	assert_null(wbsim_lock_owner(&lock));
	assert_int_equal(lock.readers, 0);
	for (int i = 0; i < 4; i++)
		wbsim_task_clear(&t[i].task);
	wbsim_lock_clear(&lock);
	wbsim_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_pool_fifo),
		cmocka_unit_test(test_cpu_pool_serialises),
		cmocka_unit_test(test_irq_preempts_the_running_burst),
		cmocka_unit_test(test_irq_holds_an_idle_cpu),
		cmocka_unit_test(test_idle_exit_latency),
		cmocka_unit_test(test_idle_poll_window),
		cmocka_unit_test(test_idle_exit_cost),
		cmocka_unit_test(test_zero_cpus_is_an_error),
		cmocka_unit_test(test_lock_fifo_and_accounting),
		cmocka_unit_test(test_rwsem_readers_share_writer_waits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
