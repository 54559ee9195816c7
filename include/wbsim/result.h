/* SPDX-License-Identifier: MIT */
/*
 * wbsim/result.h - what a run produced, read as data: per fio job (what fio
 * reports), per writeback context, the device, per file (extent counts), and
 * the sampled time series.
 *
 * A struct wbsim_result is owned by the caller of wbsim_run() and
 * independent of the scenario (the scenario may be freed first). Every
 * accessor only reads it, so one result may be read from several threads at
 * once. Indexes run from 0 to the matching count - 1; an index out of range
 * is a programming error (g_return_val_if_fail, then 0 or NULL).
 * Units are in the names: _ns simulated nanoseconds, _bytes bytes, _pages
 * 4 KiB pages, _kibps KiB/s (fio's bw).
 */
#ifndef WBSIM_RESULT_H
#define WBSIM_RESULT_H

#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>

WBSIM_BEGIN_DECLS

/** typedef wbsim_result - the results of one run (opaque) */
typedef struct wbsim_result wbsim_result;

/**
 * wbsim_result_free() - free results (NULL is fine)
 * @r: the results
 *
 * Thread safety: not while another thread reads @r.
 */
WBSIM_API void wbsim_result_free(wbsim_result *r);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_result, wbsim_result_free)

/* ------------------------------------------------------------------------ */
/* The run                                                                  */

/**
 * wbsim_result_sim_time_ns() - simulated time when the run stopped
 * @r: the results
 *
 * Return: nanoseconds of simulated time.
 */
WBSIM_API wbsim_time_t wbsim_result_sim_time_ns(const wbsim_result *r);

/**
 * wbsim_result_seed() - the seed the run used ([run] seed)
 * @r: the results
 *
 * Return: the seed.
 */
WBSIM_API uint64_t wbsim_result_seed(const wbsim_result *r);

/**
 * wbsim_result_affinity() - the affinity policy the run used
 * @r: the results
 *
 * Return: its registry name, owned by @r.
 */
WBSIM_API const char *wbsim_result_affinity(const wbsim_result *r);

/**
 * wbsim_result_pages_dirtied() - pages dirtied over the run (NR_DIRTIED)
 * @r: the results
 *
 * Return: the count.
 */
WBSIM_API uint64_t wbsim_result_pages_dirtied(const wbsim_result *r);

/**
 * wbsim_result_pages_written() - pages written back over the run (NR_WRITTEN)
 * @r: the results
 *
 * Return: the count.
 */
WBSIM_API uint64_t wbsim_result_pages_written(const wbsim_result *r);

/**
 * wbsim_result_nr_warnings() - number of notes the run left (ignored fio
 * options, timed events and how long they took)
 * @r: the results
 *
 * Return: the count.
 */
WBSIM_API unsigned int wbsim_result_nr_warnings(const wbsim_result *r);

/**
 * wbsim_result_warning() - one note
 * @r: the results
 * @i: its index
 *
 * Return: the text, owned by @r.
 */
WBSIM_API const char *wbsim_result_warning(const wbsim_result *r, unsigned int i);

/* ------------------------------------------------------------------------ */
/* fio jobs (one per clone after numjobs expansion, in job-file order)      */

/**
 * wbsim_result_nr_jobs() - number of fio job clones
 * @r: the results
 *
 * Return: the count.
 */
WBSIM_API unsigned int wbsim_result_nr_jobs(const wbsim_result *r);

/**
 * wbsim_result_job_name() - a job's name (fio's jobname)
 * @r: the results
 * @job: its index
 *
 * Return: the name, owned by @r.
 */
WBSIM_API const char *wbsim_result_job_name(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_bytes() - bytes the job wrote (fio's io_bytes)
 * @r: the results
 * @job: its index
 *
 * Return: bytes.
 */
WBSIM_API uint64_t wbsim_result_job_bytes(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_ios() - write calls the job made (fio's total_ios)
 * @r: the results
 * @job: its index
 *
 * Return: the count.
 */
WBSIM_API uint64_t wbsim_result_job_ios(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_runtime_ns() - from the job's first write to its end,
 * drain and end_fsync included, as fio counts its runtime
 * @r: the results
 * @job: its index
 *
 * Return: nanoseconds.
 */
WBSIM_API wbsim_time_t wbsim_result_job_runtime_ns(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_bw_kibps() - the job's bandwidth as fio reports bw
 * @r: the results
 * @job: its index
 *
 * Return: bytes / runtime in KiB/s (0 for a job that did not run).
 */
WBSIM_API double wbsim_result_job_bw_kibps(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_iops() - the job's write calls per second
 * @r: the results
 * @job: its index
 *
 * Return: IOPS (0 for a job that did not run).
 */
WBSIM_API double wbsim_result_job_iops(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_lat_mean_ns() - mean latency of the job's write calls
 * (fio's clat: throttle pauses included)
 * @r: the results
 * @job: its index
 *
 * Return: nanoseconds (0 without writes).
 */
WBSIM_API double wbsim_result_job_lat_mean_ns(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_lat_percentile_ns() - a percentile of the write latency,
 * from fio's log-linear buckets as fio computes clat_ns percentiles
 * @r: the results
 * @job: its index
 * @percent: 0 < @percent <= 100 (e.g. 99.9)
 *
 * Return: nanoseconds (0 without writes).
 */
WBSIM_API uint64_t wbsim_result_job_lat_percentile_ns(const wbsim_result *r, unsigned int job,
						      double percent);

/**
 * wbsim_result_job_pauses() - balance_dirty_pages() sleeps of the job
 * @r: the results
 * @job: its index
 *
 * Return: the count.
 */
WBSIM_API uint64_t wbsim_result_job_pauses(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_paused_ns() - total time the job slept in
 * balance_dirty_pages()
 * @r: the results
 * @job: its index
 *
 * Return: nanoseconds.
 */
WBSIM_API wbsim_time_t wbsim_result_job_paused_ns(const wbsim_result *r, unsigned int job);

/**
 * wbsim_result_job_max_pause_ns() - the job's longest balance_dirty_pages()
 * call (all its sleeps)
 * @r: the results
 * @job: its index
 *
 * Return: nanoseconds.
 */
WBSIM_API wbsim_time_t wbsim_result_job_max_pause_ns(const wbsim_result *r, unsigned int job);

/* ------------------------------------------------------------------------ */
/* Writeback contexts (index = context number)                              */

/**
 * wbsim_result_nr_wbs() - number of writeback contexts
 * @r: the results
 *
 * Return: the count ([writeback] contexts, resolved).
 */
WBSIM_API unsigned int wbsim_result_nr_wbs(const wbsim_result *r);

/**
 * wbsim_result_wb_pages_written() - pages the context's flusher submitted
 * @r: the results
 * @wb: the context
 *
 * Return: the count.
 */
WBSIM_API uint64_t wbsim_result_wb_pages_written(const wbsim_result *r, unsigned int wb);

/**
 * wbsim_result_wb_pages_completed() - writeback completions charged to the
 * context (WB_WRITTEN: also pages tasks wrote back for its inodes)
 * @r: the results
 * @wb: the context
 *
 * Return: the count.
 */
WBSIM_API uint64_t wbsim_result_wb_pages_completed(const wbsim_result *r, unsigned int wb);

/**
 * wbsim_result_wb_write_bandwidth_kibps() - the context's final
 * avg_write_bandwidth
 * @r: the results
 * @wb: the context
 *
 * Return: KiB/s.
 */
WBSIM_API uint64_t wbsim_result_wb_write_bandwidth_kibps(const wbsim_result *r, unsigned int wb);

/**
 * wbsim_result_wb_cpu_ns() - CPU time of the context's flusher
 * @r: the results
 * @wb: the context
 *
 * Return: nanoseconds.
 */
WBSIM_API wbsim_time_t wbsim_result_wb_cpu_ns(const wbsim_result *r, unsigned int wb);

/* ------------------------------------------------------------------------ */
/* The device                                                               */

/**
 * wbsim_result_device_name() - the device preset the run used
 * @r: the results
 *
 * Return: the name, owned by @r.
 */
WBSIM_API const char *wbsim_result_device_name(const wbsim_result *r);

/**
 * wbsim_result_device_bytes() - bytes the device completed
 * @r: the results
 *
 * Return: bytes.
 */
WBSIM_API uint64_t wbsim_result_device_bytes(const wbsim_result *r);

/**
 * wbsim_result_device_requests() - requests the device completed (after
 * merging)
 * @r: the results
 *
 * Return: the count.
 */
WBSIM_API uint64_t wbsim_result_device_requests(const wbsim_result *r);

/**
 * wbsim_result_device_utilisation() - busy time / elapsed time (iostat's
 * %util / 100)
 * @r: the results
 *
 * Return: a fraction in [0, 1].
 */
WBSIM_API double wbsim_result_device_utilisation(const wbsim_result *r);

/* ------------------------------------------------------------------------ */
/* Files: extent counts at each [measure] extents moment                   */

/**
 * wbsim_result_nr_files() - number of (moment, file) extent records
 * @r: the results
 *
 * Return: the count (files x moments; one moment, "end", by default).
 */
WBSIM_API unsigned int wbsim_result_nr_files(const wbsim_result *r);

/**
 * wbsim_result_file_path() - the file of a record
 * @r: the results
 * @i: the record
 *
 * Return: the path, owned by @r.
 */
WBSIM_API const char *wbsim_result_file_path(const wbsim_result *r, unsigned int i);

/**
 * wbsim_result_file_moment() - when the record was taken ("end", ...)
 * @r: the results
 * @i: the record
 *
 * Return: the moment's name, owned by @r.
 */
WBSIM_API const char *wbsim_result_file_moment(const wbsim_result *r, unsigned int i);

/**
 * wbsim_result_file_extents() - the file's extents as filefrag counts them
 * @r: the results
 * @i: the record
 *
 * Return: the count.
 */
WBSIM_API uint64_t wbsim_result_file_extents(const wbsim_result *r, unsigned int i);

/**
 * wbsim_result_file_written_by() - which contexts' flushers wrote the file
 * @r: the results
 * @i: the record
 *
 * Return: a bitmap, context c is bit c (contexts past 63 are not told apart).
 */
WBSIM_API uint64_t wbsim_result_file_written_by(const wbsim_result *r, unsigned int i);

/* ------------------------------------------------------------------------ */
/* The time series (one row every [run] series_interval, plus the end)     */

/**
 * wbsim_result_series_nr_columns() - number of columns of the series
 * @r: the results
 *
 * Return: the count.
 */
WBSIM_API unsigned int wbsim_result_series_nr_columns(const wbsim_result *r);

/**
 * wbsim_result_series_column() - a column's name
 * @r: the results
 * @col: the column; 0 is "time_s"
 *
 * Return: the name ("dirty_pages", "wb0_written_pages", ... as sim-writeback --series
 * heads its columns), owned by @r.
 */
WBSIM_API const char *wbsim_result_series_column(const wbsim_result *r, unsigned int col);

/**
 * wbsim_result_series_find_column() - a column's index by name
 * @r: the results
 * @name: the column's name
 *
 * Return: the index, or -1 if no column has that name.
 */
WBSIM_API int wbsim_result_series_find_column(const wbsim_result *r, const char *name);

/**
 * wbsim_result_series_nr_rows() - number of samples
 * @r: the results
 *
 * Return: the count.
 */
WBSIM_API unsigned int wbsim_result_series_nr_rows(const wbsim_result *r);

/**
 * wbsim_result_series_value() - one value of the series
 * @r: the results
 * @row: the sample
 * @col: the column
 *
 * Return: the value (pages, KiB/s, bytes, ms or s, as the column says).
 */
WBSIM_API double wbsim_result_series_value(const wbsim_result *r, unsigned int row,
					   unsigned int col);

/**
 * wbsim_result_series_row() - one sample, every column
 * @r: the results
 * @row: 0 .. wbsim_result_series_nr_rows() - 1
 *
 * Return: wbsim_result_series_nr_columns() values in column order, owned
 * by @r.
 */
WBSIM_API const double *wbsim_result_series_row(const wbsim_result *r, unsigned int row);

/* ------------------------------------------------------------------------ */
/* Iterators                                                                */

/**
 * struct wbsim_result_iter - a walk over one list of a result: its jobs,
 * its writeback contexts, its file records or its series rows
 *
 *   wbsim_result_iter it;
 *   unsigned int j;
 *
 *   wbsim_result_iter_jobs(&it, r);
 *   while (wbsim_result_iter_next(&it, &j))
 *           printf("%s %" PRIu64 "\n", wbsim_result_job_name(r, j),
 *                  wbsim_result_job_bytes(r, j));
 *
 * Lives on the caller's stack; its members are private.
 */
typedef struct wbsim_result_iter {
	/*< private >*/
	const wbsim_result *r;
	unsigned int next;
	unsigned int n;
} wbsim_result_iter;

/** wbsim_result_iter_jobs() - start @it over the jobs of @r (wbsim_result_job_*()). */
WBSIM_API void wbsim_result_iter_jobs(wbsim_result_iter *it, const wbsim_result *r);

/** wbsim_result_iter_wbs() - start @it over the writeback contexts of @r (wbsim_result_wb_*()). */
WBSIM_API void wbsim_result_iter_wbs(wbsim_result_iter *it, const wbsim_result *r);

/** wbsim_result_iter_files() - start @it over the file records of @r (wbsim_result_file_*()). */
WBSIM_API void wbsim_result_iter_files(wbsim_result_iter *it, const wbsim_result *r);

/** wbsim_result_iter_series() - start @it over the series rows of @r (wbsim_result_series_row()). */
WBSIM_API void wbsim_result_iter_series(wbsim_result_iter *it, const wbsim_result *r);

/**
 * wbsim_result_iter_next() - the next index of the list @it walks
 * @it: the iterator, started by a wbsim_result_iter_*() call
 * @index: set to the index (for the list's accessors), or NULL
 *
 * Return: TRUE with @index set, or FALSE at the end of the list.
 */
WBSIM_API gboolean wbsim_result_iter_next(wbsim_result_iter *it, unsigned int *index);

WBSIM_END_DECLS

#endif /* WBSIM_RESULT_H */
