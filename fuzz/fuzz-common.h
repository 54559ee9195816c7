/* SPDX-License-Identifier: MIT */
/*
 * fuzz/fuzz-common.h - helpers shared by the libFuzzer targets: an empty
 * base directory and an input filter, so that a target reads no file but
 * its input.
 */
#ifndef WBSIM_FUZZ_COMMON_H
#define WBSIM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>

/**
 * fuzz_empty_dir() - an empty directory, made once per process, to give
 * the loaders as the base of relative file names (every relative include,
 * fio file or preset path then names a file that does not exist)
 *
 * Return: its path (static).
 */
const char *fuzz_empty_dir(void);

/**
 * fuzz_reads_no_file() - whether parsing @data could not open a file
 * outside fuzz_empty_dir()
 * @data: the input
 * @size: its length
 *
 * A line that mentions include, fio or preset (any case) and holds a path
 * separator, '$' (an environment variable can expand to a path) or '~' may
 * name any file, /dev/zero included: such inputs are skipped.
 *
 * Return: TRUE if the input is safe to parse.
 */
gboolean fuzz_reads_no_file(const uint8_t *data, size_t size);

struct wbsim_scenario;

/**
 * fuzz_check_dump_round_trip() - the dump of @scn loads, and its own dump
 * is the same text; abort() otherwise. Frees @scn.
 * @scn: a scenario that loaded
 */
void fuzz_check_dump_round_trip(struct wbsim_scenario *scn);

#endif /* WBSIM_FUZZ_COMMON_H */
