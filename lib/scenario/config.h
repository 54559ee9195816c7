/* SPDX-License-Identifier: MIT */
/*
 * scenario/config.h - the simulator's configuration: a typed struct filled from
 * a scenario file, and the one table of keys that drives parsing, defaults,
 * range checks, "Did you mean X?", --dump-config and the documentation.
 *
 * Sizes are bytes, times are nanoseconds, kernel sysctls keep their kernel
 * names and units (vm.dirty_expire_centisecs stays in centiseconds).
 *
 * Device and filesystem parameters are not fields of struct wbsim_config:
 * the scenario's [device] and [filesystem] lines other than preset/type are
 * kept as ordered overrides (file and line included) for the model layers.
 * The device layer (include/wbsim/device.h) and the filesystem layer
 * (include/wbsim/fs.h) check them when a scenario is loaded and print them
 * for --dump-config, through struct wbsim_config_section_ops; their rows
 * are struct wbsim_param too, in the models' tables.
 *
 * Thread safety (every function of this header unless it says otherwise):
 * a configuration belongs to one thread at a time; the key table is
 * constant.
 */
#ifndef WBSIM_CONFIG_H
#define WBSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>
#include <wbsim/param.h>	/* struct wbsim_param */
#include "machine/knobs.h"

WBSIM_BEGIN_DECLS

/**
 * struct wbsim_config_override - one [device] or [filesystem] parameter line
 * @key: the parameter name, checked against the preset's own table
 * @value: the value as written
 * @file: where it was set: a file name, or "override"
 * @line: the line in @file (0 for an override)
 * @instance: private: which loaded file set it
 */
struct wbsim_config_override {
	char *key;
	char *value;
	char *file;
	unsigned int line;
	unsigned int instance;
};

/**
 * struct wbsim_config_event - one timed scenario event ([events] at = ...)
 * @at: when, in simulated ns from the start
 * @action: the action name (see wbsim_config_event_actions())
 * @args: what followed the action on the line, blanks trimmed, or NULL
 * @file: where it was set
 * @line: the line in @file
 */
struct wbsim_config_event {
	wbsim_time_t at;
	char *action;
	char *args;
	char *file;
	unsigned int line;
};

/**
 * enum wbsim_moment_kind - when [measure] extents counts extents
 * @WBSIM_MOMENT_END: when the run ends (what is counted if no moment is listed)
 * @WBSIM_MOMENT_AFTER_JOBS: a delay after the last fio job exits
 * @WBSIM_MOMENT_REMOUNT: after everything else: write every dirty page back,
 *	unmount and mount (wbsim_fs_remount()), then count
 */
enum wbsim_moment_kind {
	WBSIM_MOMENT_END,
	WBSIM_MOMENT_AFTER_JOBS,
	WBSIM_MOMENT_REMOUNT,
};

/**
 * struct wbsim_config_moment - one [measure] extents = MOMENT line
 * @kind: enum wbsim_moment_kind
 * @delay: for WBSIM_MOMENT_AFTER_JOBS, ns after the last job exits
 * @name: the canonical text ("after-jobs", "after-jobs+30s", "remount",
 *	"end"), also the moment's name in the results
 * @file: where it was set
 * @line: the line in @file
 */
struct wbsim_config_moment {
	unsigned int kind;
	wbsim_time_t delay;
	char *name;
	char *file;
	unsigned int line;
};

struct wbsim_config_private;

/**
 * struct wbsim_config - a fully typed scenario configuration
 * @description: [scenario] description, free text
 * @lab_program: [scenario] lab_program, the program of lab/ that the kernel
 *	lab runs instead of the fio jobs ("": the fio jobs); not simulated
 * @cpus: [machine] cpus, number of simulated CPUs
 * @memory: [machine] memory, bytes of RAM
 * @memmap: [machine] memmap, bytes of RAM reserved at boot for a PMEM region
 *	emulated on DRAM (0: none, or the pmem device's own capacity)
 * @hz: [machine] hz, jiffies per second of the simulated kernel
 * @cpu_speed: [machine] cpu_speed, % of the lab host the CPU costs are of
 * @idle_exit_latency: [machine] idle_exit_latency, ns before a task or an
 *	interrupt woken onto an idle CPU runs there
 * @idle_poll_window: [machine] idle_poll_window, ns an idle CPU polls
 * @idle_poll_latency: [machine] idle_poll_latency, the wake-up's ns then
 * @idle_wake_cost: [machine] idle_wake_cost, the waker's ns to wake a
 *	task onto an idle CPU (the IPI)
 * @idle_exit_cost: [machine] idle_exit_cost, the woken task's ns on a CPU
 *	that idled past the poll window
 * @idle_poll_cost: [machine] idle_poll_cost, the same within it
 * @sched_autogroup: [machine] sched_autogroup, the jobs' tasks share one
 *	scheduling entity (1) or each is its own (0)
 * @page_size: [machine] page_size, bytes (always 4096)
 * @cost_host: [costs] host, the kernel build the host profile was
 *	measured on (provenance: the model does not read it)
 * @cost_params: [costs] overrides of the host profile's CPU costs, as
 *	@device_params: a cost table key or "FS.KEY" (config-costs.c)
 * @device_preset: [device] preset, a registered device preset name
 * @device_params: [device] parameter overrides, struct wbsim_config_override *
 *	in the order set (a later setting of a key replaces the earlier one)
 * @fs_type: [filesystem] type, a registered filesystem type name
 * @fs_params: [filesystem] parameter overrides, as @device_params
 * @knobs: [vm] and [writeback], the knobs of the machine's kernel: the
 *	rows and the fields are lib/machine's (machine/knobs.h)
 * @fio_file: [workload] fio, the job file name resolved relative to the
 *	scenario file, or NULL when the jobs are inline [fio:NAME] sections
 * @seed: [run] seed of the simulation's random generator
 * @time_limit: [run] time_limit, ns of simulated time (0 = until the
 *	workload ends)
 * @series_interval: [run] series_interval, ns between time-series samples
 * @events: [events], struct wbsim_config_event * in file order
 * @measure_extents: [measure] extents, struct wbsim_config_moment * in file
 *	order (empty: extents are counted at the end of the run)
 * @priv: private to the library
 */
struct wbsim_config {
	char *description;
	char *lab_program;

	uint64_t cpus;
	uint64_t memory;
	uint64_t memmap;
	uint64_t hz;
	uint64_t cpu_speed;
	uint64_t idle_exit_latency;
	uint64_t idle_poll_window;
	uint64_t idle_poll_latency;
	uint64_t idle_wake_cost;
	uint64_t idle_exit_cost;
	uint64_t idle_poll_cost;
	gboolean sched_autogroup;
	uint64_t page_size;

	char *cost_host;
	GPtrArray *cost_params;

	char *device_preset;
	GPtrArray *device_params;

	char *fs_type;
	GPtrArray *fs_params;

	struct wbsim_machine_knobs knobs;

	char *fio_file;

	uint64_t seed;
	wbsim_time_t time_limit;
	wbsim_time_t series_interval;

	GPtrArray *events;
	GPtrArray *measure_extents;

	struct wbsim_config_private *priv;
};

/**
 * struct wbsim_config_section_ops - a model layer that checks and prints its
 * own [device] or [filesystem] section
 * @check: check that @name (the preset or type) exists and that the
 *	section's overrides (cfg->device_params or cfg->fs_params) are
 *	parameters of it with valid values. @name_where is the "FILE:LINE: "
 *	prefix of the line that chose @name ("" for the default); messages
 *	about an override name its file and line
 * @describe: every parameter as "key = value" lines, overrides applied, in
 *	scenario syntax, for --dump-config (values must load back to
 *	themselves); NULL: the overrides are printed as given
 *
 * The device layer owns [device] (lib/scenario/config-device.c: preset
 * names a preset file of lib/block/presets or $WBSIM_PRESET_PATH), the
 * filesystem layer [filesystem] (lib/scenario/config-fs.c: type names a
 * registered model).
 */
struct wbsim_config_section_ops {
	gboolean (*check)(const struct wbsim_config *cfg, const char *name,
			  const char *name_where, GError **error);
	char *(*describe)(const struct wbsim_config *cfg, const char *name);
};

/**
 * wbsim_config_new() - a configuration holding every default
 *
 * Return: the configuration; free it with wbsim_config_free().
 */
struct wbsim_config *wbsim_config_new(void);

/** wbsim_config_free() - free @cfg and everything it owns (NULL is fine). */
void wbsim_config_free(struct wbsim_config *cfg);

/* typedef wbsim_config - the name g_autoptr(wbsim_config) needs */
typedef struct wbsim_config wbsim_config;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_config, wbsim_config_free)

/**
 * wbsim_config_keys() - the table of scenario keys
 * @n_keys: set to the number of rows
 *
 * Return: the table (struct wbsim_param rows with their @section), in
 * documentation order, ended by a row whose @name is NULL (static, do not
 * free).
 */
const struct wbsim_param *wbsim_config_keys(size_t *n_keys);

/**
 * wbsim_config_set_override() - apply one override ("section.key=value")
 * @cfg: the configuration
 * @assignment: "section.key=value"
 * @error: WBSIM_ERROR_PARSE, _UNKNOWN_KEY or _INVALID_VALUE; the message
 *	starts with "override: " where a file's would start with "FILE:LINE: "
 *
 * Uses the same parsers and checks as a scenario line. A [device] or
 * [filesystem] parameter is recorded as an override (checked by
 * wbsim_config_check()); [events].at appends an event.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_config_set_override(struct wbsim_config *cfg,
					     const char *assignment,
					     GError **error);

/**
 * wbsim_config_check() - checks that involve several keys
 * @cfg: a configuration after loading and overrides
 * @error: WBSIM_ERROR_INVALID_VALUE or _UNKNOWN_KEY naming the keys involved
 *
 * Checks that a ratio and its _bytes form are not both set (the kernel
 * makes them exclusive: setting one zeroes the other), that the device and
 * filesystem overrides are parameters of the chosen preset/type with valid
 * values, and that memory holds the dirty limits.
 *
 * Return: TRUE when the configuration is consistent.
 */
gboolean wbsim_config_check(struct wbsim_config *cfg, GError **error);

/**
 * wbsim_config_nr_contexts() - resolve [writeback] contexts
 * @cfg: the configuration
 * @rotational: whether the device is rotational
 *
 * Return: the number of writeback contexts: the number written, the number
 * of CPUs for "cpus", and for "auto" 1 on a rotational device, else the
 * number of CPUs.
 */
unsigned int wbsim_config_nr_contexts(const struct wbsim_config *cfg,
						bool rotational);

/**
 * wbsim_config_event_actions() - the actions [events] at = TIME ACTION knows
 *
 * Return: a NULL-terminated static array of action names.
 */
const char *const *wbsim_config_event_actions(void);

/**
 * wbsim_config_dump() - the configuration in scenario.ini syntax
 * @cfg: a checked configuration
 *
 * Every key is printed with its value, defaults included; [device] and
 * [filesystem] list every parameter of the chosen preset/type. The
 * workload is not printed (see wbsim_scenario_dump()).
 *
 * Return: a new string.
 */
char *wbsim_config_dump(const struct wbsim_config *cfg);

/**
 * wbsim_config_keys_markdown() - the key tables as Markdown
 *
 * One table row per key (section, key, type, default, range, meaning),
 * then one table per registered device preset and filesystem type.
 *
 * Return: a new string.
 */
char *wbsim_config_keys_markdown(void);

struct wbsim_scenario;
struct wbsim_fio_file;

/**
 * wbsim_scenario_config() - a loaded scenario's checked configuration
 * @scn: the scenario
 *
 * Return: the configuration, owned by @scn.
 */
const struct wbsim_config *wbsim_scenario_config(const struct wbsim_scenario *scn);

/**
 * wbsim_scenario_add_sweep() - a wbsim_sweep_opts.sweeps item's line in @scn's [sweep]:
 * it replaces the line of the same key where it stood, else it comes last,
 * so the scenario's dump (--dump-config) sweeps what the run sweeps
 * @name: "section.key"
 * @values: VALUES as wbsim_sweep_opts.sweeps takes them
 * Return: FALSE with @error set for values that do not parse.
 */
gboolean wbsim_scenario_add_sweep(struct wbsim_scenario *scn, const char *name,
				  const char *values, GError **error);

/**
 * wbsim_scenario_fio() - a loaded scenario's fio jobs after numjobs expansion
 * @scn: the scenario
 *
 * Return: the parsed jobs (lib/fio/fio.h), owned by @scn.
 */
const struct wbsim_fio_file *wbsim_scenario_fio(const struct wbsim_scenario *scn);

WBSIM_END_DECLS

#endif /* WBSIM_CONFIG_H */
