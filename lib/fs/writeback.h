/* SPDX-License-Identifier: MIT */
/*
 * fs/writeback.h - backing devices, writeback contexts, their wbs and
 * flushers, inodes and writeback works: what lib/fs works on (kernel:
 * include/linux/backing-dev.h, include/linux/writeback.h, fs/fs-writeback.c,
 * and the parallel-writeback series' struct bdi_writeback_ctx).
 *
 * A bdi owns nr_wb_ctx writeback contexts; each context owns one wb with its
 * inode lists and one flusher task. An inode is attached to one wb at a
 * time; the affinity policy chooses which one when the inode becomes dirty.
 *
 * The structures themselves are in the neutral defs/backing-dev-defs.h,
 * which lib/mm and lib/report read too; this header adds the mm state
 * they work with and fs's helpers on them.
 */
#ifndef WBSIM_FS_WRITEBACK_H
#define WBSIM_FS_WRITEBACK_H

#include <stdbool.h>
#include <wbsim/sim.h>
#include <wbsim/cpu-costs.h>
#include <wbsim/affinity.h>
#include "defs/backing-dev-defs.h"
#include "mm/vm.h"
#include "mm/page-cache.h"
#include "mm/flex-proportions.h"
#include "mm/writeback-control.h"
#include "mm/memcontrol.h"

/* The policy of [writeback] affinity (registry in affinity.c): the context
 * for @inode going clean -> dirty, dirtied by @task (may be NULL). */
unsigned int wbsim_affinity_select(struct wbsim_bdi *bdi, struct wbsim_inode *inode,
				   const wbsim_task *task);
/* Free the policy's per-inode pointer (wbsim_affinity_inode_set_data()). */
void wbsim_affinity_release(struct wbsim_inode *inode);

/*
 * struct wbsim_flush_inodes - one filesystem's flush of every dirty inode
 * on ENOSPC (XFS's m_flush_inodes_work behind xfs_flush_inodes()): one at
 * a time; a writer arriving while one runs waits for it and starts none
 * of its own (flush_work() of a work in flight).
 */
struct wbsim_flush_inodes {
	bool running;
	GQueue waiters;		/* struct wbsim_flush_waiter, by @link */
};

/** struct wbsim_flush_waiter - a writer waiting for the flush (@fn(@arg)) */
struct wbsim_flush_waiter {
	wbsim_event_fn fn;
	void *arg;
	GList link;
};

/* xfs_flush_inodes(): sync_inodes_sb() of @inodes (reason sync), or wait
 * for the one under way; @w->fn(@w->arg) when it is over. */
void wbsim_flush_inodes(struct wbsim_flush_inodes *f, struct wbsim_bdi *bdi, GPtrArray *inodes,
			bool cgroups, struct wbsim_flush_waiter *w);

/* Record @error as the simulation's failure and stop it. */
void wbsim_bdi_fail(struct wbsim_bdi *bdi, const GError *error);

/* Dirty pages of an inode's mapping. */
static inline uint64_t wbsim_inode_nr_dirty(const struct wbsim_inode *inode)
{
	return wbsim_page_cache_nr(&inode->pages, WBSIM_PC_DIRTY);
}

#endif /* WBSIM_FS_WRITEBACK_H */
