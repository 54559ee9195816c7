/* SPDX-License-Identifier: MIT */
/*
 * run/sweep.h - parameter sweeps: a scenario's [sweep] section
 * (KEY = VALUES lines, KEY being "section.key") and the items of
 * wbsim_sweep_opts.sweeps (sim-writeback's --sweep), expanded into the
 * product of their values (the first axis varies slowest). Each point is
 * the scenario with the point's values applied on top, as an override
 * would apply them; the points run
 * as independent simulations, in parallel threads, and their reports come
 * out in point order.
 *
 * VALUES is a list "V1,V2,..." whose items are values or, for keys that
 * are not text or file names, integer ranges "FIRST..LAST" or
 * "FIRST..LAST:STEP" (inclusive).
 */
#ifndef WBSIM_RUN_SWEEP_H
#define WBSIM_RUN_SWEEP_H

#include <stdio.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include "scenario/config.h"
#include <wbsim/scenario.h>
#include <wbsim/sweep.h>
#include "run/run.h"
#include "scenario/config-sweep.h"

/* The output formats of sim-writeback (--output-format). */
enum wbsim_sweep_format {
	WBSIM_SWEEP_TEXT,
	WBSIM_SWEEP_JSON,
	WBSIM_SWEEP_CSV,
};

/**
 * struct wbsim_sweep - the swept keys of a run
 * @axes: struct wbsim_sweep_axis *, first varies slowest
 *
 * The other members are the public handle's (include/wbsim/sweep.h):
 * the scenario, its file and overrides, and the output of each point.
 */
struct wbsim_sweep {
	GPtrArray *axes;
	/* the public layer (sweep-api.c): set by wbsim_sweep_load() */
	struct wbsim_scenario *scn;
	char *path;
	GPtrArray *overrides;	/* char *, NULL-terminated */
	GArray *groups;		/* guint, from wbsim_sweep_check() */
	enum wbsim_sweep_format format;
	unsigned int repeat;
	gboolean include_wall;
	char *results_path;	/* wbsim_sweep_opts.results */
	struct wbsim_sweep_results *results;	/* wbsim_sweep_start() */
	char *header;
	struct wbsim_sweep_info info;
};

/* wbsim_sweep_n_axes() - number of swept keys (0: a single run). */
guint wbsim_sweep_n_axes(const struct wbsim_sweep *sw);

/* wbsim_sweep_n_points() - number of points: the product (1 for no axes). */
size_t wbsim_sweep_n_points(const struct wbsim_sweep *sw);

/**
 * wbsim_sweep_label() - a point's values as "KEY=VALUE KEY=VALUE"
 * @sw: the sweep
 * @point: 0 .. wbsim_sweep_n_points() - 1
 *
 * Return: a new string.
 */
char *wbsim_sweep_label(const struct wbsim_sweep *sw, size_t point);

/**
 * wbsim_sweep_add_option() - one item of wbsim_sweep_opts.sweeps
 * @sw: the sweep
 * @assignment: "section.key=VALUES"
 * @error: "wbsim_sweep_opts.sweeps: ..." naming the key and values
 *
 * A key the scenario's [sweep] sweeps gets the new values where it
 * stood; a new key becomes the last axis; a key an earlier item swept
 * is refused (WBSIM_ERROR_INVALID_VALUE).
 * Return: TRUE, or FALSE with @error set.
 */
gboolean wbsim_sweep_add_option(struct wbsim_sweep *sw, const char *assignment,
				GError **error);


/**
 * wbsim_sweep_new() - the sweep a loaded scenario declares
 * @cfg: the scenario's configuration (its [sweep] lines, in order)
 * @error: WBSIM_ERROR_INVALID_VALUE if the product has too many points
 *
 * Return: the sweep (no axes if the scenario has no [sweep] section), or
 * NULL with @error set.
 */
struct wbsim_sweep *wbsim_sweep_new(const struct wbsim_config *cfg,
				    GError **error);

/**
 * wbsim_sweep_value() - the value of one axis at one point
 * @sw: the sweep
 * @point: 0 .. wbsim_sweep_n_points() - 1
 * @axis: 0 .. wbsim_sweep_n_axes() - 1
 *
 * Return: the value text, owned by @sw.
 */
const char *wbsim_sweep_value(const struct wbsim_sweep *sw, size_t point,
			      guint axis);

/**
 * wbsim_sweep_load_point() - the scenario of one point
 * @sw: the sweep
 * @point: the point
 * @path: the scenario file
 * @overrides: the overrides (NULL-terminated, or NULL)
 * @error: "sweep point N/M (KEY=VALUE ...): " then the loader's message;
 *	a bad value is named with the file and line of its [sweep] line (or
 *	"wbsim_sweep_opts.sweeps")
 *
 * Loads @path as wbsim_scenario_load() does, with the point's values
 * applied after @overrides with the same parsers and checks.
 *
 * Return: the scenario, or NULL with @error set.
 */
struct wbsim_scenario *wbsim_sweep_load_point(const struct wbsim_sweep *sw,
					      size_t point, const char *path,
					      const char *const *overrides,
					      GError **error);

/**
 * wbsim_sweep_check() - load every point once, before anything runs
 * @sw: the sweep
 * @path: as wbsim_sweep_load_point()
 * @overrides: as wbsim_sweep_load_point()
 * @groups: if not NULL, set to the fio reporting groups of all points
 *	(guint, increasing; g_array_unref() it)
 * @error: the first bad point's error
 *
 * Return: TRUE when every point loads.
 */
gboolean wbsim_sweep_check(const struct wbsim_sweep *sw, const char *path,
			   const char *const *overrides, GArray **groups,
			   GError **error);

/*
 * wbsim_sweep_format_fn - turn a point's results into its output text
 * (called in a worker thread; must only read its arguments).
 */
typedef char *(*wbsim_sweep_format_fn)(const struct wbsim_sweep *sw,
				       size_t point,
				       const struct wbsim_run_result *r,
				       void *arg);
/**
 * wbsim_sweep_simulate_point() - load and simulate one point
 * @sw: the sweep
 * @point: the point
 * @path: the scenario file
 * @overrides: the overrides
 * @opts: run options
 * @scn: set to the point's scenario (or NULL); free it after the result,
 *	which refers to it
 * @error: as wbsim_sweep_run()
 *
 * Return: the results, or NULL with @error set.
 */
struct wbsim_run_result *wbsim_sweep_simulate_point(const struct wbsim_sweep *sw,
						    size_t point, const char *path,
						    const char *const *overrides,
						    const struct wbsim_run_options *opts,
						    struct wbsim_scenario **scn,
						    GError **error);

/**
 * wbsim_sweep_run() - simulate every point, @jobs at a time
 * @sw: the sweep
 * @path: the scenario file
 * @overrides: the overrides
 * @opts: run options for every point (no trace)
 * @jobs: points simulated at once (threads); 1 runs them one by one in
 *	the calling thread
 * @format: makes a point's text from its results (in a worker thread)
 * @format_arg: its argument
 * @emit: called with each point's text, in point order, in the calling
 *	thread, as soon as the point and all before it are done
 * @emit_arg: its argument
 * @error: the first failing point's error (prefixed "sweep point N/M
 *	(KEY=VALUE ...): "), or @emit's; no later point is emitted
 *
 * Every point is an independent simulation with its own machine and
 * random generator, so the results do not depend on @jobs.
 *
 * Return: TRUE when every point ran and was emitted.
 */
gboolean wbsim_sweep_run(const struct wbsim_sweep *sw, const char *path,
			 const char *const *overrides,
			 const struct wbsim_run_options *opts, unsigned int jobs,
			 wbsim_sweep_format_fn format, void *format_arg,
			 wbsim_sweep_emit_fn emit, void *emit_arg,
			 GError **error);

/**
 * wbsim_sweep_csv_header() - the CSV header row
 * @sw: the sweep (its keys are the first columns; NULL or no axes: none)
 * @groups: the reporting groups (wbsim_sweep_check()); a column per group
 *	when there are several
 *
 * Columns after the swept keys: write_bw_mib_s (all jobs' bytes / the
 * longest job runtime), groupN_write_bw_mib_s (the same per group),
 * pauses (balance_dirty_pages sleeps), max_pause_ms, pages_by_flushers,
 * pages_by_tasks, device_util_pct, filefrag_extents (sum over files at
 * the end), sim_time_s.
 *
 * Return: the row with its newline (a new string).
 */
char *wbsim_sweep_csv_header(const struct wbsim_sweep *sw, const GArray *groups);

/**
 * struct wbsim_sweep_figures - the figures of a CSV row
 * @write_bw_mib_s: all jobs' bytes over the longest job runtime, MiB/s
 * @pauses: balance_dirty_pages() sleeps of all jobs
 * @max_pause_ms: the longest balance_dirty_pages() call of any job
 * @max_lag_ms: the worst lag of any job behind fio's rate= schedule (0
 *	without rate=); not a CSV column of a plain sweep, a figure of
 *	--repeat
 * @pages_by_flushers: pages the flushers submitted
 * @pages_by_tasks: pages written back that no flusher submitted
 * @device_util_pct: device utilisation (at most 100)
 * @filefrag_extents: extents of all files at the end
 * @sim_time_s: simulated time
 */
struct wbsim_sweep_figures {
	double write_bw_mib_s;
	uint64_t pauses;
	double max_pause_ms;
	double max_lag_ms;
	uint64_t pages_by_flushers;
	uint64_t pages_by_tasks;
	double device_util_pct;
	uint64_t filefrag_extents;
	double sim_time_s;
};

/* wbsim_sweep_figures() - fill @f from @r. */
void wbsim_sweep_figures(const struct wbsim_run_result *r,
			 struct wbsim_sweep_figures *f);

/* wbsim_sweep_csv_field() - append @v to @s, quoted if it needs to be. */
void wbsim_sweep_csv_field(GString *s, const char *v);

/* wbsim_sweep_append_double() - printf @fmt ("%.3f") of @v with a '.'. */
void wbsim_sweep_append_double(GString *s, const char *fmt, double v);

/*
 * wbsim_sweep_add_values_json() - the point's {KEY: VALUE, ...} object
 * into @b (plain integers as numbers, other values as strings).
 */
void wbsim_sweep_add_values_json(const struct wbsim_sweep *sw, size_t point,
				 JsonBuilder *b);

/**
 * wbsim_sweep_csv_row() - one CSV row: the point's values, then its figures
 * @sw: the sweep (NULL: no swept columns)
 * @point: the point
 * @r: its results
 * @groups: as wbsim_sweep_csv_header()
 *
 * Return: the row with its newline (a new string).
 */
char *wbsim_sweep_csv_row(const struct wbsim_sweep *sw, size_t point,
			  const struct wbsim_run_result *r, const GArray *groups);

/**
 * wbsim_sweep_json_line() - one JSON Lines object for a point
 * @sw: the sweep
 * @point: the point
 * @r: its results
 * @include_wall: as wbsim_report_json()
 *
 * {"sweep_point": N (from 1), "sweep": {KEY: VALUE, ...}, "report":
 * wbsim_report_json()} on one line; a value that is a plain integer is a
 * JSON number, any other a string.
 *
 * Return: the line with its newline (a new string).
 */
char *wbsim_sweep_json_line(const struct wbsim_sweep *sw, size_t point,
			    const struct wbsim_run_result *r,
			    gboolean include_wall);

#endif /* WBSIM_RUN_SWEEP_H */
