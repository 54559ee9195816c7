/* SPDX-License-Identifier: MIT */
/*
 * mm/page-writeback.h - the four accounting points of dirtying and
 * writeback, and the asynchronous balance_dirty_pages() a writing task
 * calls (kernel: mm/page-writeback.c).
 */
#ifndef WBSIM_MM_PAGE_WRITEBACK_H
#define WBSIM_MM_PAGE_WRITEBACK_H

#include "defs/backing-dev-defs.h"
#include "mm/vm.h"
#include "mm/page-cache.h"
#include "mm/memcontrol.h"
#include "mm/throttle.h"

/**
 * struct wbsim_dirtier - the dirty-throttling side of a writing task
 * @task: the task
 * @td: nr_dirtied, nr_dirtied_pause, dirty_paused_when
 * @cpu: the CPU whose bdp_ratelimits it charges (the CPU it last ran on)
 * @pauses: balance_dirty_pages() sleeps
 * @paused_ns: total time slept in balance_dirty_pages()
 * @max_pause_ns: longest single call (all its sleeps)
 * @max_sleep_ns: longest single sleep
 * @pause_hist: sleeps by length: <1, <2, <4 ... <512 ms, >= 512 ms
 * The rest is the state of the call in progress.
 */
struct wbsim_dirtier {
	wbsim_task *task;
	struct wbsim_task_dirty td;
	uint64_t pauses;
	wbsim_time_t paused_ns;
	wbsim_time_t max_pause_ns;
	wbsim_time_t max_sleep_ns;
	uint64_t pause_hist[11];
	struct wbsim_memcg *memcg;	/* its memory cgroup (NULL: the root) */
	/* call in progress */
	struct wbsim_wb *wb;
	uint64_t pages_dirtied;
	uint64_t start_jiffies;
	wbsim_time_t call_start;
	wbsim_event_fn cont;
	void *cont_arg;
	bool async;		/* BDP_ASYNC: the pass may not sleep */
	bool eagain;		/* the last pass returned -EAGAIN (BDP_ASYNC) */
};

void wbsim_dirtier_init(struct wbsim_dirtier *d, wbsim_task *task);

/* (a) folio_account_dirtied(): @nr pages of @inode went clean -> dirty by
 * @d. Also __mark_inode_dirty(I_DIRTY_PAGES). */
void wbsim_account_page_dirtied(struct wbsim_inode *inode, struct wbsim_dirtier *d, uint64_t nr);
/* (b) folio_clear_dirty_for_io() and (c) __folio_start_writeback():
 * @nr accounted pages and @blocks blocks of @inode, charged to @wb. */
void wbsim_account_start_writeback(struct wbsim_inode *inode, struct wbsim_wb *wb, uint64_t nr,
				   uint64_t blocks);
/* (d) __folio_end_writeback(): @nr accounted pages, @blocks blocks. */
void wbsim_account_end_writeback(struct wbsim_inode *inode, struct wbsim_wb *wb, uint64_t nr,
				 uint64_t blocks);
/*
 * The waits on an inode (struct wbsim_inode_waiter, defs/backing-dev-defs.h):
 * I_SYNC clear (WAIT_I_SYNC_CLEAR), the folio writeback holds locked
 * unlocked (WAIT_FOLIO_UNLOCK), no block under writeback left
 * (WAIT_WRITEBACK_DONE). Below lib/fs, which waits on them too, as the kernel's
 * wait_on_bit() (include/linux/wait_bit.h, the inode's __I_SYNC bit) and
 * folio_wait_locked(), folio_wait_writeback() (mm/filemap.c,
 * mm/page-writeback.c) are below fs/fs-writeback.c.
 */
/* Wait for @what (WAIT_*) on @inode: @fn(@arg) when it holds, at a wake. */
void wbsim_inode_wait(struct wbsim_inode *inode, int what, wbsim_event_fn fn, void *arg);
/* Wake the waiters whose condition now holds, in the order they waited
 * (wake_up_bit(), folio_wake_bit()). */
void wbsim_inode_wake(struct wbsim_inode *inode, wbsim_sim *sim);

/* Folios of @inode among blocks [first, first + nr) with no @mark block. */
uint64_t wbsim_inode_folios_without(const struct wbsim_inode *inode, enum wbsim_pc_mark mark,
				    uint64_t first, uint64_t nr);
/* (a)'s charge for a write that took @folios of @inode clean -> dirty and
 * dirtied @blocks blocks not dirty before: whole folios or blocks. */
uint64_t wbsim_inode_dirty_charge(const struct wbsim_inode *inode, uint64_t folios,
				  uint64_t blocks);
/* Accounted pages of @inode's @mark blocks (folios in whole-folio mode). */
uint64_t wbsim_inode_acct(const struct wbsim_inode *inode, enum wbsim_pc_mark mark);

/*
 * The ratelimit decision of balance_dirty_pages_ratelimited() for @d after
 * it dirtied pages of an inode whose throttling wb is @wb, on the CPU @d
 * runs on: TRUE when balance_dirty_pages() is due. Decided once per write;
 * the caller then runs wbsim_dirtier_balance_dirty_pages().
 */
bool wbsim_dirtier_ratelimited(struct wbsim_dirtier *d, struct wbsim_wb *wb);
/*
 * balance_dirty_pages() for @d (a look wbsim_dirtier_ratelimited() found
 * due) against @wb. Returns TRUE when it returned at once (no sleep);
 * otherwise FALSE, and @cont(@arg) runs when the task may go on.
 */
gboolean wbsim_dirtier_balance_dirty_pages(struct wbsim_dirtier *d, struct wbsim_wb *wb,
					   wbsim_event_fn cont, void *arg);
/*
 * balance_dirty_pages() with BDP_ASYNC (an IOCB_NOWAIT write, from
 * balance_dirty_pages_ratelimited_flags()): one pass, never a sleep.
 * Returns TRUE if it returned -EAGAIN (the pass would have slept; @d's
 * task state is left as it was, so its next look computes the pause again).
 */
bool wbsim_dirtier_balance_dirty_pages_async(struct wbsim_dirtier *d, struct wbsim_wb *wb);

/* The memcg domain of a cgroup wb's pass (mem_cgroup_wb_stats() +
 * mdtc_calc_avail()), with writeback pages in its dirty count when
 * @with_writeback; FALSE (and @mdtc untouched) for a root wb. @gdtc must
 * have its avail and dirty set. */
bool wbsim_wb_mdtc(struct wbsim_wb *wb, struct wbsim_dtc *gdtc, struct wbsim_dtc *mdtc,
		   bool with_writeback);

/* __wb_update_bandwidth() without the ratelimit part, if 200 ms passed
 * (end of do_writepages()). */
void wbsim_wb_update_bandwidth_if_due(struct wbsim_wb *wb);
/* wb_bandwidth_estimate_start(): idle restamp at the start of do_writepages(). */
void wbsim_wb_bw_estimate_start(struct wbsim_wb *wb);

#endif
