/* SPDX-License-Identifier: MIT */
/*
 * wbsim/scenario.h - a scenario: a scenario.ini file read into a checked
 * configuration plus the fio jobs it names (a job file, or inline
 * [fio:NAME] sections), resolved against the simulated machine.
 *
 * Loading order: the file (and its includes, in place), then the
 * overrides in order, then the checks that involve several keys, then the
 * fio jobs ($ncpus and $mb_memory are the simulated machine's).
 *
 * Thread safety (every function of this header unless it says otherwise):
 * loading touches no shared state except the registries (read
 * under their locks): safe from any thread. A loaded scenario is only
 * read afterwards: several threads may run or dump it at once.
 */
#ifndef WBSIM_SCENARIO_H
#define WBSIM_SCENARIO_H

#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>

WBSIM_BEGIN_DECLS

/** typedef wbsim_scenario - a loaded, checked scenario (opaque) */
typedef struct wbsim_scenario wbsim_scenario;

/**
 * wbsim_scenario_load() - read, override, check and resolve a scenario
 * @path: the scenario file; its name is used in messages as given
 * @overrides: NULL-terminated "section.key=value" list, or NULL
 * @error: a WBSIM_ERROR whose message names file, line, section, key, the
 *	   value found and what was expected ("FILE:LINE: [vm] dirty_ratio =
 *	   200: expected ..."); a bad override's starts "override: " where a
 *	   file's would start "FILE:LINE: " ("override: [vm] dirty_ratio =
 *	   200: expected ...", "override: 'vm.dirty_ratio': expected
 *	   SECTION.KEY=VALUE")
 *
 * Return: the scenario, or NULL with @error set.
 */
WBSIM_API struct wbsim_scenario *wbsim_scenario_load(const char *path,
						     const char *const *overrides,
						     GError **error);

/**
 * wbsim_scenario_load_string() - as wbsim_scenario_load() from text
 * @text: the scenario text (NUL-terminated)
 * @display_name: the name used in messages
 * @base_dir: directory relative includes and fio files are read from
 *	      (NULL: the current directory)
 * @overrides: as wbsim_scenario_load()
 * @error: as wbsim_scenario_load()
 *
 * Return: the scenario, or NULL with @error set.
 */
WBSIM_API struct wbsim_scenario *wbsim_scenario_load_string(const char *text,
							    const char *display_name,
							    const char *base_dir,
							    const char *const *overrides,
							    GError **error);

/**
 * wbsim_scenario_find() - the scenario file a name stands for
 * @name: a path (it has a '/', or names a file here that is not a
 *	folder), as is; or the name of a bundled scenario, NAME or NAME.ini,
 *	looked for in wbsim_scenario_dirs() in order
 * @error: WBSIM_ERROR_MISSING when no folder has it: "no scenario NAME:
 *	no such file, and no NAME.ini in DIR, DIR (did you mean NEAR?)";
 *	WBSIM_ERROR_IO when the first folder holding NAME.ini holds a FIFO
 *	or another file that is not a regular one ("DIR/NAME.ini: not a
 *	regular file (a FIFO): expected a scenario file"); it is never
 *	opened; WBSIM_ERROR_INVALID_ARGUMENT for an empty @name
 *
 * Only a regular file (or a symbolic link to one) matches: a folder named
 * NAME or NAME.ini, here or in a folder searched, is passed over.
 * wbsim_scenario_load(wbsim_scenario_find("e1-pmem-xfs-base", &e), ...)
 * loads the bundled E1 scenario wherever the program runs from.
 *
 * Return: the path (g_free() it), or NULL with @error set.
 */
WBSIM_API char *wbsim_scenario_find(const char *name, GError **error);

/**
 * wbsim_scenario_dirs() - the folders bundled scenarios are found in
 *
 * In order: $WBSIM_SCENARIO_PATH (':'-separated); for a program or
 * library in wbsim's build tree its source tree's scenarios/, else
 * DATADIR/wbsim/scenarios beside the program (BINDIR/..) and then beside
 * the shared library (LIBDIR/..); then the configured
 * PREFIX/DATADIR/wbsim/scenarios, which `pkg-config --variable=scenariodir
 * wbsim` prints. Device presets are found in the same way
 * ($WBSIM_PRESET_PATH, DATADIR/wbsim/presets).
 *
 * Return: a NULL-terminated array of folders, each once (g_strfreev()).
 */
WBSIM_API char **wbsim_scenario_dirs(void);

/**
 * wbsim_scenario_list() - the bundled scenarios, as text for a person
 *
 * One line per name wbsim_scenario_find() finds, sorted: the name padded
 * to 46 columns, a blank, then the first line of the file's [scenario]
 * description. Only the first 64 KiB of each file are read (a description
 * further on is not shown). A control character in a name or a
 * description (an escape sequence's ESC, a C1 control) or a byte that is
 * not UTF-8 is written as "\xNN": the list can be printed to a terminal.
 *
 * Return: a new string (g_free() it), "" when no scenario is found.
 */
WBSIM_API char *wbsim_scenario_list(void);

/** wbsim_scenario_free() - free a scenario (NULL is fine). */
WBSIM_API void wbsim_scenario_free(struct wbsim_scenario *scn);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_scenario, wbsim_scenario_free)

/**
 * wbsim_scenario_dump() - the resolved scenario in scenario.ini syntax
 * @scn: the scenario
 *
 * Every key with its value (defaults made explicit, every parameter of the
 * device preset and filesystem type listed), then a comment line per fio
 * job after expansion, then the fio job-file lines as inline [fio:NAME]
 * sections (a job file is inlined; its include lines name the included
 * file by its resolved path). Loading the dump gives the same dump.
 *
 * Return: a new string.
 */
WBSIM_API char *wbsim_scenario_dump(const struct wbsim_scenario *scn);

/**
 * struct wbsim_scenario_workload - how much a scenario asks to simulate,
 * as it resolves (defaults, includes, numjobs expanded)
 * @nr_jobs: fio jobs after numjobs expansion
 * @time_limit_ns: [run] time_limit, ns of simulated time (0: none)
 * @runtime_ns: the longest runtime= of its jobs, ns (0: no job sets one)
 */
struct wbsim_scenario_workload {
	unsigned int nr_jobs;
	uint64_t time_limit_ns;
	uint64_t runtime_ns;
};

/**
 * wbsim_scenario_workload() - the size of the scenario's run
 * @scn: the scenario
 * @out: filled
 * @error: WBSIM_ERROR_INVALID_ARGUMENT for a NULL argument
 *
 * What a program that runs many scenarios (wbsim-calibrate) orders them
 * by, read from the loaded scenario instead of its text.
 *
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_scenario_workload(const struct wbsim_scenario *scn,
					   struct wbsim_scenario_workload *out, GError **error);

/**
 * wbsim_scenario_explain_costs() - what a write costs on the scenario's
 * machine, step by step
 * @scn: the scenario
 * @error: where the scenario's device cannot be built (its check at load
 *	builds it too: a loaded scenario does not fail here)
 *
 * For the resolved machine (the host profile, the [costs] lines, [machine]
 * cpu_speed, the filesystem, the folio size, the first fio job's engine,
 * the device): one buffered 4 KiB write into a page not in the cache, and
 * one 4 KiB page written back in runs of the device's largest request, as
 * the model charges them: each cost's key, value in ns, count, what it is
 * and where its value comes from (the built-in profile's file and line and
 * its host, or the scenario line that sets it), summed; the costs those
 * sums do not charge, with their values; and the CPU-bound bandwidth of
 * one CPU, for the writes alone and with their writeback. Text for people,
 * not for programs.
 *
 * Return: a new string (g_free() it), or NULL with @error set.
 */
WBSIM_API char *wbsim_scenario_explain_costs(const struct wbsim_scenario *scn,
					     GError **error);

/**
 * wbsim_scenario_keys_markdown() - the scenario keys as Markdown tables
 *
 * One row per key (section, key, type, default, range, meaning), then one
 * table per device model (the parameters a preset or [device] sets, from
 * the model's struct wbsim_param table) and per filesystem type (its
 * options): the reference of scenarios/README.md and of sim-writeback
 * --list-keys.
 *
 * Return: a new string (g_free() it).
 */
WBSIM_API char *wbsim_scenario_keys_markdown(void);

WBSIM_END_DECLS

#endif /* WBSIM_SCENARIO_H */
