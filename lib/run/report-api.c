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

/* The fio reporting groups of @scn, increasing (the CSV's group columns). */
static GArray *scenario_groups(const struct wbsim_scenario *scn)
{
	const struct wbsim_fio_file *fio = wbsim_scenario_fio(scn);
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

char *wbsim_result_report(const wbsim_result *r, enum wbsim_format format,
			  gboolean include_wall)
{
	g_return_val_if_fail(r != NULL, NULL);
	switch (format) {
	case WBSIM_FORMAT_JSON:
	case WBSIM_FORMAT_JSON_PLUS: {
		char *json = wbsim_report_json_full(r->r, format == WBSIM_FORMAT_JSON_PLUS,
						    include_wall);
		char *line = g_strconcat(json, "\n", NULL);

		g_free(json);
		return line;
	}
	case WBSIM_FORMAT_CSV: {
		g_autoptr(GArray) groups = NULL;
		g_autofree char *header = NULL, *row = NULL;

		g_return_val_if_fail(r->scn != NULL, NULL);
		groups = scenario_groups(r->scn);
		header = wbsim_sweep_csv_header(NULL, groups);
		row = wbsim_sweep_csv_row(NULL, 0, r->r, groups);
		return g_strconcat(header, row, NULL);
	}
	case WBSIM_FORMAT_TEXT:
	default:
		return g_string_free(wbsim_report_text(r->r, include_wall), FALSE);
	}
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
