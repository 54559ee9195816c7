/* SPDX-License-Identifier: MIT */
/*
 * mm/page-writeback-trace.h - the writeback tracepoints lib/mm fires, each
 * filling its record (defs/writeback-trace.h) from the bdi, wb and inode
 * state at hand, as TP_fast_assign does in the kernel's
 * include/trace/events/writeback.h, and handing it to lib/report's writer
 * (report/trace.h); and the helpers of a fill that lib/fs's
 * (fs/fs-writeback-trace.h) share, fs reaching mm as it does for the rest.
 * Each fill returns at once when @bdi->trace is NULL (not tracing).
 */
#ifndef WBSIM_MM_PAGE_WRITEBACK_TRACE_H
#define WBSIM_MM_PAGE_WRITEBACK_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <wbsim/sim.h>
#include "defs/backing-dev-defs.h"
#include "report/trace.h"

/*
 * wbsim_trace_bdi_event() - write @rec, @size bytes of @ev filled but for
 * its entry, to @bdi->trace now, in @task's context (NULL: the idle task)
 * with @ctx (WBSIM_TRACE_CTX_*): trace_event_buffer_commit() with the
 * machine's clock (jiffies, HZ).
 */
void wbsim_trace_bdi_event(struct wbsim_bdi *bdi, const wbsim_task *task,
			   enum wbsim_trace_event ev, unsigned int ctx, void *rec, size_t size);

/* The bdi's name in a record's char[32] (strscpy_pad: cut, zero-filled). */
void wbsim_trace_copy_name(char dst[32], const char *name);

/* The kernel's i_state (WBSIM_K_I_*) of the model's @i_state bits
 * (defs/backing-dev-defs.h), with I_WB_SWITCH while @switching. */
uint64_t wbsim_trace_inode_state(unsigned int i_state, bool switching);

/* global_dirty_state: the node's counters and the global domain's
 * thresholds, from balance_dirty_pages(), in @task's context */
void wbsim_trace_global_dirty_state(struct wbsim_bdi *bdi, const wbsim_task *task,
				    uint64_t bg_thresh, uint64_t thresh);
/* @r: the record mm filled (mm/bandwidth.c) but for its bdi name,
 * cgroup_ino and entry */
void wbsim_trace_bdi_dirty_ratelimit(struct wbsim_wb *wb, const wbsim_task *task,
				     struct wbsim_trace_rec_ratelimit *r);
/* @r: as above (mm/throttle.c) */
void wbsim_trace_balance_dirty_pages(struct wbsim_wb *wb, const wbsim_task *task,
				     struct wbsim_trace_rec_bdp *r);
/* filemap_dirty_folio() of a folio going clean -> dirty: writeback_dirty_folio
 * (folio_account_dirtied()) of the folio at page @index, then
 * __mark_inode_dirty(I_DIRTY_PAGES)'s writeback_mark_inode_dirty with the
 * inode's i_state before it, @state; in @task's context */
void wbsim_trace_writeback_dirty_folio(struct wbsim_inode *inode, const wbsim_task *task,
				       uint64_t index, unsigned int state);

#endif /* WBSIM_MM_PAGE_WRITEBACK_TRACE_H */
