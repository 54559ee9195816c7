/* SPDX-License-Identifier: MIT */
/*
 * lock.c - sleeping locks with a FIFO wait queue (a mutex or an rwsem taken
 * for write, as an allocation-group lock is). Hold and wait times are
 * accounted per lock so reports can say where contention went. Left out:
 * optimistic spinning, reader sharing, priority inheritance.
 */
#include "core/sim-private.h"

void wbsim_lock_init(wbsim_lock *lock, wbsim_sim *sim, const char *name)
{
	*lock = (wbsim_lock){ 0 };
	lock->name = g_strdup(name);
	lock->sim = sim;
}

void wbsim_lock_clear(wbsim_lock *lock)
{
	g_clear_pointer(&lock->name, g_free);
}

static void grant(wbsim_lock *lock, wbsim_task *task)
{
	lock->owner = task;
	lock->held_since = lock->sim->now;
	lock->acquisitions++;
}

void wbsim_lock_acquire(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done, void *arg)
{
	if (!lock->owner) {
		grant(lock, task);
		wbsim_sim_schedule_at(lock->sim, lock->sim->now, done, arg);
		return;
	}
	lock->contended++;
	task->done_fn = done;
	task->done_arg = arg;
	task->wait_since = lock->sim->now;
	task->next_waiter = NULL;
	if (lock->wait_tail)
		lock->wait_tail->next_waiter = task;
	else
		lock->wait_head = task;
	lock->wait_tail = task;
}

void wbsim_lock_release(wbsim_lock *lock, wbsim_task *task)
{
	wbsim_sim *sim = lock->sim;
	wbsim_task *next = lock->wait_head;

	g_return_if_fail(lock->owner == task);

	lock->hold_ns += sim->now - lock->held_since;
	lock->owner = NULL;
	if (!next)
		return;
	lock->wait_head = next->next_waiter;
	if (!lock->wait_head)
		lock->wait_tail = NULL;
	next->next_waiter = NULL;
	{
		wbsim_time_t waited = sim->now - next->wait_since;

		next->lock_wait_ns += waited;
		lock->wait_ns += waited;
		if (waited > lock->max_wait_ns)
			lock->max_wait_ns = waited;
	}
	grant(lock, next);
	wbsim_sim_schedule_at(sim, sim->now, next->done_fn, next->done_arg);
}
