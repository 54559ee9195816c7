/* SPDX-License-Identifier: MIT */
/* sched-fair.h - which waiting task a free CPU runs next (lib/core/sched-fair.c). */
#ifndef WBSIM_CORE_SCHED_FAIR_H
#define WBSIM_CORE_SCHED_FAIR_H

#include <wbsim/sim.h>

/* A group of tasks scheduled as one entity (a task group's per-CPU
 * entities taken together): the autogroup of the session the jobs run in. */
struct wbsim_sched_group {
	wbsim_time_t vruntime;		/* the group's CPU time, as one entity's */
	wbsim_time_t min_vruntime;	/* its tasks' floor, never going back */
	unsigned int nr_running;	/* its tasks on a CPU now */
	wbsim_task *wait_head;		/* its waiting tasks, in vruntime order */
};

/* The run queue of the machine's CPUs taken together. */
struct wbsim_sched {
	wbsim_time_t min_vruntime;	/* the top level's floor, never going back */
	wbsim_time_t slice_ns;		/* how far behind the floor a waking task comes back */
	gboolean autogroup;		/* the jobs' tasks share one entity */
	struct wbsim_sched_group group;
	wbsim_task *wait_head;		/* top-level waiting tasks, in vruntime order */
	unsigned int nr_waiting;
};

void wbsim_sched_init(struct wbsim_sched *s, unsigned int nr_cpus);
void wbsim_sched_set_autogroup(struct wbsim_sched *s, gboolean on);
/* A task asks for a CPU: placed first if it slept (@slept) or is new. */
void wbsim_sched_wakeup(struct wbsim_sched *s, wbsim_task *task, gboolean slept);
/* A task that asked for a CPU and found none waits in the queue. */
void wbsim_sched_enqueue(struct wbsim_sched *s, wbsim_task *task);
/* The waiting task that runs next, taken off the queue; NULL if none. */
wbsim_task *wbsim_sched_pick_next(struct wbsim_sched *s);
/* @task starts (or goes on with) a burst on a CPU. */
void wbsim_sched_set_next(struct wbsim_sched *s, wbsim_task *task);
/* @task's burst of @ns is over: charge it. */
void wbsim_sched_put_prev(struct wbsim_sched *s, wbsim_task *task, wbsim_time_t ns);
/* Does a waiting task go before @task, whose burst just ended? */
gboolean wbsim_sched_waiter_first(const struct wbsim_sched *s, const wbsim_task *task);
/* Is @task one of the autogroup's tasks (a job's thread, autogroup on)? */
gboolean wbsim_sched_in_group(const struct wbsim_sched *s, const wbsim_task *task);
/* Does a task wait that competes with running @task at @task's own level
 * (two of the group, or a kernel thread and a kernel thread or the
 * group's entity)? */
gboolean wbsim_sched_waiter_beside(const struct wbsim_sched *s, const wbsim_task *task);
/* Does a kernel thread wait that competes with @task's group's entity? */
gboolean wbsim_sched_waiter_above(const struct wbsim_sched *s, const wbsim_task *task);

#endif
