/* SPDX-License-Identifier: MIT */
/*
 * fs-writeback-trace.c - the fills of the writeback tracepoints lib/fs
 * fires (see fs/fs-writeback-trace.h): what the kernel's TP_fast_assign
 * reads of the wb, the work and the inode, in its units (jiffies, ms).
 */
#include <stdio.h>
#include "fs/fs-writeback-trace.h"
#include "fs/writeback.h"
#include "mm/page-writeback-trace.h"

void wbsim_trace_writeback_work(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				enum wbsim_trace_event ev)
{
	struct wbsim_trace_rec_work r = { 0 };
	/* wb_queue_work() and wb_do_writeback() trace before taking a lock;
	 * wb_writeback() holds wb->list_lock */
	bool locked = ev != WBSIM_TRACE_WRITEBACK_QUEUE && ev != WBSIM_TRACE_WRITEBACK_EXEC;

	if (!wb->bdi->trace)
		return;
	wbsim_trace_copy_name(r.name, wb->bdi->name);
	r.nr_pages = work->nr_pages;
	r.sb_dev = 0;
	r.sync_mode = (int32_t)work->sync_mode;
	r.for_kupdate = work->for_kupdate;
	r.range_cyclic = work->range_cyclic;
	r.for_background = work->for_background;
	r.reason = (int32_t)work->reason;
	r.cgroup_ino = wbsim_memcg_ino(wb->memcg);
	wbsim_trace_bdi_event(wb->bdi, &wb->flusher, ev,
			      locked ? WBSIM_TRACE_CTX_LIST_LOCK : WBSIM_TRACE_CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_writeback_queue_io(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				    int64_t cutoff, uint64_t moved)
{
	struct wbsim_vm *vm = wb->bdi->vm;
	wbsim_time_t now = wbsim_sim_now(wb->bdi->sim);
	struct wbsim_trace_rec_queue_io r = { 0 };

	if (!wb->bdi->trace)
		return;
	wbsim_trace_copy_name(r.name, wb->bdi->name);
	r.older = wbsim_initial_jiffies(vm) +
		  (uint64_t)(cutoff >= 0 ? cutoff / (int64_t)vm->jiffy_ns
					 : -((-cutoff + (int64_t)vm->jiffy_ns - 1) / (int64_t)vm->jiffy_ns));
	r.age = (int64_t)((int64_t)now - cutoff) / (int64_t)WBSIM_NSEC_PER_MSEC;
	r.moved = (int32_t)moved;
	r.reason = (int32_t)work->reason;
	r.cgroup_ino = wbsim_memcg_ino(wb->memcg);
	wbsim_trace_bdi_event(wb->bdi, &wb->flusher, WBSIM_TRACE_WRITEBACK_QUEUE_IO,
			      WBSIM_TRACE_CTX_LIST_LOCK, &r, sizeof(r));
}

void wbsim_trace_writeback_wake_background(struct wbsim_wb *wb, const wbsim_task *task)
{
	struct wbsim_trace_rec_wake_background r = { 0 };

	if (!wb->bdi->trace)
		return;
	wbsim_trace_copy_name(r.name, wb->bdi->name);
	r.cgroup_ino = wbsim_memcg_ino(wb->memcg);
	wbsim_trace_bdi_event(wb->bdi, task, WBSIM_TRACE_WRITEBACK_WAKE_BACKGROUND,
			      WBSIM_TRACE_CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_writeback_pages_written(struct wbsim_wb *wb, int64_t pages)
{
	struct wbsim_trace_rec_pages_written r = { 0 };

	if (!wb->bdi->trace)
		return;
	r.pages = pages;
	wbsim_trace_bdi_event(wb->bdi, &wb->flusher, WBSIM_TRACE_WRITEBACK_PAGES_WRITTEN,
			      WBSIM_TRACE_CTX_TASK, &r, sizeof(r));
}

/* ------------------------------------------------------------------------ */
/* Inodes                                                                   */

static uint64_t kernel_state(const struct wbsim_inode *inode)
{
	return wbsim_trace_inode_state(inode->i_state, inode->wb_switching);
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
		wbsim_trace_copy_name((r).name, (inode)->bdi->name); \
		(r).ino = (inode)->ino; \
		(r).state = kernel_state(inode); \
		(r).dirtied_when = dirtied_jiffies(inode); \
	} while (0)

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
	wbsim_trace_bdi_event(bdi, task, WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE,
			      WBSIM_TRACE_CTX_TASK, &r, sizeof(r));
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
	r.cgroup_ino = wbsim_memcg_ino(wb->memcg);
	/* __writeback_single_inode() runs with no lock held */
	wbsim_trace_bdi_event(bdi, &wb->flusher, ev, WBSIM_TRACE_CTX_TASK, &r, sizeof(r));
}

void wbsim_trace_writeback_sb_inodes_requeue(struct wbsim_wb *wb, struct wbsim_inode *inode)
{
	struct wbsim_bdi *bdi = wb->bdi;
	struct wbsim_trace_rec_sb_inodes_requeue r = { 0 };

	if (!bdi->trace)
		return;
	FILL_INODE(r, inode);
	r.cgroup_ino = inode->wb ? wbsim_memcg_ino(inode->wb->memcg) : 1;
	/* writeback_sb_inodes() holds wb->list_lock */
	wbsim_trace_bdi_event(bdi, &wb->flusher, WBSIM_TRACE_WRITEBACK_SB_INODES_REQUEUE,
			      WBSIM_TRACE_CTX_LIST_LOCK, &r, sizeof(r));
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
	wbsim_trace_copy_name(r.name, bdi->name);
	r.ino = inode->ino;
	r.cgroup_ino = wbsim_memcg_ino(wb->memcg);
	r.history = history;
	wbsim_trace_bdi_event(bdi, task, WBSIM_TRACE_INODE_FOREIGN_HISTORY, WBSIM_TRACE_CTX_TASK,
			      &r, sizeof(r));
}

void wbsim_trace_inode_switch_wbs_queue(struct wbsim_wb *old_wb, struct wbsim_wb *new_wb,
					unsigned int count, const wbsim_task *task)
{
	struct wbsim_bdi *bdi = old_wb->bdi;
	struct wbsim_trace_rec_switch_wbs_queue r = { 0 };

	if (!bdi->trace)
		return;
	wbsim_trace_copy_name(r.name, bdi->name);
	r.old_cgroup_ino = wbsim_memcg_ino(old_wb->memcg);
	r.new_cgroup_ino = wbsim_memcg_ino(new_wb->memcg);
	r.count = count;
	wbsim_trace_bdi_event(bdi, task, WBSIM_TRACE_INODE_SWITCH_WBS_QUEUE, WBSIM_TRACE_CTX_TASK,
			      &r, sizeof(r));
}

void wbsim_trace_inode_switch_wbs(struct wbsim_inode *inode, struct wbsim_wb *old_wb,
				  struct wbsim_wb *new_wb, const wbsim_task *task)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_trace_rec_switch_wbs r = { 0 };

	if (!bdi->trace)
		return;
	wbsim_trace_copy_name(r.name, bdi->name);
	r.ino = inode->ino;
	r.old_cgroup_ino = wbsim_memcg_ino(old_wb->memcg);
	r.new_cgroup_ino = wbsim_memcg_ino(new_wb->memcg);
	wbsim_trace_bdi_event(bdi, task, WBSIM_TRACE_INODE_SWITCH_WBS, WBSIM_TRACE_CTX_SWITCH, &r,
			      sizeof(r));
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
	wbsim_trace_copy_name(r.name, bdi->name);
	r.bdi_id = BDI_ID;
	r.ino = inode->ino;
	/* the css id: the model's memcg id */
	r.memcg_id = (uint32_t)wbsim_memcg_ino(wb->memcg);
	r.cgroup_ino = wbsim_memcg_ino(wb->memcg);
	r.page_cgroup_ino = wbsim_memcg_ino(page_memcg);
	/* folio_account_dirtied(), under the mapping's xa_lock_irqsave() */
	wbsim_trace_bdi_event(bdi, task, WBSIM_TRACE_TRACK_FOREIGN_DIRTY, WBSIM_TRACE_CTX_XA_LOCK,
			      &r, sizeof(r));
}

void wbsim_trace_flush_foreign(struct wbsim_wb *wb, unsigned int frn_bdi_id,
			       unsigned int frn_memcg_id, const wbsim_task *task)
{
	struct wbsim_trace_rec_flush_foreign r = { 0 };

	if (!wb->bdi->trace)
		return;
	wbsim_trace_copy_name(r.name, wb->bdi->name);
	r.cgroup_ino = wbsim_memcg_ino(wb->memcg);
	r.frn_bdi_id = frn_bdi_id;
	r.frn_memcg_id = frn_memcg_id;
	wbsim_trace_bdi_event(wb->bdi, task, WBSIM_TRACE_FLUSH_FOREIGN, WBSIM_TRACE_CTX_TASK, &r,
			      sizeof(r));
}
