/* SPDX-License-Identifier: MIT */
/*
 * defs/load-checks.h - what loading a scenario (lib/scenario) asks of the
 * runner (lib/run): a [sweep] line is checked as a sweep axis when it is
 * read, and the machine a run would build is built once at load, so that
 * its errors come with the file's other errors. Declared here, in a
 * neutral header, so that lib/scenario includes nothing of lib/run (which
 * includes lib/scenario's headers); defined in lib/run/sweep.c and
 * lib/run/run.c.
 */
#ifndef WBSIM_DEFS_LOAD_CHECKS_H
#define WBSIM_DEFS_LOAD_CHECKS_H

#include <glib.h>

struct wbsim_config;
struct wbsim_scenario;

/**
 * wbsim_sweep_add_line() - a [sweep] line of a scenario file (the loader's
 * part: called by wbsim_config_set_value() for section "sweep")
 * @cfg: the configuration being loaded
 * @name: the line's key, "section.key"
 * @value: the line's value (VALUES), or NULL when the line has none
 * @file: the file
 * @line: the line
 * @instance: the loaded file (a key may be swept once per file; a later
 *	file replaces an earlier file's sweep of the key, where it stood)
 * @base_dir: the file's directory
 * @error: "FILE:LINE: [sweep] KEY = VALUES: reason"
 *
 * Checks that KEY names a scenario key holding one value, and that VALUES
 * parses; the values themselves are checked point by point.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_add_line(struct wbsim_config *cfg, const char *name,
			      const char *value, const char *file,
			      unsigned int line, unsigned int instance,
			      const char *base_dir, GError **error);

/*
 * wbsim_run_check_setup() - build what the run of @scn builds first (the
 * machine, its device and filesystem, every job with its files) on a
 * scratch simulation, check the files fit, and tear it down: the errors a
 * run would meet before its first event, found at load (--parse-only).
 */
gboolean wbsim_run_check_setup(const struct wbsim_scenario *scn, GError **error);

#endif /* WBSIM_DEFS_LOAD_CHECKS_H */
