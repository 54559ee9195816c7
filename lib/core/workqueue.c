/* SPDX-License-Identifier: MIT */
/*
 * workqueue.c - work items run in FIFO order by at most max_active kworker
 * tasks, each item costing CPU time on the machine's CPU pool before its
 * function runs; or work_structs (struct wbsim_work) whose function runs on
 * the worker, queued once at a time and never run concurrently with
 * themselves. Left out: per-CPU pools and CPU affinity of work items,
 * concurrency management of bound workqueues, rescuers.
 */
#include "core/pid.h"
#include "core/workqueue.h"

struct work_item {
	wbsim_time_t cost;
	wbsim_event_fn fn;
	void *arg;
	struct wbsim_work *work;	/* a work_struct instead of cost + fn */
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
	const wbsim_task *current;	/* the worker running an item's fn */
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

static void worker_run_work(wbsim_sim *sim, void *arg)
{
	struct worker *w = arg;
	struct wbsim_work *work = w->item.work;

	(void)sim;
	work->fn(work, &w->task);
}

static void worker_start(struct worker *w, struct work_item item)
{
	w->busy = TRUE;
	w->item = item;
	if (item.work) {
		item.work->pending = FALSE;
		item.work->running = TRUE;
		item.work->worker = w;
		/* as an event: the caller may be inside the previous run */
		wbsim_sim_schedule_at(w->wq->sim, wbsim_sim_now(w->wq->sim), worker_run_work, w);
		return;
	}
	wbsim_cpus_run(w->wq->cpus, &w->task, item.cost, worker_done, w);
}

static void worker_next(struct worker *w)
{
	struct work_item *next = g_queue_pop_head(&w->wq->pending);

	w->busy = FALSE;
	if (next) {
		worker_start(w, *next);
		g_free(next);
	}
}

static void worker_done(wbsim_sim *sim, void *arg)
{
	struct worker *w = arg;
	struct work_item item = w->item;

	worker_next(w);
	w->wq->current = &w->task;
	item.fn(sim, item.arg);
	w->wq->current = NULL;
}

static void queue_item(struct wbsim_workqueue *wq, struct work_item item)
{
	for (unsigned int i = 0; i < wq->nr_workers; i++) {
		if (!wq->workers[i].busy) {
			worker_start(&wq->workers[i], item);
			return;
		}
	}
	g_queue_push_tail(&wq->pending, g_memdup2(&item, sizeof(item)));
}

const wbsim_task *wbsim_workqueue_current(const struct wbsim_workqueue *wq)
{
	return wq ? wq->current : NULL;
}

void wbsim_queue_work(struct wbsim_workqueue *wq, wbsim_time_t cost, wbsim_event_fn fn, void *arg)
{
	struct work_item item = { cost, fn, arg, NULL };

	queue_item(wq, item);
}

void wbsim_work_init(struct wbsim_work *work,
		     void (*fn)(struct wbsim_work *work, wbsim_task *worker), void *arg)
{
	*work = (struct wbsim_work){ .fn = fn, .arg = arg };
}

gboolean wbsim_queue_work_item(struct wbsim_workqueue *wq, struct wbsim_work *work)
{
	struct work_item item = { 0, NULL, NULL, work };

	if (work->pending)
		return FALSE;
	work->pending = TRUE;
	work->wq = wq;
	/* running: it goes on the queue when this run ends */
	if (!work->running)
		queue_item(wq, item);
	return TRUE;
}

void wbsim_work_done(struct wbsim_work *work)
{
	struct worker *w = work->worker;

	g_return_if_fail(work->running && w);
	work->running = FALSE;
	work->worker = NULL;
	worker_next(w);
	if (work->pending) {
		struct work_item item = { 0, NULL, NULL, work };

		queue_item(work->wq, item);
	}
}

wbsim_time_t wbsim_workqueue_cpu_ns(const struct wbsim_workqueue *wq)
{
	wbsim_time_t t = 0;

	for (unsigned int i = 0; i < wq->nr_workers; i++)
		t += wq->workers[i].task.cpu_ns;
	return t;
}
