/* SPDX-License-Identifier: MIT */
/*
 * report/trace.h - writeback tracepoints, laid out as the kernel's
 * include/trace/events/writeback.h prints them (format of Linux 6.x: wb_*
 * field names, cgroup_ino=), in ftrace's text format:
 *
 *   <comm>-<pid> [<cpu>] <flags> <secs>.<usecs>: <event>: <fields>
 *
 * with simulated comm/pid/cpu columns that are stable across runs, the
 * latency flags where the model knows them ("...1.": a spinlock held,
 * "d..1.": with interrupts off) and the time rounded to the microsecond
 * as ftrace's ns2usecs() rounds it.
 *
 * The tracepoints themselves, which lib/mm and lib/fs emit, are declared
 * in the neutral defs/writeback-trace.h; this header is where their lines
 * and records go, and the event names and selection.
 */
#ifndef WBSIM_REPORT_TRACE_H
#define WBSIM_REPORT_TRACE_H

#include <wbsim/sim.h>
#include "defs/writeback-trace.h"
#include "report/trace-format.h"

/**
 * struct wbsim_trace - where trace events go
 * @emit: called with each complete text line (no newline), or NULL
 * @record: called with each event's binary record (defs/writeback-trace.h:
 *	what the kernel's ring buffer holds) and the emitting task's CPU, pid
 *	and comm, or NULL
 * @arg: their argument
 * @buf: the line being written (free with the trace)
 */
struct wbsim_trace {
	void (*emit)(void *arg, const char *line);
	void (*record)(void *arg, enum wbsim_trace_event ev, wbsim_time_t now, unsigned int cpu,
		       unsigned int pid, const char *comm, const void *rec, size_t size);
	void *arg;
	GString *buf;
};

/*
 * wbsim_trace_text_header() - append the header ftrace's trace file starts
 * with (tracer nop, irq-info on), for @entries events of a machine of @cpus
 * CPUs ("# entries-in-buffer/entries-written: N/N   #P:C").
 */
void wbsim_trace_text_header(GString *s, uint64_t entries, unsigned int cpus);

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
