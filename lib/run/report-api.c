/* SPDX-License-Identifier: MIT */
/*
 * report-api.c - the public reports (include/wbsim/report.h) over
 * lib/report: one result's text, JSON or CSV report, the series as CSV
 * rows, fio's bandwidth notation.
 */
#include <wbsim/report.h>
#include "run/api-private.h"
#include "run/sweep.h"
#include "report/report.h"
#include "report/trace-dat.h"
#include "report/trace.h"
#include "core/arg-check.h"

/* The fio reporting groups of @fio's jobs, increasing (the CSV's group columns). */
static GArray *report_groups(const struct wbsim_fio_file *fio)
{
	GArray *groups = g_array_new(FALSE, FALSE, sizeof(guint));

	for (guint i = 0; i < fio->jobs->len; i++) {
		guint id = ((const struct wbsim_fio_job *)fio->jobs->pdata[i])->group_id;
		guint k = 0;

		while (k < groups->len && g_array_index(groups, guint, k) < id)
			k++;
		if (k == groups->len || g_array_index(groups, guint, k) != id)
			g_array_insert_val(groups, k, id);
	}
	return groups;
}

gboolean wbsim_format_check(enum wbsim_format format, const char *param, GError **error)
{
	switch (format) {
	case WBSIM_FORMAT_TEXT:
	case WBSIM_FORMAT_JSON:
	case WBSIM_FORMAT_JSON_PLUS:
	case WBSIM_FORMAT_CSV:
		return TRUE;
	}
	/* an integer cast to the enum: not silently the text report */
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
		    "%s %d: expected WBSIM_FORMAT_TEXT, WBSIM_FORMAT_JSON, "
		    "WBSIM_FORMAT_JSON_PLUS or WBSIM_FORMAT_CSV", param, (int)format);
	return FALSE;
}

char *wbsim_result_report(const wbsim_result *r, enum wbsim_format format,
			  gboolean include_wall, GError **error)
{
	wbsim_check_arg(r != NULL, NULL, error);
	if (!wbsim_format_check(format, "format", error))
		return NULL;
	if (format == WBSIM_FORMAT_CSV) {
		g_autoptr(GArray) groups = report_groups(r->fio);
		g_autofree char *header = wbsim_sweep_csv_header(NULL, groups);
		g_autofree char *row = wbsim_sweep_csv_row(NULL, 0, r->r, groups);

		return g_strconcat(header, row, NULL);
	}
	if (format == WBSIM_FORMAT_JSON || format == WBSIM_FORMAT_JSON_PLUS) {
		g_autofree char *json = wbsim_report_json_full(r->r, format == WBSIM_FORMAT_JSON_PLUS,
							      include_wall);

		return g_strconcat(json, "\n", NULL);
	}
	return g_string_free(wbsim_report_text(r->r, include_wall), FALSE);
}

void wbsim_series_csv_head(GString *s, const char *const *columns, unsigned int n_columns)
{
	g_return_if_fail(s != NULL && (columns != NULL || n_columns == 0));
	wbsim_report_csv_head(s, columns, n_columns);
}

void wbsim_series_csv_row(GString *s, const double *values, unsigned int n_columns)
{
	g_return_if_fail(s != NULL && (values != NULL || n_columns == 0));
	wbsim_report_csv_row(s, values, n_columns);
}

char *wbsim_format_bandwidth(uint64_t bytes_per_s)
{
	return wbsim_num2str(bytes_per_s, 4, TRUE, WBSIM_N2S_BYTEPERSEC);
}

char *wbsim_result_trace_header(const wbsim_result *r, uint64_t entries)
{
	GString *s;

	if (!r)
		return NULL;
	s = g_string_new(NULL);
	wbsim_trace_text_header(s, entries, r->r->cpus);
	return g_string_free(s, FALSE);
}

gboolean wbsim_result_write_trace_dat(const wbsim_result *r, FILE *f, const char *path,
				      GError **error)
{
	wbsim_check_arg(r != NULL && f != NULL && path != NULL, FALSE, error);
	if (!r->dat) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "%s: the run recorded no tracepoints: expected wbsim_run_opts.trace_dat",
			    path);
		return FALSE;
	}
	/* the machine's CPUs, each with its buffer, as trace-cmd record */
	return wbsim_trace_dat_write(r->dat, f, path, r->r->cpus,
				     (const char *const *)r->dat_events, error);
}
