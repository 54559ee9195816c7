/* SPDX-License-Identifier: MIT */
/* test-registry.c - the registry helper behind the device, filesystem and
 * affinity registries: built-ins first, registration order, a duplicate
 * name refused with its text, lookups by name. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/error.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
