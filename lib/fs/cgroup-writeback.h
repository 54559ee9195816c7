/* SPDX-License-Identifier: MIT */
/*
 * fs/cgroup-writeback.h - cgroup writeback: one wb per (writeback
 * context, memcg), inode ownership and switching, foreign flushes, and
 * the lifetime of the wbs of removed cgroups (kernel: mm/backing-dev.c
 * cgwb_*, fs/fs-writeback.c inode_switch_wbs and wbc_*_inode,
 * mm/memcontrol.c mem_cgroup_*_foreign, include/linux/backing-dev.h).
 *
 * With no cgroup but the root, every inode is on a context's root wb and
 * none of this runs.
 */
#ifndef WBSIM_FS_CGROUP_WRITEBACK_H
#define WBSIM_FS_CGROUP_WRITEBACK_H

#include "fs/writeback.h"
#include "mm/memcontrol.h"
#include "defs/writeback.h"

struct wbsim_dirtier;

/* Cgroup writeback's side of struct wbsim_writeback_ops (defs/writeback.h),
 * which lib/mm calls through the bdi's table: @dirtier_wb, @pages_dirtied
 * and @flush_foreign there. */
struct wbsim_wb *wbsim_dirtier_wb(struct wbsim_bdi *bdi, struct wbsim_inode *inode,
				  struct wbsim_memcg *memcg);
void wbsim_cgwb_pages_dirtied(struct wbsim_inode *inode, struct wbsim_dirtier *d,
			      uint64_t first, uint64_t nr);
void wbsim_mem_cgroup_flush_foreign(struct wbsim_wb *wb, const wbsim_task *task);

/* The root wb of writeback context @ctx has the root memcg. */

/**
 * wbsim_wb_get_create() - wb_get_create(): the wb of @memcg in context
 *	@ctx, created if missing (or if the one found is associated with a
 *	blkcg that is no longer @memcg's: that one is killed and replaced)
 * Return: the wb; the root wb for the root memcg, or for a memcg that is
 * offline and has no live wb (its cgwb list is poisoned).
 */
struct wbsim_wb *wbsim_wb_get_create(struct wbsim_bdi *bdi, unsigned int ctx,
				     struct wbsim_memcg *memcg);

/* wb_get_lookup(): the live wb of @memcg in @ctx whose blkcg still
 * matches, or NULL (none is created). */
struct wbsim_wb *wbsim_wb_get_lookup(struct wbsim_bdi *bdi, unsigned int ctx,
				     const struct wbsim_memcg *memcg);

/**
 * wbsim_cgroup_mkdir() - create a cgroup (and missing parents)
 * @bdi: the device (its memcgs)
 * @path: "/e7/a"
 * @max_bytes: memory.max (UINT64_MAX: max)
 * @high_bytes: memory.high (UINT64_MAX: max)
 * @error: as wbsim_memcg_create()
 * Return: the memcg, or NULL with @error set.
 */
struct wbsim_memcg *wbsim_cgroup_mkdir(struct wbsim_bdi *bdi, const char *path,
				       uint64_t max_bytes, uint64_t high_bytes, GError **error);

/**
 * wbsim_cgroup_rmdir() - remove a cgroup: its memcg goes offline and its
 *	wbs are killed (wb_memcg_offline()); the offline-wb cleanup work is
 *	queued
 * @error: WBSIM_ERROR_INVALID_VALUE "cgroup /x: busy: N tasks" or "has
 *	children" as rmdir's EBUSY
 */
gboolean wbsim_cgroup_rmdir(struct wbsim_bdi *bdi, struct wbsim_memcg *memcg, GError **error);

/**
 * wbsim_cgroup_set_io() - add or remove "io" in @memcg's
 *	cgroup.subtree_control: the blkcgs of its descendants go online or
 *	offline, and every wb whose memcg's blkcg changed is killed
 *	(wb_blkcg_offline()) and replaced at its next use
 */
void wbsim_cgroup_set_io(struct wbsim_bdi *bdi, struct wbsim_memcg *memcg, bool enabled);

/* A task moves into @memcg (cgroup.procs). */
void wbsim_dirtier_set_memcg(struct wbsim_dirtier *d, struct wbsim_memcg *memcg);

/*
 * Page-level hooks, called only when the machine has cgroups.
 */
/* Dirty pages of [first, first + nr) go under writeback: per-memcg counters. */
void wbsim_cgwb_pages_start_writeback(struct wbsim_inode *inode, uint64_t first, uint64_t nr);
/* Pages of [first, first + nr) end writeback. */
void wbsim_cgwb_pages_end_writeback(struct wbsim_inode *inode, uint64_t first, uint64_t nr);
/* Clean pages of [first, first + nr) not under writeback leave the cache. */
void wbsim_cgwb_pages_dropped(struct wbsim_inode *inode, uint64_t first, uint64_t nr);

/*
 * Writeback hooks (fs/fs-writeback.c wbc_attach_and_unlock_inode(),
 * wbc_account_cgroup_owner(), wbc_detach_inode()).
 */
void wbsim_wbc_attach_inode(struct wbsim_wbc *wbc, struct wbsim_inode *inode,
			    const wbsim_task *task);
void wbsim_wbc_account_owner(struct wbsim_wbc *wbc, struct wbsim_inode *inode,
			     uint64_t first, uint64_t nr);
void wbsim_wbc_detach_inode(struct wbsim_wbc *wbc, struct wbsim_inode *inode,
			    const wbsim_task *task);

/* Free every cgroup wb of @bdi (at the end of a run). */
void wbsim_cgwb_clear(struct wbsim_bdi *bdi);

/* --check: the per-memcg counters equal the page cache's, each wb's
 * counters equal its inodes'. Appends a reason to @why and returns FALSE
 * on the first mismatch. */
gboolean wbsim_cgwb_check(struct wbsim_bdi *bdi, GPtrArray *inodes, GString *why);

#endif /* WBSIM_FS_CGROUP_WRITEBACK_H */
