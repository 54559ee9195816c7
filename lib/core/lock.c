/* SPDX-License-Identifier: MIT */
/*
 * lock.c - sleeping locks with a FIFO wait queue: a mutex (or an rwsem
 * taken for write, as an allocation-group lock is), and the read side of an
 * rw_semaphore (wbsim_lock_acquire_shared: holders share it, as XFS's ILOCK
 * taken XFS_ILOCK_SHARED). Hold and wait times are accounted per lock so
 * reports can say where contention went; a shared lock counts as held
 * while any reader holds it.
 *
 * A lock set up as a kernel rw_semaphore (wbsim_lock_set_rwsem(), the
 * inode's i_rwsem) adds the writer's optimistic spinning and the CPU of
 * sleeping: a writer that finds the lock owned by a task running on a CPU,
 * with a CPU idle, spins there (rwsem_optimistic_spin()), burning CPU until
 * the owner's burst ends (on a lock readers hold, such as XFS's ILOCK
 * under the flusher's extent lookup, while the one reader runs, and at
 * most the reader spin threshold, (20 + readers) / 2 us); it takes the
 * lock at the release, ahead of the
 * sleeping waiters, unless the first of them has waited RWSEM_WAIT_TIMEOUT
 * (the handoff). A writer that cannot spin, or whose owner left its CPU
 * still holding the lock, sleeps in the FIFO queue. A release wakes the
 * first sleeping writer but does not give it the lock (rwsem_mark_wake():
 * until the woken writer runs, other writers may steal the lock): the
 * releaser pays the wake-up, the sleeper the sleep (the slowpath and the
 * context switch out and back in) on its way back to a CPU, and there it
 * takes the lock if it is still free, or finds it stolen (by a spinner or
 * a writer arriving meanwhile) and sleeps again at the head of the queue.
 * Once the first sleeper has waited RWSEM_WAIT_TIMEOUT, nobody steals:
 * the release hands it the lock.
 * A task takes a rwsem only while it runs: one that asks while it is not
 * on a CPU (woken by an event, or its CPU went to a waiter at its last
 * burst's end) first waits for a CPU, runnable, and tries there. Taking
 * it at once made a task hold it while it waited for a CPU: XFS's flusher
 * held the ILOCK shared that way, and the completion worker spun the reader
 * spin threshold on it, 10 us a conversion (xfs-paths-prealloc: the
 * completion's CPU a page +90%, 7.3 us where the lab kernel's is 3.9).
 * A spin ends, and the writer sleeps, when the scheduler sets need_resched
 * for it (the kernel checks it at every turn of the spin;
 * wbsim_cpus_resched_at()): the spinner's entity has run a base slice
 * since it got its CPU while a task waits for one (the tick). Ending it as
 * soon as any task waited made E8's small writers sleep 0.5-0.9 times a
 * write without the autogroup, where the lab kernel's sleep 0.001-0.006
 * times (lab/results-e8-v1272*: small_nvcsw_per_write).
 * Left out: the osq queue of further spinners (one spins, the others
 * sleep), a task that starts to wait for a CPU during a spin (the spinner
 * sees it at the owner's burst end), a woken writer spinning on
 * the owner once it has set the handoff bit, readers' spinning (removed
 * from the kernel in 5.12), the rwsem's reader batching behind a woken reader
 * beyond the FIFO head, priority inheritance.
 */
#include "core/cpus.h"
#include "core/lock.h"
#include "core/sim-private.h"
#include "core/sim.h"

/* RWSEM_WAIT_TIMEOUT: DIV_ROUND_UP(HZ, 250) jiffies, 4 ms at the lab
 * kernel's HZ=250: the first waiter then takes the lock by handoff. */
#define RWSEM_WAIT_TIMEOUT_NS (4 * WBSIM_NSEC_PER_MSEC)

void wbsim_lock_init(wbsim_lock *lock, wbsim_sim *sim, const char *name)
{
	*lock = (wbsim_lock){ 0 };
	/* every inode has its i_rwsem (and an XFS inode its ILOCK): one
	 * copy of each name, not one per lock, kept by the sim */
	lock->name = wbsim_sim_intern(sim, name);
	lock->sim = sim;
}

void wbsim_lock_clear(wbsim_lock *lock)
{
	lock->name = NULL;
	/* writers still waiting for a CPU when the simulation ended */
	g_list_free_full(g_steal_pointer(&lock->cpu_waits), g_free);
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
		lock->last_reader = lock->readers++ ? NULL : task;
	else
		lock->owner = task;
	lock->acquisitions++;
}

void wbsim_lock_set_rwsem(wbsim_lock *lock, wbsim_cpus *cpus, wbsim_time_t sleep_ns,
			  wbsim_time_t wake_ns)
{
	lock->spin_cpus = cpus;
	lock->sleep_ns = sleep_ns;
	lock->wake_ns = wake_ns;
}

/* Join the FIFO queue, waiting since @since. */
static void enqueue_since(wbsim_lock *lock, wbsim_task *task, gboolean shared,
			  wbsim_event_fn done, void *arg, wbsim_time_t since)
{
	if (lock->spin_cpus)
		lock->sleeps++;
	task->done_fn = done;
	task->done_arg = arg;
	task->wait_since = since;
	task->wait_shared = shared;
	task->next_waiter = NULL;
	if (lock->wait_tail)
		lock->wait_tail->next_waiter = task;
	else
		lock->wait_head = task;
	lock->wait_tail = task;
}

static void enqueue(wbsim_lock *lock, wbsim_task *task, gboolean shared,
		    wbsim_event_fn done, void *arg)
{
	lock->contended++;
	enqueue_since(lock, task, shared, done, arg, lock->sim->now);
}

static void account_wait(wbsim_lock *lock, wbsim_task *task, wbsim_time_t since)
{
	wbsim_time_t waited = lock->sim->now - since;

	task->lock_wait_ns += waited;
	lock->wait_ns += waited;
	if (waited > lock->max_wait_ns)
		lock->max_wait_ns = waited;
}

/* The first sleeping waiter (the woken one, else the queue's head) has
 * waited long enough to force a handoff. */
static gboolean handoff_due(const wbsim_lock *lock)
{
	if (lock->woken)
		return lock->sim->now - lock->woken_since >= RWSEM_WAIT_TIMEOUT_NS;
	return lock->wait_head &&
	       lock->sim->now - lock->wait_head->wait_since >= RWSEM_WAIT_TIMEOUT_NS;
}

/* A writer may take the free lock now: nobody is owed it by handoff
 * (rwsem_try_write_lock_unqueued() steals it from the sleepers). */
static gboolean can_steal(const wbsim_lock *lock)
{
	return !lock_busy(lock) && !(lock->spin_cpus && handoff_due(lock));
}

/*
 * (20 + readers) / 2 us: how long a writer spins on a lock readers hold
 * before it sleeps (rwsem_rspin_threshold(): it cannot tell whether they
 * run, and sets the lock non-spinnable then).
 */
static wbsim_time_t rspin_threshold(const wbsim_lock *lock)
{
	return (20 + MIN(lock->readers, 30u)) * WBSIM_NSEC_PER_USEC / 2;
}

/*
 * Until when a writer spins (rwsem_spin_on_owner()), 0 if it cannot: while
 * a writer owner runs on a CPU, until its burst ends; on a lock readers
 * hold, until the one reader's burst ends if it runs, and at most the
 * reader spin threshold after the spin began.
 */
static wbsim_time_t owner_running_until(const wbsim_lock *lock)
{
	wbsim_time_t until, now = lock->sim->now;

	if (lock->owner)
		return wbsim_cpus_running_until(lock->spin_cpus, lock->owner);
	if (!lock->readers)
		return 0;
	until = lock->rspin_until ? lock->rspin_until : now + rspin_threshold(lock);
	if (lock->last_reader) {
		wbsim_time_t r = wbsim_cpus_running_until(lock->spin_cpus, lock->last_reader);

		if (r && r < until)
			until = r;
	}
	return until > now ? until : 0;
}

static void spin_end(wbsim_sim *sim, void *arg);

/* Models rwsem_spin_on_owner() in rwsem_optimistic_spin(): burn a CPU
 * while the owner runs, until its burst ends; leaves out the osq. The
 * spinner keeps its CPU: it takes the lock and goes on there. */
static void rwsem_spin_on_owner(wbsim_lock *lock, wbsim_time_t until)
{
	/* need_resched ends the spin, when the spinner's slice is over */
	until = MIN(until, wbsim_cpus_resched_at(lock->spin_cpus, lock->spinner));
	if (!lock->owner && lock->readers && !lock->rspin_until)
		lock->rspin_until = lock->sim->now + rspin_threshold(lock);
	wbsim_cpus_run_on(lock->spin_cpus, lock->spinner, until - lock->sim->now, spin_end, lock);
}

/* Has @task a CPU to spin on: one it runs on already, or an idle one? */
static gboolean spin_cpu(const wbsim_lock *lock, const wbsim_task *task)
{
	return wbsim_cpus_kept(lock->spin_cpus, task) || wbsim_cpus_idle(lock->spin_cpus) > 0;
}

/* Can writer @task spin now (rwsem_can_spin_on_owner())? The owner runs,
 * nobody spins yet, the writer has a CPU to spin on, no handoff, and
 * need_resched() is not set for it. */
static gboolean can_spin(const wbsim_lock *lock, const wbsim_task *task)
{
	return lock->spin_cpus && !lock->spinner && owner_running_until(lock) &&
	       spin_cpu(lock, task) && !handoff_due(lock) &&
	       !wbsim_cpus_need_resched(lock->spin_cpus, task);
}

/* The spinner's burst is over: the lock was handed to it at the release,
 * or the owner runs on (spin on), or it left its CPU holding the lock, or a
 * handoff is due (sleep). */
static void spin_end(wbsim_sim *sim, void *arg)
{
	wbsim_lock *lock = arg;
	wbsim_task *task = lock->spinner;
	wbsim_event_fn done = lock->spin_done;
	void *done_arg = lock->spin_arg;
	wbsim_time_t until;

	if (!lock->spinner_granted && !lock_busy(lock)) {
		grant(lock, task, FALSE);
		lock->spinner_granted = TRUE;
	}
	if (lock->spinner_granted) {
		lock->spinner = NULL;
		lock->rspin_until = 0;
		lock->spinner_granted = FALSE;
		account_wait(lock, task, lock->spin_since);
		done(sim, done_arg);
		return;
	}
	/* spin on while the owner runs and need_resched() is not set */
	until = owner_running_until(lock);
	if (until && spin_cpu(lock, task) && !handoff_due(lock) &&
	    !wbsim_cpus_need_resched(lock->spin_cpus, task)) {
		rwsem_spin_on_owner(lock, until);
		return;
	}
	lock->spinner = NULL;
	lock->rspin_until = 0;
	enqueue_since(lock, task, FALSE, done, done_arg, lock->spin_since);
}

/* A task that waits for a CPU before it can try the lock. */
struct cpu_wait {
	wbsim_lock *lock;
	wbsim_task *task;
	wbsim_event_fn done;
	void *arg;
	gboolean shared;	/* it takes the lock shared */
};

static void acquire_running(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done, void *arg);
static void acquire_shared_running(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done,
				   void *arg);

/* A CPU runs the task now: it tries the lock there. */
static void cpu_wait_done(wbsim_sim *sim, void *arg)
{
	struct cpu_wait *w = arg;
	wbsim_lock *lock = w->lock;

	(void)sim;
	lock->cpu_waits = g_list_remove(lock->cpu_waits, w);
	if (w->shared)
		acquire_shared_running(lock, w->task, w->done, w->arg);
	else
		acquire_running(lock, w->task, w->done, w->arg);
	g_free(w);
}

/*
 * A task that is not on a CPU (woken by an event, or its CPU went to a
 * waiter at its last burst's end) first runs, and tries the lock there:
 * the kernel's takes a lock only while it runs, so it never holds one
 * while it waits for a CPU it has not had since. Its lock wait starts at
 * the try; the time before is its CPU wait.
 */
static void run_then_try(wbsim_lock *lock, wbsim_task *task, gboolean shared,
			 wbsim_event_fn done, void *arg)
{
	struct cpu_wait *w = g_new(struct cpu_wait, 1);

	*w = (struct cpu_wait){ lock, task, done, arg, shared };
	lock->cpu_waits = g_list_prepend(lock->cpu_waits, w);
	wbsim_cpus_run_on(lock->spin_cpus, task, 0, cpu_wait_done, w);
}

/* @task got the lock at once: on its CPU it goes on with it there, else
 * (a lock that is no rwsem) through an event now. */
static void go_on_granted(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done, void *arg)
{
	if (task->cpu_kept)
		done(lock->sim, arg);
	else
		wbsim_sim_schedule_at(lock->sim, lock->sim->now, done, arg);
}

/* A writer on its CPU (or any taker of a lock that is no rwsem): the free
 * lock at once unless a spinner is there first; else it spins if it can,
 * or sleeps. */
static void acquire_running(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done, void *arg)
{
	if (can_steal(lock) && !lock->spinner) {
		grant(lock, task, FALSE);
		go_on_granted(lock, task, done, arg);
		return;
	}
	lock->contended++;
	if (can_spin(lock, task)) {
		lock->spins++;
		lock->spinner = task;
		lock->spin_done = done;
		lock->spin_arg = arg;
		lock->spin_since = lock->sim->now;
		rwsem_spin_on_owner(lock, owner_running_until(lock));
		return;
	}
	enqueue_since(lock, task, FALSE, done, arg, lock->sim->now);
}

void wbsim_lock_acquire(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done, void *arg)
{
	if (lock->spin_cpus && !task->cpu_kept) {
		run_then_try(lock, task, FALSE, done, arg);
		return;
	}
	acquire_running(lock, task, done, arg);
}

/* down_write_trylock(): the free lock, unless a waiter is owed it by
 * handoff (RWSEM_FLAG_HANDOFF makes the trylock fail); never waits. */
gboolean wbsim_lock_trylock(wbsim_lock *lock, wbsim_task *task)
{
	if (!can_steal(lock))
		return FALSE;
	grant(lock, task, FALSE);
	return TRUE;
}

/* A reader on its CPU: the lock at once unless a writer holds it or
 * waits for it (FIFO), else it sleeps in the queue. */
static void acquire_shared_running(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done,
				   void *arg)
{
	if (!lock->owner && !lock->wait_head && !lock->woken) {
		grant(lock, task, TRUE);
		go_on_granted(lock, task, done, arg);
		return;
	}
	enqueue(lock, task, TRUE, done, arg);
}

void wbsim_lock_acquire_shared(wbsim_lock *lock, wbsim_task *task, wbsim_event_fn done,
			       void *arg)
{
	if (lock->spin_cpus && !task->cpu_kept) {
		run_then_try(lock, task, TRUE, done, arg);
		return;
	}
	acquire_shared_running(lock, task, done, arg);
}

/* The woken writer is back on a CPU (rwsem_down_write_slowpath()'s loop
 * after schedule()): it takes the lock if it is free or was handed to it,
 * else it sleeps again, still first in the queue. */
static void woken_writer_runs(wbsim_sim *sim, void *arg)
{
	wbsim_lock *lock = arg;
	wbsim_task *task = lock->woken;
	wbsim_event_fn done = lock->woken_done;
	void *done_arg = lock->woken_arg;
	wbsim_time_t since = lock->woken_since;
	gboolean granted = lock->woken_granted;

	lock->woken = NULL;
	lock->woken_granted = FALSE;
	if (!granted && !lock_busy(lock)) {
		grant(lock, task, FALSE);
		granted = TRUE;
	}
	if (granted) {
		account_wait(lock, task, since);
		done(sim, done_arg);
		return;
	}
	/* stolen: back to sleep at the head of the queue */
	lock->sleeps++;
	task->done_fn = done;
	task->done_arg = done_arg;
	task->wait_since = since;
	task->wait_shared = FALSE;
	task->next_waiter = lock->wait_head;
	lock->wait_head = task;
	if (!lock->wait_tail)
		lock->wait_tail = task;
}

/* Models rwsem_wake() of a writer at the queue's head: wake it without
 * giving it the lock (it runs woken_writer_runs() after its sleep), or,
 * once it has waited RWSEM_WAIT_TIMEOUT, hand the lock to it. Returns the
 * sleepers woken (0 when it was awake already). */
static unsigned int rwsem_wake_writer(wbsim_lock *lock)
{
	wbsim_task *next;

	if (lock->woken) {
		if (handoff_due(lock) && !lock_busy(lock)) {
			grant(lock, lock->woken, FALSE);
			lock->woken_granted = TRUE;
		}
		return 0;
	}
	next = lock->wait_head;
	lock->wait_head = next->next_waiter;
	if (!lock->wait_head)
		lock->wait_tail = NULL;
	next->next_waiter = NULL;
	lock->woken = next;
	lock->woken_done = next->done_fn;
	lock->woken_arg = next->done_arg;
	lock->woken_since = next->wait_since;
	if (handoff_due(lock)) {
		grant(lock, next, FALSE);
		lock->woken_granted = TRUE;
	}
	/* back on a CPU with the lock, it goes on there */
	wbsim_cpus_run_on(lock->spin_cpus, next, lock->sleep_ns, woken_writer_runs, lock);
	return 1;
}

/* Hand the lock to the spinner (it steals it from the sleepers unless a
 * handoff is due), else wake the waiters at the head: on a kernel
 * rw_semaphore the first sleeping writer (rwsem_wake_writer()); otherwise
 * one exclusive taker, or every shared taker up to the first exclusive
 * one, who get the lock at once. A woken sleeper first pays its sleep on a
 * CPU. Returns the sleepers woken. */
static unsigned int wake_waiters(wbsim_lock *lock)
{
	wbsim_sim *sim = lock->sim;
	wbsim_task *next;
	unsigned int woken = 0;

	if (lock->spinner && !lock->spinner_granted && !lock_busy(lock) && !handoff_due(lock)) {
		grant(lock, lock->spinner, FALSE);
		lock->spinner_granted = TRUE;	/* it goes on when its burst ends */
		return 0;
	}
	if (lock->spin_cpus && lock->sleep_ns && !lock_busy(lock) &&
	    (lock->woken || (lock->wait_head && !lock->wait_head->wait_shared)))
		return rwsem_wake_writer(lock);
	while ((next = lock->wait_head)) {
		if (!next->wait_shared && lock_busy(lock))
			break;
		lock->wait_head = next->next_waiter;
		if (!lock->wait_head)
			lock->wait_tail = NULL;
		next->next_waiter = NULL;
		account_wait(lock, next, next->wait_since);
		grant(lock, next, next->wait_shared);
		if (lock->spin_cpus && lock->sleep_ns) {
			woken++;
			wbsim_cpus_run(lock->spin_cpus, next, lock->sleep_ns, next->done_fn,
				       next->done_arg);
		} else {
			wbsim_sim_schedule_at(sim, sim->now, next->done_fn, next->done_arg);
		}
		if (lock->owner)
			break;
	}
	return woken;
}

wbsim_time_t wbsim_lock_release_waking(wbsim_lock *lock, wbsim_task *task)
{
	g_return_val_if_fail(lock->owner == task, 0);

	lock->hold_ns += lock->sim->now - lock->held_since;
	lock->owner = NULL;
	return wake_waiters(lock) * lock->wake_ns;
}

void wbsim_lock_release(wbsim_lock *lock, wbsim_task *task)
{
	(void)wbsim_lock_release_waking(lock, task);
}

void wbsim_lock_release_shared(wbsim_lock *lock, wbsim_task *task)
{
	g_return_if_fail(lock->readers > 0 && task != NULL);

	if (lock->last_reader == task)
		lock->last_reader = NULL;
	if (--lock->readers)
		return;
	lock->hold_ns += lock->sim->now - lock->held_since;
	(void)wake_waiters(lock);
}
