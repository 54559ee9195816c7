/* SPDX-License-Identifier: MIT */
/*
 * wbsim/cpu-costs.h - the CPU cost table: how much simulated CPU time each
 * piece of kernel work takes on the simulated machine.
 *
 * One table is used by the whole model (page cache, flusher, block layer,
 * PMEM). Its values are a host's: the defaults come from the built-in host
 * profile (lib/core/hosts/NAME.inc, each value with its source), measured in
 * the lab; a scenario's [costs] section, or an included host profile of
 * another host (lab/calibrate writes one), sets any of them, visibly.
 *
 * A device model reads the run's table through wbsim_device_costs()
 * (wbsim/device.h); the library fills it. The table is read-only to
 * models.
 */
#ifndef WBSIM_CPU_COSTS_H
#define WBSIM_CPU_COSTS_H

#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>

WBSIM_BEGIN_DECLS

/**
 * struct wbsim_cpu_costs - CPU time of kernel work, in ns unless named
 * @copy_page_ns: write(): copy one 4 KiB page from user memory into the
 *	page cache (copy_page_from_iter_atomic on a cold destination page)
 * @dirty_folio_ns: write(): the bookkeeping of a write per folio it
 *	writes into (page cache lookup, write_begin/write_end: the write
 *	path's loop goes folio by folio); a folio not in the cache also
 *	costs @page_alloc_ns and @page_alloc_page_ns per page, a folio
 *	that becomes dirty @account_dirty_ns
 * @write_syscall_ns: write(): fixed cost per syscall (entry/exit, fdget,
 *	file_update_time, iomap iteration set-up), independent of its size
 * @writepages_folio_ns: writeback: per-folio work in writepages, whatever
 *	the folio's size (writeback_iter's lookup of the dirty tag,
 *	folio_clear_dirty_for_io, folio_start_writeback, adding the folio to
 *	the ioend's bio)
 * @bio_build_ns: writeback (flusher or a task writing back): per
 *	contiguous run of dirty pages, i.e. per ioend and bio (ioend and bio
 *	allocation and release, the filesystem's per-ioend work)
 * @blk_submit_rq_ns: submit_bio: per request (bio checks, plug or tag
 *	allocation, request set-up, scheduler insert, dispatch, doorbell)
 * @blk_submit_page_ns: submit_bio: per 4 KiB page (segment mapping, DMA
 *	mapping of one bvec)
 * @blk_complete_rq_ns: completion: per request (interrupt, softirq,
 *	blk_mq_end_request, bio_endio chain, tag release)
 * @blk_complete_page_ns: completion: per 4 KiB page, including ending
 *	writeback of its page (folio_end_writeback, writeback counters,
 *	waking waiters); the end_io callback is charged nothing more. For
 *	writeback of large folios, per folio: the completion walks one bvec
 *	per folio and ends each folio's writeback once
 * @memcpy_bandwidth: bytes per second one CPU copies in a large copy
 *	with non-temporal stores (PMEM in block mode copies each bio so, at
 *	this rate: memcpy_flushcache)
 * @uring_io_ns: fio's io_uring engine, buffered writes: the fio thread's
 *	work per write besides the write itself (its share of io_uring_enter,
 *	the SQE, reaping the CQE, fio's own per-I/O bookkeeping)
 * @sync_io_ns: fio's engines that issue every buffered write with a system
 *	call of its own (psync, sync, pvsync, pvsync2, libaio's io_submit):
 *	per write, the call's entry and exit and fio's own work per I/O in
 *	user space beyond @write_syscall_ns (which io_uring's writes, issued
 *	in batches, pay with @uring_io_ns instead)
 * @uring_punt_ns: io_uring: a buffered write punted to the io-wq worker
 *	(the inline issue that returned -EAGAIN or was skipped, io_wq_enqueue,
 *	the worker's dequeue, posting the CQE and waking the fio thread)
 * @balance_dirty_pages_ns: one balance_dirty_pages() pass that does not
 *	sleep (the limits, the wb's stats, the position ratio); charged
 *	where io_uring's IOCB_NOWAIT write gets -EAGAIN from it (BDP_ASYNC)
 * @page_alloc_ns: write(): a folio the write finds missing from the page
 *	cache: allocation, memcg charge, insertion, LRU add (batched, with the
 *	drains); per folio
 * @page_alloc_page_ns: write(): the part of that allocation that grows
 *	with the folio's size, per 4 KiB page of it (the buddy allocator's
 *	per-page preparation)
 * @account_dirty_ns: write(): a page that becomes dirty: folio_mark_dirty
 *	with the xarray tag and the node, wb and memcg counters
 * @invalidate_page_ns: fadvise(DONTNEED): per clean page dropped from the
 *	cache (mapping_try_invalidate, the folio's release and freeing)
 * @rwsem_sleep_ns: a writer that sleeps on a contended rw_semaphore (the
 *	inode's i_rwsem): the slowpath's queueing and its context switches
 *	out and back in, paid when the lock is handed to it
 * @rwsem_wake_ns: the releaser of that rw_semaphore waking the sleeper
 *	(rwsem_wake, wake_up_q, try_to_wake_up with its IPI)
 * @syscall_entry_ns: write(): the part of @write_syscall_ns run before the
 *	inode lock is taken and after it is dropped (the system call's entry
 *	and exit, fdget, vfs_write, the caller's user-space side); a writer
 *	runs it on a CPU before it asks for the lock of a file other jobs
 *	write too
 * @copy_touch_ns: write(): the part of @copy_page_ns a copy pays for each
 *	page it touches whatever its length (the destination's TLB and cache
 *	misses, the iov_iter set-up); the rest of @copy_page_ns goes by the
 *	byte, so a whole page costs @copy_page_ns and a 50-byte copy about
 *	@copy_touch_ns
 */
struct wbsim_cpu_costs {
	wbsim_time_t copy_page_ns;
	wbsim_time_t dirty_folio_ns;
	wbsim_time_t write_syscall_ns;
	wbsim_time_t writepages_folio_ns;
	wbsim_time_t bio_build_ns;
	wbsim_time_t blk_submit_rq_ns;
	wbsim_time_t blk_submit_page_ns;
	wbsim_time_t blk_complete_rq_ns;
	wbsim_time_t blk_complete_page_ns;
	uint64_t memcpy_bandwidth;
	wbsim_time_t uring_io_ns;
	wbsim_time_t uring_punt_ns;
	wbsim_time_t balance_dirty_pages_ns;
	wbsim_time_t page_alloc_ns;
	wbsim_time_t account_dirty_ns;
	wbsim_time_t invalidate_page_ns;
	wbsim_time_t rwsem_sleep_ns;
	wbsim_time_t rwsem_wake_ns;
	wbsim_time_t syscall_entry_ns;
	wbsim_time_t page_alloc_page_ns;
	wbsim_time_t copy_touch_ns;
	wbsim_time_t sync_io_ns;
};

WBSIM_END_DECLS

#endif /* WBSIM_CPU_COSTS_H */
