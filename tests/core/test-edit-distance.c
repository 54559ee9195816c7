/* SPDX-License-Identifier: MIT */
/*
 * test-edit-distance.c - core/edit-distance.c, the one edit distance of
 * every "did you mean": exact Levenshtein and optimal string alignment
 * values, a swap of adjacent characters one edit only with @transpose,
 * no substring edited twice ("ca" -> "abc" is 3, not Damerau's 2), case
 * counted, and the names it makes wbsim_closest_name() suggest.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <glib.h>
#include "core/edit-distance.h"
#include "core/param.h"

static void test_levenshtein(void **state)
{
	(void)state;
	assert_int_equal(wbsim_edit_distance("", "", false), 0);
	assert_int_equal(wbsim_edit_distance("abc", "", false), 3);
	assert_int_equal(wbsim_edit_distance("", "abcd", false), 4);
	assert_int_equal(wbsim_edit_distance("kitten", "sitting", false), 3);
	assert_int_equal(wbsim_edit_distance("sitting", "kitten", false), 3);
	assert_int_equal(wbsim_edit_distance("flaw", "lawn", false), 2);
	assert_int_equal(wbsim_edit_distance("ratoi", "ratio", false), 2);
	assert_int_equal(wbsim_edit_distance("ca", "abc", false), 3);
	assert_int_equal(wbsim_edit_distance("Ratio", "ratio", false), 1);
	assert_int_equal(wbsim_edit_distance("dirty_ratio", "dirty_ratio", false), 0);
}

static void test_transpositions(void **state)
{
	(void)state;
	assert_int_equal(wbsim_edit_distance("", "", true), 0);
	assert_int_equal(wbsim_edit_distance("abc", "", true), 3);
	assert_int_equal(wbsim_edit_distance("kitten", "sitting", true), 3);
	assert_int_equal(wbsim_edit_distance("ratoi", "ratio", true), 1);
	assert_int_equal(wbsim_edit_distance("ab", "ba", true), 1);
	assert_int_equal(wbsim_edit_distance("abcdef", "badcfe", true), 3);
	/* optimal string alignment: "ca" -> "ac" -> "abc" edits "ac" twice */
	assert_int_equal(wbsim_edit_distance("ca", "abc", true), 3);
	assert_int_equal(wbsim_edit_distance("dirty_backgroudn_ratio",
					     "dirty_background_ratio", true), 1);
}

static void test_closest_name(void **state)
{
	static const char *const names[] = {
		"dirty_ratio", "dirty_bytes", "dirty_background_ratio", NULL
	};

	(void)state;
	assert_string_equal(wbsim_closest_name("dirty_ratoi", names), "dirty_ratio");
	assert_string_equal(wbsim_closest_name("dirty_bytse", names), "dirty_bytes");
	assert_null(wbsim_closest_name("writeback", names));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levenshtein),
		cmocka_unit_test(test_transpositions),
		cmocka_unit_test(test_closest_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
