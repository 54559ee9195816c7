/* SPDX-License-Identifier: MIT */
/*
 * test-costs.c - the host as data: [costs] and host profiles. The built-in
 * profile compiled into the library is the file lib/core/hosts/ holds and
 * names every cost the model charges, no more; a [costs] line (in the
 * scenario, an included profile or --set) changes the run's cost and
 * nothing else; a filesystem's cost is set as FS.KEY there and refused in
 * [filesystem]; a cost's name from before every CPU cost became WORK_ns
 * is refused with its new one; the dump carries every cost and loads back
 * to itself; a dearer cost makes the same work take longer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include <wbsim/wbsim.h>
#include "core/cpu-costs.h"
#include "core/host-profile.h"
#include "core/param.h"
#include "fs/alloc/fs.h"
#include "scenario/config-private.h"

/* The source file the library compiled in, lexed here on its own. */
static struct wbsim_ini_doc *source_profile(void)
{
	const char *root = g_getenv("WBSIM_SOURCE_ROOT");
	g_autofree char *path = NULL;
	struct wbsim_ini_doc *doc = NULL;
	g_autoptr(GError) error = NULL;

	assert_non_null(root);
	path = g_build_filename(root, wbsim_host_profile_name(), NULL);
	if (!wbsim_ini_lex_file(path, 0, &doc, &error))
		fail_msg("%s", error->message);
	return doc;
}

/* Is @key a cost the model charges: a cost table row or FS.KEY of a cost row? */
static gboolean is_machine_key(const char *key)
{
	size_t n;
	const struct wbsim_param *p = wbsim_config_keys(&n);

	for (size_t i = 0; i < n; i++)
		if (g_strcmp0(p[i].section, "machine") == 0 && strcmp(p[i].name, key) == 0)
			return TRUE;
	return FALSE;
}

static gboolean is_cost_key(const char *key)
{
	const char *dot = strchr(key, '.');
	g_autofree char *fs = NULL;
	const struct wbsim_fs_ops *ops;
	const struct wbsim_param *row;

	if (!dot)
		return wbsim_param_find(wbsim_cpu_costs_params(), key) != NULL;
	fs = g_strndup(key, (gsize)(dot - key));
	ops = wbsim_fs_lookup(fs);
	row = ops ? wbsim_param_find(ops->options, dot + 1) : NULL;
	return row && (row->flags & WBSIM_PARAM_COST);
}

/* The embedded text is the file's, and the file names every cost once. */
static void test_builtin_profile_is_the_file(void **state)
{
	struct wbsim_ini_doc *doc = source_profile();
	const char *const *keys = wbsim_host_profile_keys();
	g_auto(GStrv) filesystems = wbsim_fs_names();
	size_t n_file = 0, n_keys = g_strv_length((char **)keys);
	size_t n_costs = 0, n_machine = 0;

	(void)state;
	for (guint s = 0; s < doc->sections->len; s++) {
		const struct wbsim_ini_section *sec = doc->sections->pdata[s];

		if (strcmp(sec->name, "machine") == 0) {
			/* the host's own figures (the idle exit latency): keys of
			 * [machine], applied where a scenario includes the profile */
			for (guint i = 0; i < sec->entries->len; i++) {
				const struct wbsim_ini_entry *e = sec->entries->pdata[i];

				if (!is_machine_key(e->key))
					fail_msg("%s:%u: %s: not a [machine] key", e->file, e->line,
						 e->key);
				n_machine++;
			}
			continue;
		}
		assert_string_equal(sec->name, "costs");
		for (guint i = 0; i < sec->entries->len; i++) {
			const struct wbsim_ini_entry *e = sec->entries->pdata[i];
			const struct wbsim_ini_entry *b;

			if (strcmp(e->key, "host") == 0)
				continue;
			b = wbsim_host_profile_lookup(e->key);
			assert_non_null(b);
			assert_string_equal(b->value, e->value);
			assert_int_equal(b->line, e->line);
			if (!is_cost_key(e->key))
				fail_msg("%s:%u: %s: not a cost the model charges", e->file,
					 e->line, e->key);
			n_file++;
		}
	}
	assert_int_equal(n_file, n_keys);
	/* lab-v1272's idle exit latency, its poll window and latency, the
	 * waker's cost of a wake-up onto an idle CPU and the woken task's
	 * (within the window and past it) */
	assert_int_equal(n_machine, 6);
	/* every cost of the table and of every built-in filesystem is in it */
	for (const struct wbsim_param *p = wbsim_cpu_costs_params(); p->name; p++, n_costs++)
		if (!wbsim_host_profile_lookup(p->name))
			fail_msg("the built-in profile has no %s", p->name);
	for (size_t i = 0; filesystems[i]; i++) {
		const struct wbsim_fs_ops *ops = wbsim_fs_lookup(filesystems[i]);

		for (const struct wbsim_param *o = ops->options; o && o->name; o++) {
			g_autofree char *key = g_strdup_printf("%s.%s", ops->name, o->name);

			if (!(o->flags & WBSIM_PARAM_COST))
				continue;
			if (!wbsim_host_profile_lookup(key))
				fail_msg("the built-in profile has no %s", key);
			n_costs++;
		}
	}
	assert_int_equal(n_costs, n_keys);
	assert_null(wbsim_host_profile_lookup("host"));
	assert_null(wbsim_host_profile_lookup("copy_pages_ns"));
	wbsim_ini_doc_free(doc);
}

static const struct wbsim_config *load_cfg(const char *text, const char *const *overrides,
				     struct wbsim_scenario **scn)
{
	g_autoptr(GError) error = NULL;

	*scn = wbsim_scenario_load_string(text, "t.ini", NULL, overrides, &error);
	if (!*scn)
		fail_msg("%s", error->message);
	return wbsim_scenario_config(*scn);
}

#define SPARSE_XFS \
	"[filesystem]\ntype = xfs\n" \
	"[fio:w]\nfilename=/mnt/f\nrw=randwrite\nbs=4k\nsize=8m\nfallocate=none\n" \
	"ioengine=psync\nrandseed=3\n"

/* [costs] sets what it names; the rest stays the built-in profile's. */
static void test_costs_section(void **state)
{
	static const char *const sets[] = { "costs.uring_io_ns=2us", NULL };
	struct wbsim_scenario *scn;
	const struct wbsim_config *cfg = load_cfg(
		"[costs]\nhost = test-build\ncopy_page_ns = 1234ns\n"
		"xfs.alloc_ns = 3us\next4.map_ns = 5us\n" SPARSE_XFS, sets, &scn);
	const struct wbsim_cpu_costs *def = wbsim_cpu_costs_default();
	struct wbsim_cpu_costs c;
	g_autoptr(GArray) fs = NULL;
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_string_equal(cfg->cost_host, "test-build");
	assert_true(wbsim_config_costs_apply(cfg, &c, &error));
	assert_int_equal(c.copy_page_ns, 1234);
	assert_int_equal(c.uring_io_ns, 2000);
	/* everything else as the built-in profile */
	c.copy_page_ns = def->copy_page_ns;
	c.uring_io_ns = def->uring_io_ns;
	assert_memory_equal(&c, def, sizeof(c));
	/* the scenario's filesystem gets its own costs, without the prefix */
	fs = wbsim_config_fs_settings(cfg);
	assert_int_equal(fs->len, 1);
	assert_string_equal(g_array_index(fs, struct wbsim_setting, 0).key, "alloc_ns");
	assert_string_equal(g_array_index(fs, struct wbsim_setting, 0).value, "3us");
	assert_string_equal(wbsim_fs_cost_value("xfs", "alloc_ns",
						(const struct wbsim_setting *)fs->data,
						fs->len), "3us");
	/* not a cost, no such row */
	assert_null(wbsim_fs_cost_value("xfs", "agcount", NULL, 0));
	assert_null(wbsim_fs_cost_value("xfs", "no_such_ns", NULL, 0));
	wbsim_scenario_free(scn);
}

/* The dump names the host and every cost the run takes, and reloads to itself. */
static void test_dump_round_trip(void **state)
{
	struct wbsim_scenario *scn, *again;
	g_autofree char *dump = NULL, *dump2 = NULL;

	(void)state;
	load_cfg("[costs]\ncopy_page_ns = 1234ns\next4.map_ns = 5us\n" SPARSE_XFS,
		 NULL, &scn);
	dump = wbsim_scenario_dump(scn);
	/* the host of the costs not set: the built-in profile's */
	{
		g_autofree char *head = g_strdup_printf("\n[costs]\nhost = %s\ncopy_page_ns = 1234ns\n",
							wbsim_host_profile_host());

		assert_string_not_equal(wbsim_host_profile_host(), "");
		assert_non_null(strstr(dump, head));
	}
	/* the built-in profile's value of a cost the scenario leaves alone */
	assert_non_null(strstr(dump, "\nxfs.alloc_ns = "));
	assert_non_null(strstr(dump, wbsim_host_profile_lookup("xfs.alloc_ns")->value));
	/* another filesystem's cost, as set; no filesystem's cost in [filesystem] */
	assert_non_null(strstr(dump, "\next4.map_ns = 5us\n"));
	assert_null(strstr(strstr(dump, "[filesystem]"), "\nalloc_ns"));
	load_cfg(dump, NULL, &again);
	dump2 = wbsim_scenario_dump(again);
	assert_string_equal(dump, dump2);
	wbsim_scenario_free(scn);
	wbsim_scenario_free(again);
}

/* Bad [costs] and [filesystem] lines name file, line, key and what was expected. */
static void test_bad_costs(void **state)
{
	static const struct {
		const char *text, *message;
	} cases[] = {
		{ "[costs]\ncopy_pages_ns = 1us\n",
		  "t.ini:2: [costs] unknown key 'copy_pages_ns': expected one of copy_page_ns, " },
		{ "[costs]\ncopy_page_ns = 800\n",
		  "t.ini:2: [costs] copy_page_ns = 800: a number without a unit: expected a time" },
		{ "[costs]\nxfs.agcount = 8\n",
		  "t.ini:2: [costs] xfs.agcount = 8: an option of the filesystem, not a CPU cost" },
		{ "[costs]\nzfs.map_ns = 1us\n",
		  "t.ini:2: [costs] zfs.map_ns = 1us: no such filesystem model" },
		{ "[costs]\nxfs.map_cpus_ns = 1us\n",
		  "t.ini:2: [costs] xfs.map_cpus_ns = 1us: the filesystem model has no such cost" },
		{ "[filesystem]\ntype = xfs\nalloc_ns = 7us\n",
		  "t.ini:3: [filesystem] alloc_ns = 7us: a CPU cost of the host, not an option of the filesystem: expected it in [costs] as xfs.alloc_ns = 7us" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strconcat(cases[i].text,
						    "[fio:w]\nrw=write\nsize=1m\n", NULL);
		g_autoptr(GError) error = NULL;
		struct wbsim_scenario *scn =
			wbsim_scenario_load_string(text, "t.ini", NULL, NULL, &error);

		assert_null(scn);
		assert_non_null(error);
		if (!g_str_has_prefix(error->message, cases[i].message))
			fail_msg("case %zu: %s", i, error->message);
	}
}

/*
 * A key renamed when every CPU cost became WORK_ns, or moved when the loop
 * worker's CPU became a host cost, is refused wherever a file or an option
 * may set it, with file, line, key and its new name and section; the new
 * name is the key of a cost the model charges.
 */
static void test_renamed_keys(void **state)
{
	static const struct {
		const char *text, *set, *message;
	} cases[] = {
		{ "[costs]\nxfs.alloc_cpu_ns = 2us\n", NULL,
		  "t.ini:2: [costs] xfs.alloc_cpu_ns = 2us: the key was renamed to xfs.alloc_ns (a CPU cost is WORK_ns, the CPU time of one WORK): expected xfs.alloc_ns = 2us" },
		{ "[device]\nmodel = loop\nrequest_cpu = 2us\n", NULL,
		  "t.ini:3: [device] request_cpu = 2us: the key moved to [costs] as loop_request_ns (the loop worker's CPU is the host's: a row of its profile): expected [costs] loop_request_ns = 2us" },
		{ "[device]\npreset = lab-ram\nworker_page_copy_ns = 1us\n", NULL,
		  "t.ini:3: [device] worker_page_copy_ns = 1us: the key moved to [costs] as loop_page_copy_ns (the loop worker's CPU is the host's: a row of its profile): expected [costs] loop_page_copy_ns = 1us" },
		{ "[sweep]\ndevice.worker_request_ns = 1us,2us\n", NULL,
		  "t.ini:2: [sweep] device.worker_request_ns = 1us,2us: the key moved to costs.loop_request_ns (the loop worker's CPU is the host's: a row of its profile): expected [sweep] costs.loop_request_ns = VALUES" },
		{ "[filesystem]\ntype = ext4\nwrite_miss_cpu_ns = 2us\n", NULL,
		  "t.ini:3: [filesystem] write_miss_cpu_ns = 2us: a CPU cost of the host, renamed since: expected it in [costs] as ext4.write_miss_ns = 2us" },
		{ "[sweep]\ncosts.f2fs.write_cpu_ns = 1us,2us\n", NULL,
		  "t.ini:2: [sweep] costs.f2fs.write_cpu_ns = 1us,2us: the key was renamed to costs.f2fs.write_ns (a CPU cost is WORK_ns, the CPU time of one WORK): expected [sweep] costs.f2fs.write_ns = VALUES" },
		{ "", "device.page_alloc_cpu=3us",
		  "override: [device] page_alloc_cpu = 3us: the key moved to [costs] as loop_page_alloc_ns (the loop worker's CPU is the host's: a row of its profile): expected [costs] loop_page_alloc_ns = 3us" },
	};
	static const char *const models[] = { "ideal", "pmem", "nvme", "hdd", "raid0", "loop" };
	size_t n;
	const struct wbsim_param_renamed *renamed = wbsim_param_renamed_keys(&n);
	g_autofree char *dir = g_dir_make_tmp("wbsim-renamed-XXXXXX", NULL);
	g_autofree char *preset = NULL, *text = NULL, *want = NULL;
	g_autoptr(GError) error = NULL;

	(void)state;
	/* the filesystems' 19 costs and the loop worker's 3, under two old names each */
	assert_int_equal(n, 25);
	assert_string_equal(wbsim_param_renamed("costs", "ext4.write_miss_cpu_ns"),
			    "ext4.write_miss_ns");
	assert_string_equal(wbsim_param_renamed("device", "page_copy_cpu"), "loop_page_copy_ns");
	assert_string_equal(wbsim_param_renamed("device", "worker_page_copy_ns"),
			    "loop_page_copy_ns");
	for (size_t i = 0; i < n; i++) {
		gboolean is_device = strcmp(renamed[i].section, "device") == 0;
		const char *now_in = renamed[i].moved_to ? renamed[i].moved_to : renamed[i].section;
		gboolean old_found = FALSE, now_found = FALSE;

		assert_string_equal(wbsim_param_renamed(renamed[i].section, renamed[i].old),
				    renamed[i].now);
		assert_true(g_str_has_suffix(renamed[i].now, "_ns"));
		assert_non_null(renamed[i].why);
		if (!is_device)
			assert_string_equal(renamed[i].section, "costs");
		/* every [device] key moved to the cost table */
		assert_string_equal(now_in, "costs");
		old_found = !is_device && is_cost_key(renamed[i].old);
		now_found = is_cost_key(renamed[i].now);
		for (size_t m = 0; is_device && m < G_N_ELEMENTS(models); m++) {
			const struct wbsim_device_ops *ops = wbsim_device_find_ops(models[m]);

			assert_non_null(ops);
			old_found |= wbsim_param_find(ops->params, renamed[i].old) != NULL;
		}
		if (old_found || !now_found)
			fail_msg("[%s] %s -> %s: the old name must be no key, the new one a key",
				 renamed[i].section, renamed[i].old, renamed[i].now);
	}
	assert_null(wbsim_param_renamed("costs", "ext4.end_io_page_ns"));
	assert_null(wbsim_param_renamed("device", "xfs.alloc_cpu_ns"));
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *const sets[] = { cases[i].set, NULL };
		g_autofree char *scenario = g_strconcat(cases[i].text,
							"[fio:w]\nrw=write\nsize=1m\n", NULL);
		g_autoptr(GError) local = NULL;

		assert_null(wbsim_scenario_load_string(scenario, "t.ini", NULL, sets, &local));
		assert_non_null(local);
		assert_int_equal(local->code, WBSIM_ERROR_UNKNOWN_KEY);
		if (strcmp(local->message, cases[i].message) != 0)
			fail_msg("case %zu: %s", i, local->message);
	}
	/* a device preset file of one's own, read by the device layer */
	assert_non_null(dir);
	preset = g_build_filename(dir, "old-loop.ini", NULL);
	assert_true(g_file_set_contents(preset, "[device]\nmodel = loop\n"
					"page_copy_cpu = 1us\n", -1, NULL));
	text = g_strdup_printf("[device]\npreset = %s\n[fio:w]\nrw=write\nsize=1m\n", preset);
	assert_null(wbsim_scenario_load_string(text, "t.ini", NULL, NULL, &error));
	want = g_strdup_printf("t.ini:2: [device] preset = %s: %s:3: device model loop: page_copy_cpu = 1us: the key moved to [costs] as loop_page_copy_ns (the loop worker's CPU is the host's: a row of its profile): expected [costs] loop_page_copy_ns = 1us",
			       preset, preset);
	assert_non_null(error);
	assert_string_equal(error->message, want);
	assert_int_equal(g_unlink(preset), 0);
	assert_int_equal(g_rmdir(dir), 0);
}

/*
 * One naming scheme: every CPU cost is WORK_ns, the CPU time of one WORK
 * (the cost table's times, the filesystems' cost rows); no name says
 * _cpu, and no device model has a CPU cost of its own (the loop worker's
 * are the cost table's).
 */
static void test_one_naming_scheme(void **state)
{
	static const char *const models[] = { "ideal", "pmem", "nvme", "hdd", "raid0", "loop" };
	g_auto(GStrv) filesystems = wbsim_fs_names();
	size_t rows = 0;

	(void)state;
	for (const struct wbsim_param *p = wbsim_cpu_costs_params(); p->name; p++, rows++)
		if (p->type == WBSIM_PARAM_TIME ? !g_str_has_suffix(p->name, "_ns")
						 : strcmp(p->name, "memcpy_bandwidth") != 0)
			fail_msg("[costs] %s: expected WORK_ns", p->name);
	for (size_t i = 0; filesystems[i]; i++) {
		const struct wbsim_fs_ops *ops = wbsim_fs_lookup(filesystems[i]);

		for (const struct wbsim_param *o = ops->options; o && o->name; o++) {
			if (!(o->flags & WBSIM_PARAM_COST))
				continue;
			rows++;
			if (!g_str_has_suffix(o->name, "_ns") || strstr(o->name, "_cpu"))
				fail_msg("[costs] %s.%s: expected WORK_ns", ops->name, o->name);
		}
	}
	/* 26 rows of the cost table, 8 of XFS, 11 of ext4, 4 of f2fs */
	assert_int_equal(rows, 49);
	for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
		const struct wbsim_device_ops *ops = wbsim_device_find_ops(models[m]);

		assert_non_null(ops);
		for (const struct wbsim_param *p = ops->params; p && p->name; p++)
			if (strstr(p->name, "cpu") || g_str_has_suffix(p->name, "_ns"))
				fail_msg("[device] %s (model %s): a CPU cost belongs in [costs]",
					 p->name, models[m]);
	}
	assert_non_null(wbsim_param_find(wbsim_cpu_costs_params(), "loop_request_ns"));
}

/* The job's runtime of the sparse writer under @overrides. */
static wbsim_time_t sparse_runtime(const char *const *overrides)
{
	struct wbsim_scenario *scn;
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = NULL;
	wbsim_time_t t;

	load_cfg(SPARSE_XFS "[machine]\ncpus = 1\n", overrides, &scn);
	r = wbsim_run(scn, NULL, &error);
	if (!r)
		fail_msg("%s", error->message);
	t = wbsim_result_job(r, 0)->runtime_ns;
	wbsim_scenario_free(scn);
	return t;
}

/* A dearer cost, of the table or of the filesystem, makes the same writes
 * take longer on one CPU; a cost of another filesystem changes nothing. */
static void test_costs_reach_the_run(void **state)
{
	static const char *const copy[] = { "costs.copy_page_ns=8us", NULL };
	static const char *const delalloc[] = { "costs.xfs.delalloc_ns=20us", NULL };
	static const char *const other[] = { "costs.ext4.write_ns=20us", NULL };
	wbsim_time_t base = sparse_runtime(NULL);

	(void)state;
	/* 2048 writes, each at least 7 us dearer */
	assert_true(sparse_runtime(copy) >= base + 2048 * 7000);
	assert_true(sparse_runtime(delalloc) >= base + 2048 * 15000);
	assert_int_equal(sparse_runtime(other), base);
}

/*
 * One description per cost: each profile value's source is the comment
 * above it, joined (no "; ", no "KEY:", no word left broken at a hyphen),
 * and the key reference's row says what the cost is, then that source.
 */
static void test_cost_sources(void **state)
{
	const char *const *keys = wbsim_host_profile_keys();
	g_autofree char *md = wbsim_scenario_keys_markdown();

	(void)state;
	for (size_t i = 0; keys[i]; i++) {
		const char *src = wbsim_host_profile_source(keys[i]);
		g_autofree char *lead = g_strconcat(keys[i], ":", NULL);
		g_autofree char *cell = g_strdup_printf("| `[costs]` | `%s` |", keys[i]);
		g_autofree char *tail = g_strdup_printf(". Source (%s): %s |\n",
							wbsim_host_profile_name(), src);
		const char *row = strstr(md, cell);

		if (!src[0] || g_str_has_prefix(src, lead) || strstr(src, "; ") == src ||
		    g_regex_match_simple("[a-z]- [a-z]", src, 0, 0))
			fail_msg("%s: source \"%s\"", keys[i], src);
		if (!row || !strstr(row, tail) || strchr(row, '\n') < strstr(row, tail))
			fail_msg("--list-keys: [costs] %s does not end with its source", keys[i]);
	}
	assert_string_equal(wbsim_host_profile_source("no_such_cost"), "");
	assert_string_equal(wbsim_host_profile_source(NULL), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_profile_is_the_file),
		cmocka_unit_test(test_costs_section),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_bad_costs),
		cmocka_unit_test(test_renamed_keys),
		cmocka_unit_test(test_one_naming_scheme),
		cmocka_unit_test(test_costs_reach_the_run),
		cmocka_unit_test(test_cost_sources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
