/* SPDX-License-Identifier: MIT */
/* cpus.h - what the lock code asks the CPU pool (lib/core/cpus.c). */
#ifndef WBSIM_CORE_CPUS_H
#define WBSIM_CORE_CPUS_H

#include <wbsim/sim.h>

/* When @task's burst on @cpus ends (interrupts that stretched it
 * included), or 0 when it runs no burst there: the kernel's
 * owner->on_cpu. */
wbsim_time_t wbsim_cpus_running_until(const wbsim_cpus *cpus, const wbsim_task *task);
/* CPUs running nothing. */
unsigned int wbsim_cpus_idle(const wbsim_cpus *cpus);
/* wbsim_cpus_run(), but the burst keeps its CPU through @done: a burst
 * @task asks for at once from there starts on it, ahead of the waiting
 * tasks; the CPU goes to them if it asks for none. */
void wbsim_cpus_run_on(wbsim_cpus *cpus, wbsim_task *task, wbsim_time_t cost,
		       wbsim_event_fn done, void *arg);
/* Is @task in the callback of a wbsim_cpus_run_on() burst, its CPU kept? */
gboolean wbsim_cpus_kept(const wbsim_cpus *cpus, const wbsim_task *task);

#endif
