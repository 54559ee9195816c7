/* SPDX-License-Identifier: MIT */
/*
 * config.c - struct wbsim_config and the one table of scenario keys.
 *
 * The table below is the single source for parsing, defaults, range
 * checks, "did you mean", --dump-config and the key reference in
 * scenarios/README.md (generated with sim-writeback --dump-keys-markdown,
 * and a test checks every key is documented there).
 */
#include <string.h>

#include <wbsim/affinity.h>
#include <wbsim/device.h>
#include <wbsim/error.h>
#include <wbsim/fs.h>
#include "core/arg-check.h"
#include "core/param.h"
#include "block/blk.h"
#include "scenario/config-private.h"
#include "defs/load-checks.h"

#define F(field) offsetof(struct wbsim_config, field)
#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define TIB ((uint64_t)1 << 40)

/* [writeback] dirty_accounting, in enum wbsim_dirty_accounting order */
static const char *const accounting_names[] = { "whole-folio", "per-block", NULL };

/* [writeback] dying_wb, in enum wbsim_dying_wb order */
static const char *const dying_wb_names[] = { "unreachable", "reachable", NULL };

/* [writeback] folio_size's word: WBSIM_FOLIO_SIZE_AUTO */
static const char *const folio_size_words[] = { "auto", NULL };

/* WBSIM_CONTEXTS_CPUS, WBSIM_CONTEXTS_AUTO, in WBSIM_CONFIG_SPECIAL order */
static const char *const contexts_words[] = { "cpus", "auto", NULL };

/* The scenario file's sections, in documentation and --dump-config order. */
static const char *const config_sections[] = {
	"scenario", "machine", "vm", "device", "filesystem", "writeback",
	"workload", "run", "events", "sweep", "measure", NULL,
};

static const struct wbsim_config_key config_keys[] = {
	{ "scenario", "description", WBSIM_CFG_STRING, F(description), "", "",
	  0, 0, NULL, NULL, 0,
	  "Free text saying what the scenario models." },
	{ "scenario", "lab_program", WBSIM_CFG_STRING, F(lab_program), "", "",
	  0, 0, NULL, NULL, 0,
	  "For the kernel lab only (lab/run-kernel): a program of lab/ (e8-small-writes) that runs on the real kernel instead of the fio jobs, which then describe that program to the simulator; empty: the lab runs the fio jobs. The simulator does not read it." },
	{ "scenario", "include", WBSIM_CFG_PATH, 0, NULL, "",
	  0, 0, NULL, NULL,
	  WBSIM_CFG_REPEATABLE | WBSIM_CFG_NO_STORE | WBSIM_CFG_NO_DUMP,
	  "Read another scenario file at this point (relative to this file); keys set after this line override it. May repeat; circular includes are an error." },

	{ "machine", "cpus", WBSIM_CFG_UINT, F(cpus), "4", "CPUs",
	  1, 4096, NULL, NULL, 0,
	  "Number of simulated CPUs online; fio's $ncpus." },
	{ "machine", "memory", WBSIM_CFG_SIZE, F(memory), "16g", "bytes",
	  64 * MIB, 64 * TIB, NULL, NULL, 0,
	  "RAM of the simulated machine; the dirty ratios are percentages of it; fio's $mb_memory." },
	{ "machine", "memmap", WBSIM_CFG_SIZE, F(memmap), "0", "bytes",
	  0, 64 * TIB, NULL, NULL, 0,
	  "RAM reserved at boot by the kernel's memmap=SIZE!OFFSET for a PMEM region emulated on DRAM: outside MemTotal, never dirtyable, not in fio's $mb_memory. A pmem device lives in it and must fit; 0: a pmem device reserves its own capacity." },
	{ "machine", "cpu_speed", WBSIM_CFG_UINT, F(cpu_speed), "100", "% of the lab host",
	  10, 1000, NULL, NULL, 0,
	  "Speed of the machine's CPUs in percent of the lab host on which the CPU cost table was measured (lib/core/cpu-costs.c, lab/): every CPU burst of the model lasts cost * 100 / cpu_speed. One number per machine preset, never per scenario." },
	{ "machine", "hz", WBSIM_CFG_UINT, F(hz), "1000", "jiffies/s",
	  100, 10000, NULL, NULL, 0,
	  "Jiffy rate of the simulated kernel (CONFIG_HZ): timers and bandwidth estimates round to jiffies." },
	{ "machine", "page_size", WBSIM_CFG_SIZE, F(page_size), "4k", "bytes",
	  4096, 4096, NULL, NULL, 0,
	  "Page size; only 4096 is modelled; fio's $pagesize." },

	{ "vm", "dirty_ratio", WBSIM_CFG_PERCENT, F(dirty_ratio), "20",
	  "% of memory", 0, 100, NULL, NULL, 0,
	  "vm.dirty_ratio: dirty page limit where writers are throttled. Exclusive with dirty_bytes (setting dirty_bytes alone makes it 0)." },
	{ "vm", "dirty_bytes", WBSIM_CFG_SIZE, F(dirty_bytes), "0", "bytes",
	  8 * KIB, UINT64_MAX, NULL, NULL, WBSIM_CFG_ZERO_OR_RANGE,
	  "vm.dirty_bytes: the same limit in bytes; 0 = use dirty_ratio. The kernel's minimum is two pages." },
	{ "vm", "dirty_background_ratio", WBSIM_CFG_PERCENT,
	  F(dirty_background_ratio), "10", "% of memory", 0, 100, NULL, NULL, 0,
	  "vm.dirty_background_ratio: dirty level where background writeback starts. Exclusive with dirty_background_bytes." },
	{ "vm", "dirty_background_bytes", WBSIM_CFG_SIZE,
	  F(dirty_background_bytes), "0", "bytes", 8 * KIB, UINT64_MAX, NULL,
	  NULL, WBSIM_CFG_ZERO_OR_RANGE,
	  "vm.dirty_background_bytes: the same level in bytes; 0 = use dirty_background_ratio." },
	{ "vm", "dirty_expire_centisecs", WBSIM_CFG_CENTISECS,
	  F(dirty_expire_centisecs), "3000", "1/100 s", 0, 100000000, NULL,
	  NULL, 0,
	  "vm.dirty_expire_centisecs: age at which dirty data is written back by the periodic (kupdate) writeback." },
	{ "vm", "dirty_writeback_centisecs", WBSIM_CFG_CENTISECS,
	  F(dirty_writeback_centisecs), "500", "1/100 s", 0, 100000000, NULL,
	  NULL, 0,
	  "vm.dirty_writeback_centisecs: interval of the periodic writeback wakeups; 0 disables them." },

	{ "device", "preset", WBSIM_CFG_STRING, F(device_preset), "ideal", "",
	  0, 0, NULL, NULL, 0,
	  "Device preset: a file NAME.ini in $WBSIM_PRESET_PATH, lib/block/presets or the installed share/wbsim/presets (ideal, pmem-dram-6g, samsung-pm1733-3.84t, hdd-7200-sata, ...), or a path containing '/'. Every other key in [device] overrides one of its parameters." },

	{ "filesystem", "type", WBSIM_CFG_STRING, F(fs_type), "ideal", "",
	  0, 0, NULL, NULL, 0,
	  "Filesystem model: ideal, xfs, ext4, f2fs (or one a program registered). Every other key in [filesystem] sets one of the model's parameters (see include/wbsim/fs.h and the model's option table)." },

	{ "writeback", "contexts", WBSIM_CFG_UINT, F(wb_contexts), "1",
	  "contexts", 1, 4096, contexts_words, NULL, 0,
	  "Writeback contexts (flusher threads) per bdi, nr_wb_ctx: a number, cpus (one per CPU), or auto (1 on a rotational device, else one per CPU). 1 is today's kernel." },
	{ "writeback", "affinity", WBSIM_CFG_NAME, F(wb_affinity), "inode", "",
	  0, 0, NULL, wbsim_affinity_names, 0,
	  "Which context writes an inode back: inode = inode number modulo contexts, for the inode's life; none = any context (the earlier variant); or a policy a program registered with wbsim_affinity_register() (include/wbsim/affinity.h)." },
	{ "writeback", "strictlimit", WBSIM_CFG_BOOL, F(strictlimit), "false",
	  "", 0, 0, NULL, NULL, 0,
	  "BDI_CAP_STRICTLIMIT: throttle on the device's own share of the dirty limit even below the global freerun level." },
	{ "writeback", "max_bytes", WBSIM_CFG_SIZE, F(bdi_max_bytes), "0", "bytes",
	  0, UINT64_MAX, NULL, NULL, 0,
	  "The bdi's max_bytes knob (/sys/class/bdi/*/max_bytes): caps the device's share of the dirty threshold at this many bytes, converted once into max_ratio against the global threshold of the moment it is set (the start of the run), as bdi_set_max_bytes() does; 0 = no cap (max_ratio 100%)." },
	{ "writeback", "folio_size", WBSIM_CFG_SIZE, F(folio_size), "auto", "bytes",
	  4096, 2 * MIB, folio_size_words, NULL, 0,
	  "Page-cache folio size of the files: auto = the folio the kernel's buffered write path allocates for the write that finds the file's page cache empty (its length rounded down to a power of two, bounded by its alignment and by the filesystem's largest folio: 2m on xfs and ext4, 4k on f2fs and ideal), kept for the file's folios until its cache is empty again; or a power of two from 4k to 2m for every file." },
	{ "writeback", "dirty_accounting", WBSIM_CFG_ENUM, F(dirty_accounting), "whole-folio", "",
	  0, 0, accounting_names, NULL, 0,
	  "How a dirtied large folio is accounted: whole-folio = the four accounting points (dirtied, cleared for writeback, writeback start and end) count the whole folio, though iomap writes back only its dirty blocks (today's kernels); per-block = they count only the blocks dirtied, as the granular dirty accounting series proposes. The folio size and what is written are the same in both; with 4k folios the two are one." },
	{ "writeback", "dying_wb", WBSIM_CFG_ENUM, F(dying_wb), "unreachable", "",
	  0, 0, dying_wb_names, NULL, 0,
	  "Cgroup writeback: what becomes of the wb of a removed cgroup, or of a cgroup whose io association changed. unreachable = today's kernel: a killed wb leaves the index at once, so foreign flushes aimed at it fail (-ENOENT) while its inodes stay attached to it; reachable = the kernel change that keeps a killed wb findable until it is released and switches a replaced wb's inodes to its successor." },

	{ "workload", "fio", WBSIM_CFG_PATH, F(fio_file), NULL, "",
	  0, 0, NULL, NULL, WBSIM_CFG_NO_DUMP,
	  "fio job file, relative to the scenario file. The other form is inline sections [fio:global] and [fio:NAME] holding fio job-file lines; exactly one form is required." },

	{ "run", "seed", WBSIM_CFG_UINT, F(seed), "1", "", 0, UINT64_MAX,
	  NULL, NULL, 0,
	  "Seed of the simulation's random generator (sim-writeback --seed overrides it)." },
	{ "run", "time_limit", WBSIM_CFG_TIME, F(time_limit), "0", "", 0,
	  UINT64_MAX, NULL, NULL, 0,
	  "Stop the simulation at this simulated time; 0 = run until the workload ends." },
	{ "run", "series_interval", WBSIM_CFG_TIME, F(series_interval), "100ms",
	  "", 1000, 3600 * G_GUINT64_CONSTANT(1000000000), NULL, NULL, 0,
	  "Interval between samples of the --series time series." },

	{ "events", "at", WBSIM_CFG_STRING, 0, NULL, "TIME ACTION [ARGS]",
	  0, 0, NULL, NULL, WBSIM_CFG_REPEATABLE | WBSIM_CFG_NO_STORE,
	  "A timed event, e.g. at = 30s syncfs. May repeat; kept in file order. Actions: syncfs, sync, umount, contexts N [quiesce or freeze], cgroup-create PATH [memory.max=SIZE] [memory.high=SIZE] (SIZE or max), cgroup-set PATH with memory.max=SIZE and/or memory.high=SIZE, cgroup-move JOB PATH (every clone of fio job JOB), cgroup-remove PATH (stops the jobs still in it, then rmdir), cgroup-io-disable PATH, cgroup-io-enable PATH." },

	{ "measure", "extents", WBSIM_CFG_STRING, 0, NULL, "MOMENT",
	  0, 0, NULL, NULL, WBSIM_CFG_REPEATABLE | WBSIM_CFG_NO_STORE,
	  "Count every file's extents as filefrag does at MOMENT: end (when the run stops), after-jobs (the last fio job exited), after-jobs+TIME (e.g. after-jobs+30s), remount (after everything else: write all back, unmount and mount). May repeat, each moment once; none = end." },
};

const struct wbsim_config_key *wbsim_config_keys(size_t *n_keys)
{
	if (n_keys)
		*n_keys = G_N_ELEMENTS(config_keys);
	return config_keys;
}

const struct wbsim_config_key *wbsim_config_find_key(const char *section,
						     const char *key,
						     size_t *index)
{
	for (size_t i = 0; i < G_N_ELEMENTS(config_keys); i++) {
		if (strcmp(config_keys[i].section, section) == 0 &&
		    strcmp(config_keys[i].key, key) == 0) {
			if (index)
				*index = i;
			return &config_keys[i];
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
			       G_N_ELEMENTS(config_keys));
	priv->fio_sections = g_ptr_array_new();
	priv->next_instance = 1;
	cfg->device_params = g_ptr_array_new_with_free_func(wbsim_config_override_free);
	cfg->fs_params = g_ptr_array_new_with_free_func(wbsim_config_override_free);
	cfg->events = g_ptr_array_new_with_free_func(wbsim_config_event_free);
	cfg->measure_extents = g_ptr_array_new_with_free_func(wbsim_config_moment_free);
	priv->sweep_lines = g_ptr_array_new_with_free_func(wbsim_config_sweep_line_free);
	wbsim_config_set_defaults(config_keys, G_N_ELEMENTS(config_keys), cfg);
	return cfg;
}

void wbsim_config_free(struct wbsim_config *cfg)
{
	struct wbsim_config_private *priv;

	if (!cfg)
		return;
	priv = cfg->priv;
	for (size_t i = 0; i < G_N_ELEMENTS(config_keys); i++) {
		if (!(config_keys[i].flags & WBSIM_CFG_NO_STORE))
			wbsim_config_free_field(&config_keys[i],
						(char *)cfg + config_keys[i].offset);
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
	g_ptr_array_unref(cfg->device_params);
	g_ptr_array_unref(cfg->fs_params);
	g_ptr_array_unref(cfg->events);
	g_ptr_array_unref(cfg->measure_extents);
	g_free(cfg);
}

char *wbsim_config_where(const char *file, unsigned int line)
{
	if (line)
		return g_strdup_printf("%s:%u: ", file, line);
	return g_strdup_printf("%s: ", file);
}

/* The keys of @section, NULL-terminated, for suggestions. */
static GPtrArray *section_key_names(const char *section)
{
	GPtrArray *names = g_ptr_array_new();

	for (size_t i = 0; i < G_N_ELEMENTS(config_keys); i++)
		if (strcmp(config_keys[i].section, section) == 0)
			g_ptr_array_add(names, (char *)config_keys[i].key);
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
	for (size_t i = 0; i < G_N_ELEMENTS(config_keys); i++) {
		if (strcmp(config_keys[i].key, key) == 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s[%s] %s: unknown key (did you mean [%s] %s?)",
				    where, section, shown,
				    config_keys[i].section, key);
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
		/* a later file or --set replaces the value where it stood */
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
	g_autofree char *where = wbsim_config_where(file, line);
	struct wbsim_config_origin *origin;
	const struct wbsim_config_key *k;
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
		if (strcmp(section, "device") == 0)
			return add_param_override(cfg->device_params, where,
						  section, key, value, file,
						  line, instance, error);
		if (strcmp(section, "filesystem") == 0)
			return add_param_override(cfg->fs_params, where,
						  section, key, value, file,
						  line, instance, error);
		return unknown_key(where, section, key, value, error);
	}
	if (!value) {
		g_autofree char *desc = wbsim_config_describe_type(k);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s[%s] %s: no value: expected '%s = VALUE' with %s",
			    where, section, key, key, desc);
		return FALSE;
	}

	if (strcmp(section, "events") == 0) {
		struct wbsim_config_event *ev = wbsim_config_event_new();

		if (!wbsim_config_parse_event(value, ev, &local)) {
			wbsim_config_event_free(ev);
			g_set_error(error, WBSIM_ERROR, local->code,
				    "%s[%s] %s = %s: %s", where, section, key,
				    value, local->message);
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
			g_set_error(error, WBSIM_ERROR, local->code,
				    "%s[%s] %s = %s: %s", where, section, key,
				    value, local->message);
			return FALSE;
		}
		mo->file = g_strdup(file);
		mo->line = line;
		g_ptr_array_add(cfg->measure_extents, mo);
		return TRUE;
	}
	if (k->flags & WBSIM_CFG_NO_STORE) {
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
	if (!wbsim_config_parse_value(k, value, base_dir,
				      (char *)cfg + k->offset, &local)) {
		g_set_error(error, WBSIM_ERROR, local->code,
			    "%s[%s] %s = %s: %s", where, section, key, value,
			    local->message);
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
			    "--set: '%s': expected SECTION.KEY=VALUE",
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
			    "--set: '%s': expected SECTION.KEY=VALUE",
			    assignment);
		return FALSE;
	}
	if (strcmp(section, "sweep") == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "--set: '%s': a sweep is given with --sweep KEY=VALUES",
			    assignment);
		return FALSE;
	}
	/* instance 0: a later --set of the same key simply wins */
	return wbsim_config_set_value(cfg, section, key, value, "--set", 0, 0,
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
	where = wbsim_config_where(o->file, o->line);
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
		g_autofree char *where = wbsim_config_where(bo->file, bo->line);
		g_autofree char *rwhere = wbsim_config_where(ro->file, ro->line);

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

/*
 * Validate the section's overrides: by the layer that owns the section, or
 * against the chosen parameter set.
 */
static gboolean check_params(const struct wbsim_config *cfg,
			     const char *section, GError **error)
{
	const struct wbsim_config_section_ops *ops =
		wbsim_config_get_section_ops(section);
	const struct wbsim_config_param_set *set;
	gboolean is_dev = strcmp(section, "device") == 0;
	const char *name = is_dev ? cfg->device_preset : cfg->fs_type;
	void *scratch;
	gboolean ok;

	if (ops) {
		const struct wbsim_config_origin *o =
			origin_of(cfg, section, is_dev ? "preset" : "type");
		g_autofree char *where = o ? wbsim_config_where(o->file, o->line)
					   : g_strdup("");

		return ops->check(cfg, name, where, error);
	}
	set = wbsim_config_find_param_set(section, name);
	if (!set) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
			    "[%s] %s: no such %s", section, name,
			    strcmp(section, "device") == 0 ? "device preset"
							   : "filesystem type");
		return FALSE;
	}
	scratch = g_malloc0(MAX(set->struct_size, 1));
	ok = wbsim_config_apply_params(cfg, section, scratch, error);
	for (size_t i = 0; i < set->n_keys; i++)
		wbsim_config_free_field(&set->keys[i],
					(char *)scratch + set->keys[i].offset);
	g_free(scratch);
	return ok;
}

gboolean wbsim_config_apply_params(const struct wbsim_config *cfg,
				   const char *section, void *base,
				   GError **error)
{
	gboolean is_dev;
	const char *name;
	const GPtrArray *list;
	const char *what;
	const struct wbsim_config_param_set *set;

	wbsim_check_arg(cfg != NULL && base != NULL, FALSE, error);
	wbsim_check_arg(section != NULL && (strcmp(section, "device") == 0 ||
					    strcmp(section, "filesystem") == 0),
			FALSE, error);
	is_dev = strcmp(section, "device") == 0;
	name = is_dev ? cfg->device_preset : cfg->fs_type;
	list = is_dev ? cfg->device_params : cfg->fs_params;
	what = is_dev ? "device preset" : "filesystem type";
	if (wbsim_config_get_section_ops(section)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "[%s] is applied by its own layer, not by a parameter set",
			    section);
		return FALSE;
	}
	set = wbsim_config_find_param_set(section, name);
	if (!set) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
			    "[%s] %s: no such %s", section, name, what);
		return FALSE;
	}
	wbsim_config_set_defaults(set->keys, set->n_keys, base);

	for (guint i = 0; i < list->len; i++) {
		const struct wbsim_config_override *o = list->pdata[i];
		g_autofree char *where = wbsim_config_where(o->file, o->line);
		const struct wbsim_config_key *k = NULL;
		g_autoptr(GError) local = NULL;

		for (size_t j = 0; j < set->n_keys; j++)
			if (strcmp(set->keys[j].key, o->key) == 0)
				k = &set->keys[j];
		if (!k) {
			g_autoptr(GPtrArray) names = g_ptr_array_new();
			const char *near;

			g_ptr_array_add(names, is_dev ? "preset" : "type");
			for (size_t j = 0; j < set->n_keys; j++)
				g_ptr_array_add(names, (char *)set->keys[j].key);
			g_ptr_array_add(names, NULL);
			near = wbsim_closest_name(o->key,
						  (const char *const *)names->pdata);
			if (near)
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
					    "%s[%s] %s = %s: not a parameter of %s %s (did you mean %s?)",
					    where, section, o->key, o->value,
					    what, name, near);
			else if (set->n_keys == 0)
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
					    "%s[%s] %s = %s: not a parameter of %s %s (it has no parameters)",
					    where, section, o->key, o->value,
					    what, name);
			else
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
					    "%s[%s] %s = %s: not a parameter of %s %s",
					    where, section, o->key, o->value,
					    what, name);
			return FALSE;
		}
		if (!wbsim_config_parse_value(k, o->value, NULL,
					      (char *)base + k->offset, &local)) {
			g_set_error(error, WBSIM_ERROR, local->code,
				    "%s[%s] %s = %s: %s", where, section,
				    o->key, o->value, local->message);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean wbsim_config_check(struct wbsim_config *cfg, GError **error)
{
	wbsim_check_arg(cfg != NULL, FALSE, error);

	if (!check_exclusive(cfg, "dirty_ratio", &cfg->dirty_ratio,
			     "dirty_bytes", cfg->dirty_bytes, error))
		return FALSE;
	if (!check_exclusive(cfg, "dirty_background_ratio",
			     &cfg->dirty_background_ratio,
			     "dirty_background_bytes",
			     cfg->dirty_background_bytes, error))
		return FALSE;
	if (cfg->memmap && (cfg->memmap >= cfg->memory || cfg->memmap % cfg->page_size)) {
		const struct wbsim_config_origin *o = origin_of(cfg, "machine", "memmap");
		g_autofree char *where = wbsim_config_where(o ? o->file : NULL, o ? o->line : 0);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[machine] memmap = %s: expected a whole number of pages below [machine] memory = %" G_GUINT64_FORMAT " bytes",
			    where, o ? o->raw : "?", cfg->memory);
		return FALSE;
	}
	if (cfg->folio_size != WBSIM_FOLIO_SIZE_AUTO && (cfg->folio_size & (cfg->folio_size - 1))) {
		const struct wbsim_config_origin *o = origin_of(cfg, "writeback", "folio_size");
		g_autofree char *where = wbsim_config_where(o ? o->file : NULL, o ? o->line : 0);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[writeback] folio_size = %s: expected a power of two from 4k to 2m, or auto",
			    where, o ? o->raw : "?");
		return FALSE;
	}
	for (guint i = 0; cfg->time_limit && i < cfg->events->len; i++) {
		const struct wbsim_config_event *ev = cfg->events->pdata[i];
		g_autofree char *where = NULL, *at = NULL, *limit = NULL;

		if (ev->at <= cfg->time_limit)
			continue;
		where = wbsim_config_where(ev->file, ev->line);
		at = wbsim_format_time(ev->at);
		limit = wbsim_format_time(cfg->time_limit);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[events] at = %s %s%s%s: after [run] time_limit = %s: expected a time the run reaches",
			    where, at, ev->action, ev->args ? " " : "",
			    ev->args ? ev->args : "", limit);
		return FALSE;
	}
	/* what the run asks for at least: its time limit, its last event */
	{
		const char *what = NULL;
		g_autofree char *where = NULL, *action = NULL;
		wbsim_time_t horizon = cfg->time_limit;

		if (cfg->time_limit) {
			const struct wbsim_config_origin *o = origin_of(cfg, "run", "time_limit");

			where = wbsim_config_where(o ? o->file : NULL, o ? o->line : 0);
			what = "[run] time_limit";
		}
		for (guint i = 0; !cfg->time_limit && i < cfg->events->len; i++) {
			const struct wbsim_config_event *ev = cfg->events->pdata[i];

			if (ev->at > horizon) {
				horizon = ev->at;
				g_free(where);
				where = wbsim_config_where(ev->file, ev->line);
				g_free(action);
				action = g_strdup_printf(" %s%s%s", ev->action, ev->args ? " " : "",
							 ev->args ? ev->args : "");
				what = "[events] at";
			}
		}
		if (what && horizon / MAX(cfg->series_interval, 1) > WBSIM_RUN_MAX_SAMPLES) {
			g_autofree char *t = wbsim_format_time(horizon);
			g_autofree char *iv = wbsim_format_time(cfg->series_interval);

			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s%s = %s%s: a run of %s takes %" G_GUINT64_FORMAT " samples of [run] series_interval = %s: expected at most %u (a shorter run or a longer series_interval)",
				    where ? where : "", what, t, action ? action : "", t,
				    (guint64)(horizon / MAX(cfg->series_interval, 1)), iv,
				    WBSIM_RUN_MAX_SAMPLES);
			return FALSE;
		}
	}
	if (!check_params(cfg, "device", error))
		return FALSE;
	return check_params(cfg, "filesystem", error);
}

unsigned int wbsim_config_nr_contexts(const struct wbsim_config *cfg,
				      bool rotational)
{
	g_return_val_if_fail(cfg != NULL, 1);
	if (cfg->wb_contexts == WBSIM_CONTEXTS_CPUS)
		return (unsigned int)cfg->cpus;
	if (cfg->wb_contexts == WBSIM_CONTEXTS_AUTO)
		return rotational ? 1 : (unsigned int)cfg->cpus;
	return (unsigned int)cfg->wb_contexts;
}

/* Every parameter of the chosen set, overrides applied, canonical text. */
static void dump_params(GString *out, const struct wbsim_config *cfg,
			const char *section)
{
	gboolean is_dev = strcmp(section, "device") == 0;
	const char *name = is_dev ? cfg->device_preset : cfg->fs_type;
	const struct wbsim_config_section_ops *ops =
		wbsim_config_get_section_ops(section);
	const struct wbsim_config_param_set *set;
	void *base;

	if (ops) {
		const GPtrArray *list = is_dev ? cfg->device_params : cfg->fs_params;
		g_autofree char *text = ops->describe ? ops->describe(cfg, name)
						      : NULL;

		if (text) {
			g_string_append(out, text);
			return;
		}
		for (guint i = 0; i < list->len; i++) {
			const struct wbsim_config_override *o = list->pdata[i];

			g_string_append_printf(out, "%s = %s\n", o->key, o->value);
		}
		return;
	}
	set = wbsim_config_find_param_set(section, name);
	if (!set)
		return;
	base = g_malloc0(MAX(set->struct_size, 1));
	if (wbsim_config_apply_params(cfg, section, base, NULL)) {
		for (size_t i = 0; i < set->n_keys; i++) {
			g_autofree char *v = wbsim_config_format_value(
				&set->keys[i], (char *)base + set->keys[i].offset);

			g_string_append_printf(out, "%s = %s\n",
					       set->keys[i].key, v);
		}
	}
	for (size_t i = 0; i < set->n_keys; i++)
		wbsim_config_free_field(&set->keys[i],
					(char *)base + set->keys[i].offset);
	g_free(base);
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
		for (size_t i = 0; i < G_N_ELEMENTS(config_keys); i++) {
			const struct wbsim_config_key *k = &config_keys[i];
			g_autofree char *v = NULL;

			if (strcmp(k->section, section) != 0 ||
			    (k->flags & (WBSIM_CFG_NO_DUMP | WBSIM_CFG_NO_STORE)))
				continue;
			if (k->type == WBSIM_CFG_PATH &&
			    !*(char **)((char *)cfg + k->offset))
				continue;	/* unset file name */
			v = wbsim_config_format_value(k, (char *)cfg + k->offset);
			g_string_append_printf(out, "%s = %s\n", k->key, v);
		}
		if (strcmp(section, "device") == 0 ||
		    strcmp(section, "filesystem") == 0)
			dump_params(out, cfg, section);
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

static void markdown_row(GString *out, const struct wbsim_config_key *k)
{
	g_autofree char *desc = wbsim_config_describe_type(k);
	const char *def = k->def ? (*k->def ? k->def : "(empty)") : "(none)";

	g_string_append_printf(out, "| `[%s]` | `%s` | %s%s%s%s | `%s` | %s |\n",
			       k->section, k->key, desc,
			       k->unit && *k->unit ? "; unit: " : "",
			       k->unit ? k->unit : "",
			       k->flags & WBSIM_CFG_REPEATABLE ? "; may repeat" : "",
			       def, k->help);
}

/* A model's parameter table (struct wbsim_param) as reference rows. */
static void markdown_params(GString *out, const char *section,
			    const struct wbsim_param *table, const char *no_default)
{
	if (!table || !table->name) {
		g_string_append(out, "No parameters.\n");
		return;
	}
	g_string_append(out, "| section | key | type, range, unit | default | meaning |\n");
	g_string_append(out, "|---|---|---|---|---|\n");
	for (const struct wbsim_param *p = table; p->name; p++) {
		g_autofree char *desc = wbsim_param_describe(p);

		g_string_append_printf(out, "| `[%s]` | `%s` | %s | `%s` | %s |\n",
				       section, p->name, desc,
				       p->def ? p->def : no_default, p->help ? p->help : "");
	}
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
	static const char *const set_sections[] = { "device", "filesystem" };

	g_string_append(out, "| section | key | type, range, unit | default | meaning |\n");
	g_string_append(out, "|---|---|---|---|---|\n");
	for (size_t i = 0; i < G_N_ELEMENTS(config_keys); i++)
		markdown_row(out, &config_keys[i]);

	for (size_t s = 0; s < G_N_ELEMENTS(set_sections); s++) {
		g_auto(GStrv) names = wbsim_config_param_set_names(set_sections[s]);

		for (size_t n = 0; names[n]; n++) {
			const struct wbsim_config_param_set *set =
				wbsim_config_find_param_set(set_sections[s], names[n]);

			g_string_append_printf(out, "\n#### `[%s] %s = %s`\n\n%s\n\n",
					       set->section,
					       s == 0 ? "preset" : "type",
					       set->name, set->help);
			if (set->n_keys == 0) {
				g_string_append(out, "No parameters yet.\n");
				continue;
			}
			g_string_append(out, "| section | key | type, range, unit | default | meaning |\n");
			g_string_append(out, "|---|---|---|---|---|\n");
			for (size_t i = 0; i < set->n_keys; i++)
				markdown_row(out, &set->keys[i]);
		}
	}
	markdown_models(out);
	return g_string_free(out, FALSE);
}
