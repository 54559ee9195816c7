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
#include "scenario/config-private.h"
#include "block/blk.h"
#include "core/sim.h"

GArray *wbsim_config_settings(const GPtrArray *overrides)
{
	GArray *a = g_array_new(FALSE, TRUE, sizeof(struct wbsim_setting));

	for (guint i = 0; i < overrides->len; i++) {
		const struct wbsim_config_override *o = overrides->pdata[i];
		struct wbsim_setting s = { o->key, o->value, o->file, o->line };

		g_array_append_val(a, s);
	}
	return a;
}

void wbsim_config_scratch_clear(struct wbsim_config_scratch *sc)
{
	wbsim_device_free(sc->dev);
	wbsim_cpus_free(sc->cpus);
	wbsim_sim_free(sc->sim);
	memset(sc, 0, sizeof(*sc));
}

/* Build the scenario's device; @name_where locates [device] preset. */
static gboolean scratch_device_at(const struct wbsim_config *cfg,
			       const char *name_where,
			       struct wbsim_config_scratch *sc, GError **error)
{
	const char *name = cfg->device_preset;
	g_autoptr(GArray) settings = NULL;
	g_autoptr(GError) local = NULL;
	g_autofree char *path = NULL;

	path = wbsim_device_find_preset(name, &local);
	if (!path && !g_error_matches(local, WBSIM_ERROR, WBSIM_ERROR_MISSING)) {
		/* a FIFO or the like where the preset would be */
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[device] preset = %s: %s", name_where, name, local->message);
		return FALSE;
	}
	if (!path) {
		g_auto(GStrv) names = wbsim_device_preset_names();
		const char *near = strchr(name, '/') ? NULL :
			wbsim_closest_name(name, (const char *const *)names);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[device] preset = %s: no such device preset: expected the name of a file NAME.ini in $WBSIM_PRESET_PATH, lib/block/presets or the installed share/wbsim/presets, or a path to a preset file%s%s%s",
			    name_where, name, near ? " (did you mean " : "",
			    near ? near : "", near ? "?)" : "");
		return FALSE;
	}
	sc->sim = wbsim_sim_new(cfg->seed);
	sc->cpus = wbsim_cpus_new(sc->sim, (unsigned int)cfg->cpus, NULL);
	settings = wbsim_config_settings(cfg->device_params);
	sc->dev = wbsim_device_new_from_preset(sc->sim, sc->cpus, NULL, name,
					       (const struct wbsim_setting *)settings->data,
					       settings->len, &local);
	if (!sc->dev) {
		g_autofree char *in_preset = g_strconcat(path, ":", NULL);

		/*
		 * What is wrong in the preset file (its message starts with its
		 * name) says which scenario line named that file too; a bad
		 * [device] line of the scenario names itself.
		 */
		if (g_str_has_prefix(local->message, in_preset))
			g_prefix_error(&local, "%s[device] preset = %s: ", name_where, name);
		g_propagate_error(error, g_steal_pointer(&local));
		wbsim_config_scratch_clear(sc);
		return FALSE;
	}
	return TRUE;
}

gboolean wbsim_config_scratch_device(const struct wbsim_config *cfg,
				     struct wbsim_config_scratch *sc, GError **error)
{
	return scratch_device_at(cfg, "", sc, error);
}

static gboolean device_check(const struct wbsim_config *cfg, const char *name,
			     const char *name_where, GError **error)
{
	struct wbsim_config_scratch sc = { 0 };
	gboolean ok = TRUE;

	if (!scratch_device_at(cfg, name_where, &sc, error))
		return FALSE;
	/* PMEM emulated on DRAM lives in the RAM reserved for it at boot */
	if (cfg->memmap && (wbsim_device_get_ops(sc.dev)->flags & WBSIM_DEVICE_RAM_BACKED)) {
		uint64_t cap = wbsim_device_capacity(sc.dev) << WBSIM_SECTOR_SHIFT;

		if (cap > cfg->memmap) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s[device] preset = %s: the PMEM device of %" G_GUINT64_FORMAT
				    " bytes, emulated on DRAM, does not fit in the %" G_GUINT64_FORMAT
				    " bytes reserved for it ([machine] memmap)",
				    name_where, name, cap, cfg->memmap);
			ok = FALSE;
		}
	}
	wbsim_config_scratch_clear(&sc);
	return ok;
}

/*
 * Every parameter with its effective value: wbsim_device_describe() less
 * its "model" line and its " ; source" notes (a dump does not record
 * where values came from, so it loads back to the same dump).
 */
static char *device_describe(const struct wbsim_config *cfg, const char *name)
{
	struct wbsim_config_scratch sc = { 0 };
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GString *out;

	if (!scratch_device_at(cfg, "", &sc, NULL))
		return NULL;
	text = wbsim_device_describe(sc.dev);
	wbsim_config_scratch_clear(&sc);

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
