/* SPDX-License-Identifier: MIT */
/*
 * filemap.c - the buffered write path (kernel: mm/filemap.c
 * generic_perform_write(), with the ratelimited throttle of
 * balance_dirty_pages_ratelimited() at its end).
 *
 * The pages of one write change state at once; the kernel's per-folio
 * loop of write_begin/copy/write_end is one step, charged per folio.
 * With folio_size = auto a file keeps the folio size the first write into
 * its empty cache chose (the kernel chooses per allocation: a file
 * written with writes of several lengths or alignments mixes sizes, which
 * the model does not). The write runs under the
 * inode's i_rwsem (wbsim_file_write_lock()), and write_begin waits for a
 * folio that writeback holds locked. Left out: reading in a partly written
 * page that is not cached, short copies, fault-in, folio_wait_stable()
 * (only for devices that need stable pages: not the loop, RAM or NVMe
 * devices modelled).
 */
#include <wbsim/fs.h>
#include "core/lock.h"
#include "mm/filemap.h"
#include "defs/writeback.h"
#include "mm/page-writeback-trace.h"

/*
 * What copying @len bytes into @pages page cache pages costs. The cost
 * table's copy_page_ns is a whole 4 KiB page: copy_touch_ns of it is what
 * touching the destination page costs whatever the bytes (the TLB and
 * cache misses, the iov_iter set-up), the rest the bytes' transfer out of
 * the writer's hot buffer. A copy pays the former per page it touches and
 * the latter per byte, so a page costs copy_page_ns, and a 50-byte copy
 * into a page far more than 50/4096 of it (E8's small writes: 440 ns a
 * copy on the lab host, against 10 by the byte).
 */
static wbsim_time_t copy_cost(const struct wbsim_cpu_costs *c, uint64_t pages, uint64_t len)
{
	wbsim_time_t touch = MIN(c->copy_touch_ns, c->copy_page_ns);

	return pages * touch + (c->copy_page_ns - touch) * len / WBSIM_PAGE_SIZE;
}

bool wbsim_inode_needs_update_time(const struct wbsim_inode *inode, wbsim_time_t at)
{
	return wbsim_jiffies_at(inode->bdi->vm, at) != inode->mtime_tick;
}

wbsim_time_t wbsim_file_update_time(struct wbsim_inode *inode, wbsim_time_t at)
{
	uint64_t tick = wbsim_jiffies_at(inode->bdi->vm, at);

	if (tick == inode->mtime_tick)
		return 0;
	inode->mtime_tick = tick;
	return wbsim_fs_update_time(inode->bdi->fs, inode->fs_inode);
}

/* Models the folio order of __filemap_get_folio(FGP_CREAT) as iomap_get_folio()
 * and write_begin_get_folio() ask for it; leaves out the fallback to smaller
 * orders when the allocation fails or a folio already covers part of it. */
uint64_t wbsim_filemap_folio_pages(uint64_t pos, uint64_t len, uint64_t max_pages)
{
	uint64_t chunk = max_pages * WBSIM_PAGE_SIZE;
	uint64_t bytes = MIN(chunk - pos % chunk, len);
	uint64_t index = pos / WBSIM_PAGE_SIZE;
	unsigned int shift = 63 - (unsigned int)__builtin_clzll(MAX(bytes, 1));
	unsigned int order = shift <= WBSIM_PAGE_SHIFT ? 0 : shift - WBSIM_PAGE_SHIFT;

	order = MIN(order, (unsigned int)__builtin_ctzll(max_pages));
	if (index & ((UINT64_C(1) << order) - 1))
		order = (unsigned int)__builtin_ctzll(index);
	return UINT64_C(1) << order;
}

/*
 * filemap_dirty_folio()'s tracepoints (writeback_dirty_folio, then
 * writeback_mark_inode_dirty) for each folio of [first, first + nr) that
 * goes clean -> dirty, before the pages are marked. The first sees the
 * inode's i_state before the write, @state, the others with I_DIRTY_PAGES,
 * which the first's __mark_inode_dirty() set.
 */
static void trace_dirty_folios(struct wbsim_inode *inode, const wbsim_task *task, uint64_t first,
			       uint64_t nr, unsigned int state)
{
	uint64_t f = inode->folio_pages;

	for (uint64_t fo = first / f; fo * f < first + nr; fo++) {
		if (!wbsim_inode_folios_without(inode, WBSIM_PC_DIRTY, fo * f, f))
			continue;
		wbsim_trace_writeback_dirty_folio(inode, task, fo * f, state);
		state |= I_DIRTY_PAGES;
	}
}

/* Models generic_perform_write() + balance_dirty_pages_ratelimited()'s
 * decision; leaves out the page cache read-in of partial pages. */
wbsim_time_t wbsim_generic_perform_write(struct wbsim_inode *inode, struct wbsim_dirtier *d,
					 uint64_t pos, uint64_t len, bool *throttle,
					 wbsim_time_t *fs_cost)
{
	struct wbsim_bdi *bdi = inode->bdi;
	const struct wbsim_cpu_costs *c = bdi->costs;
	uint64_t first = pos / WBSIM_PAGE_SIZE;
	/* a write of part of a page dirties the whole page (the page is in
	 * the cache: reading it in first is not modelled) */
	uint64_t pages = (pos + len - 1) / WBSIM_PAGE_SIZE - first + 1;
	uint64_t newly, acct, allocated, calls, f, spanned;
	uint64_t folios;
	wbsim_time_t cost;
	/* the i_state the write's first __mark_inode_dirty() sees */
	unsigned int state = inode->i_state;

	/* the filesystem's folio size: chosen by the write that finds the
	 * cache empty, as __filemap_get_folio() sizes the folio it adds */
	if (inode->max_folio_pages && wbsim_page_cache_nr(&inode->pages, WBSIM_PC_PRESENT) == 0)
		wbsim_inode_set_folio_pages(inode,
					    wbsim_filemap_folio_pages(pos, len, inode->max_folio_pages));
	f = inode->folio_pages;
	/* the folios the write goes through: write_begin .. write_end once each */
	spanned = (first + pages - 1) / f - first / f + 1;
	/* folios that get their first dirty block (before they are marked) */
	folios = wbsim_inode_folios_without(inode, WBSIM_PC_DIRTY, first, pages);

	/* cgroup writeback: the inode gets its wb, the pages their memcg */
	if (d->memcg || inode->page_memcg)
		bdi->wb_ops->pages_dirtied(inode, d, first, pages);
	/* the tracepoints of the folios the write dirties anew */
	if (bdi->trace)
		trace_dirty_folios(inode, d->task, first, pages, state);
	/* folios the write must allocate (fio's last fadvise dropped them) */
	allocated = wbsim_inode_folios_without(inode, WBSIM_PC_PRESENT, first, pages);
	newly = wbsim_page_cache_mark_dirty(&inode->pages, first, pages);
	acct = wbsim_inode_dirty_charge(inode, folios, newly);
	/* one folio_account_dirtied() per folio the write dirties anew: the
	 * folios going clean -> dirty, or per block, the folios given new
	 * dirty blocks (at most the folios the write spans) */
	calls = inode->acct_folio > 1 ? folios : MIN(newly, spanned);
	if (pos + len > inode->size)
		inode->size = pos + len;
	/* the copy costs in proportion to the bytes and per page it touches
	 * (copy_cost), the bookkeeping per folio (the write path's loop takes
	 * a folio at a time: iomap_write_iter() bounds each step by the folio
	 * write_begin returned), an allocation per folio and per page of it */
	cost = c->write_syscall_ns + copy_cost(c, pages, len) +
	       spanned * c->dirty_folio_ns +
	       allocated * (c->page_alloc_ns + f * c->page_alloc_page_ns) +
	       calls * c->account_dirty_ns;
	*fs_cost = wbsim_fs_write(bdi->fs, inode->fs_inode, pos, len);
	cost += *fs_cost;
	if (acct)
		wbsim_account_page_dirtied(inode, d, acct);
	/* balance_dirty_pages_ratelimited(): the dirtier's own memcg's wb
	 * (NULL @throttle: the caller looks before each write instead) */
	if (throttle)
		*throttle = inode->wb &&
			    wbsim_dirtier_ratelimited(d, bdi->wb_ops->dirtier_wb(bdi, inode, d->memcg));
	return cost;
}

/* Models the inode_lock() of ->write_iter (xfs_file_buffered_write's
 * xfs_ilock(XFS_IOLOCK_EXCL), ext4_buffered_write_iter, generic_file_write_iter); IOCB_NOWAIT's
 * trylock is wbsim_file_write_trylock(). */
void wbsim_file_write_lock(struct wbsim_inode *inode, wbsim_task *task, wbsim_event_fn done,
			   void *arg)
{
	wbsim_lock_acquire(&inode->i_rwsem, task, done, arg);
}

/* Models the IOCB_NOWAIT inode lock of ->write_iter (xfs_ilock_iocb():
 * xfs_ilock_nowait(XFS_IOLOCK_EXCL), a down_write_trylock()): held at
 * once, or the write fails with -EAGAIN. */
bool wbsim_file_write_trylock(struct wbsim_inode *inode, wbsim_task *task)
{
	return wbsim_lock_trylock(&inode->i_rwsem, task);
}

/* Models inode_unlock() at the end of ->write_iter (up_write(), with
 * rwsem_wake() when a writer sleeps on it). */
wbsim_time_t wbsim_file_write_unlock(struct wbsim_inode *inode, wbsim_task *task)
{
	return wbsim_lock_release_waking(&inode->i_rwsem, task);
}

/* Does a write of @len bytes at @pos span the folio writeback holds locked? */
bool wbsim_filemap_folio_locked(const struct wbsim_inode *inode, uint64_t pos, uint64_t len)
{
	uint64_t folio = inode->wb_locked_folio;
	uint64_t first = pos / WBSIM_PAGE_SIZE, last = (pos + len - 1) / WBSIM_PAGE_SIZE;

	return folio != WBSIM_PGOFF_NONE && last >= folio && first < folio + inode->folio_pages;
}

/* Models __filemap_get_folio(FGP_LOCK)'s folio_lock() in write_begin
 * against writeback's folio lock; leaves out every other lock holder. */
bool wbsim_filemap_wait_folio_lock(struct wbsim_inode *inode, uint64_t pos, uint64_t len,
				   wbsim_event_fn done, void *arg)
{
	if (!wbsim_filemap_folio_locked(inode, pos, len))
		return false;
	wbsim_inode_wait(inode, WAIT_FOLIO_UNLOCK, done, arg);
	return true;
}
