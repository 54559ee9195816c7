/* SPDX-License-Identifier: MIT */
/*
 * defs/writeback.h - the calls between lib/mm and lib/fs (kernel: the
 * declarations include/linux/writeback.h, backing-dev.h and memcontrol.h
 * give mm/page-writeback.c, mm/filemap.c and fs/fs-writeback.c of each
 * other). The buffered write path and balance_dirty_pages() (lib/mm) mark
 * inodes dirty, wait for and wake inodes, pick and kick the flusher's wb
 * and charge cgroups (lib/fs); the flusher (lib/fs) queues mm's bandwidth
 * work. A neutral header: it includes no folder of lib/, so mm calls fs
 * without including it and fs includes mm alone.
 */
#ifndef WBSIM_DEFS_WRITEBACK_H
#define WBSIM_DEFS_WRITEBACK_H

#include <stdint.h>
#include <wbsim/fs.h>
#include <wbsim/sim.h>

struct wbsim_bdi;
struct wbsim_wb;
struct wbsim_inode;
struct wbsim_memcg;
struct wbsim_dirtier;

/* fs/fs-writeback.c */
void wbsim_mark_inode_dirty(struct wbsim_inode *inode, const wbsim_task *task,
			    struct wbsim_memcg *memcg);

void wbsim_wb_start_background_writeback(struct wbsim_wb *wb, const wbsim_task *task);

void wbsim_inode_wait(struct wbsim_inode *inode, int what, wbsim_event_fn fn, void *arg);
void wbsim_inode_wake(struct wbsim_inode *inode, wbsim_sim *sim);
void wbsim_inode_maybe_detach(struct wbsim_inode *inode);

/* fs/cgroup-writeback.c */
/* The wb a task in @memcg throttles against for @inode on @bdi
 * (balance_dirty_pages_ratelimited_flags(): wb_get_create_current()). */
struct wbsim_wb *wbsim_dirtier_wb(struct wbsim_bdi *bdi, struct wbsim_inode *inode,
				  struct wbsim_memcg *memcg);

/* Before @nr pages at @first of @inode are dirtied by @d: charge the pages
 * not in the cache yet to @d's memcg, count the clean ones going dirty in
 * their memcg's NR_FILE_DIRTY, and record foreign dirtying
 * (mem_cgroup_track_foreign_dirty()). @inode->wb must be set. */
void wbsim_cgwb_pages_dirtied(struct wbsim_inode *inode, struct wbsim_dirtier *d,
			      uint64_t first, uint64_t nr);

/* mem_cgroup_flush_foreign(): from a throttled balance_dirty_pages() pass
 * of a task whose wb is @wb. */
void wbsim_mem_cgroup_flush_foreign(struct wbsim_wb *wb, const wbsim_task *task);

/* mm/page-writeback.c */
/* page-writeback.c: the bandwidth work queued 200 ms after an inode's
 * writeback ends (wb_update_bandwidth without the ratelimit update). */
void wbsim_wb_update_bandwidth_workfn(wbsim_sim *sim, void *arg);

/*
 * The filesystem's part of a buffered write, which lib/mm's
 * generic_perform_write calls (kernel: a_ops->write_begin and write_end,
 * declared for mm/filemap.c by include/linux/fs.h); lib/fs/alloc/fs.c
 * dispatches it to the model.
 */
/**
 * wbsim_fs_write() - a buffered write of @len bytes at @offset dirtied the
 * page cache: reserve delayed allocation for holes, extend i_size
 * Return: CPU ns the writer spends in the filesystem for it.
 */
wbsim_time_t wbsim_fs_write(wbsim_fs *fs, wbsim_fs_inode *inode,
			    uint64_t offset, uint64_t len);
/**
 * wbsim_fs_update_time() - a write changes @inode's timestamps (the
 * filesystem's ->update_time, which file_update_time() calls)
 * Return: CPU ns the writer spends in the filesystem for it (0 without a
 * hook).
 */
wbsim_time_t wbsim_fs_update_time(wbsim_fs *fs, wbsim_fs_inode *inode);
/*
 * wbsim_fs_write_space() - would a buffered write of @len bytes at @offset
 * get the space it reserves now? FALSE: ENOSPC (the model's write_space
 * hook; TRUE without one).
 */
gboolean wbsim_fs_write_space(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t offset,
			      uint64_t len);
/* wbsim_fs_free_space() - the model's free_space hook (blockgc), if any. */
void wbsim_fs_free_space(wbsim_fs *fs);
/* The filesystem's ->free_space_writeback() (FALSE without one). */
gboolean wbsim_fs_free_space_writeback(wbsim_fs *fs);

#endif /* WBSIM_DEFS_WRITEBACK_H */
