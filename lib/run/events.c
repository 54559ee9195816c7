/* SPDX-License-Identifier: MIT */
/*
 * events.c - the timed events of a run (run/events.h): the handler of
 * each [events] action, by the action's id (its name and argument parser
 * are the scenario's: scenario/event-actions.c): sync, syncfs, umount (a
 * WB_SYNC_ALL writeback of every wb, waited for), contexts (nr_wb_ctx
 * changed), and the cgroup v2 actions of issue 7 (mkdir, memory.max/high,
 * cgroup.procs, rmdir, "io" in the parent's cgroup.subtree_control).
 *
 * The arguments are parsed once, when the scenario line is read; whether
 * a cgroup exists is only known while the run goes on, and the run then
 * fails naming the event's line.
 */
#include <string.h>
#include <wbsim/error.h>
#include "run/events.h"
#include "run/run-private.h"
#include "fio/job.h"
#include "fs/fs-writeback.h"
#include "fs/wb-ctx-change.h"
#include "fs/cgroup-writeback.h"
#include "mm/memcontrol.h"
#include "core/sim.h"

/* ------------------------------------------------------------------------ */
/* Timed events: sync, syncfs, umount                                       */

struct timed_event {
	struct wbsim_run *run;
	/* the [events] line, its action and parsed arguments (NULL: a sync
	 * of [measure], named @what) */
	const struct wbsim_config_event *ev;
	const void *args;
	const char *what;
	bool start_all;		/* sync(2): every flusher starts first */
	wbsim_time_t start;
	/* called when the writeback is over (remount, filefrag), else NULL */
	void (*then)(struct wbsim_run *run, const char *moment);
	/* filefrag: the [measure] moment counted after the sync */
	const char *moment;
	/* cgroup-remove: the cgroup and the jobs being stopped in it */
	struct wbsim_memcg *memcg;
	GPtrArray *stopping;
};

void wbsim_timed_event_free(void *p)
{
	struct timed_event *te = p;

	if (te->stopping)
		g_ptr_array_unref(te->stopping);
	g_free(te);
}

static void timed_event_done(wbsim_sim *sim, void *arg)
{
	struct timed_event *te = arg;
	struct wbsim_run *run = te->run;

	g_ptr_array_add(run->m.warnings,
			g_strdup_printf("event '%s' at %.3f s took %.3f ms", te->what,
					te->start / 1e9, (wbsim_sim_now(sim) - te->start) / 1e6));
	if (te->then)
		te->then(run, te->moment);
	g_ptr_array_remove_fast(run->live_timed, te);	/* frees it */
	run->pending_events--;
	wbsim_run_maybe_finish(run);
}

/* sync_inodes_sb(): a WB_SYNC_ALL work to every wb with dirty IO, waited
 * for; sync(2) first wakes every flusher for a start-all pass. */
static void sync_event_fire(wbsim_sim *sim, void *arg)
{
	struct timed_event *te = arg;

	te->start = wbsim_sim_now(sim);
	wbsim_sync_inodes_sb(&te->run->m.bdi, te->run->m.inodes, te->run->m.cgroups, te->start_all,
			     WB_REASON_SYNC, timed_event_done, te);
}

/* [events] at = TIME contexts N [quiesce|freeze]: change nr_wb_ctx. */
static void contexts_event_done(void *arg, const struct wbsim_ctx_change_result *res)
{
	struct timed_event *te = arg;
	struct wbsim_run *run = te->run;

	g_ptr_array_add(run->m.warnings,
			g_strdup_printf("event 'contexts %s' at %.3f s: %u -> %u contexts, writeback "
					"drained after %.3f ms, done after %.3f ms, %" G_GUINT64_FORMAT
					" inodes moved, %" G_GUINT64_FORMAT " writers blocked for %.3f ms "
					"in total", te->ev->args, res->start / 1e9, res->from, res->to,
					(res->quiesced - res->start) / 1e6,
					(res->done - res->start) / 1e6, res->inodes_moved,
					res->writers_blocked, res->writers_blocked_ns / 1e6));
	run->result->ctx_changes++;
	run->result->ctx_change_ns += res->done - res->start;
	run->result->writers_blocked_ns += res->writers_blocked_ns;
	g_ptr_array_remove_fast(run->live_timed, te);	/* frees it */
	run->pending_events--;
	wbsim_run_maybe_finish(run);
}

static void contexts_event_fire(wbsim_sim *sim, void *arg)
{
	struct timed_event *te = arg;
	const struct wbsim_contexts_event *ce = te->args;

	te->start = wbsim_sim_now(sim);
	wbsim_bdi_change_nr_wb_ctx(&te->run->m.bdi, ce->nr,
				   ce->freeze ? WBSIM_CTX_CHANGE_FREEZE : WBSIM_CTX_CHANGE_QUIESCE,
				   contexts_event_done, te);
}

/* ------------------------------------------------------------------------ */
/* Timed events: cgroups                                                    */

/* A cgroup event failed while the run went on: the run ends with an error
 * naming the event's line. */
static void cgroup_event_fail(struct timed_event *te, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void cgroup_event_fail(struct timed_event *te, const char *fmt, ...)
{
	struct wbsim_run *run = te->run;
	g_autofree char *msg = NULL, *at = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	at = wbsim_format_time(te->ev->at);
	if (!run->failure)
		run->failure = g_error_new(WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
					   "%s:%u: [events] at = %s %s %s: %s",
					   te->ev->file, te->ev->line, at,
					   te->ev->action, te->ev->args ? te->ev->args : "", msg);
	wbsim_sim_stop(run->m.sim);
}

static void cgroup_event_done(struct timed_event *te)
{
	struct wbsim_run *run = te->run;

	g_ptr_array_remove(run->removals, te);
	g_ptr_array_remove_fast(run->live_timed, te);	/* frees it */
	run->pending_events--;
	wbsim_run_maybe_finish(run);
}

/* cgroup-remove: every job stopped has exited: rmdir. */
static void cgroup_remove_finish(struct timed_event *te)
{
	struct wbsim_run *run = te->run;
	GError *e = NULL;

	if (!wbsim_cgroup_rmdir(&run->m.bdi, te->memcg, &e)) {
		cgroup_event_fail(te, "%s", e->message);
		g_error_free(e);
		return;
	}
	if (te->stopping->len)
		g_ptr_array_add(run->m.warnings,
				g_strdup_printf("event 'cgroup-remove %s' at %.3f s: %u job%s stopped, "
						"removed after %.3f ms", te->memcg->path, te->start / 1e9,
						te->stopping->len, te->stopping->len == 1 ? "" : "s",
						(wbsim_sim_now(run->m.sim) - te->start) / 1e6));
	cgroup_event_done(te);
}

/* A job ended: the cgroup-remove events whose jobs have all exited go on. */
void wbsim_run_events_job_done(struct wbsim_run *run)
{
	for (guint i = 0; run->removals && i < run->removals->len;) {
		struct timed_event *te = run->removals->pdata[i];
		bool all = true;

		for (guint j = 0; j < te->stopping->len && all; j++)
			all = ((struct wbsim_job *)te->stopping->pdata[j])->state == JOB_DONE;
		if (!all) {
			i++;
			continue;
		}
		cgroup_remove_finish(te);	/* takes it off run->removals */
		if (run->failure)
			return;
	}
}

/*
 * The cgroup an event names, at the event's time: NULL (the run fails,
 * naming the line) when it does not exist.
 */
static struct wbsim_memcg *cgroup_event_memcg(struct timed_event *te)
{
	const struct wbsim_cgroup_event *cg = te->args;
	struct wbsim_memcg *memcg = wbsim_memcg_lookup(&te->run->m.vm.memcgs, cg->path);

	te->start = wbsim_sim_now(te->run->m.sim);
	if (!memcg)
		cgroup_event_fail(te, "no cgroup %s exists at that time", cg->path);
	return memcg;
}

/* cgroup-create: mkdir, then memory.max and memory.high. */
static void cgroup_create_fire(wbsim_sim *sim, void *arg)
{
	struct timed_event *te = arg;
	const struct wbsim_cgroup_event *cg = te->args;
	struct wbsim_machine *m = &te->run->m;
	GError *e = NULL;

	te->start = wbsim_sim_now(sim);
	if (wbsim_memcg_lookup(&m->vm.memcgs, cg->path)) {
		cgroup_event_fail(te, "cgroup %s exists already", cg->path);
		return;
	}
	if (!wbsim_cgroup_mkdir(&m->bdi, cg->path, cg->max_bytes, cg->high_bytes, &e)) {
		cgroup_event_fail(te, "%s", e->message);
		g_error_free(e);
		return;
	}
	cgroup_event_done(te);
}

/* cgroup-set: memory.max and/or memory.high. */
static void cgroup_set_fire(wbsim_sim *sim, void *arg)
{
	struct timed_event *te = arg;
	const struct wbsim_cgroup_event *cg = te->args;
	struct wbsim_memcg *memcg = cgroup_event_memcg(te);

	(void)sim;
	if (!memcg)
		return;
	if (cg->set_max)
		wbsim_memcg_set_max(memcg, cg->max_bytes);
	if (cg->set_high)
		wbsim_memcg_set_high(memcg, cg->high_bytes);
	cgroup_event_done(te);
}

/* cgroup-move: every clone of the job; a job that has exited has no task. */
static void cgroup_move_fire(wbsim_sim *sim, void *arg)
{
	struct timed_event *te = arg;
	const struct wbsim_cgroup_event *cg = te->args;
	struct wbsim_run *run = te->run;
	struct wbsim_memcg *memcg = cgroup_event_memcg(te);

	(void)sim;
	if (!memcg)
		return;
	for (unsigned int i = 0; i < run->nr_jobs; i++) {
		struct wbsim_job *job = &run->jobs[i];

		if (strcmp(job->fio->name, cg->job) == 0 && job->state != JOB_DONE &&
		    !job->stopped)
			wbsim_dirtier_set_memcg(&job->dirtier, memcg);
	}
	cgroup_event_done(te);
}

/* cgroup-remove: a container torn down: its jobs stop, then rmdir. */
static void cgroup_remove_fire(wbsim_sim *sim, void *arg)
{
	struct timed_event *te = arg;
	struct wbsim_run *run = te->run;
	struct wbsim_memcg *memcg = cgroup_event_memcg(te);

	(void)sim;
	if (!memcg)
		return;
	te->memcg = memcg;
	te->stopping = g_ptr_array_new();
	for (unsigned int i = 0; i < run->nr_jobs; i++) {
		struct wbsim_job *job = &run->jobs[i];

		if (job->dirtier.memcg != memcg || job->state == JOB_DONE)
			continue;
		/* one not started yet leaves at once; a running one
		 * exits after the write in progress */
		if (job->state == JOB_RUNNING)
			g_ptr_array_add(te->stopping, job);
		wbsim_job_stop(job);
	}
	g_ptr_array_add(run->removals, te);
	wbsim_run_events_job_done(run);
}

/* cgroup-io-disable, cgroup-io-enable: "io" in the parent's subtree_control. */
static void cgroup_io_set(struct timed_event *te, bool on)
{
	struct wbsim_memcg *memcg = cgroup_event_memcg(te);

	if (!memcg)
		return;
	wbsim_cgroup_set_io(&te->run->m.bdi, memcg, on);
	cgroup_event_done(te);
}

static void cgroup_io_disable_fire(wbsim_sim *sim, void *arg)
{
	(void)sim;
	cgroup_io_set(arg, false);
}

static void cgroup_io_enable_fire(wbsim_sim *sim, void *arg)
{
	(void)sim;
	cgroup_io_set(arg, true);
}

/* ------------------------------------------------------------------------ */
/* The handlers of the actions (scenario/event-actions.c has their names,   */
/* arguments and flags)                                                     */

static const wbsim_event_fn action_fire[WBSIM_EVENT_ACTION_NR] = {
	[WBSIM_EVENT_ACTION_SYNCFS] = sync_event_fire,
	[WBSIM_EVENT_ACTION_SYNC] = sync_event_fire,
	[WBSIM_EVENT_ACTION_UMOUNT] = sync_event_fire,
	[WBSIM_EVENT_ACTION_CONTEXTS] = contexts_event_fire,
	[WBSIM_EVENT_ACTION_CGROUP_CREATE] = cgroup_create_fire,
	[WBSIM_EVENT_ACTION_CGROUP_SET] = cgroup_set_fire,
	[WBSIM_EVENT_ACTION_CGROUP_MOVE] = cgroup_move_fire,
	[WBSIM_EVENT_ACTION_CGROUP_REMOVE] = cgroup_remove_fire,
	[WBSIM_EVENT_ACTION_CGROUP_IO_DISABLE] = cgroup_io_disable_fire,
	[WBSIM_EVENT_ACTION_CGROUP_IO_ENABLE] = cgroup_io_enable_fire,
};

/* ------------------------------------------------------------------------ */
/* Scheduling                                                               */

static struct timed_event *timed_event_new(struct wbsim_run *run, const char *what)
{
	struct timed_event *te = g_new0(struct timed_event, 1);

	g_ptr_array_add(run->live_timed, te);
	te->run = run;
	te->what = what;
	run->pending_events++;
	return te;
}

void wbsim_run_schedule_events(struct wbsim_run *run)
{
	/*
	 * Events are queued before the jobs start, so an event at 0 s runs
	 * before the jobs' first write at 0 s (the queue keeps the order of
	 * events of the same time).
	 */
	for (guint i = 0; run->cfg->events && i < run->cfg->events->len; i++) {
		const struct wbsim_config_event *ev = run->cfg->events->pdata[i];
		const struct wbsim_config_event_line *line = wbsim_config_event_line(ev);
		struct timed_event *te = timed_event_new(run, ev->action);

		te->ev = ev;
		te->args = line->args;
		te->start_all = line->action->flags & WBSIM_EVENT_START_ALL;
		wbsim_sim_schedule_at(run->m.sim, ev->at, action_fire[line->action->id], te);
	}
}

void wbsim_run_sync_then(struct wbsim_run *run, const char *what, bool start_all,
			 void (*then)(struct wbsim_run *run, const char *moment),
			 const char *moment)
{
	struct timed_event *te = timed_event_new(run, what);

	te->start_all = start_all;
	te->then = then;
	te->moment = moment;
	sync_event_fire(run->m.sim, te);
}
