/* SPDX-License-Identifier: MIT */
/*
 * wbsim/sweep.h - parameter sweeps: a scenario's [sweep] section and
 * the KEY=VALUES items of wbsim_sweep_opts.sweeps expanded into the
 * product of their values (the first axis varies slowest). Each point is
 * the scenario with the point's values applied after the overrides, as an
 * override is applied; points
 * are independent simulations, so they may be computed in any order, in
 * threads or processes, and their texts written in point order.
 *
 *   const char *axes[] = { "writeback.contexts=1..4", NULL };
 *   const wbsim_sweep_opts o = { .sweeps = axes, .format = WBSIM_FORMAT_CSV };
 *   g_autoptr(wbsim_sweep) sw = wbsim_sweep_load("s.ini", &o, &error);
 *   const struct wbsim_sweep_info *info = wbsim_sweep_info(sw);
 *   fputs(info->header, out);
 *   for (size_t p = 0; p < info->n_points; p++)
 *           row = wbsim_sweep_point_output(sw, p, NULL, &error);
 *
 * VALUES is "V1,V2,..." whose items are values or, for keys that are not
 * text or file names, integer ranges "FIRST..LAST" or "FIRST..LAST:STEP".
 * Thread safety: a sweep is set up in one thread (wbsim_sweep_load(),
 * wbsim_sweep_start()); afterwards wbsim_sweep_point_output(),
 * wbsim_sweep_done_text() and wbsim_sweep_record() may run in several
 * threads at once.
 */
#ifndef WBSIM_SWEEP_H
#define WBSIM_SWEEP_H

#include <stddef.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/scenario.h>
#include <wbsim/run.h>
#include <wbsim/report.h>

WBSIM_BEGIN_DECLS

/* The most runs of a point (wbsim_sweep_opts.repeat). */
#define WBSIM_SWEEP_MAX_REPEAT 1000

/** typedef wbsim_sweep - a scenario and the keys swept over it (opaque) */
typedef struct wbsim_sweep wbsim_sweep;

/**
 * struct wbsim_sweep_opts - what to sweep and what each point's text is,
 * all in one struct the caller fills (zero is the default of every member)
 * @overrides: NULL-terminated "section.key=value" list applied to
 *	every point before the point's values, or NULL
 * @sweeps: NULL-terminated "section.key=VALUES" list after the
 *	scenario's [sweep] lines: a key the scenario sweeps gets the new
 *	values where it stood, a new key becomes the last axis (a key twice
 *	in the list is an error); or NULL
 * @format: the layout of a point's text when the run is a sweep
 *	(struct wbsim_sweep_info.sweep); WBSIM_FORMAT_JSON gives one JSON
 *	line per point, WBSIM_FORMAT_TEXT the point's label then its report;
 *	WBSIM_FORMAT_JSON_PLUS is for one run only
 * @repeat: runs per point (0 or 1: one; K > 1: K seeds, the first the
 *	point's own, and the mean, standard deviation and 95% confidence
 *	interval of the headline figures)
 * @no_wall_time: leave wall-clock figures out of the texts
 * @results: a JSON Lines file of finished points, opened by
 *	wbsim_sweep_start(), or NULL
 * @no_point_check: do not load every point in wbsim_sweep_load() (for a
 *	program that only dumps the scenario); wbsim_sweep_info()'s header
 *	then lacks the reporting groups' columns
 * @reserved: zero (room for later options without a new ABI)
 */
typedef struct wbsim_sweep_opts {
	const char *const *overrides;
	const char *const *sweeps;
	enum wbsim_format format;
	unsigned int repeat;
	gboolean no_wall_time;
	const char *results;
	gboolean no_point_check;
	void *reserved[4];
} wbsim_sweep_opts;

/**
 * wbsim_sweep_load() - load a scenario and the sweep it and @opts declare
 * @path: the scenario file
 * @opts: options, or NULL for none (the scenario's own [sweep], one
 *	run a point, text)
 * @error: wbsim_scenario_load()'s; "wbsim_sweep_opts.sweeps: ..." naming
 *	a bad @opts->sweeps item (where a file's message starts "FILE:LINE: "); WBSIM_ERROR_INVALID_VALUE when the product has
 *	too many points, a job of a sweep writes fio logs (the files of one
 *	run), @opts->repeat > 1 with run.seed swept, @opts->repeat is above
 *	WBSIM_SWEEP_MAX_REPEAT or a sweep's @opts->format is
 *	WBSIM_FORMAT_JSON_PLUS; WBSIM_ERROR_INVALID_ARGUMENT when
 *	@opts->format is none of enum wbsim_format's values; the first bad point's error, "sweep point N/M
 *	(KEY=VALUE ...): " then the loader's message
 *
 * A scenario without [sweep] is a sweep of one point. Unless
 * @opts->no_point_check, every point is loaded once, before anything runs.
 * Return: the sweep (wbsim_sweep_free() it), or NULL with @error set.
 */
WBSIM_API wbsim_sweep *wbsim_sweep_load(const char *path, const wbsim_sweep_opts *opts,
					GError **error);

/** wbsim_sweep_free() - free a sweep, its scenario and its results file (NULL is fine). */
WBSIM_API void wbsim_sweep_free(wbsim_sweep *sw);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_sweep, wbsim_sweep_free)

/**
 * wbsim_sweep_scenario() - the scenario as loaded, without point values
 * @sw: the sweep
 *
 * Return: the scenario, owned by @sw.
 */
WBSIM_API const wbsim_scenario *wbsim_sweep_scenario(const wbsim_sweep *sw);

/**
 * struct wbsim_sweep_info - the shape of a sweep
 * @sweep: TRUE when the run is a sweep (swept keys, @repeat > 1 or a
 *	results file): its points' texts are wbsim_sweep_point_output()'s;
 *	FALSE: one plain run, of wbsim_sweep_scenario() with wbsim_run()
 * @n_axes: swept keys
 * @n_points: points: the product (1 for no axes)
 * @n_done: points the results file held when wbsim_sweep_start() opened
 *	it (0 without one)
 * @header: the text before the first point: the CSV header row for a
 *	sweep in WBSIM_FORMAT_CSV, else NULL
 */
struct wbsim_sweep_info {
	gboolean sweep;
	unsigned int n_axes;
	size_t n_points;
	size_t n_done;
	const char *header;
};

/**
 * wbsim_sweep_info() - the sweep's shape
 * @sw: the sweep
 *
 * Return: the figures, owned by @sw (n_done changes in wbsim_sweep_start()).
 */
WBSIM_API const struct wbsim_sweep_info *wbsim_sweep_info(const wbsim_sweep *sw);

/**
 * wbsim_sweep_start() - before the first point: open the results file
 * @sw: the sweep
 * @error: WBSIM_ERROR_IO (also when another process appends to the
 *	file: it is locked with flock() while the sweep holds it, until
 *	wbsim_sweep_free()); WBSIM_ERROR_INVALID_VALUE "wbsim_sweep_opts.results FILE: ..."
 *	when it holds another sweep (a different key, value, seed, format
 *	or configuration) or a line that is not a point of this one
 *
 * Opens or creates wbsim_sweep_opts.results, whose first line names the
 * sweep, and reads the points it holds (wbsim_sweep_done_text()). Without
 * a results file there is nothing to do.
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_sweep_start(wbsim_sweep *sw, GError **error);

/**
 * wbsim_sweep_done_text() - a point's text from the results file
 * @sw: the sweep
 * @point: the point
 *
 * Return: the text an earlier run recorded (owned by @sw), or NULL.
 */
WBSIM_API const char *wbsim_sweep_done_text(const wbsim_sweep *sw, size_t point);

/**
 * wbsim_sweep_point_output() - simulate one point and make its text
 * @sw: the sweep
 * @point: the point
 * @opts: run options (no trace, no fio logs), or NULL
 * @error: the point's error, prefixed "sweep point N/M (...): "; a failed
 *	simulation is WBSIM_ERROR_SIMULATION
 *
 * Thread safety: safe, several points at once.
 * Return: the text with its final newline (g_free() it), or NULL with
 * @error set.
 */
WBSIM_API char *wbsim_sweep_point_output(const wbsim_sweep *sw, size_t point,
					 const wbsim_run_opts *opts, GError **error);

/**
 * wbsim_sweep_record() - a point is finished: append it to the results file
 * @sw: the sweep
 * @point: the point
 * @text: its text
 * @error: WBSIM_ERROR_IO
 *
 * The line is flushed at once; without a results file nothing is written.
 * Thread safety: safe.
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_sweep_record(wbsim_sweep *sw, size_t point, const char *text,
				      GError **error);

/* ------------------------------------------------------------------------ */
/* Points in threads, texts in order                                        */

/**
 * typedef wbsim_sweep_task_fn - make point @point's text, in a worker thread
 * Return: a new string, or NULL with @error set.
 */
typedef char *(*wbsim_sweep_task_fn)(size_t point, void *arg, GError **error);

/**
 * typedef wbsim_sweep_emit_fn - write point @point's text (in point order,
 * in the calling thread)
 * Return: TRUE, or FALSE with @error set (nothing more is emitted).
 */
typedef gboolean (*wbsim_sweep_emit_fn)(size_t point, const char *text, void *arg,
					GError **error);

/**
 * wbsim_sweep_run_tasks() - compute @n texts, @jobs at a time, emit them in order
 * @n: number of texts
 * @jobs: threads; 1 computes them one by one in the calling thread
 * @task: computes a text
 * @task_arg: its argument
 * @emit: called with each text in order, as soon as it and all before it
 *	are done
 * @emit_arg: its argument
 * @error: the first failing task's error (no later text is emitted), or
 *	@emit's
 *
 * Return: TRUE when every text was computed and emitted.
 */
WBSIM_API gboolean wbsim_sweep_run_tasks(size_t n, unsigned int jobs,
					 wbsim_sweep_task_fn task, void *task_arg,
					 wbsim_sweep_emit_fn emit, void *emit_arg,
					 GError **error);

WBSIM_END_DECLS

#endif /* WBSIM_SWEEP_H */
