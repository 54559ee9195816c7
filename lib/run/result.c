/* SPDX-License-Identifier: MIT */
/*
 * result.c - read-only accessors of struct wbsim_result (include/wbsim/
 * result.h), a thin owner of the internal struct wbsim_run_result that the
 * reports are drawn from, so what a program reads is what sim-writeback
 * prints.
 */
#include <string.h>
#include "run/api-private.h"
#include "report/trace-dat.h"
#include "core/lat-hist.h"

wbsim_result *wbsim_result_wrap(struct wbsim_run_result *rr)
{
	wbsim_result *r = g_new0(wbsim_result, 1);

	r->r = rr;
	return r;
}

void wbsim_result_free(wbsim_result *r)
{
	if (!r)
		return;
	wbsim_run_result_free(r->r);
	wbsim_trace_dat_free(r->dat);
	g_strfreev(r->dat_events);
	g_free(r);
}

wbsim_time_t wbsim_result_sim_time_ns(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->sim_ns;
}

uint64_t wbsim_result_seed(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->seed;
}

const char *wbsim_result_affinity(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, NULL);
	return r->r->affinity;
}

uint64_t wbsim_result_pages_dirtied(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->nr_dirtied;
}

uint64_t wbsim_result_pages_written(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->nr_written;
}

unsigned int wbsim_result_nr_warnings(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->warnings->len;
}

const char *wbsim_result_warning(const wbsim_result *r, unsigned int i)
{
	g_return_val_if_fail(r != NULL && i < r->r->warnings->len, NULL);
	return r->r->warnings->pdata[i];
}

/* ------------------------------------------------------------------------ */
/* Jobs                                                                     */

static const struct wbsim_job_result *job_of(const wbsim_result *r, unsigned int job)
{
	if (!r || job >= r->r->jobs->len)
		return NULL;
	return r->r->jobs->pdata[job];
}

#define JOB_OR(r, i, fail) \
	const struct wbsim_job_result *j = job_of(r, i); \
	g_return_val_if_fail(j != NULL, fail)

unsigned int wbsim_result_nr_jobs(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->jobs->len;
}

const char *wbsim_result_job_name(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, NULL);
	return j->name;
}

uint64_t wbsim_result_job_bytes(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	return j->io_bytes;
}

uint64_t wbsim_result_job_ios(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	return j->total_ios;
}

wbsim_time_t wbsim_result_job_runtime_ns(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	return j->runtime_ns;
}

double wbsim_result_job_bw_kibps(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	if (!j->runtime_ns)
		return 0;
	return (double)j->io_bytes / 1024.0 / ((double)j->runtime_ns / 1e9);
}

double wbsim_result_job_iops(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	if (!j->runtime_ns)
		return 0;
	return (double)j->total_ios / ((double)j->runtime_ns / 1e9);
}

double wbsim_result_job_lat_mean_ns(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	return j->clat.n ? wbsim_lat_hist_mean(&j->clat) : 0;
}

uint64_t wbsim_result_job_lat_percentile_ns(const wbsim_result *r, unsigned int job,
					    double percent)
{
	JOB_OR(r, job, 0);
	g_return_val_if_fail(percent > 0 && percent <= 100, 0);
	return j->clat.n ? wbsim_lat_hist_percentile(&j->clat, percent) : 0;
}

uint64_t wbsim_result_job_pauses(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	return j->pauses;
}

wbsim_time_t wbsim_result_job_paused_ns(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	return j->paused_ns;
}

wbsim_time_t wbsim_result_job_max_pause_ns(const wbsim_result *r, unsigned int job)
{
	JOB_OR(r, job, 0);
	return j->max_pause_ns;
}

/* ------------------------------------------------------------------------ */
/* Writeback contexts                                                       */

static const struct wbsim_wb_result *wb_of(const wbsim_result *r, unsigned int wb)
{
	if (!r || wb >= r->r->wbs->len)
		return NULL;
	return r->r->wbs->pdata[wb];
}

#define WB_OR(r, i, fail) \
	const struct wbsim_wb_result *w = wb_of(r, i); \
	g_return_val_if_fail(w != NULL, fail)

unsigned int wbsim_result_nr_wbs(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->wbs->len;
}

uint64_t wbsim_result_wb_pages_written(const wbsim_result *r, unsigned int wb)
{
	WB_OR(r, wb, 0);
	return w->pages_written;
}

uint64_t wbsim_result_wb_pages_completed(const wbsim_result *r, unsigned int wb)
{
	WB_OR(r, wb, 0);
	return w->pages_completed;
}

uint64_t wbsim_result_wb_write_bandwidth_kibps(const wbsim_result *r, unsigned int wb)
{
	WB_OR(r, wb, 0);
	return w->avg_write_bandwidth * 4;	/* pages/s -> KiB/s */
}

wbsim_time_t wbsim_result_wb_cpu_ns(const wbsim_result *r, unsigned int wb)
{
	WB_OR(r, wb, 0);
	return w->cpu_ns;
}

/* ------------------------------------------------------------------------ */
/* Device                                                                   */

const char *wbsim_result_device_name(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, NULL);
	return r->r->device;
}

uint64_t wbsim_result_device_bytes(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->device_stats.bytes;
}

uint64_t wbsim_result_device_requests(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->device_stats.requests;
}

double wbsim_result_device_utilisation(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->device_stats.utilisation;
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */

static const struct wbsim_extent_result *file_of(const wbsim_result *r, unsigned int i)
{
	if (!r || i >= r->r->extents->len)
		return NULL;
	return r->r->extents->pdata[i];
}

#define FILE_OR(r, i, fail) \
	const struct wbsim_extent_result *e = file_of(r, i); \
	g_return_val_if_fail(e != NULL, fail)

unsigned int wbsim_result_nr_files(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->extents->len;
}

const char *wbsim_result_file_path(const wbsim_result *r, unsigned int i)
{
	FILE_OR(r, i, NULL);
	return e->path;
}

const char *wbsim_result_file_moment(const wbsim_result *r, unsigned int i)
{
	FILE_OR(r, i, NULL);
	return e->moment;
}

uint64_t wbsim_result_file_extents(const wbsim_result *r, unsigned int i)
{
	FILE_OR(r, i, 0);
	return e->filefrag;
}

uint64_t wbsim_result_file_written_by(const wbsim_result *r, unsigned int i)
{
	FILE_OR(r, i, 0);
	return e->written_by;
}

/* ------------------------------------------------------------------------ */
/* Time series                                                              */

unsigned int wbsim_result_series_nr_columns(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	return r->r->series.columns->len;
}

const char *wbsim_result_series_column(const wbsim_result *r, unsigned int col)
{
	g_return_val_if_fail(r != NULL && col < r->r->series.columns->len, NULL);
	return r->r->series.columns->pdata[col];
}

int wbsim_result_series_find_column(const wbsim_result *r, const char *name)
{
	g_return_val_if_fail(r != NULL && name != NULL, -1);
	for (guint i = 0; i < r->r->series.columns->len; i++)
		if (strcmp(r->r->series.columns->pdata[i], name) == 0)
			return (int)i;
	return -1;
}

unsigned int wbsim_result_series_nr_rows(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, 0);
	if (!r->r->series.columns->len)
		return 0;
	return r->r->series.values->len / r->r->series.columns->len;
}

double wbsim_result_series_value(const wbsim_result *r, unsigned int row, unsigned int col)
{
	unsigned int n;

	g_return_val_if_fail(r != NULL, 0);
	n = r->r->series.columns->len;
	g_return_val_if_fail(col < n && row < wbsim_result_series_nr_rows(r), 0);
	return g_array_index(r->r->series.values, double, (gsize)row * n + col);
}

const double *wbsim_result_series_row(const wbsim_result *r, unsigned int row)
{
	g_return_val_if_fail(r != NULL && row < wbsim_result_series_nr_rows(r), NULL);
	return &g_array_index(r->r->series.values, double,
			      (gsize)row * r->r->series.columns->len);
}

/* ------------------------------------------------------------------------ */
/* Iterators                                                                */

static void iter_start(wbsim_result_iter *it, const wbsim_result *r, unsigned int n)
{
	it->r = r;
	it->next = 0;
	it->n = n;
}

void wbsim_result_iter_jobs(wbsim_result_iter *it, const wbsim_result *r)
{
	g_return_if_fail(it != NULL);
	iter_start(it, r, r ? wbsim_result_nr_jobs(r) : 0);
}

void wbsim_result_iter_wbs(wbsim_result_iter *it, const wbsim_result *r)
{
	g_return_if_fail(it != NULL);
	iter_start(it, r, r ? wbsim_result_nr_wbs(r) : 0);
}

void wbsim_result_iter_files(wbsim_result_iter *it, const wbsim_result *r)
{
	g_return_if_fail(it != NULL);
	iter_start(it, r, r ? wbsim_result_nr_files(r) : 0);
}

void wbsim_result_iter_series(wbsim_result_iter *it, const wbsim_result *r)
{
	g_return_if_fail(it != NULL);
	iter_start(it, r, r ? wbsim_result_series_nr_rows(r) : 0);
}

gboolean wbsim_result_iter_next(wbsim_result_iter *it, unsigned int *index)
{
	g_return_val_if_fail(it != NULL, FALSE);
	if (it->next >= it->n)
		return FALSE;
	if (index)
		*index = it->next;
	it->next++;
	return TRUE;
}
