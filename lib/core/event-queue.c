/* SPDX-License-Identifier: MIT */
/*
 * event-queue.c - 4-ary min-heap of events on a flat array.
 *
 * A 4-ary heap halves the depth of a binary heap; its four children share one
 * or two cache lines (32-byte entries), which makes sift-down cheaper than in
 * a binary heap at the queue sizes a writeback model produces (10^3..10^5).
 */
#include <glib.h>
#include "core/event-queue.h"

#define ARITY 4

void wbsim_event_queue_init(struct wbsim_event_queue *q)
{
	q->cap = 256;
	q->len = 0;
	q->stale = 0;
	q->heap = g_new(struct wbsim_event, q->cap);
}

void wbsim_event_queue_clear(struct wbsim_event_queue *q)
{
	g_free(q->heap);
	q->heap = NULL;
	q->len = q->cap = q->stale = 0;
}

static void sift_up(struct wbsim_event *heap, size_t i, struct wbsim_event ev)
{
	while (i > 0) {
		size_t parent = (i - 1) / ARITY;

		if (!wbsim_event_before(&ev, &heap[parent]))
			break;
		heap[i] = heap[parent];
		i = parent;
	}
	heap[i] = ev;
}

static void sift_down(struct wbsim_event *heap, size_t len, size_t i, struct wbsim_event ev)
{
	for (;;) {
		size_t first = i * ARITY + 1;
		size_t best, end;

		if (first >= len)
			break;
		best = first;
		end = first + ARITY < len ? first + ARITY : len;
		for (size_t c = first + 1; c < end; c++)
			if (wbsim_event_before(&heap[c], &heap[best]))
				best = c;
		if (!wbsim_event_before(&heap[best], &ev))
			break;
		heap[i] = heap[best];
		i = best;
	}
	heap[i] = ev;
}

void wbsim_event_queue_push(struct wbsim_event_queue *q, const struct wbsim_event *ev)
{
	if (q->len == q->cap) {
		q->cap *= 2;
		q->heap = g_renew(struct wbsim_event, q->heap, q->cap);
	}
	sift_up(q->heap, q->len++, *ev);
}

void wbsim_event_queue_pop(struct wbsim_event_queue *q, struct wbsim_event *out)
{
	*out = q->heap[0];
	if (--q->len > 0)
		sift_down(q->heap, q->len, 0, q->heap[q->len]);
}

void wbsim_event_queue_compact(struct wbsim_event_queue *q)
{
	size_t n = 0;

	for (size_t i = 0; i < q->len; i++)
		if (!wbsim_event_is_stale(&q->heap[i]))
			q->heap[n++] = q->heap[i];
	q->len = n;
	q->stale = 0;
	/* Floyd's bottom-up heap construction. */
	if (n > 1)
		for (size_t i = (n - 2) / ARITY + 1; i-- > 0;)
			sift_down(q->heap, n, i, q->heap[i]);
}
