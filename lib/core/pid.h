/* SPDX-License-Identifier: MIT */
/*
 * pid.h - the one pid space of a simulation. Every simulated task (fio's
 * threads, io-wq workers, flusher and workqueue kworkers, the completion
 * thread) takes its pid from here when it is created, so a pid is unique
 * in the run and the same in the text report, the JSON and the trace.
 * Pids are handed out in creation order from WBSIM_FIRST_PID: the machine's
 * kernel threads first (flushers, end-io workers, the completion thread),
 * then the jobs, then what is created as the run goes (cgroup wbs' flushers,
 * the inode-switch workers). 0 stays the idle task's, as in ftrace.
 */
#ifndef WBSIM_CORE_PID_H
#define WBSIM_CORE_PID_H

#include <wbsim/sim.h>

#define WBSIM_FIRST_PID 100u

/* The next unused pid of @sim. */
unsigned int wbsim_sim_alloc_pid(wbsim_sim *sim);

#endif
