/* SPDX-License-Identifier: MIT */
/* cpus.h - what the lock code asks the CPU pool (lib/core/cpus.c). */
#ifndef WBSIM_CORE_CPUS_H
#define WBSIM_CORE_CPUS_H

#include <wbsim/sim.h>

/* When @task's burst on @cpus ends (interrupts that stretched it
 * included), or 0 when it runs no burst there: the kernel's
 * owner->on_cpu. */
wbsim_time_t wbsim_cpus_running_until(const wbsim_cpus *cpus, const wbsim_task *task);
/* CPUs running nothing. */
unsigned int wbsim_cpus_idle(const wbsim_cpus *cpus);
/*
 * wbsim_cpus_wake_remote() - would @waker's wake-up of a sleeping task
 * now send it to an idle CPU besides @waker's own (select_task_rq_fair's
 * idle sibling), an IPI taking that CPU out of idle? Then TRUE, and
 * *@cost is the waker's CPU for it (wbsim_cpus_set_idle_wake_cost()); else
 * FALSE and 0: a wake-up on the waker's CPU, local, in its caller's costs.
 */
gboolean wbsim_cpus_wake_remote(const wbsim_cpus *cpus, const wbsim_task *waker,
				wbsim_time_t *cost);
/* wbsim_cpus_run(), but the burst keeps its CPU through @done: a burst
 * @task asks for at once from there starts on it, ahead of the waiting
 * tasks; the CPU goes to them if it asks for none. */
void wbsim_cpus_run_on(wbsim_cpus *cpus, wbsim_task *task, wbsim_time_t cost,
		       wbsim_event_fn done, void *arg);
/*
 * wbsim_cpus_cond_resched() - a scheduling point inside kernel code whose
 * work goes on after it (cond_resched() in a write's copy loop, under the
 * inode's lock): a task that lost its CPU at its last burst's end (its
 * need_resched set, a waiting task first) waits for a CPU, runnable, and
 * then goes on through @done; returns FALSE, and does nothing, when it
 * kept its CPU.
 */
gboolean wbsim_cpus_cond_resched(wbsim_cpus *cpus, wbsim_task *task, wbsim_event_fn done,
				 void *arg);
/* Is need_resched set for running @task now (wbsim_cpus_resched_at())? */
gboolean wbsim_cpus_need_resched(const wbsim_cpus *cpus, const wbsim_task *task);
/* Is @task in the callback of a wbsim_cpus_run_on() burst, its CPU kept? */
gboolean wbsim_cpus_kept(const wbsim_cpus *cpus, const wbsim_task *task);

#endif
