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

/* Each pair: its Levenshtein distance and its optimal string alignment
 * distance (a swap of adjacent characters one edit). */
static const struct {
	const char *a, *b;
	size_t levenshtein, osa;
} pairs[] = {
	{ "", "", 0, 0 },
	{ "abc", "", 3, 3 },
	{ "", "abcd", 4, 4 },
	{ "kitten", "sitting", 3, 3 },
	{ "sitting", "kitten", 3, 3 },
	{ "flaw", "lawn", 2, 2 },
	{ "Ratio", "ratio", 1, 1 },		/* case counts */
	{ "dirty_ratio", "dirty_ratio", 0, 0 },
	{ "ratoi", "ratio", 2, 1 },
	{ "ab", "ba", 2, 1 },
	{ "abcdef", "badcfe", 4, 3 },
	{ "dirty_backgroudn_ratio", "dirty_background_ratio", 2, 1 },
	/* optimal string alignment: "ca" -> "ac" -> "abc" would edit "ac"
	 * twice, so 3 (Damerau's unrestricted distance is 2) */
	{ "ca", "abc", 3, 3 },
};

static void test_distances(void **state)
{
	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++) {
		size_t lev = wbsim_edit_distance(pairs[i].a, pairs[i].b, false);
		size_t osa = wbsim_edit_distance(pairs[i].a, pairs[i].b, true);

		if (lev != pairs[i].levenshtein || osa != pairs[i].osa)
			fail_msg("\"%s\" -> \"%s\": %zu and %zu edits, expected %zu and %zu",
				 pairs[i].a, pairs[i].b, lev, osa,
				 pairs[i].levenshtein, pairs[i].osa);
	}
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
		cmocka_unit_test(test_distances),
		cmocka_unit_test(test_closest_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
