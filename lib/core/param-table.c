/* SPDX-License-Identifier: MIT */
/*
 * param-table.c - the parameter tables as a whole: the one check of a
 * table (the registries run it on every model they are given, and a model
 * runs it in its own tests through include/wbsim/param.h), and the public
 * face by which a model's own checks and tests set its struct through the
 * same rows, grammar and messages (param.c) as the registries do when a
 * scenario names the model.
 */
#include <string.h>
#include <wbsim/error.h>
#include <wbsim/param.h>
#include "core/arg-check.h"
#include "core/param.h"

/* The owner the messages of a table set outside a registry name. */
#define TABLE_OWNER "parameter table:"

/*
 * The first fault of row @p of @table (filling @size bytes, under @rules),
 * "KEY: what", or NULL.
 */
static char *row_fault(const struct wbsim_param *table, const struct wbsim_param *p,
		       size_t size, unsigned int rules)
{
	g_autofree void *scratch = NULL;
	g_autoptr(GError) error = NULL;
	gboolean ok;

	for (const struct wbsim_param *q = table; q < p; q++)
		if (strcmp(q->name, p->name) == 0)
			return g_strdup_printf("%s: the key is in the table twice", p->name);
	if (p->offset + wbsim_param_field_size(p->type) > size)
		return g_strdup_printf("%s: its field (offset %zu, %zu bytes) lies outside the struct (%zu bytes)",
				       p->name, p->offset, wbsim_param_field_size(p->type), size);
	if (!p->help || !*p->help)
		return g_strdup_printf("%s: no help text", p->name);
	if (p->max > 0 && p->min > p->max)
		return g_strdup_printf("%s: minimum %g above maximum %g", p->name, p->min, p->max);
	if ((rules & WBSIM_PARAM_RULE_NUMBERS) && wbsim_param_is_text(p->type))
		return g_strdup_printf("%s: a text row: expected numbers only", p->name);
	/* a cost row's default is the host profile's (WBSIM_PARAM_COST) */
	if ((rules & WBSIM_PARAM_RULE_DEFAULTS) && !p->def && !(p->flags & WBSIM_PARAM_COST))
		return g_strdup_printf("%s: no default: expected one in every row", p->name);
	if (!p->def)
		return NULL;	/* a required row */
	/* the default, parsed as a setting is ("default of KEY = TEXT: expected ...") */
	scratch = g_malloc0(MAX(size, 1));
	ok = wbsim_param_apply(p, scratch, p->def, "default of", NULL, 0, &error);
	if (ok)
		wbsim_param_free_field(p, scratch);
	return ok ? NULL : g_strdup(error->message);
}

gboolean wbsim_param_table_check_as(const struct wbsim_param *table, size_t struct_size,
				    unsigned int rules, const char *owner, GError **error)
{
	for (const struct wbsim_param *p = table; p->name; p++) {
		g_autofree char *fault = row_fault(table, p, struct_size, rules);

		if (fault) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
				    "%s row %td: %s", owner, p - table, fault);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean wbsim_param_table_check(const struct wbsim_param *table, size_t struct_size,
				 GError **error)
{
	wbsim_check_arg(table != NULL, FALSE, error);
	return wbsim_param_table_check_as(table, struct_size, 0, TABLE_OWNER, error);
}

gboolean wbsim_param_table_defaults(const struct wbsim_param *table, void *base,
				    GError **error)
{
	wbsim_check_arg(table != NULL && base != NULL, FALSE, error);
	return wbsim_param_apply_defaults(table, base, TABLE_OWNER, error);
}

gboolean wbsim_param_table_set(const struct wbsim_param *table, void *base, const char *key,
			       const char *value, GError **error)
{
	wbsim_check_arg(table != NULL && base != NULL && key != NULL && value != NULL,
			FALSE, error);
	return wbsim_param_set(table, base, key, value, TABLE_OWNER, NULL, 0, error);
}

void wbsim_param_table_clear(const struct wbsim_param *table, void *base)
{
	g_return_if_fail(table != NULL && base != NULL);
	for (const struct wbsim_param *p = table; p->name; p++)
		wbsim_param_free_field(p, base);
}
