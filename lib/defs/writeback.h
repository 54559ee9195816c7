/* SPDX-License-Identifier: MIT */
/*
 * defs/writeback.h - the calls between lib/mm and lib/fs (kernel: the
 * declarations include/linux/writeback.h, backing-dev.h and memcontrol.h
 * give mm/page-writeback.c, mm/filemap.c and fs/fs-writeback.c of each
 * other). The flusher (lib/fs) calls mm directly, a room below: it queues
 * mm's bandwidth work. The buffered write path and balance_dirty_pages()
 * (lib/mm) mark inodes dirty, pick and kick the flusher's wb and charge
 * cgroups through struct wbsim_writeback_ops, the table lib/fs fills, so
 * that no call goes from mm up to fs. A neutral header: it includes no
 * folder of lib/, so mm calls fs without including it and fs includes mm
 * alone.
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

/*
 * struct wbsim_writeback_ops - what lib/mm calls of lib/fs: the flusher
 * and cgroup writeback, a layer above, which mm reaches through the table
 * lib/fs puts in the bdi when it creates it (bdi->wb_ops, wbsim_bdi_init())
 * without knowing it, as the kernel's mm reaches a filesystem through
 * address_space_operations and super_operations. Each member says which
 * kernel structure it mirrors.
 */
struct wbsim_writeback_ops {
	/*
	 * @mark_inode_dirty: __mark_inode_dirty(I_DIRTY_PAGES) of @inode, dirtied
	 * by @task of @memcg: attach it to a wb, put it on b_dirty. Mirrors
	 * address_space_operations.dirty_folio (filemap_dirty_folio()).
	 */
	void (*mark_inode_dirty)(struct wbsim_inode *inode, const wbsim_task *task,
				 struct wbsim_memcg *memcg);
	/*
	 * @start_background_writeback: wake @wb's flusher for background
	 * writeback, from balance_dirty_pages() in @task. Mirrors
	 * bdi_writeback.dwork, the flusher's work, whose function mm's
	 * wb_init() sets to fs/fs-writeback.c's wb_workfn().
	 */
	void (*start_background_writeback)(struct wbsim_wb *wb, const wbsim_task *task);
	/*
	 * @inode_writeback_done: the last page of @inode under writeback ended
	 * (detach it from its wb if its affinity lets it choose again), where
	 * __folio_end_writeback() calls fs's sb_clear_inode_writeback().
	 * Mirrors inode.i_wb, the inode's wb, which only fs/fs-writeback.c sets.
	 */
	void (*inode_writeback_done)(struct wbsim_inode *inode);
	/*
	 * @dirtier_wb: the wb a task in @memcg throttles against for @inode
	 * (balance_dirty_pages_ratelimited_flags(): wb_get_create_current()).
	 * Mirrors backing_dev_info.cgwb_tree, the bdi's wbs by memcg.
	 */
	struct wbsim_wb *(*dirtier_wb)(struct wbsim_bdi *bdi, struct wbsim_inode *inode,
				       struct wbsim_memcg *memcg);
	/*
	 * @pages_dirtied: before @nr pages at @first of @inode are dirtied by
	 * @d: charge the pages not in the cache yet to @d's memcg, count the
	 * clean ones going dirty in their memcg's NR_FILE_DIRTY, and record
	 * foreign dirtying (mem_cgroup_track_foreign_dirty()); @inode->wb must
	 * be set. Mirrors mem_cgroup.cgwb_frn, the foreign records it keeps.
	 */
	void (*pages_dirtied)(struct wbsim_inode *inode, struct wbsim_dirtier *d, uint64_t first,
			      uint64_t nr);
	/*
	 * @flush_foreign: mem_cgroup_flush_foreign() from a throttled
	 * balance_dirty_pages() pass of a task whose wb is @wb. Mirrors
	 * mem_cgroup.cgwb_frn too, flushed through cgroup_writeback_by_id().
	 */
	void (*flush_foreign)(struct wbsim_wb *wb, const wbsim_task *task);
};

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
