/* SPDX-License-Identifier: MIT */
/*
 * test-null-args.c - every public entry point of the user-facing headers
 * (scenario.h, run.h, result.h, report.h, sweep.h, affinity.h, param.h)
 * called with NULL for each pointer (issue 21, cause 7): no crash; a
 * function that takes a GError ** sets WBSIM_ERROR_INVALID_ARGUMENT. The
 * others may emit a GLib critical (g_return_val_if_fail), which this test silences.
 *
 * Generated from the headers' prototypes: a function added to them and not
 * here is not covered (tests/api/meson.build lists this test).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <wbsim/wbsim.h>

static const char *current;

static void step(const char *name)
{
	current = name;
	if (g_getenv("NULL_ARGS_TRACE"))
		fprintf(stderr, "%s\n", name);
}

static void quiet(const gchar *domain, GLogLevelFlags level, const gchar *message,
		  gpointer data)
{
	(void)domain;
	(void)level;
	(void)message;
	(void)data;
}

static void test_null_args(void **state)
{
	GError *e = NULL;

	(void)state;
	step("wbsim_scenario_load");
	g_clear_error(&e);
	(void)wbsim_scenario_load(NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_scenario_load_string");
	g_clear_error(&e);
	(void)wbsim_scenario_load_string(NULL, NULL, NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_scenario_find");
	g_clear_error(&e);
	(void)wbsim_scenario_find(NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_scenario_free");
	wbsim_scenario_free(NULL);
	step("wbsim_scenario_dump");
	g_free((void *)wbsim_scenario_dump(NULL));
	step("wbsim_scenario_explain_costs");
	g_clear_error(&e);
	assert_null(wbsim_scenario_explain_costs(NULL, &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	g_clear_error(&e);
	assert_null(wbsim_scenario_explain_costs(NULL, NULL));
	step("wbsim_scenario_workload");
	g_clear_error(&e);
	assert_false(wbsim_scenario_workload(NULL, NULL, &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	g_clear_error(&e);
	step("wbsim_scenario_builder_new");
	/* NULL is a valid base folder (the current one): a builder to free */
	wbsim_scenario_builder_free(wbsim_scenario_builder_new(NULL));
	step("wbsim_scenario_builder_free");
	wbsim_scenario_builder_free(NULL);
	step("wbsim_scenario_builder_set");
	g_clear_error(&e);
	(void)wbsim_scenario_builder_set(NULL, NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_scenario_builder_add_fio_job");
	g_clear_error(&e);
	(void)wbsim_scenario_builder_add_fio_job(NULL, NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_scenario_builder_text");
	g_free((void *)wbsim_scenario_builder_text(NULL));
	step("wbsim_scenario_builder_build");
	g_clear_error(&e);
	(void)wbsim_scenario_builder_build(NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_run");
	g_clear_error(&e);
	(void)wbsim_run(NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_result_free");
	wbsim_result_free(NULL);
	step("wbsim_result_summary");
	(void)wbsim_result_summary(NULL);
	step("wbsim_result_warning");
	(void)wbsim_result_warning(NULL, 0);
	step("wbsim_result_interrupted");
	assert_false(wbsim_result_interrupted(NULL));
	step("wbsim_result_job");
	(void)wbsim_result_job(NULL, 0);
	step("wbsim_result_wb");
	(void)wbsim_result_wb(NULL, 0);
	step("wbsim_result_file");
	(void)wbsim_result_file(NULL, 0);
	step("wbsim_result_job_lat_percentile_ns");
	(void)wbsim_result_job_lat_percentile_ns(NULL, 0, 0);
	step("wbsim_result_series_column");
	(void)wbsim_result_series_column(NULL, 0);
	step("wbsim_result_series_find_column");
	(void)wbsim_result_series_find_column(NULL, NULL);
	step("wbsim_trace_events_select");
	g_clear_error(&e);
	(void)wbsim_trace_events_select(NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_result_report");
	g_clear_error(&e);
	assert_null(wbsim_result_report(NULL, WBSIM_FORMAT_TEXT, FALSE, &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_series_csv_head");
	wbsim_series_csv_head(NULL, NULL, 0);
	step("wbsim_series_csv_row");
	wbsim_series_csv_row(NULL, NULL, 0);
	step("wbsim_sweep_load");
	g_clear_error(&e);
	(void)wbsim_sweep_load(NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_sweep_free");
	wbsim_sweep_free(NULL);
	step("wbsim_sweep_scenario");
	(void)wbsim_sweep_scenario(NULL);
	step("wbsim_sweep_info");
	(void)wbsim_sweep_info(NULL);
	step("wbsim_sweep_start");
	g_clear_error(&e);
	(void)wbsim_sweep_start(NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_sweep_done_text");
	(void)wbsim_sweep_done_text(NULL, 0);
	step("wbsim_sweep_point_output");
	g_clear_error(&e);
	(void)wbsim_sweep_point_output(NULL, 0, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_sweep_record");
	g_clear_error(&e);
	(void)wbsim_sweep_record(NULL, 0, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_result_trace_header");
	assert_null(wbsim_result_trace_header(NULL, 0));
	step("wbsim_result_write_trace_dat");
	g_clear_error(&e);
	(void)wbsim_result_write_trace_dat(NULL, NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_param_table_check");
	g_clear_error(&e);
	(void)wbsim_param_table_check(NULL, 0, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_param_table_defaults");
	g_clear_error(&e);
	(void)wbsim_param_table_defaults(NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_param_table_set");
	g_clear_error(&e);
	(void)wbsim_param_table_set(NULL, NULL, NULL, NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_param_table_clear");
	wbsim_param_table_clear(NULL, NULL);
	step("wbsim_affinity_register");
	g_clear_error(&e);
	(void)wbsim_affinity_register(NULL, &e);
	assert_non_null(e);
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	step("wbsim_affinity_lookup");
	(void)wbsim_affinity_lookup(NULL);
	step("wbsim_affinity_inode_number");
	(void)wbsim_affinity_inode_number(NULL);
	step("wbsim_affinity_inode_group");
	(void)wbsim_affinity_inode_group(NULL);
	step("wbsim_affinity_inode_path");
	(void)wbsim_affinity_inode_path(NULL);
	step("wbsim_affinity_inode_get_data");
	(void)wbsim_affinity_inode_get_data(NULL);
	step("wbsim_affinity_inode_set_data");
	wbsim_affinity_inode_set_data(NULL, NULL);
	step("wbsim_affinity_task_pid");
	(void)wbsim_affinity_task_pid(NULL);
	step("wbsim_affinity_task_cpu");
	(void)wbsim_affinity_task_cpu(NULL);
	step("wbsim_affinity_inode_rng");
	(void)wbsim_affinity_inode_rng(NULL);
	g_clear_error(&e);
	current = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_args),
	};

	g_log_set_default_handler(quiet, NULL);
	g_log_set_handler("GLib", G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING, quiet, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
