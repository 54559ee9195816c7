/* SPDX-License-Identifier: MIT */
/* sim-private.h - the simulation object, shared by the files of lib/core. */
#ifndef WBSIM_CORE_SIM_PRIVATE_H
#define WBSIM_CORE_SIM_PRIVATE_H

#include <signal.h>
#include <wbsim/sim.h>
#include "core/event-queue.h"

struct wbsim_sim {
	wbsim_time_t now;
	uint64_t next_seq;	/* starts at 1: armed_seq == 0 means "idle timer" */
	uint64_t processed;
	uint64_t past_schedules;
	gboolean stop;
	/* wbsim_sim_set_stop_flag(): polled before each event; once nonzero,
	 * wbsim_sim_run_until() returns at the time reached, @interrupted */
	const volatile sig_atomic_t *stop_flag;
	gboolean interrupted;
	unsigned int next_pid;	/* wbsim_sim_alloc_pid() */
	struct wbsim_event_queue queue;
	/* events held in a wbsim_event_fifo behind its head (not in @queue) */
	size_t deferred;
	wbsim_rng rng;
	/* Called after every event when set (the --check mode's invariant hook). */
	wbsim_event_fn after_event;
	void *after_event_arg;
	/* wbsim_sim_intern(): one copy of each name, freed with the sim */
	GHashTable *names;
};

/*
 * wbsim_sim_intern() - @name as a string the sim keeps until it is freed:
 * one copy for every lock of that name (each inode's i_rwsem), where
 * g_intern_string() would keep every distinct name (an ext4 group's) for
 * the life of the process.
 */
const char *wbsim_sim_intern(wbsim_sim *sim, const char *name);

/* A time scheduled in the past runs now, and is counted. */
static inline wbsim_time_t wbsim_sim_not_in_past(wbsim_sim *sim, wbsim_time_t when)
{
	if (G_UNLIKELY(when < sim->now)) {
		sim->past_schedules++;
		return sim->now;
	}
	return when;
}

/*
 * wbsim_sim_set_stop_flag() - a flag (a signal handler's, another
 * thread's; NULL: none) that wbsim_sim_run_until() reads before each
 * event: once it is nonzero, the run returns at once, at the simulated time
 * reached (not advanced to its limit), and wbsim_sim_interrupted() says so.
 */
void wbsim_sim_set_stop_flag(wbsim_sim *sim, const volatile sig_atomic_t *flag);

/* wbsim_sim_interrupted() - a run stopped by the stop flag */
gboolean wbsim_sim_interrupted(const wbsim_sim *sim);

/* Install (or remove, with fn == NULL) the after-every-event hook. */
void wbsim_sim_set_after_event_hook(wbsim_sim *sim, wbsim_event_fn fn, void *arg);

#endif
