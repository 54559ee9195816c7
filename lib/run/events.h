/* SPDX-License-Identifier: MIT */
/*
 * run/events.h - the timed events of a scenario ("[events] at = TIME ACTION
 * [ARGS]"): one row per action, {name, parse, fire}. The scenario loader
 * looks an action up and parses its arguments once, when the line is read
 * (an error names the line); the parsed arguments stay with the event, and
 * the runner fires the row's handler with them at TIME.
 */
#ifndef WBSIM_RUN_EVENTS_H
#define WBSIM_RUN_EVENTS_H

#include "scenario/event-actions.h"

struct wbsim_run;

/* -- the runner's side (events.c, for run.c) ----------------------------- */

/* Queue every [events] line of the run's scenario at its time. */
void wbsim_run_schedule_events(struct wbsim_run *run);

/* A job ended: the cgroup-remove events whose jobs have all exited go on. */
void wbsim_run_events_job_done(struct wbsim_run *run);

/*
 * Write every dirty page back now, as sync(2) does (@start_all: umount,
 * the remount of [measure]) or as fsync does (@start_all false), named @what in
 * the run's warnings; then call @then(@run, @moment), and count it among
 * the pending events until then.
 */
void wbsim_run_sync_then(struct wbsim_run *run, const char *what, bool start_all,
			 void (*then)(struct wbsim_run *run, const char *moment),
			 const char *moment);

/* Free the run's timed events that have not ended (a run its time limit stopped). */
void wbsim_timed_event_free(void *te);

#endif /* WBSIM_RUN_EVENTS_H */
