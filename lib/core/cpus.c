/* SPDX-License-Identifier: MIT */
/*
 * cpus.c - a pool of identical CPUs shared by every task of the simulated
 * machine.
 *
 * A task asks for a burst of CPU time; it runs on a free CPU for that long
 * without preemption and is resumed through its callback. When every CPU is
 * busy the task waits; a CPU that comes free runs the waiting task the fair
 * class would pick (lib/core/sched-fair.c: the one that has run least, the
 * jobs' tasks taken together as their session's autogroup). A burst's end
 * is a scheduling point (cond_resched(), a return to user space: the lab
 * kernel is built PREEMPT_NONE, so kernel code is never preempted between
 * them): the task goes on there unless the scheduler has set need_resched
 * for it (wbsim_cpus_resched_at(): its slice is over while a task waits)
 * and a waiting task goes first. This is the mechanism that makes one
 * flusher thread a bottleneck on a fast device and that makes many
 * dirtiers compete with the flushers for the machine.
 * wbsim_cpus_cond_resched() is such a point inside kernel code that goes
 * on after it (a write's copy loop under i_rwsem): a task that left its
 * CPU there takes the rest up when it runs again, holding what it held.
 *
 * Hard interrupts are the one preemption: wbsim_cpus_irq() runs interrupt
 * work on a given CPU at once, stretching the burst of the task that runs
 * there (the kernel's interrupt entry saves the task's state and the task
 * resumes when the handler returns), or holding the CPU if it was idle.
 * A burst run with wbsim_cpus_run_on() keeps its CPU through its
 * callback: a burst the callback asks for at once starts there, ahead of
 * the waiting tasks, as kernel code goes on without a scheduling point
 * (a writer that spun on a lock owner goes on into its critical section).
 * A CPU that was idle does not run what wakes it at once: a task started
 * there, or an interrupt taken there, first waits the machine's idle exit
 * latency (the wake-up IPI and the exit from idle: on a virtual machine the
 * halted vCPU's trip through the hypervisor). An idle CPU first polls for
 * a while (the hypervisor's halt polling, KVM's halt_poll_ns; cpuidle's
 * haltpoll in a guest): woken within that window it returns sooner. A CPU
 * released and taken again at the same instant (a task going on, or
 * handing over to a waiter) was never idle. Two figures, not the whole
 * curve: deeper sleeps after tens of milliseconds are left out.
 * Each task counts its voluntary context switches (wbsim_task.nvcsw): a
 * burst asked for later than the task's last burst ended follows a sleep;
 * and its involuntary ones (nivcsw): a burst asked for at once by a task
 * whose CPU went to a waiting task at its last burst's end.
 * Left out: preemption within a burst (none under PREEMPT_NONE but at an
 * interrupt's return to user space), the tick's 1/HZ granularity (need_resched
 * is set when the slice ends, not at the next tick after it), per-CPU run
 * queues and migration, SMT (sched-fair.c says more).
 */
#include <string.h>

#include <wbsim/error.h>
#include "core/arg-check.h"
#include "core/cpus.h"
#include "core/sched-fair.h"
#include "core/sim-private.h"
#include "core/sim.h"

/* One CPU's state as interrupts see it. */
struct cpu_state {
	wbsim_cpus *cpus;
	unsigned int nr;
	wbsim_task *running;		/* the task whose burst runs here */
	wbsim_time_t runs_until;		/* when that burst ends, interrupts included */
	wbsim_time_t irq_end;		/* the interrupts queued here end then */
	gboolean irq_held;		/* idle when they came: kept from tasks */
	wbsim_task *kept;		/* a wbsim_cpus_run_on() callback runs */
	wbsim_time_t idle_since;	/* on the free stack since */
	/* since then the CPU has run the autogroup's tasks back to back (its
	 * entity at the top level keeps the CPU); WBSIM_TIME_NEVER: it runs
	 * none now */
	wbsim_time_t group_since;
};

struct wbsim_cpus {
	wbsim_sim *sim;
	unsigned int nr_cpus;
	unsigned int busy;
	wbsim_time_t busy_ns;
	struct wbsim_sched sched;	/* the tasks waiting for a CPU */
	unsigned int *free_cpus;	/* stack of idle CPU numbers */
	unsigned int nr_free;
	struct cpu_state *cpu;
	/* CPU speed in % of the host the cost table was measured on */
	unsigned int speed_pct;
	wbsim_time_t idle_exit_ns;	/* [machine] idle_exit_latency */
	wbsim_time_t idle_poll_window_ns;	/* [machine] idle_poll_window */
	wbsim_time_t idle_poll_exit_ns;	/* [machine] idle_poll_latency */
	wbsim_time_t idle_wake_ns;	/* [machine] idle_wake_cost */
	wbsim_time_t idle_exit_cost_ns;	/* [machine] idle_exit_cost */
	wbsim_time_t idle_poll_cost_ns;	/* [machine] idle_poll_cost */
};

void wbsim_task_init(wbsim_task *task, const char *name, enum wbsim_task_kind kind)
{
	*task = (wbsim_task){ 0 };
	task->name = g_strdup(name);
	task->kind = kind;
	task->cpu = -1;
}

void wbsim_task_clear(wbsim_task *task)
{
	g_clear_pointer(&task->name, g_free);
}

wbsim_cpus *wbsim_cpus_new(wbsim_sim *sim, unsigned int nr_cpus, GError **error)
{
	wbsim_cpus *cpus;

	wbsim_check_arg(sim != NULL, NULL, error);
	if (nr_cpus == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "a machine needs at least one CPU (got 0)");
		return NULL;
	}
	cpus = g_new0(wbsim_cpus, 1);
	cpus->sim = sim;
	cpus->nr_cpus = nr_cpus;
	cpus->free_cpus = g_new(unsigned int, nr_cpus);
	/* Lowest-numbered CPU on top of the stack. */
	for (unsigned int i = 0; i < nr_cpus; i++)
		cpus->free_cpus[i] = nr_cpus - 1 - i;
	cpus->nr_free = nr_cpus;
	cpus->cpu = g_new0(struct cpu_state, nr_cpus);
	for (unsigned int i = 0; i < nr_cpus; i++) {
		cpus->cpu[i].cpus = cpus;
		cpus->cpu[i].nr = i;
		cpus->cpu[i].group_since = WBSIM_TIME_NEVER;
	}
	cpus->speed_pct = 100;
	wbsim_sched_init(&cpus->sched, nr_cpus);
	return cpus;
}

void wbsim_cpus_set_speed(wbsim_cpus *cpus, unsigned int speed_pct)
{
	g_return_if_fail(cpus != NULL && speed_pct > 0);
	cpus->speed_pct = speed_pct;
}

void wbsim_cpus_set_autogroup(wbsim_cpus *cpus, gboolean on)
{
	g_return_if_fail(cpus != NULL);
	wbsim_sched_set_autogroup(&cpus->sched, on);
}

void wbsim_cpus_set_idle_exit_latency(wbsim_cpus *cpus, wbsim_time_t exit_ns,
				      wbsim_time_t poll_window_ns, wbsim_time_t poll_exit_ns)
{
	g_return_if_fail(cpus != NULL);
	cpus->idle_exit_ns = exit_ns;
	cpus->idle_poll_window_ns = poll_window_ns;
	cpus->idle_poll_exit_ns = poll_exit_ns;
}

void wbsim_cpus_set_idle_wake_cost(wbsim_cpus *cpus, wbsim_time_t ns)
{
	g_return_if_fail(cpus != NULL);
	cpus->idle_wake_ns = ns;
}

void wbsim_cpus_set_idle_exit_cost(wbsim_cpus *cpus, wbsim_time_t exit_ns,
				   wbsim_time_t poll_ns)
{
	g_return_if_fail(cpus != NULL);
	cpus->idle_exit_cost_ns = exit_ns;
	cpus->idle_poll_cost_ns = poll_ns;
}

/* How CPU @c idles when something wakes it: not at all (released just
 * now), polling (within the poll window), or past the window. */
enum idle_depth { IDLE_NONE, IDLE_POLLING, IDLE_HALTED };

static enum idle_depth idle_depth(const wbsim_cpus *cpus, const struct cpu_state *c)
{
	wbsim_time_t idle = cpus->sim->now - c->idle_since;

	if (!idle)
		return IDLE_NONE;
	return idle < cpus->idle_poll_window_ns ? IDLE_POLLING : IDLE_HALTED;
}

/* What a wake-up of CPU @c waits before the CPU runs it: nothing if it was
 * released just now, the polling latency within the poll window, else the
 * idle exit latency. */
static wbsim_time_t idle_exit(const wbsim_cpus *cpus, const struct cpu_state *c)
{
	const wbsim_time_t ns[] = { 0, cpus->idle_poll_exit_ns, cpus->idle_exit_ns };

	return ns[idle_depth(cpus, c)];
}

/* The woken task's CPU for that exit, by the same rule. */
static wbsim_time_t idle_exit_cost(const wbsim_cpus *cpus, const struct cpu_state *c)
{
	const wbsim_time_t ns[] = { 0, cpus->idle_poll_cost_ns, cpus->idle_exit_cost_ns };

	return ns[idle_depth(cpus, c)];
}

void wbsim_cpus_free(wbsim_cpus *cpus)
{
	if (!cpus)
		return;
	g_free(cpus->free_cpus);
	g_free(cpus->cpu);
	g_free(cpus);
}

static void burst_end(wbsim_sim *sim, void *arg);

static void start_burst(wbsim_cpus *cpus, wbsim_task *task)
{
	struct cpu_state *c;
	wbsim_time_t wake;

	task->cpu = (int)cpus->free_cpus[--cpus->nr_free];
	c = &cpus->cpu[task->cpu];
	wake = idle_exit(cpus, c);
	if (task->woken) {
		/* a task woken onto an idle CPU pays part of its exit from
		 * idle in its own time (the lab's schedstat and
		 * bench-cacheline's wakeup_wakee_ns count it) */
		wbsim_time_t extra = idle_exit_cost(cpus, c);

		task->burst_ns += extra;
		task->idle_exit_ns += extra;
	}
	task->woken = FALSE;
	cpus->busy++;
	task->last_cpu = (unsigned int)task->cpu;
	task->oncpu_since = cpus->sim->now + wake;
	if (!wbsim_sched_in_group(&cpus->sched, task))
		c->group_since = WBSIM_TIME_NEVER;
	else if (c->group_since == WBSIM_TIME_NEVER)
		c->group_since = task->oncpu_since;
	task->preempted_ns = 0;
	wbsim_sched_set_next(&cpus->sched, task);
	c->running = task;
	c->runs_until = cpus->sim->now + wake + task->burst_ns;
	wbsim_sim_schedule_after(cpus->sim, wake + task->burst_ns, burst_end, task);
}

/* The task goes on on the CPU it kept (task->cpu). */
static void continue_burst(wbsim_cpus *cpus, wbsim_task *task)
{
	struct cpu_state *c = &cpus->cpu[task->cpu];

	c->kept = NULL;
	task->cpu_kept = FALSE;
	/* interrupts that came meanwhile stretch the burst */
	task->preempted_ns = c->irq_end > cpus->sim->now ? c->irq_end - cpus->sim->now : 0;
	task->irq_ns += task->preempted_ns;
	wbsim_sched_set_next(&cpus->sched, task);
	c->running = task;
	c->runs_until = cpus->sim->now + task->preempted_ns + task->burst_ns;
	wbsim_sim_schedule_after(cpus->sim, task->burst_ns, burst_end, task);
}

/* A CPU became free: to the waiter the scheduler picks, else onto the
 * free stack. */
static void cpu_release(wbsim_cpus *cpus, unsigned int nr)
{
	wbsim_task *next;

	cpus->busy--;
	cpus->free_cpus[cpus->nr_free++] = nr;
	cpus->cpu[nr].idle_since = cpus->sim->now;
	next = wbsim_sched_pick_next(&cpus->sched);
	if (!next) {
		cpus->cpu[nr].group_since = WBSIM_TIME_NEVER;
		return;
	}
	next->cpu_wait_ns += cpus->sim->now - next->wait_since;
	start_burst(cpus, next);
}

gboolean wbsim_cpus_need_resched(const wbsim_cpus *cpus, const wbsim_task *task)
{
	return cpus->sim->now >= wbsim_cpus_resched_at(cpus, task);
}

static void burst_end(wbsim_sim *sim, void *arg)
{
	wbsim_task *task = arg;
	wbsim_cpus *cpus = task->on_pool;

	/* interrupts ran on this CPU meanwhile: the burst ends that much later */
	if (task->preempted_ns) {
		wbsim_time_t t = task->preempted_ns;

		task->preempted_ns = 0;
		wbsim_sim_schedule_after(sim, t, burst_end, task);
		return;
	}
	cpus->cpu[task->cpu].running = NULL;
	task->cpu_ns += task->burst_ns;
	task->bursts++;
	task->burst_end_ns = sim->now;
	cpus->busy_ns += task->burst_ns;
	task->on_pool = NULL;
	wbsim_sched_put_prev(&cpus->sched, task, task->burst_ns);
	/* the task goes on here if it asked to (a spinner), or unless the
	 * scheduler has set need_resched for it and a waiting task goes first
	 * (it had run less): the burst's end is a scheduling point, the
	 * kernel's cond_resched() or return to user space */
	if (task->keep_cpu || !wbsim_cpus_need_resched(cpus, task) ||
	    !wbsim_sched_waiter_first(&cpus->sched, task)) {
		/* the callback goes on here; the CPU is released if it asks
		 * for no burst at once */
		unsigned int nr = (unsigned int)task->cpu;

		task->keep_cpu = FALSE;
		cpus->cpu[nr].kept = task;
		task->cpu_kept = TRUE;
		task->done_fn(sim, task->done_arg);
		if (cpus->cpu[nr].kept == task) {
			cpus->cpu[nr].kept = NULL;
			task->cpu_kept = FALSE;
			if (task->cpu == (int)nr)
				task->cpu = -1;
			cpu_release(cpus, nr);
		}
		return;
	}
	/* Hand the CPU to the waiter that goes first before resuming this
	 * task, which then queues if it asks again. */
	cpu_release(cpus, (unsigned int)task->cpu);
	task->switched_out = TRUE;
	task->cpu = -1;
	task->done_fn(sim, task->done_arg);
}

/* The interrupts that held an idle CPU are done: give it back. */
static void irq_release(wbsim_sim *sim, void *arg)
{
	struct cpu_state *c = arg;

	if (!c->irq_held || c->irq_end > sim->now)
		return;		/* more interrupts came: a later event ends them */
	c->irq_held = FALSE;
	cpu_release(c->cpus, c->nr);
}

wbsim_time_t wbsim_cpus_irq(wbsim_cpus *cpus, unsigned int cpu, wbsim_task *irq,
			    wbsim_time_t cost)
{
	struct cpu_state *c;
	wbsim_time_t now, t;

	g_return_val_if_fail(cpus != NULL && irq != NULL && cpu < cpus->nr_cpus, 0);
	c = &cpus->cpu[cpu];
	now = cpus->sim->now;
	t = cpus->speed_pct == 100 ? cost : cost * 100 / cpus->speed_pct;
	/* an idle CPU takes the interrupt after its exit from idle */
	if (!c->running && !c->kept && !c->irq_held)
		c->irq_end = now + idle_exit(cpus, c) + t;
	else
		c->irq_end = MAX(now, c->irq_end) + t;
	irq->cpu_ns += t;
	irq->bursts++;
	irq->burst_end_ns = c->irq_end;
	irq->last_cpu = cpu;
	cpus->busy_ns += t;
	if (c->running || c->kept) {
		if (!c->running)
			return c->irq_end;	/* added to the kept burst */
		c->runs_until += t;
		c->running->preempted_ns += t;
		c->running->irq_ns += t;
		return c->irq_end;
	}
	if (!c->irq_held) {
		/* take the idle CPU off the free stack */
		for (unsigned int i = 0; i < cpus->nr_free; i++) {
			if (cpus->free_cpus[i] == cpu) {
				memmove(&cpus->free_cpus[i], &cpus->free_cpus[i + 1],
					(cpus->nr_free - i - 1) * sizeof(cpus->free_cpus[0]));
				break;
			}
		}
		cpus->nr_free--;
		cpus->busy++;
		c->irq_held = TRUE;
	}
	wbsim_sim_schedule_at(cpus->sim, c->irq_end, irq_release, c);
	return c->irq_end;
}

void wbsim_cpus_run(wbsim_cpus *cpus, wbsim_task *task, wbsim_time_t cost,
		    wbsim_event_fn done, void *arg)
{
	/* a task that asks for a CPU later than its last burst ended slept in
	 * between: schedule() from a task that is not runnable, a voluntary
	 * context switch (a task that waits for a CPU it asked for at once was
	 * runnable all along) */
	gboolean slept;

	g_return_if_fail(task->on_pool == NULL);
	slept = task->bursts && cpus->sim->now > task->burst_end_ns;
	if (slept)
		task->nvcsw++;
	else if (task->switched_out)
		task->nivcsw++;	/* runnable, it lost its CPU to a waiter */
	task->switched_out = FALSE;
	task->woken = slept;
	wbsim_sched_wakeup(&cpus->sched, task, slept);
	task->on_pool = cpus;
	/* every cost of the table is the lab host's: a faster or slower
	 * machine runs the same work in proportion */
	task->burst_ns = cpus->speed_pct == 100 ? cost : cost * 100 / cpus->speed_pct;
	task->done_fn = done;
	task->done_arg = arg;
	if (task->cpu >= 0 && cpus->cpu[task->cpu].kept == task) {
		continue_burst(cpus, task);
		return;
	}
	if (cpus->nr_free > 0) {
		start_burst(cpus, task);
		return;
	}
	task->wait_since = cpus->sim->now;
	wbsim_sched_enqueue(&cpus->sched, task);
}

wbsim_time_t wbsim_cpus_running_until(const wbsim_cpus *cpus, const wbsim_task *task)
{
	g_return_val_if_fail(cpus != NULL && task != NULL, 0);
	if (task->on_pool != cpus || task->cpu < 0)
		return 0;
	return cpus->cpu[task->cpu].runs_until;
}

void wbsim_cpus_run_on(wbsim_cpus *cpus, wbsim_task *task, wbsim_time_t cost,
		       wbsim_event_fn done, void *arg)
{
	wbsim_cpus_run(cpus, task, cost, done, arg);
	task->keep_cpu = TRUE;
}

gboolean wbsim_cpus_cond_resched(wbsim_cpus *cpus, wbsim_task *task, wbsim_event_fn done,
				 void *arg)
{
	g_return_val_if_fail(cpus != NULL && task != NULL, FALSE);
	if (!task->switched_out || task->on_pool || task->cpu >= 0)
		return FALSE;
	wbsim_cpus_run(cpus, task, 0, done, arg);
	return TRUE;
}

gboolean wbsim_cpus_kept(const wbsim_cpus *cpus, const wbsim_task *task)
{
	return task->cpu >= 0 && cpus->cpu[task->cpu].kept == task;
}

unsigned int wbsim_cpus_idle(const wbsim_cpus *cpus)
{
	return cpus->nr_free;
}

gboolean wbsim_cpus_wake_remote(const wbsim_cpus *cpus, const wbsim_task *waker,
				wbsim_time_t *cost)
{
	/* a waker between two bursts has left its CPU to the free ones */
	gboolean on_cpu = wbsim_cpus_kept(cpus, waker) || wbsim_cpus_running_until(cpus, waker);
	gboolean remote = cpus->nr_free > (on_cpu ? 0u : 1u);

	*cost = remote ? cpus->idle_wake_ns : 0;
	return remote;
}

unsigned int wbsim_cpus_count(const wbsim_cpus *cpus)
{
	return cpus->nr_cpus;
}

unsigned int wbsim_cpus_busy(const wbsim_cpus *cpus)
{
	return cpus->busy;
}

unsigned int wbsim_cpus_waiting(const wbsim_cpus *cpus)
{
	return cpus->sched.nr_waiting;
}

/*
 * need_resched, set by the tick once an entity has run its slice (EEVDF's
 * deadline, sysctl_sched_base_slice as scaled) since it got the CPU while
 * another of its level waits: the task itself, or, for a task of the
 * autogroup with a kernel thread waiting, the group's entity, which has
 * held the CPU since the CPU's run of the group's tasks began. Not by a
 * wake-up: a task that wakes, or a new one, does not preempt a running
 * task within its slice (RUN_TO_PARITY, on by default; every task here has
 * the same slice, so PREEMPT_SHORT never applies), and one that lost its
 * CPU at a burst's end and waits, still runnable, sets nothing either.
 * Preempting for every woken task switched E8's writers about once in two
 * writes where the lab kernel's switch once in 50 to 400
 * (lab/results-e8-v1272*: small_ctxsw_per_write).
 */
wbsim_time_t wbsim_cpus_resched_at(const wbsim_cpus *cpus, const wbsim_task *task)
{
	wbsim_time_t at = WBSIM_TIME_NEVER, slice;

	g_return_val_if_fail(cpus != NULL && task != NULL, 0);
	slice = cpus->sched.slice_ns;
	if (!cpus->sched.nr_waiting)
		return WBSIM_TIME_NEVER;
	if (wbsim_sched_waiter_beside(&cpus->sched, task))
		at = task->oncpu_since + slice;
	if (task->cpu >= 0 && cpus->cpu[task->cpu].group_since != WBSIM_TIME_NEVER &&
	    wbsim_sched_waiter_above(&cpus->sched, task))
		at = MIN(at, cpus->cpu[task->cpu].group_since + slice);
	return at;
}

wbsim_time_t wbsim_cpus_busy_ns(const wbsim_cpus *cpus)
{
	return cpus->busy_ns;
}
