/* SPDX-License-Identifier: MIT */
/*
 * core/edit-distance.h - how far apart two words are, for the "did you
 * mean" of every name the program reads: scenario sections and keys,
 * presets, scenarios, event and enum words (wbsim_closest_name(),
 * core/param.h), and fio's options (wbsim_fio_option_closest(), which
 * counts as fio's parse.c string_distance() does, so that it suggests
 * what fio suggests).
 */
#ifndef WBSIM_CORE_EDIT_DISTANCE_H
#define WBSIM_CORE_EDIT_DISTANCE_H

#include <stdbool.h>
#include <stddef.h>

/**
 * wbsim_edit_distance() - edits that turn @a into @b
 * @a: a NUL-terminated string
 * @b: a NUL-terminated string
 * @transpose: a swap of two adjacent characters counts as one edit (the
 *	commonest typo, "ratoi" for "ratio"): the optimal string alignment
 *	distance, where no substring is edited twice ("ca" to "abc" is 3);
 *	false: the Levenshtein distance (inserts, deletions, substitutions)
 *
 * Bytes are compared as they are (case counts); O(strlen(@a) *
 * strlen(@b)) time, O(strlen(@b)) memory.
 *
 * Return: the number of edits.
 */
size_t wbsim_edit_distance(const char *a, const char *b, bool transpose);

#endif /* WBSIM_CORE_EDIT_DISTANCE_H */
