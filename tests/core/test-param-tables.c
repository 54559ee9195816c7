/* SPDX-License-Identifier: MIT */
/*
 * test-param-tables.c - every row of every parameter table (struct
 * wbsim_param: the parameters every device has, each device model's, each
 * filesystem model's options, the CPU costs) has a unit, a line of help and
 * a default that parses with the row's own grammar and lies in its range;
 * keys are unique in their table; each model's table passes the check its
 * registry runs on a registered model; a row without a default is one the
 * listing marks (a device model's required parameter, the scheduler, the
 * costs, whose defaults are the built-in host profile's values).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <wbsim/device.h>
#include <wbsim/fs.h>
#include "block/blk.h"
#include "core/cpu-costs.h"
#include "core/host-profile.h"
#include "core/param.h"

enum no_default {
	DEFAULT_REQUIRED,	/* def NULL: required (device models) */
	DEFAULT_NEEDED,		/* every row has one (filesystems) */
	DEFAULT_FROM_STRUCT,	/* def NULL: the value in @defaults */
};

/* One table's rows, checked into a scratch struct of @size bytes. */
static size_t check_table(const char *owner, const struct wbsim_param *table,
			  size_t size, enum no_default no_default,
			  const void *defaults)
{
	g_autofree void *scratch = g_malloc0(MAX(size, 1));
	size_t n = 0;

	for (const struct wbsim_param *p = table; p && p->name; p++, n++) {
		const char *unit = wbsim_param_unit(p);
		g_autofree char *from_struct = NULL;
		const char *def = p->def;
		GError *error = NULL;

		if (!unit || !*unit)
			fail_msg("%s %s: no unit", owner, p->name);
		if (!p->help || !*p->help)
			fail_msg("%s %s: no help", owner, p->name);
		if (p->offset + wbsim_param_field_size(p->type) > size)
			fail_msg("%s %s: outside its struct", owner, p->name);
		if (p->max > 0 && p->min > p->max)
			fail_msg("%s %s: min above max", owner, p->name);
		for (const struct wbsim_param *q = table; q < p; q++)
			if (strcmp(q->name, p->name) == 0)
				fail_msg("%s %s: twice", owner, p->name);
		/* a filesystem's cost: the built-in host profile's FS.KEY */
		if (!def && (p->flags & WBSIM_PARAM_COST)) {
			g_autofree char *key = g_strdup_printf("%s.%s", owner, p->name);
			const struct wbsim_ini_entry *e = wbsim_host_profile_lookup(key);

			if (!e)
				fail_msg("%s: a cost the built-in host profile (%s) does not give",
					 key, wbsim_host_profile_name());
			def = e->value;
		}
		if (!def && no_default == DEFAULT_FROM_STRUCT) {
			from_struct = wbsim_param_format_value(p->type,
					(const char *)defaults + p->offset);
			def = from_struct;
		}
		if (!def) {
			if (no_default == DEFAULT_NEEDED)
				fail_msg("%s %s: no default", owner, p->name);
			continue;
		}
		if (!wbsim_param_apply(p, scratch, def, owner, NULL, 0, &error))
			fail_msg("%s %s: default '%s': %s", owner, p->name, def,
				 error->message);
		if (p->type == WBSIM_PARAM_STRING) {
			g_free(*(char **)((char *)scratch + p->offset));
		} else if (from_struct) {
			/* the value prints and parses back to itself */
			assert_memory_equal((char *)scratch + p->offset,
					    (const char *)defaults + p->offset,
					    wbsim_param_field_size(p->type));
		}
	}
	return n;
}

static void test_device_tables(void **state)
{
	g_auto(GStrv) models = wbsim_device_model_names();
	size_t rows;

	(void)state;
	rows = check_table("device", wbsim_device_common_params(),
			   sizeof(struct wbsim_device), DEFAULT_REQUIRED, NULL);
	assert_int_equal(rows, 4);
	assert_true(g_strv_length(models) >= 6);
	for (size_t i = 0; models[i]; i++) {
		const struct wbsim_device_ops *ops = wbsim_device_find_ops(models[i]);

		assert_true(check_table(ops->name, ops->params, ops->priv_size,
					DEFAULT_REQUIRED, NULL) > 0);
		/* what the registry asks of a registered model, the built-ins too */
		assert_true(wbsim_param_table_check_as(ops->params, ops->priv_size, 0,
						       ops->name, NULL));
	}
}

static void test_fs_tables(void **state)
{
	g_auto(GStrv) names = wbsim_fs_names();

	(void)state;
	assert_true(g_strv_length(names) >= 4);
	for (size_t i = 0; names[i]; i++) {
		const struct wbsim_fs_ops *ops = wbsim_fs_lookup(names[i]);

		assert_true(check_table(ops->name, ops->options, ops->params_size,
					DEFAULT_NEEDED, NULL) > 0);
		assert_true(wbsim_param_table_check_as(ops->options, ops->params_size,
						       WBSIM_PARAM_RULE_DEFAULTS |
						       WBSIM_PARAM_RULE_NUMBERS, ops->name, NULL));
	}
}

static void test_cost_table(void **state)
{
	(void)state;
	assert_int_equal(check_table("[costs]", wbsim_cpu_costs_params(),
				     sizeof(struct wbsim_cpu_costs),
				     DEFAULT_FROM_STRUCT, wbsim_cpu_costs_default()),
			 26);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_tables),
		cmocka_unit_test(test_fs_tables),
		cmocka_unit_test(test_cost_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
