/* SPDX-License-Identifier: MIT */
/*
 * core/event-fifo.h - events a model schedules in time order, kept out of
 * the simulation's heap but for the earliest.
 *
 * A NAND die programs its pieces one after another, so the times at which
 * their buffer space is released only grow; a busy NVMe model has
 * thousands of them pending, milliseconds ahead, and every push and pop of
 * the heap sifts through them. A FIFO per such source holds them instead,
 * and only its head is in the heap. Each entry keeps the sequence number
 * it was given when it was scheduled (the one wbsim_sim_schedule_at() would
 * have given it), and the next entry enters the heap when the head runs,
 * ahead of anything that could come before it: the events run in exactly
 * the order, and at exactly the times, they would from the heap alone.
 */
#ifndef WBSIM_CORE_EVENT_FIFO_H
#define WBSIM_CORE_EVENT_FIFO_H

#include <stddef.h>
#include "core/event-queue.h"
#include "core/sim.h"

struct wbsim_event_fifo {
	wbsim_sim *sim;
	struct wbsim_event *ring;	/* the entries, the head's included */
	size_t head, len, cap;		/* cap: a power of two, or 0 */
};

void wbsim_event_fifo_init(struct wbsim_event_fifo *fifo, wbsim_sim *sim);
/* Free the ring at the end of a run (the simulation may be gone already:
 * its entries, pending or not, are not touched). */
void wbsim_event_fifo_clear(struct wbsim_event_fifo *fifo);
/*
 * wbsim_event_fifo_schedule_at() - wbsim_sim_schedule_at(@fifo's sim,
 * @when, @fn, @arg), the same event at the same place in the order. An
 * event earlier than the FIFO's last goes to the heap directly (it would
 * break the FIFO's order), so any order of @when is correct; the FIFO
 * saves work only while @when grows.
 */
void wbsim_event_fifo_schedule_at(struct wbsim_event_fifo *fifo, wbsim_time_t when,
				  wbsim_event_fn fn, void *arg);

#endif /* WBSIM_CORE_EVENT_FIFO_H */
