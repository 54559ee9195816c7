/* SPDX-License-Identifier: MIT */
/*
 * fs/writeback-trace.h - writeback tracepoints, laid out as the kernel's
 * include/trace/events/writeback.h prints them (format of Linux 6.x: wb_*
 * field names, cgroup_ino=), in ftrace's text format:
 *
 *   <comm>-<pid> [<cpu>] ..... <secs>.<usecs>: <event>: <fields>
 *
 * with simulated comm/pid/cpu columns that are stable across runs.
 *
 * In lib/fs, as the kernel instantiates these tracepoints in
 * fs/fs-writeback.c: they read the bdi's and the throttle's structures,
 * and fs/ and mm/ emit them (in lib/report they made report a third
 * member of the fs <-> mm include circle).
 */
#ifndef WBSIM_REPORT_TRACE_H
#define WBSIM_REPORT_TRACE_H

#include "fs/writeback.h"
#include "mm/bandwidth.h"
#include "mm/throttle.h"

/**
 * struct wbsim_trace - where trace lines go
 * @emit: called with each complete line (no newline)
 * @arg: its argument
 */
struct wbsim_trace {
	void (*emit)(void *arg, const char *line);
	void *arg;
	GString *buf;
};

void wbsim_trace_writeback_work(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				const char *event);
void wbsim_trace_writeback_queue_io(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				    int64_t cutoff, uint64_t moved);
/* the next two are emitted from balance_dirty_pages(): in @task's context */
void wbsim_trace_writeback_wake_background(struct wbsim_wb *wb, const wbsim_task *task);
void wbsim_trace_bdi_dirty_ratelimit(struct wbsim_wb *wb, const wbsim_task *task,
				     const struct wbsim_bdi_dirty_ratelimit_trace *t);
void wbsim_trace_balance_dirty_pages(struct wbsim_wb *wb, const wbsim_task *task,
				     const struct wbsim_bdp_trace *t);
void wbsim_trace_global_dirty_state(struct wbsim_bdi *bdi, const wbsim_task *task,
				    uint64_t bg_thresh, uint64_t thresh);

/* The names of the events emitted, NULL-terminated. */
extern const char *const wbsim_trace_event_names[];

/*
 * wbsim_trace_line_event() - the event name of a trace line ("<comm>-<pid>
 * [<cpu>] ..... <secs>: <event>: <fields>"), the text between the first
 * ": " and the next ':', into @event (@size bytes, cut if longer).
 * Return: FALSE if @line has no event.
 */
gboolean wbsim_trace_line_event(const char *line, char *event, size_t size);

/*
 * wbsim_trace_select_events() - the events a trace-cmd record -e list
 * names: comma-separated items, each a system ("writeback": every event
 * here is one of its tracepoints), "SYSTEM:EVENT" or "EVENT", with '*'
 * and '?' globs as trace-cmd takes them.
 * Return: the event names (NULL-terminated, in wbsim_trace_event_names
 * order), or NULL with WBSIM_ERROR_INVALID_VALUE naming an item that
 * matches no event.
 */
char **wbsim_trace_select_events(const char *list, GError **error);

#endif
