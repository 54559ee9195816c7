/* SPDX-License-Identifier: MIT */
/* test-event-queue.c - ordering, ties, run limits and a randomized
 * comparison of the event queue against a sorted reference. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>
#include <wbsim/sim.h>
#include "core/event-fifo.h"
#include "core/sim-private.h"
#include "core/sim.h"

struct log {
	GArray *ids;	/* int */
	GArray *times;	/* wbsim_time_t */
};

struct tagged {
	struct log *log;
	int id;
};

static void record(wbsim_sim *sim, void *arg)
{
	struct tagged *t = arg;
	wbsim_time_t now = wbsim_sim_now(sim);

	g_array_append_val(t->log->ids, t->id);
	g_array_append_val(t->log->times, now);
}

static void log_init(struct log *log)
{
	log->ids = g_array_new(FALSE, FALSE, sizeof(int));
	log->times = g_array_new(FALSE, FALSE, sizeof(wbsim_time_t));
}

static void log_clear(struct log *log)
{
	g_array_free(log->ids, TRUE);
	g_array_free(log->times, TRUE);
}

static void test_order_and_ties(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	struct log log;
	struct tagged t[6];
	const wbsim_time_t when[6] = { 50, 10, 50, 10, 30, 50 };
	const int expect[6] = { 1, 3, 4, 0, 2, 5 };

	log_init(&log);
	for (int i = 0; i < 6; i++) {
		t[i] = (struct tagged){ &log, i };
		wbsim_sim_schedule_at(sim, when[i], record, &t[i]);
	}
	assert_int_equal(wbsim_sim_pending(sim), 6);
	assert_int_equal(wbsim_sim_run(sim), 6);
	assert_int_equal(log.ids->len, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(g_array_index(log.ids, int, i), expect[i]);
	assert_int_equal(wbsim_sim_now(sim), 50);
	assert_int_equal(wbsim_sim_pending(sim), 0);
	log_clear(&log);
	wbsim_sim_free(sim);
}

static void test_run_until_advances_clock(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	struct log log;
	struct tagged a, b;

	log_init(&log);
	a = (struct tagged){ &log, 1 };
	b = (struct tagged){ &log, 2 };
	wbsim_sim_schedule_at(sim, 100, record, &a);
	wbsim_sim_schedule_at(sim, 200, record, &b);
	assert_int_equal(wbsim_sim_run_until(sim, 150), 1);
	assert_int_equal(wbsim_sim_now(sim), 150);
	/* An event exactly at the limit runs. */
	assert_int_equal(wbsim_sim_run_until(sim, 200), 1);
	assert_int_equal(wbsim_sim_now(sim), 200);
	wbsim_sim_schedule_after(sim, 5, record, &a);
	assert_int_equal(wbsim_sim_run(sim), 1);
	assert_int_equal(g_array_index(log.times, wbsim_time_t, 2), 205);
	log_clear(&log);
	wbsim_sim_free(sim);
}

static void schedule_in_past(wbsim_sim *sim, void *arg)
{
	wbsim_sim_schedule_at(sim, 10, record, arg);
}

static void test_past_schedule_is_counted(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	struct log log;
	struct tagged a;

	log_init(&log);
	a = (struct tagged){ &log, 7 };
	wbsim_sim_schedule_at(sim, 100, schedule_in_past, &a);
	wbsim_sim_run(sim);
	assert_int_equal(wbsim_sim_past_schedules(sim), 1);
	assert_int_equal(g_array_index(log.times, wbsim_time_t, 0), 100);
	log_clear(&log);
	wbsim_sim_free(sim);
}

static int stop_after;

static gboolean stop_when_count(wbsim_sim *sim, void *arg)
{
	struct log *log = arg;

	return (int)log->ids->len >= stop_after;
}

static void test_stop_condition(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	struct log log;
	struct tagged t[5];

	log_init(&log);
	for (int i = 0; i < 5; i++) {
		t[i] = (struct tagged){ &log, i };
		wbsim_sim_schedule_at(sim, (wbsim_time_t)(i + 1) * 10, record, &t[i]);
	}
	stop_after = 3;
	assert_int_equal(wbsim_sim_run_while_not(sim, stop_when_count, &log), 3);
	assert_int_equal(wbsim_sim_now(sim), 30);
	assert_int_equal(wbsim_sim_pending(sim), 2);
	log_clear(&log);
	wbsim_sim_free(sim);
}

/* Randomized: 10^5 push/pop operations on the queue against a reference
 * kept as a sorted array of (time, seq). Times come from a small range so
 * that ties are frequent. */
static int ref_cmp(const void *a, const void *b)
{
	const struct wbsim_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static void test_randomized_against_reference(void **state)
{
	struct wbsim_event_queue q;
	GArray *ref = g_array_new(FALSE, FALSE, sizeof(struct wbsim_event));
	wbsim_rng rng;
	uint64_t seq = 0;
	unsigned int pops = 0;

	wbsim_event_queue_init(&q);
	wbsim_rng_seed(&rng, 12345);
	for (int op = 0; op < 100000; op++) {
		if (wbsim_rng_below(&rng, 5) < 3 || ref->len == 0) {
			struct wbsim_event ev = {
				.time = wbsim_rng_below(&rng, 512),
				.seq = ++seq,
				.fn = NULL,
				.arg = NULL,
			};
			guint lo = 0, hi = ref->len;

			wbsim_event_queue_push(&q, &ev);
			/* Insert into the reference at its sorted place. */
			while (lo < hi) {
				guint mid = (lo + hi) / 2;

				if (ref_cmp(&g_array_index(ref, struct wbsim_event, mid), &ev) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			g_array_insert_val(ref, lo, ev);
		} else {
			struct wbsim_event got, want = g_array_index(ref, struct wbsim_event, 0);

			wbsim_event_queue_pop(&q, &got);
			g_array_remove_index(ref, 0);
			assert_int_equal(got.time, want.time);
			assert_int_equal(got.seq, want.seq);
			pops++;
		}
		assert_int_equal(q.len, ref->len);
	}
	while (ref->len) {
		struct wbsim_event got, want = g_array_index(ref, struct wbsim_event, 0);

		wbsim_event_queue_pop(&q, &got);
		g_array_remove_index(ref, 0);
		assert_int_equal(got.seq, want.seq);
		pops++;
	}
	assert_int_equal(pops, seq);
	assert_true(pops > 60000);
	g_array_free(ref, TRUE);
	wbsim_event_queue_clear(&q);
}

/* Insert @ev into the sorted reference. */
static void ref_insert(GArray *ref, const struct wbsim_event *ev)
{
	guint lo = 0, hi = ref->len;

	while (lo < hi) {
		guint mid = (lo + hi) / 2;

		if (ref_cmp(&g_array_index(ref, struct wbsim_event, mid), ev) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	g_array_insert_val(ref, lo, *ev);
}

/*
 * Randomized: the simulator's lazy pop (take, then 0 to 3 pushes, the
 * first of which fills the taken slot, then settle), mixed with plain
 * pops and pushes, against the sorted reference: every entry comes out in
 * (time, seq) order, whatever its time against the taken one's.
 */
static void test_take_settle_against_reference(void **state)
{
	struct wbsim_event_queue q;
	GArray *ref = g_array_new(FALSE, FALSE, sizeof(struct wbsim_event));
	wbsim_rng rng;
	uint64_t seq = 0, now = 0;
	unsigned int taken = 0, filled = 0;

	(void)state;
	wbsim_event_queue_init(&q);
	wbsim_rng_seed(&rng, 19);
	for (int op = 0; op < 100000; op++) {
		unsigned int kind = (unsigned int)wbsim_rng_below(&rng, 8);

		if (ref->len == 0 || kind == 0) {
			struct wbsim_event ev = { .time = now + wbsim_rng_below(&rng, 300),
						  .seq = ++seq };

			wbsim_event_queue_push(&q, &ev);
			ref_insert(ref, &ev);
		} else {
			struct wbsim_event got, want = g_array_index(ref, struct wbsim_event, 0);
			unsigned int pushes = (unsigned int)wbsim_rng_below(&rng, 4);

			if (kind == 1) {
				wbsim_event_queue_pop(&q, &got);
				pushes = 0;
			} else {
				wbsim_event_queue_take(&q, &got);
				taken++;
			}
			g_array_remove_index(ref, 0);
			assert_int_equal(got.time, want.time);
			assert_int_equal(got.seq, want.seq);
			now = got.time;
			filled += kind != 1 && pushes;
			for (unsigned int k = 0; k < pushes; k++) {
				/* mostly soon after, sometimes at the same time */
				struct wbsim_event ev = { .time = now + wbsim_rng_below(&rng, 40),
							  .seq = ++seq };

				wbsim_event_queue_push(&q, &ev);
				ref_insert(ref, &ev);
			}
			wbsim_event_queue_settle(&q);
		}
		assert_int_equal(q.len, ref->len);
		assert_int_equal(q.top_taken, 0);
	}
	while (ref->len) {
		struct wbsim_event got, want = g_array_index(ref, struct wbsim_event, 0);

		wbsim_event_queue_pop(&q, &got);
		g_array_remove_index(ref, 0);
		assert_int_equal(got.seq, want.seq);
	}
	assert_int_equal(q.len, 0);
	assert_true(taken > 50000 && filled > 30000 && filled < taken);
	g_array_free(ref, TRUE);
	wbsim_event_queue_clear(&q);
}


/*
 * A world of chained events, run twice: once with the events of four
 * sources scheduled through a wbsim_event_fifo each (in time order within
 * a source, with one in ten out of order to take the fallback), once with
 * everything through wbsim_sim_schedule_at(). Every event schedules up to
 * three more from draws of its own generator; the two runs draw the same
 * numbers only while they run the same events in the same order, so the
 * logs of ids and times must be equal, and so must the event counts and
 * the pending counts along the way.
 */
#define FIFO_SOURCES 4
#define FIFO_EVENTS 20000

struct fifo_world {
	wbsim_sim *sim;
	gboolean use_fifo;
	struct wbsim_event_fifo fifo[FIFO_SOURCES];
	wbsim_time_t last[FIFO_SOURCES];
	wbsim_rng rng;
	GPtrArray *events;	/* struct fifo_ev *, owned */
	GArray *ids, *times, *pending;
	int next_id;
};

struct fifo_ev {
	struct fifo_world *w;
	int id;
};

static void fifo_world_event(wbsim_sim *sim, void *arg);

static void fifo_world_spawn(struct fifo_world *w)
{
	struct fifo_ev *e = g_new(struct fifo_ev, 1);
	wbsim_time_t now = wbsim_sim_now(w->sim);
	uint64_t src = wbsim_rng_below(&w->rng, FIFO_SOURCES + 1);
	wbsim_time_t d = wbsim_rng_below(&w->rng, 100), when;

	*e = (struct fifo_ev){ w, w->next_id++ };
	g_ptr_array_add(w->events, e);
	if (src == FIFO_SOURCES) {
		/* a plain event; a tenth at the current time */
		when = wbsim_rng_below(&w->rng, 10) ? now + d : now;
		wbsim_sim_schedule_at(w->sim, when, fifo_world_event, e);
		return;
	}
	/* a source's event: after its last one, or a tenth of them anywhere */
	if (wbsim_rng_below(&w->rng, 10))
		when = MAX(w->last[src], now) + d;
	else
		when = now + d;
	w->last[src] = MAX(w->last[src], when);
	if (w->use_fifo)
		wbsim_event_fifo_schedule_at(&w->fifo[src], when, fifo_world_event, e);
	else
		wbsim_sim_schedule_at(w->sim, when, fifo_world_event, e);
}

static void fifo_world_event(wbsim_sim *sim, void *arg)
{
	struct fifo_ev *e = arg;
	struct fifo_world *w = e->w;
	wbsim_time_t now = wbsim_sim_now(sim);
	size_t pending = wbsim_sim_pending(sim);
	uint64_t n = wbsim_rng_below(&w->rng, 4);

	g_array_append_val(w->ids, e->id);
	g_array_append_val(w->times, now);
	g_array_append_val(w->pending, pending);
	for (uint64_t i = 0; i < n && w->next_id < FIFO_EVENTS; i++)
		fifo_world_spawn(w);
}

static void fifo_world_run(struct fifo_world *w, gboolean use_fifo)
{
	*w = (struct fifo_world){ .use_fifo = use_fifo };
	w->sim = wbsim_sim_new(1);
	wbsim_rng_seed(&w->rng, 42);
	for (int i = 0; i < FIFO_SOURCES; i++)
		wbsim_event_fifo_init(&w->fifo[i], w->sim);
	w->events = g_ptr_array_new_with_free_func(g_free);
	w->ids = g_array_new(FALSE, FALSE, sizeof(int));
	w->times = g_array_new(FALSE, FALSE, sizeof(wbsim_time_t));
	w->pending = g_array_new(FALSE, FALSE, sizeof(size_t));
	for (int i = 0; i < 50; i++)
		fifo_world_spawn(w);
	assert_int_equal(wbsim_sim_pending(w->sim), 50);
	wbsim_sim_run(w->sim);
	assert_int_equal(wbsim_sim_pending(w->sim), 0);
}

static void fifo_world_free(struct fifo_world *w)
{
	for (int i = 0; i < FIFO_SOURCES; i++)
		wbsim_event_fifo_clear(&w->fifo[i]);
	wbsim_sim_free(w->sim);
	g_ptr_array_free(w->events, TRUE);
	g_array_free(w->ids, TRUE);
	g_array_free(w->times, TRUE);
	g_array_free(w->pending, TRUE);
}

static void test_fifo_same_order_as_heap(void **state)
{
	struct fifo_world a, b;
	gboolean deferred = FALSE;

	fifo_world_run(&a, TRUE);
	fifo_world_run(&b, FALSE);
	assert_int_equal(a.ids->len, FIFO_EVENTS);
	assert_int_equal(b.ids->len, FIFO_EVENTS);
	assert_int_equal(wbsim_sim_events_processed(a.sim), wbsim_sim_events_processed(b.sim));
	assert_memory_equal(a.ids->data, b.ids->data, FIFO_EVENTS * sizeof(int));
	assert_memory_equal(a.times->data, b.times->data, FIFO_EVENTS * sizeof(wbsim_time_t));
	assert_memory_equal(a.pending->data, b.pending->data, FIFO_EVENTS * sizeof(size_t));
	/* the FIFOs did hold events back from the heap */
	for (int i = 0; i < FIFO_SOURCES; i++)
		deferred |= a.fifo[i].cap > 0;
	assert_true(deferred);
	assert_true(a.sim->queue.cap <= b.sim->queue.cap);
	fifo_world_free(&a);
	fifo_world_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_ties),
		cmocka_unit_test(test_run_until_advances_clock),
		cmocka_unit_test(test_past_schedule_is_counted),
		cmocka_unit_test(test_stop_condition),
		cmocka_unit_test(test_randomized_against_reference),
		cmocka_unit_test(test_take_settle_against_reference),
		cmocka_unit_test(test_fifo_same_order_as_heap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
