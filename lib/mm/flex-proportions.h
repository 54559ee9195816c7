/* SPDX-License-Identifier: MIT */
/*
 * mm/flex-proportions.h - floating proportions with flexible aging
 * (kernel: lib/flex_proportions.c, include/linux/flex_proportions.h).
 *
 * The estimator behind each wb's writeout fraction: a global event count E
 * and per-source counts e_i that all halve once per period; a source's
 * share is e_i / E. The kernel keeps the counts in per-cpu counters; here
 * they are exact.
 */
#ifndef WBSIM_MM_FLEX_PROPORTIONS_H
#define WBSIM_MM_FLEX_PROPORTIONS_H

#include <stdbool.h>
#include <stdint.h>

#define WBSIM_FPROP_FRAC_SHIFT 10
#define WBSIM_FPROP_FRAC_BASE (1U << WBSIM_FPROP_FRAC_SHIFT)

/**
 * struct wbsim_fprop_global - global part (struct fprop_global)
 * @events: E, events in the current (decayed) window; starts at 1
 * @period: number of periods elapsed
 */
struct wbsim_fprop_global {
	uint64_t events;
	unsigned int period;
};

/**
 * struct wbsim_fprop_local - one source (struct fprop_local_percpu)
 * @events: e_i, as of period @period
 * @period: the global period this count was last aged to
 */
struct wbsim_fprop_local {
	uint64_t events;
	unsigned int period;
};

void wbsim_fprop_global_init(struct wbsim_fprop_global *p);
void wbsim_fprop_local_init(struct wbsim_fprop_local *pl);
bool wbsim_fprop_new_period(struct wbsim_fprop_global *p, unsigned int periods);
void wbsim_fprop_add_percpu_max(struct wbsim_fprop_global *p,
				struct wbsim_fprop_local *pl, uint64_t nr,
				unsigned int max_frac);
void wbsim_fprop_fraction_percpu(struct wbsim_fprop_global *p,
				 struct wbsim_fprop_local *pl,
				 uint64_t *numerator, uint64_t *denominator);

#endif /* WBSIM_MM_FLEX_PROPORTIONS_H */
