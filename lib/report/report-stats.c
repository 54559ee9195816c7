/* SPDX-License-Identifier: MIT */
/*
 * report-stats.c - the figures fio prints per job and per reporting group,
 * computed from the run result the way fio's stat.c computes them (written
 * here from its documented and observed behaviour):
 *
 * - Entries: one per job, except that a job with group_reporting joins the
 *   entry before it when that entry is of the same group (fio's rule, so a
 *   group_reporting job right after a job without it in the same group joins
 *   that job's entry, as in fio).
 * - An entry sums its jobs' bytes, writes and CPU time, takes the longest
 *   runtime, merges the latency histograms, and sums the bandwidth/IOPS
 *   sample statistics term by term (min, max, mean and S added: the group's
 *   aggregate bandwidth, fio's "pure sum").
 * - A group: bytes of all its entries, the shortest and longest entry
 *   runtime and bandwidth, and the aggregate bandwidth bytes * 1000 /
 *   longest runtime.
 * - Runtimes are in whole milliseconds (simulated ns / 10^6, truncated) and
 *   bandwidths in B/s as 1000 * bytes / runtime_ms, integer division.
 *
 * What wbsim does not have, fio's figures stand in for: IOPS samples are
 * derived from the bandwidth samples and the write block size (exact for
 * fixed-size writes), and the latency ranges of latency_ns/us/ms are filled
 * from the histogram buckets' middle values (within 1/128 of the samples).
 */
#include <math.h>
#include <glib.h>
#include "report/report.h"
#include "defs/fio.h"

const double wbsim_report_percentiles[WBSIM_NR_PERCENTILES] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

const char *const wbsim_report_lat_labels[WBSIM_LAT_M_NR] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000",
};

const char *const wbsim_report_pause_labels[WBSIM_PAUSE_BUCKETS] = {
	"<1ms", "<2ms", "<4ms", "<8ms", "<16ms", "<32ms", "<64ms", "<128ms",
	"<256ms", "<512ms", ">=512ms",
};

const char *const wbsim_report_task_kinds[WBSIM_TASK_NR_KINDS] = {
	[WBSIM_TASK_DIRTIER] = "dirtier",
	[WBSIM_TASK_FLUSHER] = "flusher",
	[WBSIM_TASK_IRQ] = "irq",
	[WBSIM_TASK_OTHER] = "other",
};

/**
 * wbsim_rstat_add() - add one sample (Welford's running mean and S)
 * @s: the statistics
 * @v: the sample
 */
void wbsim_rstat_add(struct wbsim_rstat *s, uint64_t v)
{
	double delta;

	if (!s->samples || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	delta = (double)v - s->mean;
	s->mean += delta / (double)(s->samples + 1);
	s->S += delta * ((double)v - s->mean);
	s->samples++;
}

/**
 * wbsim_rstat_sum() - fio's group sum of bandwidth/IOPS statistics
 * @dst: the entry's statistics
 * @src: one more job's
 *
 * Every term is added, so the mean becomes the group's aggregate mean.
 */
void wbsim_rstat_sum(struct wbsim_rstat *dst, const struct wbsim_rstat *src)
{
	if (!src->samples)
		return;
	if (!dst->samples) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->samples += src->samples;
	dst->mean += src->mean;
	dst->S += src->S;
}

/**
 * wbsim_rstat_calc() - fio's calc_lat(): min, max, mean, sample stddev
 * @s: the statistics
 * @min: filled in
 * @max: filled in
 * @mean: filled in
 * @dev: filled in (0 with one sample)
 *
 * Return: FALSE when there are no samples (nothing is filled in).
 */
gboolean wbsim_rstat_calc(const struct wbsim_rstat *s, uint64_t *min, uint64_t *max,
			  double *mean, double *dev)
{
	if (!s->samples)
		return FALSE;
	*min = s->min;
	*max = s->max;
	*mean = s->mean;
	*dev = s->samples > 1 ? sqrt(s->S / (double)(s->samples - 1)) : 0.0;
	return TRUE;
}

/**
 * wbsim_report_lat_hist_merge() - add @src's samples to @dst
 * @dst: the merged histogram (bins allocated here when needed)
 * @src: a job's histogram
 */
void wbsim_report_lat_hist_merge(struct wbsim_lat_hist *dst,
				 const struct wbsim_lat_hist *src)
{
	if (!src->n)
		return;
	if (!dst->bins)
		dst->bins = g_new0(uint64_t, WBSIM_PLAT_NR);
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->bins)
		for (unsigned int i = 0; i < WBSIM_PLAT_NR; i++)
			dst->bins[i] += src->bins[i];
}

/**
 * wbsim_report_bw_per() - fio's "per=": an entry's mean bandwidth as a
 * percentage of its group's aggregate, at most 100
 * @g: the entry's group
 * @mean: the entry's mean bandwidth sample, KiB/s
 *
 * fio truncates the mean to an integer first and leaves 100% when the
 * aggregate is 1 KiB/s or less.
 *
 * Return: the percentage.
 */
double wbsim_report_bw_per(const struct wbsim_report_group *g, double mean)
{
	double p = 100.0;
	int imean = (int)mean;

	if (g && g->agg > 1024) {
		p = imean * 100.0 / ((double)g->agg / 1024.0);
		if (p > 100.0)
			p = 100.0;
	}
	return p;
}

/* fio's latency range of a value in its unit: <2, <4, <10, ... <1000 */
static unsigned int lat_range(uint64_t v)
{
	static const uint64_t upper[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
	unsigned int i;

	for (i = 0; i < G_N_ELEMENTS(upper); i++)
		if (v < upper[i])
			return i;
	return i;
}

/* Percentages of writes per latency range, with fio's floor of 0.01%. */
static void ts_calc_lat_ranges(struct wbsim_report_ts *ts)
{
	uint64_t n[WBSIM_LAT_N_NR] = { 0 }, u[WBSIM_LAT_U_NR] = { 0 };
	uint64_t m[WBSIM_LAT_M_NR] = { 0 };
	uint64_t total = ts->total_ios;

	if (ts->clat.bins) {
		for (unsigned int i = 0; i < WBSIM_PLAT_NR; i++) {
			uint64_t v, c = ts->clat.bins[i];

			if (!c)
				continue;
			v = wbsim_plat_idx_to_val(i);
			if (v < 1000)
				n[lat_range(v)] += c;
			else if (v < 1000000)
				u[lat_range(v / 1000)] += c;
			else
				m[lat_range(v / 1000000)] += c;
		}
	}
#define PCT(dst, src, nr)							\
	for (unsigned int i = 0; i < (nr); i++) {				\
		(dst)[i] = total ? 100.0 * (double)(src)[i] / (double)total : 0.0; \
		if ((src)[i] && (dst)[i] < 0.01)				\
			(dst)[i] = 0.01;					\
	}
	PCT(ts->lat_n, n, WBSIM_LAT_N_NR);
	PCT(ts->lat_u, u, WBSIM_LAT_U_NR);
	PCT(ts->lat_m, m, WBSIM_LAT_M_NR);
#undef PCT
}

/*
 * fio stat.c stat_calc_dist(): @map's buckets as percentages of @total,
 * a bucket with any count at least 0.1%.
 */
static void stat_calc_dist(const uint64_t *map, uint64_t total, double *dist)
{
	for (unsigned int i = 0; i < WBSIM_FIO_IO_U_MAP_NR; i++) {
		dist[i] = total ? (double)map[i] / (double)total * 100.0 : 0.0;
		if (total && map[i] && dist[i] < 0.1)
			dist[i] = 0.1;
	}
}

static void ts_calc_depths(struct wbsim_report_ts *ts)
{
	const struct wbsim_fio_depths *d = &ts->depths;

	stat_calc_dist(d->io_u_map, d->total_io_u, ts->depth);
	stat_calc_dist(d->io_u_submit, d->total_submit, ts->submit);
	stat_calc_dist(d->io_u_complete, d->total_complete, ts->complete);
}

/* fio stat.c sum_thread_stats(): the depth counters add up */
static void depths_sum(struct wbsim_fio_depths *dst, const struct wbsim_fio_depths *src)
{
	for (unsigned int k = 0; k < WBSIM_FIO_IO_U_MAP_NR; k++) {
		dst->io_u_map[k] += src->io_u_map[k];
		dst->io_u_submit[k] += src->io_u_submit[k];
		dst->io_u_complete[k] += src->io_u_complete[k];
	}
	dst->total_io_u += src->total_io_u;
	dst->total_submit += src->total_submit;
	dst->total_complete += src->total_complete;
}

/* A job's bandwidth and IOPS sample statistics from its bw_samples. */
static void job_sample_stats(const struct wbsim_job_result *j,
			     struct wbsim_rstat *bw, struct wbsim_rstat *iops)
{
	uint64_t bs = j->fio ? j->fio->bs[WBSIM_FIO_DDIR_WRITE] : 0;

	*bw = (struct wbsim_rstat){ 0 };
	*iops = (struct wbsim_rstat){ 0 };
	if (!j->bw_samples)
		return;
	for (guint i = 0; i < j->bw_samples->len; i++) {
		uint64_t kib = g_array_index(j->bw_samples, uint64_t, i);

		wbsim_rstat_add(bw, kib);
		if (bs)
			wbsim_rstat_add(iops, kib * 1024 / bs);
	}
}

static void ts_free(gpointer p)
{
	struct wbsim_report_ts *ts = p;

	wbsim_lat_hist_clear(&ts->clat);
	wbsim_lat_hist_clear(&ts->sync_lat);
	g_free(ts);
}

static void ts_add_job(struct wbsim_report_ts *ts, const struct wbsim_job_result *j)
{
	struct wbsim_rstat bw, iops;
	uint64_t runtime_ms = j->runtime_ns / 1000000;

	ts->members++;
	/* fio's group: the first member's error that is set */
	if (!ts->error)
		ts->error = j->error;
	ts->io_bytes += j->io_bytes;
	ts->total_ios += j->total_ios;
	if (runtime_ms > ts->runtime_ms)
		ts->runtime_ms = runtime_ms;
	ts->total_run_ms += runtime_ms;
	ts->cpu_ns += j->cpu_ns;
	ts->ctx += j->nvcsw + j->nivcsw;
	wbsim_report_lat_hist_merge(&ts->clat, &j->clat);
	wbsim_report_lat_hist_merge(&ts->sync_lat, &j->sync_lat);
	/* fdatasync=N syncs with fdatasync(2) unless fsync=N is set too */
	if (j->fio && !j->fio->fsync && j->fio->fdatasync)
		ts->datasyncs += j->sync_lat.n;
	job_sample_stats(j, &bw, &iops);
	wbsim_rstat_sum(&ts->bw, &bw);
	wbsim_rstat_sum(&ts->iops, &iops);
	depths_sum(&ts->depths, &j->depths);
}

static struct wbsim_report_group *get_group(GPtrArray *groups, unsigned int id,
					    unsigned int kb_base)
{
	struct wbsim_report_group *g;

	for (guint i = 0; i < groups->len; i++) {
		g = groups->pdata[i];
		if (g->groupid == id)
			return g;
	}
	g = g_new0(struct wbsim_report_group, 1);
	g->groupid = id;
	g->kb_base = kb_base;
	g->min_bw = UINT64_MAX;
	g_ptr_array_add(groups, g);
	return g;
}

static gint group_cmp(gconstpointer a, gconstpointer b)
{
	const struct wbsim_report_group *ga = *(struct wbsim_report_group *const *)a;
	const struct wbsim_report_group *gb = *(struct wbsim_report_group *const *)b;

	return ga->groupid < gb->groupid ? -1 : ga->groupid > gb->groupid;
}

/**
 * wbsim_report_stats_new() - fio's entries and groups for a run
 * @r: the run
 *
 * Return: the statistics, to free with wbsim_report_stats_free().
 */
struct wbsim_report_stats *wbsim_report_stats_new(const struct wbsim_run_result *r)
{
	struct wbsim_report_stats *st = g_new0(struct wbsim_report_stats, 1);
	struct wbsim_report_ts *ts = NULL;

	st->ts = g_ptr_array_new_with_free_func(ts_free);
	st->groups = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; r->jobs && i < r->jobs->len; i++) {
		const struct wbsim_job_result *j = r->jobs->pdata[i];
		unsigned int gid = j->fio ? j->fio->group_id : 0;
		gboolean grouped = j->fio && j->fio->group_reporting;

		if (!ts || !grouped || ts->groupid != gid) {
			ts = g_new0(struct wbsim_report_ts, 1);
			ts->first = j;
			ts->first_index = i;
			ts->groupid = gid;
			ts->kb_base = j->fio && j->fio->kb_base ? j->fio->kb_base : 1024;
			ts->iodepth = j->fio && j->fio->iodepth ? j->fio->iodepth : 1;
			g_ptr_array_add(st->ts, ts);
		}
		ts_add_job(ts, j);
	}

	for (guint i = 0; i < st->ts->len; i++) {
		struct wbsim_report_group *g;
		uint64_t bw;

		ts = st->ts->pdata[i];
		ts_calc_lat_ranges(ts);
		ts_calc_depths(ts);
		g = get_group(st->groups, ts->groupid, ts->kb_base);
		/* fio: the group takes the kb_base of its last entry */
		g->kb_base = ts->kb_base;
		if (!ts->runtime_ms)
			continue;
		if (!g->min_run || ts->runtime_ms < g->min_run)
			g->min_run = ts->runtime_ms;
		if (ts->runtime_ms > g->max_run)
			g->max_run = ts->runtime_ms;
		bw = ts->io_bytes * 1000 / ts->runtime_ms;
		if (bw < g->min_bw)
			g->min_bw = bw;
		if (bw > g->max_bw)
			g->max_bw = bw;
		g->iobytes += ts->io_bytes;
	}
	g_ptr_array_sort(st->groups, group_cmp);
	for (guint i = 0; i < st->groups->len; i++) {
		struct wbsim_report_group *g = st->groups->pdata[i];

		if (g->max_run)
			g->agg = g->iobytes * 1000 / g->max_run;
	}
	return st;
}

/**
 * wbsim_report_stats_group() - the group with id @groupid
 * @st: the statistics
 * @groupid: fio's group id
 *
 * Return: the group, or NULL.
 */
const struct wbsim_report_group *
wbsim_report_stats_group(const struct wbsim_report_stats *st, unsigned int groupid)
{
	for (guint i = 0; i < st->groups->len; i++) {
		const struct wbsim_report_group *g = st->groups->pdata[i];

		if (g->groupid == groupid)
			return g;
	}
	return NULL;
}

/** wbsim_report_stats_free() - free what wbsim_report_stats_new() made */
void wbsim_report_stats_free(struct wbsim_report_stats *st)
{
	if (!st)
		return;
	g_ptr_array_unref(st->ts);
	g_ptr_array_unref(st->groups);
	g_free(st);
}
