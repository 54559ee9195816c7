/* SPDX-License-Identifier: MIT */
/*
 * scenario-load.c - the loaders of include/wbsim/scenario.h: the scenario
 * room reads the file and checks it as far as the scenario itself goes
 * (wbsim_scenario_read(): keys, includes, overrides, the fio job file,
 * events); what a run would refuse before its first event (a device or
 * filesystem that cannot be built, files that do not fit) is refused here,
 * at load, by building the machine once (wbsim_run_check_setup()), so
 * that --parse-only and a program see it with the file's other errors.
 */
#include <wbsim/scenario.h>
#include "core/arg-check.h"
#include "run/run.h"
#include "scenario/config-private.h"

/* @scn (NULL: its reading failed) if a run could set it up, else NULL. */
static struct wbsim_scenario *setup_checked(struct wbsim_scenario *scn, GError **error)
{
	if (scn && !wbsim_run_check_setup(scn, error)) {
		wbsim_scenario_free(scn);
		return NULL;
	}
	return scn;
}

struct wbsim_scenario *wbsim_scenario_load(const char *path, const char *const *overrides,
					   GError **error)
{
	wbsim_check_arg(path != NULL, NULL, error);
	return setup_checked(wbsim_scenario_read(path, overrides, NULL, NULL, error), error);
}

struct wbsim_scenario *wbsim_scenario_load_hooked(const char *path,
						  const char *const *overrides,
						  wbsim_scenario_hook hook, void *arg,
						  GError **error)
{
	return setup_checked(wbsim_scenario_read(path, overrides, hook, arg, error), error);
}

struct wbsim_scenario *wbsim_scenario_load_string(const char *text, const char *display_name,
						  const char *base_dir,
						  const char *const *overrides, GError **error)
{
	wbsim_check_arg(text != NULL, NULL, error);
	return setup_checked(wbsim_scenario_read_string(text, display_name, base_dir, overrides,
							error),
			     error);
}
