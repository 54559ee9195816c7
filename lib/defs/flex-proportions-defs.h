/* SPDX-License-Identifier: MIT */
/*
 * defs/flex-proportions-defs.h - the counters of the floating proportions
 * (kernel: include/linux/flex_proportions.h), which struct wbsim_wb embeds
 * (defs/backing-dev-defs.h) and mm/flex-proportions.c ages. A neutral
 * definition: it includes no folder of lib/.
 */
#ifndef WBSIM_DEFS_FLEX_PROPORTIONS_DEFS_H
#define WBSIM_DEFS_FLEX_PROPORTIONS_DEFS_H

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

#endif /* WBSIM_DEFS_FLEX_PROPORTIONS_DEFS_H */
