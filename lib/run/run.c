/* SPDX-License-Identifier: MIT */
/*
 * run.c - run a scenario: build the simulated machine it describes
 * (lib/machine), run its fio jobs and timed events, sample the time
 * series, check invariants, and gather the results.
 */
#include <string.h>
#include <wbsim/error.h>
#include <wbsim/scenario.h>
#include "run/run-private.h"
#include "run/events.h"
#include "fio/job.h"
#include "report/trace-dat.h"
#include "core/sim-private.h"
#include "block/blk.h"
#include "fs/alloc/fs.h"
#include "core/sim.h"

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
		.idle_wake_cost = cfg->idle_wake_cost,
		.idle_exit_cost = cfg->idle_exit_cost,
		.idle_poll_cost = cfg->idle_poll_cost,
		.sched_autogroup = cfg->sched_autogroup,
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
/* Results                                                                  */

/* Adds lock @l's figures to @lr (the longest wait: the longer). */
static void lock_result_add(struct wbsim_lock_result *lr, const wbsim_lock *l)
{
	lr->acquisitions += l->acquisitions;
	lr->contended += l->contended;
	lr->hold_ns += l->hold_ns;
	lr->wait_ns += l->wait_ns;
	lr->max_wait_ns = MAX(lr->max_wait_ns, l->max_wait_ns);
}

/*
 * The files' i_rwsem taken together, one row of the lock table: where
 * writers of one file wait for each other (E8's fifteen threads), beside
 * the filesystem's own locks.
 */
static void collect_i_rwsem(struct wbsim_run *run, struct wbsim_run_result *r)
{
	GPtrArray *inodes = run->m.inodes;
	struct wbsim_lock_result *lr = g_new0(struct wbsim_lock_result, 1);

	for (guint i = 0; i < inodes->len; i++)
		lock_result_add(lr, &((const struct wbsim_inode *)inodes->pdata[i])->i_rwsem);
	if (!lr->acquisitions) {
		g_free(lr);
		return;
	}
	lr->name = g_strdup_printf("i_rwsem (%u file%s)", inodes->len, inodes->len == 1 ? "" : "s");
	g_ptr_array_add(r->locks, lr);
}

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
		jr->nvcsw = wbsim_job_nvcsw(job);
		jr->nivcsw = wbsim_job_nivcsw(job);
		jr->lock_wait_ns = wbsim_job_lock_wait_ns(job);
		jr->invalidates = job->invalidates;
		jr->error = job->error;
		jr->uring_punts = job->ring.punts;
		jr->uring_time_punts = job->ring.time_punts;
		jr->uring_worker_wakes = job->ring.worker_wakes;
		jr->uring_threads = wbsim_job_uring_thread_cpu(job, &jr->uring_fio_cpu_ns,
							       &jr->uring_worker_cpu_ns);
		if (jr->uring_threads) {
			jr->uring_workers = job->wq.on ? wbsim_job_wq_nr_workers(job) : 1;
			jr->uring_spare_wakes = job->ring.spare_wakes;
		}
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
		lock_result_add(lr, l);
		g_ptr_array_add(r->locks, lr);
	}
	collect_i_rwsem(run, r);
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
		wbsim_sim_set_after_event_hook(run->m.sim, wbsim_run_after_event_check, run);
	wbsim_run_series_columns(run);
	wbsim_timer_init(&run->sampler, wbsim_run_sample, run);
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
		wbsim_run_check_invariants(run);
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
		wbsim_run_sample(run->m.sim, run);
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
	if (run->result)
		wbsim_run_result_free(run->result);
	g_clear_error(&run->failure);
	g_ptr_array_unref(run->removals);
	if (run->series)
		g_array_unref(run->series);
	g_ptr_array_unref(run->live_timed);
	g_ptr_array_unref(run->live_measure);
	g_hash_table_destroy(run->memcg_col);
	g_hash_table_destroy(run->cg_index);
	g_ptr_array_unref(run->cg_paths);
	g_free(run);
	return result;
}
