/* SPDX-License-Identifier: MIT */
/*
 * run.c - run a scenario: build the simulated machine it describes
 * (lib/machine), run its fio jobs and timed events, sample the time
 * series, check invariants, and gather the results.
 */
#include <string.h>
#include <wbsim/error.h>
#include <wbsim/scenario.h>
#include <wbsim/affinity.h>
#include "run/run-private.h"
#include "run/events.h"
#include "fio/job.h"
#include "fs/bdi.h"
#include "fs/fs-writeback.h"
#include "mm/page-writeback.h"
#include "fs/wb-ctx-change.h"
#include "scenario/config-private.h"
#include "mm/dirty-limits.h"
#include "report/trace.h"
#include "report/trace-dat.h"
#include "core/sim-private.h"
#include "block/blk.h"
#include "fs/alloc/fs-private.h"
#include "fs/cgroup-writeback.h"
#include "core/cpu-costs.h"
#include "core/sim.h"
#include "fs/alloc/fs.h"

/* ------------------------------------------------------------------------ */
/* The machine                                                              */

static struct wbsim_setting *settings_of(GPtrArray *params, size_t *n)
{
	struct wbsim_setting *s = g_new0(struct wbsim_setting, params ? params->len + 1 : 1);

	*n = 0;
	for (guint i = 0; params && i < params->len; i++) {
		const struct wbsim_config_override *o = params->pdata[i];

		s[i] = (struct wbsim_setting){ o->key, o->value, o->file, o->line };
		(*n)++;
	}
	return s;
}

static char *config_where(const void *cfg, const char *section, const char *key)
{
	return wbsim_config_key_where(cfg, section, key);
}

/* The machine of the scenario's [machine], [costs], [vm], [device],
 * [filesystem] and [writeback] (lib/machine/machine.c). */
static gboolean machine_build(struct wbsim_run *run, GError **error)
{
	const struct wbsim_config *cfg = run->cfg;
	struct wbsim_cpu_costs costs;
	g_autofree struct wbsim_setting *dev_set = NULL;
	g_autoptr(GArray) fs_set = NULL;
	struct wbsim_machine_spec spec = {
		.seed = cfg->seed,
		.cpus = (unsigned int)cfg->cpus,
		.cpu_speed = (unsigned int)cfg->cpu_speed,
		.idle_exit_latency = cfg->idle_exit_latency,
		.idle_poll_window = cfg->idle_poll_window,
		.idle_poll_latency = cfg->idle_poll_latency,
		.hz = (unsigned int)cfg->hz,
		.memory = cfg->memory,
		.memmap = cfg->memmap,
		.costs = &costs,
		.device_preset = cfg->device_preset,
		.fs_type = cfg->fs_type,
		.knobs = &cfg->knobs,
		.where = config_where,
		.where_arg = cfg,
	};

	if (!wbsim_config_costs_apply(cfg, &costs, error))
		return FALSE;
	dev_set = settings_of(cfg->device_params, &spec.n_dev);
	spec.dev_set = dev_set;
	fs_set = wbsim_config_fs_settings(cfg);
	spec.fs_set = (const struct wbsim_setting *)fs_set->data;
	spec.n_fs = fs_set->len;
	return wbsim_machine_build(&run->m, &spec, error);
}

/* ------------------------------------------------------------------------ */
/* Jobs and groups                                                          */

static void start_group(struct wbsim_run *run);
static void schedule_after_jobs(struct wbsim_run *run);

static void job_done(struct wbsim_job *job, void *arg)
{
	struct wbsim_run *run = arg;
	bool group_over = true;

	if (run->opts.job_end_fn)	/* public API measurement point */
		run->opts.job_end_fn(run->opts.hook_arg, wbsim_sim_now(run->m.sim),
				     (unsigned int)(job - run->jobs), job->fio->name);
	run->jobs_done++;
	wbsim_run_events_job_done(run);
	for (unsigned int i = 0; i < run->nr_jobs; i++)
		if (run->jobs[i].fio->group_id == run->cur_group && run->jobs[i].state != JOB_DONE)
			group_over = false;
	if (!group_over)
		return;
	if (run->jobs_done == run->nr_jobs) {
		run->workload_done = true;
		schedule_after_jobs(run);
		wbsim_run_maybe_finish(run);
		return;
	}
	run->cur_group++;
	start_group(run);
}

/* Start every job of the current reporting group (a stonewall waits for
 * all earlier jobs: groups run one after the other). */
static void start_group(struct wbsim_run *run)
{
	bool any = false;

	while (!any) {
		for (unsigned int i = 0; i < run->nr_jobs; i++) {
			if (run->jobs[i].fio->group_id == run->cur_group) {
				wbsim_job_start(&run->jobs[i], job_done, run);
				any = true;
			}
		}
		if (!any)
			run->cur_group++;
	}
}

/* The memcg paths a scenario uses, in first-use order (time-series
 * columns): its cgroup events' paths and their parents, then fio's
 * cgroup= names. */
static void collect_cgroup_paths(struct wbsim_run *run, const struct wbsim_fio_file *fio)
{
	const GPtrArray *evs = run->cfg->events;
	GPtrArray *paths = run->cg_paths;

	for (guint i = 0; i <= (evs ? evs->len : 0) + fio->jobs->len; i++) {
		g_autofree char *path = NULL;

		if (evs && i < evs->len) {
			const struct wbsim_config_event *ev = evs->pdata[i];

			const struct wbsim_config_event_line *line = wbsim_config_event_line(ev);
			const struct wbsim_cgroup_event *cg = line->args;

			if (!(line->action->flags & WBSIM_EVENT_CGROUP))
				continue;
			path = g_strdup(cg->path);
		} else if (i - (evs ? evs->len : 0) < fio->jobs->len) {
			const struct wbsim_fio_job *job = fio->jobs->pdata[i - (evs ? evs->len : 0)];
			const char *c = job->cgroup;

			if (!c)
				continue;
			while (*c == '/')
				c++;
			path = g_strconcat("/", c, NULL);
		} else {
			break;
		}
		run->m.cgroups = true;
		/* the parents first, as mkdir -p creates them */
		for (char *p = path + 1; ; p++) {
			if (*p == '/' || !*p) {
				char save = *p;
				bool known = false;

				*p = '\0';
				known = g_hash_table_contains(run->cg_index, path);
				if (!known && strcmp(path, "/") != 0) {
					g_ptr_array_add(paths, g_strdup(path));
					g_hash_table_insert(run->cg_index, paths->pdata[paths->len - 1],
							    GUINT_TO_POINTER(paths->len));
				}
				*p = save;
				if (!save)
					break;
			}
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Extent counts at the [measure] moments                                   */

/* What filefrag -v prints for every file, now, recorded under @moment:
 * the count and the records' lengths. */
static void count_extents(struct wbsim_run *run, const char *moment)
{
	struct wbsim_machine *m = &run->m;
	g_autoptr(GArray) lengths = g_array_new(FALSE, FALSE, sizeof(uint64_t));

	for (guint i = 0; i < m->inodes->len; i++) {
		struct wbsim_inode *inode = m->inodes->pdata[i];
		struct wbsim_extent_result *er = g_new0(struct wbsim_extent_result, 1);

		er->moment = g_strdup(moment);
		er->path = g_strdup(inode->name);
		g_array_set_size(lengths, 0);
		er->filefrag = wbsim_fs_filefrag_verbose(m->fs, inode->fs_inode, lengths);
		wbsim_extent_lengths_set(er, lengths);
		er->nextents = wbsim_fs_nr_extents(m->fs, inode->fs_inode);
		er->line = wbsim_fs_filefrag_format(inode->name, er->filefrag);
		er->written_by = inode->written_by;
		g_ptr_array_add(run->result->extents, er);
	}
}

/* Is @kind among the [measure] extents moments? */
static bool measures(const struct wbsim_run *run, unsigned int kind)
{
	const GPtrArray *list = run->cfg->measure_extents;

	for (guint i = 0; list && i < list->len; i++)
		if (((const struct wbsim_config_moment *)list->pdata[i])->kind == kind)
			return true;
	return false;
}

struct measure_point {
	struct wbsim_run *run;
	const struct wbsim_config_moment *mo;
};

/*
 * filefrag (e2fsprogs 1.47, as lab/run-kernel runs it, without -s) asks
 * FIEMAP with fm_flags 0, not FIEMAP_FLAG_SYNC (strace: "fm_flags=0"), so
 * nothing is written back first: pages still dirty show as delayed
 * allocation (DELALLOC records at physical 0, each counted apart), and the
 * count is taken at the moment itself.
 */
static void measure_fire(wbsim_sim *sim, void *arg)
{
	struct measure_point *mp = arg;
	struct wbsim_run *run = mp->run;
	const char *moment = mp->mo->name;

	(void)sim;
	g_ptr_array_remove_fast(run->live_measure, mp);	/* frees it */
	run->pending_events--;
	count_extents(run, moment);
	wbsim_run_maybe_finish(run);
}

/* The last fio job exited: schedule the after-jobs[+TIME] counts. */
static void schedule_after_jobs(struct wbsim_run *run)
{
	const GPtrArray *list = run->cfg->measure_extents;

	for (guint i = 0; list && i < list->len; i++) {
		const struct wbsim_config_moment *mo = list->pdata[i];
		struct measure_point *mp;

		if (mo->kind != WBSIM_MOMENT_AFTER_JOBS)
			continue;
		mp = g_new0(struct measure_point, 1);
		g_ptr_array_add(run->live_measure, mp);
		mp->run = run;
		mp->mo = mo;
		run->pending_events++;
		wbsim_sim_schedule_at(run->m.sim, wbsim_sim_now(run->m.sim) + mo->delay,
				      measure_fire, mp);
	}
}

/* After the remount writeback: unmount and mount, then count. */
static void remount_then_count(struct wbsim_run *run, const char *moment)
{
	g_autoptr(GError) err = NULL;

	if (!wbsim_fs_remount(run->m.fs, &err)) {
		if (!run->failure)
			run->failure = g_steal_pointer(&err);
		wbsim_sim_stop(run->m.sim);
		return;
	}
	count_extents(run, moment);
}

/*
 * Stop when the workload and every timed event and measurement are over; a
 * remount measurement comes last: write everything back as umount does
 * (sync_inodes_sb with WB_SYNC_ALL, then wait for the writeback), remount,
 * count.
 */
void wbsim_run_maybe_finish(struct wbsim_run *run)
{
	if (!run->workload_done || run->pending_events)
		return;
	if (run->remount_started || !measures(run, WBSIM_MOMENT_REMOUNT)) {
		wbsim_sim_stop(run->m.sim);
		return;
	}
	run->remount_started = true;
	wbsim_run_sync_then(run, "remount", true, remount_then_count, "remount");
}

/* Moments a run stopped by [run] time_limit (or interrupted) never reached. */
static void note_unreached_moments(struct wbsim_run *run)
{
	const GPtrArray *list = run->cfg->measure_extents;

	for (guint i = 0; list && i < list->len; i++) {
		const struct wbsim_config_moment *mo = list->pdata[i];
		bool found = false;

		if (mo->kind == WBSIM_MOMENT_END)
			continue;
		for (guint j = 0; j < run->result->extents->len && !found; j++) {
			const struct wbsim_extent_result *er = run->result->extents->pdata[j];

			found = strcmp(er->moment, mo->name) == 0;
		}
		/* a run without files has nothing to count at any moment */
		if (!found && run->m.inodes->len)
			g_ptr_array_add(run->m.warnings,
					g_strdup_printf("[measure] extents = %s: the run stopped "
							"(%s) before that moment", mo->name,
							run->result->interrupted ? "interrupted"
										 : "time_limit"));
	}
}

/* ------------------------------------------------------------------------ */
/* Time series                                                              */

/*
 * The series is a table of columns {name, getter}: series_columns() binds
 * the columns of this run (one per wb context, per job, per memcg path) at
 * the start, sample() calls each getter once per row. What several
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

static void series_columns(struct wbsim_run *run)
{
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

static void sample(wbsim_sim *sim, void *arg)
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

/* ------------------------------------------------------------------------ */
/* Invariants (--check)                                                     */

static void check_fail(struct wbsim_run *run, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void check_fail(struct wbsim_run *run, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	if (run->failure)
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	run->failure = g_error_new(WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
				   "invariant violated at %.9f s (event %" G_GUINT64_FORMAT "): %s",
				   wbsim_sim_now(run->m.sim) / 1e9,
				   wbsim_sim_events_processed(run->m.sim), msg);
	wbsim_sim_stop(run->m.sim);
}

/*
 * The model's invariants (wbsim_bdi_check(), wbsim_vm_check()), time that
 * never ran backwards, and the request queue's. The cgroup writeback check
 * walks every page of every file, so a model with many files or many
 * charged pages takes it every 4096th event only (and at the end).
 */
static void check_invariants(struct wbsim_run *run)
{
	struct wbsim_machine *m = &run->m;
	bool deep = run->m.cgroups && ((m->inodes->len <= 64 && m->vm.memcgs.root->nr_file <= 16384) ||
				     run->final_check ||
				     (wbsim_sim_events_processed(m->sim) & 4095) == 0);
	g_autoptr(GError) e = NULL;
	g_autofree char *why = NULL;

	run->checks++;
	if (!wbsim_bdi_check(&m->bdi, run->m.cgroups, deep, &e) || !wbsim_vm_check(&m->vm, &e))
		check_fail(run, "%s", e->message);
	else if (wbsim_sim_past_schedules(m->sim))
		check_fail(run, "an event was scheduled in the past");
	else if (!wbsim_blk_queue_check(m->bdi.queue, &why))
		check_fail(run, "request queue: %s", why);
}

static void after_event_check(wbsim_sim *sim, void *arg)
{
	struct wbsim_run *run = arg;

	/* Every event while the model is small; every 256th when not. */
	if (run->m.inodes->len <= 64 || (wbsim_sim_events_processed(sim) & 255) == 0)
		check_invariants(run);
}

/* ------------------------------------------------------------------------ */
/* Results                                                                  */

/* Cgroup writeback: every wb (dying ones too), every memcg, switches. */
static void collect_cgroups(struct wbsim_run *run)
{
	struct wbsim_run_result *r = run->result;
	struct wbsim_machine *m = &run->m;
	struct wbsim_bdi *bdi = &m->bdi;

	r->cgroups = true;
	r->dying_wb_reachable = bdi->dying_wb_reachable;
	r->isw_done = bdi->isw_done;
	r->isw_skipped = bdi->isw_skipped;
	r->tot_write_bandwidth = bdi->dirty.tot_write_bandwidth;
	for (guint i = 0; bdi->wb_list && i < bdi->wb_list->len; i++) {
		const struct wbsim_wb *wb = bdi->wb_list->pdata[i];
		struct wbsim_cgwb_result *cr = g_new0(struct wbsim_cgwb_result, 1);

		cr->ctx = wb->ctx;
		cr->memcg = g_strdup(wb->memcg ? wb->memcg->path : "/");
		cr->cgroup_ino = wbsim_memcg_ino(wb->memcg);
		cr->dying = wb->dying;
		cr->dirty = wb->stat_reclaimable;
		cr->writeback = wb->stat_writeback;
		cr->avg_write_bandwidth = wb->bw.avg_write_bandwidth;
		cr->pages_written = wb->pages_written;
		cr->switched_in = wb->switched_in;
		cr->switched_out = wb->switched_out;
		cr->foreign_works = wb->foreign_works;
		g_ptr_array_add(r->cgwbs, cr);
	}
	for (guint i = 0; i < m->vm.memcgs.all->len; i++) {
		const struct wbsim_memcg *mc = m->vm.memcgs.all->pdata[i];
		struct wbsim_memcg_result *mr = g_new0(struct wbsim_memcg_result, 1);

		mr->path = g_strdup(mc->path);
		mr->ino = wbsim_memcg_ino(mc);
		mr->online = mc->online;
		mr->nr_file_dirty = mc->nr_file_dirty;
		mr->nr_writeback = mc->nr_writeback;
		mr->nr_file = mc->nr_file;
		mr->frn_flushes = mc->frn_flushes;
		mr->frn_flush_failures = mc->frn_flush_failures;
		g_ptr_array_add(r->memcgs, mr);
	}
}

/*
 * "FILE:LINE: job 'NAME': KEY=VALUE" of the line that set @key for @fio:
 * its own section's, else the last [global] line before the section in
 * the same file, else the section's (wbsim_fio_job_option_where()).
 */
static char *job_key_where(const struct wbsim_run *run, const struct wbsim_fio_job *fio,
			   const char *key, const char *val)
{
	const struct wbsim_fio_file *ff = wbsim_scenario_fio(run->scn);
	const struct wbsim_fio_option *g = NULL;

	for (guint i = 0; fio->options && i < fio->options->len; i++)
		if (strcmp(((const struct wbsim_fio_option *)fio->options->pdata[i])->name, key) == 0)
			return wbsim_fio_job_option_where(fio, key, val);
	for (guint i = 0; ff && ff->global_options && i < ff->global_options->len; i++) {
		const struct wbsim_fio_option *o = ff->global_options->pdata[i];

		if (strcmp(o->name, key) == 0 && strcmp(o->file, fio->file) == 0 &&
		    o->line < fio->line)
			g = o;
	}
	if (g)
		return g_strdup_printf("%s:%u: job '%s': %s=%s", g->file, g->line, fio->name, key,
				       g->value ? g->value : "");
	return wbsim_fio_job_option_where(fio, key, val);
}

/*
 * fio's write_bw_log, write_lat_log, write_iops_log of @job: written
 * through the run's io_log_fn, each checked first by its io_log_open_fn
 * (FALSE and @error naming the option's line when one cannot be written);
 * without one (a sweep point, a library caller that gave none) the report
 * says they were not written. The rows of per_job_logs=0 logs wait in the
 * run's log spool, made here for the first.
 */
static gboolean setup_job_logs(struct wbsim_run *run, struct wbsim_job *job, GError **error)
{
	const struct wbsim_fio_job *fio = job->fio;
	enum wbsim_io_log_type refused;
	int e;

	if (!fio->write_bw_log && !fio->write_lat_log && !fio->write_iops_log)
		return TRUE;
	if (!run->opts.io_log_fn) {
		g_ptr_array_add(run->m.warnings,
				g_strdup_printf("%s:%u: job '%s': its fio logs (write_bw_log, write_lat_log, "
						"write_iops_log) are not written: a single sim-writeback "
						"run writes them, a sweep point does not",
						fio->file, fio->line, fio->name));
		return TRUE;
	}
	/* fio's thread_number: 1-based, clones counted */
	wbsim_job_logs_init(&job->logs, fio, job->index + 1, run->opts.io_log_fn,
			    run->opts.io_log_arg);
	e = wbsim_job_logs_open(&job->logs, run->opts.io_log_open_fn, &refused);
	if (e) {
		const char *key = wbsim_job_logs_option(refused);
		const char *val = refused == WBSIM_IO_LOG_BW ? fio->write_bw_log :
				  refused == WBSIM_IO_LOG_IOPS ? fio->write_iops_log :
								 fio->write_lat_log;
		g_autofree char *where = job_key_where(run, fio, key, val);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
			    "%s: cannot write the log %s: %s: expected a path where a file can be "
			    "written (an existing, writable directory)",
			    where, job->logs.log[refused]->name, g_strerror(e));
		return FALSE;
	}
	if (!fio->per_job_logs && !run->log_spool &&
	    !(run->log_spool = wbsim_spool_new(run->opts.temp_dir, error))) {
		g_prefix_error(error, "%s:%u: job '%s': per_job_logs=0: the rows of its logs wait "
			       "until the job ends in a temporary file: ", fio->file, fio->line,
			       fio->name);
		return FALSE;
	}
	job->logs.spool = run->log_spool;
	/* fio: a bandwidth log of a row per I/O makes bw_avg_time 0, and the
	 * report's bandwidth statistics per-I/O too */
	if (fio->write_bw_log && !fio->log_avg_msec && !fio->bwavgtime)
		g_ptr_array_add(run->m.warnings,
				g_strdup_printf("%s:%u: job '%s': write_bw_log without log_avg_msec: fio "
						"would take the report's bandwidth samples per I/O; wbsim "
						"takes them per 500 ms",
						fio->file, fio->line, fio->name));
	return TRUE;
}

static void collect(struct wbsim_run *run, double wall_s)
{
	struct wbsim_run_result *r = run->result;
	struct wbsim_machine *m = &run->m;
	struct wbsim_bdi *bdi = &m->bdi;
	const struct wbsim_fio_file *ff;

	r->scenario = g_strdup(run->opts.name ? run->opts.name : "-");
	r->description = g_strdup(run->cfg->description);
	r->seed = run->cfg->seed;
	r->cpus = (unsigned int)run->cfg->cpus;
	r->memory = run->cfg->memory;
	r->device = g_strdup(wbsim_device_name(m->dev));
	r->fs_type = g_strdup(wbsim_fs_type(m->fs));
	r->nr_contexts = bdi->nr_wb_ctx;
	r->affinity = g_strdup(bdi->affinity->name);
	/* fio's "global options" of the job file the jobs came from */
	ff = wbsim_scenario_fio(run->scn);
	r->fio_global_options = ff ? ff->global_options : NULL;
	for (unsigned int i = 0; i < run->nr_jobs; i++) {
		struct wbsim_job *job = &run->jobs[i];
		struct wbsim_job_result *jr = g_new0(struct wbsim_job_result, 1);

		jr->name = g_strdup(job->fio->name);
		jr->pid = job->pid;
		jr->fio = job->fio;
		jr->io_bytes = job->bytes_done;
		jr->total_ios = job->ios_done;
		jr->start_ns = job->io_start_ns;
		jr->runtime_ns = (job->state == JOB_DONE ? job->end_ns : wbsim_sim_now(m->sim)) -
				 job->io_start_ns;
		jr->clat = job->clat;
		job->clat = (struct wbsim_lat_hist){ 0 };
		jr->sync_lat = job->sync_lat;
		job->sync_lat = (struct wbsim_lat_hist){ 0 };
		jr->pauses = job->dirtier.pauses;
		jr->paused_ns = job->dirtier.paused_ns;
		jr->max_pause_ns = job->dirtier.max_pause_ns;
		jr->max_sleep_ns = job->dirtier.max_sleep_ns;
		memcpy(jr->pause_hist, job->dirtier.pause_hist, sizeof(jr->pause_hist));
		jr->cpu_ns = wbsim_job_cpu_ns(job, &jr->cpu_wait_ns);
		jr->lock_wait_ns = job->task.lock_wait_ns;
		jr->invalidates = job->invalidates;
		jr->error = job->error;
		jr->uring_punts = job->uring_punts;
		jr->uring_time_punts = job->uring_time_punts;
		jr->depths = job->io_u.stat;
		jr->laid_out_files = job->laid_out_files;
		jr->laid_out_bytes = job->laid_out_bytes;
		/* a job stalled when the run stopped: its next write is late by
		 * at least its lag now */
		jr->max_lag_ns = MAX(job->max_lag_ns, wbsim_job_lag(job, wbsim_sim_now(m->sim)));
		jr->bw_samples = job->bw_samples;
		job->bw_samples = NULL;
		g_ptr_array_add(r->jobs, jr);
	}
	for (unsigned int i = 0; i < bdi->nr_wb_ctx; i++) {
		struct wbsim_wb *wb = bdi->wb_ctx[i];
		struct wbsim_wb_result *wr = g_new0(struct wbsim_wb_result, 1);

		wr->ctx = i;
		wr->flusher = g_strdup_printf("%s-flush-%s", wb->flusher.name, bdi->name);
		wr->flusher_pid = wb->flusher.pid;
		wr->pages_written = wb->pages_written;
		wr->pages_completed = wb->stat_written;
		wr->avg_write_bandwidth = wb->bw.avg_write_bandwidth;
		wr->dirty_ratelimit = wb->bw.dirty_ratelimit;
		wr->works = wb->works_done;
		wr->inode_slices = wb->inodes_written;
		wr->cpu_ns = wb->flusher.cpu_ns;
		wr->cpu_wait_ns = wb->flusher.cpu_wait_ns;
		wr->lock_wait_ns = wb->flusher.lock_wait_ns;
		wr->irq_ns = wb->flusher.irq_ns;
		g_ptr_array_add(r->wbs, wr);
	}
	for (size_t i = 0; i < wbsim_fs_nr_locks(m->fs); i++) {
		wbsim_lock *l = wbsim_fs_get_lock(m->fs, i);
		struct wbsim_lock_result *lr = g_new0(struct wbsim_lock_result, 1);

		lr->name = g_strdup(l->name);
		lr->acquisitions = l->acquisitions;
		lr->contended = l->contended;
		lr->hold_ns = l->hold_ns;
		lr->wait_ns = l->wait_ns;
		lr->max_wait_ns = l->max_wait_ns;
		g_ptr_array_add(r->locks, lr);
	}
	if (run->m.cgroups)
		collect_cgroups(run);
	note_unreached_moments(run);
	/* the moments reached were counted as they came; "end" is now */
	if (!run->cfg->measure_extents->len || measures(run, WBSIM_MOMENT_END))
		count_extents(run, "end");
	wbsim_blk_queue_get_stats(bdi->queue, &r->device_stats);
	for (unsigned int i = 0; i < run->nr_jobs; i++)
		r->cpu_by_kind[WBSIM_TASK_DIRTIER] += wbsim_job_cpu_ns(&run->jobs[i], NULL);
	for (unsigned int i = 0; i < bdi->nr_wb_ctx; i++)
		r->cpu_by_kind[WBSIM_TASK_FLUSHER] += bdi->wb_ctx[i]->flusher.cpu_ns;
	r->cpu_by_kind[WBSIM_TASK_IRQ] = wbsim_blk_queue_irq_task(bdi->queue)->cpu_ns +
					 wbsim_fs_completion_cpu_ns(m->fs);
	r->cpu_by_kind[WBSIM_TASK_OTHER] += r->device_stats.cpu_ns;
	r->events = wbsim_sim_events_processed(m->sim);
	r->sim_ns = wbsim_sim_now(m->sim);
	r->wall_s = wall_s;
	r->nr_dirtied = m->vm.nr_dirtied;
	r->nr_written = m->vm.nr_written;
	memcpy(r->writeback_starts, bdi->writeback_starts, sizeof(r->writeback_starts));
	wbsim_global_dirty_limits(&m->vm, &r->bg_thresh, &r->thresh);
	for (guint i = 0; i < m->warnings->len; i++)
		g_ptr_array_add(r->warnings, g_strdup(m->warnings->pdata[i]));
}

/* ------------------------------------------------------------------------ */

static void emit_trace_line(void *arg, const char *line)
{
	struct wbsim_run *run = arg;
	char event[64];

	if (run->opts.trace_events &&
	    (!wbsim_trace_line_event(line, event, sizeof(event)) ||
	     !g_strv_contains(run->opts.trace_events, event)))
		return;
	run->opts.trace_fn(run->opts.trace_arg, line);
}

static void emit_trace_record(void *arg, enum wbsim_trace_event ev, wbsim_time_t now,
			      unsigned int cpu, unsigned int pid, const char *comm,
			      const void *rec, size_t size)
{
	struct wbsim_run *run = arg;

	if (run->opts.trace_events &&
	    !g_strv_contains(run->opts.trace_events, wbsim_trace_event_names[ev]))
		return;
	wbsim_trace_dat_add(run->opts.trace_dat, now, cpu, pid, comm, rec, size);
}

/* Every job's files together: a bound on what a run holds. */
#define RUN_MAX_FILES (1u << 21)

gboolean wbsim_run_check_setup(const struct wbsim_scenario *scn, GError **error)
{
	const struct wbsim_fio_file *fio = wbsim_scenario_fio(scn);
	struct wbsim_run run = { 0 };
	struct wbsim_job *jobs = NULL;
	uint64_t nr_files = 0;
	unsigned int done = 0;
	gboolean ok;

	for (guint i = 0; i < fio->jobs->len; i++) {
		const struct wbsim_fio_job *f = fio->jobs->pdata[i];

		nr_files += MAX(f->nrfiles, 1);
		if (nr_files > RUN_MAX_FILES) {
			/* the nrfiles= line as written, not the section's */
			g_autofree char *shown = g_strdup_printf("%u", f->nrfiles);
			g_autofree char *where = wbsim_fio_job_option_where(f, "nrfiles", shown);

			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNSUPPORTED,
				    "%s: the jobs up to this one have %" G_GUINT64_FORMAT
				    " files: expected at most %u in all (each is a simulated inode)",
				    where, nr_files, RUN_MAX_FILES);
			return FALSE;
		}
	}
	run.scn = scn;
	run.cfg = wbsim_scenario_config(scn);
	run.m.setup_only = true;
	ok = machine_build(&run, error);
	if (ok) {
		jobs = g_new0(struct wbsim_job, fio->jobs->len);
		for (; ok && done < fio->jobs->len; done++)
			ok = wbsim_job_setup(&jobs[done], &run.m, fio->jobs->pdata[done], done, error);
	}
	ok = ok && wbsim_run_check_space(run.cfg, &run.m, fio, jobs, error);
	/* as wbsim_run_scenario(): a job that failed its set-up is cleared too */
	for (unsigned int i = 0; i < done; i++)
		if (jobs[i].fio)
			wbsim_job_clear(&jobs[i]);
	g_free(jobs);
	wbsim_machine_clear(&run.m);
	return ok;
}

struct wbsim_run_result *wbsim_run_scenario(const struct wbsim_scenario *scn,
					    const struct wbsim_run_options *opts,
					    GError **error)
{
	const struct wbsim_fio_file *fio = wbsim_scenario_fio(scn);
	struct wbsim_run *run = g_new0(struct wbsim_run, 1);
	struct wbsim_run_result *result = NULL;
	gint64 t0 = g_get_monotonic_time();

	run->scn = scn;
	run->cfg = wbsim_scenario_config(scn);
	run->live_timed = g_ptr_array_new_with_free_func(wbsim_timed_event_free);
	run->live_measure = g_ptr_array_new_with_free_func(g_free);
	run->cg_paths = g_ptr_array_new_with_free_func(g_free);
	run->cg_index = g_hash_table_new(g_str_hash, g_str_equal);
	run->memcg_col = g_hash_table_new(NULL, NULL);
	run->removals = g_ptr_array_new();
	run->series = g_array_new(FALSE, FALSE, sizeof(struct series_col));
	if (opts)
		run->opts = *opts;
	run->result = wbsim_run_result_new();
	if (!machine_build(run, error))
		goto out;
	run->nr_jobs = fio->jobs->len;
	run->jobs = g_new0(struct wbsim_job, run->nr_jobs);
	for (unsigned int i = 0; i < run->nr_jobs; i++) {
		if (!wbsim_job_setup(&run->jobs[i], &run->m, fio->jobs->pdata[i], i, error))
			goto out;
	}
	for (guint i = 0; fio->warnings && i < fio->warnings->len; i++)
		g_ptr_array_add(run->m.warnings, g_strdup(fio->warnings->pdata[i]));
	for (unsigned int i = 0; i < run->nr_jobs; i++)
		if (!setup_job_logs(run, &run->jobs[i], error))
			goto out;
	collect_cgroup_paths(run, fio);
	/* fio lays every job's files out before any job starts */
	for (unsigned int i = 0; i < run->nr_jobs; i++)
		if (!wbsim_job_layout(&run->jobs[i], error))
			goto out;
	wbsim_run_schedule_events(run);
	if (run->opts.trace_fn || run->opts.trace_dat) {
		run->trace.emit = run->opts.trace_fn ? emit_trace_line : NULL;
		run->trace.record = run->opts.trace_dat ? emit_trace_record : NULL;
		run->trace.arg = run;
		run->m.bdi.trace = &run->trace;
	}
	if (run->opts.check)
		wbsim_sim_set_after_event_hook(run->m.sim, after_event_check, run);
	series_columns(run);
	wbsim_timer_init(&run->sampler, sample, run);
	wbsim_timer_arm(run->m.sim, &run->sampler, 0);
	if (run->nr_jobs) {
		run->cur_group = 0;
		start_group(run);
	} else {
		run->workload_done = true;
		schedule_after_jobs(run);
	}
	wbsim_sim_set_stop_flag(run->m.sim, run->opts.stop);
	wbsim_sim_run_until(run->m.sim, run->cfg->time_limit ? run->cfg->time_limit
							     : WBSIM_TIME_NEVER);
	/* stopped from outside (a signal): the results of the time simulated */
	if (wbsim_sim_interrupted(run->m.sim)) {
		run->result->interrupted = true;
		g_ptr_array_add(run->m.warnings,
				g_strdup_printf("the run was interrupted at %.9f s of simulated time: "
						"these are the results of the time simulated so far",
						wbsim_sim_now(run->m.sim) / 1e9));
	}
	if (run->m.bdi.failure && !run->failure)
		run->failure = g_error_copy(run->m.bdi.failure);
	if (run->opts.check && !run->failure) {
		run->final_check = true;
		check_invariants(run);
	}
	if (run->failure) {
		g_propagate_error(error, run->failure);
		run->failure = NULL;
		goto out;
	}
	/* the final state; when the sampler took a row at this very time (a
	 * run stopped on a sample tick), that row gives way to it: one row per
	 * time (the API's sample callback sees both) */
	{
		GArray *v = run->result->series.values;
		guint ncols = run->result->series.columns->len;

		if (ncols && v->len >= ncols &&
		    g_array_index(v, double, v->len - ncols) == wbsim_sim_now(run->m.sim) / 1e9)
			g_array_set_size(v, v->len - ncols);
		sample(run->m.sim, run);
	}
	/* a job the time limit cut short: its logs as they are */
	for (unsigned int i = 0; i < run->nr_jobs; i++)
		wbsim_job_logs_finish(&run->jobs[i].logs, wbsim_sim_now(run->m.sim),
				      run->jobs[i].bytes_done, run->jobs[i].ios_done);
	if (run->log_spool && wbsim_spool_errno(run->log_spool)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
			    "the rows of the fio logs with per_job_logs=0 waited for their jobs' "
			    "ends in a temporary file in %s, which could not be written or read: %s",
			    wbsim_spool_dir(run->log_spool), g_strerror(wbsim_spool_errno(run->log_spool)));
		goto out;
	}
	collect(run, (g_get_monotonic_time() - t0) / 1e6);
	result = run->result;
	run->result = NULL;
out:
	for (unsigned int i = 0; run->jobs && i < run->nr_jobs; i++)
		if (run->jobs[i].fio)
			wbsim_job_clear(&run->jobs[i]);
	g_free(run->jobs);
	wbsim_spool_free(run->log_spool);
	wbsim_machine_clear(&run->m);
	/* the line buffer of --trace (it leaked) */
	if (run->trace.buf)
		g_string_free(run->trace.buf, TRUE);
	for (size_t i = 0; i < G_N_ELEMENTS(run->trace.states); i++)
		if (run->trace.states[i])
			g_string_free(run->trace.states[i], TRUE);
	if (run->result)
		wbsim_run_result_free(run->result);
	g_clear_error(&run->failure);
	g_ptr_array_unref(run->removals);
	g_array_unref(run->series);
	g_ptr_array_unref(run->live_timed);
	g_ptr_array_unref(run->live_measure);
	g_hash_table_destroy(run->memcg_col);
	g_hash_table_destroy(run->cg_index);
	g_ptr_array_unref(run->cg_paths);
	g_free(run);
	return result;
}
