/* SPDX-License-Identifier: MIT */
/*
 * config.c - struct wbsim_config and the one table of scenario keys.
 *
 * The table below (struct wbsim_param rows, parsed by the grammar of
 * core/param.c as the device, filesystem and CPU cost tables are) is the
 * single source for the file loader, the overrides, the sweeps, defaults,
 * range checks, "did you mean", --dump-config and the key reference in
 * scenarios/README.md (generated with sim-writeback --list-keys; a test
 * checks the README holds it as generated).
 */
#include <string.h>

#include <wbsim/device.h>
#include <wbsim/error.h>
#include <wbsim/fs.h>
#include "core/arg-check.h"
#include "core/host-profile.h"
#include "core/param.h"
#include "block/blk.h"
#include "scenario/config-private.h"
#include "scenario/config-sweep.h"

#define F(field) offsetof(struct wbsim_config, field)
#define MIB ((uint64_t)1 << 20)
#define TIB ((uint64_t)1 << 40)

/* The scenario file's sections, in documentation and --dump-config order. */
static const char *const config_sections[] = {
	"scenario", "machine", "costs", "vm", "device", "filesystem", "writeback",
	"workload", "run", "events", "sweep", "measure", NULL,
};

/*
 * The scenario's own keys, section by section; with the machine's ([vm],
 * [writeback]: lib/machine/knobs.c) they make the rows the overrides, the
 * sweeps, the file loader, --dump-config and --list-keys read (struct
 * wbsim_param, the one grammar of core/param.c): table().
 */
static const struct wbsim_param scenario_keys[] = {
	{ .section = "scenario", .name = "description", .type = WBSIM_PARAM_STRING,
	  .offset = F(description), .def = "", .unit = "",
	  .help = "Free text saying what the scenario models." },
	{ .section = "scenario", .name = "lab_program", .type = WBSIM_PARAM_STRING,
	  .offset = F(lab_program), .def = "", .unit = "",
	  .help = "For the kernel lab only (lab/run-kernel): a program of lab/ (e8-small-writes) that runs on the real kernel instead of the fio jobs, which then describe that program to the simulator; empty: the lab runs the fio jobs. The simulator does not read it." },
	{ .section = "scenario", .name = "include", .type = WBSIM_PARAM_PATH,
	  .unit = "", .flags = WBSIM_PARAM_REPEATABLE | WBSIM_PARAM_NO_STORE | WBSIM_PARAM_NO_DUMP,
	  .help = "Read another scenario file at this point (relative to this file); keys set after this line override it. May repeat; circular includes are an error." },

	{ .section = "machine", .name = "cpus", .type = WBSIM_PARAM_UINT,
	  .offset = F(cpus), .def = "4", .unit = "CPUs", .min = 1, .max = 4096,
	  .help = "Number of simulated CPUs online; fio's $ncpus." },
	{ .section = "machine", .name = "memory", .type = WBSIM_PARAM_SIZE,
	  .offset = F(memory), .def = "16g", .unit = "bytes", .min = 64 * MIB, .max = 64 * TIB,
	  .help = "RAM of the simulated machine; the dirty ratios are percentages of it; fio's $mb_memory." },
	{ .section = "machine", .name = "memmap", .type = WBSIM_PARAM_SIZE,
	  .offset = F(memmap), .def = "0", .unit = "bytes", .max = 64 * TIB,
	  .help = "RAM reserved at boot by the kernel's memmap=SIZE!OFFSET for a PMEM region emulated on DRAM: outside MemTotal, never dirtyable, not in fio's $mb_memory. A pmem device lives in it and must fit; 0: a pmem device reserves its own capacity." },
	{ .section = "machine", .name = "cpu_speed", .type = WBSIM_PARAM_UINT,
	  .offset = F(cpu_speed), .def = "100", .unit = "% of the lab host", .min = 10, .max = 1000,
	  .help = "Speed of the machine's CPUs in percent of the host whose profile gives the CPU costs ([costs]; the built-in host profile, lib/core/hosts/lab-v1272.inc): every CPU burst of the model lasts cost * 100 / cpu_speed. For machines never in the lab; one number per machine preset, never per scenario." },
	{ .section = "machine", .name = "idle_exit_latency", .type = WBSIM_PARAM_TIME,
	  .offset = F(idle_exit_latency), .def = "0", .unit = "", .min = 0,
	  .max = G_GUINT64_CONSTANT(1000000000),
	  .help = "How long a task or an interrupt woken onto an idle CPU waits before it runs there: the wake-up IPI and the CPU's exit from idle (on a virtual machine, the halted vCPU's return to the guest). No CPU time is spent meanwhile. A property of the machine, measured with bench/bench-cacheline (its idle_wakeup_ns lines after idle periods past idle_poll_window); 0, the default: not modelled, for machines never measured." },
	{ .section = "machine", .name = "idle_poll_window", .type = WBSIM_PARAM_TIME,
	  .offset = F(idle_poll_window), .def = "0", .unit = "", .min = 0,
	  .max = G_GUINT64_CONSTANT(1000000000),
	  .help = "How long an idle CPU polls before it really sleeps (the hypervisor's halt polling, KVM's halt_poll_ns; a guest's cpuidle haltpoll): a wake-up within it waits idle_poll_latency, a later one idle_exit_latency. bench/bench-cacheline brackets it (the idle period where its idle_wakeup_ns jumps); 0: no polling." },
	{ .section = "machine", .name = "idle_poll_latency", .type = WBSIM_PARAM_TIME,
	  .offset = F(idle_poll_latency), .def = "0", .unit = "", .min = 0,
	  .max = G_GUINT64_CONSTANT(1000000000),
	  .help = "How long a task or an interrupt woken onto a CPU that idles within idle_poll_window waits before it runs there (bench/bench-cacheline's idle_wakeup_ns for the short idle periods); 0: not modelled." },
	{ .section = "machine", .name = "idle_wake_cost", .type = WBSIM_PARAM_TIME,
	  .offset = F(idle_wake_cost), .def = "0", .unit = "", .min = 0,
	  .max = G_GUINT64_CONSTANT(1000000000),
	  .help = "CPU time a task spends waking another onto an idle CPU other than its own: try_to_wake_up's IPI to that CPU (on a virtual machine, the exit its APIC write takes). Charged where io_wq_enqueue wakes an idle io-wq worker. A property of the machine, like the idle latencies: bench/bench-cacheline's wakeup_waker_ns; 0, the default: not modelled, for machines never measured." },
	{ .section = "machine", .name = "idle_exit_cost", .type = WBSIM_PARAM_TIME,
	  .offset = F(idle_exit_cost), .def = "0", .unit = "", .min = 0,
	  .max = G_GUINT64_CONSTANT(1000000000),
	  .help = "CPU time a task woken onto a CPU that idled past idle_poll_window spends there, in its own time, on that CPU's exit from idle (on a virtual machine, the halted vCPU's return: the switch back in runs slow and its time counts in the task's sum_exec_runtime). Charged to every task that sleeps and is woken onto an idle CPU; interrupts taken on an idle CPU are not charged. A property of the machine, like the idle latencies: bench/bench-cacheline's wakeup_wakee_ns after idle periods past the window; 0, the default: not modelled, for machines never measured." },
	{ .section = "machine", .name = "idle_poll_cost", .type = WBSIM_PARAM_TIME,
	  .offset = F(idle_poll_cost), .def = "0", .unit = "", .min = 0,
	  .max = G_GUINT64_CONSTANT(1000000000),
	  .help = "The same as idle_exit_cost for a CPU that idled less than idle_poll_window (bench/bench-cacheline's wakeup_wakee_ns for the short idle periods); 0: not modelled." },
	{ .section = "machine", .name = "sched_autogroup", .type = WBSIM_PARAM_BOOL,
	  .offset = F(sched_autogroup), .def = "true", .unit = "",
	  .help = "The kernel's sysctl kernel.sched_autogroup_enabled: the jobs' threads (and their io-wq workers) are one session's task group and take the CPUs as one scheduling entity beside each kernel thread (the flushers, the loop worker, the kworkers), so a woken kworker runs before busy jobs. true, the default, as the kernel's with CONFIG_SCHED_AUTOGROUP (Debian's, the lab's); false: every task is its own entity (jobs started from a service, or a kernel without autogroup)." },
	{ .section = "machine", .name = "hz", .type = WBSIM_PARAM_UINT,
	  .offset = F(hz), .def = "1000", .unit = "jiffies/s", .min = 100, .max = 10000,
	  .help = "Jiffy rate of the simulated kernel (CONFIG_HZ): timers and bandwidth estimates round to jiffies." },
	{ .section = "machine", .name = "page_size", .type = WBSIM_PARAM_SIZE,
	  .offset = F(page_size), .def = "4k", .unit = "bytes", .min = 4096, .max = 4096,
	  .help = "Page size; only 4096 is modelled; fio's $pagesize." },

	{ .section = "costs", .name = "host", .type = WBSIM_PARAM_STRING,
	  .offset = F(cost_host), .def = "", .unit = "",
	  .help = "The kernel build (uname -r) the host profile's costs were measured on, as lab/calibrate writes it (default: the built-in profile's); lab/compare says so first when the lab ran on another. The model does not read it. Every other key of [costs] sets one CPU cost of the host: a key of the cost table or FS.KEY, a filesystem model's cost; a host profile is an include file of such lines (lib/core/hosts/, lab/calibrate), and a cost no file sets is the built-in profile's." },

	{ .section = "device", .name = "preset", .type = WBSIM_PARAM_STRING,
	  .offset = F(device_preset), .def = "ideal", .unit = "",
	  .help = "Device preset: a file NAME.ini in $WBSIM_PRESET_PATH, lib/block/presets or the installed share/wbsim/presets (ideal, pmem-dram-6g, samsung-pm1733-3.84t, hdd-7200-sata, ...), or a path containing '/'. Every other key in [device] overrides one of its parameters." },

	{ .section = "filesystem", .name = "type", .type = WBSIM_PARAM_STRING,
	  .offset = F(fs_type), .def = "ideal", .unit = "",
	  .help = "Filesystem model: ideal, xfs, ext4, f2fs (or one a program registered). Every other key in [filesystem] sets one of the model's parameters (see include/wbsim/fs.h and the model's option table)." },

	{ .section = "workload", .name = "fio", .type = WBSIM_PARAM_PATH,
	  .offset = F(fio_file), .unit = "", .flags = WBSIM_PARAM_NO_DUMP,
	  .help = "fio job file, relative to the scenario file. The other form is inline sections [fio:global] and [fio:NAME] holding fio job-file lines; exactly one form is required." },

	{ .section = "run", .name = "seed", .type = WBSIM_PARAM_UINT,
	  .offset = F(seed), .def = "1", .unit = "",
	  .help = "Seed of the simulation's random generator (sim-writeback --seed overrides it); fio's random offsets are fio's own and take it only with randrepeat=0." },
	{ .section = "run", .name = "time_limit", .type = WBSIM_PARAM_TIME,
	  .offset = F(time_limit), .def = "0", .unit = "",
	  .help = "Stop the simulation at this simulated time; 0 = run until the workload ends." },
	{ .section = "run", .name = "series_interval", .type = WBSIM_PARAM_TIME,
	  .offset = F(series_interval), .def = "100ms", .unit = "", .min = 1000, .max = 3600 * G_GUINT64_CONSTANT(1000000000),
	  .help = "Interval between samples of the --series time series." },

	{ .section = "events", .name = "at", .type = WBSIM_PARAM_STRING,
	  .unit = "TIME ACTION [ARGS]", .flags = WBSIM_PARAM_REPEATABLE | WBSIM_PARAM_NO_STORE,
	  .help = "A timed event, e.g. at = 30s syncfs. May repeat; kept in file order. Actions: syncfs, sync, umount, contexts N [quiesce or freeze], cgroup-create PATH [memory.max=SIZE] [memory.high=SIZE] (SIZE or max), cgroup-set PATH with memory.max=SIZE and/or memory.high=SIZE, cgroup-move JOB PATH (every clone of fio job JOB), cgroup-remove PATH (stops the jobs still in it, then rmdir), cgroup-io-disable PATH, cgroup-io-enable PATH." },

	{ .section = "measure", .name = "extents", .type = WBSIM_PARAM_STRING,
	  .unit = "MOMENT", .flags = WBSIM_PARAM_REPEATABLE | WBSIM_PARAM_NO_STORE,
	  .help = "Count every file's extents as filefrag does at MOMENT: end (when the run stops), after-jobs (the last fio job exited), after-jobs+TIME (e.g. after-jobs+30s), remount (after everything else: write all back, unmount and mount). May repeat, each moment once; none = end." },
	{ .name = NULL },
};
/* Append the rows of @section in @rows to @keys, @shift added to their offsets. */
static void add_rows(GArray *keys, const struct wbsim_param *rows, const char *section,
		     size_t shift)
{
	for (const struct wbsim_param *p = rows; p->name; p++) {
		struct wbsim_param row = *p;

		if (strcmp(p->section, section) != 0)
			continue;
		row.offset += shift;
		g_array_append_val(keys, row);
	}
}

static size_t n_table;

/*
 * The table of every scenario key, section by section in config_sections
 * order: the scenario's own rows of each section, then the machine's, at
 * their offsets in struct wbsim_config (built once, kept for the process);
 * n_keys() rows, then the terminator.
 */
static const struct wbsim_param *table(void)
{
	static const struct wbsim_param *keys;

	if (g_once_init_enter(&keys)) {
		GArray *a = g_array_new(TRUE, TRUE, sizeof(struct wbsim_param));
		size_t n_rows = G_N_ELEMENTS(scenario_keys) - 1;

		for (const struct wbsim_param *p = wbsim_machine_knob_keys; p->name; p++)
			n_rows++;
		for (size_t s = 0; config_sections[s]; s++) {
			add_rows(a, scenario_keys, config_sections[s], 0);
			add_rows(a, wbsim_machine_knob_keys, config_sections[s],
				 offsetof(struct wbsim_config, knobs));
		}
		/* a row of a section the file does not have is a bug of its table */
		g_assert(a->len == n_rows);
		n_table = a->len;
		g_once_init_leave(&keys, (const struct wbsim_param *)(void *)g_array_free(a, FALSE));
	}
	return keys;
}

/* the rows of table(), without the terminator */
static size_t n_keys(void)
{
	table();
	return n_table;
}

const struct wbsim_param *wbsim_config_keys(size_t *n)
{
	if (n)
		*n = n_keys();
	return table();
}

const struct wbsim_param *wbsim_config_find_key(const char *section,
						     const char *key,
						     size_t *index)
{
	for (size_t i = 0; i < n_keys(); i++) {
		if (strcmp(table()[i].section, section) == 0 &&
		    strcmp(table()[i].name, key) == 0) {
			if (index)
				*index = i;
			return &table()[i];
		}
	}
	return NULL;
}

gboolean wbsim_config_is_section(const char *section)
{
	return g_strv_contains(config_sections, section);
}

static size_t key_index(const char *section, const char *key)
{
	size_t i = 0;

	if (!wbsim_config_find_key(section, key, &i))
		g_assert_not_reached();
	return i;
}

void wbsim_config_override_free(gpointer data)
{
	struct wbsim_config_override *o = data;

	g_free(o->key);
	g_free(o->value);
	g_free(o->file);
	g_free(o);
}

struct wbsim_config *wbsim_config_new(void)
{
	struct wbsim_config *cfg = g_new0(struct wbsim_config, 1);
	struct wbsim_config_private *priv = g_new0(struct wbsim_config_private, 1);

	cfg->priv = priv;
	priv->origins = g_new0(struct wbsim_config_origin,
			       n_keys());
	priv->fio_sections = g_ptr_array_new();
	priv->next_instance = 1;
	cfg->cost_params = g_ptr_array_new_with_free_func(wbsim_config_override_free);
	cfg->device_params = g_ptr_array_new_with_free_func(wbsim_config_override_free);
	cfg->fs_params = g_ptr_array_new_with_free_func(wbsim_config_override_free);
	cfg->events = g_ptr_array_new_with_free_func(wbsim_config_event_free);
	cfg->measure_extents = g_ptr_array_new_with_free_func(wbsim_config_moment_free);
	priv->sweep_lines = g_ptr_array_new_with_free_func(wbsim_config_sweep_line_free);
	for (size_t i = 0; i < n_keys(); i++) {
		const struct wbsim_param *k = &table()[i];

		/* a default that does not parse is a bug in the table */
		if (k->def && !wbsim_param_parse_row(k, k->def, NULL,
						     (char *)cfg + k->offset, NULL))
			g_critical("default of [%s] %s does not parse: %s",
				   k->section, k->name, k->def);
	}
	/* the costs not set are the built-in profile's: so is their host */
	g_free(cfg->cost_host);
	cfg->cost_host = g_strdup(wbsim_host_profile_host());
	return cfg;
}

void wbsim_config_free(struct wbsim_config *cfg)
{
	struct wbsim_config_private *priv;

	if (!cfg)
		return;
	priv = cfg->priv;
	for (size_t i = 0; i < n_keys(); i++) {
		if (!(table()[i].flags & WBSIM_PARAM_NO_STORE))
			wbsim_param_free_field(&table()[i], cfg);
		g_free(priv->origins[i].file);
		g_free(priv->origins[i].raw);
	}
	g_free(priv->origins);
	/* the sections are owned by the lexed documents of the loader */
	g_ptr_array_unref(priv->fio_sections);
	g_free(priv->fio_sections_file);
	g_free(priv->fio_sections_dir);
	g_ptr_array_unref(priv->sweep_lines);
	g_free(priv);
	g_ptr_array_unref(cfg->cost_params);
	g_ptr_array_unref(cfg->device_params);
	g_ptr_array_unref(cfg->fs_params);
	g_ptr_array_unref(cfg->events);
	g_ptr_array_unref(cfg->measure_extents);
	g_free(cfg);
}

/* The keys of @section, NULL-terminated, for suggestions. */
static GPtrArray *section_key_names(const char *section)
{
	GPtrArray *names = g_ptr_array_new();

	for (size_t i = 0; i < n_keys(); i++)
		if (strcmp(table()[i].section, section) == 0)
			g_ptr_array_add(names, (char *)table()[i].name);
	g_ptr_array_add(names, NULL);
	return names;
}

static gboolean unknown_key(const char *where, const char *section,
			    const char *key, const char *value, GError **error)
{
	g_autoptr(GPtrArray) names = section_key_names(section);
	const char *near = wbsim_closest_name(key, (const char *const *)names->pdata);
	g_autofree char *shown = value ? g_strdup_printf("%s = %s", key, value)
				       : g_strdup(key);

	if (near) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
			    "%s[%s] %s: unknown key (did you mean %s?)",
			    where, section, shown, near);
		return FALSE;
	}
	/* a key written in the wrong section */
	for (size_t i = 0; i < n_keys(); i++) {
		if (strcmp(table()[i].name, key) == 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s[%s] %s: unknown key (did you mean [%s] %s?)",
				    where, section, shown,
				    table()[i].section, key);
			return FALSE;
		}
	}
	if (names->len == 1)
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
			    "%s[%s] %s: unknown key ([%s] has no keys yet)",
			    where, section, shown, section);
	else
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
			    "%s[%s] %s: unknown key", where, section, shown);
	return FALSE;
}

/* [device]/[filesystem] parameter: record it, checked by wbsim_config_check(). */
static gboolean add_param_override(GPtrArray *list, const char *where,
				   const char *section, const char *key,
				   const char *value, const char *file,
				   unsigned int line, unsigned int instance,
				   GError **error)
{
	struct wbsim_config_override *o;

	if (!value) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s[%s] %s: no value: expected '%s = VALUE'",
			    where, section, key, key);
		return FALSE;
	}
	for (guint i = 0; i < list->len; i++) {
		o = list->pdata[i];
		if (strcmp(o->key, key) != 0)
			continue;
		if (instance && o->instance == instance) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s[%s] %s = %s: duplicate key (first set at line %u)",
				    where, section, key, value, o->line);
			return FALSE;
		}
		/* a later file or override replaces the value where it stood */
		g_free(o->value);
		g_free(o->file);
		o->value = g_strdup(value);
		o->file = g_strdup(file);
		o->line = line;
		o->instance = instance;
		return TRUE;
	}
	o = g_new0(struct wbsim_config_override, 1);
	o->key = g_strdup(key);
	o->value = g_strdup(value);
	o->file = g_strdup(file);
	o->line = line;
	o->instance = instance;
	g_ptr_array_add(list, o);
	return TRUE;
}

gboolean wbsim_config_set_value(struct wbsim_config *cfg, const char *section,
				const char *key, const char *value,
				const char *file, unsigned int line,
				unsigned int instance, const char *base_dir,
				GError **error)
{
	g_autofree char *where = wbsim_param_where(file, line);
	struct wbsim_config_origin *origin;
	const struct wbsim_param *k;
	g_autoptr(GError) local = NULL;
	size_t idx;

	if (!wbsim_config_is_section(section)) {
		const char *near = wbsim_closest_name(section, config_sections);

		if (near)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s[%s]: unknown section (did you mean [%s]?)",
				    where, section, near);
		else
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s[%s]: unknown section", where, section);
		return FALSE;
	}
	if (strcmp(section, "sweep") == 0)
		return wbsim_sweep_add_line(cfg, key, value, file, line,
					    instance, base_dir, error);

	k = wbsim_config_find_key(section, key, &idx);
	if (!k) {
		g_autofree char *owner = g_strdup_printf("[%s]", section);

		if (!wbsim_param_check_renamed(error, section, owner, key, value, file, line))
			return FALSE;
		if (strcmp(section, "device") == 0)
			return add_param_override(cfg->device_params, where,
						  section, key, value, file,
						  line, instance, error);
		if (strcmp(section, "filesystem") == 0)
			return add_param_override(cfg->fs_params, where,
						  section, key, value, file,
						  line, instance, error);
		if (strcmp(section, "costs") == 0)
			return add_param_override(cfg->cost_params, where,
						  section, key, value, file,
						  line, instance, error);
		return unknown_key(where, section, key, value, error);
	}
	if (!value) {
		g_autofree char *desc = wbsim_param_describe(k);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s[%s] %s: no value: expected '%s = VALUE' with %s",
			    where, section, key, key, desc);
		return FALSE;
	}

	if (strcmp(section, "events") == 0) {
		struct wbsim_config_event *ev = wbsim_config_event_new();

		if (!wbsim_config_parse_event(value, ev, &local)) {
			wbsim_config_event_free(ev);
			wbsim_param_value_error(error, local->code, file, line, "[events]",
						key, value, local->message);
			return FALSE;
		}
		ev->file = g_strdup(file);
		ev->line = line;
		g_ptr_array_add(cfg->events, ev);
		return TRUE;
	}
	if (strcmp(section, "measure") == 0) {
		struct wbsim_config_moment *mo = g_new0(struct wbsim_config_moment, 1);

		if (!wbsim_config_parse_moment(value, cfg->measure_extents, mo, &local)) {
			wbsim_config_moment_free(mo);
			wbsim_param_value_error(error, local->code, file, line, "[measure]",
						key, value, local->message);
			return FALSE;
		}
		mo->file = g_strdup(file);
		mo->line = line;
		g_ptr_array_add(cfg->measure_extents, mo);
		return TRUE;
	}
	if (k->flags & WBSIM_PARAM_NO_STORE) {
		/* [scenario] include: only the file loader resolves it */
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "%s[%s] %s = %s: only allowed in a scenario file",
			    where, section, key, value);
		return FALSE;
	}

	origin = &cfg->priv->origins[idx];
	if (instance && origin->file && origin->instance == instance) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s[%s] %s = %s: duplicate key (first set at line %u)",
			    where, section, key, value, origin->line);
		return FALSE;
	}
	if (!wbsim_param_parse_row(k, value, base_dir,
				   (char *)cfg + k->offset, &local)) {
		g_autofree char *owner = g_strdup_printf("[%s]", section);

		wbsim_param_value_error(error, local->code, file, line, owner, key,
					value, local->message);
		return FALSE;
	}
	g_free(origin->file);
	origin->file = g_strdup(file);
	origin->line = line;
	origin->instance = instance;
	g_free(origin->raw);
	origin->raw = g_strdup(value);
	return TRUE;
}

gboolean wbsim_config_set_override(struct wbsim_config *cfg,
				   const char *assignment, GError **error)
{
	g_autofree char *copy = NULL;
	char *eq, *dot, *section, *key, *value;

	wbsim_check_arg(cfg != NULL, FALSE, error);
	wbsim_check_arg(assignment != NULL, FALSE, error);

	copy = g_strdup(assignment);
	eq = strchr(copy, '=');
	dot = strchr(copy, '.');
	if (!eq || !dot || dot > eq) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "override: '%s': expected SECTION.KEY=VALUE",
			    assignment);
		return FALSE;
	}
	*eq = '\0';
	*dot = '\0';
	section = g_strstrip(copy);
	key = g_strstrip(dot + 1);
	value = g_strstrip(eq + 1);
	if (!*section || !*key) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "override: '%s': expected SECTION.KEY=VALUE",
			    assignment);
		return FALSE;
	}
	if (strcmp(section, "sweep") == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "override: '%s': a sweep is given with wbsim_sweep_opts.sweeps KEY=VALUES",
			    assignment);
		return FALSE;
	}
	/* a scenario file's line ends at its first ';' or '#' (ini-lexer.c):
	 * such a value could not be written in a file, nor printed back by
	 * --dump-config as one that loads to itself */
	if (strpbrk(value, ";#")) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "override: '%s': the value holds '%c', which starts a comment in a "
			    "scenario file: expected a value a scenario file can hold (no ';' "
			    "or '#')", assignment, *strpbrk(value, ";#"));
		return FALSE;
	}
	/* instance 0: a later override of the same key simply wins */
	return wbsim_config_set_value(cfg, section, key, value, "override", 0, 0,
				      NULL, error);
}

/* Is [@section] @key set by the user (not the default)? */
static const struct wbsim_config_origin *origin_of(const struct wbsim_config *cfg,
						   const char *section,
						   const char *key)
{
	const struct wbsim_config_origin *o =
		&cfg->priv->origins[key_index(section, key)];

	return o->file ? o : NULL;
}

char *wbsim_config_key_where(const struct wbsim_config *cfg, const char *section,
			     const char *key)
{
	const struct wbsim_config_origin *o = origin_of(cfg, section, key);
	g_autofree char *where = NULL;

	if (!o)
		return g_strdup_printf("[%s] %s (the default)", section, key);
	where = wbsim_param_where(o->file, o->line);
	return g_strdup_printf("%s[%s] %s = %s", where, section, key, o->raw);
}

/* The kernel makes a ratio and its _bytes form exclusive. */
static gboolean check_exclusive(struct wbsim_config *cfg, const char *ratio,
				uint64_t *ratio_val, const char *bytes,
				uint64_t bytes_val, GError **error)
{
	const struct wbsim_config_origin *ro = origin_of(cfg, "vm", ratio);
	const struct wbsim_config_origin *bo = origin_of(cfg, "vm", bytes);

	if (!bytes_val)
		return TRUE;
	if (ro && *ratio_val) {
		g_autofree char *where = wbsim_param_where(bo->file, bo->line);
		g_autofree char *rwhere = wbsim_param_where(ro->file, ro->line);

		/* rwhere ends in ": "; drop that for the parenthesis */
		rwhere[strlen(rwhere) - 2] = '\0';
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[vm] %s = %s: %s = %s is also set (%s): the kernel makes %s and %s exclusive; set only one of them",
			    where, bytes, bo->raw, ratio, ro->raw, rwhere,
			    ratio, bytes);
		return FALSE;
	}
	/* as writing vm.dirty_bytes does, the ratio becomes 0 */
	*ratio_val = 0;
	return TRUE;
}

/* The layers that own [device] and [filesystem] (config-device.c, config-fs.c). */
static const struct wbsim_config_section_ops *section_ops(const char *section)
{
	return strcmp(section, "device") == 0 ? &wbsim_device_section_ops
					      : &wbsim_fs_section_ops;
}

/* Validate the section's overrides: by the layer that owns the section. */
static gboolean check_params(const struct wbsim_config *cfg,
			     const char *section, GError **error)
{
	gboolean is_dev = strcmp(section, "device") == 0;
	const struct wbsim_config_origin *o =
		origin_of(cfg, section, is_dev ? "preset" : "type");
	g_autofree char *where = o ? wbsim_param_where(o->file, o->line)
				   : g_strdup("");

	return section_ops(section)->check(cfg, is_dev ? cfg->device_preset
						       : cfg->fs_type,
					   where, error);
}

gboolean wbsim_config_check(struct wbsim_config *cfg, GError **error)
{
	wbsim_check_arg(cfg != NULL, FALSE, error);

	if (!check_exclusive(cfg, "dirty_ratio", &cfg->knobs.dirty_ratio,
			     "dirty_bytes", cfg->knobs.dirty_bytes, error))
		return FALSE;
	if (!check_exclusive(cfg, "dirty_background_ratio",
			     &cfg->knobs.dirty_background_ratio,
			     "dirty_background_bytes",
			     cfg->knobs.dirty_background_bytes, error))
		return FALSE;
	if (cfg->memmap && (cfg->memmap >= cfg->memory || cfg->memmap % cfg->page_size)) {
		const struct wbsim_config_origin *o = origin_of(cfg, "machine", "memmap");
		g_autofree char *why = g_strdup_printf(
			"expected a whole number of pages below [machine] memory = %" G_GUINT64_FORMAT " bytes",
			cfg->memory);

		wbsim_param_value_error(error, WBSIM_ERROR_INVALID_VALUE, o ? o->file : NULL,
					o ? o->line : 0, "[machine]", "memmap",
					o ? o->raw : "?", why);
		return FALSE;
	}
	if (cfg->knobs.folio_size != WBSIM_FOLIO_SIZE_AUTO && (cfg->knobs.folio_size & (cfg->knobs.folio_size - 1))) {
		const struct wbsim_config_origin *o = origin_of(cfg, "writeback", "folio_size");

		wbsim_param_value_error(error, WBSIM_ERROR_INVALID_VALUE, o ? o->file : NULL,
					o ? o->line : 0, "[writeback]", "folio_size",
					o ? o->raw : "?",
					"expected a power of two from 4k to 2m, or auto");
		return FALSE;
	}
	for (guint i = 0; cfg->time_limit && i < cfg->events->len; i++) {
		const struct wbsim_config_event *ev = cfg->events->pdata[i];
		g_autofree char *where = NULL, *at = NULL, *limit = NULL;

		if (ev->at <= cfg->time_limit)
			continue;
		where = wbsim_param_where(ev->file, ev->line);
		at = wbsim_format_time(ev->at);
		limit = wbsim_format_time(cfg->time_limit);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[events] at = %s %s%s%s: after [run] time_limit = %s: expected a time the run reaches",
			    where, at, ev->action, ev->args ? " " : "",
			    ev->args ? ev->args : "", limit);
		return FALSE;
	}
	/* what the run asks for at least: its time limit, else its last event
	 * or the last [measure] moment (after-jobs+TIME comes TIME after the
	 * jobs at the soonest): the line named is the one that asks for it */
	{
		g_autofree char *where = NULL, *shown = NULL;
		wbsim_time_t horizon = cfg->time_limit;

		if (cfg->time_limit) {
			const struct wbsim_config_origin *o = origin_of(cfg, "run", "time_limit");
			g_autofree char *t = wbsim_format_time(cfg->time_limit);

			where = wbsim_param_where(o ? o->file : NULL, o ? o->line : 0);
			shown = g_strdup_printf("[run] time_limit = %s", t);
		}
		for (guint i = 0; !cfg->time_limit && i < cfg->events->len; i++) {
			const struct wbsim_config_event *ev = cfg->events->pdata[i];
			g_autofree char *t = NULL;

			if (ev->at <= horizon)
				continue;
			horizon = ev->at;
			t = wbsim_format_time(ev->at);
			g_free(where);
			where = wbsim_param_where(ev->file, ev->line);
			g_free(shown);
			shown = g_strdup_printf("[events] at = %s %s%s%s", t, ev->action,
						ev->args ? " " : "", ev->args ? ev->args : "");
		}
		for (guint i = 0; !cfg->time_limit && i < cfg->measure_extents->len; i++) {
			const struct wbsim_config_moment *mo = cfg->measure_extents->pdata[i];

			if (mo->delay <= horizon)
				continue;
			horizon = mo->delay;
			g_free(where);
			where = wbsim_param_where(mo->file, mo->line);
			g_free(shown);
			shown = g_strdup_printf("[measure] extents = %s", mo->name);
		}
		if (shown && horizon / MAX(cfg->series_interval, 1) > WBSIM_RUN_MAX_SAMPLES) {
			g_autofree char *t = wbsim_format_time(horizon);
			g_autofree char *iv = wbsim_format_time(cfg->series_interval);

			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s%s: a run of %s takes %" G_GUINT64_FORMAT " samples of [run] series_interval = %s: expected at most %u (a shorter run or a longer series_interval)",
				    where ? where : "", shown, t,
				    (guint64)(horizon / MAX(cfg->series_interval, 1)), iv,
				    WBSIM_RUN_MAX_SAMPLES);
			return FALSE;
		}
	}
	if (!wbsim_config_check_costs(cfg, error))
		return FALSE;
	if (!check_params(cfg, "device", error))
		return FALSE;
	return check_params(cfg, "filesystem", error);
}

unsigned int wbsim_config_nr_contexts(const struct wbsim_config *cfg,
				      bool rotational)
{
	g_return_val_if_fail(cfg != NULL, 1);
	return wbsim_machine_nr_contexts(&cfg->knobs, (unsigned int)cfg->cpus, rotational);
}

/* Every parameter of the preset or type, overrides applied, canonical text. */
static void dump_params(GString *out, const struct wbsim_config *cfg,
			const char *section)
{
	gboolean is_dev = strcmp(section, "device") == 0;
	const char *name = is_dev ? cfg->device_preset : cfg->fs_type;
	const GPtrArray *list = is_dev ? cfg->device_params : cfg->fs_params;
	const struct wbsim_config_section_ops *ops = section_ops(section);
	g_autofree char *text = ops->describe ? ops->describe(cfg, name) : NULL;

	if (text) {
		g_string_append(out, text);
		return;
	}
	for (guint i = 0; i < list->len; i++) {
		const struct wbsim_config_override *o = list->pdata[i];

		g_string_append_printf(out, "%s = %s\n", o->key, o->value);
	}
}

char *wbsim_config_dump(const struct wbsim_config *cfg)
{
	GString *out;

	g_return_val_if_fail(cfg != NULL, NULL);
	out = g_string_new(NULL);

	for (size_t s = 0; config_sections[s]; s++) {
		const char *section = config_sections[s];
		gsize start;

		if (strcmp(section, "events") == 0 && cfg->events->len == 0)
			continue;
		if (strcmp(section, "measure") == 0 && cfg->measure_extents->len == 0)
			continue;
		if (out->len)
			g_string_append_c(out, '\n');
		g_string_append_printf(out, "[%s]\n", section);
		start = out->len;
		for (size_t i = 0; i < n_keys(); i++) {
			const struct wbsim_param *k = &table()[i];
			g_autofree char *v = NULL;

			if (strcmp(k->section, section) != 0 ||
			    (k->flags & (WBSIM_PARAM_NO_DUMP | WBSIM_PARAM_NO_STORE)))
				continue;
			if (k->type == WBSIM_PARAM_PATH &&
			    !*(char **)((char *)cfg + k->offset))
				continue;	/* unset file name */
			v = wbsim_param_format_canonical(k, (char *)cfg + k->offset);
			g_string_append_printf(out, "%s = %s\n", k->name, v);
		}
		if (strcmp(section, "device") == 0 ||
		    strcmp(section, "filesystem") == 0)
			dump_params(out, cfg, section);
		if (strcmp(section, "costs") == 0)
			wbsim_config_dump_costs(out, cfg);
		if (strcmp(section, "sweep") == 0) {
			for (guint i = 0; i < cfg->priv->sweep_lines->len; i++) {
				const struct wbsim_config_sweep_line *sl =
					cfg->priv->sweep_lines->pdata[i];

				g_string_append_printf(out, "%s = %s\n",
						       sl->key, sl->value);
			}
		}
		if (strcmp(section, "events") == 0) {
			for (guint i = 0; i < cfg->events->len; i++) {
				const struct wbsim_config_event *ev =
					cfg->events->pdata[i];
				g_autofree char *t = wbsim_format_time(ev->at);

				g_string_append_printf(out, "at = %s %s%s%s\n",
						       t, ev->action,
						       ev->args ? " " : "",
						       ev->args ? ev->args : "");
			}
		}
		for (guint i = 0; strcmp(section, "measure") == 0 &&
				  i < cfg->measure_extents->len; i++) {
			const struct wbsim_config_moment *mo =
				cfg->measure_extents->pdata[i];

			g_string_append_printf(out, "extents = %s\n", mo->name);
		}
		/* a section with nothing to say is left out */
		if (out->len == start) {
			g_string_truncate(out, start - strlen(section) - 3);
			if (out->len)
				g_string_truncate(out, out->len - 1);
		}
	}
	return g_string_free(out, FALSE);
}

/*
 * Row @p of a table as a line of the key reference; @section: the row's
 * own for a scenario key, the model's section for a model's row;
 * @no_default: what a row without a default shows.
 */
static void markdown_row(GString *out, const char *section,
			 const struct wbsim_param *p, const char *no_default)
{
	g_autofree char *desc = wbsim_param_describe(p);
	const char *unit = wbsim_param_unit(p);
	const char *def = p->def ? (*p->def ? p->def : "(empty)") : no_default;

	g_string_append_printf(out, "| `[%s]` | `%s` | %s%s%s%s | `%s` | %s |\n",
			       section, p->name, desc,
			       unit && *unit ? "; unit: " : "", unit ? unit : "",
			       p->flags & WBSIM_PARAM_REPEATABLE ? "; may repeat" : "",
			       def, p->help ? p->help : "");
}

static void markdown_header(GString *out)
{
	g_string_append(out, "| section | key | type, range, unit | default | meaning |\n");
	g_string_append(out, "|---|---|---|---|---|\n");
}

/* A model's parameter table (struct wbsim_param) as reference rows. */
static void markdown_params(GString *out, const char *section,
			    const struct wbsim_param *table, const char *no_default)
{
	if (!table || !table->name) {
		g_string_append(out, "No parameters.\n");
		return;
	}
	markdown_header(out);
	for (const struct wbsim_param *p = table; p->name; p++)
		if (!(p->flags & WBSIM_PARAM_COST))	/* [costs] lists it */
			markdown_row(out, section, p, no_default);
}

/*
 * The device models' and filesystem models' parameters, from their tables:
 * what a preset or a [device] line may set, what [filesystem] may set.
 */
static void markdown_models(GString *out)
{
	g_auto(GStrv) devices = wbsim_device_model_names();
	g_auto(GStrv) filesystems = wbsim_fs_names();

	g_string_append(out, "\n#### `[device]`, every model\n\n");
	markdown_params(out, "device", wbsim_device_common_params(), "(the model's)");
	for (size_t i = 0; devices[i]; i++) {
		const struct wbsim_device_ops *ops = wbsim_device_find_ops(devices[i]);

		g_string_append_printf(out, "\n#### `[device] model = %s`\n\n%s\n\n",
				       ops->name, ops->help ? ops->help : "");
		markdown_params(out, "device", ops->params, "(required)");
	}
	for (size_t i = 0; filesystems[i]; i++) {
		const struct wbsim_fs_ops *ops = wbsim_fs_lookup(filesystems[i]);

		g_string_append_printf(out, "\n#### `[filesystem] type = %s`\n\n",
				       ops->name);
		markdown_params(out, "filesystem", ops->options, "(none)");
	}
}

char *wbsim_config_keys_markdown(void)
{
	GString *out = g_string_new(NULL);

	markdown_header(out);
	for (size_t i = 0; i < n_keys(); i++) {
		markdown_row(out, table()[i].section, &table()[i], "(none)");
		if (strcmp(table()[i].section, "costs") == 0)
			wbsim_config_costs_markdown(out, markdown_row);
	}
	markdown_models(out);
	return g_string_free(out, FALSE);
}
