/* SPDX-License-Identifier: MIT */
/*
 * config-device.c - [device] of a scenario, checked and printed by the
 * device layer (include/wbsim/device.h): "preset" names a preset file, the
 * other keys are settings applied after the preset's, exactly as the run
 * will apply them with wbsim_device_new_from_preset().
 *
 * Checking builds the device once on a scratch simulation, so a preset
 * that does not exist, a parameter the model does not have or a value of
 * the wrong unit is reported when the scenario is loaded (--parse-only),
 * with the file and line of the setting.
 */
#include <string.h>

#include <wbsim/device.h>
#include <wbsim/error.h>
#include "workload/config-private.h"

/* The scenario's overrides as device settings (pointers into @cfg). */
static GArray *device_settings(const struct wbsim_config *cfg)
{
	GArray *a = g_array_new(FALSE, TRUE, sizeof(struct wbsim_setting));

	for (guint i = 0; i < cfg->device_params->len; i++) {
		const struct wbsim_config_override *o = cfg->device_params->pdata[i];
		struct wbsim_setting s = { o->key, o->value, o->file, o->line };

		g_array_append_val(a, s);
	}
	return a;
}

/* Build the device on a scratch simulation; NULL with @error on bad input. */
static struct wbsim_device *scratch_device(const struct wbsim_config *cfg,
					   const char *name,
					   const char *name_where,
					   wbsim_sim **sim, wbsim_cpus **cpus,
					   GError **error)
{
	g_autoptr(GArray) settings = NULL;
	g_autofree char *path = NULL;
	struct wbsim_device *dev;

	path = wbsim_device_find_preset(name, NULL);
	if (!path) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[device] preset = %s: no such device preset: expected the name of a file NAME.ini in $WBSIM_PRESET_PATH or lib/block/presets, or a path to a preset file",
			    name_where, name);
		return NULL;
	}
	*sim = wbsim_sim_new(cfg->seed);
	*cpus = wbsim_cpus_new(*sim, (unsigned int)cfg->cpus, NULL);
	settings = device_settings(cfg);
	dev = wbsim_device_new_from_preset(*sim, *cpus, NULL, name,
					   (const struct wbsim_setting *)settings->data,
					   settings->len, error);
	if (!dev) {
		wbsim_cpus_free(*cpus);
		wbsim_sim_free(*sim);
		*cpus = NULL;
		*sim = NULL;
	}
	return dev;
}

static void scratch_free(struct wbsim_device *dev, wbsim_sim *sim,
			 wbsim_cpus *cpus)
{
	wbsim_device_free(dev);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

static gboolean device_check(const struct wbsim_config *cfg, const char *name,
			     const char *name_where, GError **error)
{
	wbsim_sim *sim = NULL;
	wbsim_cpus *cpus = NULL;
	struct wbsim_device *dev;

	dev = scratch_device(cfg, name, name_where, &sim, &cpus, error);
	if (!dev)
		return FALSE;
	scratch_free(dev, sim, cpus);
	return TRUE;
}

/*
 * Every parameter with its effective value: wbsim_device_describe() less
 * its "model" line and its " ; source" notes (a dump does not record
 * where values came from, so it loads back to the same dump).
 */
static char *device_describe(const struct wbsim_config *cfg, const char *name)
{
	wbsim_sim *sim = NULL;
	wbsim_cpus *cpus = NULL;
	struct wbsim_device *dev;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GString *out;

	dev = scratch_device(cfg, name, "", &sim, &cpus, NULL);
	if (!dev)
		return NULL;
	text = wbsim_device_describe(dev);
	scratch_free(dev, sim, cpus);

	out = g_string_new(NULL);
	lines = g_strsplit(text, "\n", -1);
	for (size_t i = 0; lines[i]; i++) {
		char *semi = strstr(lines[i], " ; ");

		if (semi)
			*semi = '\0';
		if (!*lines[i] || g_str_has_prefix(lines[i], "model = "))
			continue;
		g_string_append_printf(out, "%s\n", lines[i]);
	}
	return g_string_free(out, FALSE);
}

const struct wbsim_config_section_ops wbsim_device_section_ops = {
	.check = device_check,
	.describe = device_describe,
};
