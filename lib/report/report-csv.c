/* SPDX-License-Identifier: MIT */
/*
 * report-csv.c - the sampled time series as CSV, for gnuplot (set datafile
 * separator ',' and columnheaders), spreadsheets and pandas:
 *
 *   # wbsim 0.1.0 scenario=foo.ini seed=1: description
 *   time_s,dirty,writeback,...
 *   0.1,1234,56,...
 *
 * Numbers never depend on the locale: integral values below 2^53 are
 * printed as integers, others with "%.10g" through g_ascii_formatd().
 */
#include <math.h>
#include <inttypes.h>
#include <glib.h>
#include <wbsim/version.h>
#include "report/report.h"

static void add_value(GString *s, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (isfinite(v) && v == floor(v) && fabs(v) < 9007199254740992.0)
		g_string_append_printf(s, "%" PRId64, (int64_t)v);
	else
		g_string_append(s, g_ascii_formatd(buf, sizeof(buf), "%.10g", v));
}

/* a comment must stay on one line */
static void add_one_line(GString *s, const char *text)
{
	for (const char *p = text; *p; p++)
		g_string_append_c(s, *p == '\n' || *p == '\r' ? ' ' : *p);
}

/**
 * wbsim_report_csv_head() - the comment line and the header row
 * @s: where to append
 * @scenario: the scenario's name ("-" if NULL)
 * @seed: the run's seed
 * @description: [scenario] description, or NULL
 * @columns: the column names
 * @ncols: how many
 */
void wbsim_report_csv_head(GString *s, const char *scenario, uint64_t seed,
			   const char *description, const char *const *columns,
			   unsigned int ncols)
{
	g_string_append(s, "# wbsim " WBSIM_VERSION_STRING " scenario=");
	add_one_line(s, scenario ? scenario : "-");
	g_string_append_printf(s, " seed=%" PRIu64, seed);
	if (description && *description) {
		g_string_append(s, ": ");
		add_one_line(s, description);
	}
	g_string_append_c(s, '\n');

	for (guint c = 0; c < ncols; c++) {
		if (c)
			g_string_append_c(s, ',');
		g_string_append(s, columns[c]);
	}
	g_string_append_c(s, '\n');
}

/**
 * wbsim_report_csv_row() - one sample as a CSV row
 * @s: where to append
 * @row: the values
 * @ncols: how many
 */
void wbsim_report_csv_row(GString *s, const double *row, unsigned int ncols)
{
	for (guint c = 0; c < ncols; c++) {
		if (c)
			g_string_append_c(s, ',');
		add_value(s, row[c]);
	}
	g_string_append_c(s, '\n');
}

/**
 * wbsim_report_csv() - the time series as CSV
 * @r: the run (r->series)
 *
 * Return: the text, to free with g_string_free().
 */
GString *wbsim_report_csv(const struct wbsim_run_result *r)
{
	const struct wbsim_series *se = &r->series;
	guint ncols = se->columns ? se->columns->len : 0;
	GString *s = g_string_new(NULL);

	wbsim_report_csv_head(s, r->scenario, r->seed, r->description,
			      ncols ? (const char *const *)se->columns->pdata : NULL, ncols);
	if (!ncols || !se->values)
		return s;
	for (guint i = 0; i + ncols <= se->values->len; i += ncols)
		wbsim_report_csv_row(s, &g_array_index(se->values, double, i), ncols);
	return s;
}
