/* SPDX-License-Identifier: MIT */
/*
 * report/results.h - what a simulation run produced, as data: per job (what
 * fio reports), per writeback context, per lock, the device, CPU time by
 * task kind, extent counts, and the sampled time series. The text, JSON and
 * CSV reports are drawn from this and nothing else.
 */
#ifndef WBSIM_REPORT_RESULTS_H
#define WBSIM_REPORT_RESULTS_H

#include <stdbool.h>
#include <wbsim/sim.h>
#include <wbsim/block.h>
#include "core/lat-hist.h"
#include "defs/backing-dev-defs.h"	/* WB_REASON_MAX */
#include "defs/fio-depths.h"

struct wbsim_fio_job;

#define WBSIM_PAUSE_BUCKETS 11	/* <1, <2, <4, ... <512 ms, >= 512 ms */

/**
 * struct wbsim_job_result - one fio job clone
 * @name: fio's job name
 * @fio: the parsed job (owned by the scenario)
 * @io_bytes: bytes written (counted when each write returned)
 * @total_ios: write calls
 * @runtime_ns: from the first write to the end of the job (drain and
 *	end_fsync included, as fio counts it)
 * @start_ns: when its first write was issued
 * @clat: latency of each write() call, throttle pauses included
 * @sync_lat: latency of each fsync=N fsync (not end_fsync's, as fio)
 * @pauses: balance_dirty_pages() sleeps
 * @paused_ns: their total
 * @max_pause_ns: longest balance_dirty_pages() call (all its sleeps)
 * @max_sleep_ns: longest single sleep in balance_dirty_pages()
 * @pause_hist: sleeps by length (WBSIM_PAUSE_BUCKETS)
 * @cpu_ns: CPU time of the job's task
 * @cpu_wait_ns: time it waited for a CPU
 * @nvcsw: its tasks' voluntary context switches (the fio thread's and, with
 *	io_uring, the io-wq worker's: the process's threads, as fio's ctx=
 *	counts them)
 * @nivcsw: their involuntary context switches (fio's ctx= is the sum)
 * @lock_wait_ns: time its task waited for locks (i_rwsem, the
 *	filesystem's write lock, a folio writeback held locked)
 * @invalidates: fadvise(DONTNEED) calls (open and pass ends)
 * @error: errno that ended the job (fio's err=: 28 for ENOSPC), 0
 * @max_lag_ns: with rate=, the worst lag of a write behind fio's schedule,
 *	max(0, issue - (io_start + bytes before it / rate)), including the
 *	lag of a job still stalled when the run stopped; 0 without rate=
 * @bw_samples: bandwidth per 500 ms window, KiB/s (uint64_t), as fio's
 *	bandwidth log samples it
 * @depths: fio's I/O depth counters of the job (lib/fio/fio-io-u.c)
 */
struct wbsim_job_result {
	char *name;
	unsigned int pid;	/* fio's process for the job, as in the trace */
	const struct wbsim_fio_job *fio;
	uint64_t io_bytes;
	uint64_t total_ios;
	wbsim_time_t runtime_ns;
	wbsim_time_t start_ns;
	struct wbsim_lat_hist clat;
	struct wbsim_lat_hist sync_lat;
	uint64_t pauses;
	wbsim_time_t paused_ns;
	wbsim_time_t max_pause_ns;
	wbsim_time_t max_sleep_ns;
	uint64_t pause_hist[WBSIM_PAUSE_BUCKETS];
	wbsim_time_t cpu_ns;
	wbsim_time_t cpu_wait_ns;
	uint64_t nvcsw;
	uint64_t nivcsw;
	wbsim_time_t lock_wait_ns;
	uint64_t invalidates;
	int error;		/* errno that ended the job (fio's td->error), 0 */
	uint64_t uring_punts;	/* io_uring writes punted to io-wq after -EAGAIN */
	uint64_t uring_time_punts;	/* of which for a timestamp update */
	uint64_t uring_worker_wakes;	/* punts that woke the idle io-wq worker */
	/* io_uring run as two tasks (wbsim_job_uring_thread_cpu()): the
	 * fio thread's CPU and the io-wq worker's, which sum to cpu_ns */
	bool uring_threads;
	wbsim_time_t uring_fio_cpu_ns, uring_worker_cpu_ns;
	unsigned int uring_workers;	/* io-wq workers the job ran (1 or 2) */
	uint64_t uring_spare_wakes;	/* punts that woke the second one */
	wbsim_time_t max_lag_ns;
	GArray *bw_samples;
	struct wbsim_fio_depths depths;
	unsigned int laid_out_files;	/* files fio lays out before the job */
	uint64_t laid_out_bytes;	/* their offset + size, summed */
};

/**
 * struct wbsim_wb_result - one writeback context
 * @ctx: its index
 * @flusher: the flusher as ps shows it, kworker/uN:M-flush-MAJ:MIN
 * @flusher_pid: its pid (the trace's comm is the kworker/uN:M part)
 * @pages_written: pages its flusher submitted
 * @pages_completed: WB_WRITTEN: completions charged to its wb (includes
 *	pages dirtiers wrote back for inodes of this wb, fadvise and fsync)
 * @avg_write_bandwidth: final avg_write_bandwidth, pages/s
 * @dirty_ratelimit: final dirty_ratelimit, pages/s
 * @works: works run
 * @inode_slices: per-inode slices written
 * @cpu_ns: flusher CPU time
 * @cpu_wait_ns: flusher time waiting for a CPU
 * @lock_wait_ns: flusher time waiting for locks
 * @irq_ns: time hard interrupts on its CPU stretched the flusher's bursts
 */
struct wbsim_wb_result {
	unsigned int ctx;
	char *flusher;
	unsigned int flusher_pid;
	uint64_t pages_written;
	uint64_t pages_completed;
	uint64_t avg_write_bandwidth;
	uint64_t dirty_ratelimit;
	uint64_t works;
	uint64_t inode_slices;
	wbsim_time_t cpu_ns;
	wbsim_time_t cpu_wait_ns;
	wbsim_time_t lock_wait_ns;
	wbsim_time_t irq_ns;
};

/**
 * struct wbsim_cgwb_result - one wb of cgroup writeback (bdi->wb_list order:
 *	the contexts' own, then cgroup wbs as created, dying ones included)
 * @ctx: its writeback context
 * @memcg: path of the memcg it serves ("/" for a context's own wb)
 * @dying: killed (its cgroup was removed or its io association changed)
 * @dirty: WB_RECLAIMABLE pages at the end
 * @writeback: WB_WRITEBACK pages at the end
 * @avg_write_bandwidth: pages/s at the end
 * @pages_written: pages its flusher wrote
 * @switched_in: inodes switched to it
 * @switched_out: inodes switched away from it
 * @foreign_works: foreign flush works it ran
 */
struct wbsim_cgwb_result {
	unsigned int ctx;
	char *memcg;
	unsigned long cgroup_ino;	/* the trace's cgroup_ino= */
	bool dying;
	uint64_t dirty;
	uint64_t writeback;
	uint64_t avg_write_bandwidth;
	uint64_t pages_written;
	uint64_t switched_in;
	uint64_t switched_out;
	uint64_t foreign_works;
};

/**
 * struct wbsim_memcg_result - one memory cgroup (creation order, removed
 *	ones included)
 * @path: its path
 * @online: not removed
 * @nr_file_dirty: NR_FILE_DIRTY at the end (with its descendants)
 * @nr_writeback: NR_WRITEBACK at the end (likewise)
 * @nr_file: file pages charged at the end (likewise)
 * @frn_flushes: foreign flushes it asked for
 * @frn_flush_failures: those that found no wb (-ENOENT)
 */
struct wbsim_memcg_result {
	char *path;
	unsigned long ino;	/* the cgroup's inode number (cgroup_ino=) */
	bool online;
	uint64_t nr_file_dirty;
	uint64_t nr_writeback;
	uint64_t nr_file;
	uint64_t frn_flushes;
	uint64_t frn_flush_failures;
};

/** struct wbsim_lock_result - one lock's contention figures */
struct wbsim_lock_result {
	char *name;
	uint64_t acquisitions;
	uint64_t contended;
	wbsim_time_t hold_ns;
	wbsim_time_t wait_ns;
	wbsim_time_t max_wait_ns;
};

/**
 * struct wbsim_extent_length - how many FIEMAP records of a file have one
 *	length
 * @blocks: the length, filesystem blocks
 * @count: records of that length
 */
struct wbsim_extent_length {
	uint64_t blocks;
	uint64_t count;
};

/**
 * struct wbsim_extent_result - extent counts of one file at one moment
 * @moment: when ("end", "+30s", "remount", ...)
 * @path: the file
 * @filefrag: extents as filefrag counts them
 * @nextents: the filesystem's raw count (XFS fsxattr.nextents)
 * @line: filefrag's own output line ("FILE: N extents found")
 * @written_by: bitmap of the writeback contexts whose flushers wrote the
 *	file back (context i is bit i; contexts past 63 are not told apart)
 * @lengths: struct wbsim_extent_length by increasing length: the length of
 *	every FIEMAP record as `filefrag -v` shows it, delayed allocation
 *	records included (wbsim_fs_filefrag_verbose())
 */
struct wbsim_extent_result {
	char *moment;
	char *path;
	uint64_t filefrag;
	uint64_t nextents;
	char *line;
	uint64_t written_by;
	GArray *lengths;
};

/*
 * wbsim_extent_lengths_set() - @e's lengths from @blocks, one length per
 * record (uint64_t, any order; sorted here), counted by length.
 */
void wbsim_extent_lengths_set(struct wbsim_extent_result *e, GArray *blocks);
/*
 * wbsim_extent_median_length() - the median of @e's record lengths,
 * blocks: the middle one, or the mean of the two middle ones for an even
 * number of records; 0 for a file without records.
 */
double wbsim_extent_median_length(const struct wbsim_extent_result *e);
/*
 * wbsim_extent_log2_histogram() - @e's records by length in power-of-two
 * buckets: @hist[k] counts the records of 2^k .. 2^(k+1) - 1 blocks.
 * Return: the buckets in use, the last non-empty one's k + 1 (0 without
 * records).
 */
unsigned int wbsim_extent_log2_histogram(const struct wbsim_extent_result *e, uint64_t hist[64]);

/**
 * struct wbsim_series - the time series: one row per sample
 * @columns: column names (char *), the first is "time_s"
 * @values: ncolumns doubles per row
 */
struct wbsim_series {
	GPtrArray *columns;
	GArray *values;
};

/**
 * struct wbsim_run_result - everything a run produced
 * @fio_global_options: struct wbsim_fio_option *, every option of the job
 *	file's [global] sections (wbsim_fio_file.global_options: owned by the
 *	scenario, as the jobs' @fio), or NULL; fio's JSON "global options"
 */
struct wbsim_run_result {
	char *scenario;		/* file name */
	char *description;
	uint64_t seed;
	unsigned int cpus;
	uint64_t memory;
	char *device;		/* preset name */
	char *fs_type;
	unsigned int nr_contexts;
	char *affinity;
	GPtrArray *jobs;	/* struct wbsim_job_result * */
	const GPtrArray *fio_global_options;
	GPtrArray *wbs;		/* struct wbsim_wb_result * */
	GPtrArray *locks;	/* struct wbsim_lock_result * */
	GPtrArray *extents;	/* struct wbsim_extent_result * */
	struct wbsim_blk_stats device_stats;
	wbsim_time_t cpu_by_kind[WBSIM_TASK_NR_KINDS];
	uint64_t events;
	wbsim_time_t sim_ns;
	double wall_s;
	bool interrupted;	/* stopped by wbsim_run_options.stop at sim_ns */
	uint64_t nr_dirtied;
	uint64_t nr_written;
	uint64_t bg_thresh, thresh;	/* global thresholds, pages, at the end */
	GPtrArray *warnings;	/* char * */
	unsigned int ctx_changes;	/* [events] contexts changes completed */
	wbsim_time_t ctx_change_ns;	/* their total duration */
	wbsim_time_t writers_blocked_ns;	/* writers stopped by freezes, summed */
	/* cgroup writeback, when the scenario used cgroups */
	bool cgroups;
	bool dying_wb_reachable;	/* [writeback] dying_wb = reachable */
	GPtrArray *cgwbs;		/* struct wbsim_cgwb_result * */
	GPtrArray *memcgs;		/* struct wbsim_memcg_result * */
	uint64_t isw_done, isw_skipped;	/* inode switches done, refused */
	uint64_t tot_write_bandwidth;	/* the bdi's, pages/s, at the end */
	/* writeback_start events (passes of wb_writeback()) by reason,
	 * traced or not */
	uint64_t writeback_starts[WB_REASON_MAX];
	struct wbsim_series series;
};

struct wbsim_run_result *wbsim_run_result_new(void);
void wbsim_run_result_free(struct wbsim_run_result *r);
/* The memcg result of cgroup @path (the last one of that path), or NULL. */
const struct wbsim_memcg_result *wbsim_run_result_memcg(const struct wbsim_run_result *r,
							const char *path);

#endif
