/* SPDX-License-Identifier: MIT */
/*
 * report/report.h - the reports drawn from a struct wbsim_run_result: fio's
 * normal (human) output followed by a wbsim section, fio's JSON layout with
 * a "wbsim" object, and the time series as CSV. Also fio's number
 * formatting (fio-units.c) and the per-job/per-group statistics fio prints
 * (report-stats.c), shared by the text and JSON writers.
 *
 * The library never prints: every function returns text for the caller to
 * write. No function reads the wall clock; the wall time measured by the
 * caller (r->wall_s) is printed only when asked, so that two runs with the
 * same seed give byte-identical reports.
 */
#ifndef WBSIM_REPORT_REPORT_H
#define WBSIM_REPORT_REPORT_H

#include <stdint.h>
#include <glib.h>
#include <wbsim/version.h>
#include "report/results.h"

/*
 * fio's version as the reports give it: "fio-" and the fio release whose
 * formats are written (Debian 12's 3.33), the simulator in brackets, so a
 * parser that checks the "fio-" prefix keeps working.
 */
#define WBSIM_FIO_VERSION_STRING "fio-3.33 (wbsim " WBSIM_VERSION_STRING ")"

/**
 * wbsim_report_text() - fio's normal output, then the wbsim section
 * @r: the run
 * @include_wall: print the wall-clock time (FALSE for byte-identical output)
 *
 * fio's preamble (each job's "NAME: (g=N): rw=..., bs=..., ioengine=...,
 * iodepth=N" line, the version, "Starting N processes", the files laid
 * out), then one block per job (per group of jobs with group_reporting, merged as fio
 * merges them), the "Run status group" lines, "Disk stats", then a section
 * starting with a line "wbsim: ..." that fio tools ignore.
 *
 * Return: the text, to free with g_string_free().
 */
GString *wbsim_report_text(const struct wbsim_run_result *r, gboolean include_wall);

/**
 * wbsim_report_json() - fio's JSON output with a top-level "wbsim" object
 * @r: the run
 * @include_wall: add "wbsim"."wall_s"
 *
 * Same as wbsim_report_json_full() without json+.
 *
 * Return: NUL-terminated JSON text, to free with g_free().
 */
char *wbsim_report_json(const struct wbsim_run_result *r, gboolean include_wall);

/**
 * wbsim_report_json_full() - fio's JSON or JSON+ output
 * @r: the run; its fio_global_options make fio's "global options" (none,
 *	no object, as fio). A name given twice (several [global] sections)
 *	is written once, at its first position, with its last value: what
 *	Python's json.loads() makes of fio's duplicate keys.
 * @json_plus: fio's --output-format=json+: "bins" (bucket value in ns ->
 *	count) in clat_ns and sync lat_ns
 * @include_wall: add "wbsim"."wall_s"
 *
 * Return: NUL-terminated JSON text, to free with g_free().
 */
char *wbsim_report_json_full(const struct wbsim_run_result *r, gboolean json_plus,
			     gboolean include_wall);

/**
 * wbsim_report_csv() - the time series as CSV
 * @r: the run (r->series)
 *
 * A "# " comment line naming the scenario and seed, a header row of the
 * column names, then one row per sample. Integral values are printed as
 * integers, others with "%.10g", both locale-independent.
 *
 * Return: the text, to free with g_string_free().
 */
GString *wbsim_report_csv(const struct wbsim_run_result *r);

/*
 * wbsim_report_csv_head() / wbsim_report_csv_row() - the same text in
 * pieces, for a series written as it is sampled (sim-writeback --series):
 * the head before the first row, then each row; the concatenation is
 * byte for byte what wbsim_report_csv() returns for the run.
 */
void wbsim_report_csv_head(GString *s, const char *const *columns, unsigned int ncols);
void wbsim_report_csv_row(GString *s, const double *row, unsigned int ncols);

/* ------------------------------------------------------------------------ */
/* fio's number formatting (fio-units.c)                                     */

/** enum wbsim_n2s_unit - the unit suffix after the prefix ("B", "B/s", ...) */
enum wbsim_n2s_unit {
	WBSIM_N2S_NONE,		/* "" */
	WBSIM_N2S_PERSEC,	/* "/s" */
	WBSIM_N2S_BYTE,		/* "B" */
	WBSIM_N2S_BIT,		/* "bit", value * 8 */
	WBSIM_N2S_BYTEPERSEC,	/* "B/s" */
	WBSIM_N2S_BITPERSEC,	/* "bit/s", value * 8 */
};

char *wbsim_num2str(uint64_t num, unsigned int maxlen, gboolean pow2,
		    enum wbsim_n2s_unit unit);
char *wbsim_fio_num_pair(uint64_t num, unsigned int kb_base,
			 enum wbsim_n2s_unit unit);

/* ------------------------------------------------------------------------ */
/* Internal to lib/report: fio's thread_stat and group_run_stats            */

/**
 * struct wbsim_rstat - fio's io_stat: min, max, mean and the running sum of
 * squared deviations of a series of samples (bandwidth, IOPS)
 */
struct wbsim_rstat {
	uint64_t samples;
	uint64_t min, max;
	double mean, S;
};

/* the latency ranges of fio's latency_ns/us/ms maps */
#define WBSIM_LAT_N_NR 10
#define WBSIM_LAT_U_NR 10
#define WBSIM_LAT_M_NR 12

/**
 * struct wbsim_report_ts - what fio prints for one job, or for the jobs of
 * one group merged when they have group_reporting
 * @first: the first job merged (its name, options, ...)
 * @first_index: its index in r->jobs
 * @groupid: fio's reporting group
 * @members: jobs merged
 * @kb_base: the first job's kb_base (1024 or 1000)
 * @iodepth: the first job's iodepth
 * @io_bytes: bytes written, summed
 * @total_ios: writes, summed
 * @runtime_ms: the longest runtime of the members, ms
 * @total_run_ms: the members' runtimes summed (fio's total_run_time)
 * @cpu_ns: the members' CPU time summed
 * @ctx: the members' context switches, voluntary and involuntary, summed
 *	(fio's ctx=: getrusage()'s ru_nvcsw + ru_nivcsw)
 * @clat: write latencies, merged
 * @sync_lat: fsync and fdatasync latencies, merged
 * @datasyncs: how many of them were fdatasyncs. fio 3.33 counts I/O units
 *	in total_io_u[DDIR_RWDIR_SYNC_CNT] (read, write, trim, sync), and an
 *	fdatasync (DDIR_DATASYNC, one past) lands in the next array,
 *	short_io_u[0]: its "issued rwts" line shows them as short=N,0,0,0, its
 *	JSON as read's "short_ios", and neither as syncs (fio-3.33 with
 *	fdatasync=4 over 9 writes: sync total_ios 0, lat_ns N 2, read
 *	short_ios 2). The simulator writes what fio writes.
 * @bw: bandwidth samples in KiB/s, fio's group sum (see wbsim_rstat_sum)
 * @iops: IOPS samples, same
 * @lat_n: % of writes in each latency_ns range
 * @lat_u: same, latency_us
 * @lat_m: same, latency_ms
 * @depths: fio's I/O depth counters, summed (fio stat.c sum_thread_stats())
 * @depth: % of I/O units per depth bucket (fio's "IO depths", iodepth_level)
 * @submit: % of submit calls per bucket ("submit", iodepth_submit)
 * @complete: % of reap calls per bucket ("complete", iodepth_complete)
 */
struct wbsim_report_ts {
	const struct wbsim_job_result *first;
	unsigned int first_index;
	unsigned int groupid;
	unsigned int members;
	int error;		/* errno that ended a member (fio's err=), 0 */
	unsigned int kb_base;
	unsigned int iodepth;
	uint64_t io_bytes;
	uint64_t total_ios;
	uint64_t runtime_ms;
	uint64_t total_run_ms;
	wbsim_time_t cpu_ns;
	uint64_t ctx;
	struct wbsim_lat_hist clat;
	struct wbsim_lat_hist sync_lat;
	uint64_t datasyncs;
	struct wbsim_rstat bw;
	struct wbsim_rstat iops;
	double lat_n[WBSIM_LAT_N_NR];
	double lat_u[WBSIM_LAT_U_NR];
	double lat_m[WBSIM_LAT_M_NR];
	struct wbsim_fio_depths depths;
	double depth[WBSIM_FIO_IO_U_MAP_NR];
	double submit[WBSIM_FIO_IO_U_MAP_NR];
	double complete[WBSIM_FIO_IO_U_MAP_NR];
};

/**
 * struct wbsim_report_group - fio's "Run status group" figures (writes)
 * @groupid: the group
 * @kb_base: of its first job
 * @iobytes: bytes of every job
 * @min_run: shortest runtime of its entries, ms (0: none ran)
 * @max_run: longest, ms
 * @min_bw: lowest entry bandwidth, B/s
 * @max_bw: highest, B/s
 * @agg: iobytes * 1000 / max_run, B/s
 */
struct wbsim_report_group {
	unsigned int groupid;
	unsigned int kb_base;
	uint64_t iobytes;
	uint64_t min_run, max_run;
	uint64_t min_bw, max_bw;
	uint64_t agg;
};

/**
 * struct wbsim_report_stats - every entry and group of a run
 * @ts: struct wbsim_report_ts *, in job order
 * @groups: struct wbsim_report_group *, by increasing groupid
 */
struct wbsim_report_stats {
	GPtrArray *ts;
	GPtrArray *groups;
};

struct wbsim_report_stats *wbsim_report_stats_new(const struct wbsim_run_result *r);
void wbsim_report_stats_free(struct wbsim_report_stats *st);
const struct wbsim_report_group *
wbsim_report_stats_group(const struct wbsim_report_stats *st, unsigned int groupid);

gboolean wbsim_rstat_calc(const struct wbsim_rstat *s, uint64_t *min, uint64_t *max,
			  double *mean, double *dev);
void wbsim_rstat_add(struct wbsim_rstat *s, uint64_t v);
void wbsim_rstat_sum(struct wbsim_rstat *dst, const struct wbsim_rstat *src);
void wbsim_report_lat_hist_merge(struct wbsim_lat_hist *dst,
				 const struct wbsim_lat_hist *src);
double wbsim_report_bw_per(const struct wbsim_report_group *g, double mean);

/* the percentile list fio uses by default (17 entries) */
#define WBSIM_NR_PERCENTILES 17
extern const double wbsim_report_percentiles[WBSIM_NR_PERCENTILES];

/* labels of the latency ranges: "2", "4", ... ">=2000" */
extern const char *const wbsim_report_lat_labels[WBSIM_LAT_M_NR];
/* labels of the pause histogram buckets: "<1ms" ... ">=512ms" */
extern const char *const wbsim_report_pause_labels[WBSIM_PAUSE_BUCKETS];
/* names of enum wbsim_task_kind: "dirtier", "flusher", "irq", "other" */
extern const char *const wbsim_report_task_kinds[WBSIM_TASK_NR_KINDS];

#endif
