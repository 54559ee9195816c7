/* SPDX-License-Identifier: MIT */
/*
 * series.c - the time series of a run (--series, the API's sample
 * callback): its columns, bound at the start of the run, and the sampler
 * that takes a row every [run] series_interval, reports the progress and
 * stops a run that would not end.
 */
#include <wbsim/error.h>
#include "run/run-private.h"
#include "run/events.h"
#include "fio/job.h"
#include "mm/dirty-limits.h"
#include "block/blk.h"
#include "core/sim.h"

/*
 * The series is a table of columns {name, getter}: wbsim_run_series_columns() binds
 * the columns of this run (one per wb context, per job, per memcg path) at
 * the start, wbsim_run_sample() calls each getter once per row. What several
 * columns read is computed once per row, in struct sample_state.
 */
struct sample_state {
	struct wbsim_run *run;
	wbsim_time_t now;
	uint64_t bg, thresh, freerun, limit;
	struct wbsim_blk_stats dev;
	/* per cg_paths entry: the dirty pages of its memcgs, of their live
	 * wbs and of their dying wbs */
	uint64_t *memcg_pages;
};

struct series_def {
	const char *name;	/* per-wb, per-job and per-memcg: the name's end */
	double (*get)(const struct sample_state *s, unsigned int i);
};

/* a column of this run: its definition and its wb, job or memcg path index */
struct series_col {
	const struct series_def *def;
	unsigned int i;
};

static double col_time(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->now / 1e9;
}

static double col_dirty(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->run->m.vm.nr_file_dirty;
}

static double col_writeback(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->run->m.vm.nr_writeback;
}

static double col_bg_thresh(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->bg;
}

static double col_thresh(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->thresh;
}

static double col_setpoint(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)((s->freerun + s->limit) / 2);
}

static double col_limit(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->limit;
}

/* wb context @i, or NULL when the bdi has fewer contexts now ([events]
 * contexts changes their number) */
static const struct wbsim_wb *sample_wb(const struct sample_state *s, unsigned int i)
{
	const struct wbsim_bdi *bdi = &s->run->m.bdi;

	return i < bdi->nr_wb_ctx ? bdi->wb_ctx[i] : NULL;
}

static double col_wb_dirty(const struct sample_state *s, unsigned int i)
{
	const struct wbsim_wb *wb = sample_wb(s, i);

	return wb ? (double)(wb->stat_reclaimable + wb->stat_writeback) : 0;
}

static double col_wb_written(const struct sample_state *s, unsigned int i)
{
	const struct wbsim_wb *wb = sample_wb(s, i);

	return wb ? (double)wb->stat_written : 0;
}

static double col_wb_bw(const struct sample_state *s, unsigned int i)
{
	const struct wbsim_wb *wb = sample_wb(s, i);

	return wb ? (double)wbsim_kbps(wb->bw.avg_write_bandwidth) : 0;
}

static double col_wb_ratelimit(const struct sample_state *s, unsigned int i)
{
	const struct wbsim_wb *wb = sample_wb(s, i);

	return wb ? (double)wbsim_kbps(wb->bw.dirty_ratelimit) : 0;
}

static double col_job_bytes(const struct sample_state *s, unsigned int i)
{
	return (double)s->run->jobs[i].bytes_done;
}

static double col_job_paused(const struct sample_state *s, unsigned int i)
{
	return s->run->jobs[i].dirtier.paused_ns / 1e6;
}

/* paced jobs: lag behind the rate schedule (wbsim_job_lag()) */
static double col_job_lag(const struct sample_state *s, unsigned int i)
{
	return wbsim_job_lag(&s->run->jobs[i], s->now) / 1e6;
}

static double col_bdi_bw(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)wbsim_kbps(s->run->m.bdi.dirty.tot_write_bandwidth);
}

static double col_memcg_dirty(const struct sample_state *s, unsigned int i)
{
	return (double)s->memcg_pages[3 * i];
}

static double col_memcg_wb_dirty(const struct sample_state *s, unsigned int i)
{
	return (double)s->memcg_pages[3 * i + 1];
}

static double col_memcg_dying_wb_dirty(const struct sample_state *s, unsigned int i)
{
	return (double)s->memcg_pages[3 * i + 2];
}

static double col_dev_in_flight(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)wbsim_blk_queue_in_flight(s->run->m.bdi.queue);
}

static double col_dev_bytes(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->dev.bytes;
}

static double col_dev_requests(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->dev.requests;
}

static double col_dev_merges(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->dev.merges;
}

static double col_dev_seeks(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return (double)s->dev.seeks;
}

static double col_dev_seek_ms(const struct sample_state *s, unsigned int i)
{
	(void)i;
	return s->dev.seek_ns / 1e6;
}

static const struct series_def global_cols[] = {
	{ "time_s", col_time },
	{ "dirty_pages", col_dirty },
	{ "writeback_pages", col_writeback },
	{ "bg_thresh_pages", col_bg_thresh },
	{ "thresh_pages", col_thresh },
	{ "setpoint_pages", col_setpoint },
	{ "limit_pages", col_limit },
};
/* per wb context, "wb%u_" + name */
static const struct series_def wb_cols[] = {
	{ "dirty_pages", col_wb_dirty },
	{ "written_pages", col_wb_written },
	{ "avg_write_bw_kib_s", col_wb_bw },
	{ "dirty_ratelimit_kib_s", col_wb_ratelimit },
};
/* per job, "job%u_" + name; the lag only for a paced job */
static const struct series_def job_cols[] = {
	{ "bytes", col_job_bytes },
	{ "paused_ms", col_job_paused },
};
static const struct series_def job_lag_col = { "lag_ms", col_job_lag };
/* cgroup writeback: the bdi's total write bandwidth, and per memcg path
 * (fixed at the start: every path the scenario names) "memcg:PATH:" + name */
static const struct series_def bdi_bw_col = { "bdi_write_bw_kib_s", col_bdi_bw };
static const struct series_def memcg_cols[] = {
	{ "dirty_pages", col_memcg_dirty },
	{ "wb_dirty_pages", col_memcg_wb_dirty },
	{ "dying_wb_dirty_pages", col_memcg_dying_wb_dirty },
};
static const struct series_def device_cols[] = {
	{ "device_in_flight_requests", col_dev_in_flight },
	{ "device_bytes", col_dev_bytes },
	{ "device_requests", col_dev_requests },
	{ "device_merges", col_dev_merges },
	{ "device_seeks", col_dev_seeks },
	{ "device_seek_ms", col_dev_seek_ms },
};

/* Add the column @def (index @i) named @name (taken). */
static void series_add(struct wbsim_run *run, const struct series_def *def, unsigned int i,
		       char *name)
{
	struct series_col col = { def, i };

	g_array_append_val(run->series, col);
	g_ptr_array_add(run->result->series.columns, name);
}

/*
 * The most wb contexts the bdi has during the run: its contexts at the
 * start and those every [events] contexts sets (the columns are fixed at
 * the start; a context that does not exist at a sample reads 0).
 */
static unsigned int series_nr_contexts(const struct wbsim_run *run)
{
	unsigned int nr = run->m.bdi.nr_wb_ctx;

	for (guint i = 0; run->cfg->events && i < run->cfg->events->len; i++) {
		const struct wbsim_config_event_line *line =
			wbsim_config_event_line(run->cfg->events->pdata[i]);

		if (line->action->flags & WBSIM_EVENT_CONTEXTS)
			nr = MAX(nr, wbsim_contexts_event_nr(line->args));
	}
	return nr;
}

void wbsim_run_series_columns(struct wbsim_run *run)
{
	run->series = g_array_new(FALSE, FALSE, sizeof(struct series_col));
	unsigned int nr_ctx = series_nr_contexts(run);

	for (size_t c = 0; c < G_N_ELEMENTS(global_cols); c++)
		series_add(run, &global_cols[c], 0, g_strdup(global_cols[c].name));
	for (unsigned int i = 0; i < nr_ctx; i++)
		for (size_t c = 0; c < G_N_ELEMENTS(wb_cols); c++)
			series_add(run, &wb_cols[c], i, g_strdup_printf("wb%u_%s", i, wb_cols[c].name));
	for (unsigned int i = 0; i < run->nr_jobs; i++) {
		for (size_t c = 0; c < G_N_ELEMENTS(job_cols); c++)
			series_add(run, &job_cols[c], i, g_strdup_printf("job%u_%s", i, job_cols[c].name));
		if (run->jobs[i].fio->rate[WBSIM_FIO_DDIR_WRITE])
			series_add(run, &job_lag_col, i, g_strdup_printf("job%u_%s", i, job_lag_col.name));
	}
	if (run->m.cgroups) {
		series_add(run, &bdi_bw_col, 0, g_strdup(bdi_bw_col.name));
		for (guint k = 0; k < run->cg_paths->len; k++)
			for (size_t c = 0; c < G_N_ELEMENTS(memcg_cols); c++)
				series_add(run, &memcg_cols[c], k,
					   g_strdup_printf("memcg:%s:%s", (const char *)run->cg_paths->pdata[k],
							   memcg_cols[c].name));
	}
	for (size_t c = 0; c < G_N_ELEMENTS(device_cols); c++)
		series_add(run, &device_cols[c], 0, g_strdup(device_cols[c].name));
}

/* The index of @mc's path in cg_paths, or G_MAXUINT (looked up once per memcg). */
static guint memcg_column(struct wbsim_run *run, const struct wbsim_memcg *mc)
{
	gpointer key = GUINT_TO_POINTER(mc->id + 1);
	guint col = GPOINTER_TO_UINT(g_hash_table_lookup(run->memcg_col, key));

	if (!col) {
		col = GPOINTER_TO_UINT(g_hash_table_lookup(run->cg_index, mc->path));
		col = col ? col : G_MAXUINT;
		g_hash_table_insert(run->memcg_col, key, GUINT_TO_POINTER(col));
	}
	return col == G_MAXUINT ? G_MAXUINT : col - 1;
}

/* wbsim_run_options.progress_fn at a sample */
static void report_progress(struct wbsim_run *run)
{
	struct wbsim_run_progress p = { .now = wbsim_sim_now(run->m.sim) };
	double sum = 0;

	for (unsigned int i = 0; i < run->nr_jobs; i++) {
		const struct wbsim_job *job = &run->jobs[i];

		sum += wbsim_job_progress(job, p.now);
		p.jobs_running += job->state == JOB_RUNNING;
		p.bytes += job->bytes_done;
	}
	p.fraction = run->nr_jobs ? sum / run->nr_jobs : 0;
	if (run->cfg->time_limit)
		p.fraction = MAX(p.fraction, MIN(1.0, (double)p.now / (double)run->cfg->time_limit));
	run->opts.progress_fn(run->opts.hook_arg, &p);
}

/* The dirty pages of every memcg path's memcgs, live wbs and dying wbs. */
static void sample_memcg_pages(struct wbsim_run *run, uint64_t *sum)
{
	struct wbsim_machine *m = &run->m;
	struct wbsim_bdi *bdi = &m->bdi;

	/* every memcg that had a path (a removed one and its successor
	 * are different memcgs), in one pass; then the wbs */
	for (guint j = 0; j < m->vm.memcgs.all->len; j++) {
		const struct wbsim_memcg *mc = m->vm.memcgs.all->pdata[j];
		guint k = memcg_column(run, mc);

		if (k != G_MAXUINT)
			sum[3 * k] += mc->nr_file_dirty;
	}
	for (guint j = 0; bdi->wb_list && j < bdi->wb_list->len; j++) {
		const struct wbsim_wb *wb = bdi->wb_list->pdata[j];
		guint k = wb->memcg ? memcg_column(run, wb->memcg) : G_MAXUINT;

		if (k == G_MAXUINT)
			continue;
		sum[3 * k + (wb->dying ? 2 : 1)] += wb->stat_reclaimable;
	}
}

void wbsim_run_sample(wbsim_sim *sim, void *arg)
{
	struct wbsim_run *run = arg;
	struct wbsim_machine *m = &run->m;
	GArray *v = run->result->series.values;
	struct sample_state st = { .run = run, .now = wbsim_sim_now(sim) };
	g_autofree uint64_t *memcg_pages = NULL;

	wbsim_global_dirty_limits(&m->vm, &st.bg, &st.thresh);
	st.freerun = wbsim_dirty_freerun_ceiling(st.thresh, st.bg);
	st.limit = wbsim_hard_dirty_limit(&m->vm.dom, st.thresh);
	wbsim_blk_queue_get_stats(m->bdi.queue, &st.dev);
	if (run->m.cgroups) {
		memcg_pages = g_new0(uint64_t, 3 * (gsize)run->cg_paths->len);
		sample_memcg_pages(run, memcg_pages);
		st.memcg_pages = memcg_pages;
	}
	for (guint c = 0; c < run->series->len; c++) {
		const struct series_col *col = &g_array_index(run->series, struct series_col, c);
		double x = col->def->get(&st, col->i);

		g_array_append_val(v, x);
	}
	if (run->opts.sample_fn) {	/* public API: the row just added */
		GPtrArray *c = run->result->series.columns;

		run->opts.sample_fn(run->opts.hook_arg, wbsim_sim_now(sim),
				    (const char *const *)c->pdata,
				    &g_array_index(v, double, v->len - c->len), c->len);
	}
	if (run->opts.progress_fn)
		report_progress(run);
	if (run->opts.series_streamed)
		g_array_set_size(v, 0);
	/*
	 * A run without a time limit that does not end (1 MiB on a device of
	 * 1 B/s) would sample, and grow, for ever: it stops, said as asked.
	 */
	if (++run->nr_samples >= WBSIM_RUN_MAX_SAMPLES && !run->failure) {
		g_autofree char *iv = wbsim_format_time(run->cfg->series_interval);

		run->failure = g_error_new(WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
					   "the run reached %.0f simulated seconds (%u samples of [run] series_interval = %s) "
					   "without ending: expected a run that ends sooner (set [run] time_limit, or a longer series_interval)",
					   wbsim_sim_now(sim) / 1e9, (unsigned int)WBSIM_RUN_MAX_SAMPLES, iv);
		wbsim_sim_stop(sim);
		return;
	}
	if (!run->workload_done || run->pending_events)
		wbsim_timer_arm(sim, &run->sampler, wbsim_sim_now(sim) + run->cfg->series_interval);
}

