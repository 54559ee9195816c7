/* SPDX-License-Identifier: MIT */
/*
 * page-writeback-trace.c - the fills of the writeback tracepoints lib/mm
 * fires (see mm/page-writeback-trace.h): balance_dirty_pages()'s three and
 * filemap_dirty_folio()'s two. Rates are in KB/s and times in ms, as the
 * kernel's TP_fast_assign stores them with KBps() and jiffies_to_msecs().
 */
#include <string.h>
#include "mm/page-writeback-trace.h"
#include "mm/memcontrol.h"
#include "mm/vm.h"

void wbsim_trace_bdi_event(struct wbsim_bdi *bdi, const wbsim_task *task,
			   enum wbsim_trace_event ev, unsigned int ctx, void *rec, size_t size)
{
	struct wbsim_trace_clock clock = {
		.now = wbsim_sim_now(bdi->sim),
		.jiffies = wbsim_jiffies(bdi->vm),
		.hz = bdi->vm->dirty.hz,
	};

	wbsim_trace_event(bdi->trace, &clock, task, ev, ctx, rec, size);
}

void wbsim_trace_copy_name(char dst[32], const char *name)
{
	size_t n = strnlen(name, 31);

	memcpy(dst, name, n);
	memset(dst + n, 0, 32 - n);
}

uint64_t wbsim_trace_inode_state(unsigned int i_state, bool switching)
{
	return (i_state & I_DIRTY_PAGES ? WBSIM_K_I_DIRTY_PAGES : 0) |
	       (i_state & I_SYNC ? WBSIM_K_I_SYNC : 0) |
	       (i_state & I_SYNC_QUEUED ? WBSIM_K_I_SYNC_QUEUED : 0) |
	       (switching ? WBSIM_K_I_WB_SWITCH : 0);
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
	wbsim_trace_bdi_event(bdi, task, WBSIM_TRACE_GLOBAL_DIRTY_STATE, WBSIM_TRACE_CTX_TASK, &r,
			      sizeof(r));
}

void wbsim_trace_bdi_dirty_ratelimit(struct wbsim_wb *wb, const wbsim_task *task,
				     struct wbsim_trace_rec_ratelimit *r)
{
	if (!wb->bdi->trace)
		return;
	/* the six rates: wb_update_dirty_ratelimit()'s (mm/bandwidth.c) */
	wbsim_trace_copy_name(r->bdi, wb->bdi->name);
	r->cgroup_ino = wbsim_memcg_ino(wb->memcg);
	/* __wb_update_bandwidth() holds wb->list_lock */
	wbsim_trace_bdi_event(wb->bdi, task, WBSIM_TRACE_BDI_DIRTY_RATELIMIT,
			      WBSIM_TRACE_CTX_LIST_LOCK, r, sizeof(*r));
}

void wbsim_trace_balance_dirty_pages(struct wbsim_wb *wb, const wbsim_task *task,
				     struct wbsim_trace_rec_bdp *r)
{
	if (!wb->bdi->trace)
		return;
	/* the rest: trace_balance_dirty_pages()'s (mm/throttle.c) */
	wbsim_trace_copy_name(r->bdi, wb->bdi->name);
	r->cgroup_ino = wbsim_memcg_ino(wb->memcg);
	wbsim_trace_bdi_event(wb->bdi, task, WBSIM_TRACE_BALANCE_DIRTY_PAGES, WBSIM_TRACE_CTX_TASK,
			      r, sizeof(*r));
}

void wbsim_trace_writeback_dirty_folio(struct wbsim_inode *inode, const wbsim_task *task,
				       uint64_t index, unsigned int state)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_trace_rec_folio f = { 0 };
	struct wbsim_trace_rec_dirty_inode m = { 0 };

	if (!bdi->trace)
		return;
	wbsim_trace_copy_name(f.name, bdi->name);
	f.ino = inode->ino;
	f.index = index;
	/* __folio_mark_dirty() -> folio_account_dirtied(), under the mapping's
	 * xa_lock_irqsave() */
	wbsim_trace_bdi_event(bdi, task, WBSIM_TRACE_WRITEBACK_DIRTY_FOLIO, WBSIM_TRACE_CTX_XA_LOCK,
			      &f, sizeof(f));
	/* then filemap_dirty_folio() -> __mark_inode_dirty(I_DIRTY_PAGES) */
	wbsim_trace_copy_name(m.name, bdi->name);
	m.ino = inode->ino;
	m.state = wbsim_trace_inode_state(state, inode->wb_switching);
	m.flags = WBSIM_K_I_DIRTY_PAGES;
	wbsim_trace_bdi_event(bdi, task, WBSIM_TRACE_WRITEBACK_MARK_INODE_DIRTY,
			      WBSIM_TRACE_CTX_TASK, &m, sizeof(m));
}
