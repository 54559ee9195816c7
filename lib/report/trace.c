/* SPDX-License-Identifier: MIT */
/*
 * trace.c - writeback tracepoints in the kernel's text format (see
 * report/trace.h). Rates are printed in KB/s and times in ms, as the
 * kernel's TP_printk does with KBps() and jiffies_to_msecs().
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <wbsim/error.h>
#include "fs/writeback.h"
#include "mm/memcontrol.h"
#include "mm/vm.h"
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

/*
 * The context an event is emitted in, where the model knows it: the
 * preempt depth (spinlocks held; a kernel with CONFIG_PREEMPT_COUNT, as
 * Debian's PREEMPT_DYNAMIC has) and whether interrupts are off. The
 * kernel records them in the entry (common_flags, common_preempt_count)
 * and prints them in the latency column, "d..1." (trace_print_lat_fmt()).
 */
#define CTX(irqs_off, depth) ((irqs_off) << 8 | (depth))
#define CTX_TASK CTX(0, 0)		/* no lock held */
#define CTX_LIST_LOCK CTX(0, 1)		/* spin_lock(&wb->list_lock) */
#define CTX_XA_LOCK CTX(1, 1)		/* xa_lock_irqsave(&mapping->i_pages) */
/* inode_switch_wbs_work_fn(): both wbs' list_lock, then inode_do_switch_wbs()'s
 * i_lock and xa_lock_irq() */
#define CTX_SWITCH CTX(1, 4)
#define TRACE_FLAG_IRQS_OFF 0x01	/* enum trace_flag_type */

/*
 * One event, emitted in @task's context (NULL: the idle task): @rec, its
 * record of @size bytes (the struct of its class, filled but for the
 * struct wbsim_trace_entry, filled here), to @tr->record, and its text
 * line, what the record's format file prints of it, to @tr->emit.
 */
static void trace_event(struct wbsim_bdi *bdi, const wbsim_task *task, enum wbsim_trace_event ev,
			unsigned int ctx, void *rec, size_t size)
{
	struct wbsim_trace *tr = bdi->trace;
	wbsim_time_t now = wbsim_sim_now(bdi->sim);
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
	wbsim_trace_event_text(tr->buf, ev, rec, wbsim_jiffies(bdi->vm), bdi->vm->dirty.hz);
	tr->emit(tr->arg, tr->buf->str);
}

/* the bdi's name in a record's char[32] (strscpy_pad: cut, zero-filled) */
static void copy_name(char dst[32], const char *name)
{
	size_t n = strnlen(name, 31);

	memcpy(dst, name, n);
	memset(dst + n, 0, 32 - n);
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
	/* wb_queue_work() and wb_do_writeback() trace before taking a lock;
	 * wb_writeback() holds wb->list_lock */
	trace_event(wb->bdi, &wb->flusher, ev,
		    ev == WBSIM_TRACE_WRITEBACK_QUEUE || ev == WBSIM_TRACE_WRITEBACK_EXEC ? CTX_TASK
											 : CTX_LIST_LOCK,
		    &r, sizeof(r));
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
	trace_event(wb->bdi, &wb->flusher, WBSIM_TRACE_WRITEBACK_QUEUE_IO, CTX_LIST_LOCK, &r,
		    sizeof(r));
}

void wbsim_trace_writeback_wake_background(struct wbsim_wb *wb, const wbsim_task *task)
{
	struct wbsim_trace_rec_wake_background r = { 0 };

	if (!wb->bdi->trace)
		return;
	copy_name(r.name, wb->bdi->name);
	r.cgroup_ino = ino(wb);
	trace_event(wb->bdi, task, WBSIM_TRACE_WRITEBACK_WAKE_BACKGROUND, CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_bdi_dirty_ratelimit(struct wbsim_wb *wb, const wbsim_task *task,
				     struct wbsim_trace_rec_ratelimit *r)
{
	if (!wb->bdi->trace)
		return;
	/* the six rates: wb_update_dirty_ratelimit()'s (mm/bandwidth.c) */
	copy_name(r->bdi, wb->bdi->name);
	r->cgroup_ino = ino(wb);
	/* __wb_update_bandwidth() holds wb->list_lock */
	trace_event(wb->bdi, task, WBSIM_TRACE_BDI_DIRTY_RATELIMIT, CTX_LIST_LOCK, r, sizeof(*r));
}

void wbsim_trace_balance_dirty_pages(struct wbsim_wb *wb, const wbsim_task *task,
				     struct wbsim_trace_rec_bdp *r)
{
	if (!wb->bdi->trace)
		return;
	/* the rest: trace_balance_dirty_pages()'s (mm/throttle.c) */
	copy_name(r->bdi, wb->bdi->name);
	r->cgroup_ino = ino(wb);
	trace_event(wb->bdi, task, WBSIM_TRACE_BALANCE_DIRTY_PAGES, CTX_TASK, r, sizeof(*r));
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
	trace_event(bdi, task, WBSIM_TRACE_GLOBAL_DIRTY_STATE, CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_writeback_pages_written(struct wbsim_wb *wb, int64_t pages)
{
	struct wbsim_trace_rec_pages_written r = { 0 };

	if (!wb->bdi->trace)
		return;
	r.pages = pages;
	trace_event(wb->bdi, &wb->flusher, WBSIM_TRACE_WRITEBACK_PAGES_WRITTEN, CTX_TASK, &r,
		    sizeof(r));
}

/* ------------------------------------------------------------------------ */
/* Inodes                                                                   */

/* The kernel's i_state of the model's (defs/backing-dev-defs.h) */
static uint64_t kernel_state_of(unsigned int i_state, bool switching)
{
	return (i_state & I_DIRTY_PAGES ? WBSIM_K_I_DIRTY_PAGES : 0) |
	       (i_state & I_SYNC ? WBSIM_K_I_SYNC : 0) |
	       (i_state & I_SYNC_QUEUED ? WBSIM_K_I_SYNC_QUEUED : 0) |
	       (switching ? WBSIM_K_I_WB_SWITCH : 0);
}

static uint64_t kernel_state(const struct wbsim_inode *inode)
{
	return kernel_state_of(inode->i_state, inode->wb_switching);
}

/* inode->dirtied_when (simulated ns) in jiffies; the text's age=
 * ((jiffies - dirtied_when) / HZ) reads jiffies as the event happens */
static uint64_t dirtied_jiffies(const struct wbsim_inode *inode)
{
	return wbsim_jiffies_at(inode->bdi->vm, inode->dirtied_when);
}

/* The fields a per-inode record starts with: the bdi's name, the inode's
 * number, state and dirtied_when (writeback_single_inode_template,
 * writeback_sb_inodes_requeue) */
#define FILL_INODE(r, inode) do { \
		copy_name((r).name, (inode)->bdi->name); \
		(r).ino = (inode)->ino; \
		(r).state = kernel_state(inode); \
		(r).dirtied_when = dirtied_jiffies(inode); \
	} while (0)

void wbsim_trace_writeback_dirty_folio(struct wbsim_inode *inode, const wbsim_task *task,
				       uint64_t index, unsigned int state)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_trace_rec_folio f = { 0 };
	struct wbsim_trace_rec_dirty_inode m = { 0 };

	if (!bdi->trace)
		return;
	copy_name(f.name, bdi->name);
	f.ino = inode->ino;
	f.index = index;
	/* __folio_mark_dirty() -> folio_account_dirtied(), under the mapping's
	 * xa_lock_irqsave() */
	trace_event(bdi, task, WBSIM_TRACE_WRITEBACK_DIRTY_FOLIO, CTX_XA_LOCK, &f, sizeof(f));
	/* then filemap_dirty_folio() -> __mark_inode_dirty(I_DIRTY_PAGES) */
	copy_name(m.name, bdi->name);
	m.ino = inode->ino;
	m.state = kernel_state_of(state, inode->wb_switching);
	m.flags = WBSIM_K_I_DIRTY_PAGES;
	trace_event(bdi, task, WBSIM_TRACE_WRITEBACK_MARK_INODE_DIRTY, CTX_TASK, &m, sizeof(m));
}

/* The files fio lays out: S_IFREG | 0644 (extend_file()'s open() mode) */
#define INODE_MODE 0100644

/* MKDEV() of the bdi's "MAJ:MIN" name: the filesystem's s_dev */
static uint32_t bdi_dev(const struct wbsim_bdi *bdi)
{
	unsigned int major = 0, minor = 0;

	if (sscanf(bdi->name, "%u:%u", &major, &minor) != 2)
		return 0;
	return (major << 20) | minor;
}

void wbsim_trace_writeback_dirty_inode_enqueue(struct wbsim_inode *inode, const wbsim_task *task)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_trace_rec_inode r = { 0 };

	if (!bdi->trace)
		return;
	r.dev = bdi_dev(bdi);
	r.ino = inode->ino;
	r.state = kernel_state(inode);
	r.mode = INODE_MODE;
	r.dirtied_when = dirtied_jiffies(inode);
	/* traced after __mark_inode_dirty() dropped its locks */
	trace_event(bdi, task, WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE, CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_writeback_single_inode(struct wbsim_wb *wb, struct wbsim_inode *inode,
					const struct wbsim_wbc *wbc, int64_t nr_to_write,
					enum wbsim_trace_event ev)
{
	struct wbsim_bdi *bdi = wb->bdi;
	struct wbsim_trace_rec_single_inode r = { 0 };

	if (!bdi->trace)
		return;
	FILL_INODE(r, inode);
	r.writeback_index = inode->pages.writeback_index;
	r.nr_to_write = nr_to_write;
	r.wrote = (uint64_t)(nr_to_write - wbc->nr_to_write);
	/* the wb the flusher writes for: wbc->wb, attached for the slice */
	r.cgroup_ino = ino(wb);
	/* __writeback_single_inode() runs with no lock held */
	trace_event(bdi, &wb->flusher, ev, CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_writeback_sb_inodes_requeue(struct wbsim_wb *wb, struct wbsim_inode *inode)
{
	struct wbsim_bdi *bdi = wb->bdi;
	struct wbsim_trace_rec_sb_inodes_requeue r = { 0 };

	if (!bdi->trace)
		return;
	FILL_INODE(r, inode);
	r.cgroup_ino = inode->wb ? ino(inode->wb) : 1;
	/* writeback_sb_inodes() holds wb->list_lock */
	trace_event(bdi, &wb->flusher, WBSIM_TRACE_WRITEBACK_SB_INODES_REQUEUE, CTX_LIST_LOCK, &r,
		    sizeof(r));
}

/* ------------------------------------------------------------------------ */
/* Cgroup writeback                                                         */

void wbsim_trace_inode_foreign_history(struct wbsim_inode *inode, struct wbsim_wb *wb,
				       const wbsim_task *task, unsigned int history)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_trace_rec_foreign_history r = { 0 };

	if (!bdi->trace)
		return;
	copy_name(r.name, bdi->name);
	r.ino = inode->ino;
	r.cgroup_ino = ino(wb);
	r.history = history;
	trace_event(bdi, task, WBSIM_TRACE_INODE_FOREIGN_HISTORY, CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_inode_switch_wbs_queue(struct wbsim_wb *old_wb, struct wbsim_wb *new_wb,
					unsigned int count, const wbsim_task *task)
{
	struct wbsim_bdi *bdi = old_wb->bdi;
	struct wbsim_trace_rec_switch_wbs_queue r = { 0 };

	if (!bdi->trace)
		return;
	copy_name(r.name, bdi->name);
	r.old_cgroup_ino = ino(old_wb);
	r.new_cgroup_ino = ino(new_wb);
	r.count = count;
	trace_event(bdi, task, WBSIM_TRACE_INODE_SWITCH_WBS_QUEUE, CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_inode_switch_wbs(struct wbsim_inode *inode, struct wbsim_wb *old_wb,
				  struct wbsim_wb *new_wb, const wbsim_task *task)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_trace_rec_switch_wbs r = { 0 };

	if (!bdi->trace)
		return;
	copy_name(r.name, bdi->name);
	r.ino = inode->ino;
	r.old_cgroup_ino = ino(old_wb);
	r.new_cgroup_ino = ino(new_wb);
	trace_event(bdi, task, WBSIM_TRACE_INODE_SWITCH_WBS, CTX_SWITCH, &r, sizeof(r));
}

/* The bdi's id (bdi->id): the model's one bdi is the first registered */
#define BDI_ID 1

void wbsim_trace_track_foreign_dirty(struct wbsim_inode *inode, struct wbsim_wb *wb,
				     const struct wbsim_memcg *page_memcg, const wbsim_task *task)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_trace_rec_track_foreign_dirty r = { 0 };

	if (!bdi->trace)
		return;
	copy_name(r.name, bdi->name);
	r.bdi_id = BDI_ID;
	r.ino = inode->ino;
	r.memcg_id = (uint32_t)ino(wb);		/* the css id: the model's memcg id */
	r.cgroup_ino = ino(wb);
	r.page_cgroup_ino = wbsim_memcg_ino(page_memcg);
	/* folio_account_dirtied(), under the mapping's xa_lock_irqsave() */
	trace_event(bdi, task, WBSIM_TRACE_TRACK_FOREIGN_DIRTY, CTX_XA_LOCK, &r, sizeof(r));
}

void wbsim_trace_flush_foreign(struct wbsim_wb *wb, unsigned int frn_bdi_id,
			       unsigned int frn_memcg_id, const wbsim_task *task)
{
	struct wbsim_trace_rec_flush_foreign r = { 0 };

	if (!wb->bdi->trace)
		return;
	copy_name(r.name, wb->bdi->name);
	r.cgroup_ino = ino(wb);
	r.frn_bdi_id = frn_bdi_id;
	r.frn_memcg_id = frn_memcg_id;
	trace_event(wb->bdi, task, WBSIM_TRACE_FLUSH_FOREIGN, CTX_TASK, &r, sizeof(r));
}
