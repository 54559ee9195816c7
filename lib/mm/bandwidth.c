/* SPDX-License-Identifier: MIT */
/*
 * mm/bandwidth.c - write bandwidth estimation and the base dirty rate
 * (kernel: mm/page-writeback.c, wb_update_write_bandwidth() ..
 * __wb_update_bandwidth(); mm/backing-dev.c wb_init()).
 *
 * Write bandwidth is measured from completions (WB_WRITTEN) over a window
 * of P = roundup_pow_of_two(3 * HZ) jiffies and smoothed once more into
 * avg_write_bandwidth. The base rate dirty_ratelimit, used by every task
 * throttled on the wb, is steered toward the "balanced" rate
 * write_bw * task_ratelimit / dirty_rate (~ write_bw / N for N dirtiers).
 */
#include "mm/bandwidth.h"
#include "mm/dirty-limits.h"

/**
 * wbsim_wb_bw_init() - bandwidth state of a new wb
 * @wb: the state
 * @now: current jiffies
 *
 * Models the bandwidth part of wb_init(): every rate starts at INIT_BW
 * (100 MiB/s = 25600 pages/s), the stamps at @now and 0.
 */
void wbsim_wb_bw_init(struct wbsim_wb_bw *wb, uint64_t now)
{
	wb->bw_time_stamp = now;
	wb->dirtied_stamp = 0;
	wb->written_stamp = 0;
	wb->write_bandwidth = WBSIM_INIT_BW;
	wb->avg_write_bandwidth = WBSIM_INIT_BW;
	wb->dirty_ratelimit = WBSIM_INIT_BW;
	wb->balanced_dirty_ratelimit = WBSIM_INIT_BW;
	wb->dirty_exceeded = false;
}

/**
 * wbsim_wb_update_write_bandwidth() - fold @elapsed jiffies of completions
 *	into the bandwidth estimate
 * @vm: for HZ
 * @wb: the wb's state (@written_stamp is the count at the last update)
 * @elapsed: jiffies since the last update (>= 1)
 * @written: WB_WRITTEN now
 * @has_dirty_io: the wb is counted in bdi tot_write_bandwidth
 *
 * Models wb_update_write_bandwidth().
 *
 *	bw = written * HZ / elapsed
 *
 *	                  bw * elapsed + write_bandwidth * (P - elapsed)
 *	write_bandwidth = ----------------------------------------------
 *	                                       P
 *
 * (restart with bw when elapsed > P). Then avg_write_bandwidth moves 1/8
 * toward write_bandwidth, but only when the new sample agrees with the
 * trend (filters single spikes). avg stays >= 1.
 *
 * Return: the change of avg_write_bandwidth to add to the bdi's
 * tot_write_bandwidth (0 when !@has_dirty_io).
 */
int64_t wbsim_wb_update_write_bandwidth(const struct wbsim_vm_dirty *vm,
					struct wbsim_wb_bw *wb,
					uint64_t elapsed, uint64_t written,
					bool has_dirty_io)
{
	const uint64_t period = wbsim_roundup_pow_of_two(3 * (uint64_t)vm->hz);
	uint64_t avg = wb->avg_write_bandwidth;
	uint64_t old = wb->write_bandwidth;
	int64_t delta = 0;
	uint64_t bw;

	/* written may have gone down (folio_redirty_for_writepage()) */
	bw = written - (written < wb->written_stamp ? written : wb->written_stamp);
	bw *= vm->hz;
	if (elapsed > period) {
		bw /= elapsed;
		avg = bw;
		goto out;
	}
	bw += wb->write_bandwidth * (period - elapsed);
	bw >>= wbsim_ilog2(period);

	/* one more level of smoothing, for filtering out sudden spikes */
	if (avg > old && old >= bw)
		avg -= (avg - old) >> 3;
	if (avg < old && old <= bw)
		avg += (old - avg) >> 3;
out:
	/* avg > 0 keeps tot_write_bandwidth > 0 while any wb is dirty */
	if (avg < 1)
		avg = 1;
	if (has_dirty_io)
		delta = (int64_t)avg - (int64_t)wb->avg_write_bandwidth;
	wb->write_bandwidth = bw;
	wb->avg_write_bandwidth = avg;
	return delta;
}

/**
 * wbsim_wb_update_dirty_ratelimit() - move the wb's base dirty rate
 * @vm: for HZ
 * @dtc: the domain of this pass, with pos_ratio, thresholds and (for
 *	strictlimit) wb numbers computed; @dtc->wb is updated
 * @dirtied: WB_DIRTIED now
 * @elapsed: jiffies since the last update (>= 1)
 * @trace: if not NULL, filled with the bdi_dirty_ratelimit trace fields
 *
 * Models wb_update_dirty_ratelimit().
 *
 *	dirty_rate = (dirtied - dirtied_stamp) * HZ / elapsed
 *	task_ratelimit = dirty_ratelimit * pos_ratio + 1
 *
 * With N dirtiers each at task_ratelimit, dirty_rate = N * task_ratelimit
 * and the rate that would balance dirtying with writeout is
 *
 *	                        write_bw
 *	balanced = task_ratelimit * ----------  (~ write_bw / N, <= write_bw)
 *	                        dirty_rate
 *
 * dirty_ratelimit only moves toward balanced when the position error
 * agrees (below setpoint: only up, to at most min(prev balanced, balanced,
 * task_ratelimit); above: only down, to at least their max), by
 *
 *	step = ceil((step >> (R / (2 * step + 1))) / 8)
 *
 * i.e. at most 1/8 of the gap, vanishing when the gap is small against R.
 * strictlimit uses wb_dirty and the wb setpoint instead.
 */
void wbsim_wb_update_dirty_ratelimit(const struct wbsim_vm_dirty *vm,
				     struct wbsim_dtc *dtc, uint64_t dirtied,
				     uint64_t elapsed,
				     struct wbsim_trace_rec_ratelimit *trace)
{
	struct wbsim_wb_bw *wb = dtc->wb;
	uint64_t dirty = dtc->dirty;
	uint64_t setpoint = wbsim_dirty_setpoint(dtc);
	uint64_t write_bw = wb->avg_write_bandwidth;
	uint64_t dirty_ratelimit = wb->dirty_ratelimit;
	uint64_t dirty_rate, task_ratelimit, balanced_dirty_ratelimit;
	uint64_t step, x, shift;

	if (elapsed < 1)
		elapsed = 1;
	/* unsigned wrap-around as in the kernel if WB_DIRTIED went down */
	dirty_rate = (dirtied - wb->dirtied_stamp) * vm->hz / elapsed;

	task_ratelimit = dirty_ratelimit * dtc->pos_ratio >>
			 WBSIM_RATELIMIT_CALC_SHIFT;
	task_ratelimit++;	/* helps ramp up from tiny values */

	balanced_dirty_ratelimit = task_ratelimit * write_bw / (dirty_rate | 1);
	if (balanced_dirty_ratelimit > write_bw)
		balanced_dirty_ratelimit = write_bw;

	step = 0;
	/*
	 * strictlimit: pos_ratio came from wb numbers, so judge the position
	 * by them too; ramp up forcibly while wb_dirty is tiny (wb_thresh
	 * may be ~0 after inactivity).
	 */
	if (dtc->bdi->strictlimit) {
		dirty = dtc->wb_dirty;
		if (dtc->wb_dirty < 8)
			setpoint = dtc->wb_dirty + 1;
		else
			setpoint = (dtc->wb_thresh + dtc->wb_bg_thresh) / 2;
	}

	if (dirty < setpoint) {
		x = wb->balanced_dirty_ratelimit;
		if (balanced_dirty_ratelimit < x)
			x = balanced_dirty_ratelimit;
		if (task_ratelimit < x)
			x = task_ratelimit;
		if (dirty_ratelimit < x)
			step = x - dirty_ratelimit;
	} else {
		x = wb->balanced_dirty_ratelimit;
		if (balanced_dirty_ratelimit > x)
			x = balanced_dirty_ratelimit;
		if (task_ratelimit > x)
			x = task_ratelimit;
		if (dirty_ratelimit > x)
			step = dirty_ratelimit - x;
	}

	/* Don't pursue 100% rate matching: slow down close to the target. */
	shift = dirty_ratelimit / (2 * step + 1);
	if (shift < 64)
		step = ((step >> shift) + 7) / 8;
	else
		step = 0;

	if (dirty_ratelimit < balanced_dirty_ratelimit)
		dirty_ratelimit += step;
	else
		dirty_ratelimit -= step;

	wb->dirty_ratelimit = dirty_ratelimit > 1 ? dirty_ratelimit : 1;
	wb->balanced_dirty_ratelimit = balanced_dirty_ratelimit;

	if (trace) {
		trace->write_bw = wbsim_kbps(wb->write_bandwidth);
		trace->avg_write_bw = wbsim_kbps(wb->avg_write_bandwidth);
		trace->dirty_rate = wbsim_kbps(dirty_rate);
		trace->dirty_ratelimit = wbsim_kbps(wb->dirty_ratelimit);
		trace->task_ratelimit = wbsim_kbps(task_ratelimit);
		trace->balanced_dirty_ratelimit =
			wbsim_kbps(wb->balanced_dirty_ratelimit);
	}
}

/**
 * wbsim_wb_update_bandwidth() - one bandwidth update of a wb
 * @vm: globals
 * @wb: the wb's bandwidth state
 * @gdtc: global domain of the current balance_dirty_pages() pass; only
 *	read when @update_ratelimit (may be NULL otherwise)
 * @mdtc: memcg domain of the pass, or NULL
 * @update_ratelimit: also update dirty_limit and dirty_ratelimit (the
 *	throttled path of balance_dirty_pages())
 * @in: counters and time
 * @out: what happened (trace fields, tot_write_bandwidth delta)
 *
 * Models __wb_update_bandwidth(); the order matters: the ratelimit update
 * sees the old avg_write_bandwidth, and the memcg update sees the
 * dirty_ratelimit written by the global one.
 *
 *	elapsed = max(now - bw_time_stamp, 1)
 *	[domain_update_dirty_limit(G), wb_update_dirty_ratelimit(G),
 *	 same for M]
 *	wb_update_write_bandwidth()
 *	stamps := (dirtied, written, now)
 */
void wbsim_wb_update_bandwidth(const struct wbsim_vm_dirty *vm,
			       struct wbsim_wb_bw *wb, struct wbsim_dtc *gdtc,
			       struct wbsim_dtc *mdtc, bool update_ratelimit,
			       const struct wbsim_wb_bw_input *in,
			       struct wbsim_wb_bw_update *out)
{
	uint64_t elapsed = in->now > wb->bw_time_stamp ?
			   in->now - wb->bw_time_stamp : 1;

	out->nr_traces = 0;
	if (update_ratelimit && gdtc) {
		wbsim_domain_update_dirty_limit(vm, gdtc, in->now);
		wbsim_wb_update_dirty_ratelimit(vm, gdtc, in->dirtied, elapsed,
						&out->trace[out->nr_traces++]);
		if (mdtc) {
			wbsim_domain_update_dirty_limit(vm, mdtc, in->now);
			wbsim_wb_update_dirty_ratelimit(vm, mdtc, in->dirtied,
					elapsed, &out->trace[out->nr_traces++]);
		}
	}
	out->tot_write_bandwidth_delta =
		wbsim_wb_update_write_bandwidth(vm, wb, elapsed, in->written,
						in->has_dirty_io);
	wb->dirtied_stamp = in->dirtied;
	wb->written_stamp = in->written;
	wb->bw_time_stamp = in->now;
}

/**
 * wbsim_wb_bandwidth_due() - is a bandwidth update due?
 * @vm: for HZ
 * @wb: the wb's state
 * @now: current jiffies
 *
 * The kernel's time_is_before_jiffies(bw_time_stamp + BANDWIDTH_INTERVAL),
 * tested by balance_dirty_pages() and at the end of do_writepages().
 *
 * Return: true if more than 200 ms passed since the last update.
 */
bool wbsim_wb_bandwidth_due(const struct wbsim_vm_dirty *vm,
			    const struct wbsim_wb_bw *wb, uint64_t now)
{
	return now > wb->bw_time_stamp + wbsim_bandwidth_interval(vm->hz);
}

/**
 * wbsim_wb_bandwidth_estimate_start() - restamp a wb that was idle
 * @vm: for HZ
 * @wb: the wb's state
 * @writeback_inodes: the wb's count of inodes with pages under writeback
 * @in: counters and time (@has_dirty_io unused)
 *
 * Models wb_bandwidth_estimate_start() (start of do_writepages()): after
 * more than 1 s without an update and with nothing in flight, the stamps
 * are moved to now so the idle gap does not dilute the next estimate.
 *
 * Return: true if the stamps were reset.
 */
bool wbsim_wb_bandwidth_estimate_start(const struct wbsim_vm_dirty *vm,
				       struct wbsim_wb_bw *wb,
				       uint64_t writeback_inodes,
				       const struct wbsim_wb_bw_input *in)
{
	uint64_t elapsed = in->now - wb->bw_time_stamp;

	if (in->now < wb->bw_time_stamp || elapsed <= vm->hz ||
	    writeback_inodes)
		return false;
	wb->dirtied_stamp = in->dirtied;
	wb->written_stamp = in->written;
	wb->bw_time_stamp = in->now;
	return true;
}

/**
 * wbsim_wb_split_bdi_pages() - a wb's part of bdi-wide work
 * @nr_pages: pages of the whole bdi (WBSIM_LONG_MAX = everything)
 * @this_bw: the wb's avg_write_bandwidth
 * @tot_bw: the bdi's tot_write_bandwidth
 *
 * Models wb_split_bdi_pages().
 *
 * Return: ceil(@nr_pages * this_bw / tot_bw), or @nr_pages when it is
 * LONG_MAX, tot_bw is 0 or this_bw >= tot_bw.
 */
int64_t wbsim_wb_split_bdi_pages(int64_t nr_pages, uint64_t this_bw,
				 uint64_t tot_bw)
{
	if (nr_pages == WBSIM_LONG_MAX || !tot_bw || this_bw >= tot_bw)
		return nr_pages;
	return (int64_t)(((uint64_t)nr_pages * this_bw + tot_bw - 1) / tot_bw);
}
