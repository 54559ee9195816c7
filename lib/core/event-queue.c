/* SPDX-License-Identifier: MIT */
/*
 * event-queue.c - 4-ary min-heap of events on a flat array.
 *
 * A 4-ary heap halves the depth of a binary heap. The array starts HEAP_PAD
 * entries into a cache-line-aligned block, so the four children of a node
 * (indices 4i+1..4i+4, 32-byte entries) fill exactly two whole cache lines.
 * Pop moves the hole to a leaf along the smallest children, then sifts the
 * last entry up from there (bottom-up heapsort's trick: one comparison per
 * level fewer, and the last entry rarely climbs far). Keys (time, seq) are
 * unique, so the order of pops does not depend on the heap's shape.
 */
#include <string.h>
#include <glib.h>
#include "core/event-queue.h"

#define ARITY 4
/* heap[0] sits at this index of the aligned block: children 4i+1.. at 4(i+1) */
#define HEAP_PAD (ARITY - 1)
#define HEAP_ALIGN 64

static struct wbsim_event *heap_alloc(size_t cap)
{
	struct wbsim_event *block = g_aligned_alloc(cap + HEAP_PAD, sizeof(struct wbsim_event),
						    HEAP_ALIGN);

	return block + HEAP_PAD;
}

static void heap_free(struct wbsim_event *heap)
{
	if (heap)
		g_aligned_free(heap - HEAP_PAD);
}

void wbsim_event_queue_init(struct wbsim_event_queue *q)
{
	q->cap = 256;
	q->len = 0;
	q->stale = 0;
	q->top_taken = 0;
	q->heap = heap_alloc(q->cap);
}

void wbsim_event_queue_clear(struct wbsim_event_queue *q)
{
	heap_free(q->heap);
	q->heap = NULL;
	q->len = q->cap = q->stale = 0;
	q->top_taken = 0;
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
	if (q->top_taken) {
		/* the hole at the root takes the new entry: one sift down
		 * instead of a pop's and a push's (keys are unique, so the
		 * order of pops does not depend on which) */
		q->top_taken = 0;
		sift_down(q->heap, q->len, 0, *ev);
		return;
	}
	if (q->len == q->cap) {
		struct wbsim_event *heap = heap_alloc(q->cap * 2);

		memcpy(heap, q->heap, q->len * sizeof(*heap));
		heap_free(q->heap);
		q->heap = heap;
		q->cap *= 2;
	}
	sift_up(q->heap, q->len++, *ev);
}

/* Remove the root entry (already copied out or taken). */
static void remove_top(struct wbsim_event_queue *q)
{
	struct wbsim_event *heap = q->heap;
	size_t len, i = 0;

	len = --q->len;
	if (!len)
		return;
	/* the hole goes down to a leaf, always to the smallest child */
	for (;;) {
		size_t first = i * ARITY + 1, best = first;

		if (first + ARITY <= len) {
			size_t b2 = first + 2;

			/* two pairs, then their winners: 3 comparisons */
			if (wbsim_event_before(&heap[first + 1], &heap[first]))
				best = first + 1;
			if (wbsim_event_before(&heap[first + 3], &heap[first + 2]))
				b2 = first + 3;
			if (wbsim_event_before(&heap[b2], &heap[best]))
				best = b2;
		} else if (first < len) {
			for (size_t c = first + 1; c < len; c++)
				if (wbsim_event_before(&heap[c], &heap[best]))
					best = c;
		} else {
			break;
		}
		heap[i] = heap[best];
		i = best;
	}
	/* the last entry fills it, climbing back as far as it must */
	sift_up(heap, i, heap[len]);
}

void wbsim_event_queue_pop(struct wbsim_event_queue *q, struct wbsim_event *out)
{
	wbsim_event_queue_settle(q);
	*out = q->heap[0];
	remove_top(q);
}

void wbsim_event_queue_take(struct wbsim_event_queue *q, struct wbsim_event *out)
{
	wbsim_event_queue_settle(q);
	*out = q->heap[0];
	q->top_taken = 1;
}

void wbsim_event_queue_settle(struct wbsim_event_queue *q)
{
	if (q->top_taken) {
		q->top_taken = 0;
		remove_top(q);
	}
}

void wbsim_event_queue_compact(struct wbsim_event_queue *q)
{
	size_t n = 0;

	wbsim_event_queue_settle(q);
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
