/* SPDX-License-Identifier: MIT */
/*
 * mm/flex-proportions.c - the writeout-fraction estimator and the wb_domain
 * period timer that ages it (kernel: lib/flex_proportions.c and the
 * wb_domain part of mm/page-writeback.c).
 *
 * Each completion of n pages on wb i adds n to e_i and to E. Every period
 * (VM_COMPLETIONS_PERIOD_LEN = 3 s) all counts halve:
 *
 *	E   := E >> k			(k = 1 + missed periods)
 *	e_i := e_i >> (period - period_i)	(lazily, when e_i is next read)
 *
 * so e_i / E is the share of recent completions with a half-life of 3 s.
 * When E has decayed to <= 1 the timer stops (period_time = 0) and the next
 * completion restarts it 3 s later.
 */
#include "mm/flex-proportions.h"
#include "mm/writeback-control.h"

/**
 * wbsim_fprop_global_init() - an empty global counter
 * @p: the counter
 *
 * Models fprop_global_init(): E starts at 1 so that the period step has
 * something to decay and fractions never divide by zero.
 */
void wbsim_fprop_global_init(struct wbsim_fprop_global *p)
{
	p->events = 1;
	p->period = 0;
}

/**
 * wbsim_fprop_local_init() - an empty local counter
 * @pl: the counter
 *
 * Models fprop_local_init_percpu().
 */
void wbsim_fprop_local_init(struct wbsim_fprop_local *pl)
{
	pl->events = 0;
	pl->period = 0;
}

/**
 * wbsim_fprop_new_period() - age the global counter by @periods periods
 * @p: the counter
 * @periods: number of periods that ended (>= 1)
 *
 * Models fprop_new_period() (no seqcount, exact sum).
 *
 * Return: false, leaving @p untouched, when E <= 1 (nothing left to age:
 * the caller stops its timer); true otherwise.
 */
bool wbsim_fprop_new_period(struct wbsim_fprop_global *p, unsigned int periods)
{
	if (p->events <= 1)
		return false;
	/* E - (E - (E >> k)): the kernel subtracts to keep racing adds. */
	p->events = periods < 64 ? p->events >> periods : 0;
	p->period += periods;
	return true;
}

/* Models fprop_reflect_period_percpu(): age a local count lazily. */
static void fprop_reflect_period_percpu(struct wbsim_fprop_global *p,
					struct wbsim_fprop_local *pl)
{
	unsigned int period = p->period;

	if (pl->period == period)
		return;
	if (period - pl->period < 64)
		pl->events >>= period - pl->period;
	else
		pl->events = 0;
	pl->period = period;
}

/**
 * wbsim_fprop_fraction_percpu() - the share of source @pl
 * @p: the global counter
 * @pl: the source (aged to the current period as a side effect)
 * @numerator: set to e_i
 * @denominator: set to E, raised to e_i (or 1) if not above it
 *
 * Models fprop_fraction_percpu() (exact counters, no retry loop).
 */
void wbsim_fprop_fraction_percpu(struct wbsim_fprop_global *p,
				 struct wbsim_fprop_local *pl,
				 uint64_t *numerator, uint64_t *denominator)
{
	uint64_t num, den;

	fprop_reflect_period_percpu(p, pl);
	num = pl->events;
	den = p->events;
	if (den <= num)
		den = num ? num : 1;
	*numerator = num;
	*denominator = den;
}

/**
 * wbsim_fprop_add_percpu_max() - count @nr events of source @pl, capped
 * @p: the global counter
 * @pl: the source
 * @nr: number of events (pages completed)
 * @max_frac: the source's share may not exceed @max_frac / FPROP_FRAC_BASE
 *
 * Models __fprop_add_percpu_max(). With max_frac < 1024 only as many
 * events are added as keep the share at the cap:
 *
 *	tmp = den * max_frac - num * 1024
 *	tmp < 0                   -> add nothing
 *	tmp < nr * (1024 - max)   -> nr = ceil(tmp / (1024 - max))
 */
void wbsim_fprop_add_percpu_max(struct wbsim_fprop_global *p,
				struct wbsim_fprop_local *pl, uint64_t nr,
				unsigned int max_frac)
{
	if (max_frac < WBSIM_FPROP_FRAC_BASE) {
		uint64_t num, den;
		int64_t tmp;
		uint64_t room = WBSIM_FPROP_FRAC_BASE - max_frac;

		wbsim_fprop_fraction_percpu(p, pl, &num, &den);
		tmp = (int64_t)(den * max_frac - (num << WBSIM_FPROP_FRAC_SHIFT));
		if (tmp < 0)
			return;		/* share already above the cap */
		if ((uint64_t)tmp < nr * room)
			nr = ((uint64_t)tmp + room - 1) / room;
	}
	fprop_reflect_period_percpu(p, pl);
	pl->events += nr;
	p->events += nr;
}

/* Models wp_next_time(): 0 means "timer stopped", so never return it. */
static uint64_t wp_next_time(uint64_t cur_time, unsigned int hz)
{
	cur_time += wbsim_vm_completions_period_len(hz);
	return cur_time ? cur_time : 1;
}

/**
 * wbsim_wb_domain_init() - a domain at time @now with no completions
 * @dom: the domain
 * @now: current jiffies
 *
 * Models wb_domain_init() (no timer object: see wbsim_writeout_period()).
 */
void wbsim_wb_domain_init(struct wbsim_wb_domain *dom, uint64_t now)
{
	wbsim_fprop_global_init(&dom->completions);
	dom->period_time = 0;
	dom->dirty_limit = 0;
	dom->dirty_limit_tstamp = now;
}

/**
 * wbsim_wb_domain_writeout_add() - count @nr completed pages of a wb
 * @dom: the domain (global, or the wb's memcg domain)
 * @completions: the wb's local counter in @dom
 * @max_prop_frac: the bdi's max_prop_frac
 * @nr: pages completed
 * @now: current jiffies
 * @hz: jiffies per second
 *
 * Models wb_domain_writeout_add() (called twice by __wb_writeout_add():
 * global domain, then memcg domain).
 *
 * Return: true when the period timer was stopped and has just been
 * restarted: the caller must schedule wbsim_writeout_period() at
 * @dom->period_time.
 */
bool wbsim_wb_domain_writeout_add(struct wbsim_wb_domain *dom,
				  struct wbsim_fprop_local *completions,
				  unsigned int max_prop_frac, uint64_t nr,
				  uint64_t now, unsigned int hz)
{
	wbsim_fprop_add_percpu_max(&dom->completions, completions, nr,
				   max_prop_frac);
	if (dom->period_time)
		return false;
	dom->period_time = wp_next_time(now, hz);
	return true;
}

/**
 * wbsim_writeout_period() - the domain's period timer fired
 * @dom: the domain
 * @now: current jiffies (>= @dom->period_time; late firing counts the
 *	missed periods)
 * @hz: jiffies per second
 *
 * Models writeout_period().
 *
 * Return: true when the timer must fire again at @dom->period_time; false
 * when the counts have decayed away and the timer stopped (period_time 0).
 */
bool wbsim_writeout_period(struct wbsim_wb_domain *dom, uint64_t now,
			   unsigned int hz)
{
	uint64_t len = wbsim_vm_completions_period_len(hz);
	uint64_t miss = now > dom->period_time ?
			(now - dom->period_time) / len : 0;

	/* Beyond 63 missed periods every count is 0 anyway. */
	unsigned int k = miss >= 63 ? 64 : (unsigned int)miss + 1;

	if (wbsim_fprop_new_period(&dom->completions, k)) {
		dom->period_time = wp_next_time(dom->period_time + miss * len, hz);
		return true;
	}
	dom->period_time = 0;
	return false;
}
