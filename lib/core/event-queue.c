/* SPDX-License-Identifier: MIT */
/*
 * event-queue.c - 4-ary min-heap of events on a flat array, and a FIFO
 * ring of the entries pushed for the current time (see event-queue.h).
 *
 * A 4-ary heap halves the depth of a binary heap. The array starts HEAP_PAD
 * entries into a cache-line-aligned block, so the four children of a node
 * (indices 4i+1..4i+4, 32-byte entries) fill exactly two whole cache lines.
 * Pop moves the hole to a leaf along the smallest children, then sifts the
 * last entry up from there (bottom-up heapsort's trick: one comparison per
 * level fewer, and the last entry rarely climbs far). Keys (time, seq) are
 * unique, so the order of pops does not depend on the heap's shape, nor
 * on which of the two structures holds an entry.
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
	*q = (struct wbsim_event_queue){ 0 };
	q->cap = 256;
	q->heap = heap_alloc(q->cap);
	q->fifo_cap = 64;
	q->fifo = g_new(struct wbsim_event, q->fifo_cap);
}

void wbsim_event_queue_clear(struct wbsim_event_queue *q)
{
	heap_free(q->heap);
	g_free(q->fifo);
	*q = (struct wbsim_event_queue){ 0 };
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

static void fifo_push(struct wbsim_event_queue *q, const struct wbsim_event *ev)
{
	if (q->fifo_len == q->fifo_cap) {
		/* unroll the ring into a twice larger one */
		struct wbsim_event *fifo = g_new(struct wbsim_event, q->fifo_cap * 2);

		for (size_t i = 0; i < q->fifo_len; i++)
			fifo[i] = q->fifo[(q->fifo_head + i) & (q->fifo_cap - 1)];
		g_free(q->fifo);
		q->fifo = fifo;
		q->fifo_head = 0;
		q->fifo_cap *= 2;
	}
	q->fifo[(q->fifo_head + q->fifo_len++) & (q->fifo_cap - 1)] = *ev;
}

/* The FIFO's last entry (it is not empty). */
static const struct wbsim_event *fifo_tail(const struct wbsim_event_queue *q)
{
	return &q->fifo[(q->fifo_head + q->fifo_len - 1) & (q->fifo_cap - 1)];
}

void wbsim_event_queue_push(struct wbsim_event_queue *q, const struct wbsim_event *ev)
{
	q->len++;
	/* due now and after every entry of the FIFO: its order is kept */
	if (ev->time == q->now && (!q->fifo_len || wbsim_event_before(fifo_tail(q), ev))) {
		fifo_push(q, ev);
		return;
	}
	if (q->heap_len == q->cap) {
		struct wbsim_event *heap = heap_alloc(q->cap * 2);

		memcpy(heap, q->heap, q->heap_len * sizeof(*heap));
		heap_free(q->heap);
		q->heap = heap;
		q->cap *= 2;
	}
	sift_up(q->heap, q->heap_len++, *ev);
}

static void heap_pop(struct wbsim_event_queue *q, struct wbsim_event *out)
{
	struct wbsim_event *heap = q->heap;
	size_t len, i = 0;

	*out = heap[0];
	len = --q->heap_len;
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
	if (q->fifo_len &&
	    (!q->heap_len || wbsim_event_before(&q->fifo[q->fifo_head], &q->heap[0]))) {
		*out = q->fifo[q->fifo_head];
		q->fifo_head = (q->fifo_head + 1) & (q->fifo_cap - 1);
		q->fifo_len--;
	} else {
		heap_pop(q, out);
	}
	q->len--;
	q->now = out->time;
}

void wbsim_event_queue_compact(struct wbsim_event_queue *q)
{
	size_t n = 0, mask = q->fifo_cap - 1;

	for (size_t i = 0; i < q->heap_len; i++)
		if (!wbsim_event_is_stale(&q->heap[i]))
			q->heap[n++] = q->heap[i];
	q->heap_len = n;
	/* Floyd's bottom-up heap construction. */
	if (n > 1)
		for (size_t i = (n - 2) / ARITY + 1; i-- > 0;)
			sift_down(q->heap, n, i, q->heap[i]);
	/* the FIFO keeps its order */
	n = 0;
	for (size_t i = 0; i < q->fifo_len; i++) {
		const struct wbsim_event *ev = &q->fifo[(q->fifo_head + i) & mask];

		if (!wbsim_event_is_stale(ev))
			q->fifo[(q->fifo_head + n++) & mask] = *ev;
	}
	q->fifo_len = n;
	q->len = q->heap_len + q->fifo_len;
	q->stale = 0;
}
