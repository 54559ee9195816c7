/* SPDX-License-Identifier: MIT */
/*
 * sim.c - the simulation clock and main loop, and timers.
 */
#include "core/pid.h"
#include "core/sim-private.h"
#include "core/sim.h"

wbsim_sim *wbsim_sim_new(uint64_t seed)
{
	wbsim_sim *sim = g_new0(wbsim_sim, 1);

	sim->next_seq = 1;
	sim->next_pid = WBSIM_FIRST_PID;
	wbsim_event_queue_init(&sim->queue);
	wbsim_rng_seed(&sim->rng, seed);
	return sim;
}

const char *wbsim_sim_intern(wbsim_sim *sim, const char *name)
{
	char *kept;

	if (!sim->names)
		sim->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	kept = g_hash_table_lookup(sim->names, name);
	if (!kept) {
		kept = g_strdup(name);
		g_hash_table_add(sim->names, kept);
	}
	return kept;
}

unsigned int wbsim_sim_alloc_pid(wbsim_sim *sim)
{
	return sim->next_pid++;
}

void wbsim_sim_free(wbsim_sim *sim)
{
	if (!sim)
		return;
	wbsim_event_queue_clear(&sim->queue);
	g_clear_pointer(&sim->names, g_hash_table_destroy);
	g_free(sim);
}

wbsim_time_t wbsim_sim_now(const wbsim_sim *sim)
{
	return sim->now;
}

wbsim_rng *wbsim_sim_rng(wbsim_sim *sim)
{
	return &sim->rng;
}

static inline void push(wbsim_sim *sim, wbsim_time_t when, uint64_t seq,
			wbsim_event_fn fn, void *arg)
{
	struct wbsim_event ev = { .time = when, .seq = seq, .fn = fn, .arg = arg };

	wbsim_event_queue_push(&sim->queue, &ev);
}

void wbsim_sim_schedule_at(wbsim_sim *sim, wbsim_time_t when, wbsim_event_fn fn, void *arg)
{
	push(sim, wbsim_sim_not_in_past(sim, when), sim->next_seq++, fn, arg);
}

void wbsim_sim_schedule_after(wbsim_sim *sim, wbsim_time_t delay, wbsim_event_fn fn, void *arg)
{
	wbsim_time_t when = delay > WBSIM_TIME_NEVER - sim->now ? WBSIM_TIME_NEVER
								 : sim->now + delay;

	push(sim, when, sim->next_seq++, fn, arg);
}

void wbsim_timer_init(wbsim_timer *timer, wbsim_event_fn fn, void *arg)
{
	timer->fn = fn;
	timer->arg = arg;
	timer->expires = 0;
	timer->armed_seq = 0;
}

/* An entry is stale once its timer was re-armed or cancelled; compact the
 * heap when stale entries outnumber live ones so memory stays bounded. */
static void note_stale(wbsim_sim *sim)
{
	struct wbsim_event_queue *q = &sim->queue;

	if (++q->stale > 1024 && q->stale * 2 > q->len)
		wbsim_event_queue_compact(q);
}

void wbsim_timer_arm(wbsim_sim *sim, wbsim_timer *timer, wbsim_time_t when)
{
	gboolean was_pending = timer->armed_seq != 0;

	/* Re-point the timer first: the old entry must already look stale if
	 * note_stale() compacts the heap. */
	timer->expires = wbsim_sim_not_in_past(sim, when);
	timer->armed_seq = sim->next_seq++;
	if (was_pending)
		note_stale(sim);
	push(sim, timer->expires, timer->armed_seq, NULL, timer);
}

gboolean wbsim_timer_cancel(wbsim_sim *sim, wbsim_timer *timer)
{
	if (!timer->armed_seq)
		return FALSE;
	timer->armed_seq = 0;
	note_stale(sim);
	return TRUE;
}

void wbsim_sim_set_after_event_hook(wbsim_sim *sim, wbsim_event_fn fn, void *arg)
{
	sim->after_event = fn;
	sim->after_event_arg = arg;
}

/* Pop and run one event; returns FALSE if it was a stale timer entry. */
static inline gboolean run_one(wbsim_sim *sim)
{
	struct wbsim_event ev;

	/* taken, not popped: the event's first push fills its slot */
	wbsim_event_queue_take(&sim->queue, &ev);
	if (ev.fn == NULL) {
		wbsim_timer *timer = ev.arg;

		if (timer->armed_seq != ev.seq) {
			wbsim_event_queue_settle(&sim->queue);
			sim->queue.stale--;
			return FALSE;
		}
		timer->armed_seq = 0;
		sim->now = ev.time;
		sim->processed++;
		timer->fn(sim, timer->arg);
	} else {
		sim->now = ev.time;
		sim->processed++;
		ev.fn(sim, ev.arg);
	}
	wbsim_event_queue_settle(&sim->queue);
	if (sim->after_event)
		sim->after_event(sim, sim->after_event_arg);
	return TRUE;
}

uint64_t wbsim_sim_run_until(wbsim_sim *sim, wbsim_time_t limit)
{
	uint64_t start = sim->processed;
	const struct wbsim_event *top;

	sim->stop = FALSE;
	while (!sim->stop && (top = wbsim_event_queue_peek(&sim->queue)) && top->time <= limit) {
		if (G_UNLIKELY(sim->stop_flag && *sim->stop_flag)) {
			/* interrupted: the time stays the last event's */
			sim->interrupted = TRUE;
			return sim->processed - start;
		}
		run_one(sim);
	}
	if (!sim->stop && limit != WBSIM_TIME_NEVER && sim->now < limit)
		sim->now = limit;
	return sim->processed - start;
}

uint64_t wbsim_sim_run(wbsim_sim *sim)
{
	return wbsim_sim_run_until(sim, WBSIM_TIME_NEVER);
}

uint64_t wbsim_sim_run_while_not(wbsim_sim *sim, wbsim_stop_fn stop, void *arg)
{
	uint64_t start = sim->processed;

	sim->stop = FALSE;
	while (!sim->stop && sim->queue.len) {
		if (run_one(sim) && stop(sim, arg))
			break;
	}
	return sim->processed - start;
}

void wbsim_sim_stop(wbsim_sim *sim)
{
	sim->stop = TRUE;
}

void wbsim_sim_set_stop_flag(wbsim_sim *sim, const volatile sig_atomic_t *flag)
{
	sim->stop_flag = flag;
}

gboolean wbsim_sim_interrupted(const wbsim_sim *sim)
{
	return sim->interrupted;
}

size_t wbsim_sim_pending(const wbsim_sim *sim)
{
	return sim->queue.len - sim->queue.stale - sim->queue.top_taken + sim->deferred;
}

uint64_t wbsim_sim_events_processed(const wbsim_sim *sim)
{
	return sim->processed;
}

uint64_t wbsim_sim_past_schedules(const wbsim_sim *sim)
{
	return sim->past_schedules;
}
