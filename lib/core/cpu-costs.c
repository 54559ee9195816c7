/* SPDX-License-Identifier: MIT */
/*
 * core/cpu-costs.c - the default CPU cost table and its setter by name.
 *
 * Sources. "lab" values were measured on the kernel of the lab host (a
 * 2-vCPU AMD EPYC VM, Linux 6.18, fio 3.33; lab/presets/lab-host.inc) by
 * lab/run-kernel's system-wide perf sample (perf record -a -g -F 499), each
 * sample counted for the innermost kernel function of the cost table's
 * work on its stack (lab/wbsimlab/record.py, CATEGORIES), per write call or
 * per page, as `lab/costs lab/results/WORKLOAD` prints them (median of 3
 * runs; the workloads are named at each value). `lab/costs --table`
 * computes every "lab" row below from lab/results by the formula its
 * comment gives. "bench" values come from bench/bench-memcpy on the same
 * host. "reasoning" values count the kernel operations involved and are
 * rounded. The costs are those of the lab host; a machine preset scales
 * them all by its [machine] cpu_speed.
 *
 * The host: lab/results was recorded on host build 6.18.44-fc-v1045 (a
 * paravirtualised guest, lab/README.md), and the rows measured from it say
 * "v1045". The table was first measured on build v669, whose figures are
 * kept as "v669:" where a row changed: v1045's kernel work costs more in
 * most rows (every irq enable there is a call to the hypervisor), by
 * different amounts, which is why the rows were re-measured one by one
 * rather than scaled.
 */
#include <stddef.h>
#include <string.h>

#include <wbsim/cpu-costs.h>
#include <wbsim/error.h>
#include "core/arg-check.h"
#include "core/param.h"
#include "core/cpu-costs.h"

static const struct wbsim_cpu_costs default_costs = {
	/*
	 * lab v1045: copy_folio_from_iter_atomic per 4 KiB write: 913 ns
	 * (e1-lab-ram-xfs-1cpu), 854 (e1-lab-ram-ext4-1cpu), 733
	 * (invalidate1-lab-ram-xfs), 741 (invalidate0-lab-ram-xfs, page
	 * cached): median 798. v669: 749, 736, 590, 542: 700.
	 */
	.copy_page_ns = 800,
	/*
	 * lab v1045: a 50-byte write's copy into a cached page, 440 ns (E8's
	 * 15 small writers, lab/run-kernel's perf_program_threads): what
	 * touching the destination page costs whatever the bytes (the TLB and
	 * cache misses, the iov_iter set-up), the rest of copy_page_ns going
	 * by the byte: 435 + (800 - 435) * 50 / 4096 = 440. Was derived from
	 * memcpy_bandwidth, which is a cold-to-cold rate and does not apply
	 * to a copy out of the writer's hot buffer.
	 */
	.copy_touch_ns = 435,
	/*
	 * lab v1045: the page cache lookup of a write, once per folio it
	 * writes into (__filemap_get_folio, filemap_get_entry): 435
	 * (e1-lab-ram-xfs-1cpu), 374 (invalidate1-lab-ram-xfs), 540
	 * (invalidate0-lab-ram-xfs), all 4 KiB folios: median 435. v669: 309,
	 * 252, 431, and 326-651 per 1 MiB write into one 1 MiB folio
	 * (seq-6g-lab-disk-xfs-*): 400.
	 */
	.dirty_folio_ns = 450,
	/*
	 * lab v1045: the write path outside the itemised work
	 * (generic_perform_write and the filesystem's write_iter, the syscall
	 * or io_uring issue, unattributed kernel time): 758 + 137 + 643 = 1538
	 * ns per write (e1-lab-ram-xfs-1cpu, io_uring; `lab/costs --table`
	 * prints 1526, the median of the runs' sums). v669: 636 + 147 + 513 =
	 * 1296 (e1-lab-ram-xfs-1cpu), 524 + 172 + 324 + fio's 79 in user space
	 * = 1099 (invalidate0-lab-ram-xfs, psync): 1300.
	 */
	.write_syscall_ns = 1500,
	/*
	 * lab v1045: writepages per folio written back in long runs of 4 KiB
	 * folios (writeback_iter, iomap_writeback_folio, the folio's
	 * dirty/writeback transitions): 671 (e1-lab-ram-xfs-1cpu, fio's
	 * fadvise writeback), 781 (invalidate1-lab-ram-xfs), 750
	 * (e1-lab-ram-ext4-1cpu), 979 (the flusher of
	 * invalidate0-lab-ram-xfs): median 766. v669: 478, 495, 563, 624: 550.
	 * Per folio, whatever its size: the walk
	 * and the flag transitions visit a folio once (writeback_iter()
	 * takes nr_to_write down by folio_nr_pages(), folio_start_writeback()
	 * moves the counters by folio_nr_pages() in one update); the lab's
	 * 1 MiB folios (seq-6g-lab-disk-xfs-*) show no writepages samples
	 * at the 1 ns a page the table resolves. Was 1500 (reasoning).
	 */
	.writepages_folio_ns = 750,
	/*
	 * lab v1045: per contiguous run of dirty pages (ioend and bio): the
	 * flusher of e2-lab-ram-xfs writes single-page runs and spends 1642 ns
	 * a page in writepages, 876 more than the 766 of writepages_folio_ns.
	 * v669: 800. Replaces the 28 us fitted to E1 base, which the lab does
	 * not show.
	 */
	.bio_build_ns = 900,
	/* lab v1045: submit_bio .. blk_mq_submit_bio: 633 ns per single-page
	 * bio (e2-lab-ram-xfs flusher). v669: 464: 400. */
	.blk_submit_rq_ns = 650,
	/* reasoning: one bvec: segment count, DMA mapping of a page */
	.blk_submit_page_ns = 20,
	/*
	 * lab: e2-lab-ram-xfs completes single-page requests at 748 ns of
	 * interrupt-side work a page, of which blk_complete_page_ns below is
	 * the page's share; the request's own part (blk_mq_end_request, bio
	 * chain, tag) about 200 ns, with the interrupt entry 500
	 */
	.blk_complete_rq_ns = 500,
	/*
	 * lab v1045: ending writeback per page of 4 KiB folios
	 * (iomap_finish_ioend_buffered, folio_end_writeback and its
	 * counters): 390 (e1-lab-ram-xfs-1cpu), 463 (invalidate1-lab-ram-xfs),
	 * 522 (e1-lab-ram-ext4-1cpu: ext4's buffer heads): median 463. v669:
	 * 354, 338, 472: 400. Charged per folio
	 * for writeback of large folios: the lab's 1 MiB folios complete at
	 * 12-22 ns a page (seq-6g-lab-disk-xfs-*, fresh runs), about 400 a
	 * folio.
	 */
	.blk_complete_page_ns = 450,
	/*
	 * bench v1045: 1 MiB copies over a 256 MiB footprint with 8-byte
	 * non-temporal stores, as the PMEM driver copies a bio
	 * (memcpy_flushcache), one thread, the other CPU idle: 6364, 5991,
	 * 6572 MB/s (bench/bench-memcpy, three runs; glibc's memcpy of the
	 * same copies, which reads each destination line first, 4679-4881).
	 * v669: 7800, glibc's memcpy.
	 */
	.memcpy_bandwidth = 6400000000ull,
	/*
	 * lab v1045: io_uring issue and reaping (io_submit_sqes, io_issue_sqe,
	 * io_cqring_wait) 936 ns and fio in user space 579 per write: 1514
	 * (e1-lab-ram-xfs-1cpu, writes issued inline). v669: 732 + 386: 1200.
	 */
	.uring_io_ns = 1500,
	/*
	 * lab v1045: ext4 takes no nowait buffered writes, so every write is
	 * punted to io-wq: io_uring work of 3319 ns per write
	 * (e1-lab-ram-ext4-1cpu) against 936 inline on XFS: 2383 more. v669:
	 * 2655 - 732: 2000.
	 */
	.uring_punt_ns = 2400,
	/*
	 * lab: the fio thread's throttle CPU over its balance_dirty_pages
	 * events, every one a BDP_ASYNC pass of an IOCB_NOWAIT write (the
	 * io-wq workers sleep the pauses): 3641, 4433, 4534 ns
	 * (e2-lab-ram-xfs), 5709, 5718, 4872 (e2-lab-disk-xfs); the lab
	 * records two tracepoints per pass (global_dirty_state and
	 * balance_dirty_pages), which are in these figures
	 */
	.balance_dirty_pages_ns = 4400,
	/*
	 * lab: a write into a folio missing from the cache: folio
	 * allocation, memcg charge and page cache insertion
	 * (filemap_add_folio and below) and the LRU add with its drains, per
	 * folio, plus page_alloc_page_ns per page of it. 4 KiB folios (a
	 * page fio's last fadvise dropped): 1012 + 109 = 1121
	 * (e1-lab-ram-xfs-1cpu), 931 + 116 = 1047 (invalidate1-lab-ram-xfs).
	 * 1 MiB folios (a 1 MiB write into a new file): 3581 + 651 = 4232
	 * (seq-6g-lab-disk-xfs-default), 5225 + 326 = 5551
	 * (seq-6g-lab-disk-xfs-strictlimit). The two sizes give
	 * F + P = 1121 and F + 256 P = 4232..5551: P = 12..17 ns a page,
	 * F = 1105..1109; taken as 1135 + 15 so that a 4 KiB folio keeps the
	 * 1150 measured before the split. v1045 (4 KiB folios): 1128
	 * (e1-lab-ram-xfs-1cpu), 1188 (invalidate1-lab-ram-xfs): median 1158,
	 * unchanged within 1%.
	 */
	.page_alloc_ns = 1135,
	.page_alloc_page_ns = 15,
	/*
	 * lab v1045: folio_mark_dirty .. folio_account_dirtied per page that
	 * becomes dirty: 447 (e1-lab-ram-xfs-1cpu), 455
	 * (invalidate1-lab-ram-xfs). v669: 352, 316: 375.
	 */
	.account_dirty_ns = 450,
	/*
	 * lab v1045: mapping_try_invalidate and the release of each clean
	 * folio at fadvise(DONTNEED): 867 ns per page (e1-lab-ram-xfs-1cpu),
	 * 926 (invalidate1-lab-ram-xfs), 1383 (e1-lab-ram-ext4-1cpu): median
	 * 926. v669: 608, 643, 1003: 700.
	 */
	.invalidate_page_ns = 900,
	/*
	 * lab: a sleep and a wake-up. perf bench sched pipe -T (two threads
	 * that wake each other through a pipe: per round trip 2 sleeps, 2
	 * wake-ups and 4 pipe syscalls) under perf stat -e task-clock: 12.9 us
	 * of CPU a round trip on one CPU, 9.9 us on two, of which about 6 us
	 * are the syscalls (1.5 us each on this host, lab/contended-writes'
	 * lone writer): 2.0-3.5 us for a sleep and its wake-up, measured on a
	 * machine loaded by other work (which inflated the committed E8
	 * workload's CPU 1.6-3x; see lab/README.md). Split 2:1 between the
	 * sleeper (the rwsem slowpath, schedule() out and the switch back in)
	 * and the waker (try_to_wake_up with its IPI): reasoning.
	 * lab/contended-writes counts how rare both are on i_rwsem: 0.001
	 * sleeps and 0.002 wake-ups per write with 15 writers on 2 CPUs.
	 */
	.rwsem_sleep_ns = 2000,
	.rwsem_wake_ns = 1000,
	/*
	 * lab: E8's 15 small writers (lab/run-kernel's perf_program_threads,
	 * the program's worker threads only, perf at 999 Hz, under load):
	 * do_syscall_64 3126 ns a write less xfs_file_buffered_write's 2812
	 * (the iolock's hold, its taking and its release) = 314 in the
	 * kernel outside the lock, and 125 in user space (__libc_pwrite,
	 * the program's loop): 439
	 */
	.syscall_entry_ns = 400,
};

const struct wbsim_cpu_costs *wbsim_cpu_costs_default(void)
{
	return &default_costs;
}

void wbsim_cpu_costs_init(struct wbsim_cpu_costs *costs)
{
	*costs = default_costs;
}

#define COST_NS(f, help) \
	{ #f, WBSIM_PARAM_TIME, offsetof(struct wbsim_cpu_costs, f), NULL, NULL, 0, 0, help }

/* The cost table as a parameter table (struct wbsim_param), for setting by key. */
static const struct wbsim_param cost_params[] = {
	COST_NS(copy_page_ns, "copying one page of a write into the page cache"),
	COST_NS(copy_touch_ns, "the part of copy_page_ns a copy pays per page it touches, whatever its bytes"),
	COST_NS(dirty_folio_ns, "page cache lookup of a write, per folio it writes into"),
	COST_NS(write_syscall_ns, "the write path outside the itemised work, per write"),
	COST_NS(writepages_folio_ns, "writepages per folio written back"),
	COST_NS(bio_build_ns, "building the ioend and bio of a run of dirty pages"),
	COST_NS(blk_submit_rq_ns, "submit_bio to blk_mq_submit_bio, per bio"),
	COST_NS(blk_submit_page_ns, "submission per page (one bvec)"),
	COST_NS(blk_complete_rq_ns, "completion interrupt per request"),
	COST_NS(blk_complete_page_ns, "ending writeback per page (per folio of a large folio)"),
	{ "memcpy_bandwidth", WBSIM_PARAM_RATE,
	  offsetof(struct wbsim_cpu_costs, memcpy_bandwidth), NULL, NULL, 1, 1.8e19,
	  "one CPU's copy bandwidth" },
	COST_NS(uring_io_ns, "io_uring issue and reaping per write"),
	COST_NS(uring_punt_ns, "io_uring punt to io-wq per write"),
	COST_NS(balance_dirty_pages_ns, "a balance_dirty_pages() pass that returns -EAGAIN (BDP_ASYNC)"),
	COST_NS(page_alloc_ns, "allocating, charging and inserting a page cache folio, per folio"),
	COST_NS(page_alloc_page_ns, "allocating a page cache folio, per 4 KiB page of it"),
	COST_NS(account_dirty_ns, "accounting a page that becomes dirty"),
	COST_NS(invalidate_page_ns, "invalidating a clean page at fadvise(DONTNEED)"),
	COST_NS(rwsem_sleep_ns, "a writer sleeping on a contended rw_semaphore, per sleep"),
	COST_NS(rwsem_wake_ns, "waking a writer that sleeps on an rw_semaphore, per wake-up"),
	COST_NS(syscall_entry_ns, "the part of write_syscall_ns outside the inode lock, per write"),
	{ .name = NULL },
};

const struct wbsim_param *wbsim_cpu_costs_params(void)
{
	return cost_params;
}

gboolean wbsim_cpu_costs_set(struct wbsim_cpu_costs *costs, const char *key,
			     const char *value, const char *file,
			     unsigned int line, GError **error)
{
	wbsim_check_arg(costs && key && value, FALSE, error);
	return wbsim_param_set(cost_params, costs, key, value, "[cpu]", file, line,
			       error);
}
