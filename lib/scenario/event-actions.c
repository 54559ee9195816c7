/* SPDX-License-Identifier: MIT */
/*
 * event-actions.c - the actions of a scenario's [events] lines ("[events]
 * at = TIME ACTION [ARGS]"), as the scenario loader sees them: each one's
 * name, what its arguments must be, their parser, and flags for the
 * checks at load. The arguments are parsed once, when the line is read.
 * The handlers that carry an action out at TIME are the runner's
 * (run/events.c), one per action id: the scenario knows nothing of them.
 */
#include <string.h>
#include <wbsim/error.h>
#include "scenario/event-actions.h"
#include "core/param.h"

/* the page size: memory.max and memory.high count whole pages */
#define CGROUP_PAGE 4096u

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

static gboolean parse_contexts(const char *args, void **parsed, GError **error)
{
	struct wbsim_contexts_event *ce = g_new0(struct wbsim_contexts_event, 1);

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
	return ((const struct wbsim_contexts_event *)args)->nr;
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

/* One row per action, in the order of enum wbsim_event_action_id. */
static const struct wbsim_event_action actions[] = {
	/* syncfs(2) on the simulated filesystem */
	{ .name = "syncfs", .id = WBSIM_EVENT_ACTION_SYNCFS },
	/* sync(2): every filesystem */
	{ .name = "sync", .id = WBSIM_EVENT_ACTION_SYNC, .flags = WBSIM_EVENT_START_ALL },
	/* unmount: write everything back, drop the cache */
	{ .name = "umount", .id = WBSIM_EVENT_ACTION_UMOUNT, .flags = WBSIM_EVENT_START_ALL },
	/* change nr_wb_ctx of the bdi (E9), quiescing writeback or freezing */
	{ .name = "contexts", .id = WBSIM_EVENT_ACTION_CONTEXTS,
	  .args = CONTEXTS_ARGS,
	  .parse = parse_contexts, .free = g_free,
	  .flags = WBSIM_EVENT_CONTEXTS },
	{ .name = "cgroup-create", .id = WBSIM_EVENT_ACTION_CGROUP_CREATE,
	  .args = "a cgroup path such as /e7/a, then optionally memory.max=SIZE|max and memory.high=SIZE|max",
	  .parse = parse_cgroup_create, .free = free_cgroup,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-set", .id = WBSIM_EVENT_ACTION_CGROUP_SET,
	  .args = "a cgroup path other than /, then memory.max=SIZE|max and/or memory.high=SIZE|max",
	  .parse = parse_cgroup_set, .free = free_cgroup,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-move", .id = WBSIM_EVENT_ACTION_CGROUP_MOVE,
	  .args = "an fio job name, then a cgroup path (every clone of the job moves)",
	  .parse = parse_cgroup_move, .free = free_cgroup,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-remove", .id = WBSIM_EVENT_ACTION_CGROUP_REMOVE, .args = "a cgroup path other than /",
	  .parse = parse_cgroup_path, .free = free_cgroup,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-io-disable", .id = WBSIM_EVENT_ACTION_CGROUP_IO_DISABLE,
	  .args = "a cgroup path other than / (\"io\" leaves its cgroup.subtree_control)",
	  .parse = parse_cgroup_path, .free = free_cgroup,
	  .flags = WBSIM_EVENT_CGROUP },
	{ .name = "cgroup-io-enable", .id = WBSIM_EVENT_ACTION_CGROUP_IO_ENABLE,
	  .args = "a cgroup path other than / (\"io\" enters its cgroup.subtree_control)",
	  .parse = parse_cgroup_path, .free = free_cgroup,
	  .flags = WBSIM_EVENT_CGROUP },
};

static const char *const action_names[] = {
	"syncfs", "sync", "umount", "contexts",
	"cgroup-create", "cgroup-set", "cgroup-move", "cgroup-remove",
	"cgroup-io-disable", "cgroup-io-enable", NULL,
};

G_STATIC_ASSERT(G_N_ELEMENTS(action_names) == G_N_ELEMENTS(actions) + 1);
G_STATIC_ASSERT(G_N_ELEMENTS(actions) == WBSIM_EVENT_ACTION_NR);

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

