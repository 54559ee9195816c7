/* SPDX-License-Identifier: MIT */
/*
 * fio/fio-parser.h - internal entry points of the fio job-file parser,
 * for callers that already hold lexed sections (the scenario loader feeds
 * inline fio job sections of scenario.ini through the same code).
 */
#ifndef WBSIM_FIO_FIO_PARSER_H
#define WBSIM_FIO_FIO_PARSER_H

#include <glib.h>
#include "defs/fio.h"
#include "core/ini-lexer.h"

/**
 * wbsim_fio_file_new() - an empty result to add sections to
 *
 * Return: a new struct wbsim_fio_file with empty arrays.
 */
struct wbsim_fio_file *wbsim_fio_file_new(void);

/**
 * wbsim_fio_parse_sections() - add lexed fio sections to a result
 * @file: the result being built (from wbsim_fio_file_new())
 * @sections: struct wbsim_ini_section *, in order; a section whose name
 *	      starts with "global" is a [global] section; entries with key
 *	      "include" (from WBSIM_INI_INCLUDE) are fio include directives
 * @base_dir: directory for relative includes, or NULL for the current one
 * @env: the simulated machine for $ncpus, $mb_memory, $pagesize
 * @implicit_stonewall: give the first job an implicit stonewall, as fio
 *			does for every job file after the first
 * @error: as wbsim_fio_parse_file()
 *
 * Can be called several times on one @file (one call per job file): job
 * numbering, reporting groups and [global] options carry over. On failure
 * @file may hold the jobs added before the failing one; free it.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_fio_parse_sections(struct wbsim_fio_file *file,
				  GPtrArray *sections, const char *base_dir,
				  const struct wbsim_fio_env *env,
				  gboolean implicit_stonewall, GError **error);

#endif /* WBSIM_FIO_FIO_PARSER_H */
