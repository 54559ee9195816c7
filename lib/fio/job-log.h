/* SPDX-License-Identifier: MIT */
/*
 * fio/job-log.h - fio's per-job I/O logs: write_bw_log, write_lat_log
 * and write_iops_log, in fio 3.33's names and format (fio stat.c
 * add_log_sample(), iolog.c flush_samples()).
 */
#ifndef WBSIM_FIO_JOB_LOG_H
#define WBSIM_FIO_JOB_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "core/spool.h"
#include "defs/fio.h"

/*
 * wbsim_io_log_fn - where the logs go: @text is appended to the log file
 * @name (fio's name, relative to the current directory); @text NULL
 * creates @name, empty (truncated, or kept and appended to when @append:
 * per_job_logs=0, where fio appends every job's log to one file).
 */
typedef void (*wbsim_io_log_fn)(void *arg, const char *name, const char *text,
				gboolean append);

/*
 * wbsim_io_log_open_fn - can the log file @name be written (created, or
 * appended to when @append)? Return: 0, or an errno value.
 */
typedef int (*wbsim_io_log_open_fn)(void *arg, const char *name, gboolean append);

enum wbsim_io_log_type {
	WBSIM_IO_LOG_LAT,
	WBSIM_IO_LOG_SLAT,
	WBSIM_IO_LOG_CLAT,
	WBSIM_IO_LOG_BW,
	WBSIM_IO_LOG_IOPS,
	WBSIM_IO_LOG_NR,
};

/**
 * struct wbsim_io_log - one log file of one job (fio's struct io_log)
 * @name: its file name
 * @avg_msec: the averaging window (0: a row per I/O)
 * @samples: writes in the current window
 * @mean: their running mean (fio's Welford mean, in double)
 * @max: their largest value
 * @avg_last: start of the current window, ms since the job's start
 * @buf: rows not yet handed to the sink
 * @held: per_job_logs=0: the rows spooled until the job's end
 */
struct wbsim_io_log {
	char *name;
	unsigned int avg_msec;
	uint64_t samples;
	double mean;
	uint64_t max;
	uint64_t avg_last;
	GString *buf;
	struct wbsim_spool_chain held;
};

/**
 * struct wbsim_job_logs - the logs of one job
 * @log: each log asked for, NULL if not
 * @fio: the job's options
 * @epoch: the job's start (fio's td->epoch), simulated ns
 * @tick_ns: bw/iops logs with a window: fio's sampling period
 *	     (bw_avg_time, iops_avg_time), 0 for a row per I/O
 * @next_tick_bw: end of the bandwidth window in progress
 * @next_tick_iops: end of the IOPS window in progress
 * @bytes_bw: bytes written when the bandwidth window began
 * @ios_iops: writes done when the IOPS window began
 * @hold: per_job_logs=0: the rows are handed over at the job's end, as
 *	  fio writes them (several jobs share the file)
 * @spool: where @hold rows wait, a piece of about 64 KiB at a time (the
 *	   run's, shared by its jobs), or NULL: in memory
 */
struct wbsim_job_logs {
	struct wbsim_io_log *log[WBSIM_IO_LOG_NR];
	const struct wbsim_fio_job *fio;
	wbsim_io_log_fn fn;
	void *arg;
	uint64_t epoch;
	uint64_t tick_ns[WBSIM_IO_LOG_NR];
	uint64_t next_tick[WBSIM_IO_LOG_NR];
	uint64_t tick_count[WBSIM_IO_LOG_NR];
	bool hold;
	struct wbsim_spool *spool;
};

/*
 * wbsim_job_logs_init() - the logs @fio asks for, named as fio names them
 * (PREFIX_TYPE.N.log, N = @thread_number, fio's 1-based job number),
 * written through @fn (wbsim_job_logs_open() creates them); with
 * per_job_logs=0 their rows wait in memory until the job ends, unless the
 * caller sets @l->spool. Return: TRUE if any log is asked.
 */
bool wbsim_job_logs_init(struct wbsim_job_logs *l, const struct wbsim_fio_job *fio,
			 unsigned int thread_number, wbsim_io_log_fn fn, void *arg);
/*
 * wbsim_job_logs_open() - each log is checked by @open_fn (NULL: none),
 * then created through the logs' sink (@text NULL). Return: 0, or the
 * errno @open_fn gave for the first log it refused, whose type goes to
 * @refused (the later logs are neither checked nor created).
 */
int wbsim_job_logs_open(struct wbsim_job_logs *l, wbsim_io_log_open_fn open_fn,
			enum wbsim_io_log_type *refused);
/* The option asking for a log of type @t: "write_bw_log", "write_lat_log"
 * or "write_iops_log". */
const char *wbsim_job_logs_option(enum wbsim_io_log_type t);
/* The job's I/O starts now (@now_ns): times in the logs count from here. */
void wbsim_job_logs_start(struct wbsim_job_logs *l, uint64_t now_ns);
/*
 * wbsim_job_logs_io() - a write of @bytes at @offset completed at @now_ns
 * after @lat_ns; @bytes_before and @ios_before: the job's totals before it
 */
void wbsim_job_logs_io(struct wbsim_job_logs *l, uint64_t now_ns, uint64_t lat_ns,
		       uint64_t bytes, uint64_t offset, uint64_t bytes_before,
		       uint64_t ios_before);
/* The job ended at @now_ns with @bytes and @ios done: the last windows,
 * then every row to the sink (fio finalize_logs(), flush_log()). */
void wbsim_job_logs_finish(struct wbsim_job_logs *l, uint64_t now_ns, uint64_t bytes,
			   uint64_t ios);
void wbsim_job_logs_clear(struct wbsim_job_logs *l);

/* The bandwidth window of the job's report samples, ns (fio's bw_avg_time
 * as fio sets it from bwavgtime and a windowed bandwidth log). */
uint64_t wbsim_job_logs_bw_window_ns(const struct wbsim_fio_job *fio);

#endif
