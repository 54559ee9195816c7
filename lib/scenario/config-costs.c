/* SPDX-License-Identifier: MIT */
/*
 * config-costs.c - [costs] of a scenario: the host's CPU costs. A key is a
 * row of the CPU cost table (core/cpu-costs.c: "copy_page_ns") or a
 * filesystem model's cost row (WBSIM_PARAM_COST) as "FS.KEY"
 * ("xfs.alloc_ns"); [costs] host names the kernel build they were
 * measured on. Every cost not set here is the built-in host profile's
 * (core/host-profile.h), and a host profile of another host is an include
 * file holding a [costs] section. A profile covers every filesystem: the
 * rows of a filesystem the scenario does not use are checked, and left to
 * a scenario that uses it.
 */
#include <string.h>

#include <wbsim/error.h>
#include <wbsim/fs.h>
#include "scenario/config-private.h"
#include "core/cpu-costs.h"
#include "core/host-profile.h"
#include "fs/alloc/fs.h"

/*
 * The filesystem row of "FS.KEY" (@key), with the model's name copied to
 * @fs_name; NULL for a key without a dot. *@why says what is wrong with a
 * dotted key that names no cost.
 */
static const struct wbsim_param *fs_cost_row(const char *key, char **fs_name,
					     const char **why)
{
	const char *dot = strchr(key, '.');
	const struct wbsim_fs_ops *ops;
	const struct wbsim_param *row;

	*fs_name = NULL;
	*why = NULL;
	if (!dot)
		return NULL;
	*fs_name = g_strndup(key, (gsize)(dot - key));
	ops = wbsim_fs_lookup(*fs_name);
	if (!ops) {
		*why = "no such filesystem model";
		return NULL;
	}
	row = wbsim_param_find(ops->options, dot + 1);
	if (!row || !(row->flags & WBSIM_PARAM_COST)) {
		*why = row ? "an option of the filesystem, not a CPU cost: set it in [filesystem]"
			   : "the filesystem model has no such cost";
		return NULL;
	}
	return row;
}

/* "KEY, KEY, ..." of every [costs] key, for the unknown-key message. */
static char *cost_key_names(void)
{
	GString *out = g_string_new(NULL);
	g_auto(GStrv) filesystems = wbsim_fs_names();

	wbsim_param_append_names(out, wbsim_cpu_costs_params());
	for (size_t i = 0; filesystems[i]; i++) {
		const struct wbsim_fs_ops *ops = wbsim_fs_lookup(filesystems[i]);

		for (const struct wbsim_param *o = ops->options; o && o->name; o++)
			if (o->flags & WBSIM_PARAM_COST)
				g_string_append_printf(out, ", %s.%s", ops->name, o->name);
	}
	return g_string_free(out, FALSE);
}

gboolean wbsim_config_check_costs(const struct wbsim_config *cfg, GError **error)
{
	struct wbsim_cpu_costs scratch;

	wbsim_cpu_costs_init(&scratch);
	for (guint i = 0; i < cfg->cost_params->len; i++) {
		const struct wbsim_config_override *o = cfg->cost_params->pdata[i];
		g_autofree char *fs_name = NULL;
		const char *why;
		const struct wbsim_param *row = fs_cost_row(o->key, &fs_name, &why);

		if (row) {
			g_autoptr(GError) local = NULL;
			g_autofree void *field = g_malloc0(MAX(wbsim_param_field_size(row->type), 8));

			/* the row's own grammar, on a scratch field */
			if (!wbsim_param_parse_row(row, o->value, NULL, field, &local)) {
				wbsim_param_value_error(error, local->code, o->file, o->line,
							"[costs]", o->key, o->value,
							local->message);
				return FALSE;
			}
			continue;
		}
		if (why) {
			g_autofree char *where = wbsim_param_where(o->file, o->line);

			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s[costs] %s = %s: %s: expected FS.KEY with FS a filesystem model and KEY one of its CPU costs",
				    where, o->key, o->value, why);
			return FALSE;
		}
		if (!wbsim_param_find(wbsim_cpu_costs_params(), o->key)) {
			g_autofree char *names = cost_key_names();

			wbsim_param_set_unknown_key(error, "[costs]", o->key, names, o->file,
						    o->line);
			return FALSE;
		}
		if (!wbsim_cpu_costs_set(&scratch, o->key, o->value, o->file, o->line, error))
			return FALSE;
	}
	return TRUE;
}

gboolean wbsim_config_costs_apply(const struct wbsim_config *cfg,
				  struct wbsim_cpu_costs *costs, GError **error)
{
	wbsim_cpu_costs_init(costs);
	for (guint i = 0; i < cfg->cost_params->len; i++) {
		const struct wbsim_config_override *o = cfg->cost_params->pdata[i];

		if (strchr(o->key, '.'))
			continue;	/* a filesystem's: wbsim_config_fs_settings() */
		if (!wbsim_cpu_costs_set(costs, o->key, o->value, o->file, o->line, error))
			return FALSE;
	}
	return TRUE;
}

GArray *wbsim_config_fs_settings(const struct wbsim_config *cfg)
{
	GArray *a = g_array_new(FALSE, TRUE, sizeof(struct wbsim_setting));
	gsize n = strlen(cfg->fs_type);

	for (guint i = 0; i < cfg->cost_params->len; i++) {
		const struct wbsim_config_override *o = cfg->cost_params->pdata[i];

		if (strncmp(o->key, cfg->fs_type, n) == 0 && o->key[n] == '.') {
			struct wbsim_setting s = { o->key + n + 1, o->value, o->file, o->line };

			g_array_append_val(a, s);
		}
	}
	{
		g_autoptr(GArray) fs = wbsim_config_settings(cfg->fs_params);

		g_array_append_vals(a, fs->data, fs->len);
	}
	return a;
}

/* The text [costs] @key has in @cfg: its last override, else the profile's. */
static const char *core_cost_text(const struct wbsim_config *cfg, const char *key)
{
	const struct wbsim_ini_entry *e = wbsim_host_profile_lookup(key);
	const char *value = e ? e->value : NULL;

	for (guint i = 0; i < cfg->cost_params->len; i++) {
		const struct wbsim_config_override *o = cfg->cost_params->pdata[i];

		if (strcmp(o->key, key) == 0)
			value = o->value;
	}
	return value;
}

void wbsim_config_dump_costs(GString *out, const struct wbsim_config *cfg)
{
	const struct wbsim_fs_ops *ops = wbsim_fs_lookup(cfg->fs_type);
	g_autoptr(GArray) settings = wbsim_config_fs_settings(cfg);

	for (const struct wbsim_param *p = wbsim_cpu_costs_params(); p->name; p++) {
		const char *v = core_cost_text(cfg, p->name);

		if (v)
			g_string_append_printf(out, "%s = %s\n", p->name, v);
	}
	for (const struct wbsim_param *o = ops ? ops->options : NULL; o && o->name; o++) {
		const char *v = (o->flags & WBSIM_PARAM_COST)
			? wbsim_fs_cost_value(ops->name, o->name,
					      (const struct wbsim_setting *)settings->data,
					      settings->len)
			: NULL;

		if (v)
			g_string_append_printf(out, "%s.%s = %s\n", ops->name, o->name, v);
	}
	/* the other filesystems' costs the scenario sets, as it set them */
	for (guint i = 0; i < cfg->cost_params->len; i++) {
		const struct wbsim_config_override *o = cfg->cost_params->pdata[i];
		gsize n = strlen(cfg->fs_type);

		if (strchr(o->key, '.') &&
		    !(strncmp(o->key, cfg->fs_type, n) == 0 && o->key[n] == '.'))
			g_string_append_printf(out, "%s = %s\n", o->key, o->value);
	}
}

/*
 * Row @p under the name @name as a key reference line: its default is the
 * built-in host profile's value, and its meaning the row's help (what the
 * cost is) followed by the source the profile records above the value.
 */
static void cost_row(GString *out, const struct wbsim_param *p, const char *name,
		     void (*row)(GString *, const char *, const struct wbsim_param *,
				 const char *))
{
	const struct wbsim_ini_entry *e = wbsim_host_profile_lookup(name);
	const char *source = wbsim_host_profile_source(name);
	struct wbsim_param shown = *p;
	g_autofree char *help = NULL;

	if (e && source[0])
		help = g_strdup_printf("%s. Source (%s): %s", p->help,
				       wbsim_host_profile_name(), source);
	shown.name = name;
	shown.def = e ? e->value : p->def;
	shown.help = help ? help : p->help;
	row(out, "costs", &shown, "(none)");
}

void wbsim_config_costs_markdown(GString *out,
				 void (*row)(GString *, const char *,
					     const struct wbsim_param *, const char *))
{
	g_auto(GStrv) filesystems = wbsim_fs_names();

	for (const struct wbsim_param *p = wbsim_cpu_costs_params(); p->name; p++)
		cost_row(out, p, p->name, row);
	for (size_t i = 0; filesystems[i]; i++) {
		const struct wbsim_fs_ops *ops = wbsim_fs_lookup(filesystems[i]);

		for (const struct wbsim_param *o = ops->options; o && o->name; o++) {
			g_autofree char *name = NULL;

			if (!(o->flags & WBSIM_PARAM_COST))
				continue;
			name = g_strdup_printf("%s.%s", ops->name, o->name);
			cost_row(out, o, name, row);
		}
	}
}
