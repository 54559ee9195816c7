/* SPDX-License-Identifier: MIT */
/*
 * core/sim.h - the library's side of wbsim/sim.h: making, seeding and
 * running a simulation, and setting up the machine's CPU pool, its
 * interrupts and its counters. A model (wbsim/sim.h) schedules events,
 * arms timers and takes CPU time and locks; only the runner (lib/run), the
 * scenario checks and the block layer call these.
 */
#ifndef WBSIM_CORE_SIM_H
#define WBSIM_CORE_SIM_H

#include <wbsim/sim.h>

/** wbsim_rng_seed() - seed @rng from @seed (splitmix64 expansion). */
void wbsim_rng_seed(wbsim_rng *rng, uint64_t seed);

/**
 * wbsim_sim_new() - a new simulation at time 0 with an empty queue
 * @seed: seed of the simulation's random generator
 *
 * Return: the simulation; free it with wbsim_sim_free().
 */
wbsim_sim *wbsim_sim_new(uint64_t seed);
/** wbsim_sim_free() - free @sim and its queue (pending events are dropped). */
void wbsim_sim_free(wbsim_sim *sim);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_sim, wbsim_sim_free)

/**
 * wbsim_sim_run_until() - run every event due at or before @limit
 *
 * Afterwards the clock reads @limit (unless the queue ran dry earlier with
 * @limit == WBSIM_TIME_NEVER, or a handler called wbsim_sim_stop()).
 * Return: the number of events run by this call.
 */
uint64_t wbsim_sim_run_until(wbsim_sim *sim, wbsim_time_t limit);
/** wbsim_sim_run() - run until the queue is empty or wbsim_sim_stop(). */
uint64_t wbsim_sim_run(wbsim_sim *sim);
/**
 * typedef wbsim_stop_fn - a stop condition, tested after every event
 * Return: TRUE to stop.
 */
typedef gboolean (*wbsim_stop_fn)(wbsim_sim *sim, void *arg);
/**
 * wbsim_sim_run_while_not() - run until @stop returns TRUE, the queue is
 * empty or wbsim_sim_stop() was called
 * Return: the number of events run by this call.
 */
uint64_t wbsim_sim_run_while_not(wbsim_sim *sim, wbsim_stop_fn stop,
				 void *arg);
/** wbsim_sim_stop() - make the running wbsim_sim_run*() return after this event. */
void wbsim_sim_stop(wbsim_sim *sim);

/** wbsim_sim_pending() - number of live (not cancelled) pending events. */
size_t wbsim_sim_pending(const wbsim_sim *sim);
/** wbsim_sim_events_processed() - events run since the simulation began. */
uint64_t wbsim_sim_events_processed(const wbsim_sim *sim);
/** wbsim_sim_past_schedules() - events that were scheduled in the past. */
uint64_t wbsim_sim_past_schedules(const wbsim_sim *sim);

/**
 * wbsim_cpus_new() - a pool of @nr_cpus identical CPUs
 *
 * A task asks for an amount of CPU time with wbsim_cpus_run(); it runs on a
 * free CPU without preemption for that long and is then resumed through its
 * callback. When every CPU is busy the task waits for the fair class's
 * pick (lib/core/sched-fair.c).
 * Return: the pool, or NULL with @error set when @nr_cpus is 0.
 */
wbsim_cpus *wbsim_cpus_new(wbsim_sim *sim, unsigned int nr_cpus,
			   GError **error);
void wbsim_cpus_free(wbsim_cpus *cpus);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_cpus, wbsim_cpus_free)
/**
 * wbsim_cpus_set_speed() - the machine's CPU speed, in percent of the host
 * the cost table was measured on: every burst of @cost ns lasts
 * @cost * 100 / @speed_pct (100, the default, runs the costs as they are)
 */
void wbsim_cpus_set_speed(wbsim_cpus *cpus, unsigned int speed_pct);
/* wbsim_cpus_set_autogroup() - the jobs' tasks (WBSIM_TASK_DIRTIER) share
 * one scheduling entity, their session's autogroup ([machine]
 * sched_autogroup; on by default, as the kernel's) */
void wbsim_cpus_set_autogroup(wbsim_cpus *cpus, gboolean on);
/*
 * wbsim_cpus_set_idle_exit_latency() - how long a task or an interrupt
 * woken onto an idle CPU waits before it runs there: @poll_exit_ns if the
 * CPU has idled less than @poll_window_ns, else @exit_ns ([machine]
 * idle_exit_latency, idle_poll_window, idle_poll_latency; 0: none).
 */
void wbsim_cpus_set_idle_exit_latency(wbsim_cpus *cpus, wbsim_time_t exit_ns,
				      wbsim_time_t poll_window_ns, wbsim_time_t poll_exit_ns);
/* wbsim_cpus_set_idle_wake_cost() - the CPU a task spends waking another
 * onto an idle CPU other than its own ([machine] idle_wake_cost: the IPI;
 * 0: none), wbsim_cpus_wake_remote() */
void wbsim_cpus_set_idle_wake_cost(wbsim_cpus *cpus, wbsim_time_t ns);
/* wbsim_cpus_set_idle_exit_cost() - the CPU a task woken onto an idle CPU
 * spends there on the CPU's exit from idle, in its own time: @poll_ns if
 * the CPU has idled less than the poll window, else @exit_ns ([machine]
 * idle_poll_cost, idle_exit_cost; 0: none) */
void wbsim_cpus_set_idle_exit_cost(wbsim_cpus *cpus, wbsim_time_t exit_ns,
				   wbsim_time_t poll_ns);
/**
 * wbsim_cpus_irq() - run @cost ns of hard-interrupt work for @irq on CPU
 * @cpu, starting now: interrupts on one CPU run one after another; one that
 * lands on a CPU running a task's burst preempts it (the burst ends @cost
 * later, counted in the task's irq_ns), one that lands on an idle CPU keeps
 * it from the other tasks until the interrupts are done. The time counts
 * in @irq's cpu_ns.
 * Return: the simulated time at which this interrupt's work is done.
 */
wbsim_time_t wbsim_cpus_irq(wbsim_cpus *cpus, unsigned int cpu, wbsim_task *irq,
			    wbsim_time_t cost);
/** wbsim_cpus_busy() - CPUs currently running a burst. */
unsigned int wbsim_cpus_busy(const wbsim_cpus *cpus);
/** wbsim_cpus_waiting() - tasks waiting for a CPU. */
unsigned int wbsim_cpus_waiting(const wbsim_cpus *cpus);
/**
 * wbsim_cpus_resched_at() - when the kernel would set need_resched for
 * @task, which runs on a CPU of @cpus: once its entity (the task, or the
 * autogroup's where a kernel thread waits) has run the scheduler's base
 * slice since it got the CPU, if a task waits (the tick; a woken task does
 * not preempt within the slice, RUN_TO_PARITY); WBSIM_TIME_NEVER while none
 * waits.
 */
wbsim_time_t wbsim_cpus_resched_at(const wbsim_cpus *cpus, const wbsim_task *task);
/** wbsim_cpus_busy_ns() - CPU time consumed on the pool, all CPUs summed. */
wbsim_time_t wbsim_cpus_busy_ns(const wbsim_cpus *cpus);

#endif /* WBSIM_CORE_SIM_H */
