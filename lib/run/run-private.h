/* SPDX-License-Identifier: MIT */
/*
 * run/run-private.h - the state of a run, shared by the runner (run.c), its
 * timed events (events.c), its time series (series.c) and its invariant
 * checks (invariants.c).
 */
#ifndef WBSIM_RUN_RUN_PRIVATE_H
#define WBSIM_RUN_RUN_PRIVATE_H

#include "run/run.h"
#include "machine/machine.h"
#include "report/trace.h"
#include "scenario/config-private.h"

struct wbsim_run {
	const struct wbsim_scenario *scn;
	const struct wbsim_config *cfg;
	struct wbsim_run_options opts;
	struct wbsim_machine m;
	struct wbsim_job *jobs;
	unsigned int nr_jobs;
	unsigned int jobs_done;
	unsigned int cur_group;
	wbsim_timer sampler;
	wbsim_timer checker;
	struct wbsim_trace trace;
	struct wbsim_run_result *result;
	unsigned int pending_events;
	/* timed_event and measure_point structs whose event has not ended:
	 * a run stopped at its time limit frees them at the end */
	GPtrArray *live_timed, *live_measure;
	bool workload_done;
	uint64_t nr_samples;	/* taken so far (bounded: RUN_MAX_SAMPLES) */
	bool remount_started;	/* [measure] extents = remount began */
	GError *failure;
	uint64_t checks;
	/* cgroups (whether the scenario uses them: m.cgroups): the memcg
	 * paths with time-series columns, in first-use order; cgroup-remove
	 * events waiting for their jobs to stop */
	bool final_check;	/* the --check pass after the run */
	GPtrArray *cg_paths;
	/* cg_paths by path (value: index + 1), and each memcg's index by its
	 * id (value: index + 1, or G_MAXUINT for a path not sampled): the
	 * samples look memcgs and wbs up by id, not by comparing paths */
	GHashTable *cg_index, *memcg_col;
	GPtrArray *removals;
	GArray *series;		/* struct series_col, one per column (series.c) */
	/* the rows of per_job_logs=0 logs until their jobs end, or NULL */
	struct wbsim_spool *log_spool;
};

/*
 * Stop when the workload and every timed event and measurement are over
 * (run.c); the [measure] remount comes last.
 */
void wbsim_run_maybe_finish(struct wbsim_run *run);

/* -- the time series (series.c) ------------------------------------------ */
/* Bind the columns of this run's series (run->series and the result's
 * column names): at the start, once the jobs and the cgroup paths are known. */
void wbsim_run_series_columns(struct wbsim_run *run);
/* The sampler (run->sampler's timer, @arg the run): one row of the series,
 * the API's sample and progress callbacks, and the next sample. */
void wbsim_run_sample(wbsim_sim *sim, void *arg);

/* -- invariants, --check (invariants.c) ----------------------------------- */
/* Check the model's invariants now; the first violation sets run->failure
 * and stops the simulation. */
void wbsim_run_check_invariants(struct wbsim_run *run);
/* The simulation's after-event hook of --check (@arg the run). */
void wbsim_run_after_event_check(wbsim_sim *sim, void *arg);

/*
 * wbsim_run_check_space() - the distinct files of the jobs that write a
 * known amount (not time_based, not appending), each with the bytes it
 * ends up holding, against the free space of the new filesystem of @m
 * (run/check-space.c). FALSE with @error naming the line to change.
 */
gboolean wbsim_run_check_space(const struct wbsim_config *cfg, struct wbsim_machine *m,
			       const struct wbsim_fio_file *fio, struct wbsim_job *jobs,
			       GError **error);

#endif /* WBSIM_RUN_RUN_PRIVATE_H */
