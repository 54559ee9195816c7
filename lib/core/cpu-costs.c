/* SPDX-License-Identifier: MIT */
/*
 * core/cpu-costs.c - the CPU cost table's keys, and its defaults read from
 * the built-in host profile (core/host-profile.h: lib/core/hosts/NAME.inc,
 * where each value stands with its source). What each cost is: the rows
 * below, the one description of each (wbsim/cpu-costs.h points here). A machine preset
 * scales them all by its [machine] cpu_speed; a scenario's [costs] sets
 * any of them.
 */
#include <stddef.h>
#include <string.h>

#include <wbsim/cpu-costs.h>
#include <wbsim/error.h>
#include "core/arg-check.h"
#include "core/param.h"
#include "core/cpu-costs.h"
#include "core/host-profile.h"

#define COST_NS(f, help) \
	{ #f, WBSIM_PARAM_TIME, offsetof(struct wbsim_cpu_costs, f), NULL, NULL, 0, 0, help }

/*
 * The cost table as a parameter table (struct wbsim_param), for setting by
 * key: one row per member of struct wbsim_cpu_costs, and its help is the
 * one description of the cost (what work it is, and per what), printed by
 * sim-writeback --list-keys and --explain-costs with the value and the
 * source the host profile records (core/host-profile.h).
 */
static const struct wbsim_param cost_params[] = {
	COST_NS(copy_page_ns, "write(): copying one 4 KiB page from user memory into the page cache (copy_page_from_iter_atomic on a cold destination page): copy_touch_ns of it per page touched, the rest by the byte"),
	COST_NS(copy_touch_ns, "write(): the part of copy_page_ns a copy pays for each page it touches whatever its length (the destination's TLB and cache misses, the iov_iter set-up): a whole page costs copy_page_ns, a 50-byte copy about copy_touch_ns"),
	COST_NS(dirty_folio_ns, "write(): the bookkeeping per folio a write goes through (page cache lookup, write_begin/write_end: the write path's loop goes folio by folio)"),
	COST_NS(write_syscall_ns, "write(): fixed cost per call, independent of its size (entry and exit, fdget, file_update_time's checks, the iomap iteration's set-up): the write path outside the itemised work"),
	COST_NS(writepages_folio_ns, "writeback: per folio written back, whatever its size (writeback_iter's lookup of the dirty tag, folio_clear_dirty_for_io, folio_start_writeback, adding the folio to the ioend's bio)"),
	COST_NS(bio_build_ns, "writeback (the flusher or a task writing back): per contiguous run of dirty pages, i.e. per ioend and bio (their allocation and release, the filesystem's per-ioend work)"),
	COST_NS(blk_submit_rq_ns, "submit_bio: per bio (bio checks, plug or tag allocation, request set-up, scheduler insert, dispatch, doorbell)"),
	COST_NS(blk_submit_page_ns, "submit_bio: per 4 KiB page (segment mapping, DMA mapping of one bvec)"),
	COST_NS(blk_complete_rq_ns, "completion: per request (interrupt, softirq, blk_mq_end_request, the bio_endio chain, tag release)"),
	COST_NS(blk_complete_page_ns, "completion: per 4 KiB page, ending writeback of its page (folio_end_writeback, writeback counters, waking waiters); per folio for large folios (one bvec and one folio_end_writeback per folio)"),
	{ "memcpy_bandwidth", WBSIM_PARAM_RATE,
	  offsetof(struct wbsim_cpu_costs, memcpy_bandwidth), NULL, NULL, 1, 1.8e19,
	  "bytes per second one CPU copies in a large copy with non-temporal stores (PMEM in block mode copies each bio so: memcpy_flushcache)" },
	COST_NS(uring_io_ns, "fio's io_uring engine, buffered writes: the fio thread's work per write besides the write itself (its share of io_uring_enter, the SQE, reaping the CQE, fio's own per-I/O bookkeeping)"),
	COST_NS(uring_punt_ns, "io_uring: the io-wq worker's part of a buffered write punted to it (io_worker_handle_work's dequeue, the issue up to ->write_iter, posting the CQE and waking the fio thread)"),
	COST_NS(uring_queue_ns, "io_uring: the submitter's part of a buffered write punted to io-wq, beyond an inline write's: mostly the completion the worker hands back (the task_work run in the submitter, its reaping and waits), io_queue_iowq itself a small part"),
	COST_NS(sync_io_ns, "fio's engines that issue every buffered write with a system call of its own (psync, sync, pvsync, pvsync2, libaio's io_submit): per write, the call's entry and exit and fio's user-space work beyond write_syscall_ns (io_uring's batched writes pay uring_io_ns instead)"),
	COST_NS(balance_dirty_pages_ns, "one balance_dirty_pages() pass that does not sleep (the limits, the wb's stats, the position ratio); charged where io_uring's IOCB_NOWAIT write gets -EAGAIN from it (BDP_ASYNC)"),
	COST_NS(page_alloc_ns, "write(): per folio the write finds missing from the page cache: allocation, memcg charge, insertion, LRU add (batched, with the drains)"),
	COST_NS(page_alloc_page_ns, "write(): the part of that allocation that grows with the folio's size, per 4 KiB page of it (the buddy allocator's per-page preparation)"),
	COST_NS(account_dirty_ns, "write(): per folio_account_dirtied() call, a page (or a whole-folio-accounted folio) that becomes dirty: folio_mark_dirty with the xarray tag and the node, wb and memcg counters"),
	COST_NS(invalidate_page_ns, "fadvise(DONTNEED): per clean page dropped from the cache (mapping_try_invalidate, the folio's release and freeing)"),
	COST_NS(rwsem_sleep_ns, "a writer that sleeps on a contended rw_semaphore (the inode's i_rwsem): the slowpath's queueing and its context switches out and back in, paid when the lock is handed to it"),
	COST_NS(rwsem_wake_ns, "the releaser of that rw_semaphore waking the sleeper (rwsem_wake, wake_up_q, try_to_wake_up with its IPI), per wake-up"),
	COST_NS(syscall_entry_ns, "write(): the part of write_syscall_ns (and of a synchronous engine's sync_io_ns) run before the inode lock is taken and after it is dropped (the system call's entry and exit, fdget, vfs_write, the caller's user space); a writer runs it on a CPU before it asks for the lock of a file other jobs write too, and for an io_uring write punted to io-wq the fio thread runs it (io_uring_enter), the worker only the rest"),
	COST_NS(loop_request_ns, "the loop device's worker (no direct I/O, block/dev-loop.c): per request, besides its pages (loop_queue_work's hand-over, the worker's dequeue, vfs_iter_write's set-up into the backing file, the request's completion)"),
	COST_NS(loop_page_copy_ns, "the loop device's worker: per 4 KiB page of a request written into a backing page that exists (shmem's write_begin/write_end and the copy from a page cache page written back, long out of the CPU's caches)"),
	COST_NS(loop_page_alloc_ns, "the loop device's worker: the extra per 4 KiB backing page written the first time (tmpfs allocates, charges and LRU-adds it)"),
	{ .name = NULL },
};

const struct wbsim_param *wbsim_cpu_costs_params(void)
{
	return cost_params;
}

/* Every row from the built-in host profile, once. */
static gpointer defaults_load(gpointer unused)
{
	struct wbsim_cpu_costs *costs = g_new0(struct wbsim_cpu_costs, 1);

	(void)unused;
	for (const struct wbsim_param *p = cost_params; p->name; p++) {
		const struct wbsim_ini_entry *e = wbsim_host_profile_lookup(p->name);
		g_autoptr(GError) error = NULL;

		/* tests/core/test-host-profile.c holds the profile complete */
		if (!e)
			g_critical("%s: [costs] has no %s", wbsim_host_profile_name(), p->name);
		else if (!wbsim_param_apply(p, costs, e->value, "[costs]", e->file, e->line,
					    &error))
			g_critical("%s", error->message);
	}
	return costs;
}

const struct wbsim_cpu_costs *wbsim_cpu_costs_default(void)
{
	static GOnce once = G_ONCE_INIT;

	return g_once(&once, defaults_load, NULL);
}

void wbsim_cpu_costs_init(struct wbsim_cpu_costs *costs)
{
	*costs = *wbsim_cpu_costs_default();
}

gboolean wbsim_cpu_costs_set(struct wbsim_cpu_costs *costs, const char *key,
			     const char *value, const char *file,
			     unsigned int line, GError **error)
{
	wbsim_check_arg(costs && key && value, FALSE, error);
	return wbsim_param_set(cost_params, costs, key, value, "[costs]", file, line,
			       error);
}
