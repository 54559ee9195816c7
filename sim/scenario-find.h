/* SPDX-License-Identifier: MIT */
/*
 * sim/scenario-find.h - scenarios found by name: "sim-writeback
 * e1-pmem-xfs-parallel" runs the bundled scenario wherever the program
 * runs from.
 */
#ifndef WBSIM_SIM_SCENARIO_FIND_H
#define WBSIM_SIM_SCENARIO_FIND_H

#include <glib.h>

/*
 * wbsim_scenario_find() - the file a scenario argument names: @arg itself
 * when it is a path (it has a '/', or a file of that name exists), else
 * NAME.ini (or NAME) in the scenario folders: $WBSIM_SCENARIO_PATH
 * (':'-separated); the source tree's scenarios/ when the program runs from
 * its build folder, else share/wbsim/scenarios beside the program's bin/;
 * then the configured PREFIX/share/wbsim/scenarios. Return: a new string; @arg itself (a copy)
 * when nothing is found, so the loader's message names what was given.
 */
char *wbsim_scenario_find(const char *arg);

/* The scenario folders searched, in order (a new NULL-terminated array). */
char **wbsim_scenario_dirs(void);

/*
 * wbsim_scenario_list() - one line per scenario found by name: "NAME
 * description" (the [scenario] description's first line), sorted by
 * name, a name shadowed by an earlier folder listed once.
 */
char *wbsim_scenario_list(void);

#endif
