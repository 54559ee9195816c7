/* SPDX-License-Identifier: MIT */
/*
 * wbsim/run.h - run a scenario from a program: build the scenario in code
 * (or load it with wbsim_scenario_load()), choose options and callbacks,
 * run it, and read the results through include/wbsim/result.h.
 *
 *   g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("sweep");
 *   wbsim_scenario_builder_set(b, "writeback.contexts", "4", &error);
 *   wbsim_scenario_builder_add_fio_job(b, "w", "rw=write\nsize=64m\n", &error);
 *   g_autoptr(wbsim_scenario) scn = wbsim_scenario_builder_build(b, &error);
 *   g_autoptr(wbsim_result) r = wbsim_run(scn, NULL, &error);
 *
 * Independent simulations may run at the same time in different threads:
 * a run shares nothing mutable with another one (the model registries are
 * read under their locks).
 */
#ifndef WBSIM_RUN_H
#define WBSIM_RUN_H

#include <signal.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>
#include <wbsim/scenario.h>
#include <wbsim/result.h>

WBSIM_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Building a scenario in code                                              */

/**
 * typedef wbsim_scenario_builder - a scenario being assembled from key/value
 * settings and fio job text (opaque)
 */
typedef struct wbsim_scenario_builder wbsim_scenario_builder;

/**
 * wbsim_scenario_builder_new() - an empty scenario: every key at its default
 * @name: the name used in error messages and in the results (as a file
 *	name would be), or NULL for "builder"
 *
 * Thread safety: safe from any thread; a builder belongs to one thread.
 * Return: a new builder; free it with wbsim_scenario_builder_free().
 */
WBSIM_API wbsim_scenario_builder *wbsim_scenario_builder_new(const char *name);

/**
 * wbsim_scenario_builder_free() - free a builder (NULL is fine)
 * @b: the builder
 *
 * Thread safety: as wbsim_scenario_builder_new().
 */
WBSIM_API void wbsim_scenario_builder_free(wbsim_scenario_builder *b);

/**
 * wbsim_scenario_builder_set() - set one scenario key, as a line of a file
 * @b: the builder
 * @key: "section.key" as documented in scenarios/README.md (for example
 *	"writeback.contexts", "device.preset", "events.at"); a later setting
 *	of a key replaces an earlier one except for repeatable keys
 * @value: the value as it would be written in the file
 * @error: WBSIM_ERROR_INVALID_ARGUMENT if an argument is NULL, @key has
 *	no '.', @key holds '=', '[', ']', a blank or a control character, or
 *	@key or @value holds a line break, ';' or '#' (what a scenario file's
 *	line could not hold: wbsim_scenario_builder_text() must read back as
 *	set); a key or value that is wrong for the scenario is reported by
 *	wbsim_scenario_builder_build()
 *
 * Thread safety: as wbsim_scenario_builder_new().
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_scenario_builder_set(wbsim_scenario_builder *b, const char *key,
					       const char *value, GError **error);

/**
 * wbsim_scenario_builder_add_fio_job() - add fio job-file lines as a job
 * @b: the builder
 * @job: the job's name ("global" for options shared by every job)
 * @text: fio job-file lines without the section header ("rw=write\n...")
 * @error: WBSIM_ERROR_INVALID_ARGUMENT if an argument is NULL, @job is
 *	empty, holds '[', ']' or a line break or starts or ends with a blank;
 *	fio errors are reported by wbsim_scenario_builder_build()
 *
 * Thread safety: as wbsim_scenario_builder_new().
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_scenario_builder_add_fio_job(wbsim_scenario_builder *b,
						       const char *job, const char *text,
						       GError **error);

/**
 * wbsim_scenario_builder_text() - the scenario file the builder stands for
 * @b: the builder
 *
 * Thread safety: as wbsim_scenario_builder_new().
 * Return: a new string in scenario.ini syntax; g_free() it.
 */
WBSIM_API char *wbsim_scenario_builder_text(const wbsim_scenario_builder *b);

/**
 * wbsim_scenario_builder_build() - check and resolve the scenario
 * @b: the builder (unchanged; it may be built again after more settings)
 * @error: as wbsim_scenario_load(), messages name the builder's name and
 *	the line of wbsim_scenario_builder_text(); WBSIM_ERROR_INVALID_ARGUMENT
 *	for a NULL @b
 *
 * Relative file names (an fio job file, an include) are taken from the
 * current directory.
 * Thread safety: as wbsim_scenario_builder_new().
 * Return: a new scenario, or NULL with @error set.
 */
WBSIM_API wbsim_scenario *wbsim_scenario_builder_build(const wbsim_scenario_builder *b,
						       GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_scenario_builder, wbsim_scenario_builder_free)

/* ------------------------------------------------------------------------ */
/* Callbacks                                                                */

/**
 * typedef wbsim_sample_fn - called at each sample of the time series
 * @now_ns: simulated time of the sample
 * @columns: the column names (wbsim_result_series_column() order; the
 *	first is "time_s"), valid during the call
 * @values: the row, one value per column, valid during the call
 * @n_columns: number of columns
 * @user_data: wbsim_run_opts.user_data
 *
 * Runs inside the simulation, in the thread that called wbsim_run(); the
 * simulation waits for it. It must not call into the same run.
 */
typedef void (*wbsim_sample_fn)(wbsim_time_t now_ns, const char *const *columns,
				const double *values, unsigned int n_columns,
				void *user_data);

/**
 * typedef wbsim_trace_fn - called for each selected tracepoint
 * @event: the event name ("balance_dirty_pages", "writeback_start", ...)
 * @line: the whole line in ftrace text format, without newline, valid
 *	during the call (what sim-writeback --trace writes)
 * @user_data: wbsim_run_opts.user_data
 *
 * Runs inside the simulation, as wbsim_sample_fn.
 */
typedef void (*wbsim_trace_fn)(const char *event, const char *line, void *user_data);

/**
 * enum wbsim_point - measurement points of a run
 * @WBSIM_POINT_JOB_END: an fio job finished (its end_fsync included)
 * @WBSIM_POINT_RUN_END: the simulation stopped; the results are complete
 */
enum wbsim_point {
	WBSIM_POINT_JOB_END,
	WBSIM_POINT_RUN_END,
};

/**
 * typedef wbsim_point_fn - called at a measurement point
 * @point: which point
 * @now_ns: simulated time
 * @job: for WBSIM_POINT_JOB_END the job's index (wbsim_result_job_*()
 *	order), else -1
 * @job_name: the job's name, or NULL
 * @user_data: wbsim_run_opts.user_data
 *
 * Runs inside the simulation (WBSIM_POINT_RUN_END: just before wbsim_run()
 * returns), as wbsim_sample_fn.
 */
typedef void (*wbsim_point_fn)(enum wbsim_point point, wbsim_time_t now_ns, int job,
			       const char *job_name, void *user_data);

/* ------------------------------------------------------------------------ */
/* Run options                                                              */

/**
 * typedef wbsim_progress_fn - how far a run is, at each sample
 * @now_ns: simulated time
 * @fraction: 0..1, the jobs' mean progress or the share of [run]
 *	time_limit simulated, whichever is further
 * @jobs_running: jobs started and not finished
 * @bytes: bytes all jobs have written so far
 * @user_data: wbsim_run_opts.user_data
 *
 * Runs inside the simulation, as wbsim_sample_fn.
 */
typedef void (*wbsim_progress_fn)(wbsim_time_t now_ns, double fraction,
				  unsigned int jobs_running, uint64_t bytes, void *user_data);

/**
 * typedef wbsim_fio_log_fn - a piece of a job's fio log (write_bw_log,
 * write_lat_log, write_iops_log)
 * @name: the log's file name, as fio names it
 * @text: lines to append, or NULL: the log is opened (several jobs may
 *	open the same name; @append says whether fio would append)
 * @append: for @text NULL, open for appending rather than truncate
 * @user_data: wbsim_run_opts.user_data
 *
 * Runs inside the simulation, as wbsim_sample_fn.
 */
typedef void (*wbsim_fio_log_fn)(const char *name, const char *text, gboolean append,
				 void *user_data);

/**
 * typedef wbsim_fio_log_open_fn - can a job's fio log be written?
 * @name: the log's file name, as wbsim_fio_log_fn gets it
 * @append: whether fio would append to it (per_job_logs=0) rather than
 *	truncate it
 * @user_data: wbsim_run_opts.user_data
 *
 * Called for every log of every job before the simulation starts, each
 * just before wbsim_fio_log_fn's open call (@text NULL) of the same log,
 * so that a log that cannot be written stops the run before it has
 * simulated anything.
 * Return: 0, or an errno value saying why @name cannot be written:
 * wbsim_run() then fails with WBSIM_ERROR_IO naming the job file, line and
 * option (write_bw_log=, write_lat_log=, write_iops_log=) that asked for
 * the log.
 */
typedef int (*wbsim_fio_log_open_fn)(const char *name, gboolean append, void *user_data);

/**
 * struct wbsim_run_opts - how to run: checks, outputs and callbacks, all
 * in one struct the caller fills
 * @name: the scenario's name in the reports (a file name, as the user
 *	gave it), or NULL for "-"
 * @check: verify the model's invariants while running and stop at the
 *	first violation with WBSIM_ERROR_SIMULATION (sim-writeback --check);
 *	slower
 * @stream_series: FALSE: the series rows stay in the result
 *	(wbsim_result_series_row()); TRUE: each row goes to @sample_fn only
 *	and the result keeps the column names, so memory stays flat however
 *	long the run
 * @trace_events: NULL-terminated tracepoint names that @trace_fn receives
 *	and @trace_dat records, or NULL for every event
 * @trace_dat: record the tracepoints in the result for trace-cmd's
 *	trace.dat (wbsim_result_write_trace_dat()): the result holds a few
 *	ring-buffer pages per CPU in memory, the others in a temporary file
 *	in @temp_dir
 * @sample_fn: called at each sample of the series (every [run]
 *	series_interval and once at the end), or NULL
 * @trace_fn: called for each tracepoint of @trace_events, or NULL (no
 *	tracing)
 * @point_fn: called at each measurement point, or NULL
 * @progress_fn: called at each sample with the run's progress, or NULL
 * @fio_log_fn: where the jobs' fio logs go, or NULL: logs are not
 *	written and the result warns. A log of a job with per_job_logs=0
 *	gets its rows at the job's end, as fio appends them to the file the
 *	jobs share; until then they wait in a temporary file in @temp_dir
 *	(memory holds no more than 64 KiB of each log)
 * @user_data: passed to every callback
 * @stop: NULL, or a flag the run reads before each event: once it is
 *	nonzero, the run stops at the simulated time it has reached and
 *	wbsim_run() returns the results of the time simulated so far, as
 *	complete as a run's at its [run] time_limit (jobs not finished
 *	report the I/O they did; @sample_fn gets the final row, @point_fn
 *	WBSIM_POINT_RUN_END), marked interrupted: wbsim_result_interrupted()
 *	is TRUE and wbsim_result_warning() says at which time. Set it from a
 *	signal handler (what sim-writeback does on SIGINT and SIGTERM: the
 *	store to a volatile sig_atomic_t is async-signal-safe) or from
 *	another thread; one flag may stop several runs. A flag set before
 *	the run stops it at time 0. A run the flag does not stop gives the
 *	results it gives without it.
 * @temp_dir: the directory where the run keeps what it writes only at
 *	the end (@trace_dat's pages, the rows of per_job_logs=0 logs), in
 *	temporary files unlinked as soon as they are made; NULL:
 *	g_get_tmp_dir() ($TMPDIR). sim-writeback gives the --trace file's
 *	directory, else the current one. The trace's pages take there the
 *	size of the trace.dat, until the result is freed (the file is
 *	written from them: twice that space while it is)
 * @fio_log_open_fn: called for each fio log before the simulation starts
 *	(wbsim_fio_log_open_fn), or NULL
 * @reserved: zero (room for later options without a new ABI)
 *
 * Zero is the default of every member, so a program names only what it
 * sets:
 *
 *   const wbsim_run_opts opts = { .check = TRUE, .sample_fn = on_sample,
 *                                 .user_data = &state };
 *   g_autoptr(wbsim_result) r = wbsim_run(scn, &opts, &error);
 *
 * wbsim_run() reads the options (and the strings they point to) while it
 * runs and keeps nothing of them; one set may serve runs in several
 * threads if its callbacks are thread-safe.
 */
typedef struct wbsim_run_opts {
	const char *name;
	gboolean check;
	gboolean stream_series;
	const char *const *trace_events;
	gboolean trace_dat;
	wbsim_sample_fn sample_fn;
	wbsim_trace_fn trace_fn;
	wbsim_point_fn point_fn;
	wbsim_progress_fn progress_fn;
	wbsim_fio_log_fn fio_log_fn;
	void *user_data;
	const volatile sig_atomic_t *stop;
	const char *temp_dir;
	wbsim_fio_log_open_fn fio_log_open_fn;
	void *reserved[1];
} wbsim_run_opts;

/**
 * wbsim_trace_events_select() - the tracepoints a trace-cmd record -e list names
 * @list: comma-separated items, each "writeback" (every event), "SYSTEM:EVENT"
 *	or "EVENT", '*' and '?' globs allowed
 * @error: WBSIM_ERROR_INVALID_VALUE naming an item that matches no event,
 *	or for an empty @list (it would select nothing)
 *
 * Return: the event names, NULL-terminated (g_strfreev() them; they suit
 * wbsim_run_opts.trace_events), or NULL with @error set.
 */
WBSIM_API char **wbsim_trace_events_select(const char *list, GError **error);

/* ------------------------------------------------------------------------ */
/* Running                                                                  */

/**
 * wbsim_run() - run a scenario to its end (or its [run] time_limit)
 * @scn: the scenario; only read, so one scenario may be run by several
 *	threads at once
 * @opts: options, or NULL for none
 * @error: WBSIM_ERROR_INVALID_ARGUMENT for a NULL @scn, a name of
 *	@opts->trace_events that no tracepoint has, or a @opts->reserved
 *	member that is not zero; bad input the
 *	loader could not see (a device or filesystem
 *	parameter, a job that cannot be modelled; WBSIM_ERROR_INVALID_VALUE,
 *	WBSIM_ERROR_UNSUPPORTED); WBSIM_ERROR_IO before the simulation
 *	starts when @opts->fio_log_open_fn refuses a log or no temporary
 *	file can be made in @opts->temp_dir, after it when one could not be
 *	written (a full disk); or WBSIM_ERROR_SIMULATION (an invariant
 *	broke under wbsim_run_opts.check, a model failed)
 *
 * The same scenario gives the same results in every run (the simulation's
 * random generator is seeded from [run] seed). A run stopped by
 * @opts->stop is not an error: its results are returned, marked
 * interrupted (wbsim_result_interrupted()).
 * Thread safety: safe; independent runs may proceed in different threads.
 * Register policies and models before runs that use them start.
 * Return: the results (free them with wbsim_result_free()), or NULL with
 * @error set.
 */
WBSIM_API wbsim_result *wbsim_run(const wbsim_scenario *scn, const wbsim_run_opts *opts,
				  GError **error);

WBSIM_END_DECLS

#endif /* WBSIM_RUN_H */
