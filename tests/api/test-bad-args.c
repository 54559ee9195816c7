/* SPDX-License-Identifier: MIT */
/*
 * test-bad-args.c - every public function of include/wbsim/ that takes a
 * GError ** is called with NULL, zero or invalid arguments: each returns
 * its failure value with a WBSIM_ERROR (INVALID_ARGUMENT for a NULL where
 * an object is needed) and never logs a critical (criticals and warnings
 * are made fatal, so one would abort this test).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>
#include <wbsim/wbsim.h>
#include "scenario/config.h"
#include "defs/fio.h"
#include "block/blk.h"
#include "core/cpu-costs.h"
#include "core/sim.h"
#include "fs/alloc/fs.h"

static const struct wbsim_fio_env env = { .ncpus = 4, .mb_memory = 8192, .pagesize = 4096 };

/* @error is set, in WBSIM_ERROR with @code, with exactly @message; cleared. */
static void expect_error(GError **error, int code, const char *message)
{
	assert_non_null(*error);
	assert_int_equal((*error)->domain, WBSIM_ERROR);
	assert_int_equal((*error)->code, code);
	if (message)
		assert_string_equal((*error)->message, message);
	g_clear_error(error);
}

static void test_fio(void **state)
{
	struct wbsim_fio_file *out = NULL;
	const char *no_paths[] = { NULL };
	static const struct wbsim_fio_env zero_env = { 0 };
	GError *e = NULL;

	assert_false(wbsim_fio_parse_file(NULL, &env, &out, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_fio_parse_file: invalid argument: expected path != NULL");
	assert_false(wbsim_fio_parse_string(NULL, -1, NULL, NULL, &env, &out, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_fio_parse_string: invalid argument: expected text != NULL && out != NULL");
	assert_false(wbsim_fio_parse_string("[w]\nrw=write\nsize=1m\n", -1, NULL, NULL,
					    &env, NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_false(wbsim_fio_parse_string("[w]\nrw=write\nsize=1m\n", -1, NULL, NULL,
					    NULL, &out, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_false(wbsim_fio_parse_string("[w]\nrw=write\nsize=1m\n", -1, NULL, NULL,
					    &zero_env, &out, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_false(wbsim_fio_parse_files(NULL, &env, &out, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_false(wbsim_fio_parse_files(no_paths, &env, &out, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_fio_parse_files: invalid argument: expected paths != NULL && paths[0] != NULL && out != NULL");
	/* a directory, not a job file */
	assert_false(wbsim_fio_parse_file("/", &env, &out, &e));
	expect_error(&e, WBSIM_ERROR_IO, NULL);
	assert_null(out);
	/* a NULL error pointer is allowed too */
	assert_false(wbsim_fio_parse_file(NULL, &env, &out, NULL));
}

static void test_scenario(void **state)
{
	GError *e = NULL;

	assert_null(wbsim_scenario_load(NULL, NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_scenario_load: invalid argument: expected path != NULL");
	assert_null(wbsim_scenario_load_string(NULL, NULL, NULL, NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_scenario_load_string: invalid argument: expected text != NULL");
	assert_null(wbsim_scenario_load("/", NULL, &e));
	expect_error(&e, WBSIM_ERROR_IO, NULL);
	assert_null(wbsim_scenario_load_string("", "empty.ini", NULL, NULL, &e));
	expect_error(&e, WBSIM_ERROR_MISSING,
		     "empty.ini: no workload: expected [workload] fio = FILE or inline [fio:NAME] sections");
	assert_null(wbsim_scenario_find(NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_scenario_find: invalid argument: expected name != NULL");
	assert_null(wbsim_scenario_find("", &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "an empty scenario name: expected a scenario file or the name of a bundled scenario");
	wbsim_scenario_free(NULL);
}

static void test_config(void **state)
{
	struct wbsim_config *cfg = wbsim_config_new();
	GError *e = NULL;

	assert_false(wbsim_config_set_override(NULL, "machine.cpus=4", &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_config_set_override: invalid argument: expected cfg != NULL");
	assert_false(wbsim_config_set_override(cfg, NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_config_set_override: invalid argument: expected assignment != NULL");
	assert_false(wbsim_config_set_override(cfg, "", &e));
	assert_non_null(e);
	g_clear_error(&e);
	assert_false(wbsim_config_set_override(cfg, "machine.cpus=0", &e));
	expect_error(&e, WBSIM_ERROR_INVALID_VALUE, NULL);
	assert_false(wbsim_config_check(NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_config_check: invalid argument: expected cfg != NULL");
	wbsim_config_free(cfg);
	wbsim_config_free(NULL);
}

static void test_core(void **state)
{
	struct wbsim_cpu_costs costs;
	wbsim_sim *sim = wbsim_sim_new(1);
	GError *e = NULL;

	wbsim_cpu_costs_init(&costs);
	assert_false(wbsim_cpu_costs_set(NULL, "copy_page_ns", "1", NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_cpu_costs_set: invalid argument: expected costs && key && value");
	assert_false(wbsim_cpu_costs_set(&costs, NULL, "1", NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_false(wbsim_cpu_costs_set(&costs, "copy_page_ns", NULL, NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_false(wbsim_cpu_costs_set(&costs, "no_such_cost", "1", NULL, 0, &e));
	assert_non_null(e);
	g_clear_error(&e);
	assert_null(wbsim_cpus_new(sim, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "a machine needs at least one CPU (got 0)");
	assert_null(wbsim_cpus_new(NULL, 4, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_cpus_new: invalid argument: expected sim != NULL");
	wbsim_sim_free(sim);
}

static void test_device(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 2, NULL);
	struct wbsim_device_ops no_name = { 0 };
	GError *e = NULL;

	assert_false(wbsim_device_register(NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_device_register: invalid argument: expected ops != NULL");
	assert_false(wbsim_device_register(&no_name, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	/* the registry checks the table: the one check, under the model's name */
	{
		static const struct wbsim_param rows[] = {
			{ "latency", WBSIM_PARAM_TIME, 0, "1us", NULL, 0, 0, "time of one request" },
			{ .name = NULL },
		};
		struct wbsim_device_ops bad = *wbsim_device_find_ops("ideal");

		bad.name = "bad-table";
		bad.params = rows;
		bad.priv_size = 4;
		assert_false(wbsim_device_register(&bad, &e));
		expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
			     "device model 'bad-table': parameter table: row 0: latency: "
			     "its field (offset 0, 8 bytes) lies outside the struct (4 bytes)");
		assert_null(wbsim_device_find_ops("bad-table"));
	}
	assert_null(wbsim_device_new(NULL, cpus, NULL, "ideal", NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_device_new: invalid argument: expected sim && cpus && model");
	assert_null(wbsim_device_new(sim, NULL, NULL, "ideal", NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_null(wbsim_device_new(sim, cpus, NULL, NULL, NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_null(wbsim_device_new(sim, cpus, NULL, "ideal", NULL, 3, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_device_new: invalid argument: expected settings || !nr_settings");
	assert_null(wbsim_device_new(sim, cpus, NULL, "no-such-model", NULL, 0, &e));
	assert_non_null(e);
	assert_int_equal(e->domain, WBSIM_ERROR);
	g_clear_error(&e);
	assert_null(wbsim_device_new_from_preset(NULL, cpus, NULL, "ideal", NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_null(wbsim_device_new_from_preset(sim, cpus, NULL, NULL, NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_device_new_from_preset: invalid argument: expected sim && cpus && preset");
	assert_null(wbsim_device_new_from_preset(sim, cpus, NULL, "ideal", NULL, 2, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_null(wbsim_device_new_from_preset(sim, cpus, NULL, "no-such-preset", NULL, 0, &e));
	assert_non_null(e);
	assert_int_equal(e->domain, WBSIM_ERROR);
	g_clear_error(&e);
	assert_null(wbsim_device_find_preset(NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_device_find_preset: invalid argument: expected name != NULL");
	wbsim_device_free(NULL);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

static void test_fs(void **state)
{
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 2, NULL);
	struct wbsim_fs_ops no_name = { 0 };
	wbsim_fs *fs;
	wbsim_fs_inode *file;
	GError *e = NULL;

	assert_false(wbsim_fs_register(NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, "filesystem model without a name");
	assert_false(wbsim_fs_register(&no_name, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, "filesystem model without a name");
	/* the registry checks the options: every one optional, numbers only */
	{
		static const struct wbsim_param rows[] = {
			{ "region", WBSIM_PARAM_SIZE, 0, NULL, NULL, 0, 0, "blocks of a file" },
			{ .name = NULL },
		};
		struct wbsim_fs_ops bad = *wbsim_fs_lookup("ideal");

		bad.name = "bad-options";
		bad.options = rows;
		bad.params_size = 8;
		assert_false(wbsim_fs_register(&bad, &e));
		expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
			     "filesystem model 'bad-options': parameter table: row 0: region: "
			     "no default: expected one in every row");
		assert_null(wbsim_fs_lookup("bad-options"));
	}
	assert_false(wbsim_fs_check_settings(NULL, NULL, NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_VALUE, NULL);
	assert_false(wbsim_fs_check_settings("xfs", NULL, NULL, 2, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_fs_check_settings: invalid argument: expected settings || !nr");
	assert_null(wbsim_fs_new(NULL, sim, cpus, 1 << 30, NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_VALUE, NULL);
	assert_null(wbsim_fs_new("xfs", NULL, cpus, 1 << 30, NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "filesystem xfs needs a simulation and a CPU pool");
	assert_null(wbsim_fs_new("xfs", sim, NULL, 1 << 30, NULL, 0, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);

	fs = wbsim_fs_new("xfs", sim, cpus, (uint64_t)1 << 30, NULL, 0, &e);
	assert_non_null(fs);
	file = wbsim_fs_create(fs, NULL);
	assert_int_equal(wbsim_fs_fallocate(NULL, file, 0, 4096, &e), G_MAXUINT64);
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_fs_fallocate: invalid argument: expected fs && inode && !inode->is_dir");
	assert_int_equal(wbsim_fs_fallocate(fs, NULL, 0, 4096, &e), G_MAXUINT64);
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_int_equal(wbsim_fs_fallocate(fs, wbsim_fs_root(fs), 0, 4096, &e), G_MAXUINT64);
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, NULL);
	assert_int_equal(wbsim_fs_fallocate(fs, file, UINT64_MAX - 10, 4096, &e), G_MAXUINT64);
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_fs_fallocate: invalid argument: expected offset + len >= offset");
	/* larger than the device: ENOSPC, an error too */
	assert_int_equal(wbsim_fs_fallocate(fs, file, 0, (uint64_t)2 << 30, &e), G_MAXUINT64);
	assert_non_null(e);
	assert_int_equal(e->domain, WBSIM_ERROR);
	g_clear_error(&e);
	assert_false(wbsim_fs_remount(NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT,
		     "wbsim_fs_remount: invalid argument: expected fs != NULL");
	wbsim_fs_free(fs);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

static void test_affinity(void **state)
{
	GError *e = NULL;

	assert_false(wbsim_affinity_register(NULL, &e));
	expect_error(&e, WBSIM_ERROR_INVALID_ARGUMENT, "affinity policy without a name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio),
		cmocka_unit_test(test_scenario),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_core),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_fs),
		cmocka_unit_test(test_affinity),
	};

	/* a g_critical() or g_warning() from the library fails the test */
	g_log_set_always_fatal(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
