/* SPDX-License-Identifier: MIT */
/*
 * mm/vm.h - the memory of the simulated machine as writeback sees it: the
 * node counters of dirty and writeback pages, dirtyable memory, the global
 * dirty domain, the jiffies clock, and the four accounting points of page
 * dirtying and writeback (kernel: mm/page-writeback.c, mm/vmstat.c).
 */
#ifndef WBSIM_MM_VM_H
#define WBSIM_MM_VM_H

#include <wbsim/sim.h>
#include "mm/writeback-control.h"
#include "mm/throttle.h"
#include "mm/memcontrol.h"

struct wbsim_wb;

/**
 * struct wbsim_vm - machine-wide memory and writeback state
 * @sim: the simulation (for the clock)
 * @dirty: sysctls, HZ, ratelimit_pages, wb_stat_error
 * @dom: the global dirty domain (global_wb_domain)
 * @jiffy_ns: nanoseconds per jiffy (10^9 / HZ)
 * @dirty_expire_ns: vm.dirty_expire_centisecs in ns
 * @dirty_writeback_ns: vm.dirty_writeback_centisecs in ns
 * @total_pages: RAM of the machine
 * @unreclaimable_pages: memory that is never dirtyable: kernel, slab,
 *	anonymous memory of the running programs, and the reserves
 *	(totalreserve_pages); global_dirtyable_memory() is the rest
 * @nr_file_dirty: NR_FILE_DIRTY
 * @nr_writeback: NR_WRITEBACK
 * @nr_dirtied: NR_DIRTIED (ever)
 * @nr_written: NR_WRITTEN (ever); a dirtied page is dirty, under
 *	writeback or written: no path of the model drops a dirty page
 *	unwritten (the kernel's folio_account_cleaned() on truncate: fio lays
 *	its files out before any write, and fadvise(DONTNEED) keeps dirty
 *	pages)
 * @cpu_dirty: per-CPU bdp_ratelimits and dirty_throttle_leaks
 * @period_timer: the fprop period timer (writeout_period())
 * @memcgs: the memory cgroups (only the root unless a scenario makes some)
 */
struct wbsim_vm {
	wbsim_sim *sim;
	struct wbsim_vm_dirty dirty;
	struct wbsim_wb_domain dom;
	wbsim_time_t jiffy_ns;
	wbsim_time_t dirty_expire_ns;
	wbsim_time_t dirty_writeback_ns;
	uint64_t total_pages;
	uint64_t unreclaimable_pages;
	uint64_t nr_file_dirty;
	uint64_t nr_writeback;
	uint64_t nr_dirtied;
	uint64_t nr_written;
	struct wbsim_cpu_dirty *cpu_dirty;
	wbsim_timer period_timer;
	struct wbsim_memcg_tree memcgs;
};

/*
 * The jiffies clock of the simulated kernel. Like the kernel's
 * INITIAL_JIFFIES it does not start at 0: 0 means "never" or "stopped" in
 * dirty_paused_when and the fprop period_time, and a clock starting at 0
 * would make the first pass at boot lose its think-time credit.
 */
static inline uint64_t wbsim_initial_jiffies(const struct wbsim_vm *vm)
{
	return (uint64_t)(uint32_t)(-300 * (int64_t)vm->dirty.hz);
}

/* The jiffies clock at simulated time @t. */
static inline uint64_t wbsim_jiffies_at(const struct wbsim_vm *vm, wbsim_time_t t)
{
	return wbsim_initial_jiffies(vm) + t / vm->jiffy_ns;
}

static inline uint64_t wbsim_jiffies(const struct wbsim_vm *vm)
{
	return wbsim_jiffies_at(vm, wbsim_sim_now(vm->sim));
}

/* A duration in jiffies as ns. */
static inline wbsim_time_t wbsim_jiffies_to_ns(const struct wbsim_vm *vm, uint64_t j)
{
	return j * vm->jiffy_ns;
}

/* The simulated time at which the jiffies clock reads @j. */
static inline wbsim_time_t wbsim_jiffy_time(const struct wbsim_vm *vm, uint64_t j)
{
	return (j - wbsim_initial_jiffies(vm)) * vm->jiffy_ns;
}

void wbsim_vm_init(struct wbsim_vm *vm, wbsim_sim *sim, unsigned int hz,
		   unsigned int nr_cpus, uint64_t total_bytes, uint64_t unreclaimable_bytes);
void wbsim_vm_clear(struct wbsim_vm *vm);

/* global_dirtyable_memory(): free + file LRU is constant while page cache
 * replaces free memory, so it is RAM less what is never dirtyable. */
uint64_t wbsim_vm_dirtyable_memory(const struct wbsim_vm *vm);

/*
 * wbsim_vm_check() - the vm's own invariants (--check): no global counter
 * went below zero, and every page dirtied was written, or is dirty or
 * under writeback still. Return: FALSE with WBSIM_ERROR_SIMULATION saying
 * the first violation.
 */
gboolean wbsim_vm_check(const struct wbsim_vm *vm, GError **error);

/* Global thresholds of this moment (domain_dirty_limits() on G). */
void wbsim_global_dirty_limits(const struct wbsim_vm *vm, uint64_t *bg_thresh,
			       uint64_t *thresh);

/* A completion of @nr pages on @wb: the fprop event (__wb_writeout_add),
 * arming the period timer if it was stopped. */
void wbsim_vm_writeout_add(struct wbsim_vm *vm, struct wbsim_wb *wb, uint64_t nr);

/* Set up the dirty domain of a new non-root memcg (memcg->cgwb_domain). */
void wbsim_vm_memcg_domain_init(struct wbsim_vm *vm, struct wbsim_memcg *memcg);

#endif /* WBSIM_MM_VM_H */
