/* SPDX-License-Identifier: MIT */
/*
 * test-series.c - the time series of a run: one column per table entry
 * bound at the start, every row as long as the header, and a wb context
 * column for every context the run has at some time, also when an
 * [events] contexts line changes their number (the rows used to grow by
 * the new contexts' values, shifting every later row against the header).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>
#include <wbsim/scenario.h>
#include "run/run.h"

static int column(const struct wbsim_run_result *r, const char *name)
{
	for (guint i = 0; i < r->series.columns->len; i++)
		if (strcmp(r->series.columns->pdata[i], name) == 0)
			return (int)i;
	return -1;
}

static double cell(const struct wbsim_run_result *r, guint row, int col)
{
	return g_array_index(r->series.values, double, row * r->series.columns->len + (guint)col);
}

static void test_contexts_change_keeps_rows_aligned(void **state)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn;
	struct wbsim_run_result *r;
	struct wbsim_run_options opts = { .check = TRUE };
	guint ncols, rows;
	int t, wb3;

	(void)state;
	scn = wbsim_scenario_load_string("[writeback]\ncontexts = 1\n"
					 "[run]\ntime_limit = 1s\nseries_interval = 100ms\n"
					 "[events]\nat = 300ms contexts 4 quiesce\n"
					 "[fio:w]\nrw=write\nsize=64m\nbs=64k\nrate=32m\ntime_based\n"
					 "runtime=1s\ninvalidate=0\nnrfiles=8\n",
					 "test.ini", ".", NULL, &e);
	if (!scn)
		fail_msg("load: %s", e->message);
	r = wbsim_run_scenario(scn, &opts, &e);
	if (!r)
		fail_msg("run: %s", e->message);
	ncols = r->series.columns->len;
	t = column(r, "time_s");
	wb3 = column(r, "wb3_written_pages");
	assert_int_equal(t, 0);
	assert_true(wb3 > 0);			/* the most contexts of the run */
	assert_int_equal(column(r, "wb4_written_pages"), -1);
	assert_int_equal(r->series.values->len % ncols, 0);
	rows = r->series.values->len / ncols;
	assert_int_equal(rows, 11);		/* 0 s to 1 s every 100 ms */
	for (guint k = 0; k < rows; k++)
		assert_float_equal(cell(r, k, t), 0.1 * k, 1e-9);
	/* context 3 exists from the change on: nothing before, pages after */
	assert_float_equal(cell(r, 2, wb3), 0, 0);
	assert_true(cell(r, rows - 1, wb3) > 0);
	wbsim_run_result_free(r);
	wbsim_scenario_free(scn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contexts_change_keeps_rows_aligned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
