/* SPDX-License-Identifier: MIT */
/*
 * defs/writeback-trace.h - the writeback tracepoints that lib/mm and
 * lib/fs emit and lib/report formats (kernel:
 * include/trace/events/writeback.h): the event numbers and records,
 * generated from their one declaration (defs/writeback-events.h), and the
 * emitting calls (report/trace.c), which fill a record each. A neutral
 * header: it includes no folder of lib/, so the model emits without
 * including the report and the report reads the model's records without
 * including mm.
 */
#ifndef WBSIM_DEFS_WRITEBACK_TRACE_H
#define WBSIM_DEFS_WRITEBACK_TRACE_H

#include <stdint.h>
#include <wbsim/sim.h>
#include "defs/writeback-events.h"

struct wbsim_bdi;
struct wbsim_wb;
struct wbsim_wb_work;
struct wbsim_inode;
struct wbsim_wbc;
struct wbsim_memcg;

/*
 * enum wbsim_trace_event - index into wbsim_trace_event_names: every
 * writeback event of Linux 6.18 the model has a counterpart for, in the
 * order of WBSIM_TRACE_EVENTS (defs/writeback-events.h). Left out, with
 * no counterpart: writeback_dirty_inode_start/writeback_dirty_inode
 * (only for I_DIRTY_SYNC/DATASYNC, inode metadata, not modelled),
 * writeback_write_inode_start/writeback_write_inode (write_inode),
 * writeback_lazytime[_iput] (lazytime), writeback_bdi_register (before any
 * trace), folio_wait_writeback, wbc_writepage, sb_mark/clear_inode_writeback.
 */
#define WBSIM_TRACE_ENUM(id, name, class) WBSIM_TRACE_##id,
enum wbsim_trace_event {
	WBSIM_TRACE_EVENTS(WBSIM_TRACE_ENUM)
	WBSIM_TRACE_NR_EVENTS,
};
#undef WBSIM_TRACE_ENUM

/* struct trace_entry: the header of every event record */
struct wbsim_trace_entry {
	uint16_t type;		/* the event's ID in its format file */
	uint8_t flags;
	uint8_t preempt_count;
	int32_t pid;
};

/*
 * struct wbsim_trace_rec_<class> - the record of each class of
 * defs/writeback-events.h, as the kernel's ring buffer holds it: the
 * entry, then the fields of WBSIM_TRACE_FIELDS_<class>, in the kernel's
 * units. One is filled per event, and the binary record, the format file
 * and the text line all read it.
 */
#define WBSIM_TRACE_MEMBER(x, ctype, ktype, member, dim, sgn) ctype member dim;
#define WBSIM_TRACE_REC_STRUCT(class) \
	struct wbsim_trace_rec_##class { \
		struct wbsim_trace_entry ent; \
		WBSIM_TRACE_FIELDS_##class(WBSIM_TRACE_MEMBER, class) \
	};
WBSIM_TRACE_CLASSES(WBSIM_TRACE_REC_STRUCT)
#undef WBSIM_TRACE_REC_STRUCT
#undef WBSIM_TRACE_MEMBER

/* @ev: writeback_queue, _exec, _start, _written or _wait (writeback_work_class) */
void wbsim_trace_writeback_work(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				enum wbsim_trace_event ev);
void wbsim_trace_writeback_queue_io(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				    int64_t cutoff, uint64_t moved);
/* the next two are emitted from balance_dirty_pages(): in @task's context */
void wbsim_trace_writeback_wake_background(struct wbsim_wb *wb, const wbsim_task *task);
/* @r: the record mm filled but for its bdi name, cgroup_ino and entry */
void wbsim_trace_bdi_dirty_ratelimit(struct wbsim_wb *wb, const wbsim_task *task,
				     struct wbsim_trace_rec_ratelimit *r);
void wbsim_trace_balance_dirty_pages(struct wbsim_wb *wb, const wbsim_task *task,
				     struct wbsim_trace_rec_bdp *r);
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
