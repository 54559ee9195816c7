/* SPDX-License-Identifier: MIT */
/*
 * mm/position-ratio.c - position control (kernel: mm/page-writeback.c).
 *
 * pos_ratio scales the wb's base rate dirty_ratelimit into the rate of one
 * task: task_ratelimit = dirty_ratelimit * pos_ratio. It is the product of
 * a global cubic line (how far the domain's dirty count is from its
 * setpoint) and a linear wb line (how far the wb's dirty count is from its
 * share of the setpoint). FP10: 1.0 == 1024.
 */
#include "mm/position-ratio.h"
#include "mm/dirty-limits.h"

/*
 * x >> k on a signed value, rounding toward minus infinity like the
 * kernel's arithmetic shift, without relying on implementation-defined
 * behaviour of >> on negative numbers in C.
 */
static int64_t asr64(int64_t x, unsigned int k)
{
	return x >= 0 ? x >> k : -(int64_t)(((uint64_t)(-(x + 1)) >> k)) - 1;
}

/**
 * wbsim_pos_ratio_polynom() - the global control line
 * @setpoint: target dirty count
 * @dirty: current dirty count
 * @limit: hard limit
 *
 * Models pos_ratio_polynom().
 *
 *                           setpoint - dirty  3
 *	f(dirty) := 1.0 + (----------------)
 *                           limit - setpoint
 *
 *	f(freerun) = 2.0, f(setpoint) = 1.0, f(limit) = 0, clamped to [0, 2]
 *
 * In integers: x = (setpoint - dirty) * 1024 / ((limit - setpoint) | 1)
 * truncated toward zero, then p = ((x * x) >> 10) * x >> 10 with
 * arithmetic shifts (rounding toward minus infinity), p += 1024.
 *
 * Return: pos_ratio in FP10, in [0, 2048].
 */
int64_t wbsim_pos_ratio_polynom(uint64_t setpoint, uint64_t dirty,
				uint64_t limit)
{
	int64_t x, pos_ratio;

	x = ((int64_t)setpoint - (int64_t)dirty) *
	    ((int64_t)1 << WBSIM_RATELIMIT_CALC_SHIFT) /
	    (int64_t)((limit - setpoint) | 1);
	/*
	 * |x| >= 2048 lands outside [0, 2048] after the clamp anyway (the
	 * cubic is monotonic); bounding x first keeps x^3 from overflowing
	 * on absurd inputs without changing any result.
	 */
	if (x > 2048)
		x = 2048;
	if (x < -2048)
		x = -2048;
	pos_ratio = x;
	pos_ratio = asr64(pos_ratio * x, WBSIM_RATELIMIT_CALC_SHIFT);
	pos_ratio = asr64(pos_ratio * x, WBSIM_RATELIMIT_CALC_SHIFT);
	pos_ratio += (int64_t)1 << WBSIM_RATELIMIT_CALC_SHIFT;

	if (pos_ratio < 0)
		return 0;
	if (pos_ratio > (int64_t)2 << WBSIM_RATELIMIT_CALC_SHIFT)
		return (int64_t)2 << WBSIM_RATELIMIT_CALC_SHIFT;
	return pos_ratio;
}

/**
 * wbsim_wb_position_ratio() - pos_ratio of a wb in a domain
 * @dtc: domain numbers (thresh, bg_thresh, dirty) and wb numbers
 *	(wb_thresh, wb_bg_thresh, wb_dirty); sets @dtc->limit and
 *	@dtc->pos_ratio
 *
 * Models wb_position_ratio() of v6.12 (write_bw is the wb's
 * avg_write_bandwidth, used as a page count in the span).
 *
 * strictlimit bdi: only wb numbers matter,
 *	pos = min(f_global, polynom(wb_setpoint, wb_dirty, wb_thresh)),
 *	wb_setpoint = (wb_thresh + wb_bg_thresh) / 2; 2 * f_global when
 *	wb_dirty < 8; 0 at or over wb_thresh.
 *
 * normal bdi: the linear wb control line
 *
 *	f(wb_dirty) := 1.0 + k * (wb_dirty - wb_setpoint)
 *
 *	                x_intercept - wb_dirty
 *	            := ------------------------
 *	                x_intercept - wb_setpoint
 *
 *	wb_thresh   := max(min(wb_thresh, thresh), (limit - dirty) / 8)
 *	x           := wb_thresh / thresh                    (16.16)
 *	wb_setpoint := setpoint * x
 *	span        := (thresh - wb_thresh + 8 * write_bw) * x
 *	x_intercept := wb_setpoint + span
 *
 * i.e. slope -1 / (8 * write_bw) for a single wb, flattening to
 * -1 / wb_thresh for many (JBOD). The line is floored at 1/4 (from
 * x_intercept - span / 4 on). Below wb_thresh / 2 the reserve area scales
 * pos up by (wb_thresh / 2) / wb_dirty, at most 8 times, so that the wb
 * never runs dry. The result is NOT clamped again: it may exceed 2.0.
 */
void wbsim_wb_position_ratio(struct wbsim_dtc *dtc)
{
	uint64_t write_bw = dtc->wb->avg_write_bandwidth;
	uint64_t freerun = wbsim_dirty_freerun_ceiling(dtc->thresh,
						       dtc->bg_thresh);
	uint64_t limit = wbsim_hard_dirty_limit(dtc->dom, dtc->thresh);
	uint64_t wb_thresh = dtc->wb_thresh;
	uint64_t x_intercept, setpoint, wb_setpoint, span, x;
	int64_t pos_ratio;

	dtc->limit = limit;
	dtc->pos_ratio = 0;
	if (dtc->dirty >= limit)
		return;		/* hard stop: task_ratelimit becomes 0 */

	setpoint = (freerun + limit) / 2;
	pos_ratio = wbsim_pos_ratio_polynom(setpoint, dtc->dirty, limit);

	if (dtc->bdi->strictlimit) {
		int64_t wb_pos_ratio;

		if (dtc->wb_dirty < 8) {
			int64_t two = (int64_t)2 << WBSIM_RATELIMIT_CALC_SHIFT;

			dtc->pos_ratio = (uint64_t)(pos_ratio * 2 < two ?
						    pos_ratio * 2 : two);
			return;
		}
		if (dtc->wb_dirty >= wb_thresh)
			return;
		wb_setpoint = wbsim_dirty_freerun_ceiling(wb_thresh,
							  dtc->wb_bg_thresh);
		if (wb_setpoint == 0 || wb_setpoint == wb_thresh)
			return;
		wb_pos_ratio = wbsim_pos_ratio_polynom(wb_setpoint,
						       dtc->wb_dirty, wb_thresh);
		dtc->pos_ratio = (uint64_t)(pos_ratio < wb_pos_ratio ?
					    pos_ratio : wb_pos_ratio);
		return;
	}

	if (wb_thresh > dtc->thresh)
		wb_thresh = dtc->thresh;
	/*
	 * A wb that has been idle has a tiny share; give it a usable
	 * threshold so occasional writes are not blocked and active writes
	 * can ramp the share up.
	 */
	if (wb_thresh < (limit - dtc->dirty) / 8)
		wb_thresh = (limit - dtc->dirty) / 8;

	x = (wb_thresh << 16) / (dtc->thresh | 1);
	wb_setpoint = setpoint * x >> 16;
	/*
	 *        wb_thresh                    thresh - wb_thresh
	 * span = --------- * (8 * write_bw) + ------------------ * wb_thresh
	 *         thresh                           thresh
	 * (unsigned wrap-around as in the kernel if wb_thresh > thresh)
	 */
	span = (dtc->thresh - wb_thresh + 8 * write_bw) * x >> 16;
	x_intercept = wb_setpoint + span;

	if (dtc->wb_dirty < x_intercept - span / 4)
		pos_ratio = (int64_t)((uint64_t)pos_ratio *
				      (x_intercept - dtc->wb_dirty) /
				      ((x_intercept - wb_setpoint) | 1));
	else
		pos_ratio /= 4;

	/*
	 * wb reserve area: safeguard against the wb's dirty pool running
	 * dry and the disk idling; may push the global control point above
	 * setpoint.
	 */
	x_intercept = wb_thresh / 2;
	if (dtc->wb_dirty < x_intercept) {
		if (dtc->wb_dirty > x_intercept / 8)
			pos_ratio = (int64_t)((uint64_t)pos_ratio * x_intercept /
					      dtc->wb_dirty);
		else
			pos_ratio *= 8;
	}
	dtc->pos_ratio = (uint64_t)pos_ratio;
}
