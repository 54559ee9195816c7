/* SPDX-License-Identifier: MIT */
/*
 * wbsim/sweep.h - parameter sweeps: a scenario's [sweep] section and
 * --sweep KEY=VALUES options expanded into the product of their values
 * (the first axis varies slowest). Each point is the scenario with the
 * point's values applied after the overrides, as --set applies them; points
 * are independent simulations, so they may be computed in any order, in
 * threads or processes, and their texts written in point order.
 *
 *   g_autoptr(wbsim_sweep) sw = wbsim_sweep_load("s.ini", NULL, &error);
 *   wbsim_sweep_add_option(sw, "writeback.contexts=1..4", &error);
 *   wbsim_sweep_set_output(sw, WBSIM_FORMAT_CSV, 1, FALSE, &error);
 *   wbsim_sweep_check_points(sw, &error);
 *   header = wbsim_sweep_header(sw);
 *   for (size_t p = 0; p < wbsim_sweep_n_points(sw); p++)
 *           row = wbsim_sweep_point_output(sw, p, NULL, &error);
 *
 * VALUES is "V1,V2,..." whose items are values or, for keys that are not
 * text or file names, integer ranges "FIRST..LAST" or "FIRST..LAST:STEP".
 * Thread safety: a sweep is set up in one thread; afterwards
 * wbsim_sweep_point_output() may run in several threads at once.
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

/* The most runs of a point (wbsim_sweep_set_output()'s @repeat). */
#define WBSIM_SWEEP_MAX_REPEAT 1000

/** typedef wbsim_sweep - a scenario and the keys swept over it (opaque) */
typedef struct wbsim_sweep wbsim_sweep;

/**
 * wbsim_sweep_load() - load a scenario and the sweep its [sweep] declares
 * @path: the scenario file
 * @overrides: NULL-terminated "section.key=value" list (--set) applied
 *	to every point before the point's values, or NULL
 * @error: wbsim_scenario_load()'s, or WBSIM_ERROR_INVALID_VALUE when
 *	the product has too many points
 *
 * A scenario without [sweep] is a sweep of one point.
 * Return: the sweep (wbsim_sweep_free() it), or NULL with @error set.
 */
WBSIM_API wbsim_sweep *wbsim_sweep_load(const char *path, const char *const *overrides,
					GError **error);

/** wbsim_sweep_free() - free a sweep and its scenario (NULL is fine). */
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
 * wbsim_sweep_add_option() - one --sweep KEY=VALUES option
 * @sw: the sweep
 * @assignment: "section.key=VALUES"
 * @error: "--sweep: ..." naming the key and values
 *
 * A key already swept gets the new values where it stood; a new key
 * becomes the last axis.
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_sweep_add_option(wbsim_sweep *sw, const char *assignment,
					  GError **error);

/** wbsim_sweep_n_axes() - number of swept keys (0: a single run). */
WBSIM_API guint wbsim_sweep_n_axes(const wbsim_sweep *sw);

/** wbsim_sweep_n_points() - number of points: the product (1 for no axes). */
WBSIM_API size_t wbsim_sweep_n_points(const wbsim_sweep *sw);

/**
 * wbsim_sweep_label() - a point's values as "KEY=VALUE KEY=VALUE"
 * @sw: the sweep
 * @point: 0 .. wbsim_sweep_n_points() - 1
 *
 * Return: a new string.
 */
WBSIM_API char *wbsim_sweep_label(const wbsim_sweep *sw, size_t point);

/**
 * wbsim_sweep_set_output() - what each point's text is
 * @sw: the sweep
 * @format: the layout; WBSIM_FORMAT_JSON gives one JSON line per point,
 *	WBSIM_FORMAT_TEXT the point's label then its report
 * @repeat: runs per point (1: one; K > 1: K seeds, the first the point's
 *	own, and the mean, standard deviation and 95% confidence interval of
 *	the headline figures)
 * @include_wall: print wall-clock figures
 * @error: WBSIM_ERROR_INVALID_VALUE when a job writes fio logs (the files
 *	of one run), @repeat > 1 with run.seed swept, or @repeat is above
 *	WBSIM_SWEEP_MAX_REPEAT
 *
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_sweep_set_output(wbsim_sweep *sw, enum wbsim_format format,
					  unsigned int repeat, gboolean include_wall,
					  GError **error);

/**
 * wbsim_sweep_check_points() - load every point once, before anything runs
 * @sw: the sweep
 * @error: the first bad point's error, "sweep point N/M (KEY=VALUE ...): "
 *	then the loader's message
 *
 * Also finds the fio reporting groups of all points (the CSV's columns).
 * Return: TRUE when every point loads.
 */
WBSIM_API gboolean wbsim_sweep_check_points(wbsim_sweep *sw, GError **error);

/**
 * wbsim_sweep_header() - the text before the first point
 * @sw: the sweep, checked
 *
 * Return: the CSV header row for WBSIM_FORMAT_CSV, else NULL (g_free() it).
 */
WBSIM_API char *wbsim_sweep_header(const wbsim_sweep *sw);

/**
 * wbsim_sweep_point_output() - simulate one point and make its text
 * @sw: the sweep, checked
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

/* ------------------------------------------------------------------------ */
/* Resumable sweeps                                                         */

/**
 * typedef wbsim_sweep_results - a JSON Lines file of finished points
 * (sim-writeback --results), whose first line names the sweep (opaque)
 */
typedef struct wbsim_sweep_results wbsim_sweep_results;

/**
 * wbsim_sweep_results_open() - open or create a results file
 * @sw: the sweep, its output set
 * @path: the file
 * @error: WBSIM_ERROR_IO; WBSIM_ERROR_INVALID_VALUE "--results FILE: ..."
 *	when it holds another sweep (a different key, value, seed, format
 *	or configuration) or a line that is not a point of this one
 *
 * Return: the open file (wbsim_sweep_results_close() it), or NULL with
 * @error set.
 */
WBSIM_API wbsim_sweep_results *wbsim_sweep_results_open(const wbsim_sweep *sw,
							const char *path, GError **error);

/** wbsim_sweep_results_text() - a point's stored text, or NULL. */
WBSIM_API const char *wbsim_sweep_results_text(const wbsim_sweep_results *res,
					       size_t point);

/** wbsim_sweep_results_n_done() - points the file held when opened. */
WBSIM_API size_t wbsim_sweep_results_n_done(const wbsim_sweep_results *res);

/**
 * wbsim_sweep_results_add() - append a finished point, flushed at once
 * @res: the file
 * @point: the point
 * @text: its text
 * @error: WBSIM_ERROR_IO
 *
 * Thread safety: safe.
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_sweep_results_add(wbsim_sweep_results *res, size_t point,
					   const char *text, GError **error);

/** wbsim_sweep_results_close() - close and free @res (NULL is fine). */
WBSIM_API void wbsim_sweep_results_close(wbsim_sweep_results *res);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_sweep_results, wbsim_sweep_results_close)

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
