/* SPDX-License-Identifier: MIT */
/*
 * core/event-fifo.c - the per-source FIFO of time-ordered events
 * described in event-fifo.h.
 */
#include <string.h>
#include <glib.h>
#include "core/event-fifo.h"
#include "core/sim-private.h"

void wbsim_event_fifo_init(struct wbsim_event_fifo *fifo, wbsim_sim *sim)
{
	memset(fifo, 0, sizeof(*fifo));
	fifo->sim = sim;
}

void wbsim_event_fifo_clear(struct wbsim_event_fifo *fifo)
{
	g_clear_pointer(&fifo->ring, g_free);
	fifo->head = fifo->len = fifo->cap = 0;
}

static inline struct wbsim_event *fifo_at(struct wbsim_event_fifo *fifo, size_t i)
{
	return &fifo->ring[(fifo->head + i) & (fifo->cap - 1)];
}

static void fifo_run(wbsim_sim *sim, void *arg);

/* The heap's entry for the FIFO's head: its key, the trampoline's call. */
static void push_head(struct wbsim_event_fifo *fifo)
{
	const struct wbsim_event *h = fifo_at(fifo, 0);
	struct wbsim_event ev = { .time = h->time, .seq = h->seq, .fn = fifo_run, .arg = fifo };

	wbsim_event_queue_push(&fifo->sim->queue, &ev);
}

/* The head is due: the next entry takes its place in the heap, then the
 * head's own call runs (and may schedule into this FIFO again). */
static void fifo_run(wbsim_sim *sim, void *arg)
{
	struct wbsim_event_fifo *fifo = arg;
	struct wbsim_event ev = *fifo_at(fifo, 0);

	fifo->head = (fifo->head + 1) & (fifo->cap - 1);
	fifo->len--;
	if (fifo->len) {
		sim->deferred--;
		push_head(fifo);
	}
	ev.fn(sim, ev.arg);
}

static void fifo_grow(struct wbsim_event_fifo *fifo)
{
	size_t cap = fifo->cap ? fifo->cap * 2 : 64;
	struct wbsim_event *ring = g_new(struct wbsim_event, cap);

	for (size_t i = 0; i < fifo->len; i++)
		ring[i] = *fifo_at(fifo, i);
	g_free(fifo->ring);
	fifo->ring = ring;
	fifo->head = 0;
	fifo->cap = cap;
}

void wbsim_event_fifo_schedule_at(struct wbsim_event_fifo *fifo, wbsim_time_t when,
				  wbsim_event_fn fn, void *arg)
{
	wbsim_sim *sim = fifo->sim;
	struct wbsim_event ev;

	if (fifo->len && when < fifo_at(fifo, fifo->len - 1)->time) {
		wbsim_sim_schedule_at(sim, when, fn, arg);
		return;
	}
	/* as wbsim_sim_schedule_at() */
	ev = (struct wbsim_event){ .time = wbsim_sim_not_in_past(sim, when), .seq = sim->next_seq++,
				   .fn = fn, .arg = arg };
	if (fifo->len == fifo->cap)
		fifo_grow(fifo);
	*fifo_at(fifo, fifo->len++) = ev;
	if (fifo->len == 1)
		push_head(fifo);
	else
		sim->deferred++;
}
