/* SPDX-License-Identifier: MIT */
/*
 * config-fs.c - [filesystem] of a scenario, checked and printed by the
 * filesystem layer (include/wbsim/fs.h): "type" names a registered model,
 * the other keys are its options but its CPU costs (which [costs] holds:
 * config-costs.c), applied in order by wbsim_fs_new() when
 * the run lays the filesystem out. Checking the layout against the device
 * size is left to that point.
 */
#include <string.h>

#include <wbsim/fs.h>
#include <wbsim/error.h>
#include "scenario/config-private.h"
#include "fs/alloc/fs.h"

static gboolean fs_check(const struct wbsim_config *cfg, const char *name,
			 const char *name_where, GError **error)
{
	const struct wbsim_fs_ops *ops = wbsim_fs_lookup(name);
	g_autoptr(GArray) settings = wbsim_config_fs_settings(cfg);

	/* a CPU cost is the host's, not the filesystem's */
	for (guint i = 0; ops && i < cfg->fs_params->len; i++) {
		const struct wbsim_config_override *o = cfg->fs_params->pdata[i];
		const struct wbsim_param *row = wbsim_param_find(ops->options, o->key);
		g_autofree char *where = NULL;
		g_autofree char *cost = NULL;
		const char *now;

		if (!row) {
			/* an old name of one (core/param.c's table of renamed keys) */
			cost = g_strdup_printf("%s.%s", ops->name, o->key);
			now = wbsim_param_renamed("costs", cost);
			if (!now)
				continue;
			where = wbsim_param_where(o->file, o->line);
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s[filesystem] %s = %s: a CPU cost of the host, renamed since: expected it in [costs] as %s = %s",
				    where, o->key, o->value, now, o->value);
			return FALSE;
		}
		if (!(row->flags & WBSIM_PARAM_COST))
			continue;
		where = wbsim_param_where(o->file, o->line);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[filesystem] %s = %s: a CPU cost of the host, not an option of the filesystem: expected it in [costs] as %s.%s = %s",
			    where, o->key, o->value, ops->name, o->key, o->value);
		return FALSE;
	}

	return wbsim_fs_check_settings(name, name_where,
				       (const struct wbsim_setting *)settings->data,
				       settings->len, error);
}

/* Every option with its value (and a comment line saying what it is). */
static char *fs_describe(const struct wbsim_config *cfg, const char *name)
{
	g_autoptr(GArray) settings = wbsim_config_settings(cfg->fs_params);

	return wbsim_fs_describe(name, (const struct wbsim_setting *)settings->data,
				 settings->len);
}

const struct wbsim_config_section_ops wbsim_fs_section_ops = {
	.check = fs_check,
	.describe = fs_describe,
};
