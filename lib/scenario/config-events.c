/* SPDX-License-Identifier: MIT */
/*
 * config-events.c - timed scenario events: "[events] at = TIME ACTION
 * [ARGS]". The actions, their arguments and their handlers are the rows of
 * the action table (scenario/event-actions.c; the handlers are run/events.c): a line is read here, its action
 * looked up there and its arguments parsed once, kept with the event.
 *
 * The checks that need the workload (the fio job a cgroup-move names) come
 * once it is known (wbsim_config_check_events()). Whether a cgroup exists
 * is only known while the run goes on; the runner reports that with the
 * event's line.
 */
#include <string.h>

#include <wbsim/error.h>
#include "defs/fio.h"
#include "scenario/config-private.h"
#include "scenario/event-actions.h"

const char *const *wbsim_config_event_actions(void)
{
	return wbsim_event_action_names();
}

struct wbsim_config_event *wbsim_config_event_new(void)
{
	struct wbsim_config_event_line *line = g_new0(struct wbsim_config_event_line, 1);

	return &line->ev;
}

void wbsim_config_event_free(gpointer data)
{
	struct wbsim_config_event *ev = data;
	struct wbsim_config_event_line *line = (struct wbsim_config_event_line *)ev;

	if (line->args)
		line->action->free(line->args);
	g_free(ev->action);
	g_free(ev->args);
	g_free(ev->file);
	g_free(ev);
}

static gboolean event_syntax(GError **error)
{
	g_autofree char *names = g_strjoinv(", ", (char **)wbsim_event_action_names());

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
	struct wbsim_config_event_line *line = (struct wbsim_config_event_line *)ev;
	const struct wbsim_event_action *action;
	char *sp, *rest;

	sp = strpbrk(copy, " \t");
	if (!sp)
		return event_syntax(error);
	*sp = '\0';
	if (!wbsim_param_parse(WBSIM_PARAM_TIME, copy, &ev->at, &local)) {
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
	action = wbsim_event_action_lookup(rest);
	if (!action) {
		const char *const *all = wbsim_event_action_names();
		const char *near = wbsim_closest_name(rest, all);
		g_autofree char *names = g_strjoinv(", ", (char **)all);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "unknown action '%s': expected one of: %s%s%s%s",
			    rest, names, near ? " (did you mean " : "",
			    near ? near : "", near ? "?)" : "");
		return FALSE;
	}
	if (sp && *sp && !action->args) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "action %s takes no arguments, found '%s'",
			    rest, sp);
		return FALSE;
	}
	if ((!sp || !*sp) && action->args) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "action %s needs %s", rest, action->args);
		return FALSE;
	}
	if (action->parse && !action->parse(sp, &line->args, &local)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "action %s '%s': %s", rest, sp, local->message);
		return FALSE;
	}
	line->action = action;
	ev->action = g_strdup(rest);
	ev->args = sp && *sp ? g_strdup(sp) : NULL;
	return TRUE;
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
		unsigned int flags = wbsim_config_event_line(ev)->action->flags;

		if (!ctx && (flags & WBSIM_EVENT_CONTEXTS))
			ctx = ev;
		else if (!user && (flags & WBSIM_EVENT_CGROUP))
			user = g_strdup_printf("the event %s at line %u", ev->action, ev->line);
	}
	for (guint j = 0; fio && !user && j < fio->jobs->len; j++) {
		const struct wbsim_fio_job *job = fio->jobs->pdata[j];

		if (job->cgroup)
			user = g_strdup_printf("fio job '%s' with cgroup=%s", job->name, job->cgroup);
	}
	if (!ctx || !user)
		return TRUE;
	where = wbsim_param_where(ctx->file, ctx->line);
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
		const struct wbsim_config_event_line *line = wbsim_config_event_line(ev);
		const struct wbsim_cgroup_event *cg = line->args;
		g_autofree char *where = NULL, *at = NULL;
		gboolean found = FALSE;
		GString *names;

		/* a cgroup-move: the only cgroup event that names a job */
		if (!(line->action->flags & WBSIM_EVENT_CGROUP) || !cg->job)
			continue;
		for (guint j = 0; fio && j < fio->jobs->len && !found; j++)
			found = strcmp(((const struct wbsim_fio_job *)fio->jobs->pdata[j])->name,
				       cg->job) == 0;
		if (found)
			continue;
		names = g_string_new(NULL);
		for (guint j = 0; fio && j < fio->jobs->len; j++) {
			const struct wbsim_fio_job *job = fio->jobs->pdata[j];

			if (job->clone)
				continue;
			g_string_append_printf(names, "%s%s", names->len ? ", " : "", job->name);
		}
		where = wbsim_param_where(ev->file, ev->line);
		at = wbsim_format_time(ev->at);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[events] at = %s cgroup-move %s: no fio job is named '%s': expected one of: %s",
			    where, at, ev->args, cg->job, names->str);
		g_string_free(names, TRUE);
		return FALSE;
	}
	return TRUE;
}
