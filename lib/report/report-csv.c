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
 * wbsim_report_csv() - the time series as CSV
 * @r: the run (r->series)
 *
 * Return: the text, to free with g_string_free().
 */
GString *wbsim_report_csv(const struct wbsim_run_result *r)
{
	const struct wbsim_series *se = &r->series;
	guint ncols = se->columns ? se->columns->len : 0;
	GString *s = g_string_new("# wbsim " WBSIM_VERSION_STRING " scenario=");

	add_one_line(s, r->scenario ? r->scenario : "-");
	g_string_append_printf(s, " seed=%" PRIu64, r->seed);
	if (r->description && *r->description) {
		g_string_append(s, ": ");
		add_one_line(s, r->description);
	}
	g_string_append_c(s, '\n');

	for (guint c = 0; c < ncols; c++) {
		if (c)
			g_string_append_c(s, ',');
		g_string_append(s, se->columns->pdata[c]);
	}
	g_string_append_c(s, '\n');

	if (!ncols || !se->values)
		return s;
	for (guint i = 0; i + ncols <= se->values->len; i += ncols) {
		for (guint c = 0; c < ncols; c++) {
			if (c)
				g_string_append_c(s, ',');
			add_value(s, g_array_index(se->values, double, i + c));
		}
		g_string_append_c(s, '\n');
	}
	return s;
}
