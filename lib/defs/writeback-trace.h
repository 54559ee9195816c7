/* SPDX-License-Identifier: MIT */
/*
 * defs/writeback-trace.h - the writeback tracepoints that lib/mm and
 * lib/fs emit and lib/report formats (kernel:
 * include/trace/events/writeback.h): the event numbers, the fields mm's
 * algorithms fill for bdi_dirty_ratelimit and balance_dirty_pages, and
 * the emitting calls (report/trace.c). A neutral header: it includes no
 * folder of lib/, so the model emits without including the report and
 * the report reads the model's records without including mm.
 */
#ifndef WBSIM_DEFS_WRITEBACK_TRACE_H
#define WBSIM_DEFS_WRITEBACK_TRACE_H

#include <stdint.h>
#include <wbsim/sim.h>

struct wbsim_bdi;
struct wbsim_wb;
struct wbsim_wb_work;
struct wbsim_inode;
struct wbsim_wbc;
struct wbsim_memcg;

/*
 * enum wbsim_trace_event - index into wbsim_trace_event_names: every
 * writeback event of Linux 6.18 the model has a counterpart for. Left out,
 * with no counterpart: writeback_dirty_inode_start/writeback_dirty_inode
 * (only for I_DIRTY_SYNC/DATASYNC, inode metadata, not modelled),
 * writeback_write_inode_start/writeback_write_inode (write_inode),
 * writeback_lazytime[_iput] (lazytime), writeback_bdi_register (before any
 * trace), folio_wait_writeback, wbc_writepage, sb_mark/clear_inode_writeback.
 */
enum wbsim_trace_event {
	WBSIM_TRACE_WRITEBACK_QUEUE,
	WBSIM_TRACE_WRITEBACK_EXEC,
	WBSIM_TRACE_WRITEBACK_START,
	WBSIM_TRACE_WRITEBACK_WRITTEN,
	WBSIM_TRACE_WRITEBACK_QUEUE_IO,
	WBSIM_TRACE_WRITEBACK_WAKE_BACKGROUND,
	WBSIM_TRACE_BDI_DIRTY_RATELIMIT,
	WBSIM_TRACE_BALANCE_DIRTY_PAGES,
	WBSIM_TRACE_GLOBAL_DIRTY_STATE,
	WBSIM_TRACE_WRITEBACK_WAIT,
	WBSIM_TRACE_WRITEBACK_PAGES_WRITTEN,
	WBSIM_TRACE_WRITEBACK_DIRTY_FOLIO,
	WBSIM_TRACE_WRITEBACK_MARK_INODE_DIRTY,
	WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE,
	WBSIM_TRACE_WRITEBACK_SINGLE_INODE_START,
	WBSIM_TRACE_WRITEBACK_SINGLE_INODE,
	WBSIM_TRACE_WRITEBACK_SB_INODES_REQUEUE,
	WBSIM_TRACE_INODE_FOREIGN_HISTORY,
	WBSIM_TRACE_INODE_SWITCH_WBS_QUEUE,
	WBSIM_TRACE_INODE_SWITCH_WBS,
	WBSIM_TRACE_TRACK_FOREIGN_DIRTY,
	WBSIM_TRACE_FLUSH_FOREIGN,
	WBSIM_TRACE_NR_EVENTS,
};

/**
 * struct wbsim_bdi_dirty_ratelimit_trace - fields of the kernel's
 *	bdi_dirty_ratelimit tracepoint, in its units (KB/s)
 * @write_bw: wb write_bandwidth (before this round's update)
 * @avg_write_bw: wb avg_write_bandwidth (printed as awrite_bw)
 * @dirty_rate: dirtying rate over the last interval
 * @dirty_ratelimit: the new dirty_ratelimit
 * @task_ratelimit: dirty_ratelimit * pos_ratio + 1 page/s
 * @balanced_dirty_ratelimit: the new balanced rate
 */
struct wbsim_bdi_dirty_ratelimit_trace {
	uint64_t write_bw;
	uint64_t avg_write_bw;
	uint64_t dirty_rate;
	uint64_t dirty_ratelimit;
	uint64_t task_ratelimit;
	uint64_t balanced_dirty_ratelimit;
};

/**
 * struct wbsim_bdp_trace - fields of the balance_dirty_pages tracepoint,
 *	in its units
 * @limit: hard dirty limit, pages
 * @setpoint: (limit + freerun) / 2, pages
 * @dirty: domain dirty pages
 * @wb_setpoint: setpoint * wb_thresh / (thresh + 1), pages
 * @wb_dirty: wb dirty pages
 * @dirty_ratelimit: KB/s
 * @task_ratelimit: KB/s
 * @dirtied: pages_dirtied
 * @dirtied_pause: the task's nr_dirtied_pause before this pass
 * @paused: ms since the call began
 * @pause: ms of this sleep (<= 0 when not sleeping)
 * @period: ms
 * @think: ms since the last pause ended (0 if never paused)
 */
struct wbsim_bdp_trace {
	uint64_t limit;
	uint64_t setpoint;
	uint64_t dirty;
	uint64_t wb_setpoint;
	uint64_t wb_dirty;
	uint64_t dirty_ratelimit;
	uint64_t task_ratelimit;
	uint64_t dirtied;
	uint64_t dirtied_pause;
	uint64_t paused;
	int64_t pause;
	uint64_t period;
	int64_t think;
};

/* @ev: writeback_queue, _exec, _start, _written or _wait (writeback_work_class) */
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
/* wb_workfn(): the pages one wb_do_writeback() wrote */
void wbsim_trace_writeback_pages_written(struct wbsim_wb *wb, int64_t pages);

/*
 * The per-inode events. Inode states are the model's i_state bits
 * (defs/backing-dev-defs.h), printed as the kernel's I_* flags.
 */
/* filemap_dirty_folio() of a folio going clean -> dirty: writeback_dirty_folio
 * (folio_account_dirtied()) of the folio at page @index, then
 * __mark_inode_dirty(I_DIRTY_PAGES)'s writeback_mark_inode_dirty with the
 * inode's i_state before it, @state; in @task's context */
void wbsim_trace_writeback_dirty_folio(struct wbsim_inode *inode, const wbsim_task *task,
				       uint64_t index, unsigned int state);
/* __mark_inode_dirty() put the inode on b_dirty */
void wbsim_trace_writeback_dirty_inode_enqueue(struct wbsim_inode *inode, const wbsim_task *task);
/* @ev: writeback_single_inode_start or writeback_single_inode, for a slice
 * of @nr_to_write pages under @wbc (cgroup_ino: @wb's) */
void wbsim_trace_writeback_single_inode(struct wbsim_wb *wb, struct wbsim_inode *inode,
					const struct wbsim_wbc *wbc, int64_t nr_to_write,
					enum wbsim_trace_event ev);
void wbsim_trace_writeback_sb_inodes_requeue(struct wbsim_wb *wb, struct wbsim_inode *inode);

/*
 * Cgroup writeback. @task: the context (NULL: a kworker the model does not
 * name, shown as the idle task).
 */
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

#endif /* WBSIM_DEFS_WRITEBACK_TRACE_H */
