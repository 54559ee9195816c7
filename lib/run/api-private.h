/* SPDX-License-Identifier: MIT */
/* run/api-private.h - what the public API's files (run-api.c, result.c,
 * report-api.c, sweep-api.c) share. */
#ifndef WBSIM_API_PRIVATE_H
#define WBSIM_API_PRIVATE_H

#include <wbsim/report.h>
#include <wbsim/result.h>
#include <wbsim/run.h>
#include "report/results.h"
#include "run/run.h"

/**
 * struct wbsim_result - the public handle over the internal results
 * @r: the results
 * @fio: a reference to the fio jobs of the scenario run: the results point
 *	into them, and outlive the scenario (wbsim_fio_file_ref())
 * @dat: the tracepoints recorded for trace.dat, or NULL
 * @dat_events: the events selected for trace.dat (NULL: all), whose
 *	format files the file stores
 * @summary: the public summary, filled when the handle is made
 * @jobs: the public job records (struct wbsim_result_job), as @summary
 * @wbs: the public writeback context records (struct wbsim_result_wb)
 * @files: the public file records (struct wbsim_result_file), made at
 *	the first wbsim_result_file() (a run may measure 500,000 files)
 */
struct wbsim_result {
	struct wbsim_run_result *r;
	struct wbsim_fio_file *fio;
	struct wbsim_trace_dat *dat;
	char **dat_events;
	struct wbsim_result_summary summary;
	GArray *jobs;
	GArray *wbs;
	GArray *files;
};

/*
 * wbsim_format_check() - TRUE if @format is one of enum wbsim_format's
 * values, else FALSE with a WBSIM_ERROR_INVALID_ARGUMENT naming @param
 * (the caller's parameter: "format", "wbsim_sweep_opts.format")
 */
gboolean wbsim_format_check(enum wbsim_format format, const char *param, GError **error);

/* Take ownership of @rr in a new public handle. */
wbsim_result *wbsim_result_wrap(struct wbsim_run_result *rr);

/*
 * wbsim_run_opts_to_internal() - the internal options that make a run do
 * what @opts (NULL: none) asks; @ro refers to @opts, which must outlive
 * the run.
 */
void wbsim_run_opts_to_internal(const wbsim_run_opts *opts, struct wbsim_run_options *ro);

#endif
