/* SPDX-License-Identifier: MIT */
/*
 * wbsim/report.h - the reports sim-writeback prints, as text a program can
 * write where it likes: fio's normal output, fio's JSON (or JSON+) and a
 * CSV row of the headline figures, for one result; the time series as CSV,
 * a row at a time; fio's bandwidth notation. The library never prints.
 *
 * No report reads the wall clock: with @include_wall FALSE, two runs with
 * the same seed give byte-identical reports.
 */
#ifndef WBSIM_REPORT_H
#define WBSIM_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/result.h>

WBSIM_BEGIN_DECLS

/**
 * enum wbsim_format - a report's layout (sim-writeback --output-format)
 * @WBSIM_FORMAT_TEXT: fio's normal output, then a "wbsim:" section
 * @WBSIM_FORMAT_JSON: fio's JSON with a top-level "wbsim" object
 * @WBSIM_FORMAT_JSON_PLUS: fio's json+: JSON with the latency bins
 * @WBSIM_FORMAT_CSV: a header row and a row of the headline figures
 *	(write_bw_mib_s, a column per fio reporting group when there are
 *	several, pauses, max_pause_ms, pages_by_flushers, pages_by_tasks,
 *	device_util_pct, filefrag_extents, sim_time_s)
 */
enum wbsim_format {
	WBSIM_FORMAT_TEXT,
	WBSIM_FORMAT_JSON,
	WBSIM_FORMAT_JSON_PLUS,
	WBSIM_FORMAT_CSV,
};

/**
 * wbsim_result_report() - the report of one run
 * @r: the results (independent of their scenario, which may be freed
 *	first: see wbsim/result.h)
 * @format: the layout
 * @include_wall: print the wall-clock time (FALSE for byte-identical output)
 * @error: WBSIM_ERROR_INVALID_ARGUMENT for a NULL @r or a @format that is
 *	none of enum wbsim_format's values
 *
 * Thread safety: only reads @r.
 * Return: the text with its final newline (g_free() it), or NULL with
 * @error set.
 */
WBSIM_API char *wbsim_result_report(const wbsim_result *r, enum wbsim_format format,
				    gboolean include_wall, GError **error);

/**
 * wbsim_result_write_trace_dat() - the recorded tracepoints as trace-cmd's trace.dat
 * @r: results of a run with wbsim_run_opts.trace_dat set
 * @f: the file, open for writing
 * @path: its name, for messages
 * @error: WBSIM_ERROR_IO naming @path (also when the run could not keep
 *	the pages in its temporary file: a full disk); WBSIM_ERROR_INVALID_ARGUMENT
 *	when the run recorded nothing (wbsim_run_opts.trace_dat not set)
 *
 * One buffer per simulated CPU, as trace-cmd record writes them
 * (trace-cmd report and KernelShark read the file), with the format files
 * of the events selected by wbsim_run_opts.trace_events only. The pages
 * are copied from the temporary file in wbsim_run_opts.temp_dir where they
 * waited (it goes with @r), a piece at a time.
 * Thread safety: only reads @r: the file may be written again, or by
 * several threads at once.
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_result_write_trace_dat(const wbsim_result *r, FILE *f,
						const char *path, GError **error);

/**
 * wbsim_result_trace_header() - the header of a text trace of the run
 * @r: the results
 * @entries: the lines of events that follow it
 *
 * ftrace's: "# tracer: nop", "# entries-in-buffer/entries-written: N/N
 * #P:CPUS" with the machine's CPUs, and the column heads with the latency
 * flags (the trace lines of wbsim_run_opts.trace_fn have them).
 * Thread safety: only reads @r.
 * Return: the text with its final newline (g_free() it), NULL for a NULL @r.
 */
WBSIM_API char *wbsim_result_trace_header(const wbsim_result *r, uint64_t entries);

/**
 * wbsim_series_csv_head() - append the time series' CSV header row
 * @s: the text to append to
 * @columns: the column names (a wbsim_sample_fn's @columns)
 * @n_columns: how many
 *
 * The head, then wbsim_series_csv_row() for each sample, is the CSV
 * sim-writeback --series writes.
 */
WBSIM_API void wbsim_series_csv_head(GString *s, const char *const *columns,
				     unsigned int n_columns);

/**
 * wbsim_series_csv_row() - append one sample as a CSV row
 * @s: the text to append to
 * @values: the row (a wbsim_sample_fn's @values)
 * @n_columns: how many
 *
 * Integral values are written as integers, others with "%.10g", both
 * independent of the locale.
 */
WBSIM_API void wbsim_series_csv_row(GString *s, const double *values, unsigned int n_columns);

/**
 * wbsim_format_bandwidth() - a bandwidth in fio's notation
 * @bytes_per_s: the bandwidth
 *
 * Return: four significant digits with a binary prefix, "512MiB/s"
 * (g_free() it).
 */
WBSIM_API char *wbsim_format_bandwidth(uint64_t bytes_per_s);

WBSIM_END_DECLS

#endif /* WBSIM_REPORT_H */
