/* SPDX-License-Identifier: MIT */
/*
 * core/edit-distance.c - the Levenshtein and optimal string alignment
 * distances, row by row (the last three rows of the matrix are all a
 * transposition looks back to).
 */
#include <string.h>
#include <glib.h>
#include "core/edit-distance.h"

size_t wbsim_edit_distance(const char *a, const char *b, bool transpose)
{
	size_t la = strlen(a), lb = strlen(b);
	g_autofree size_t *rows = g_new(size_t, 3 * (lb + 1));
	size_t *before = rows, *prev = rows + lb + 1, *cur = rows + 2 * (lb + 1);

	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *t;

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = MIN(prev[j] + 1, cur[j - 1] + 1);

			best = MIN(best, prev[j - 1] + (a[i - 1] != b[j - 1]));
			if (transpose && i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1])
				best = MIN(best, before[j - 2] + 1);
			cur[j] = best;
		}
		t = before;
		before = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}
