/* SPDX-License-Identifier: MIT */
/* lock.h - a lock that behaves as a kernel rw_semaphore (lib/core/lock.c). */
#ifndef WBSIM_CORE_LOCK_H
#define WBSIM_CORE_LOCK_H

#include <wbsim/sim.h>

/*
 * wbsim_lock_set_rwsem() - make @lock a kernel rw_semaphore: a writer
 * spins on @cpus while the owner runs there, a sleeping waiter pays
 * @sleep_ns of CPU when the lock is handed to it, and its waker @wake_ns
 * (returned by wbsim_lock_release_waking()).
 */
void wbsim_lock_set_rwsem(wbsim_lock *lock, wbsim_cpus *cpus, wbsim_time_t sleep_ns,
			  wbsim_time_t wake_ns);

/*
 * wbsim_lock_release_waking() - wbsim_lock_release(), returning the CPU
 * time the releaser spends waking the sleeper it hands the lock to (the
 * kernel's rwsem_wake(): wake_up_q()/try_to_wake_up()); 0 when it wakes
 * nobody.
 */
wbsim_time_t wbsim_lock_release_waking(wbsim_lock *lock, wbsim_task *task);

#endif
