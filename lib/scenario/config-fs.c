/* SPDX-License-Identifier: MIT */
/*
 * config-fs.c - [filesystem] of a scenario, checked and printed by the
 * filesystem layer (include/wbsim/fs.h): "type" names a registered model,
 * the other keys are its options, applied in order by wbsim_fs_new() when
 * the run lays the filesystem out. Checking the layout against the device
 * size is left to that point.
 */
#include <wbsim/fs.h>
#include <wbsim/error.h>
#include "scenario/config-private.h"
#include "fs/alloc/fs.h"

static gboolean fs_check(const struct wbsim_config *cfg, const char *name,
			 const char *name_where, GError **error)
{
	g_autoptr(GArray) settings = wbsim_config_settings(cfg->fs_params);

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
