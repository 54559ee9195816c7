/* SPDX-License-Identifier: MIT */
/*
 * trace.c - writeback tracepoints in the kernel's text format (see
 * report/trace.h). Rates are printed in KB/s and times in ms, as the
 * kernel's TP_printk does with KBps() and jiffies_to_msecs().
 */
#include <inttypes.h>
#include <string.h>
#include <wbsim/error.h>
#include "fs/writeback.h"
#include "mm/memcontrol.h"
#include "report/trace.h"
#include "report/trace-format.h"

/* The task whose context an event is emitted in: a flusher for work
 * events, the dirtier for balance_dirty_pages. pid: a stable number. */
/* Every event this file emits (a name given to the API is checked against it). */
const char *const wbsim_trace_event_names[WBSIM_TRACE_NR_EVENTS + 1] = {
	[WBSIM_TRACE_WRITEBACK_QUEUE] = "writeback_queue",
	[WBSIM_TRACE_WRITEBACK_EXEC] = "writeback_exec",
	[WBSIM_TRACE_WRITEBACK_START] = "writeback_start",
	[WBSIM_TRACE_WRITEBACK_WRITTEN] = "writeback_written",
	[WBSIM_TRACE_WRITEBACK_QUEUE_IO] = "writeback_queue_io",
	[WBSIM_TRACE_WRITEBACK_WAKE_BACKGROUND] = "writeback_wake_background",
	[WBSIM_TRACE_BDI_DIRTY_RATELIMIT] = "bdi_dirty_ratelimit",
	[WBSIM_TRACE_BALANCE_DIRTY_PAGES] = "balance_dirty_pages",
	[WBSIM_TRACE_GLOBAL_DIRTY_STATE] = "global_dirty_state",
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

static void trace_event(struct wbsim_bdi *bdi, const wbsim_task *task, enum wbsim_trace_event ev,
			void *rec, size_t size, const char *fmt, ...) G_GNUC_PRINTF(6, 7);

/*
 * One event, emitted in @task's context (NULL: the idle task): @rec, the
 * binary record (its struct wbsim_trace_entry filled here), to @tr->record,
 * and the text line, @fmt printing the same fields as the record's format
 * file, to @tr->emit.
 */
static void trace_event(struct wbsim_bdi *bdi, const wbsim_task *task, enum wbsim_trace_event ev,
			void *rec, size_t size, const char *fmt, ...)
{
	struct wbsim_trace *tr = bdi->trace;
	wbsim_time_t now = wbsim_sim_now(bdi->sim);
	va_list ap;
	const char *comm = task && task->name ? task->name : "<idle>";
	unsigned int pid = task ? task->pid : 0;
	int cpu = task ? (task->cpu >= 0 ? task->cpu : (int)task->last_cpu) : 0;
	struct wbsim_trace_entry *ent = rec;

	if (tr->record) {
		*ent = (struct wbsim_trace_entry){ .type = wbsim_trace_event_id(ev), .pid = (int32_t)pid };
		tr->record(tr->arg, ev, now, (unsigned int)cpu, pid, comm, rec, size);
	}
	if (!tr->emit)
		return;
	if (!tr->buf)
		tr->buf = g_string_sized_new(256);
	g_string_printf(tr->buf, "%16.16s-%-7u [%03d] ..... %5" PRIu64 ".%06" PRIu64 ": %s: ",
			comm, pid, cpu, now / WBSIM_NSEC_PER_SEC,
			(now % WBSIM_NSEC_PER_SEC) / WBSIM_NSEC_PER_USEC, wbsim_trace_event_names[ev]);
	va_start(ap, fmt);
	g_string_append_vprintf(tr->buf, fmt, ap);
	va_end(ap);
	tr->emit(tr->arg, tr->buf->str);
}

/* the bdi's name in a record's char[32] (strscpy_pad: cut, zero-filled) */
static void copy_name(char dst[32], const char *name)
{
	g_strlcpy(dst, name, 32);
}

/* cgroup_ino=: the inode number of the wb's memcg (1: the root) */
static unsigned long ino(const struct wbsim_wb *wb)
{
	return wbsim_memcg_ino(wb->memcg);
}

void wbsim_trace_writeback_work(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				enum wbsim_trace_event ev)
{
	struct wbsim_trace_rec_work r = { 0 };

	if (!wb->bdi->trace)
		return;
	copy_name(r.name, wb->bdi->name);
	r.nr_pages = work->nr_pages;
	r.sb_dev = 0;
	r.sync_mode = (int32_t)work->sync_mode;
	r.for_kupdate = work->for_kupdate;
	r.range_cyclic = work->range_cyclic;
	r.for_background = work->for_background;
	r.reason = (int32_t)work->reason;
	r.cgroup_ino = ino(wb);
	trace_event(wb->bdi, &wb->flusher, ev, &r, sizeof(r),
		    "bdi %s: sb_dev %u:%u nr_pages=%" PRId64 " sync_mode=%d kupdate=%d "
		    "range_cyclic=%d background=%d reason=%s cgroup_ino=%" PRIu64,
		    r.name, r.sb_dev >> 20, r.sb_dev & ((1u << 20) - 1), r.nr_pages, r.sync_mode,
		    r.for_kupdate, r.range_cyclic, r.for_background, wbsim_wb_reason_name(work->reason),
		    r.cgroup_ino);
}

void wbsim_trace_writeback_queue_io(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				    int64_t cutoff, uint64_t moved)
{
	struct wbsim_vm *vm = wb->bdi->vm;
	wbsim_time_t now = wbsim_sim_now(wb->bdi->sim);
	struct wbsim_trace_rec_queue_io r = { 0 };

	if (!wb->bdi->trace)
		return;
	copy_name(r.name, wb->bdi->name);
	r.older = wbsim_initial_jiffies(vm) +
		  (uint64_t)(cutoff >= 0 ? cutoff / (int64_t)vm->jiffy_ns
					 : -((-cutoff + (int64_t)vm->jiffy_ns - 1) / (int64_t)vm->jiffy_ns));
	r.age = (int64_t)((int64_t)now - cutoff) / (int64_t)WBSIM_NSEC_PER_MSEC;
	r.moved = (int32_t)moved;
	r.reason = (int32_t)work->reason;
	r.cgroup_ino = ino(wb);
	trace_event(wb->bdi, &wb->flusher, WBSIM_TRACE_WRITEBACK_QUEUE_IO, &r, sizeof(r),
		    "bdi %s: older=%" PRIu64 " age=%" PRId64 " enqueue=%d reason=%s cgroup_ino=%" PRIu64,
		    r.name, r.older, r.age, r.moved, wbsim_wb_reason_name(work->reason), r.cgroup_ino);
}

void wbsim_trace_writeback_wake_background(struct wbsim_wb *wb, const wbsim_task *task)
{
	struct wbsim_trace_rec_wake_background r = { 0 };

	if (!wb->bdi->trace)
		return;
	copy_name(r.name, wb->bdi->name);
	r.cgroup_ino = ino(wb);
	trace_event(wb->bdi, task, WBSIM_TRACE_WRITEBACK_WAKE_BACKGROUND, &r, sizeof(r),
		    "bdi %s: cgroup_ino=%" PRIu64, r.name, r.cgroup_ino);
}

void wbsim_trace_bdi_dirty_ratelimit(struct wbsim_wb *wb, const wbsim_task *task,
				     const struct wbsim_bdi_dirty_ratelimit_trace *t)
{
	struct wbsim_trace_rec_ratelimit r = { 0 };

	if (!wb->bdi->trace)
		return;
	copy_name(r.bdi, wb->bdi->name);
	r.t = *t;
	r.cgroup_ino = ino(wb);
	trace_event(wb->bdi, task, WBSIM_TRACE_BDI_DIRTY_RATELIMIT, &r, sizeof(r),
		    "bdi %s: write_bw=%" PRIu64 " awrite_bw=%" PRIu64 " dirty_rate=%" PRIu64
		    " dirty_ratelimit=%" PRIu64 " task_ratelimit=%" PRIu64
		    " balanced_dirty_ratelimit=%" PRIu64 " cgroup_ino=%" PRIu64,
		    r.bdi, r.t.write_bw, r.t.avg_write_bw, r.t.dirty_rate, r.t.dirty_ratelimit,
		    r.t.task_ratelimit, r.t.balanced_dirty_ratelimit, r.cgroup_ino);
}

void wbsim_trace_balance_dirty_pages(struct wbsim_wb *wb, const wbsim_task *task,
				     const struct wbsim_bdp_trace *t)
{
	struct wbsim_trace_rec_bdp r = { 0 };

	if (!wb->bdi->trace)
		return;
	copy_name(r.bdi, wb->bdi->name);
	r.limit = t->limit;
	r.setpoint = t->setpoint;
	r.dirty = t->dirty;
	r.wb_setpoint = t->wb_setpoint;
	r.wb_dirty = t->wb_dirty;
	r.dirty_ratelimit = t->dirty_ratelimit;
	r.task_ratelimit = t->task_ratelimit;
	r.dirtied = (uint32_t)t->dirtied;		/* unsigned int in the kernel */
	r.dirtied_pause = (uint32_t)t->dirtied_pause;
	r.paused = t->paused;
	r.pause = t->pause;
	r.period = t->period;
	r.think = t->think;
	r.cgroup_ino = ino(wb);
	trace_event(wb->bdi, task, WBSIM_TRACE_BALANCE_DIRTY_PAGES, &r, sizeof(r),
		    "bdi %s: limit=%" PRIu64 " setpoint=%" PRIu64 " dirty=%" PRIu64
		    " wb_setpoint=%" PRIu64 " wb_dirty=%" PRIu64 " dirty_ratelimit=%" PRIu64
		    " task_ratelimit=%" PRIu64 " dirtied=%u dirtied_pause=%u"
		    " paused=%" PRIu64 " pause=%" PRId64 " period=%" PRIu64 " think=%" PRId64
		    " cgroup_ino=%" PRIu64,
		    r.bdi, r.limit, r.setpoint, r.dirty, r.wb_setpoint, r.wb_dirty,
		    r.dirty_ratelimit, r.task_ratelimit, r.dirtied, r.dirtied_pause,
		    r.paused, r.pause, r.period, r.think, r.cgroup_ino);
}

void wbsim_trace_global_dirty_state(struct wbsim_bdi *bdi, const wbsim_task *task,
				    uint64_t bg_thresh, uint64_t thresh)
{
	struct wbsim_vm *vm = bdi->vm;
	struct wbsim_trace_rec_global_dirty r = { 0 };

	if (!bdi->trace)
		return;
	r.nr_dirty = vm->nr_file_dirty;
	r.nr_writeback = vm->nr_writeback;
	r.background_thresh = bg_thresh;
	r.dirty_thresh = thresh;
	r.dirty_limit = vm->dom.dirty_limit;
	r.nr_dirtied = vm->nr_dirtied;
	r.nr_written = vm->nr_written;
	trace_event(bdi, task, WBSIM_TRACE_GLOBAL_DIRTY_STATE, &r, sizeof(r),
		    "dirty=%" PRIu64 " writeback=%" PRIu64 " bg_thresh=%" PRIu64
		    " thresh=%" PRIu64 " limit=%" PRIu64 " dirtied=%" PRIu64 " written=%" PRIu64,
		    r.nr_dirty, r.nr_writeback, r.background_thresh, r.dirty_thresh, r.dirty_limit,
		    r.nr_dirtied, r.nr_written);
}
