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
#include "report/report.h"
#include "core/lat-hist.h"

/* The public record of internal job @j. */
static struct wbsim_result_job job_record(const struct wbsim_job_result *j)
{
	struct wbsim_result_job o = {
		.name = j->name,
		.bytes = j->io_bytes,
		.ios = j->total_ios,
		.runtime_ns = j->runtime_ns,
		.lat_mean_ns = j->clat.n ? wbsim_lat_hist_mean(&j->clat) : 0,
		.pauses = j->pauses,
		.paused_ns = j->paused_ns,
		.max_pause_ns = j->max_pause_ns,
	};

	if (j->runtime_ns) {
		double secs = (double)j->runtime_ns / 1e9;

		o.bw_kibps = (double)j->io_bytes / 1024.0 / secs;
		o.iops = (double)j->total_ios / secs;
	}
	return o;
}

/* The public record of internal writeback context @w. */
static struct wbsim_result_wb wb_record(const struct wbsim_wb_result *w)
{
	return (struct wbsim_result_wb) {
		.pages_written = w->pages_written,
		.pages_completed = w->pages_completed,
		.write_bandwidth_kibps = w->avg_write_bandwidth * 4,	/* pages/s -> KiB/s */
		.cpu_ns = w->cpu_ns,
	};
}

/*
 * fio's "Run status group" io= and bw= with every job in one group: the
 * groups' bytes, and those bytes * 1000 / the longest runtime in whole ms,
 * from the figures the report prints per group (report-stats.c), so the
 * one-group case is the report's own number.
 */
static void total_bw(const struct wbsim_run_result *rr, struct wbsim_result_summary *s)
{
	struct wbsim_report_stats *st = wbsim_report_stats_new(rr);
	uint64_t max_run = 0;

	for (guint i = 0; i < st->groups->len; i++) {
		const struct wbsim_report_group *g = st->groups->pdata[i];

		s->total_bytes += g->iobytes;
		max_run = MAX(max_run, g->max_run);
	}
	s->total_bw_bytes_per_s = max_run ? s->total_bytes * 1000 / max_run : 0;
	wbsim_report_stats_free(st);
}

static unsigned int series_rows(const struct wbsim_run_result *rr)
{
	guint n = rr->series.columns->len;

	return n ? rr->series.values->len / n : 0;
}

wbsim_result *wbsim_result_wrap(struct wbsim_run_result *rr)
{
	wbsim_result *r = g_new0(wbsim_result, 1);

	r->r = rr;
	r->summary = (struct wbsim_result_summary) {
		.sim_time_ns = rr->sim_ns,
		.seed = rr->seed,
		.affinity = rr->affinity,
		.pages_dirtied = rr->nr_dirtied,
		.pages_written = rr->nr_written,
		.device = rr->device,
		.device_bytes = rr->device_stats.bytes,
		.device_requests = rr->device_stats.requests,
		.device_utilisation = rr->device_stats.utilisation,
		.n_jobs = rr->jobs->len,
		.n_wbs = rr->wbs->len,
		.n_files = rr->extents->len,
		.n_warnings = rr->warnings->len,
		.n_series_columns = rr->series.columns->len,
		.n_series_rows = series_rows(rr),
	};
	total_bw(rr, &r->summary);
	r->jobs = g_array_sized_new(FALSE, FALSE, sizeof(struct wbsim_result_job), rr->jobs->len);
	for (guint i = 0; i < rr->jobs->len; i++) {
		struct wbsim_result_job o = job_record(rr->jobs->pdata[i]);

		g_array_append_val(r->jobs, o);
	}
	r->wbs = g_array_sized_new(FALSE, FALSE, sizeof(struct wbsim_result_wb), rr->wbs->len);
	for (guint i = 0; i < rr->wbs->len; i++) {
		struct wbsim_result_wb o = wb_record(rr->wbs->pdata[i]);

		g_array_append_val(r->wbs, o);
	}
	return r;
}

void wbsim_result_free(wbsim_result *r)
{
	if (!r)
		return;
	wbsim_run_result_free(r->r);
	wbsim_fio_file_free(r->fio);
	wbsim_trace_dat_free(r->dat);
	g_strfreev(r->dat_events);
	g_array_unref(r->jobs);
	g_array_unref(r->wbs);
	if (r->files)
		g_array_unref(r->files);
	g_free(r);
}

const struct wbsim_result_summary *wbsim_result_summary(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, NULL);
	return &r->summary;
}

const char *wbsim_result_warning(const wbsim_result *r, unsigned int i)
{
	g_return_val_if_fail(r != NULL, NULL);
	return i < r->r->warnings->len ? r->r->warnings->pdata[i] : NULL;
}

gboolean wbsim_result_interrupted(const wbsim_result *r)
{
	g_return_val_if_fail(r != NULL, FALSE);
	return r->r->interrupted;
}

/* ------------------------------------------------------------------------ */
/* Records                                                                  */

const struct wbsim_result_job *wbsim_result_job(const wbsim_result *r, unsigned int i)
{
	g_return_val_if_fail(r != NULL, NULL);
	return i < r->jobs->len ? &g_array_index(r->jobs, struct wbsim_result_job, i) : NULL;
}

uint64_t wbsim_result_job_lat_percentile_ns(const wbsim_result *r, unsigned int i,
					    double percent)
{
	const struct wbsim_job_result *j;

	g_return_val_if_fail(r != NULL, 0);
	g_return_val_if_fail(percent > 0 && percent <= 100, 0);
	if (i >= r->r->jobs->len)
		return 0;
	j = r->r->jobs->pdata[i];
	return j->clat.n ? wbsim_lat_hist_percentile(&j->clat, percent) : 0;
}

const struct wbsim_result_wb *wbsim_result_wb(const wbsim_result *r, unsigned int i)
{
	g_return_val_if_fail(r != NULL, NULL);
	return i < r->wbs->len ? &g_array_index(r->wbs, struct wbsim_result_wb, i) : NULL;
}

/* The file records, made once (several threads may read @r at once). */
static GArray *file_records(const wbsim_result *r)
{
	wbsim_result *w = (wbsim_result *)r;	/* the records are a cache */

	if (g_once_init_enter(&w->files)) {
		const GPtrArray *ext = r->r->extents;
		GArray *files = g_array_sized_new(FALSE, FALSE, sizeof(struct wbsim_result_file),
						  ext->len);

		for (guint i = 0; i < ext->len; i++) {
			const struct wbsim_extent_result *e = ext->pdata[i];
			struct wbsim_result_file o = {
				.path = e->path,
				.moment = e->moment,
				.extents = e->filefrag,
				.written_by = e->written_by,
				.median_length = wbsim_extent_median_length(e),
			};

			g_array_append_val(files, o);
		}
		g_once_init_leave(&w->files, files);
	}
	return w->files;
}

const struct wbsim_result_file *wbsim_result_file(const wbsim_result *r, unsigned int i)
{
	GArray *files;

	g_return_val_if_fail(r != NULL, NULL);
	if (i >= r->r->extents->len)
		return NULL;
	files = file_records(r);
	return &g_array_index(files, struct wbsim_result_file, i);
}

/* ------------------------------------------------------------------------ */
/* Time series                                                              */

const char *wbsim_result_series_column(const wbsim_result *r, unsigned int col)
{
	g_return_val_if_fail(r != NULL, NULL);
	return col < r->r->series.columns->len ? r->r->series.columns->pdata[col] : NULL;
}

int wbsim_result_series_find_column(const wbsim_result *r, const char *name)
{
	g_return_val_if_fail(r != NULL && name != NULL, -1);
	for (guint i = 0; i < r->r->series.columns->len; i++)
		if (strcmp(r->r->series.columns->pdata[i], name) == 0)
			return (int)i;
	return -1;
}

const double *wbsim_result_series_row(const wbsim_result *r, unsigned int row)
{
	g_return_val_if_fail(r != NULL, NULL);
	if (row >= series_rows(r->r))
		return NULL;
	return &g_array_index(r->r->series.values, double,
			      (gsize)row * r->r->series.columns->len);
}
