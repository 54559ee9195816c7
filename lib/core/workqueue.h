/* SPDX-License-Identifier: MIT */
/*
 * core/workqueue.h - a workqueue: work items run by a pool of kworker
 * tasks on the CPU pool (kernel: kernel/workqueue.c, reduced to what the
 * model needs: FIFO order, at most max_active items running at once).
 */
#ifndef WBSIM_CORE_WORKQUEUE_H
#define WBSIM_CORE_WORKQUEUE_H

#include <wbsim/sim.h>

struct wbsim_workqueue;

/*
 * A workqueue (@name, as alloc_workqueue() names it) of @max_active
 * kworkers. Worker i stands for a worker of CPU i's pool and is named as
 * the kernel names it, "kworker/i:@worker_id" (the per-CPU pools are
 * shared by the bound workqueues, so each workqueue of a machine passes
 * its own @worker_id); each takes its pid from the simulation.
 */
struct wbsim_workqueue *wbsim_workqueue_new(wbsim_sim *sim, wbsim_cpus *cpus,
					    const char *name, unsigned int max_active,
					    unsigned int worker_id);
void wbsim_workqueue_free(struct wbsim_workqueue *wq);
/* queue_work(): run @fn(@arg) after @cost ns of CPU on a worker. */
void wbsim_queue_work(struct wbsim_workqueue *wq, wbsim_time_t cost, wbsim_event_fn fn, void *arg);
/* The worker whose item's @fn runs now (current, in the kernel), or NULL
 * outside one: for the task a tracepoint in it names. */
const wbsim_task *wbsim_workqueue_current(const struct wbsim_workqueue *wq);
/*
 * A work_struct: queued at most once at a time (queue_work() of a pending
 * item does nothing) and never run by two workers at once (an item queued
 * again while it runs waits until that run is over: the kernel's
 * non-reentrancy). Its @fn runs on the worker task, may take locks and run
 * CPU bursts on it, and calls wbsim_work_done() when it returns.
 */
struct wbsim_work {
	void (*fn)(struct wbsim_work *work, wbsim_task *worker);
	void *arg;
	/* private */
	gboolean pending, running;
	struct wbsim_workqueue *wq;
	void *worker;
};

void wbsim_work_init(struct wbsim_work *work,
		     void (*fn)(struct wbsim_work *work, wbsim_task *worker), void *arg);
/* queue_work(): FALSE if @work was already pending. */
gboolean wbsim_queue_work_item(struct wbsim_workqueue *wq, struct wbsim_work *work);
/* The item's function has returned: its worker takes the next item. */
void wbsim_work_done(struct wbsim_work *work);
/* CPU time its workers consumed. */
wbsim_time_t wbsim_workqueue_cpu_ns(const struct wbsim_workqueue *wq);

#endif
