/* SPDX-License-Identifier: MIT */
/*
 * registry.c - a registry of named ops tables (core/registry.h).
 */
#include <string.h>
#include <wbsim/error.h>
#include "core/param.h"
#include "core/registry.h"

static const char *name_of(const struct wbsim_registry *r, const void *ops)
{
	return *(const char *const *)((const char *)ops + r->name_offset);
}

/* Called with the lock held: the built-ins come first. */
static void init_locked(struct wbsim_registry *r)
{
	if (r->items)
		return;
	r->items = g_ptr_array_new();
	for (size_t i = 0; i < r->nr_builtins; i++)
		g_ptr_array_add(r->items, (gpointer)r->builtins[i]);
}

static const void *find_locked(const struct wbsim_registry *r, const char *name)
{
	for (guint i = 0; i < r->items->len; i++)
		if (strcmp(name_of(r, r->items->pdata[i]), name) == 0)
			return r->items->pdata[i];
	return NULL;
}

/* The parameter table of @ops, if the registry's ops have one. */
static gboolean check_params(const struct wbsim_registry *r, const void *ops,
			     GError **error)
{
	const struct wbsim_param *table;
	size_t size;
	g_autofree char *owner = NULL;

	if (!r->has_params)
		return TRUE;
	table = *(const struct wbsim_param *const *)((const char *)ops + r->params_offset);
	size = *(const size_t *)((const char *)ops + r->size_offset);
	if (!table)
		return TRUE;
	owner = g_strdup_printf("%s '%s': parameter table:", r->what, name_of(r, ops));
	return wbsim_param_table_check_as(table, size, r->param_rules, owner, error);
}

gboolean wbsim_registry_add(struct wbsim_registry *r, const void *ops, GError **error)
{
	gboolean ok = FALSE;

	if (!check_params(r, ops, error))
		return FALSE;
	g_mutex_lock(&r->lock);
	init_locked(r);
	if (find_locked(r, name_of(r, ops))) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "%s '%s' is already registered", r->what, name_of(r, ops));
	} else {
		g_ptr_array_add(r->items, (gpointer)ops);
		ok = TRUE;
	}
	g_mutex_unlock(&r->lock);
	return ok;
}

const void *wbsim_registry_lookup(struct wbsim_registry *r, const char *name)
{
	const void *ops;

	if (!name)
		return NULL;
	g_mutex_lock(&r->lock);
	init_locked(r);
	ops = find_locked(r, name);
	g_mutex_unlock(&r->lock);
	return ops;
}

char **wbsim_registry_names(struct wbsim_registry *r)
{
	char **names;

	g_mutex_lock(&r->lock);
	init_locked(r);
	names = g_new0(char *, r->items->len + 1);
	for (guint i = 0; i < r->items->len; i++)
		names[i] = g_strdup(name_of(r, r->items->pdata[i]));
	g_mutex_unlock(&r->lock);
	return names;
}
