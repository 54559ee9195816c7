/* SPDX-License-Identifier: MIT */
/*
 * mm/filemap.h - the buffered write path of a writing task (kernel:
 * mm/filemap.c generic_perform_write()).
 */
#ifndef WBSIM_MM_FILEMAP_H
#define WBSIM_MM_FILEMAP_H

#include <stdbool.h>
#include "mm/page-writeback.h"

/**
 * wbsim_generic_perform_write() - one buffered write(2) of @len bytes at
 * byte @pos of @inode by the dirtier @d
 * @throttle: set to whether balance_dirty_pages() is due after this write
 *	(the ratelimited throttle's decision, taken once); the caller runs
 *	it, through wbsim_dirtier_balance_dirty_pages(), when the write's
 *	CPU time is over; NULL: no look (the caller looks before each write,
 *	as an IOCB_NOWAIT write must)
 * @fs_cost: set to the filesystem's part of the CPU time (iomap_begin /
 *	write_begin), which runs under the filesystem's write lock
 *	(wbsim_fs_write_lock(): XFS's ILOCK)
 *
 * Marks the pages dirty in the page cache (a write of part of a page
 * dirties the whole page), accounts each folio that gets its first dirty
 * block (accounting point a), moves i_size, reserves the filesystem's
 * delayed allocation (wbsim_fs_write()).
 *
 * With @inode's folio size left to the filesystem (struct wbsim_inode
 * @max_folio_pages), a write that finds the cache empty sets it first
 * (wbsim_filemap_folio_pages()).
 *
 * Return: the CPU time of the write (syscall, copy, per-folio bookkeeping,
 * folio allocation, dirty accounting, the filesystem's reservation).
 */
wbsim_time_t wbsim_generic_perform_write(struct wbsim_inode *inode, struct wbsim_dirtier *d,
					 uint64_t pos, uint64_t len, bool *throttle,
					 wbsim_time_t *fs_cost);

/**
 * wbsim_inode_needs_update_time() - inode_needs_update_time() for a write
 * at simulated time @at: the timestamps are older than the coarse clock's
 * current tick
 */
bool wbsim_inode_needs_update_time(const struct wbsim_inode *inode, wbsim_time_t at);

/**
 * wbsim_file_update_time() - file_update_time() of a write at @at (kernel:
 * kiocb_modified() in ->write_iter's checks: xfs_file_write_checks(),
 * ext4_write_checks(), generic_file_write_iter())
 *
 * The write sets mtime and ctime to the coarse clock, which advances once
 * a tick; only the first write of a tick changes them, and only that one
 * calls the filesystem's update (wbsim_fs_update_time()). Multigrain
 * timestamps (XFS, ext4) take a fine-grained time instead only once
 * someone has read them since the last change (I_CTIME_QUERIED: a stat);
 * the writers modelled do not.
 *
 * Return: the filesystem's CPU time of the update, 0 when the timestamps
 * are current.
 */
wbsim_time_t wbsim_file_update_time(struct wbsim_inode *inode, wbsim_time_t at);

/**
 * wbsim_filemap_folio_pages() - the folio the kernel's buffered write path
 * allocates for a write of @len bytes at byte @pos, in pages, when no folio
 * covers @pos: the write's part in the first max-size chunk
 * (iomap_write_iter() and generic_perform_write(): @chunk =
 * mapping_max_folio_size()), its length rounded down to a power of two
 * (fgf_set_order(): ilog2 of the length less PAGE_SHIFT, order 0 up to
 * 8 KiB), at most @max_pages (mapping_max_folio_order()), and no larger
 * than the alignment of @pos's page index allows (__filemap_get_folio():
 * an unaligned index takes order __ffs(index)).
 * @max_pages: the mapping's largest folio, pages (a power of two)
 *
 * Return: pages of the folio, a power of two from 1 to @max_pages.
 */
uint64_t wbsim_filemap_folio_pages(uint64_t pos, uint64_t len, uint64_t max_pages);

/**
 * wbsim_file_write_lock() - inode_lock() of a buffered ->write_iter: take
 * @inode's i_rwsem exclusive for @task, then call @done(sim, @arg). Every
 * modelled filesystem takes it so (XFS's IOLOCK_EXCL in
 * xfs_file_buffered_write, ext4_buffered_write_iter, f2fs_file_write_iter,
 * generic_file_write_iter), and holds it across the write's
 * balance_dirty_pages_ratelimited(): a throttled writer sleeps with it.
 */
void wbsim_file_write_lock(struct wbsim_inode *inode, wbsim_task *task, wbsim_event_fn done,
			   void *arg);
/**
 * wbsim_file_write_trylock() - the inode lock of an IOCB_NOWAIT buffered
 * ->write_iter (io_uring's inline attempt): true with i_rwsem held, false
 * when another task holds it (the write would block: -EAGAIN).
 */
bool wbsim_file_write_trylock(struct wbsim_inode *inode, wbsim_task *task);
/**
 * wbsim_file_write_unlock() - inode_unlock() at the end of ->write_iter.
 * Return: the CPU time @task spends waking a writer that slept on the
 * lock (0 when none did); the caller charges it to @task.
 */
wbsim_time_t wbsim_file_write_unlock(struct wbsim_inode *inode, wbsim_task *task);

/** wbsim_filemap_folio_locked() - does the write span the folio writeback holds locked? */
bool wbsim_filemap_folio_locked(const struct wbsim_inode *inode, uint64_t pos, uint64_t len);

/**
 * wbsim_filemap_wait_folio_lock() - write_begin's __filemap_get_folio()
 * with FGP_LOCK: when a folio that the write of @len bytes at @pos spans
 * is locked by writeback (struct wbsim_inode @wb_locked_folio), queue
 * @done(sim, @arg) for its folio_unlock() and return true; else false.
 */
bool wbsim_filemap_wait_folio_lock(struct wbsim_inode *inode, uint64_t pos, uint64_t len,
				   wbsim_event_fn done, void *arg);

#endif
