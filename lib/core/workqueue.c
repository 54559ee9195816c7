/* SPDX-License-Identifier: MIT */
/*
 * workqueue.c - work items run in FIFO order by at most max_active kworker
 * tasks, each item costing CPU time on the machine's CPU pool before its
 * function runs. Left out: per-CPU pools and CPU affinity of work items,
 * concurrency management of bound workqueues, rescuers.
 */
#include "core/pid.h"
#include "core/workqueue.h"

struct work_item {
	wbsim_time_t cost;
	wbsim_event_fn fn;
	void *arg;
};

struct worker {
	wbsim_task task;
	struct wbsim_workqueue *wq;
	struct work_item item;
	gboolean busy;
};

struct wbsim_workqueue {
	wbsim_sim *sim;
	char *name;
	wbsim_cpus *cpus;
	struct worker *workers;
	unsigned int nr_workers;
	GQueue pending;		/* struct work_item * */
};

struct wbsim_workqueue *wbsim_workqueue_new(wbsim_sim *sim, wbsim_cpus *cpus,
					    const char *name, unsigned int max_active,
					    unsigned int worker_id)
{
	struct wbsim_workqueue *wq = g_new0(struct wbsim_workqueue, 1);

	wq->sim = sim;
	wq->name = g_strdup(name);
	wq->cpus = cpus;
	wq->nr_workers = MAX(max_active, 1);
	wq->workers = g_new0(struct worker, wq->nr_workers);
	for (unsigned int i = 0; i < wq->nr_workers; i++) {
		g_autofree char *n = g_strdup_printf("kworker/%u:%u", i, worker_id);

		wbsim_task_init(&wq->workers[i].task, n, WBSIM_TASK_IRQ);
		wq->workers[i].task.pid = wbsim_sim_alloc_pid(sim);
		wq->workers[i].wq = wq;
	}
	g_queue_init(&wq->pending);
	return wq;
}

void wbsim_workqueue_free(struct wbsim_workqueue *wq)
{
	if (!wq)
		return;
	for (unsigned int i = 0; i < wq->nr_workers; i++)
		wbsim_task_clear(&wq->workers[i].task);
	g_queue_clear_full(&wq->pending, g_free);
	g_free(wq->workers);
	g_free(wq->name);
	g_free(wq);
}

static void worker_done(wbsim_sim *sim, void *arg);

static void worker_start(struct worker *w, struct work_item item)
{
	w->busy = TRUE;
	w->item = item;
	wbsim_cpus_run(w->wq->cpus, &w->task, item.cost, worker_done, w);
}

static void worker_done(wbsim_sim *sim, void *arg)
{
	struct worker *w = arg;
	struct work_item item = w->item;
	struct work_item *next = g_queue_pop_head(&w->wq->pending);

	w->busy = FALSE;
	if (next) {
		worker_start(w, *next);
		g_free(next);
	}
	item.fn(sim, item.arg);
}

void wbsim_queue_work(struct wbsim_workqueue *wq, wbsim_time_t cost, wbsim_event_fn fn, void *arg)
{
	struct work_item item = { cost, fn, arg };

	for (unsigned int i = 0; i < wq->nr_workers; i++) {
		if (!wq->workers[i].busy) {
			worker_start(&wq->workers[i], item);
			return;
		}
	}
	g_queue_push_tail(&wq->pending, g_memdup2(&item, sizeof(item)));
}

wbsim_time_t wbsim_workqueue_cpu_ns(const struct wbsim_workqueue *wq)
{
	wbsim_time_t t = 0;

	for (unsigned int i = 0; i < wq->nr_workers; i++)
		t += wq->workers[i].task.cpu_ns;
	return t;
}
