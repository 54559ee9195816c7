/* SPDX-License-Identifier: MIT */
/*
 * report-csv.c - the sampled time series as CSV, for gnuplot (set datafile
 * separator ',' and columnheaders), spreadsheets and pandas, which read it
 * without options: the header row comes first, one row per sample after it.
 *
 *   time_s,dirty,writeback,...
 *   0.1,1234,56,...
 *
 * The provenance (wbsim version, scenario, seed, description) is not in
 * the file: it is the "wbsim" object of the run's JSON report
 * (--output-format=json), which a comment line would break readers for.
 *
 * Numbers never depend on the locale: integral values below 2^53 are
 * printed as integers, others with "%.10g" through g_ascii_formatd().
 */
#include <math.h>
#include <inttypes.h>
#include <string.h>
#include <glib.h>
#include "report/report.h"

static void add_value(GString *s, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (isfinite(v) && v == floor(v) && fabs(v) < 9007199254740992.0)
		g_string_append_printf(s, "%" PRId64, (int64_t)v);
	else
		g_string_append(s, g_ascii_formatd(buf, sizeof(buf), "%.10g", v));
}

/**
 * wbsim_report_csv_head() - the header row: the CSV opens with it, so
 * pandas.read_csv and spreadsheet imports read the file without options
 * (the scenario, seed and description are in the JSON report). A name
 * holding a comma, a double quote or a line end (a cgroup's, in the
 * per-cgroup columns) is quoted as RFC 4180 says: in double quotes, each
 * double quote doubled; every other name is written as it is.
 * @s: where to append
 * @columns: the column names
 * @ncols: how many
 */
void wbsim_report_csv_head(GString *s, const char *const *columns, unsigned int ncols)
{
	for (guint c = 0; c < ncols; c++) {
		const char *name = columns[c];

		if (c)
			g_string_append_c(s, ',');
		if (!strpbrk(name, ",\"\r\n")) {
			g_string_append(s, name);
			continue;
		}
		g_string_append_c(s, '"');
		for (const char *p = name; *p; p++) {
			if (*p == '"')
				g_string_append_c(s, '"');
			g_string_append_c(s, *p);
		}
		g_string_append_c(s, '"');
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

	wbsim_report_csv_head(s, ncols ? (const char *const *)se->columns->pdata : NULL, ncols);
	if (!ncols || !se->values)
		return s;
	for (guint i = 0; i + ncols <= se->values->len; i += ncols)
		wbsim_report_csv_row(s, &g_array_index(se->values, double, i), ncols);
	return s;
}
