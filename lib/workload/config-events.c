/* SPDX-License-Identifier: MIT */
/*
 * config-events.c - timed scenario events: "[events] at = TIME ACTION
 * [ARGS]". The actions are listed in event_actions[]; later issues add a
 * row (name and whether it takes arguments) and handle it in the runner.
 */
#include <string.h>

#include <wbsim/error.h>
#include "workload/config-private.h"

static const struct {
	const char *name;
	const char *args;	/* what ARGS must be, NULL = none */
} event_actions[] = {
	{ "syncfs", NULL },	/* syncfs(2) on the simulated filesystem */
	{ "sync", NULL },	/* sync(2): every filesystem */
	{ "umount", NULL },	/* unmount: write everything back, drop the cache */
	/* change nr_wb_ctx of the bdi (E9), quiescing writeback or freezing */
	{ "contexts", "a number of writeback contexts from 1 to 1024, then optionally quiesce or freeze" },
};

static const char *const event_action_names[] = {
	"syncfs", "sync", "umount", "contexts", NULL,
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
	ev->action = g_strdup(rest);
	ev->args = sp && *sp ? g_strdup(sp) : NULL;
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
