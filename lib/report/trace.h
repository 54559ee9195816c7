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
 * The events are declared once (defs/writeback-events.h, their records in
 * defs/writeback-trace.h); the model fills each record beside the code
 * that fires it (fs/fs-writeback-trace.c, mm/page-writeback-trace.c), as
 * the kernel's TP_fast_assign sits with fs/fs-writeback.c, and hands it to
 * wbsim_trace_event() here: this header is where the records and their
 * lines go (the kernel's ring buffer and trace file), and the event names
 * and selection.
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
 * The context an event is emitted in, where the model knows it: the
 * preempt depth (spinlocks held; a kernel with CONFIG_PREEMPT_COUNT, as
 * Debian's PREEMPT_DYNAMIC has) and whether interrupts are off. The
 * kernel records them in the entry (common_flags, common_preempt_count)
 * and prints them in the latency column, "d..1." (trace_print_lat_fmt()).
 */
#define WBSIM_TRACE_CTX(irqs_off, depth) ((irqs_off) << 8 | (depth))
#define WBSIM_TRACE_CTX_TASK WBSIM_TRACE_CTX(0, 0)	/* no lock held */
#define WBSIM_TRACE_CTX_LIST_LOCK WBSIM_TRACE_CTX(0, 1)	/* spin_lock(&wb->list_lock) */
/* xa_lock_irqsave(&mapping->i_pages) */
#define WBSIM_TRACE_CTX_XA_LOCK WBSIM_TRACE_CTX(1, 1)
/* inode_switch_wbs_work_fn(): both wbs' list_lock, then inode_do_switch_wbs()'s
 * i_lock and xa_lock_irq() */
#define WBSIM_TRACE_CTX_SWITCH WBSIM_TRACE_CTX(1, 4)

/**
 * struct wbsim_trace_clock - when an event happens
 * @now: the simulated time, the line's time stamp (rounded to the
 *	microsecond) and the record's
 * @jiffies: jiffies at @now, and @hz, for the text's age= ((jiffies -
 *	dirtied_when) / HZ)
 * @hz: the machine's HZ
 */
struct wbsim_trace_clock {
	wbsim_time_t now;
	uint64_t jiffies;
	unsigned int hz;
};

/*
 * wbsim_trace_event() - write one event (trace_event_buffer_commit()): @rec,
 * its record of @size bytes (the struct of its class, filled but for the
 * struct wbsim_trace_entry, filled here), to @tr->record, and its text
 * line, what the record's format file prints of it, to @tr->emit; emitted
 * in @task's context (NULL: the idle task) at @clock, @ctx one of
 * WBSIM_TRACE_CTX_*.
 */
void wbsim_trace_event(struct wbsim_trace *tr, const struct wbsim_trace_clock *clock,
		       const wbsim_task *task, enum wbsim_trace_event ev, unsigned int ctx,
		       void *rec, size_t size);

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
