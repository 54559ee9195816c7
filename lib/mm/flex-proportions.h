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
#include "defs/flex-proportions-defs.h"

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
