/* SPDX-License-Identifier: MIT */
/*
 * mm/dirty-limits.c - dirty thresholds (kernel: mm/page-writeback.c).
 *
 * From dirtyable memory "avail" a domain derives
 *
 *	thresh    = dirty_ratio * avail            (or dirty_bytes)
 *	bg_thresh = dirty_background_ratio * avail (or dirty_background_bytes)
 *	freerun   = (thresh + bg_thresh) / 2       no throttling below this
 *	limit     = max(thresh, dom.dirty_limit)   hard limit, follows thresh
 *	                                           up at once, down by 1/32
 *	setpoint  = (freerun + limit) / 2          target of the control line
 *
 * and a wb gets the share of thresh given by its recent writeout fraction
 * (flex-proportions.c), bounded by the bdi's min/max ratios.
 */
#include "mm/dirty-limits.h"

/**
 * wbsim_wb_stat_error() - the error bound of per-cpu wb stat reads
 * @nr_cpus: number of CPUs
 *
 * Models wb_stat_error(): nr_cpu_ids * WB_STAT_BATCH with WB_STAT_BATCH =
 * 8 * (1 + ilog2(nr_cpus)); an SMP kernel is assumed (8 for one CPU).
 *
 * Return: the error in pages (256 for 8 CPUs).
 */
uint64_t wbsim_wb_stat_error(unsigned int nr_cpus)
{
	if (nr_cpus == 0)
		nr_cpus = 1;
	return (uint64_t)nr_cpus * 8 * (1 + (uint64_t)wbsim_ilog2(nr_cpus));
}

/**
 * wbsim_vm_dirty_init() - the kernel's boot defaults
 * @vm: the globals to fill
 * @hz: jiffies per second
 * @nr_cpus: number of CPUs
 *
 * dirty_ratio 20 %, dirty_background_ratio 10 %, byte knobs off, no laptop
 * mode, no bdi min ratios, ratelimit_pages 32 (until
 * wbsim_writeback_set_ratelimit()).
 */
void wbsim_vm_dirty_init(struct wbsim_vm_dirty *vm, unsigned int hz,
			 unsigned int nr_cpus)
{
	vm->hz = hz ? hz : 1;
	vm->nr_cpus = nr_cpus ? nr_cpus : 1;
	vm->dirty_background_ratio = 10;
	vm->dirty_background_bytes = 0;
	vm->vm_dirty_ratio = 20;
	vm->vm_dirty_bytes = 0;
	vm->laptop_mode = false;
	vm->bdi_min_ratio = 0;
	vm->ratelimit_pages = 32;
	vm->wb_stat_error = wbsim_wb_stat_error(vm->nr_cpus);
}

/**
 * wbsim_global_dirtyable_memory() - dirtyable memory of the global domain
 * @nr_free: NR_FREE_PAGES
 * @nr_file_lru: NR_INACTIVE_FILE + NR_ACTIVE_FILE
 * @totalreserve: totalreserve_pages
 *
 * Models global_dirtyable_memory() without highmem (64-bit).
 *
 * Return: max(0, free - reserve) + file LRU + 1 pages (never 0).
 */
uint64_t wbsim_global_dirtyable_memory(uint64_t nr_free, uint64_t nr_file_lru,
				       uint64_t totalreserve)
{
	uint64_t x = nr_free;

	x -= x < totalreserve ? x : totalreserve;
	x += nr_file_lru;
	return x + 1;
}

static uint64_t div_round_up(uint64_t n, uint64_t d)
{
	return (n + d - 1) / d;
}

/**
 * wbsim_domain_dirty_limits() - thresh and bg_thresh of a domain
 * @vm: sysctls
 * @dtc: the domain; reads @dtc->avail (and @dtc->gdtc->avail for a memcg
 *	domain), sets @dtc->thresh and @dtc->bg_thresh
 * @rt_task: the current task is RT or deadline class (limits +1/4 plus
 *	1/32 of the global dirty_limit)
 *
 * Models domain_dirty_limits() of v6.12: RT boost, then the bg clamp
 * (v6.2 clamps first). No trace_global_dirty_state (the caller traces).
 *
 *	r = dirty_ratio * PAGE_SIZE / 100   (ratio in 1/PAGE_SIZE parts)
 *	thresh = dirty_bytes ? ceil(dirty_bytes / PAGE_SIZE)
 *	                     : r * avail / PAGE_SIZE
 *	memcg: byte knobs become r = min(ceil(bytes / avail_G), PAGE_SIZE)
 *	thresh = min(thresh, UINT_MAX); bg_thresh >= thresh -> thresh / 2
 */
void wbsim_domain_dirty_limits(const struct wbsim_vm_dirty *vm,
			       struct wbsim_dtc *dtc, bool rt_task)
{
	const uint64_t avail = dtc->avail;
	uint64_t bytes = vm->vm_dirty_bytes;
	uint64_t bg_bytes = vm->dirty_background_bytes;
	uint64_t ratio = (vm->vm_dirty_ratio * WBSIM_PAGE_SIZE) / 100;
	uint64_t bg_ratio = (vm->dirty_background_ratio * WBSIM_PAGE_SIZE) / 100;
	uint64_t thresh, bg_thresh;

	if (dtc->gdtc) {
		/* Byte knobs make no sense for a memcg: scale by avail_G. */
		uint64_t global_avail = dtc->gdtc->avail ? dtc->gdtc->avail : 1;

		if (bytes) {
			ratio = div_round_up(bytes, global_avail);
			if (ratio > WBSIM_PAGE_SIZE)
				ratio = WBSIM_PAGE_SIZE;
		}
		if (bg_bytes) {
			bg_ratio = div_round_up(bg_bytes, global_avail);
			if (bg_ratio > WBSIM_PAGE_SIZE)
				bg_ratio = WBSIM_PAGE_SIZE;
		}
		bytes = bg_bytes = 0;
	}

	if (bytes)
		thresh = div_round_up(bytes, WBSIM_PAGE_SIZE);
	else
		thresh = (ratio * avail) / WBSIM_PAGE_SIZE;

	if (bg_bytes)
		bg_thresh = div_round_up(bg_bytes, WBSIM_PAGE_SIZE);
	else
		bg_thresh = (bg_ratio * avail) / WBSIM_PAGE_SIZE;

	if (rt_task) {
		const struct wbsim_wb_domain *gdom =
			dtc->gdtc ? dtc->gdtc->dom : dtc->dom;
		uint64_t glimit = gdom ? gdom->dirty_limit : 0;

		bg_thresh += bg_thresh / 4 + glimit / 32;
		thresh += thresh / 4 + glimit / 32;
	}
	/* The control code assumes page limits fit in 32 bits (16 TiB). */
	if (thresh > UINT32_MAX)
		thresh = UINT32_MAX;
	if (bg_thresh >= thresh)
		bg_thresh = thresh / 2;
	dtc->thresh = thresh;
	dtc->bg_thresh = bg_thresh;
}

/**
 * wbsim_dirty_freerun_ceiling() - dirty count below which nobody is throttled
 * @thresh: dirty threshold
 * @bg_thresh: background threshold
 *
 * Models dirty_freerun_ceiling().
 *
 * Return: (thresh + bg_thresh) / 2.
 */
uint64_t wbsim_dirty_freerun_ceiling(uint64_t thresh, uint64_t bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}

/**
 * wbsim_hard_dirty_limit() - the limit the control line ends at
 * @dom: the domain
 * @thresh: current threshold
 *
 * Models hard_dirty_limit().
 *
 * Return: max(thresh, dom->dirty_limit).
 */
uint64_t wbsim_hard_dirty_limit(const struct wbsim_wb_domain *dom,
				uint64_t thresh)
{
	return thresh > dom->dirty_limit ? thresh : dom->dirty_limit;
}

/**
 * wbsim_dirty_setpoint() - the global setpoint of a domain's control line
 * @dtc: the domain, with thresh and bg_thresh computed
 *
 * The kernel computes this inline (wb_position_ratio(),
 * wb_update_dirty_ratelimit()).
 *
 * Return: (freerun + limit) / 2.
 */
uint64_t wbsim_dirty_setpoint(const struct wbsim_dtc *dtc)
{
	uint64_t freerun = wbsim_dirty_freerun_ceiling(dtc->thresh,
						       dtc->bg_thresh);
	uint64_t limit = wbsim_hard_dirty_limit(dtc->dom, dtc->thresh);

	return (freerun + limit) / 2;
}

/*
 * Models update_dirty_limit(): dom->dirty_limit jumps up to thresh at once
 * and follows it down by 1/32 of the gap per call, never below the dirty
 * count, so that a sudden drop of thresh slows dirtiers instead of
 * stopping them.
 */
static void update_dirty_limit(struct wbsim_dtc *dtc)
{
	struct wbsim_wb_domain *dom = dtc->dom;
	uint64_t thresh = dtc->thresh;
	uint64_t limit = dom->dirty_limit;

	if (limit < thresh) {
		dom->dirty_limit = thresh;
		return;
	}
	if (dtc->dirty > thresh)
		thresh = dtc->dirty;
	if (limit > thresh)
		dom->dirty_limit = limit - ((limit - thresh) >> 5);
}

/**
 * wbsim_domain_update_dirty_limit() - update dom->dirty_limit, rate-limited
 * @vm: for HZ
 * @dtc: the domain with thresh and dirty of this pass
 * @now: current jiffies
 *
 * Models domain_update_dirty_limit(): at most once per BANDWIDTH_INTERVAL
 * (200 ms) per domain.
 */
void wbsim_domain_update_dirty_limit(const struct wbsim_vm_dirty *vm,
				     struct wbsim_dtc *dtc, uint64_t now)
{
	struct wbsim_wb_domain *dom = dtc->dom;

	if (now < dom->dirty_limit_tstamp + wbsim_bandwidth_interval(vm->hz))
		return;
	update_dirty_limit(dtc);
	dom->dirty_limit_tstamp = now;
}

/*
 * Models wb_min_max_ratio(): with cgroup writeback a bdi's min/max ratios
 * are split among its wbs in proportion to their write bandwidth.
 */
static void wb_min_max_ratio(const struct wbsim_dtc *dtc, uint64_t *minp,
			     uint64_t *maxp)
{
	uint64_t this_bw = dtc->wb->avg_write_bandwidth;
	uint64_t tot_bw = dtc->bdi->tot_write_bandwidth;
	uint64_t min = dtc->bdi->min_ratio;
	uint64_t max = dtc->bdi->max_ratio;

	/* The wb may be clean already and missing from the total. */
	if (this_bw < tot_bw) {
		if (min)
			min = min * this_bw / tot_bw;
		if (max < 100 * WBSIM_BDI_RATIO_SCALE)
			max = max * this_bw / tot_bw;
	}
	*minp = min;
	*maxp = max;
}

/**
 * wbsim_wb_calc_thresh() - the wb's share of a domain threshold
 * @vm: for bdi_min_ratio (sum of all bdis' min_ratio)
 * @dtc: the domain and wb (fprop counters are aged as a side effect)
 * @thresh: the domain threshold to share (thresh or bg_thresh)
 *
 * Models __wb_calc_thresh() of v6.12, with wb_min_max_ratio() always on
 * (cgroup writeback).
 *
 *	S = 100 * BDI_RATIO_SCALE
 *	wb_thresh = thresh * (S - sum_min) / S * num / den
 *	          + thresh * min_ratio / S
 *	wb_thresh = min(wb_thresh, thresh * max_ratio / S)
 *	strictlimit: wb_thresh = max(wb_thresh,
 *	                             min((limit - dirty) / 100, wb_max / 4))
 *
 * Return: the wb's threshold in pages.
 */
uint64_t wbsim_wb_calc_thresh(const struct wbsim_vm_dirty *vm,
			      struct wbsim_dtc *dtc, uint64_t thresh)
{
	const uint64_t scale = 100 * WBSIM_BDI_RATIO_SCALE;
	uint64_t numerator, denominator;
	uint64_t wb_min_ratio, wb_max_ratio;
	uint64_t wb_thresh, wb_max_thresh;

	wbsim_fprop_fraction_percpu(&dtc->dom->completions, dtc->wb_completions,
				    &numerator, &denominator);

	wb_thresh = (thresh * (scale - vm->bdi_min_ratio)) / scale;
	wb_thresh *= numerator;
	wb_thresh /= denominator;

	wb_min_max_ratio(dtc, &wb_min_ratio, &wb_max_ratio);

	wb_thresh += (thresh * wb_min_ratio) / scale;
	wb_max_thresh = thresh * wb_max_ratio / scale;
	if (wb_thresh > wb_max_thresh)
		wb_thresh = wb_max_thresh;

	/*
	 * strictlimit (>= v6.12): a wb that has written nothing recently
	 * still gets 1/100 of the domain's headroom, up to a quarter of its
	 * maximum, so that it can ramp up.
	 */
	if (dtc->bdi->strictlimit) {
		uint64_t limit = wbsim_hard_dirty_limit(dtc->dom, dtc->thresh);
		uint64_t wb_scale_thresh = 0;
		uint64_t cap = wb_max_thresh / 4;

		if (limit > dtc->dirty)
			wb_scale_thresh = (limit - dtc->dirty) / 100;
		if (wb_scale_thresh > cap)
			wb_scale_thresh = cap;
		if (wb_thresh < wb_scale_thresh)
			wb_thresh = wb_scale_thresh;
	}
	return wb_thresh;
}

/**
 * wbsim_wb_dirty_limits() - wb_thresh, wb_bg_thresh and wb_dirty
 * @vm: globals
 * @dtc: the domain with thresh and bg_thresh, and the wb's
 *	@wb_reclaimable and @wb_writeback
 *
 * Models wb_dirty_limits(); the counters are exact here, so the switch to
 * exact sums below 2 * wb_stat_error changes nothing.
 *
 *	wb_bg_thresh = wb_thresh * bg_thresh / thresh
 *	wb_dirty     = WB_RECLAIMABLE + WB_WRITEBACK
 */
void wbsim_wb_dirty_limits(const struct wbsim_vm_dirty *vm,
			   struct wbsim_dtc *dtc)
{
	dtc->wb_thresh = wbsim_wb_calc_thresh(vm, dtc, dtc->thresh);
	dtc->wb_bg_thresh = dtc->thresh ?
			    dtc->wb_thresh * dtc->bg_thresh / dtc->thresh : 0;
	dtc->wb_dirty = dtc->wb_reclaimable + dtc->wb_writeback;
}

/* Models domain_over_bg_thresh() (v6.12) on caller-filled avail/dirty. */
static bool domain_over_bg_thresh(const struct wbsim_vm_dirty *vm,
				  struct wbsim_dtc *dtc,
				  uint64_t wb_reclaimable)
{
	wbsim_domain_dirty_limits(vm, dtc, false);
	if (dtc->dirty > dtc->bg_thresh)
		return true;
	dtc->wb_bg_thresh = wbsim_wb_calc_thresh(vm, dtc, dtc->bg_thresh);
	return wb_reclaimable > dtc->wb_bg_thresh;
}

/**
 * wbsim_wb_over_bg_thresh() - must the flusher keep doing background work?
 * @vm: globals
 * @gdtc: global domain: @avail and @dirty (NR_FILE_DIRTY only, without
 *	writeback) filled by the caller; thresholds are set
 * @mdtc: the wb's memcg domain filled likewise, or NULL for a root wb
 * @wb_reclaimable: WB_RECLAIMABLE of the wb
 *
 * Models wb_over_bg_thresh() of v6.12 (the flusher is not an RT task).
 *
 * Return: true if either domain's dirty count is over its bg_thresh or the
 * wb's reclaimable pages are over its share of it.
 */
bool wbsim_wb_over_bg_thresh(const struct wbsim_vm_dirty *vm,
			     struct wbsim_dtc *gdtc, struct wbsim_dtc *mdtc,
			     uint64_t wb_reclaimable)
{
	if (domain_over_bg_thresh(vm, gdtc, wb_reclaimable))
		return true;
	if (mdtc)
		return domain_over_bg_thresh(vm, mdtc, wb_reclaimable);
	return false;
}

/**
 * wbsim_dirty_poll_interval() - pages a freerunning task may dirty before
 *	it looks again
 * @dirty: dirty pages (wb_dirty with strictlimit)
 * @thresh: threshold (wb_thresh with strictlimit)
 *
 * Models dirty_poll_interval(): about sqrt(thresh - dirty), rounded down
 * to a power of two.
 *
 *	poll = 2 ^ (ilog2(thresh - dirty) >> 1),  1 if dirty >= thresh
 *
 * Return: the interval in pages.
 */
uint64_t wbsim_dirty_poll_interval(uint64_t dirty, uint64_t thresh)
{
	if (thresh > dirty)
		return UINT64_C(1) << (wbsim_ilog2(thresh - dirty) >> 1);
	return 1;
}

/**
 * wbsim_writeback_set_ratelimit() - reset dirty_limit and ratelimit_pages
 * @vm: globals; @vm->ratelimit_pages is set
 * @gdom: the global domain; its dirty_limit is set to thresh
 * @avail: global dirtyable memory now
 *
 * Models writeback_set_ratelimit() (boot, CPU hotplug, dirty_ratio or
 * dirty_bytes writes):
 *
 *	ratelimit_pages = max(thresh / (nr_cpus * 32), 16)
 */
void wbsim_writeback_set_ratelimit(struct wbsim_vm_dirty *vm,
				   struct wbsim_wb_domain *gdom,
				   uint64_t avail)
{
	struct wbsim_dtc dtc = { .dom = gdom, .avail = avail };

	wbsim_domain_dirty_limits(vm, &dtc, false);
	gdom->dirty_limit = dtc.thresh;
	vm->ratelimit_pages = dtc.thresh / ((uint64_t)vm->nr_cpus * 32);
	if (vm->ratelimit_pages < 16)
		vm->ratelimit_pages = 16;
}
