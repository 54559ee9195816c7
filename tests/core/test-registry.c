/* SPDX-License-Identifier: MIT */
/* test-registry.c - the registry helper behind the device, filesystem and
 * affinity registries: built-ins first, registration order, a duplicate
 * name refused with its text, lookups by name; the one check of a model's
 * parameter table run by the registry, under the model's name, with the
 * rules a registry adds, each bad table's exact text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/error.h>
#include "core/param.h"
#include "core/registry.h"

struct thing_ops {
	unsigned int version;
	const char *name;	/* not the first member: the offset is used */
};

static const struct thing_ops one = { 1, "one" }, two = { 1, "two" };
static const struct thing_ops extra = { 1, "extra" }, again = { 2, "one" };
static const void *const builtins[] = { &one, &two };

static void test_registry(void **state)
{
	static struct wbsim_registry r = WBSIM_REGISTRY_INIT("thing", struct thing_ops, builtins);
	g_auto(GStrv) before = NULL, after = NULL;
	GError *error = NULL;

	(void)state;
	before = wbsim_registry_names(&r);
	assert_int_equal(g_strv_length(before), 2);
	assert_string_equal(before[0], "one");
	assert_string_equal(before[1], "two");
	assert_ptr_equal(wbsim_registry_lookup(&r, "two"), &two);
	assert_null(wbsim_registry_lookup(&r, "extra"));
	assert_null(wbsim_registry_lookup(&r, NULL));

	assert_true(wbsim_registry_add(&r, &extra, &error));
	assert_null(error);
	assert_ptr_equal(wbsim_registry_lookup(&r, "extra"), &extra);
	assert_false(wbsim_registry_add(&r, &again, &error));
	assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	assert_string_equal(error->message, "thing 'one' is already registered");
	g_clear_error(&error);
	assert_ptr_equal(wbsim_registry_lookup(&r, "one"), &one);
	after = wbsim_registry_names(&r);
	assert_int_equal(g_strv_length(after), 3);
	assert_string_equal(after[2], "extra");
}

/* Ops with a parameter table, as a device's (params, priv_size). */
struct model_ops {
	const char *name;
	const struct wbsim_param *params;
	size_t priv_size;
};

/* Registering a model with @table of @size bytes fails with @msg. */
static void assert_refused(struct wbsim_registry *r, const struct wbsim_param *table,
			   size_t size, const char *msg)
{
	const struct model_ops ops = { "bad", table, size };
	GError *error = NULL;

	assert_false(wbsim_registry_add(r, &ops, &error));
	assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	assert_string_equal(error->message, msg);
	g_clear_error(&error);
	assert_null(wbsim_registry_lookup(r, "bad"));
}

static void test_registry_params(void **state)
{
	static const struct model_ops none = { "none", NULL, 0 };
	static const void *const models[] = { &none };
	static struct wbsim_registry plain =
		WBSIM_REGISTRY_INIT_PARAMS("thing", struct model_ops, models, params, priv_size, 0);
	static struct wbsim_registry strict =
		WBSIM_REGISTRY_INIT_PARAMS("thing", struct model_ops, models, params, priv_size,
					   WBSIM_PARAM_RULE_DEFAULTS | WBSIM_PARAM_RULE_NUMBERS);
	static const struct wbsim_param good[] = {
		{ "latency", WBSIM_PARAM_TIME, 0, "1us", NULL, 0, 0, "time of one request" },
		{ "depth", WBSIM_PARAM_UINT, 8, NULL, "requests", 1, 64, "queue depth" },
		{ .name = NULL },
	};
	static const struct wbsim_param text_row[] = {
		{ "label", WBSIM_PARAM_STRING, 0, "disk0", NULL, 0, 0, "what to call it" },
		{ .name = NULL },
	};
	static const struct model_ops ok = { "ok", good, 16 };
	GError *error = NULL;

	(void)state;
	/* the faults of the table itself: wbsim_param_table_check()'s, each
	 * with its text in tests/api/test-api.c; here under the model's name */
	assert_refused(&plain, good, 12,
		       "thing 'bad': parameter table: row 1: depth: its field (offset 8, 8 bytes) "
		       "lies outside the struct (12 bytes)");
	/* the rules a registry adds: every row optional, numbers only */
	assert_refused(&strict, good, 16,
		       "thing 'bad': parameter table: row 1: depth: no default: expected one in every row");
	assert_refused(&strict, text_row, sizeof(char *),
		       "thing 'bad': parameter table: row 0: label: a text row: expected numbers only");

	/* a good table, and none at all, are taken */
	assert_true(wbsim_registry_add(&plain, &ok, &error));
	assert_null(error);
	assert_ptr_equal(wbsim_registry_lookup(&plain, "ok"), &ok);
	{
		static const struct model_ops bare = { "bare", NULL, 0 };

		assert_true(wbsim_registry_add(&strict, &bare, &error));
		assert_null(error);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_registry_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
