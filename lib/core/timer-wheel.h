/* SPDX-License-Identifier: MIT */
/*
 * core/timer-wheel.h - when a kernel timer armed for a given jiffy fires
 * (kernel/time/timer.c, the timer wheel since 4.8).
 *
 * The wheel has levels of 64 buckets; level n holds the timers due
 * between 63 << 3(n-1) and 63 << 3n jiffies from now in buckets 8^n
 * jiffies wide, and a timer fires at the end of its bucket: the first
 * multiple of the level's width past its expiry (calc_index() rounds up
 * so that no timer fires early). A 5 s timeout at HZ=250 (1,250 jiffies,
 * level 2, 64-jiffy buckets) fires 1,280 jiffies on when armed on a
 * bucket's edge: the flusher's periodic passes come 5.12 s apart, as the
 * lab's trace shows (lab/fidelity-frag-v1272.txt, frag-e6-xfs-256m).
 */
#ifndef WBSIM_CORE_TIMER_WHEEL_H
#define WBSIM_CORE_TIMER_WHEEL_H

#include <stdint.h>

/*
 * wbsim_timer_wheel_expiry() - the jiffy at which a timer added at jiffy
 * @clk with expiry @expires fires, on a kernel ticking @hz times a
 * second (the wheel has 9 levels above HZ=100, 8 at or below; an expiry
 * beyond the last level's reach is cut to its limit). An expiry before
 * @clk fires at @clk (the next tick's run of the wheel), one at @clk a
 * jiffy on, as every level-0 timer.
 */
uint64_t wbsim_timer_wheel_expiry(uint64_t clk, uint64_t expires, unsigned int hz);

#endif /* WBSIM_CORE_TIMER_WHEEL_H */
