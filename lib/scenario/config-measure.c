/* SPDX-License-Identifier: MIT */
/*
 * config-measure.c - the [measure] section: moments at which the runner
 * counts the extents of every file ("[measure] extents = MOMENT", may
 * repeat). Experiment E6 counts them just after fio exits, 30 s later and
 * after unmount and mount:
 *
 *   extents = after-jobs
 *   extents = after-jobs+30s
 *   extents = remount
 *
 * MOMENT is one of: end (when the run stops), after-jobs, after-jobs+TIME,
 * remount. Each moment may be listed once.
 */
#include <string.h>

#include <wbsim/error.h>
#include "scenario/config-private.h"

#define AFTER_JOBS "after-jobs"

void wbsim_config_moment_free(gpointer data)
{
	struct wbsim_config_moment *mo = data;

	g_free(mo->name);
	g_free(mo->file);
	g_free(mo);
}

static gboolean moment_syntax(const char *found, GError **error)
{
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
		    "unknown moment '%s': expected one of: end, after-jobs, after-jobs+TIME (e.g. after-jobs+30s), remount",
		    found);
	return FALSE;
}

gboolean wbsim_config_parse_moment(const char *value,
				   const GPtrArray *earlier,
				   struct wbsim_config_moment *mo,
				   GError **error)
{
	g_autofree char *text = g_strstrip(g_strdup(value));
	g_autoptr(GError) local = NULL;

	if (strcmp(text, "end") == 0) {
		mo->kind = WBSIM_MOMENT_END;
		mo->name = g_strdup("end");
	} else if (strcmp(text, "remount") == 0) {
		mo->kind = WBSIM_MOMENT_REMOUNT;
		mo->name = g_strdup("remount");
	} else if (g_str_has_prefix(text, AFTER_JOBS)) {
		const char *rest = text + strlen(AFTER_JOBS);

		mo->kind = WBSIM_MOMENT_AFTER_JOBS;
		mo->delay = 0;
		if (*rest == '+') {
			g_autofree char *t = g_strstrip(g_strdup(rest + 1));

			if (!wbsim_param_parse(WBSIM_PARAM_TIME, t, &mo->delay, &local)) {
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
					    "time '%s': %s", t,
					    local->message);
				return FALSE;
			}
		} else if (*rest) {
			return moment_syntax(text, error);
		}
		if (mo->delay) {
			g_autofree char *t = wbsim_format_time(mo->delay);

			mo->name = g_strdup_printf(AFTER_JOBS "+%s", t);
		} else {
			mo->name = g_strdup(AFTER_JOBS);
		}
	} else {
		return moment_syntax(text, error);
	}
	for (guint i = 0; earlier && i < earlier->len; i++) {
		const struct wbsim_config_moment *o = earlier->pdata[i];

		if (strcmp(o->name, mo->name) != 0)
			continue;
		if (o->line)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "moment %s is already listed (%s:%u)",
				    mo->name, o->file, o->line);
		else
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "moment %s is already listed (%s)",
				    mo->name, o->file);
		g_clear_pointer(&mo->name, g_free);
		return FALSE;
	}
	return TRUE;
}
