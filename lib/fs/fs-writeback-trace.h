/* SPDX-License-Identifier: MIT */
/*
 * fs/fs-writeback-trace.h - the writeback tracepoints lib/fs fires (the
 * flusher's works, queue_io, the per-inode events, cgroup writeback's),
 * each filling its record (defs/writeback-trace.h) from the wb and inode
 * state at hand, as TP_fast_assign does in the kernel's
 * include/trace/events/writeback.h beside fs/fs-writeback.c, and handing
 * it to lib/report's writer (report/trace.h) with mm's helpers
 * (mm/page-writeback-trace.h). Each returns at once when the bdi's trace
 * is NULL (not tracing). @task: the context (NULL: a kworker the model
 * does not name, shown as the idle task); the flusher's events are in its
 * own. Inode states are the model's i_state bits
 * (defs/backing-dev-defs.h), printed as the kernel's I_* flags.
 */
#ifndef WBSIM_FS_FS_WRITEBACK_TRACE_H
#define WBSIM_FS_FS_WRITEBACK_TRACE_H

#include <stdint.h>
#include <wbsim/sim.h>
#include "defs/backing-dev-defs.h"
#include "defs/writeback-trace.h"

/* @ev: writeback_queue, _exec, _start, _written or _wait (writeback_work_class) */
void wbsim_trace_writeback_work(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				enum wbsim_trace_event ev);
void wbsim_trace_writeback_queue_io(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				    int64_t cutoff, uint64_t moved);
/* emitted from balance_dirty_pages(): in @task's context */
void wbsim_trace_writeback_wake_background(struct wbsim_wb *wb, const wbsim_task *task);
/* wb_workfn(): the pages one wb_do_writeback() wrote */
void wbsim_trace_writeback_pages_written(struct wbsim_wb *wb, int64_t pages);

/* __mark_inode_dirty() put the inode on b_dirty */
void wbsim_trace_writeback_dirty_inode_enqueue(struct wbsim_inode *inode, const wbsim_task *task);
/* @ev: writeback_single_inode_start or writeback_single_inode, for a slice
 * of @nr_to_write pages under @wbc (cgroup_ino: @wb's) */
void wbsim_trace_writeback_single_inode(struct wbsim_wb *wb, struct wbsim_inode *inode,
					const struct wbsim_wbc *wbc, int64_t nr_to_write,
					enum wbsim_trace_event ev);
void wbsim_trace_writeback_sb_inodes_requeue(struct wbsim_wb *wb, struct wbsim_inode *inode);

/* Cgroup writeback. */
/* wbc_detach_inode(): @wb, the wb the round wrote for */
void wbsim_trace_inode_foreign_history(struct wbsim_inode *inode, struct wbsim_wb *wb,
				       const wbsim_task *task, unsigned int history);
void wbsim_trace_inode_switch_wbs_queue(struct wbsim_wb *old_wb, struct wbsim_wb *new_wb,
					unsigned int count, const wbsim_task *task);
void wbsim_trace_inode_switch_wbs(struct wbsim_inode *inode, struct wbsim_wb *old_wb,
				  struct wbsim_wb *new_wb, const wbsim_task *task);
/* a page of @inode charged to @page_memcg dirtied while @wb owns the inode */
void wbsim_trace_track_foreign_dirty(struct wbsim_inode *inode, struct wbsim_wb *wb,
				     const struct wbsim_memcg *page_memcg, const wbsim_task *task);
void wbsim_trace_flush_foreign(struct wbsim_wb *wb, unsigned int frn_bdi_id,
			       unsigned int frn_memcg_id, const wbsim_task *task);

#endif /* WBSIM_FS_FS_WRITEBACK_TRACE_H */
