/* SPDX-License-Identifier: MIT */
/*
 * core/timer-wheel.c - when a kernel timer fires (see timer-wheel.h).
 */
#include "core/timer-wheel.h"

#define LVL_CLK_SHIFT 3
#define LVL_BITS 6
#define LVL_SIZE (1u << LVL_BITS)

/* the first delta (in jiffies) that level @n holds */
static uint64_t lvl_start(unsigned int n)
{
	return (uint64_t)(LVL_SIZE - 1) << ((n - 1) * LVL_CLK_SHIFT);
}

uint64_t wbsim_timer_wheel_expiry(uint64_t clk, uint64_t expires, unsigned int hz)
{
	unsigned int depth = hz > 100 ? 9 : 8;
	/* the last level's reach: the longest timeout the wheel keeps */
	uint64_t cutoff = lvl_start(depth);
	uint64_t max_timeout = cutoff - (1ull << ((depth - 1) * LVL_CLK_SHIFT));
	uint64_t delta;
	unsigned int lvl = 0, shift;

	if (expires < clk)
		return clk;	/* already due: the next tick runs it */
	delta = expires - clk;
	if (delta >= cutoff) {
		expires = clk + max_timeout;
		delta = max_timeout;
	}
	while (lvl + 1 < depth && delta >= lvl_start(lvl + 1))
		lvl++;
	shift = lvl * LVL_CLK_SHIFT;
	return ((expires >> shift) + 1) << shift;
}
