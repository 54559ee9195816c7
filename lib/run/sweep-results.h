/* SPDX-License-Identifier: MIT */
/*
 * run/sweep-results.h - the results file of a resumable sweep
 * (--results FILE.jsonl): JSON Lines, the first line saying which sweep the
 * file belongs to (an identity object made by the caller), then one line
 * per finished point, appended and flushed as the point completes:
 *
 *   {"point": N (from 1), "sweep": {KEY: VALUE, ...}, "text": OUTPUT}
 *
 * where OUTPUT is the point's output (CSV row, JSON line or text) exactly
 * as the final output carries it. Opening an existing file reads the
 * points already done; a last line without its newline (the program was
 * killed while writing it) is dropped and the file cut back to the end of
 * the last whole line, so the point is computed again.
 */
#ifndef WBSIM_RUN_SWEEP_RESULTS_H
#define WBSIM_RUN_SWEEP_RESULTS_H

#include <glib.h>
#include "run/sweep.h"

struct wbsim_sweep_results;

/**
 * wbsim_sweep_results_open_as() - open (or create) a results file
 * (wbsim_sweep_start() makes @identity from the sweep)
 * @path: the file
 * @identity: a one-line JSON object naming the sweep (scenario, keys and
 *	values, seed, ...); an existing file must start with the same line
 * @sw: the sweep (its points' values are checked against each line)
 * @error: WBSIM_ERROR_IO when the file cannot be read or written, or
 *	when another process holds it ("another sim-writeback is appending
 *	to FILE (pid unknown): ..."); WBSIM_ERROR_INVALID_VALUE "--results FILE: ..." when it belongs to
 *	another sweep (naming the first member of @identity that differs) or
 *	a whole line is not a result of this sweep ("--results FILE:LINE: ...")
 *
 * The file is locked (flock(LOCK_EX), not waited for) before it is read,
 * until wbsim_sweep_results_close(): one sweep at a time appends to it.
 *
 * Return: the open file, or NULL with @error set.
 */
struct wbsim_sweep_results *wbsim_sweep_results_open_as(const char *path,
							const char *identity,
							const struct wbsim_sweep *sw,
							GError **error);

/* wbsim_sweep_results_text() - a point's stored text, or NULL. */
const char *wbsim_sweep_results_text(const struct wbsim_sweep_results *res,
				     size_t point);

/* wbsim_sweep_results_n_done() - points the file held when opened. */
size_t wbsim_sweep_results_n_done(const struct wbsim_sweep_results *res);

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
gboolean wbsim_sweep_results_add(struct wbsim_sweep_results *res, size_t point,
				 const char *text, GError **error);

/* wbsim_sweep_results_close() - close and free @res (NULL is fine). */
void wbsim_sweep_results_close(struct wbsim_sweep_results *res);

#endif /* WBSIM_RUN_SWEEP_RESULTS_H */
