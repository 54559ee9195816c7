/* SPDX-License-Identifier: MIT */
/*
 * writeback-trace.c - writeback tracepoints in the kernel's text format (see
 * report/trace.h). Rates are printed in KB/s and times in ms, as the
 * kernel's TP_printk does with KBps() and jiffies_to_msecs().
 */
#include <inttypes.h>
#include <string.h>
#include <wbsim/error.h>
#include "mm/memcontrol.h"
#include "fs/writeback-trace.h"

/* The task whose context an event is emitted in: a flusher for work
 * events, the dirtier for balance_dirty_pages. pid: a stable number. */
/* Every event this file emits (a name given to the API is checked against it). */
const char *const wbsim_trace_event_names[] = {
	"writeback_queue", "writeback_exec", "writeback_start", "writeback_written",
	"writeback_queue_io", "writeback_wake_background", "bdi_dirty_ratelimit",
	"balance_dirty_pages", "global_dirty_state", NULL
};

/* The kernel's trace system of every event here (include/trace/events/writeback.h). */
#define TRACE_SYSTEM "writeback"

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
	GPtrArray *out = g_ptr_array_new();

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
				    "--trace-events %s: '%s' matches no tracepoint: expected "
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

static void trace_line(struct wbsim_bdi *bdi, const wbsim_task *task, const char *event,
		       const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static void trace_line(struct wbsim_bdi *bdi, const wbsim_task *task, const char *event,
		       const char *fmt, ...)
{
	struct wbsim_trace *tr = bdi->trace;
	wbsim_time_t now = wbsim_sim_now(bdi->sim);
	va_list ap;
	const char *comm = task && task->name ? task->name : "<idle>";
	unsigned int pid = task ? task->pid : 0;
	int cpu = task ? (task->cpu >= 0 ? task->cpu : (int)task->last_cpu) : 0;

	if (!tr->buf)
		tr->buf = g_string_sized_new(256);
	g_string_printf(tr->buf, "%16.16s-%-7u [%03d] ..... %5" PRIu64 ".%06" PRIu64 ": %s: ",
			comm, pid, cpu, now / WBSIM_NSEC_PER_SEC,
			(now % WBSIM_NSEC_PER_SEC) / WBSIM_NSEC_PER_USEC, event);
	va_start(ap, fmt);
	g_string_append_vprintf(tr->buf, fmt, ap);
	va_end(ap);
	tr->emit(tr->arg, tr->buf->str);
}

/* cgroup_ino=: the inode number of the wb's memcg (1: the root) */
static unsigned long ino(const struct wbsim_wb *wb)
{
	return wbsim_memcg_ino(wb->memcg);
}

void wbsim_trace_writeback_work(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				const char *event)
{
	if (!wb->bdi->trace)
		return;
	trace_line(wb->bdi, &wb->flusher, event,
		   "bdi %s: sb_dev 0:0 nr_pages=%" PRId64 " sync_mode=%d kupdate=%d "
		   "range_cyclic=%d background=%d reason=%s cgroup_ino=%lu",
		   wb->bdi->name, work->nr_pages, (int)work->sync_mode, work->for_kupdate,
		   work->range_cyclic, work->for_background, wbsim_wb_reason_name(work->reason), ino(wb));
}

void wbsim_trace_writeback_queue_io(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				    int64_t cutoff, uint64_t moved)
{
	struct wbsim_vm *vm = wb->bdi->vm;
	wbsim_time_t now = wbsim_sim_now(wb->bdi->sim);

	if (!wb->bdi->trace)
		return;
	trace_line(wb->bdi, &wb->flusher, "writeback_queue_io",
		   "bdi %s: older=%" PRIu64 " age=%" PRId64 " enqueue=%" PRIu64 " reason=%s cgroup_ino=%lu",
		   wb->bdi->name,
		   wbsim_initial_jiffies(vm) + (uint64_t)(cutoff >= 0 ? cutoff / (int64_t)vm->jiffy_ns
								     : -((-cutoff + (int64_t)vm->jiffy_ns - 1) /
									 (int64_t)vm->jiffy_ns)),
		   (int64_t)((int64_t)now - cutoff) / (int64_t)WBSIM_NSEC_PER_MSEC, moved,
		   wbsim_wb_reason_name(work->reason), ino(wb));
}

void wbsim_trace_writeback_wake_background(struct wbsim_wb *wb, const wbsim_task *task)
{
	if (!wb->bdi->trace)
		return;
	trace_line(wb->bdi, task, "writeback_wake_background", "bdi %s: cgroup_ino=%lu",
		   wb->bdi->name, ino(wb));
}

void wbsim_trace_bdi_dirty_ratelimit(struct wbsim_wb *wb, const wbsim_task *task,
				     const struct wbsim_bdi_dirty_ratelimit_trace *t)
{
	if (!wb->bdi->trace)
		return;
	trace_line(wb->bdi, task, "bdi_dirty_ratelimit",
		   "bdi %s: write_bw=%" PRIu64 " awrite_bw=%" PRIu64 " dirty_rate=%" PRIu64
		   " dirty_ratelimit=%" PRIu64 " task_ratelimit=%" PRIu64
		   " balanced_dirty_ratelimit=%" PRIu64 " cgroup_ino=%lu",
		   wb->bdi->name, t->write_bw, t->avg_write_bw, t->dirty_rate,
		   t->dirty_ratelimit, t->task_ratelimit, t->balanced_dirty_ratelimit, ino(wb));
}

void wbsim_trace_balance_dirty_pages(struct wbsim_wb *wb, const wbsim_task *task,
				     const struct wbsim_bdp_trace *t)
{
	if (!wb->bdi->trace)
		return;
	trace_line(wb->bdi, task, "balance_dirty_pages",
		   "bdi %s: limit=%" PRIu64 " setpoint=%" PRIu64 " dirty=%" PRIu64
		   " wb_setpoint=%" PRIu64 " wb_dirty=%" PRIu64 " dirty_ratelimit=%" PRIu64
		   " task_ratelimit=%" PRIu64 " dirtied=%" PRIu64 " dirtied_pause=%" PRIu64
		   " paused=%" PRIu64 " pause=%" PRId64 " period=%" PRIu64 " think=%" PRId64
		   " cgroup_ino=%lu",
		   wb->bdi->name, t->limit, t->setpoint, t->dirty, t->wb_setpoint, t->wb_dirty,
		   t->dirty_ratelimit, t->task_ratelimit, t->dirtied, t->dirtied_pause,
		   t->paused, t->pause, t->period, t->think, ino(wb));
}

void wbsim_trace_global_dirty_state(struct wbsim_bdi *bdi, const wbsim_task *task,
				    uint64_t bg_thresh, uint64_t thresh)
{
	struct wbsim_vm *vm = bdi->vm;

	if (!bdi->trace)
		return;
	trace_line(bdi, task, "global_dirty_state",
		   "dirty=%" PRIu64 " writeback=%" PRIu64 " bg_thresh=%" PRIu64
		   " thresh=%" PRIu64 " limit=%" PRIu64 " dirtied=%" PRIu64 " written=%" PRIu64,
		   vm->nr_file_dirty, vm->nr_writeback, bg_thresh, thresh, vm->dom.dirty_limit,
		   vm->nr_dirtied, vm->nr_written);
}
