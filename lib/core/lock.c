/* SPDX-License-Identifier: MIT */
/*
 * lock.c - sleeping locks with a FIFO wait queue: a mutex (or an rwsem
 * taken for write, as an allocation-group lock is), and the read side of an
 * rw_semaphore (wbsim_lock_acquire_shared: holders share it, as XFS's ILOCK
 * taken XFS_ILOCK_SHARED). Hold and wait times are accounted per lock so
 * reports can say where contention went; a shared lock counts as held
 * while any reader holds it. Left out: optimistic spinning, the rwsem's
 * reader batching behind a woken reader beyond the FIFO head, priority
 * inheritance.
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

static gboolean lock_busy(const wbsim_lock *lock)
{
	return lock->owner || lock->readers;
}

static void grant(wbsim_lock *lock, wbsim_task *task, gboolean shared)
{
	if (!lock_busy(lock))
		lock->held_since = lock->sim->now;
	if (shared)
		lock->readers++;
	else
		lock->owner = task;
	lock->acquisitions++;
}

static void enqueue(wbsim_lock *lock, wbsim_task *task, gboolean shared,
		    wbsim_event_fn done, void *arg)
{
	lock->contended++;
	task->done_fn = done;
	task->done_arg = arg;
	task->wait_since = lock->sim->now;
	task->wait_shared = shared;
	task->next_waiter = NULL;
	if (lock->wait_tail)
		lock->wait_tail->next_waiter = task;
	else
		lock->wait_head = task;
	lock->wait_tail = task;
}

void wbsim_lock_acquire(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done, void *arg)
{
	if (!lock_busy(lock)) {
		grant(lock, task, FALSE);
		wbsim_sim_schedule_at(lock->sim, lock->sim->now, done, arg);
		return;
	}
	enqueue(lock, task, FALSE, done, arg);
}

void wbsim_lock_acquire_shared(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done,
			       void *arg)
{
	if (!lock->owner && !lock->wait_head) {
		grant(lock, task, TRUE);
		wbsim_sim_schedule_at(lock->sim, lock->sim->now, done, arg);
		return;
	}
	enqueue(lock, task, TRUE, done, arg);
}

/* Hand the lock to the waiters at the head: one exclusive taker, or every
 * shared taker up to the first exclusive one. */
static void wake_waiters(wbsim_lock *lock)
{
	wbsim_sim *sim = lock->sim;
	wbsim_task *next;

	while ((next = lock->wait_head)) {
		wbsim_time_t waited;

		if (!next->wait_shared && lock_busy(lock))
			return;
		lock->wait_head = next->next_waiter;
		if (!lock->wait_head)
			lock->wait_tail = NULL;
		next->next_waiter = NULL;
		waited = sim->now - next->wait_since;
		next->lock_wait_ns += waited;
		lock->wait_ns += waited;
		if (waited > lock->max_wait_ns)
			lock->max_wait_ns = waited;
		grant(lock, next, next->wait_shared);
		wbsim_sim_schedule_at(sim, sim->now, next->done_fn, next->done_arg);
		if (lock->owner)
			return;
	}
}

void wbsim_lock_release(wbsim_lock *lock, wbsim_task *task)
{
	g_return_if_fail(lock->owner == task);

	lock->hold_ns += lock->sim->now - lock->held_since;
	lock->owner = NULL;
	wake_waiters(lock);
}

void wbsim_lock_release_shared(wbsim_lock *lock, wbsim_task *task)
{
	g_return_if_fail(lock->readers > 0 && task != NULL);

	if (--lock->readers)
		return;
	lock->hold_ns += lock->sim->now - lock->held_since;
	wake_waiters(lock);
}
