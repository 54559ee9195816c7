/* SPDX-License-Identifier: MIT */
/*
 * sched-fair.c - which waiting task a free CPU runs next: the fair class's
 * pick (kernel/sched/fair.c), with the session's autogroup.
 *
 * Each task has a virtual runtime, the CPU time it has run (every task has
 * the same weight, nice 0); a free CPU runs the waiting task that has run
 * least (pick_next_task_fair()), and a task whose slice is over keeps its
 * CPU at its burst's end if no waiting task has run less. A task that
 * slept comes back no further behind the queue's floor (min_vruntime) than
 * one base slice (place_entity(): a long sleep earns no monopoly), a new
 * one at the floor.
 *
 * The autogroup (CONFIG_SCHED_AUTOGROUP, sysctl kernel.sched_autogroup_enabled,
 * on by default): every task of a session is in the session's task group,
 * and the group takes the CPUs as one nice-0 entity beside each kernel
 * thread. The jobs' threads (and their io-wq workers, threads of the same
 * process) are one session; the flusher, the loop worker and the other
 * kworkers are kernel threads in the root group. So fifteen busy writers
 * together get what one busy kworker gets, and a kworker that wakes runs
 * before them unless it has run more than they have together: the group's
 * per-CPU entities share the group's weight in proportion to its load on
 * each CPU (calc_group_shares()), which taken over all CPUs is one entity.
 *
 * The pick is made when a CPU comes free, and at a burst's end once the
 * running task's slice is over (lib/core/cpus.c: need_resched): a running
 * task is protected for a base slice from the moment it got its CPU, and a
 * task that wakes meanwhile waits for it (EEVDF's RUN_TO_PARITY). Tried
 * alone, with the old immediate pick of a woken task and no slice inside
 * the write's lock, it made xfs-paths-prealloc worse (-0% -> -30%); the
 * cause was the model's, not the slice's: the flusher took XFS's ILOCK
 * shared while it waited for a CPU and the completion worker spun on it
 * (lib/core/lock.c now has a task take a rwsem only while it runs). With
 * the pick at every burst's end E8's writers switched about once a write
 * where the kernel's switch once in 50 to 400.
 * One queue for all CPUs, not one a CPU: left out are the per-CPU run
 * queues and the load balancing between them, nice levels, EEVDF's
 * deadlines and eligibility (a woken task whose lag is positive may
 * preempt a current task that has run more than its share: left out, the
 * woken task waits for the slice), and the decay of a sleeper's lag
 * (bounded by the slice here).
 */
#include "core/sched-fair.h"

static gboolean in_group(const struct wbsim_sched *s, const wbsim_task *task)
{
	return s->autogroup && task->kind == WBSIM_TASK_DIRTIER;
}

void wbsim_sched_init(struct wbsim_sched *s, unsigned int nr_cpus)
{
	unsigned int factor = 1;

	*s = (struct wbsim_sched){ 0 };
	/* sysctl_sched_base_slice, 0.75 ms, scaled as the kernel scales it
	 * by default (SCHED_TUNABLESCALING_LOG): 1 + ilog2(CPUs, at most 8) */
	for (unsigned int n = MIN(nr_cpus, 8u); n > 1; n >>= 1)
		factor++;
	s->slice_ns = 750 * WBSIM_NSEC_PER_USEC * factor;
	s->autogroup = TRUE;
}

void wbsim_sched_set_autogroup(struct wbsim_sched *s, gboolean on)
{
	s->autogroup = on;
}

/* The floor a task that slept comes back to: @min less one slice. */
static wbsim_time_t sleeper_floor(const struct wbsim_sched *s, wbsim_time_t min)
{
	return min > s->slice_ns ? min - s->slice_ns : 0;
}

/* place_entity() */
static void place_entity(const struct wbsim_sched *s, wbsim_time_t *vruntime, wbsim_time_t min,
			 gboolean is_new)
{
	if (is_new)
		*vruntime = min;
	else
		*vruntime = MAX(*vruntime, sleeper_floor(s, min));
}

void wbsim_sched_wakeup(struct wbsim_sched *s, wbsim_task *task, gboolean slept)
{
	gboolean is_new = task->bursts == 0;

	if (!slept && !is_new)
		return;
	if (in_group(s, task)) {
		struct wbsim_sched_group *g = &s->group;

		/* the group's entity wakes with its first task */
		if (!g->nr_running && !g->wait_head)
			place_entity(s, &g->vruntime, s->min_vruntime, FALSE);
		place_entity(s, &task->vruntime, g->min_vruntime, is_new);
		return;
	}
	place_entity(s, &task->vruntime, s->min_vruntime, is_new);
}

/* Into a queue in vruntime order; equals keep their order of arrival. */
static void queue_insert(wbsim_task **head, wbsim_task *task)
{
	while (*head && (*head)->vruntime <= task->vruntime)
		head = &(*head)->next_waiter;
	task->next_waiter = *head;
	*head = task;
}

void wbsim_sched_enqueue(struct wbsim_sched *s, wbsim_task *task)
{
	queue_insert(in_group(s, task) ? &s->group.wait_head : &s->wait_head, task);
	s->nr_waiting++;
}

/* The vruntime @task is compared by at the top level: the group's for a
 * task of the group, its own for a kernel thread. */
static wbsim_time_t entity_vruntime(const struct wbsim_sched *s, const wbsim_task *task)
{
	return in_group(s, task) ? s->group.vruntime : task->vruntime;
}

/* Does the group's queue go before the kernel threads' (pick_next_entity()
 * at the top level): it has a task and has run less than the first thread? */
static gboolean group_goes_first(const struct wbsim_sched *s)
{
	const wbsim_task *k = s->wait_head;

	return s->group.wait_head && (!k || s->group.vruntime < k->vruntime);
}

/* The queue whose first task a free CPU runs next (pick_next_entity() at
 * the top level, then within the group): the group's when the group has
 * run less than the first kernel thread, else the kernel threads'. */
static wbsim_task **next_queue(struct wbsim_sched *s)
{
	return group_goes_first(s) ? &s->group.wait_head : &s->wait_head;
}

wbsim_task *wbsim_sched_pick_next(struct wbsim_sched *s)
{
	wbsim_task **head = next_queue(s);
	wbsim_task *next = *head;

	if (!next)
		return NULL;
	*head = next->next_waiter;
	next->next_waiter = NULL;
	s->nr_waiting--;
	return next;
}

/* update_min_vruntime(): the least of the running entity and the first
 * waiting ones, never going back. */
void wbsim_sched_set_next(struct wbsim_sched *s, wbsim_task *task)
{
	struct wbsim_sched_group *g = &s->group;
	wbsim_time_t v;

	if (in_group(s, task)) {
		g->nr_running++;
		v = task->vruntime;
		if (g->wait_head && g->wait_head->vruntime < v)
			v = g->wait_head->vruntime;
		g->min_vruntime = MAX(g->min_vruntime, v);
		v = g->vruntime;
	} else {
		v = task->vruntime;
	}
	if (s->wait_head && s->wait_head->vruntime < v)
		v = s->wait_head->vruntime;
	if (g->wait_head && g->vruntime < v)
		v = g->vruntime;
	s->min_vruntime = MAX(s->min_vruntime, v);
}

/* update_curr(): the burst's time goes to the task and, for a task of
 * the group, to the group's entity. */
void wbsim_sched_put_prev(struct wbsim_sched *s, wbsim_task *task, wbsim_time_t ns)
{
	task->vruntime += ns;
	if (in_group(s, task)) {
		s->group.vruntime += ns;
		s->group.nr_running--;
	}
}

gboolean wbsim_sched_waiter_first(const struct wbsim_sched *s, const wbsim_task *task)
{
	/* the waiter pick_next would take */
	const wbsim_task *w = group_goes_first(s) ? s->group.wait_head : s->wait_head;

	if (!w)
		return FALSE;
	/* two of the group: their own vruntimes; else the entities' */
	if (in_group(s, w) && in_group(s, task))
		return w->vruntime <= task->vruntime;
	return entity_vruntime(s, w) <= entity_vruntime(s, task);
}

gboolean wbsim_sched_in_group(const struct wbsim_sched *s, const wbsim_task *task)
{
	return in_group(s, task);
}

gboolean wbsim_sched_waiter_beside(const struct wbsim_sched *s, const wbsim_task *task)
{
	if (in_group(s, task))
		return s->group.wait_head != NULL;
	return s->wait_head || s->group.wait_head;
}

gboolean wbsim_sched_waiter_above(const struct wbsim_sched *s, const wbsim_task *task)
{
	return in_group(s, task) && s->wait_head;
}
