/* SPDX-License-Identifier: MIT */
/*
 * config-params.c - the registry of parameter sets: one per device preset
 * and one per filesystem type. A set is a key table over the model's own
 * parameter struct; the scenario's [device]/[filesystem] overrides are
 * checked and applied through it (config.c).
 *
 * There are no built-in sets: [device] and [filesystem] belong to the
 * device and filesystem layers through their section ops (config-device.c,
 * config-fs.c). A program that sets the section ops to NULL registers its
 * own sets with wbsim_config_register_param_set(). Lookups walk the sets
 * in registration order, so name lists are deterministic.
 */
#include <string.h>

#include <wbsim/error.h>
#include "core/arg-check.h"
#include "scenario/config-private.h"

G_LOCK_DEFINE_STATIC(registry);

/* [device] and [filesystem] owners; NULL means the parameter sets. */
static const struct wbsim_config_section_ops *device_ops = &wbsim_device_section_ops;
static const struct wbsim_config_section_ops *fs_ops = &wbsim_fs_section_ops;

void wbsim_config_set_section_ops(const char *section,
				  const struct wbsim_config_section_ops *ops)
{
	g_return_if_fail(section != NULL);
	G_LOCK(registry);
	if (strcmp(section, "device") == 0)
		device_ops = ops;
	else if (strcmp(section, "filesystem") == 0)
		fs_ops = ops;
	else
		g_critical("wbsim_config_set_section_ops: no section [%s]", section);
	G_UNLOCK(registry);
}

const struct wbsim_config_section_ops *wbsim_config_get_section_ops(const char *section)
{
	const struct wbsim_config_section_ops *ops = NULL;

	G_LOCK(registry);
	if (strcmp(section, "device") == 0)
		ops = device_ops;
	else if (strcmp(section, "filesystem") == 0)
		ops = fs_ops;
	G_UNLOCK(registry);
	return ops;
}
static GPtrArray *registered_sets;	/* const struct wbsim_config_param_set * */

const struct wbsim_config_param_set *
wbsim_config_find_param_set(const char *section, const char *name)
{
	const struct wbsim_config_param_set *found = NULL;

	if (!section || !name)
		return NULL;
	G_LOCK(registry);
	for (guint i = 0; registered_sets && i < registered_sets->len; i++) {
		const struct wbsim_config_param_set *set = registered_sets->pdata[i];

		if (strcmp(set->section, section) == 0 &&
		    strcmp(set->name, name) == 0) {
			found = set;
			break;
		}
	}
	G_UNLOCK(registry);
	return found;
}

char **wbsim_config_param_set_names(const char *section)
{
	GPtrArray *names = g_ptr_array_new();

	G_LOCK(registry);
	for (guint i = 0; registered_sets && i < registered_sets->len; i++) {
		const struct wbsim_config_param_set *set = registered_sets->pdata[i];

		if (strcmp(set->section, section) == 0)
			g_ptr_array_add(names, g_strdup(set->name));
	}
	G_UNLOCK(registry);
	g_ptr_array_add(names, NULL);
	return (char **)g_ptr_array_free(names, FALSE);
}

gboolean wbsim_config_register_param_set(const struct wbsim_config_param_set *set,
					 GError **error)
{
	wbsim_check_arg(set != NULL, FALSE, error);

	if (!set->section || !set->name ||
	    (strcmp(set->section, "device") != 0 &&
	     strcmp(set->section, "filesystem") != 0)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "parameter set '%s': section must be device or filesystem",
			    set->name ? set->name : "(null)");
		return FALSE;
	}
	if (wbsim_config_find_param_set(set->section, set->name)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "[%s] %s: a parameter set of that name exists",
			    set->section, set->name);
		return FALSE;
	}
	for (size_t i = 0; i < set->n_keys; i++) {
		const struct wbsim_config_key *k = &set->keys[i];
		void *scratch = g_malloc0(MAX(set->struct_size, 1));
		gboolean ok = TRUE;

		if (k->offset >= MAX(set->struct_size, 1) ||
		    strcmp(k->section, set->section) != 0)
			ok = FALSE;
		else if (k->def)
			ok = wbsim_config_parse_value(k, k->def, NULL,
						      (char *)scratch + k->offset,
						      NULL);
		if (ok)
			wbsim_config_free_field(k, (char *)scratch + k->offset);
		g_free(scratch);
		if (!ok) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
				    "[%s] %s: parameter %s has a bad section, offset or default",
				    set->section, set->name, k->key);
			return FALSE;
		}
	}
	G_LOCK(registry);
	if (!registered_sets)
		registered_sets = g_ptr_array_new();
	g_ptr_array_add(registered_sets, (gpointer)set);
	G_UNLOCK(registry);
	return TRUE;
}
