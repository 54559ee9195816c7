/* SPDX-License-Identifier: MIT */
/*
 * wbsim/sim.h - the discrete-event core: simulated time, the event queue,
 * timers, the seeded random generator, and the two shared resources through
 * which contention enters every model: a pool of CPUs and locks.
 *
 * Time is simulated nanoseconds in a uint64_t. Events with equal times run in
 * the order they were scheduled (the queue is keyed by (time, sequence)).
 *
 * This is what a model of your own (wbsim/device.h, wbsim/fs.h,
 * wbsim/affinity.h) runs on: the library makes the simulation and the CPU
 * pool for a scenario and hands them to the model (wbsim_device_sim(),
 * wbsim_fs_sim(), wbsim_fs_cpus(), ...); the model reads the clock,
 * schedules events, arms timers, draws random numbers and takes CPU time
 * and locks.
 *
 * Thread safety: one wbsim_sim and everything attached to it belongs to one
 * thread at a time. Independent simulations may run in separate threads.
 */
#ifndef WBSIM_SIM_H
#define WBSIM_SIM_H

#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>

WBSIM_BEGIN_DECLS

/** typedef wbsim_time_t - simulated time or duration in nanoseconds. */
typedef uint64_t wbsim_time_t;

#define WBSIM_NSEC_PER_USEC ((wbsim_time_t)1000)
#define WBSIM_NSEC_PER_MSEC ((wbsim_time_t)1000000)
#define WBSIM_NSEC_PER_SEC ((wbsim_time_t)1000000000)
/** WBSIM_TIME_NEVER - a time that never comes; run_until() with it runs to the end. */
#define WBSIM_TIME_NEVER UINT64_MAX

typedef struct wbsim_sim wbsim_sim;

/**
 * typedef wbsim_event_fn - an event handler
 * @sim: the simulation, whose clock reads the event's time
 * @arg: the pointer given when the event was scheduled
 */
typedef void (*wbsim_event_fn)(wbsim_sim *sim, void *arg);

/* ------------------------------------------------------------------------ */
/* Random numbers                                                           */

/**
 * struct wbsim_rng - xoshiro256** 1.0 (Blackman and Vigna, 2018)
 * @s: the 256-bit state
 *
 * Seeded through splitmix64 from a 64-bit seed, so the same seed gives the
 * same stream on every machine. Draws are integer-exact except
 * wbsim_rng_exponential(), which uses the C library's log().
 */
typedef struct wbsim_rng {
	uint64_t s[4];
} wbsim_rng;

/** wbsim_rng_next() - the next 64 raw bits. */
WBSIM_API uint64_t wbsim_rng_next(wbsim_rng *rng);
/** wbsim_rng_uniform() - a double uniform in [0, 1), 53 random bits. */
WBSIM_API double wbsim_rng_uniform(wbsim_rng *rng);
/**
 * wbsim_rng_below() - an integer uniform in [0, @bound), without bias
 * (Lemire's multiply-and-reject). Returns 0 when @bound is 0.
 */
WBSIM_API uint64_t wbsim_rng_below(wbsim_rng *rng, uint64_t bound);
/** wbsim_rng_exponential() - an exponential draw with the given @mean. */
WBSIM_API double wbsim_rng_exponential(wbsim_rng *rng, double mean);

/* ------------------------------------------------------------------------ */
/* The simulation and its event queue                                       */

/** wbsim_sim_now() - the current simulated time. */
WBSIM_API wbsim_time_t wbsim_sim_now(const wbsim_sim *sim);
/** wbsim_sim_rng() - the simulation's random generator. */
WBSIM_API wbsim_rng *wbsim_sim_rng(wbsim_sim *sim);

/**
 * wbsim_sim_schedule_at() - run @fn(@sim, @arg) at absolute time @when
 *
 * A time in the past is a bug in the caller: the event runs at the current
 * time instead and the simulation counts it (the --check mode
 * reports it as a violation).
 */
WBSIM_API void wbsim_sim_schedule_at(wbsim_sim *sim, wbsim_time_t when,
				     wbsim_event_fn fn, void *arg);
/** wbsim_sim_schedule_after() - run @fn(@sim, @arg) @delay ns from now. */
WBSIM_API void wbsim_sim_schedule_after(wbsim_sim *sim, wbsim_time_t delay,
					wbsim_event_fn fn, void *arg);

/* ------------------------------------------------------------------------ */
/* Timers: cancellable events                                               */

/**
 * struct wbsim_timer - a re-armable, cancellable event, in the style of the
 * kernel's timer_list: the owner embeds it and arms it at a time.
 * @fn: handler
 * @arg: handler argument
 * @expires: the time it is armed for (valid while pending)
 * @armed_seq: private: queue sequence of the live entry, 0 when idle
 *
 * Cancelling is O(1): the queue entry is left behind and skipped when it
 * surfaces (its sequence no longer matches).
 */
typedef struct wbsim_timer {
	wbsim_event_fn fn;
	void *arg;
	wbsim_time_t expires;
	uint64_t armed_seq;
} wbsim_timer;

/** wbsim_timer_init() - initialise an idle timer. */
WBSIM_API void wbsim_timer_init(wbsim_timer *timer, wbsim_event_fn fn, void *arg);
/**
 * wbsim_timer_arm() - arm @timer for @when, moving it if already pending
 * (the kernel's mod_timer()).
 */
WBSIM_API void wbsim_timer_arm(wbsim_sim *sim, wbsim_timer *timer, wbsim_time_t when);
/**
 * wbsim_timer_cancel() - disarm @timer (the kernel's del_timer()).
 * Return: TRUE if it was pending.
 */
WBSIM_API gboolean wbsim_timer_cancel(wbsim_sim *sim, wbsim_timer *timer);
/** wbsim_timer_pending() - TRUE while @timer is armed and has not fired. */
static inline gboolean wbsim_timer_pending(const wbsim_timer *timer)
{
	return timer->armed_seq != 0;
}

/* ------------------------------------------------------------------------ */
/* Tasks and the CPU pool                                                   */

/**
 * enum wbsim_task_kind - what a task is, for CPU-time reports
 */
enum wbsim_task_kind {
	WBSIM_TASK_DIRTIER,	/* a job's thread doing buffered or direct writes */
	WBSIM_TASK_FLUSHER,	/* a writeback context's flusher kworker */
	WBSIM_TASK_IRQ,		/* block-layer completion work */
	WBSIM_TASK_OTHER,
	WBSIM_TASK_NR_KINDS,
};

/**
 * struct wbsim_task - a schedulable entity on the simulated machine
 * @name: the task name the kernel shows (the trace's comm: "kworker/u24:3", "fio",
 *	"iou-wrk-114")
 * @kind: what it is
 * @pid: its pid (set by the owner; the library's tasks take theirs from one
 *	pid space per simulation, unique in the run; 0 by default)
 * @cpu_ns: CPU time consumed
 * @cpu_wait_ns: time spent runnable, waiting for a CPU
 * @lock_wait_ns: time spent waiting for locks
 * @bursts: number of CPU bursts run
 * @last_cpu: the CPU its last burst ran on
 * @irq_ns: time its bursts were stretched by hard interrupts that ran on
 *	its CPU meanwhile (wbsim_cpus_irq(); not in @cpu_ns)
 * @idle_exit_ns: the part of @cpu_ns charged for the exits from idle of the
 *	CPUs it was woken onto ([machine] idle_exit_cost, idle_poll_cost)
 *
 * The remaining fields are private to the core.
 */
typedef struct wbsim_task {
	char *name;
	enum wbsim_task_kind kind;
	unsigned int pid;
	wbsim_time_t cpu_ns;
	wbsim_time_t cpu_wait_ns;
	wbsim_time_t lock_wait_ns;
	uint64_t bursts;
	/* voluntary context switches: the times the task slept between two
	 * CPU bursts (on a lock, a folio, I/O, a throttle pause, a timer) */
	uint64_t nvcsw;
	/* involuntary ones: the times a burst of it ended, a waiting task
	 * went first and it, still runnable, asked for the next at once */
	uint64_t nivcsw;
	unsigned int last_cpu;
	wbsim_time_t irq_ns;
	wbsim_time_t idle_exit_ns;
	/* private */
	wbsim_time_t wait_since;
	wbsim_time_t burst_end_ns;	/* when its last burst ended */
	wbsim_time_t oncpu_since;	/* when it last got a CPU from the pool */
	wbsim_time_t preempted_ns;	/* interrupt time not yet added to the burst */
	wbsim_time_t burst_ns;
	wbsim_time_t vruntime;		/* CPU time run, for the fair pick */
	wbsim_event_fn done_fn;
	void *done_arg;
	struct wbsim_task *next_waiter;
	struct wbsim_cpus *on_pool;
	int cpu;
	gboolean wait_shared;	/* waiting for a lock in shared mode */
	gboolean keep_cpu;	/* the burst's callback goes on on its CPU */
	gboolean cpu_kept;	/* in that callback, its CPU kept */
	gboolean switched_out;	/* its last burst's CPU went to a waiter */
	gboolean woken;		/* its pending burst follows a sleep */
} wbsim_task;

/** wbsim_task_init() - initialise a task (copies @name). */
WBSIM_API void wbsim_task_init(wbsim_task *task, const char *name,
			       enum wbsim_task_kind kind);
/** wbsim_task_clear() - release what wbsim_task_init() allocated. */
WBSIM_API void wbsim_task_clear(wbsim_task *task);

/*
 * The machine's CPUs, a pool of identical CPUs the library makes for the
 * scenario's [machine] cpus: a task asks for an amount of CPU time with
 * wbsim_cpus_run(); it runs on a free CPU without preemption for that long
 * and is then resumed through its callback. When every CPU is busy the
 * task waits; a CPU that comes free runs the waiting task that has run
 * least (the jobs' tasks counted together, as their session's autogroup).
 */
typedef struct wbsim_cpus wbsim_cpus;

/**
 * wbsim_cpus_run() - consume @cost ns of CPU for @task, then call
 * @done(sim, @arg). A task may have only one request outstanding.
 */
WBSIM_API void wbsim_cpus_run(wbsim_cpus *cpus, wbsim_task *task,
			      wbsim_time_t cost, wbsim_event_fn done, void *arg);
WBSIM_API unsigned int wbsim_cpus_count(const wbsim_cpus *cpus);

/* ------------------------------------------------------------------------ */
/* Locks                                                                    */

/**
 * struct wbsim_lock - a sleeping lock with a FIFO wait queue
 * @name: for reports ("xfs-ag-0"), interned (g_intern_string()): the
 *	name of every inode's i_rwsem is stored once, not once per inode
 * @acquisitions: times it was taken
 * @contended: times a taker had to wait
 * @hold_ns: total time held
 * @wait_ns: total time takers waited
 * @max_wait_ns: longest single wait
 *
 * The remaining fields are private to the core.
 */
typedef struct wbsim_lock {
	const char *name;
	uint64_t acquisitions;
	uint64_t contended;
	wbsim_time_t hold_ns;
	wbsim_time_t wait_ns;
	wbsim_time_t max_wait_ns;
	/* private */
	wbsim_sim *sim;
	wbsim_task *owner;
	wbsim_time_t held_since;
	wbsim_task *wait_head, *wait_tail;
	/* a kernel rw_semaphore's optimistic spinning and sleeps (set by
	 * lib/core/lock.h's wbsim_lock_set_rwsem()) */
	wbsim_cpus *spin_cpus;
	wbsim_time_t sleep_ns, wake_ns;
	wbsim_task *spinner;
	wbsim_event_fn spin_done;
	void *spin_arg;
	wbsim_time_t spin_since;
	gboolean spinner_granted;
	unsigned int readers;	/* holders in shared mode (rwsem read side) */
	wbsim_task *last_reader;	/* the one reader, while one holds it */
	wbsim_time_t rspin_until;	/* a spin on readers ends then at the latest */
	GList *cpu_waits;	/* writers waiting for a CPU to try it */
	/* the first sleeping writer, woken at a release and on its way back
	 * to a CPU to try the lock again (others may take it meanwhile) */
	wbsim_task *woken;
	wbsim_event_fn woken_done;
	void *woken_arg;
	wbsim_time_t woken_since;
	gboolean woken_granted;
	uint64_t spins, sleeps;
} wbsim_lock;

/** wbsim_lock_init() - initialise an unlocked lock (@name is interned). */
WBSIM_API void wbsim_lock_init(wbsim_lock *lock, wbsim_sim *sim, const char *name);
/** wbsim_lock_clear() - release what wbsim_lock_init() allocated. */
WBSIM_API void wbsim_lock_clear(wbsim_lock *lock);
/**
 * wbsim_lock_acquire() - take @lock for @task, then call @done(sim, @arg)
 *
 * If the lock is free the callback runs as an event at the current time;
 * otherwise @task joins the FIFO wait queue and is called when the lock is
 * handed to it.
 */
WBSIM_API void wbsim_lock_acquire(wbsim_lock *lock, wbsim_task *task,
				  wbsim_event_fn done, void *arg);
/**
 * wbsim_lock_trylock() - take @lock for @task if it is free now (a
 * kernel trylock: down_write_trylock(), mutex_trylock()); never waits
 *
 * Returns TRUE with the lock held, FALSE (nothing changed, nothing
 * counted as contention) when a task holds it or, on a lock set up as an
 * rw_semaphore, the first waiter is owed it by handoff.
 */
WBSIM_API gboolean wbsim_lock_trylock(wbsim_lock *lock, wbsim_task *task);
/** wbsim_lock_release() - release @lock held by @task; hands it to the next waiter. */
WBSIM_API void wbsim_lock_release(wbsim_lock *lock, wbsim_task *task);
/**
 * wbsim_lock_acquire_shared() - take @lock in shared mode (down_read() of
 * an rw_semaphore), then call @done(sim, @arg)
 *
 * Shared holders run together; a taker in shared mode waits while the
 * lock is held exclusively or anyone waits before it (FIFO: a waiting
 * writer is not starved). Waits are accounted as for wbsim_lock_acquire().
 */
WBSIM_API void wbsim_lock_acquire_shared(wbsim_lock *lock, wbsim_task *task,
					 wbsim_event_fn done, void *arg);
/** wbsim_lock_release_shared() - up_read(): drop one shared hold of @lock. */
WBSIM_API void wbsim_lock_release_shared(wbsim_lock *lock, wbsim_task *task);
/** wbsim_lock_held() - does a task hold @lock (exclusively, or shared)? */
static inline gboolean wbsim_lock_held(const wbsim_lock *lock)
{
	return lock->owner != NULL || lock->readers > 0;
}
/** wbsim_lock_owner() - the task holding @lock, or NULL. */
static inline wbsim_task *wbsim_lock_owner(const wbsim_lock *lock)
{
	return lock->owner;
}

WBSIM_END_DECLS

#endif /* WBSIM_SIM_H */
