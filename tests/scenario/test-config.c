/* SPDX-License-Identifier: MIT */
/*
 * test-config.c - the configuration table (its values' grammar:
 * tests/core/test-param.c): value printing, defaults, ranges, --set overrides, the
 * ratio/bytes exclusivity, device parameter overrides, events, the dump,
 * and that scenarios/README.md documents every key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <wbsim/wbsim.h>
#include "core/host-profile.h"
#include "scenario/config-private.h"

#define GIB ((uint64_t)1 << 30)

/* The printed forms of --dump-config (core/param.c) parse back to themselves. */
static void test_format_round_trip(void **state)
{
	static const uint64_t sizes[] = {
		0, 1, 4095, 4096, 1280 * 1024, 16 * GIB, UINT64_MAX,
		(uint64_t)3 << 50, 1536,
	};
	static const char *const size_text[] = {
		"0", "1", "4095", "4k", "1280k", "16g", "18446744073709551615",
		"3p", "1536",
	};
	static const wbsim_time_t times[] = {
		0, 1, 1500, 100000000, 30 * WBSIM_NSEC_PER_SEC,
		90 * WBSIM_NSEC_PER_SEC, 7200 * WBSIM_NSEC_PER_SEC,
	};
	static const char *const time_text[] = {
		"0", "1ns", "1500ns", "100ms", "30s", "90s", "2h",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
		g_autofree char *s = wbsim_format_size(sizes[i]);
		uint64_t back;

		assert_string_equal(s, size_text[i]);
		assert_true(wbsim_param_parse(WBSIM_PARAM_SIZE, s, &back, NULL));
		assert_true(back == sizes[i]);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(times); i++) {
		g_autofree char *s = wbsim_format_time(times[i]);
		wbsim_time_t back;

		assert_string_equal(s, time_text[i]);
		assert_true(wbsim_param_parse(WBSIM_PARAM_TIME, s, &back, NULL));
		assert_true(back == times[i]);
	}
}

static void test_closest_name(void **state)
{
	static const char *const names[] = {
		"dirty_ratio", "dirty_bytes", "cpus", "memory", NULL,
	};

	assert_string_equal(wbsim_closest_name("dirty_ratoi", names), "dirty_ratio");
	assert_string_equal(wbsim_closest_name("dirty_byte", names), "dirty_bytes");
	assert_string_equal(wbsim_closest_name("cpu", names), "cpus");
	assert_string_equal(wbsim_closest_name("memroy", names), "memory");
	assert_null(wbsim_closest_name("bandwidth", names));
	assert_null(wbsim_closest_name("x", names));
}

static void test_defaults(void **state)
{
	struct wbsim_config *cfg = wbsim_config_new();

	assert_int_equal(cfg->cpus, 4);
	assert_true(cfg->memory == 16 * GIB);
	assert_int_equal(cfg->hz, 1000);
	assert_int_equal(cfg->page_size, 4096);
	assert_int_equal(cfg->knobs.dirty_ratio, 20);
	assert_int_equal(cfg->knobs.dirty_bytes, 0);
	assert_int_equal(cfg->knobs.dirty_background_ratio, 10);
	assert_int_equal(cfg->knobs.dirty_background_bytes, 0);
	assert_int_equal(cfg->knobs.dirty_expire_centisecs, 3000);
	assert_int_equal(cfg->knobs.dirty_writeback_centisecs, 500);
	assert_string_equal(cfg->device_preset, "ideal");
	assert_string_equal(cfg->fs_type, "ideal");
	assert_int_equal(cfg->device_params->len, 0);
	assert_int_equal(cfg->knobs.wb_contexts, 1);
	assert_string_equal(cfg->knobs.wb_affinity, "inode");
	assert_false(cfg->knobs.strictlimit);
	assert_null(cfg->fio_file);
	assert_int_equal(cfg->seed, 1);
	assert_int_equal(cfg->time_limit, 0);
	assert_int_equal(cfg->series_interval, 100 * WBSIM_NSEC_PER_MSEC);
	assert_int_equal(cfg->events->len, 0);
	assert_string_equal(cfg->description, "");
	assert_true(wbsim_config_check(cfg, NULL));
	wbsim_config_free(cfg);
}

/*
 * Every row of the scenario table has a section of the file, a unit text
 * and a line of help; its default parses with its own grammar, lies in its
 * range and prints back as written; keys are unique in their section.
 */
static void test_table_defaults_parse(void **state)
{
	size_t n;
	const struct wbsim_param *keys = wbsim_config_keys(&n);

	assert_true(n >= 22);
	assert_null(keys[n].name);
	for (size_t i = 0; i < n; i++) {
		union {
			uint64_t u;
			char *s;
			gboolean b;
			unsigned int e;
		} field = { 0 };
		g_autofree char *back = NULL;

		assert_non_null(keys[i].help);
		assert_non_null(keys[i].unit);
		assert_non_null(keys[i].section);
		assert_true(wbsim_config_is_section(keys[i].section));
		assert_true(wbsim_param_field_size(keys[i].type) <= sizeof(field));
		for (size_t j = 0; j < i; j++)
			if (!strcmp(keys[j].section, keys[i].section) &&
			    !strcmp(keys[j].name, keys[i].name))
				fail_msg("[%s] %s: twice", keys[i].section, keys[i].name);
		if (!keys[i].def)
			continue;
		assert_true(wbsim_param_parse_row(&keys[i], keys[i].def, NULL,
						  &field, NULL));
		back = wbsim_param_format_canonical(&keys[i], &field);
		assert_string_equal(back, keys[i].def);
		if (wbsim_param_is_text(keys[i].type))
			g_free(field.s);
	}
}

/* Assert that --set ASSIGNMENT fails with exactly MESSAGE. */
static void assert_set_fails(const char *assignment, const char *message)
{
	struct wbsim_config *cfg = wbsim_config_new();
	g_autoptr(GError) e = NULL;

	assert_false(wbsim_config_set_override(cfg, assignment, &e));
	assert_non_null(e);
	assert_string_equal(e->message, message);
	wbsim_config_free(cfg);
}

/*
 * [vm] and [writeback] are lib/machine's rows (machine/knobs.c): the
 * scenario's table holds each of them once, in its section's place (right
 * after [costs], and after [filesystem]), storing into cfg->knobs, so a
 * new knob is a row and a field there and nothing here.
 */
static void test_machine_knobs(void **state)
{
	static const char *const order =
		"scenario scenario scenario machine machine machine machine machine "
		"machine machine machine machine machine machine machine machine costs vm vm vm vm vm vm device "
		"filesystem writeback writeback writeback writeback writeback "
		"writeback writeback workload run run run events measure";
	struct wbsim_config *cfg = wbsim_config_new();
	g_autoptr(GString) sections = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	size_t n, n_machine = 0;
	const struct wbsim_param *keys = wbsim_config_keys(&n);
	struct wbsim_machine_knobs k = { .wb_contexts = WBSIM_CONTEXTS_AUTO };

	(void)state;
	for (const struct wbsim_param *p = wbsim_machine_knob_keys; p->name; p++) {
		size_t i = n;
		const struct wbsim_param *row = wbsim_config_find_key(p->section, p->name, &i);

		assert_true(!strcmp(p->section, "vm") || !strcmp(p->section, "writeback"));
		assert_non_null(row);
		assert_ptr_equal(row, &keys[i]);
		assert_int_equal(row->offset, offsetof(struct wbsim_config, knobs) + p->offset);
		assert_string_equal(row->help, p->help);
		n_machine++;
	}
	assert_int_equal(n_machine, 13);
	for (size_t i = 0; i < n; i++)
		g_string_append_printf(sections, "%s%s", i ? " " : "", keys[i].section);
	assert_string_equal(sections->str, order);

	assert_true(wbsim_config_set_value(cfg, "writeback", "max_bytes", "1g", "override", 0, 0,
					   NULL, &error));
	assert_true(wbsim_config_set_value(cfg, "vm", "dirty_expire_centisecs", "1500", "override",
					   0, 0, NULL, &error));
	assert_true(wbsim_config_set_value(cfg, "writeback", "affinity", "none", "override", 0, 0,
					   NULL, &error));
	assert_true(cfg->knobs.bdi_max_bytes == GIB);
	assert_int_equal(cfg->knobs.dirty_expire_centisecs, 1500);
	assert_string_equal(cfg->knobs.wb_affinity, "none");
	assert_false(wbsim_config_set_value(cfg, "vm", "dirty_ratio", "101", "override", 0, 0,
					    NULL, &error));
	assert_string_equal(error->message,
			    "override: [vm] dirty_ratio = 101: expected a percentage, an integer from 0 to 100");
	wbsim_config_free(cfg);

	assert_int_equal(wbsim_machine_nr_contexts(&k, 12, true), 1);
	assert_int_equal(wbsim_machine_nr_contexts(&k, 12, false), 12);
	k.wb_contexts = WBSIM_CONTEXTS_CPUS;
	assert_int_equal(wbsim_machine_nr_contexts(&k, 12, true), 12);
	k.wb_contexts = 3;
	assert_int_equal(wbsim_machine_nr_contexts(&k, 12, false), 3);
}

static void test_set_errors(void **state)
{
	assert_set_fails("machine.cpus=0",
		"override: [machine] cpus = 0: expected an integer from 1 to 4096");
	assert_set_fails("machine.cpus=-4",
		"override: [machine] cpus = -4: a negative value: expected an integer from 1 to 4096");
	assert_set_fails("machine.memory=1m",
		"override: [machine] memory = 1m: expected a size in bytes (suffixes k, m, g, t, p are powers of 1024) from 64m to 64t");
	assert_set_fails("machine.memory=99999999999999999999",
		"override: [machine] memory = 99999999999999999999: value does not fit in 64 bits: expected a size in bytes (suffixes k, m, g, t, p are powers of 1024) from 64m to 64t");
	assert_set_fails("machine.page_size=64k",
		"override: [machine] page_size = 64k: expected a size in bytes (suffixes k, m, g, t, p are powers of 1024) equal to 4k");
	assert_set_fails("vm.dirty_ratio=120",
		"override: [vm] dirty_ratio = 120: expected a percentage, an integer from 0 to 100");
	assert_set_fails("vm.dirty_bytes=4k",
		"override: [vm] dirty_bytes = 4k: expected a size in bytes (suffixes k, m, g, t, p are powers of 1024) equal to 0 or of at least 8k");
	assert_set_fails("vm.dirty_expire_centisecs=30s",
		"override: [vm] dirty_expire_centisecs = 30s: expected an integer number of centiseconds (1/100 s) from 0 to 100000000");
	assert_set_fails("writeback.contexts=many",
		"override: [writeback] contexts = many: expected an integer from 1 to 4096, or one of: cpus, auto");
	assert_set_fails("writeback.affinity=inodes",
		"override: [writeback] affinity = inodes: expected one of: inode, none (did you mean inode?)");
	assert_set_fails("writeback.strictlimit=maybe",
		"override: [writeback] strictlimit = maybe: expected a boolean (true/false, yes/no, on/off, 1/0)");
	assert_set_fails("run.series_interval=10",
		"override: [run] series_interval = 10: a number without a unit: expected a time with a unit (ns, us, ms, s, m, h) from 1us to 1h");
	assert_set_fails("vm.dirty_ratoi=5",
		"override: [vm] dirty_ratoi = 5: unknown key (did you mean dirty_ratio?)");
	assert_set_fails("machine.dirty_ratio=5",
		"override: [machine] dirty_ratio = 5: unknown key (did you mean [vm] dirty_ratio?)");
	assert_set_fails("measure.latency=1",
		"override: [measure] latency = 1: unknown key");
	assert_set_fails("machin.cpus=2",
		"override: [machin]: unknown section (did you mean [machine]?)");
	assert_set_fails("cpus=2", "override: 'cpus=2': expected SECTION.KEY=VALUE");
	assert_set_fails("scenario.include=x.ini",
		"override: [scenario] include = x.ini: only allowed in a scenario file");
	assert_set_fails("events.at=30s sink",
		"override: [events] at = 30s sink: unknown action 'sink': expected one of: syncfs, sync, umount, contexts, cgroup-create, cgroup-set, cgroup-move, cgroup-remove, cgroup-io-disable, cgroup-io-enable (did you mean sync?)");
	assert_set_fails("events.at=30 sync",
		"override: [events] at = 30 sync: time '30': a number without a unit: expected a time with a unit (ns, us, ms, s, m, h)");
	assert_set_fails("events.at=30s",
		"override: [events] at = 30s: expected 'TIME ACTION [ARGS]' with a TIME such as 30s and an ACTION among: syncfs, sync, umount, contexts, cgroup-create, cgroup-set, cgroup-move, cgroup-remove, cgroup-io-disable, cgroup-io-enable");
	assert_set_fails("events.at=30s sync now",
		"override: [events] at = 30s sync now: action sync takes no arguments, found 'now'");
}

static void test_set_values(void **state)
{
	struct wbsim_config *cfg = wbsim_config_new();
	const struct wbsim_config_event *ev;

	assert_true(wbsim_config_set_override(cfg, "machine.cpus=12", NULL));
	assert_true(wbsim_config_set_override(cfg, " machine . memory = 9g ", NULL));
	assert_true(wbsim_config_set_override(cfg, "writeback.contexts=cpus", NULL));
	assert_true(wbsim_config_set_override(cfg, "writeback.affinity=none", NULL));
	assert_true(wbsim_config_set_override(cfg, "writeback.strictlimit=yes", NULL));
	assert_true(wbsim_config_set_override(cfg, "run.seed=18446744073709551615", NULL));
	assert_true(wbsim_config_set_override(cfg, "run.time_limit=2m", NULL));
	assert_true(wbsim_config_set_override(cfg, "events.at=45s sync", NULL));
	assert_true(wbsim_config_set_override(cfg, "events.at=30s syncfs", NULL));
	/* a later --set of the same key wins */
	assert_true(wbsim_config_set_override(cfg, "machine.cpus=8", NULL));
	assert_int_equal(cfg->cpus, 8);
	assert_true(cfg->memory == 9 * GIB);
	assert_true(cfg->knobs.wb_contexts == WBSIM_CONTEXTS_CPUS);
	assert_int_equal(wbsim_config_nr_contexts(cfg, false), 8);
	assert_int_equal(wbsim_config_nr_contexts(cfg, true), 8);
	assert_true(wbsim_config_set_override(cfg, "writeback.contexts=auto", NULL));
	assert_int_equal(wbsim_config_nr_contexts(cfg, false), 8);
	assert_int_equal(wbsim_config_nr_contexts(cfg, true), 1);
	assert_true(wbsim_config_set_override(cfg, "writeback.contexts=3", NULL));
	assert_int_equal(wbsim_config_nr_contexts(cfg, true), 3);
	assert_string_equal(cfg->knobs.wb_affinity, "none");
	assert_true(cfg->knobs.strictlimit);
	assert_true(cfg->seed == UINT64_MAX);
	assert_true(cfg->time_limit == 120 * WBSIM_NSEC_PER_SEC);
	/* events stay in the order given */
	assert_int_equal(cfg->events->len, 2);
	ev = cfg->events->pdata[0];
	assert_true(ev->at == 45 * WBSIM_NSEC_PER_SEC);
	assert_string_equal(ev->action, "sync");
	assert_null(ev->args);
	assert_string_equal(ev->file, "override");
	ev = cfg->events->pdata[1];
	assert_string_equal(ev->action, "syncfs");
	assert_true(wbsim_config_check(cfg, NULL));
	wbsim_config_free(cfg);
}

static void test_ratio_bytes_exclusive(void **state)
{
	struct wbsim_config *cfg = wbsim_config_new();
	g_autoptr(GError) e = NULL;

	/* dirty_bytes alone: the ratio becomes 0, as the kernel does */
	assert_true(wbsim_config_set_override(cfg, "vm.dirty_bytes=3276m", NULL));
	assert_true(wbsim_config_set_override(cfg, "vm.dirty_background_bytes=1638m", NULL));
	assert_true(wbsim_config_check(cfg, NULL));
	assert_int_equal(cfg->knobs.dirty_ratio, 0);
	assert_int_equal(cfg->knobs.dirty_background_ratio, 0);
	assert_true(cfg->knobs.dirty_bytes == (uint64_t)3276 << 20);
	wbsim_config_free(cfg);

	/* both set non-zero: an error naming both keys */
	cfg = wbsim_config_new();
	assert_true(wbsim_config_set_override(cfg, "vm.dirty_ratio=30", NULL));
	assert_true(wbsim_config_set_override(cfg, "vm.dirty_bytes=1g", NULL));
	assert_false(wbsim_config_check(cfg, &e));
	assert_string_equal(e->message,
		"override: [vm] dirty_bytes = 1g: dirty_ratio = 30 is also set (override): the kernel makes dirty_ratio and dirty_bytes exclusive; set only one of them");
	wbsim_config_free(cfg);
	g_clear_error(&e);

	cfg = wbsim_config_new();
	assert_true(wbsim_config_set_override(cfg, "vm.dirty_background_ratio=5", NULL));
	assert_true(wbsim_config_set_override(cfg, "vm.dirty_background_bytes=64m", NULL));
	assert_false(wbsim_config_check(cfg, &e));
	assert_string_equal(e->message,
		"override: [vm] dirty_background_bytes = 64m: dirty_background_ratio = 5 is also set (override): the kernel makes dirty_background_ratio and dirty_background_bytes exclusive; set only one of them");
	wbsim_config_free(cfg);
	g_clear_error(&e);

	/* a ratio explicitly 0 beside the bytes form is fine */
	cfg = wbsim_config_new();
	assert_true(wbsim_config_set_override(cfg, "vm.dirty_ratio=0", NULL));
	assert_true(wbsim_config_set_override(cfg, "vm.dirty_bytes=1g", NULL));
	assert_true(wbsim_config_check(cfg, NULL));
	wbsim_config_free(cfg);
}

/* [device] belongs to the device layer: overrides are checked there. */
static void test_device_params(void **state)
{
	struct wbsim_config *cfg = wbsim_config_new();
	const struct wbsim_config_override *o;
	g_autoptr(GError) e = NULL;

	assert_true(wbsim_config_check(cfg, NULL));
	assert_true(wbsim_config_set_override(cfg, "device.bandwidth=2GB/s", NULL));
	assert_true(wbsim_config_set_override(cfg, "device.queue_depth=64", NULL));
	assert_true(wbsim_config_set_override(cfg, "device.bandwidth=3GB/s", NULL));
	/* a later setting replaces the earlier one where it stood */
	assert_int_equal(cfg->device_params->len, 2);
	o = cfg->device_params->pdata[0];
	assert_string_equal(o->key, "bandwidth");
	assert_string_equal(o->value, "3GB/s");
	assert_string_equal(o->file, "override");
	assert_int_equal(o->line, 0);
	assert_true(wbsim_config_check(cfg, NULL));

	/* the device layer's message, located at the override */
	assert_true(wbsim_config_set_override(cfg, "device.bandwith=2GB/s", NULL));
	assert_false(wbsim_config_check(cfg, &e));
	assert_true(g_str_has_prefix(e->message, "override: "));
	assert_non_null(strstr(e->message, "'bandwith'"));
	assert_non_null(strstr(e->message, "bandwidth"));
	wbsim_config_free(cfg);
	g_clear_error(&e);

	cfg = wbsim_config_new();
	assert_true(wbsim_config_set_override(cfg, "device.preset=nvme-fast", NULL));
	assert_false(wbsim_config_check(cfg, &e));
	assert_string_equal(e->message,
		"override: [device] preset = nvme-fast: no such device preset: expected the name of a file NAME.ini in $WBSIM_PRESET_PATH, lib/block/presets or the installed share/wbsim/presets, or a path to a preset file");
	wbsim_config_free(cfg);
	g_clear_error(&e);

	/* [filesystem] belongs to the filesystem layer in the same way */
	cfg = wbsim_config_new();
	assert_true(wbsim_config_set_override(cfg, "filesystem.type=xfs", NULL));
	assert_true(wbsim_config_set_override(cfg, "filesystem.agcount=8", NULL));
	assert_true(wbsim_config_check(cfg, NULL));
	assert_true(wbsim_config_set_override(cfg, "filesystem.journal=1", NULL));
	assert_false(wbsim_config_check(cfg, &e));
	assert_true(g_str_has_prefix(e->message, "override: "));
	assert_non_null(strstr(e->message, "'journal'"));
	wbsim_config_free(cfg);
	g_clear_error(&e);

	cfg = wbsim_config_new();
	assert_true(wbsim_config_set_override(cfg, "filesystem.type=xfs4", NULL));
	assert_false(wbsim_config_check(cfg, &e));
	assert_true(g_str_has_prefix(e->message, "override: "));
	assert_non_null(strstr(e->message, "'xfs4'"));
	assert_non_null(strstr(e->message, "ideal, xfs, ext4, f2fs"));
	wbsim_config_free(cfg);
}

static void test_dump_defaults(void **state)
{
	struct wbsim_config *cfg = wbsim_config_new();
	g_autofree char *dump = NULL;
	char *dev, *end;

	assert_true(wbsim_config_check(cfg, NULL));
	dump = wbsim_config_dump(cfg);
	/* the device layer prints its own parameters: check they are there */
	dev = strstr(dump, "preset = ideal\n");
	assert_non_null(dev);
	dev += strlen("preset = ideal\n");
	end = strstr(dev, "\n\n");
	assert_non_null(end);
	assert_true(g_str_has_prefix(dev, "bandwidth = "));
	assert_non_null(g_strstr_len(dev, end - dev, "\nlatency = "));
	memmove(dev, "@DEVICE@", 8);
	memmove(dev + 8, end + 1, strlen(end + 1) + 1);
	/* the filesystem layer too */
	dev = strstr(dump, "type = ideal\n");
	assert_non_null(dev);
	dev += strlen("type = ideal\n");
	end = strstr(dev, "\n\n");
	assert_non_null(end);
	assert_non_null(strstr(dev, "\nblock_size = "));
	memmove(dev, "@FS@", 4);
	memmove(dev + 4, end + 1, strlen(end + 1) + 1);
	/* the costs: the built-in host profile's (tests/scenario/test-costs.c) */
	dev = strstr(dump, "[costs]\n");
	assert_non_null(dev);
	dev += strlen("[costs]\n");
	end = strstr(dev, "\n\n");
	assert_non_null(end);
	{
		g_autofree char *head = g_strdup_printf("host = %s\ncopy_page_ns = ",
							wbsim_host_profile_host());

		assert_true(g_str_has_prefix(dev, head));
	}
	memmove(dev, "@COSTS@", 7);
	memmove(dev + 7, end + 1, strlen(end + 1) + 1);
	assert_string_equal(dump,
		"[scenario]\n"
		"description = \n"
		"lab_program = \n"
		"\n"
		"[machine]\n"
		"cpus = 4\n"
		"memory = 16g\n"
		"memmap = 0\n"
		"cpu_speed = 100\n"
		"idle_exit_latency = 0\n"
		"idle_poll_window = 0\n"
		"idle_poll_latency = 0\n"
		"idle_wake_cost = 0\n"
		"idle_exit_cost = 0\n"
		"idle_poll_cost = 0\n"
		"sched_autogroup = true\n"
		"hz = 1000\n"
		"page_size = 4k\n"
		"\n"
		"[costs]\n"
		"@COSTS@"
		"\n"
		"[vm]\n"
		"dirty_ratio = 20\n"
		"dirty_bytes = 0\n"
		"dirty_background_ratio = 10\n"
		"dirty_background_bytes = 0\n"
		"dirty_expire_centisecs = 3000\n"
		"dirty_writeback_centisecs = 500\n"
		"\n"
		"[device]\n"
		"preset = ideal\n"
		"@DEVICE@"
		"\n"
		"[filesystem]\n"
		"type = ideal\n"
		"@FS@"
		"\n"
		"[writeback]\n"
		"contexts = 1\n"
		"affinity = inode\n"
		"strictlimit = false\n"
		"max_bytes = 0\n"
		"folio_size = auto\n"
		"dirty_accounting = whole-folio\n"
		"dying_wb = unreachable\n"
		"\n"
		"[run]\n"
		"seed = 1\n"
		"time_limit = 0\n"
		"series_interval = 100ms\n");
	wbsim_config_free(cfg);
}

/* scenarios/README.md must document every key of the table and presets. */
static void test_readme_covers_keys(void **state)
{
	const char *root = g_getenv("WBSIM_SOURCE_ROOT");
	g_autofree char *path = NULL, *text = NULL, *md = NULL;
	size_t n;
	const struct wbsim_param *keys = wbsim_config_keys(&n);

	assert_non_null(root);
	path = g_build_filename(root, "scenarios", "README.md", NULL);
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	for (size_t i = 0; i < n; i++) {
		g_autofree char *cell = g_strdup_printf("| `[%s]` | `%s` |",
							keys[i].section,
							keys[i].name);

		if (!strstr(text, cell))
			fail_msg("scenarios/README.md lacks a row for [%s] %s",
				 keys[i].section, keys[i].name);
	}
	/* the generated reference is in the README as generated */
	md = wbsim_config_keys_markdown();
	if (!strstr(text, md))
		fail_msg("scenarios/README.md: the key reference differs from "
			 "sim-writeback --list-keys; regenerate it");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_closest_name),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_table_defaults_parse),
		cmocka_unit_test(test_machine_knobs),
		cmocka_unit_test(test_set_errors),
		cmocka_unit_test(test_set_values),
		cmocka_unit_test(test_ratio_bytes_exclusive),
		cmocka_unit_test(test_device_params),
		cmocka_unit_test(test_dump_defaults),
		cmocka_unit_test(test_readme_covers_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
