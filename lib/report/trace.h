/* SPDX-License-Identifier: MIT */
/*
 * report/trace.h - writeback tracepoints, laid out as the kernel's
 * include/trace/events/writeback.h prints them (format of Linux 6.x: wb_*
 * field names, cgroup_ino=), in ftrace's text format:
 *
 *   <comm>-<pid> [<cpu>] ..... <secs>.<usecs>: <event>: <fields>
 *
 * with simulated comm/pid/cpu columns that are stable across runs.
 */
#ifndef WBSIM_REPORT_TRACE_H
#define WBSIM_REPORT_TRACE_H

#include "fs/writeback.h"
#include "mm/bandwidth.h"
#include "mm/throttle.h"
#include "report/trace-format.h"

/**
 * struct wbsim_trace - where trace events go
 * @emit: called with each complete text line (no newline), or NULL
 * @record: called with each event's binary record (report/trace-format.h:
 *	what the kernel's ring buffer holds) and the emitting task's CPU, pid
 *	and comm, or NULL
 * @arg: their argument
 */
struct wbsim_trace {
	void (*emit)(void *arg, const char *line);
	void (*record)(void *arg, enum wbsim_trace_event ev, wbsim_time_t now, unsigned int cpu,
		       unsigned int pid, const char *comm, const void *rec, size_t size);
	void *arg;
	GString *buf;
};

/* @ev: writeback_queue, _exec, _start or _written (writeback_work_class) */
void wbsim_trace_writeback_work(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				enum wbsim_trace_event ev);
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
extern const char *const wbsim_trace_event_names[WBSIM_TRACE_NR_EVENTS + 1];

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
