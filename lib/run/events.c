/* SPDX-License-Identifier: MIT */
/*
 * events.c - the timed events of a run (run/events.h): the table of
 * [events] actions, each with its argument parser and its handler, and the
 * handlers themselves: sync, syncfs, umount (a WB_SYNC_ALL writeback of
 * every wb, waited for), contexts (nr_wb_ctx changed), and the cgroup v2
 * actions of issue 7 (mkdir, memory.max/high, cgroup.procs, rmdir, "io" in
 * the parent's cgroup.subtree_control).
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
#include "core/param.h"
#include "core/sim.h"

/* the page size: memory.max and memory.high count whole pages */
#define CGROUP_PAGE 4096u

/* ------------------------------------------------------------------------ */
/* Arguments                                                                */

void wbsim_cgroup_event_clear(struct wbsim_cgroup_event *cg)
{
	g_free(cg->path);
	g_free(cg->job);
	memset(cg, 0, sizeof(*cg));
}

/* A cgroup path as cgroupfs takes it: absolute, no empty, "." or ".."
 * component, names without blanks or control characters. "/" is the root. */
static gboolean cgroup_path_ok(const char *path, gboolean root_ok, GError **error)
{
	g_auto(GStrv) parts = NULL;

	if (path[0] != '/') {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "cgroup path '%s': expected an absolute path such as /e7/a", path);
		return FALSE;
	}
	if (strcmp(path, "/") == 0) {
		if (root_ok)
			return TRUE;
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "cgroup path '/': expected a cgroup below the root (the root cgroup cannot be created, removed or limited)");
		return FALSE;
	}
	parts = g_strsplit(path + 1, "/", -1);
	for (guint i = 0; parts[i]; i++) {
		const char *c = parts[i];

		if (!*c || strcmp(c, ".") == 0 || strcmp(c, "..") == 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "cgroup path '%s': expected non-empty names other than . and .. between the slashes",
				    path);
			return FALSE;
		}
		for (; *c; c++) {
			if ((unsigned char)*c <= ' ' || *c == 0x7f) {
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
					    "cgroup path '%s': expected names without blanks or control characters",
					    path);
				return FALSE;
			}
		}
	}
	return TRUE;
}

/* memory.max=SIZE|max or memory.high=SIZE|max into @cg. */
static gboolean cgroup_limit(const char *word, struct wbsim_cgroup_event *cg, GError **error)
{
	const char *eq = strchr(word, '=');
	g_autofree char *key = NULL;
	const char *why;
	uint64_t v;
	bool is_max;

	if (!eq) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "'%s': expected memory.max=SIZE|max or memory.high=SIZE|max", word);
		return FALSE;
	}
	key = g_strndup(word, (gsize)(eq - word));
	if (strcmp(key, "memory.max") && strcmp(key, "memory.high")) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "'%s': unknown cgroup file %s: expected memory.max or memory.high", word, key);
		return FALSE;
	}
	is_max = strcmp(key, "memory.max") == 0;
	if ((is_max && cg->set_max) || (!is_max && cg->set_high)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "'%s': %s is given twice: expected each file once", word, key);
		return FALSE;
	}
	if (strcmp(eq + 1, "max") == 0) {
		v = UINT64_MAX;
	} else if (!wbsim_param_parse_value(WBSIM_PARAM_SIZE, eq + 1, &v, &why)) {
		/* the size grammar's reason ("an IEC suffix, ..."), then the choice */
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s=%s: %s%sexpected max or %s", key, eq + 1, why, *why ? ": " : "",
			    wbsim_param_expected(WBSIM_PARAM_SIZE));
		return FALSE;
	} else if (v < CGROUP_PAGE) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s=%s: expected max or a size of at least one page (4k)", key, eq + 1);
		return FALSE;
	}
	if (is_max) {
		cg->set_max = true;
		cg->max_bytes = v;
	} else {
		cg->set_high = true;
		cg->high_bytes = v;
	}
	return TRUE;
}

/* The four shapes of a cgroup event's arguments. */
enum cgroup_args {
	CG_PATH,		/* remove, io-disable, io-enable: PATH */
	CG_PATH_LIMITS,		/* create: PATH [memory.max=..] [memory.high=..] */
	CG_PATH_SOME_LIMIT,	/* set: PATH and at least one of the two */
	CG_JOB_PATH,		/* move: JOB PATH */
};

static gboolean cgroup_args(enum cgroup_args kind, const char *args, struct wbsim_cgroup_event *cg,
			    GError **error)
{
	g_auto(GStrv) parts = g_strsplit_set(args ? args : "", " \t", -1);
	const char *w[3] = { NULL, NULL, NULL };
	guint words = 0;
	bool limits = kind == CG_PATH_LIMITS || kind == CG_PATH_SOME_LIMIT;

	memset(cg, 0, sizeof(*cg));
	cg->max_bytes = UINT64_MAX;
	cg->high_bytes = UINT64_MAX;
	for (guint i = 0; parts[i]; i++) {
		if (!*parts[i])
			continue;
		if (words == G_N_ELEMENTS(w)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "too many words: expected at most 3");
			return FALSE;
		}
		w[words++] = parts[i];
	}
	if (kind == CG_JOB_PATH) {
		if (words != 2) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "expected JOB PATH: an fio job name and a cgroup path");
			return FALSE;
		}
		cg->job = g_strdup(w[0]);
		if (!cgroup_path_ok(w[1], TRUE, error))
			goto fail;
		cg->path = g_strdup(w[1]);
		return TRUE;
	}
	if (!words) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE, "expected a cgroup path");
		return FALSE;
	}
	if (!cgroup_path_ok(w[0], FALSE, error))
		return FALSE;
	cg->path = g_strdup(w[0]);
	if (!limits && words > 1) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "'%s' after the path: expected the path alone", w[1]);
		goto fail;
	}
	for (guint i = 1; i < words; i++)
		if (!cgroup_limit(w[i], cg, error))
			goto fail;
	if (kind == CG_PATH_SOME_LIMIT && !cg->set_max && !cg->set_high) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "expected memory.max=SIZE|max and/or memory.high=SIZE|max after the path");
		goto fail;
	}
	return TRUE;
fail:
	wbsim_cgroup_event_clear(cg);
	return FALSE;
}


/* N of contexts N: a count in the one grammar (core/param.c), as [writeback] contexts */
static const struct wbsim_param contexts_row = {
	"contexts", WBSIM_PARAM_UINT, 0, NULL, "contexts", 1, 1024,
	"writeback contexts after the change",
};

/* contexts N [quiesce|freeze] */
static gboolean contexts_args(const char *args, unsigned int *nr, gboolean *freeze)
{
	g_auto(GStrv) parts = g_strsplit_set(args, " \t", -1);
	uint64_t n = 0;
	guint i = 0, words = 0;
	const char *w[2] = { NULL, NULL };

	for (i = 0; parts[i]; i++) {
		if (!*parts[i])
			continue;
		if (words == 2)
			return FALSE;
		w[words++] = parts[i];
	}
	if (!words || !wbsim_param_parse_row(&contexts_row, w[0], NULL, &n, NULL))
		return FALSE;
	*nr = (unsigned int)n;
	*freeze = FALSE;
	if (w[1]) {
		if (strcmp(w[1], "freeze") == 0)
			*freeze = TRUE;
		else if (strcmp(w[1], "quiesce") != 0)
			return FALSE;
	}
	return TRUE;
}

#define CONTEXTS_ARGS \
	"a number of writeback contexts from 1 to 1024, then optionally quiesce or freeze"

/* contexts: what contexts_args() read. */
struct contexts_event {
	unsigned int nr;
	gboolean freeze;
};

static gboolean parse_contexts(const char *args, void **parsed, GError **error)
{
	struct contexts_event *ce = g_new0(struct contexts_event, 1);

	if (!contexts_args(args, &ce->nr, &ce->freeze)) {
		g_free(ce);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE, "expected %s",
			    CONTEXTS_ARGS);
		return FALSE;
	}
	*parsed = ce;
	return TRUE;
}

unsigned int wbsim_contexts_event_nr(const void *args)
{
	return ((const struct contexts_event *)args)->nr;
}

static gboolean parse_cgroup(enum cgroup_args kind, const char *args, void **parsed,
			     GError **error)
{
	struct wbsim_cgroup_event *cg = g_new0(struct wbsim_cgroup_event, 1);

	if (!cgroup_args(kind, args, cg, error)) {
		g_free(cg);
		return FALSE;
	}
	*parsed = cg;
	return TRUE;
}

static gboolean parse_cgroup_create(const char *args, void **parsed, GError **error)
{
	return parse_cgroup(CG_PATH_LIMITS, args, parsed, error);
}

static gboolean parse_cgroup_set(const char *args, void **parsed, GError **error)
{
	return parse_cgroup(CG_PATH_SOME_LIMIT, args, parsed, error);
}

static gboolean parse_cgroup_move(const char *args, void **parsed, GError **error)
{
	return parse_cgroup(CG_JOB_PATH, args, parsed, error);
}

static gboolean parse_cgroup_path(const char *args, void **parsed, GError **error)
{
	return parse_cgroup(CG_PATH, args, parsed, error);
}

static void free_cgroup(void *parsed)
{
	wbsim_cgroup_event_clear(parsed);
	g_free(parsed);
}


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
	const struct contexts_event *ce = te->args;

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
/* The table                                                                */

static const struct wbsim_event_action actions[] = {
	/* syncfs(2) on the simulated filesystem */
	{ .name = "syncfs", .fire = sync_event_fire },
	/* sync(2): every filesystem */
	{ .name = "sync", .fire = sync_event_fire, .flags = WBSIM_EVENT_START_ALL },
	/* unmount: write everything back, drop the cache */
	{ .name = "umount", .fire = sync_event_fire, .flags = WBSIM_EVENT_START_ALL },
	/* change nr_wb_ctx of the bdi (E9), quiescing writeback or freezing */
	{ .name = "contexts",
	  .args = CONTEXTS_ARGS,
	  .parse = parse_contexts, .free = g_free, .fire = contexts_event_fire,
	  .flags = WBSIM_EVENT_CONTEXTS },
	{ .name = "cgroup-create",
	  .args = "a cgroup path such as /e7/a, then optionally memory.max=SIZE|max and memory.high=SIZE|max",
	  .parse = parse_cgroup_create, .free = free_cgroup, .fire = cgroup_create_fire,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-set",
	  .args = "a cgroup path other than /, then memory.max=SIZE|max and/or memory.high=SIZE|max",
	  .parse = parse_cgroup_set, .free = free_cgroup, .fire = cgroup_set_fire,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-move",
	  .args = "an fio job name, then a cgroup path (every clone of the job moves)",
	  .parse = parse_cgroup_move, .free = free_cgroup, .fire = cgroup_move_fire,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-remove", .args = "a cgroup path other than /",
	  .parse = parse_cgroup_path, .free = free_cgroup, .fire = cgroup_remove_fire,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-io-disable",
	  .args = "a cgroup path other than / (\"io\" leaves its cgroup.subtree_control)",
	  .parse = parse_cgroup_path, .free = free_cgroup, .fire = cgroup_io_disable_fire,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-io-enable",
	  .args = "a cgroup path other than / (\"io\" enters its cgroup.subtree_control)",
	  .parse = parse_cgroup_path, .free = free_cgroup, .fire = cgroup_io_enable_fire,
	  .flags = WBSIM_EVENT_CGROUP },
};

static const char *const action_names[] = {
	"syncfs", "sync", "umount", "contexts",
	"cgroup-create", "cgroup-set", "cgroup-move", "cgroup-remove",
	"cgroup-io-disable", "cgroup-io-enable", NULL,
};

G_STATIC_ASSERT(G_N_ELEMENTS(action_names) == G_N_ELEMENTS(actions) + 1);

const struct wbsim_event_action *wbsim_event_action_lookup(const char *name)
{
	for (size_t a = 0; a < G_N_ELEMENTS(actions); a++)
		if (strcmp(name, actions[a].name) == 0)
			return &actions[a];
	return NULL;
}

const char *const *wbsim_event_action_names(void)
{
	return action_names;
}

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
		wbsim_sim_schedule_at(run->m.sim, ev->at, line->action->fire, te);
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
