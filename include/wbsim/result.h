/* SPDX-License-Identifier: MIT */
/*
 * wbsim/result.h - what a run produced, read as data: per fio job (what fio
 * reports), per writeback context, the device, per file (extent counts), and
 * the sampled time series.
 *
 * A struct wbsim_result is owned by the caller of wbsim_run() and
 * independent of the scenario: the scenario may be freed first, the result
 * keeps what its reports read (wbsim/report.h). Every
 * accessor only reads it, so one result may be read from several threads at
 * once. The lists (jobs, writeback contexts, files, warnings, series
 * columns and rows) are read by index from 0; an accessor returns NULL
 * past a list's end, which ends the walk. A NULL result is a programming
 * error (g_return_val_if_fail, then NULL or 0).
 * Units are in the names: _ns simulated nanoseconds, _bytes bytes, _pages
 * 4 KiB pages, _kibps KiB/s (fio's bw), _bytes_per_s B/s (fio's bw_bytes).
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
 * struct wbsim_result_summary - the run as a whole
 * @sim_time_ns: simulated time when the run stopped
 * @seed: the seed the run used ([run] seed)
 * @affinity: the affinity policy's registry name
 * @pages_dirtied: pages dirtied over the run (NR_DIRTIED)
 * @pages_written: pages written back over the run (NR_WRITTEN)
 * @device: the device preset the run used
 * @device_bytes: bytes the device completed
 * @device_requests: requests the device completed (after merging)
 * @device_utilisation: busy time / elapsed time (iostat's %util / 100)
 * @n_jobs: fio job clones (wbsim_result_job())
 * @n_wbs: writeback contexts (wbsim_result_wb())
 * @n_files: (moment, file) extent records (wbsim_result_file())
 * @n_warnings: notes the run left (wbsim_result_warning())
 * @n_series_columns: columns of the series (wbsim_result_series_column())
 * @n_series_rows: samples kept (wbsim_result_series_row())
 * @total_bytes: bytes every job wrote, as fio's "Run status group" line's
 *	io= counts them (a job whose runtime is under 1 ms is not counted)
 * @total_bw_bytes_per_s: the jobs' total write bandwidth in B/s, as fio's
 *	"Run status group" line computes its bw= (stat.c: iobytes * 1000 /
 *	max_run): @total_bytes * 1000 / the longest job's runtime in whole
 *	milliseconds, integer division, every job as one group; with one
 *	reporting group, the bw= that the text report prints (0: no job ran)
 */
struct wbsim_result_summary {
	wbsim_time_t sim_time_ns;
	uint64_t seed;
	const char *affinity;
	uint64_t pages_dirtied;
	uint64_t pages_written;
	const char *device;
	uint64_t device_bytes;
	uint64_t device_requests;
	double device_utilisation;
	unsigned int n_jobs;
	unsigned int n_wbs;
	unsigned int n_files;
	unsigned int n_warnings;
	unsigned int n_series_columns;
	unsigned int n_series_rows;
	uint64_t total_bytes;
	uint64_t total_bw_bytes_per_s;
};

/**
 * wbsim_result_summary() - the run as a whole
 * @r: the results
 *
 * Return: the summary, owned by @r (NULL for a NULL @r).
 */
WBSIM_API const struct wbsim_result_summary *wbsim_result_summary(const wbsim_result *r);

/**
 * wbsim_result_warning() - a note the run left (an ignored fio option, a
 * timed event and how long it took)
 * @r: the results
 * @i: its index
 *
 * Return: the text, owned by @r, or NULL past the last note.
 */
WBSIM_API const char *wbsim_result_warning(const wbsim_result *r, unsigned int i);

/**
 * wbsim_result_interrupted() - whether wbsim_run_opts.stop stopped the run
 * @r: the results
 *
 * An interrupted run's results are those of the simulated time it reached
 * (wbsim_result_summary()'s @sim_time_ns), not of its whole scenario.
 *
 * Return: TRUE when the run was interrupted (FALSE for a NULL @r).
 */
WBSIM_API gboolean wbsim_result_interrupted(const wbsim_result *r);

/* ------------------------------------------------------------------------ */
/* Records: fio jobs, writeback contexts, files                             */

/**
 * struct wbsim_result_job - an fio job clone (one per clone after numjobs
 * expansion, in job-file order)
 * @name: fio's jobname
 * @bytes: bytes the job wrote (fio's io_bytes)
 * @ios: write calls the job made (fio's total_ios)
 * @runtime_ns: from the job's first write to its end, drain and end_fsync
 *	included, as fio counts its runtime
 * @bw_kibps: @bytes / @runtime_ns in KiB/s, fio's bw (0: the job did not
 *	run)
 * @iops: write calls per second (0: the job did not run)
 * @lat_mean_ns: mean latency of the write calls, fio's clat: throttle
 *	pauses included (0 without writes)
 * @pauses: balance_dirty_pages() sleeps
 * @paused_ns: time slept in balance_dirty_pages()
 * @max_pause_ns: the longest balance_dirty_pages() call (all its sleeps)
 */
struct wbsim_result_job {
	const char *name;
	uint64_t bytes;
	uint64_t ios;
	wbsim_time_t runtime_ns;
	double bw_kibps;
	double iops;
	double lat_mean_ns;
	uint64_t pauses;
	wbsim_time_t paused_ns;
	wbsim_time_t max_pause_ns;
};

/**
 * struct wbsim_result_wb - a writeback context (index = context number)
 * @pages_written: pages the context's flusher submitted
 * @pages_completed: writeback completions charged to the context
 *	(WB_WRITTEN: also pages tasks wrote back for its inodes)
 * @write_bandwidth_kibps: the final avg_write_bandwidth, KiB/s
 * @cpu_ns: CPU time of the context's flusher
 */
struct wbsim_result_wb {
	uint64_t pages_written;
	uint64_t pages_completed;
	uint64_t write_bandwidth_kibps;
	wbsim_time_t cpu_ns;
};

/**
 * struct wbsim_result_file - a file's extents at a [measure] extents
 * moment (one moment, "end", by default; files x moments records)
 * @path: the file
 * @moment: when the record was taken ("end", ...)
 * @extents: the file's extents as filefrag counts them
 * @written_by: which contexts' flushers wrote the file, a bitmap: context
 *	c is bit c (contexts past 63 are not told apart)
 * @median_length: the median length of the file's FIEMAP records in
 *	filesystem blocks, as `filefrag -v` shows them (delayed allocation
 *	included; the mean of the two middle ones for an even number of
 *	records; 0 without records)
 */
struct wbsim_result_file {
	const char *path;
	const char *moment;
	uint64_t extents;
	uint64_t written_by;
	double median_length;
};

/*
 * The records are owned by @r and read-only; a later version may add
 * members at their end (a program never allocates one). Each accessor
 * returns NULL past the last record, so it is also the iterator:
 *
 *   const struct wbsim_result_job *job;
 *
 *   for (unsigned int j = 0; (job = wbsim_result_job(r, j)); j++)
 *           printf("%s %" PRIu64 "\n", job->name, job->bytes);
 */

/** wbsim_result_job() - job @i of @r, or NULL past the last. */
WBSIM_API const struct wbsim_result_job *wbsim_result_job(const wbsim_result *r, unsigned int i);

/**
 * wbsim_result_job_lat_percentile_ns() - a percentile of job @i's write
 * latency, from fio's log-linear buckets as fio computes clat_ns percentiles
 * @r: the results
 * @i: the job
 * @percent: 0 < @percent <= 100 (e.g. 99.9)
 *
 * Return: nanoseconds (0 without writes, past the last job or for a
 * @percent out of range).
 */
WBSIM_API uint64_t wbsim_result_job_lat_percentile_ns(const wbsim_result *r, unsigned int i,
						      double percent);

/** wbsim_result_wb() - writeback context @i of @r, or NULL past the last. */
WBSIM_API const struct wbsim_result_wb *wbsim_result_wb(const wbsim_result *r, unsigned int i);

/** wbsim_result_file() - file record @i of @r, or NULL past the last. */
WBSIM_API const struct wbsim_result_file *wbsim_result_file(const wbsim_result *r,
							    unsigned int i);

/* ------------------------------------------------------------------------ */
/* The time series (one row every [run] series_interval, plus the end)     */

/**
 * wbsim_result_series_column() - a column's name
 * @r: the results
 * @col: the column; 0 is "time_s"
 *
 * Return: the name ("dirty_pages", "wb0_written_pages", ... as sim-writeback
 * --series heads its columns), owned by @r, or NULL past the last column.
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
 * wbsim_result_series_row() - one sample, every column
 * @r: the results
 * @row: the sample
 *
 * Return: n_series_columns values in column order (pages, KiB/s, bytes, ms
 * or s, as each column says), owned by @r, or NULL past the last row.
 */
WBSIM_API const double *wbsim_result_series_row(const wbsim_result *r, unsigned int row);

WBSIM_END_DECLS

#endif /* WBSIM_RESULT_H */
