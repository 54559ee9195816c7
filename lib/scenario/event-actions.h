/* SPDX-License-Identifier: MIT */
/*
 * scenario/event-actions.h - the table of [events] actions ("[events] at =
 * TIME ACTION [ARGS]"), as the scenario loader sees it: it looks an action
 * up and parses its arguments once, when the line is read
 * (scenario/event-actions.c). The runner fires each action's handler by
 * its id (run/events.c): the scenario calls nothing of lib/run.
 */
#ifndef WBSIM_SCENARIO_EVENT_ACTIONS_H
#define WBSIM_SCENARIO_EVENT_ACTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include <wbsim/sim.h>

/* What an action does besides its handler, for the checks at load. */
enum wbsim_event_flags {
	WBSIM_EVENT_START_ALL = 1u << 0,	/* sync(2): wake every flusher first */
	WBSIM_EVENT_CGROUP = 1u << 1,		/* a cgroup action: struct wbsim_cgroup_event */
	WBSIM_EVENT_CONTEXTS = 1u << 2,		/* changes the number of wb contexts */
};

/* The actions, one handler each in the runner (run/events.c). */
enum wbsim_event_action_id {
	WBSIM_EVENT_ACTION_SYNCFS,
	WBSIM_EVENT_ACTION_SYNC,
	WBSIM_EVENT_ACTION_UMOUNT,
	WBSIM_EVENT_ACTION_CONTEXTS,
	WBSIM_EVENT_ACTION_CGROUP_CREATE,
	WBSIM_EVENT_ACTION_CGROUP_SET,
	WBSIM_EVENT_ACTION_CGROUP_MOVE,
	WBSIM_EVENT_ACTION_CGROUP_REMOVE,
	WBSIM_EVENT_ACTION_CGROUP_IO_DISABLE,
	WBSIM_EVENT_ACTION_CGROUP_IO_ENABLE,
	WBSIM_EVENT_ACTION_NR
};

/**
 * struct wbsim_event_action - one action of [events]
 * @name: as written in the scenario
 * @id: which it is: the runner's handler is its id's
 * @args: what ARGS must be, for messages; NULL: the action takes none
 * @parse: @args into *@parsed (free with @free); the error message is the
 *	reason ("expected ..."); NULL when the action takes no arguments
 * @free: frees what @parse made
 * @flags: enum wbsim_event_flags
 */
struct wbsim_event_action {
	const char *name;
	enum wbsim_event_action_id id;
	const char *args;
	gboolean (*parse)(const char *args, void **parsed, GError **error);
	void (*free)(void *parsed);
	unsigned int flags;
};

/* The row of the action @name, or NULL. */
const struct wbsim_event_action *wbsim_event_action_lookup(const char *name);

/* The actions' names, NULL-terminated, in table order. */
const char *const *wbsim_event_action_names(void);

/**
 * struct wbsim_cgroup_event - the parsed arguments of a cgroup-* event
 * @path: the cgroup ("/e7/a"; "/" only for cgroup-move)
 * @job: cgroup-move: the fio job name, else NULL
 * @max_bytes: memory.max (UINT64_MAX: max) when @set_max
 * @high_bytes: memory.high (UINT64_MAX: max) when @set_high
 * @set_max: memory.max=... was given
 * @set_high: memory.high=... was given
 */
struct wbsim_cgroup_event {
	char *path;
	char *job;
	uint64_t max_bytes;
	uint64_t high_bytes;
	bool set_max;
	bool set_high;
};

/* Free what a cgroup event's arguments hold, and zero @cg. */
void wbsim_cgroup_event_clear(struct wbsim_cgroup_event *cg);

/* The parsed arguments of a contexts event: "contexts N [quiesce|freeze]". */
struct wbsim_contexts_event {
	unsigned int nr;
	gboolean freeze;
};

/* The number of contexts a contexts event's parsed arguments set. */
unsigned int wbsim_contexts_event_nr(const void *args);

#endif /* WBSIM_SCENARIO_EVENT_ACTIONS_H */
