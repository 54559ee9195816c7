/* SPDX-License-Identifier: MIT */
/*
 * mm/writeback-control.h - shared state of the dirty-throttling algorithms
 * (kernel: mm/page-writeback.c, include/linux/writeback.h,
 * include/linux/backing-dev-defs.h).
 *
 * The structs here are small pieces of kernel state that the integrator
 * embeds in its own bdi / wb / domain / task objects:
 *
 *   struct wbsim_vm_dirty    the globals of mm/page-writeback.c (sysctls, HZ,
 *                            ratelimit_pages, bdi_min_ratio, wb_stat_error)
 *   struct wbsim_wb_domain   struct wb_domain (global or one memcg's)
 *   struct wbsim_bdi_dirty   the throttling part of struct backing_dev_info
 *   struct wbsim_wb_bw       the bandwidth part of struct bdi_writeback
 *                            (these two in defs/backing-dev-defs.h, with
 *                            the structs that embed them)
 *   struct wbsim_dtc         struct dirty_throttle_control, one per domain
 *                            and balance_dirty_pages() pass
 *
 * Units: quantities in pages, rates in pages/s, times in jiffies (HZ is a
 * field of struct wbsim_vm_dirty), ratios of bdis in BDI_RATIO_SCALE parts
 * per hundred, fixed point with RATELIMIT_CALC_SHIFT fractional bits.
 * Arithmetic is the kernel's 64-bit integer arithmetic (unsigned long is
 * uint64_t here), truncating division included.
 */
#ifndef WBSIM_MM_WRITEBACK_CONTROL_H
#define WBSIM_MM_WRITEBACK_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/flex-proportions.h"
#include "defs/backing-dev-defs.h"

/* Page size of the simulated machine (the model is written for 4 KiB). */
#define WBSIM_PAGE_SHIFT 12
#define WBSIM_PAGE_SIZE (UINT64_C(1) << WBSIM_PAGE_SHIFT)

/* The kernel's LONG_MAX, used as "no limit" page counts (sync chunks). */
#define WBSIM_LONG_MAX INT64_MAX

/* Fixed point of pos_ratio: 1.0 == 1 << RATELIMIT_CALC_SHIFT == 1024. */
#define WBSIM_RATELIMIT_CALC_SHIFT 10

/* bdi min/max ratios are stored in 1/BDI_RATIO_SCALE percent (>= v6.3). */
#define WBSIM_BDI_RATIO_SCALE 10000

/* Initial write bandwidth of a wb: 100 MiB/s in pages/s. */
#define WBSIM_INIT_BW (UINT64_C(100) << (20 - WBSIM_PAGE_SHIFT))

/* Below this many pages of nr_dirtied_pause, polling hurts IO (128 KiB). */
#define WBSIM_DIRTY_POLL_THRESH (128 >> (WBSIM_PAGE_SHIFT - 10))

/* The poll interval of a task whose wb has dirty_exceeded set (32 KiB). */
#define WBSIM_DIRTY_EXCEEDED_RATELIMIT (32 >> (WBSIM_PAGE_SHIFT - 10))

/* nr_dirtied_pause of a new task (kernel/fork.c: 128 KiB). */
#define WBSIM_INIT_NR_DIRTIED_PAUSE (128 >> (WBSIM_PAGE_SHIFT - 10))

/* A chunk of writeback is a multiple of this (4 MiB, fs-writeback.c). */
#define WBSIM_MIN_WRITEBACK_PAGES (4096 >> (WBSIM_PAGE_SHIFT - 10))

/* A chunk never exceeds 1/DIRTY_SCOPE of the global dirty limit. */
#define WBSIM_DIRTY_SCOPE 8

/* Bandwidth estimates are refreshed at most every 200 ms. */
static inline uint64_t wbsim_bandwidth_interval(unsigned int hz)
{
	return hz / 5 > 1 ? hz / 5 : 1;
}

/* A dirtier sleeps at most 200 ms at a time. */
static inline uint64_t wbsim_max_pause_jiffies(unsigned int hz)
{
	return hz / 5 > 1 ? hz / 5 : 1;
}

/* The fprop period: completions age by half every 3 s. */
static inline uint64_t wbsim_vm_completions_period_len(unsigned int hz)
{
	return 3 * (uint64_t)hz;
}

/**
 * struct wbsim_vm_dirty - globals of mm/page-writeback.c
 * @hz: jiffies per simulated second (1000, 250, 100)
 * @nr_cpus: number of (online) CPUs, for ratelimit_pages and wb_stat_error
 * @dirty_background_ratio: vm.dirty_background_ratio, percent (10)
 * @dirty_background_bytes: vm.dirty_background_bytes, bytes (0 = off)
 * @vm_dirty_ratio: vm.dirty_ratio, percent (20)
 * @vm_dirty_bytes: vm.dirty_bytes, bytes (0 = off)
 * @laptop_mode: vm.laptop_mode
 * @bdi_min_ratio: sum of min_ratio over all bdis, BDI_RATIO_SCALE units
 * @ratelimit_pages: per-CPU page budget between forced checks (32 at boot)
 * @wb_stat_error: per-cpu counter error of the wb stats, pages
 */
struct wbsim_vm_dirty {
	unsigned int hz;
	unsigned int nr_cpus;
	unsigned int dirty_background_ratio;
	uint64_t dirty_background_bytes;
	unsigned int vm_dirty_ratio;
	uint64_t vm_dirty_bytes;
	bool laptop_mode;
	unsigned int bdi_min_ratio;
	uint64_t ratelimit_pages;
	uint64_t wb_stat_error;
};

/**
 * struct wbsim_wb_domain - a dirty domain (struct wb_domain)
 * @completions: writeout completions of this domain (fprop global part)
 * @period_time: jiffy at which the fprop period timer fires, 0 = stopped
 * @dirty_limit: slowly following copy of thresh (update_dirty_limit())
 * @dirty_limit_tstamp: jiffy of the last dirty_limit update
 */
struct wbsim_wb_domain {
	struct wbsim_fprop_global completions;
	uint64_t period_time;
	uint64_t dirty_limit;
	uint64_t dirty_limit_tstamp;
};

/**
 * struct wbsim_dtc - one domain's numbers in one pass
 *	(struct dirty_throttle_control)
 * @gdtc: for a memcg domain, the global domain's dtc of the same pass;
 *	NULL for the global domain (the kernel's mdtc_gdtc())
 * @dom: the domain (global or the memcg's)
 * @wb_completions: the wb's completion counter in @dom
 * @wb: the wb's bandwidth state
 * @bdi: the wb's bdi
 * @avail: dirtyable memory of the domain (input)
 * @dirty: dirty pages of the domain (input; with or without writeback)
 * @wb_reclaimable: WB_RECLAIMABLE of the wb (input)
 * @wb_writeback: WB_WRITEBACK of the wb (input)
 * @thresh: dirty threshold (domain_dirty_limits())
 * @bg_thresh: background threshold (domain_dirty_limits())
 * @limit: hard_dirty_limit() (wb_position_ratio())
 * @wb_dirty: wb_reclaimable + wb_writeback (wb_dirty_limits())
 * @wb_thresh: the wb's share of @thresh (wb_dirty_limits())
 * @wb_bg_thresh: the wb's share of @bg_thresh (wb_dirty_limits())
 * @pos_ratio: position ratio, FP10 (wb_position_ratio())
 * @freerun: below the freerun ceiling (balance_dirty_pages())
 * @dirty_exceeded: over the wb and domain limits (balance_dirty_pages())
 */
struct wbsim_dtc {
	struct wbsim_dtc *gdtc;
	struct wbsim_wb_domain *dom;
	struct wbsim_fprop_local *wb_completions;
	struct wbsim_wb_bw *wb;
	const struct wbsim_bdi_dirty *bdi;

	uint64_t avail;
	uint64_t dirty;
	uint64_t wb_reclaimable;
	uint64_t wb_writeback;

	uint64_t thresh;
	uint64_t bg_thresh;
	uint64_t limit;
	uint64_t wb_dirty;
	uint64_t wb_thresh;
	uint64_t wb_bg_thresh;
	uint64_t pos_ratio;
	bool freerun;
	bool dirty_exceeded;
};

/* roundup_pow_of_two() for n >= 1. */
static inline uint64_t wbsim_roundup_pow_of_two(uint64_t n)
{
	return n <= 1 ? 1 : UINT64_C(1) << (64 - __builtin_clzll(n - 1));
}

/* ilog2(); like the kernel's non-constant form, ilog2(0) is -1. */
static inline int wbsim_ilog2(uint64_t n)
{
	return n ? 63 - __builtin_clzll(n) : -1;
}

/* KBps(): pages/s to KiB/s, as the tracepoints print rates. */
static inline uint64_t wbsim_kbps(uint64_t pages_per_sec)
{
	return pages_per_sec << (WBSIM_PAGE_SHIFT - 10);
}

/* Domain completions and their period timer (flex-proportions.c). */
void wbsim_wb_domain_init(struct wbsim_wb_domain *dom, uint64_t now);
bool wbsim_wb_domain_writeout_add(struct wbsim_wb_domain *dom,
				  struct wbsim_fprop_local *completions,
				  unsigned int max_prop_frac, uint64_t nr,
				  uint64_t now, unsigned int hz);
bool wbsim_writeout_period(struct wbsim_wb_domain *dom, uint64_t now,
			   unsigned int hz);

#endif /* WBSIM_MM_WRITEBACK_CONTROL_H */
