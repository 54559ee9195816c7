/* SPDX-License-Identifier: MIT */
/*
 * config-events.c - timed scenario events: "[events] at = TIME ACTION
 * [ARGS]". The actions are listed in event_actions[]; later issues add a
 * row (name and whether it takes arguments) and handle it in the runner.
 *
 * The cgroup actions (issue 7) are checked in two steps: their arguments
 * when the line is read (wbsim_config_parse_cgroup_event()), and the fio
 * job a cgroup-move names once the workload is known
 * (wbsim_config_check_events()). Whether a cgroup exists is only known
 * while the run goes on; the runner reports that with the event's line.
 */
#include <string.h>

#include <wbsim/error.h>
#include "defs/fio.h"
#include "scenario/config-private.h"

/* the page size: memory.max and memory.high count whole pages */
#define CGROUP_PAGE 4096u

static const struct {
	const char *name;
	const char *args;	/* what ARGS must be, NULL = none */
} event_actions[] = {
	{ "syncfs", NULL },	/* syncfs(2) on the simulated filesystem */
	{ "sync", NULL },	/* sync(2): every filesystem */
	{ "umount", NULL },	/* unmount: write everything back, drop the cache */
	/* change nr_wb_ctx of the bdi (E9), quiescing writeback or freezing */
	{ "contexts", "a number of writeback contexts from 1 to 1024, then optionally quiesce or freeze" },
	/* cgroup v2 (issue 7): mkdir, memory.max/high, cgroup.procs, rmdir,
	 * "io" in the parent's cgroup.subtree_control */
	{ "cgroup-create", "a cgroup path such as /e7/a, then optionally memory.max=SIZE|max and memory.high=SIZE|max" },
	{ "cgroup-set", "a cgroup path other than /, then memory.max=SIZE|max and/or memory.high=SIZE|max" },
	{ "cgroup-move", "an fio job name, then a cgroup path (every clone of the job moves)" },
	{ "cgroup-remove", "a cgroup path other than /" },
	{ "cgroup-io-disable", "a cgroup path other than / (\"io\" leaves its cgroup.subtree_control)" },
	{ "cgroup-io-enable", "a cgroup path other than / (\"io\" enters its cgroup.subtree_control)" },
};

static const char *const event_action_names[] = {
	"syncfs", "sync", "umount", "contexts",
	"cgroup-create", "cgroup-set", "cgroup-move", "cgroup-remove",
	"cgroup-io-disable", "cgroup-io-enable", NULL,
};

G_STATIC_ASSERT(G_N_ELEMENTS(event_action_names) ==
		G_N_ELEMENTS(event_actions) + 1);

const char *const *wbsim_config_event_actions(void)
{
	return event_action_names;
}

void wbsim_config_event_free(gpointer data)
{
	struct wbsim_config_event *ev = data;

	g_free(ev->action);
	g_free(ev->args);
	g_free(ev->file);
	g_free(ev);
}

static gboolean event_syntax(GError **error)
{
	g_autofree char *names = g_strjoinv(", ", (char **)event_action_names);

	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
		    "expected 'TIME ACTION [ARGS]' with a TIME such as 30s and an ACTION among: %s",
		    names);
	return FALSE;
}

gboolean wbsim_config_parse_event(const char *value,
				  struct wbsim_config_event *ev,
				  GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree char *copy = g_strstrip(g_strdup(value));
	char *sp, *rest;
	size_t a;

	sp = strpbrk(copy, " \t");
	if (!sp)
		return event_syntax(error);
	*sp = '\0';
	if (!wbsim_parse_time(copy, &ev->at, &local)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "time '%s': %s", copy, local->message);
		return FALSE;
	}
	rest = g_strchug(sp + 1);
	sp = strpbrk(rest, " \t");
	if (sp) {
		*sp = '\0';
		sp = g_strchug(sp + 1);
	}
	for (a = 0; a < G_N_ELEMENTS(event_actions); a++)
		if (strcmp(rest, event_actions[a].name) == 0)
			break;
	if (a == G_N_ELEMENTS(event_actions)) {
		const char *near = wbsim_closest_name(rest, event_action_names);
		g_autofree char *names = g_strjoinv(", ", (char **)event_action_names);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "unknown action '%s': expected one of: %s%s%s%s",
			    rest, names, near ? " (did you mean " : "",
			    near ? near : "", near ? "?)" : "");
		return FALSE;
	}
	if (sp && *sp && !event_actions[a].args) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "action %s takes no arguments, found '%s'",
			    rest, sp);
		return FALSE;
	}
	if ((!sp || !*sp) && event_actions[a].args) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "action %s needs %s", rest, event_actions[a].args);
		return FALSE;
	}
	if (strcmp(rest, "contexts") == 0) {
		unsigned int nr;
		gboolean freeze;

		if (!wbsim_config_parse_contexts_event(sp, &nr, &freeze)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "action contexts '%s': expected %s", sp, event_actions[a].args);
			return FALSE;
		}
	}
	if (g_str_has_prefix(rest, "cgroup-")) {
		struct wbsim_cgroup_event cg;

		if (!wbsim_config_parse_cgroup_event(rest, sp, &cg, &local)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "action %s '%s': %s", rest, sp, local->message);
			return FALSE;
		}
		wbsim_cgroup_event_clear(&cg);
	}
	ev->action = g_strdup(rest);
	ev->args = sp && *sp ? g_strdup(sp) : NULL;
	return TRUE;
}

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
	g_autoptr(GError) local = NULL;
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
	} else if (!wbsim_parse_size(eq + 1, &v, &local)) {
		const char *why = local->message;

		if (g_str_has_prefix(why, "expected "))
			why += strlen("expected ");
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s=%s: expected max or %s", key, eq + 1, why);
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

gboolean wbsim_config_parse_cgroup_event(const char *action, const char *args,
					 struct wbsim_cgroup_event *cg, GError **error)
{
	g_auto(GStrv) parts = g_strsplit_set(args ? args : "", " \t", -1);
	const char *w[3] = { NULL, NULL, NULL };
	guint words = 0;
	bool limits, move = strcmp(action, "cgroup-move") == 0;

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
	limits = strcmp(action, "cgroup-create") == 0 || strcmp(action, "cgroup-set") == 0;
	if (move) {
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
	if (strcmp(action, "cgroup-set") == 0 && !cg->set_max && !cg->set_high) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "expected memory.max=SIZE|max and/or memory.high=SIZE|max after the path");
		goto fail;
	}
	return TRUE;
fail:
	wbsim_cgroup_event_clear(cg);
	return FALSE;
}

/*
 * A change of the number of writeback contexts moves every inode to a
 * context's own wb: with cgroup writeback in use it would drop the inodes'
 * cgroup ownership, which the model of that change does not handle.
 * Returns FALSE with @error naming the contexts event and what uses cgroups.
 */
static gboolean check_contexts_without_cgroups(const struct wbsim_config *cfg,
					       const struct wbsim_fio_file *fio,
					       GError **error)
{
	const struct wbsim_config_event *ctx = NULL;
	g_autofree char *user = NULL, *where = NULL, *at = NULL;

	for (guint i = 0; cfg->events && i < cfg->events->len; i++) {
		const struct wbsim_config_event *ev = cfg->events->pdata[i];

		if (!ctx && strcmp(ev->action, "contexts") == 0)
			ctx = ev;
		else if (!user && g_str_has_prefix(ev->action, "cgroup-"))
			user = g_strdup_printf("the event %s at line %u", ev->action, ev->line);
	}
	for (guint j = 0; fio && !user && j < fio->jobs->len; j++) {
		const struct wbsim_fio_job *job = fio->jobs->pdata[j];

		if (job->cgroup)
			user = g_strdup_printf("fio job '%s' with cgroup=%s", job->name, job->cgroup);
	}
	if (!ctx || !user)
		return TRUE;
	where = wbsim_config_where(ctx->file, ctx->line);
	at = wbsim_format_time(ctx->at);
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNSUPPORTED,
		    "%s[events] at = %s contexts %s: changing the number of writeback contexts "
		    "while cgroup writeback is in use (%s) is not modelled: expected one or the other",
		    where, at, ctx->args, user);
	return FALSE;
}

gboolean wbsim_config_check_events(const struct wbsim_config *cfg,
				   const struct wbsim_fio_file *fio, GError **error)
{
	if (!check_contexts_without_cgroups(cfg, fio, error))
		return FALSE;
	for (guint i = 0; cfg->events && i < cfg->events->len; i++) {
		const struct wbsim_config_event *ev = cfg->events->pdata[i];
		struct wbsim_cgroup_event cg;
		g_autofree char *where = NULL, *at = NULL;
		gboolean found = FALSE;
		GString *names;

		if (strcmp(ev->action, "cgroup-move") != 0)
			continue;
		if (!wbsim_config_parse_cgroup_event(ev->action, ev->args, &cg, NULL))
			continue;	/* checked when the line was read */
		for (guint j = 0; fio && j < fio->jobs->len && !found; j++)
			found = strcmp(((const struct wbsim_fio_job *)fio->jobs->pdata[j])->name,
				       cg.job) == 0;
		if (found) {
			wbsim_cgroup_event_clear(&cg);
			continue;
		}
		names = g_string_new(NULL);
		for (guint j = 0; fio && j < fio->jobs->len; j++) {
			const struct wbsim_fio_job *job = fio->jobs->pdata[j];

			if (job->clone)
				continue;
			g_string_append_printf(names, "%s%s", names->len ? ", " : "", job->name);
		}
		where = wbsim_config_where(ev->file, ev->line);
		at = wbsim_format_time(ev->at);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[events] at = %s cgroup-move %s: no fio job is named '%s': expected one of: %s",
			    where, at, ev->args, cg.job, names->str);
		g_string_free(names, TRUE);
		wbsim_cgroup_event_clear(&cg);
		return FALSE;
	}
	return TRUE;
}

gboolean wbsim_config_parse_contexts_event(const char *args, unsigned int *nr, gboolean *freeze)
{
	g_auto(GStrv) parts = g_strsplit_set(args, " \t", -1);
	guint64 n;
	guint i = 0, words = 0;
	const char *w[2] = { NULL, NULL };

	for (i = 0; parts[i]; i++) {
		if (!*parts[i])
			continue;
		if (words == 2)
			return FALSE;
		w[words++] = parts[i];
	}
	if (!words || !g_ascii_string_to_unsigned(w[0], 10, 1, 1024, &n, NULL))
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
