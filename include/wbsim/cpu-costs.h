/* SPDX-License-Identifier: MIT */
/*
 * wbsim/cpu-costs.h - the CPU cost table: how much simulated CPU time each
 * piece of kernel work takes on the simulated machine.
 *
 * One table is used by the whole model (page cache, flusher, block layer,
 * PMEM). Its values are a host's: the defaults come from the built-in host
 * profile (lib/core/hosts/NAME.inc, each value with its source), measured in
 * the lab; a scenario's [costs] section (the only section that sets them),
 * or an included host profile of another host (lab/calibrate writes one),
 * sets any of them, visibly.
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
 *
 * Each member is the [costs] key of its name (memcpy_bandwidth in bytes
 * per second, every other in ns). What each one is, once: the help of its
 * row in lib/core/cpu-costs.c; its value and where that comes from: the
 * host profile, whose comment above each value records its source
 * (lib/core/hosts/NAME.inc). `sim-writeback --list-keys` prints the three
 * together, and `sim-writeback --explain-costs SCENARIO` how a write and a
 * written-back page add them up on a scenario's machine. Every CPU cost
 * is named WORK_ns, the CPU time of one WORK: these, a filesystem's
 * FS.WORK_ns in [costs] (xfs.alloc_ns), among them the loop device's
 * worker (loop_request_ns: the worker is kernel work on the host's CPUs,
 * so it belongs to the host profile, not to a device preset); host
 * profiles and scenarios set them by these keys.
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
	wbsim_time_t uring_queue_ns;
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
	wbsim_time_t loop_request_ns;
	wbsim_time_t loop_page_copy_ns;
	wbsim_time_t loop_page_alloc_ns;
};

WBSIM_END_DECLS

#endif /* WBSIM_CPU_COSTS_H */
