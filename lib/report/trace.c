/* SPDX-License-Identifier: MIT */
/*
 * trace.c - where the writeback tracepoints go (see report/trace.h): the
 * record each event's fill hands over (fs/fs-writeback-trace.c,
 * mm/page-writeback-trace.c) and its line in the kernel's text format,
 * the text trace's header, and the event names and selection.
 */
#include <inttypes.h>
#include <string.h>
#include <wbsim/error.h>
#include "report/trace.h"
#include "report/trace-format.h"

/* Every event this file emits (a name given to the API is checked against it). */
#define EVENT_NAME(id, name, class) [WBSIM_TRACE_##id] = #name,
const char *const wbsim_trace_event_names[WBSIM_TRACE_NR_EVENTS + 1] = {
	WBSIM_TRACE_EVENTS(EVENT_NAME)
	[WBSIM_TRACE_NR_EVENTS] = NULL
};

/* The kernel's trace system of every event here (include/trace/events/writeback.h). */
#define TRACE_SYSTEM WBSIM_TRACE_SYSTEM

gboolean wbsim_trace_line_event(const char *line, char *event, size_t size)
{
	const char *start = strstr(line, ": ");
	size_t len;

	if (!start || !size)
		return FALSE;
	start += 2;
	len = strcspn(start, ":");
	if (len >= size)
		len = size - 1;
	memcpy(event, start, len);
	event[len] = '\0';
	return TRUE;
}

char **wbsim_trace_select_events(const char *list, GError **error)
{
	g_auto(GStrv) items = g_strsplit(list, ",", -1);
	gboolean chosen[G_N_ELEMENTS(wbsim_trace_event_names)] = { FALSE };
	GPtrArray *out;

	/* g_pattern_match_simple() asserts on bytes that are not UTF-8 (an
	 * abort the fuzz target found); they are not quoted back either */
	if (!g_utf8_validate(list, -1, NULL)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "trace event list: not UTF-8 text: expected "
			    TRACE_SYSTEM ", " TRACE_SYSTEM ":EVENT or EVENT, comma-separated");
		return NULL;
	}
	/* nothing at all selects nothing: a mistake, not a trace of no events */
	if (!items[0]) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "trace event list '': an empty list selects no tracepoint: expected "
			    TRACE_SYSTEM " (every event), " TRACE_SYSTEM ":EVENT or EVENT, comma-separated");
		return NULL;
	}
	out = g_ptr_array_new();
	for (char **it = items; *it; it++) {
		const char *item = g_strstrip(*it), *ev = item, *colon = strchr(item, ':');
		g_autofree char *sys = colon ? g_strndup(item, (gsize)(colon - item)) : NULL;
		gboolean any = FALSE;

		if (colon)
			ev = colon + 1;
		for (size_t i = 0; wbsim_trace_event_names[i]; i++) {
			const char *name = wbsim_trace_event_names[i];
			gboolean hit;

			if (colon)	/* SYSTEM:EVENT */
				hit = g_pattern_match_simple(sys, TRACE_SYSTEM) &&
				      g_pattern_match_simple(ev, name);
			else		/* a system, or an event of any system */
				hit = g_pattern_match_simple(item, TRACE_SYSTEM) ||
				      g_pattern_match_simple(item, name);
			if (hit) {
				chosen[i] = TRUE;
				any = TRUE;
			}
		}
		if (!any) {
			g_autofree char *known = g_strjoinv(", ", (char **)wbsim_trace_event_names);

			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "trace event list %s: '%s' matches no tracepoint: expected "
				    TRACE_SYSTEM ", " TRACE_SYSTEM ":EVENT or EVENT (globs allowed), EVENT one of %s",
				    list, item, known);
			g_ptr_array_free(out, TRUE);
			return NULL;
		}
	}
	for (size_t i = 0; wbsim_trace_event_names[i]; i++)
		if (chosen[i])
			g_ptr_array_add(out, g_strdup(wbsim_trace_event_names[i]));
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

void wbsim_trace_text_header(GString *s, uint64_t entries, unsigned int cpus)
{
	/* s_show()'s "# tracer:" lines, print_event_info() and
	 * print_func_help_header_irq() (the irq-info option, on by default) */
	g_string_append_printf(s,
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64 "   #P:%u\n"
		"#\n"
		"#                                _-----=> irqs-off/BH-disabled\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| / _-=> migrate-disable\n"
		"#                              |||| /     delay\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n",
		entries, entries, cpus);
}

#define TRACE_FLAG_IRQS_OFF 0x01	/* enum trace_flag_type */

void wbsim_trace_event(struct wbsim_trace *tr, const struct wbsim_trace_clock *clock,
		       const wbsim_task *task, enum wbsim_trace_event ev, unsigned int ctx,
		       void *rec, size_t size)
{
	wbsim_time_t now = clock->now;
	const char *comm = task && task->name ? task->name : "<idle>";
	unsigned int pid = task ? task->pid : 0;
	int cpu = task ? (task->cpu >= 0 ? task->cpu : (int)task->last_cpu) : 0;
	struct wbsim_trace_entry *ent = rec;
	gboolean irqs_off = (ctx >> 8) != 0;
	unsigned int depth = ctx & 0xf;
	/* ns2usecs(): rounded to the microsecond (+500 ns), as ftrace prints */
	uint64_t usecs = (now + WBSIM_NSEC_PER_USEC / 2) / WBSIM_NSEC_PER_USEC;

	g_return_if_fail(size == wbsim_trace_event_size(ev));
	if (tr->record) {
		*ent = (struct wbsim_trace_entry){
			.type = wbsim_trace_event_id(ev),
			.flags = irqs_off ? TRACE_FLAG_IRQS_OFF : 0,
			.preempt_count = (uint8_t)depth,
			.pid = (int32_t)pid,
		};
		tr->record(tr->arg, ev, now, (unsigned int)cpu, pid, comm, rec, size);
	}
	if (!tr->emit)
		return;
	if (!tr->buf)
		tr->buf = g_string_sized_new(256);
	/* irqs-off, need-resched (never: the model does not say), hardirq/
	 * softirq (none here), preempt depth in hex, migrate-disable */
	g_string_printf(tr->buf, "%16.16s-%-7u [%03d] %c..%c. %5" PRIu64 ".%06" PRIu64 ": %s: ",
			comm, pid, cpu, irqs_off ? 'd' : '.', depth ? "0123456789abcdef"[depth] : '.',
			usecs / G_USEC_PER_SEC, usecs % G_USEC_PER_SEC,
			wbsim_trace_event_names[ev]);
	wbsim_trace_event_text(tr->buf, ev, rec, clock->jiffies, clock->hz);
	tr->emit(tr->arg, tr->buf->str);
}
