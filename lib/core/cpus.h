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

#endif
