/* SPDX-License-Identifier: MIT */
/*
 * event-queue.h - the pending-event queue: a 4-ary min-heap on a flat array,
 * keyed by (time, sequence). The sequence is a global insertion counter, so
 * events with equal times pop in the order they were pushed.
 *
 * An entry with fn == NULL belongs to a wbsim_timer (arg points at it) and is
 * live only while the timer's armed_seq equals the entry's sequence: that is
 * how timers are cancelled and re-armed in O(1) without searching the heap.
 */
#ifndef WBSIM_CORE_EVENT_QUEUE_H
#define WBSIM_CORE_EVENT_QUEUE_H

#include <stddef.h>
#include <stdint.h>
#include <wbsim/sim.h>

struct wbsim_event {
	wbsim_time_t time;
	uint64_t seq;
	wbsim_event_fn fn;
	void *arg;
};

struct wbsim_event_queue {
	struct wbsim_event *heap;
	size_t len;
	size_t cap;
	size_t stale;	/* entries of cancelled or re-armed timers still in the heap */
	size_t top_taken;	/* 1: heap[0] was taken and is a hole (in len) */
};

void wbsim_event_queue_init(struct wbsim_event_queue *q);
void wbsim_event_queue_clear(struct wbsim_event_queue *q);
void wbsim_event_queue_push(struct wbsim_event_queue *q, const struct wbsim_event *ev);
/* Remove the earliest entry into *out; the queue must not be empty. */
void wbsim_event_queue_pop(struct wbsim_event_queue *q, struct wbsim_event *out);
/*
 * wbsim_event_queue_take() - pop, lazily: the earliest entry into *out,
 * its slot left as a hole at the root. The next push fills the hole (one
 * sift down, where pop then push sift twice); wbsim_event_queue_settle()
 * removes it if no push came. An event that schedules its successor (most
 * do) then costs the heap one walk. Until settled, the queue must not be
 * peeked.
 */
void wbsim_event_queue_take(struct wbsim_event_queue *q, struct wbsim_event *out);
void wbsim_event_queue_settle(struct wbsim_event_queue *q);
/* Drop stale timer entries and rebuild the heap in O(n). */
void wbsim_event_queue_compact(struct wbsim_event_queue *q);

/* The earliest entry, or NULL; not while a taken entry is unsettled. */
static inline const struct wbsim_event *wbsim_event_queue_peek(const struct wbsim_event_queue *q)
{
	return q->len ? &q->heap[0] : NULL;
}

static inline int wbsim_event_before(const struct wbsim_event *a, const struct wbsim_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Is this entry a timer entry that no longer matches its timer? */
static inline int wbsim_event_is_stale(const struct wbsim_event *ev)
{
	return ev->fn == NULL && ((const wbsim_timer *)ev->arg)->armed_seq != ev->seq;
}

#endif
