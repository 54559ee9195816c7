/* SPDX-License-Identifier: MIT */
/*
 * bench-events - the classic hold model on the event queue.
 *
 * With N events pending, repeatedly take the earliest and schedule one at
 * now + an exponential increment (mean 1 us), so the queue size stays N.
 * Measured for the library's queue (through wbsim_sim_run: pop, dispatch
 * through a function pointer, handler reschedules) and, in the same run,
 * for a bare 4-ary heap written here as the baseline (pop and push of
 * (time, seq, payload) in a loop, same random draws). Prints million events
 * per second for each and the ratio. Wall-clock figures, so run on a quiet
 * machine; each figure is the best of several repetitions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <wbsim/sim.h>
#include "core/sim.h"

#define MEAN_NS 1000.0

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- library queue ---- */
struct hold_state {
	uint64_t budget;
	wbsim_rng rng;
};

static void hold_event(wbsim_sim *sim, void *arg)
{
	struct hold_state *st = arg;

	if (st->budget == 0)
		return;
	st->budget--;
	wbsim_sim_schedule_after(sim, (wbsim_time_t)wbsim_rng_exponential(&st->rng, MEAN_NS),
				 hold_event, st);
}

static double run_library(size_t n, uint64_t ops)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	struct hold_state st = { .budget = 0 };
	double t0, t1;

	wbsim_rng_seed(&st.rng, 99);
	for (size_t i = 0; i < n; i++)
		wbsim_sim_schedule_after(sim, (wbsim_time_t)wbsim_rng_exponential(&st.rng, MEAN_NS),
					 hold_event, &st);
	st.budget = ops;
	t0 = wall_seconds();
	/* Each run event reschedules one while the budget lasts. */
	while (st.budget > 0)
		wbsim_sim_run_until(sim, wbsim_sim_now(sim) + 100 * WBSIM_NSEC_PER_USEC);
	t1 = wall_seconds();
	wbsim_sim_free(sim);
	return ops / (t1 - t0) / 1e6;
}

/* ---- bare 4-ary heap baseline ---- */
struct bare_ev {
	uint64_t time, seq;
	void *payload;
};

static inline int bare_before(const struct bare_ev *a, const struct bare_ev *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void bare_push(struct bare_ev *h, size_t *len, struct bare_ev ev)
{
	size_t i = (*len)++;

	while (i > 0) {
		size_t p = (i - 1) / 4;

		if (!bare_before(&ev, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = ev;
}

static struct bare_ev bare_pop(struct bare_ev *h, size_t *len)
{
	struct bare_ev top = h[0], ev;
	size_t n = --(*len), i = 0;

	if (n == 0)
		return top;
	ev = h[n];
	for (;;) {
		size_t c = 4 * i + 1, best = c, end;

		if (c >= n)
			break;
		end = c + 4 < n ? c + 4 : n;
		for (size_t k = c + 1; k < end; k++)
			if (bare_before(&h[k], &h[best]))
				best = k;
		if (!bare_before(&h[best], &ev))
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = ev;
	return top;
}

static double run_bare(size_t n, uint64_t ops)
{
	struct bare_ev *h = malloc(sizeof(*h) * (n + 1));
	size_t len = 0;
	uint64_t seq = 0;
	wbsim_rng rng;
	double t0, t1;
	volatile uintptr_t sink = 0;

	wbsim_rng_seed(&rng, 99);
	for (size_t i = 0; i < n; i++)
		bare_push(h, &len, (struct bare_ev){
			(uint64_t)wbsim_rng_exponential(&rng, MEAN_NS), ++seq, NULL });
	t0 = wall_seconds();
	for (uint64_t k = 0; k < ops; k++) {
		struct bare_ev ev = bare_pop(h, &len);

		sink += (uintptr_t)ev.payload;
		bare_push(h, &len, (struct bare_ev){
			ev.time + (uint64_t)wbsim_rng_exponential(&rng, MEAN_NS), ++seq, NULL });
	}
	t1 = wall_seconds();
	free(h);
	return ops / (t1 - t0) / 1e6;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 1000, 10000, 100000 };
	const uint64_t ops = argc > 1 ? strtoull(argv[1], NULL, 10) : 5000000;
	const int reps = 5;

	printf("# hold model, %llu operations per run, best of %d runs\n",
	       (unsigned long long)ops, reps);
	printf("%10s %14s %14s %8s\n", "pending", "wbsim_Mev/s", "bare4heap_Mev/s", "ratio");
	for (size_t s = 0; s < G_N_ELEMENTS(sizes); s++) {
		double lib = 0, bare = 0;

		for (int r = 0; r < reps; r++) {
			double x = run_library(sizes[s], ops), y = run_bare(sizes[s], ops);

			lib = x > lib ? x : lib;
			bare = y > bare ? y : bare;
		}
		printf("%10zu %14.2f %14.2f %8.2f\n", sizes[s], lib, bare, lib / bare);
	}
	return 0;
}
