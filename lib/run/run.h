/* SPDX-License-Identifier: MIT */
/* run/run.h - run a loaded scenario and gather its results. */
#ifndef WBSIM_RUN_RUN_H
#define WBSIM_RUN_RUN_H

#include <signal.h>
#include <wbsim/scenario.h>
#include "report/results.h"
#include "fio/job-log.h"
#include "scenario/config-private.h"

struct wbsim_trace_dat;

/**
 * struct wbsim_run_progress - how far a run is (a terminal's progress line)
 * @now: simulated time
 * @fraction: 0..1: the jobs' mean progress (wbsim_job_progress()), or the
 *	share of [run] time_limit simulated, whichever is further
 * @jobs_running: jobs started and not finished
 * @bytes: bytes all jobs have written so far
 */
struct wbsim_run_progress {
	wbsim_time_t now;
	double fraction;
	unsigned int jobs_running;
	uint64_t bytes;
};

/**
 * struct wbsim_run_options - how to run
 * @check: verify the model's invariants while running (stop at the first
 *	violation with WBSIM_ERROR_SIMULATION naming the time and the state)
 * @trace_fn: called with each tracepoint line, or NULL for no trace
 * @trace_events: the events @trace_fn gets (wbsim_trace_select_events()),
 *	NULL for all
 * @trace_arg: its argument
 * @trace_dat: where each selected tracepoint's binary record goes (the
 *	--trace FILE.dat of sim-writeback), or NULL
 * @name: the scenario's name for reports (its file name), or NULL
 * @sample_fn: called after each sample of the series with the columns and
 *	the row just added (the public wbsim_run_opts.sample_fn), or NULL
 * @job_end_fn: called when a job finishes, or NULL
 * @hook_arg: argument of @sample_fn and @job_end_fn
 * @progress_fn: called at each sample with how far the run is, or NULL
 * @io_log_fn: where the jobs' fio logs (write_bw_log, write_lat_log,
 *	write_iops_log) go, or NULL: not written, a warning in the result
 * @io_log_open_fn: asked before the simulation whether each log can be
 *	written (0, or an errno that fails the run), or NULL
 * @io_log_arg: the argument of @io_log_fn and @io_log_open_fn
 * @temp_dir: where the rows of per_job_logs=0 logs wait until their job
 *	ends (a spool, core/spool.h), NULL for g_get_tmp_dir()
 * @series_streamed: each row of the series goes to @sample_fn only and
 *	the result keeps the column names but no rows: memory stays flat in
 *	simulated time (sim-writeback streams --series; sweep points have no
 *	use for it)
 * @stop: NULL, or a flag read before each event: once nonzero, the run
 *	stops at the simulated time reached and its results are those of
 *	that time, marked interrupted (the public wbsim_run_opts.stop)
 */
struct wbsim_run_options {
	const char *name;
	gboolean check;
	void (*trace_fn)(void *arg, const char *line);
	const char *const *trace_events;
	void *trace_arg;
	struct wbsim_trace_dat *trace_dat;
	void (*sample_fn)(void *arg, wbsim_time_t now, const char *const *columns,
			  const double *row, unsigned int n);
	void (*job_end_fn)(void *arg, wbsim_time_t now, unsigned int job, const char *name);
	void *hook_arg;
	gboolean series_streamed;
	wbsim_io_log_fn io_log_fn;
	wbsim_io_log_open_fn io_log_open_fn;
	void *io_log_arg;
	const char *temp_dir;
	void (*progress_fn)(void *arg, const struct wbsim_run_progress *p);
	const volatile sig_atomic_t *stop;
};

/*
 * wbsim_run_check_setup() - build what the run of @scn builds first (the
 * machine, its device and filesystem, every job with its files) on a
 * scratch simulation, check the files fit, and tear it down: the errors a
 * run would meet before its first event, found at load (--parse-only).
 */
gboolean wbsim_run_check_setup(const struct wbsim_scenario *scn, GError **error);

/*
 * wbsim_scenario_load_hooked() - wbsim_scenario_load() with @hook called
 * after the overrides and before the checks (a sweep point's values):
 * wbsim_scenario_read(), then the set-up check (run/scenario-load.c).
 */
struct wbsim_scenario *wbsim_scenario_load_hooked(const char *path,
						  const char *const *overrides,
						  wbsim_scenario_hook hook, void *arg,
						  GError **error);

/* Build the machine of @scn, run it and return the results, or NULL with
 * @error: bad input the loader could not see (a device or filesystem
 * parameter, a job that cannot be modelled), or WBSIM_ERROR_SIMULATION. */
struct wbsim_run_result *wbsim_run_scenario(const struct wbsim_scenario *scn,
					    const struct wbsim_run_options *opts,
					    GError **error);

#endif
