/* SPDX-License-Identifier: MIT */
/*
 * sweep-api.c - the public sweep (include/wbsim/sweep.h) over the internal
 * one (run/sweep.h): the handle owns the scenario, its file and overrides,
 * and makes each point's text (one run, or --repeat's K seeds summarised)
 * in the layout asked for; the identity line of a --results file.
 */
#include <string.h>

#include <json-glib/json-glib.h>
#include <wbsim/error.h>
#include <wbsim/sweep.h>
#include "core/arg-check.h"
#include "run/api-private.h"
#include "run/sweep.h"
#include "run/sweep-results.h"
#include "run/sweep-stats.h"
#include "report/report.h"

/* The axis sweeping [run] seed, if any. */
static gboolean seed_swept(const struct wbsim_sweep *sw)
{
	for (guint i = 0; i < wbsim_sweep_n_axes(sw); i++) {
		const struct wbsim_sweep_axis *a = sw->axes->pdata[i];

		if (strcmp(a->section, "run") == 0 && strcmp(a->key, "seed") == 0)
			return TRUE;
	}
	return FALSE;
}

/* fio's logs are one set of files per run: a sweep's points would write
 * the same files (as --series and --trace, refused) */
static gboolean no_job_logs(const struct wbsim_scenario *scn, GError **error)
{
	const struct wbsim_fio_file *fio = wbsim_scenario_fio(scn);

	for (guint i = 0; fio && i < fio->jobs->len; i++) {
		const struct wbsim_fio_job *j = fio->jobs->pdata[i];
		const char *opt = j->write_bw_log ? "write_bw_log" :
				  j->write_lat_log ? "write_lat_log" :
				  j->write_iops_log ? "write_iops_log" : NULL;

		if (opt) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s:%u: job '%s': %s: fio's logs are files of one run: not with a sweep (run a point alone with an override)",
				    j->file, j->line, j->name, opt);
			return FALSE;
		}
	}
	return TRUE;
}

/* wbsim_sweep_opts.format and .repeat for a sweep: the layout of its texts */
static gboolean set_output(struct wbsim_sweep *sw, enum wbsim_format format,
			   unsigned int repeat, gboolean include_wall, GError **error)
{
	if (format == WBSIM_FORMAT_JSON_PLUS) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "wbsim_sweep_opts.format WBSIM_FORMAT_JSON_PLUS: for one run (a sweep writes its points as json)");
		return FALSE;
	}
	if (repeat > WBSIM_SWEEP_MAX_REPEAT) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "repeat %u: expected an integer from 1 to %d", repeat,
			    WBSIM_SWEEP_MAX_REPEAT);
		return FALSE;
	}
	if (!no_job_logs(sw->scn, error))
		return FALSE;
	if (repeat > 1 && seed_swept(sw)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "wbsim_sweep_opts.repeat %u: run.seed is swept: expected a repeat or a sweep of run.seed, not both",
			    repeat);
		return FALSE;
	}
	sw->format = format == WBSIM_FORMAT_CSV ? WBSIM_SWEEP_CSV :
		     format == WBSIM_FORMAT_TEXT ? WBSIM_SWEEP_TEXT : WBSIM_SWEEP_JSON;
	sw->repeat = repeat;
	sw->include_wall = include_wall;
	return TRUE;
}

/* The reserved members are zero (a later version may give them meaning). */
static gboolean reserved_zero(const wbsim_sweep_opts *o)
{
	for (size_t i = 0; i < G_N_ELEMENTS(o->reserved); i++) {
		if (o->reserved[i])
			return FALSE;
	}
	return TRUE;
}

wbsim_sweep *wbsim_sweep_load(const char *path, const wbsim_sweep_opts *opts,
			      GError **error)
{
	static const wbsim_sweep_opts none = { 0 };
	const wbsim_sweep_opts *o = opts ? opts : &none;
	struct wbsim_scenario *scn;
	struct wbsim_sweep *sw;
	unsigned int repeat = MAX(o->repeat, 1u);

	wbsim_check_arg(path != NULL, NULL, error);
	wbsim_check_arg(reserved_zero(o), NULL, error);
	if (!wbsim_format_check(o->format, "wbsim_sweep_opts.format", error))
		return NULL;
	scn = wbsim_scenario_load(path, o->overrides, error);
	if (!scn)
		return NULL;
	sw = wbsim_sweep_new(wbsim_scenario_config(scn), error);
	if (!sw) {
		wbsim_scenario_free(scn);
		return NULL;
	}
	sw->scn = scn;
	sw->path = g_strdup(path);
	sw->overrides = g_ptr_array_new_with_free_func(g_free);
	for (size_t i = 0; o->overrides && o->overrides[i]; i++)
		g_ptr_array_add(sw->overrides, g_strdup(o->overrides[i]));
	g_ptr_array_add(sw->overrides, NULL);
	sw->format = WBSIM_SWEEP_TEXT;
	sw->repeat = 1;
	sw->include_wall = TRUE;
	sw->results_path = g_strdup(o->results);
	for (size_t i = 0; o->sweeps && o->sweeps[i]; i++) {
		if (!wbsim_sweep_add_option(sw, o->sweeps[i], error))
			goto fail;
	}
	sw->info.n_axes = wbsim_sweep_n_axes(sw);
	sw->info.n_points = wbsim_sweep_n_points(sw);
	sw->info.sweep = sw->info.n_axes || repeat > 1 || o->results;
	if (!sw->info.sweep)
		return sw;
	if (!set_output(sw, o->format, repeat, !o->no_wall_time, error))
		goto fail;
	/* every point's values are checked before anything runs */
	if (!o->no_point_check &&
	    !wbsim_sweep_check(sw, sw->path, (const char *const *)sw->overrides->pdata,
			       &sw->groups, error))
		goto fail;
	if (sw->format == WBSIM_SWEEP_CSV)
		sw->header = sw->repeat > 1 ? wbsim_sweep_repeat_csv_header(sw)
					    : wbsim_sweep_csv_header(sw, sw->groups);
	sw->info.header = sw->header;
	return sw;
fail:
	wbsim_sweep_free(sw);
	return NULL;
}

const wbsim_scenario *wbsim_sweep_scenario(const wbsim_sweep *sw)
{
	g_return_val_if_fail(sw != NULL, NULL);
	return sw->scn;
}

const struct wbsim_sweep_info *wbsim_sweep_info(const wbsim_sweep *sw)
{
	g_return_val_if_fail(sw != NULL, NULL);
	return &sw->info;
}

/* A point's text from its one run. */
static char *format_plain(const struct wbsim_sweep *sw, size_t point,
			  const struct wbsim_run_result *r)
{
	g_autofree char *label = NULL;
	g_autoptr(GString) report = NULL;
	GString *text;

	switch (sw->format) {
	case WBSIM_SWEEP_CSV:
		return wbsim_sweep_csv_row(sw, point, r, sw->groups);
	case WBSIM_SWEEP_JSON:
		return wbsim_sweep_json_line(sw, point, r, sw->include_wall);
	case WBSIM_SWEEP_TEXT:
		break;
	}
	label = wbsim_sweep_label(sw, point);
	report = wbsim_report_text(r, sw->include_wall);
	/* "# sweep point N/M: KEY=VALUE ..." then the report; a blank line between */
	text = g_string_new(point ? "\n" : "");
	g_string_append_printf(text, "# sweep point %zu/%zu: %s\n", point + 1,
			       wbsim_sweep_n_points(sw), label);
	g_string_append(text, report->str);
	return g_string_free(text, FALSE);
}

/* Run the point with --repeat's seeds and summarise them. */
static char *repeat_point(const struct wbsim_sweep *sw, size_t point,
			  const struct wbsim_run_options *opts, GError **error)
{
	const unsigned int k_max = sw->repeat;
	g_autofree uint64_t *seeds = g_new0(uint64_t, k_max);
	g_autofree double *values = g_new0(double, (size_t)k_max * WBSIM_STAT_COUNT);
	guint n_over = sw->overrides->len - 1;		/* without the NULL */

	for (unsigned int k = 0; k < k_max; k++) {
		g_autoptr(GPtrArray) over = g_ptr_array_new_with_free_func(g_free);
		struct wbsim_scenario *scn = NULL;
		struct wbsim_run_result *r;

		for (guint i = 0; i < n_over; i++)
			g_ptr_array_add(over, g_strdup(sw->overrides->pdata[i]));
		if (k)
			g_ptr_array_add(over, g_strdup_printf("run.seed=%" G_GUINT64_FORMAT,
							      seeds[k]));
		g_ptr_array_add(over, NULL);
		r = wbsim_sweep_simulate_point(sw, point, sw->path,
					       (const char *const *)over->pdata,
					       opts, &scn, error);
		if (r && !k) {
			/* the point's own seed, then the derived ones */
			for (unsigned int j = 0; j < k_max; j++)
				seeds[j] = wbsim_sweep_repeat_seed(wbsim_scenario_config(scn)->seed, j);
		}
		if (r)
			wbsim_sweep_stat_values(r, values + (size_t)k * WBSIM_STAT_COUNT);
		else if (k)
			g_prefix_error(error, "wbsim_sweep_opts.repeat %u: seed %" G_GUINT64_FORMAT ": ",
				       k_max, seeds[k]);
		wbsim_run_result_free(r);
		wbsim_scenario_free(scn);
		if (!r)
			return NULL;
	}
	return wbsim_sweep_repeat_format(sw, point, sw->format, k_max, seeds, values);
}

char *wbsim_sweep_point_output(const wbsim_sweep *sw, size_t point,
			       const wbsim_run_opts *opts, GError **error)
{
	struct wbsim_run_options ro = { 0 };
	struct wbsim_scenario *scn = NULL;
	struct wbsim_run_result *r;
	char *text = NULL;

	wbsim_check_arg(sw != NULL && sw->scn != NULL && point < wbsim_sweep_n_points(sw),
			NULL, error);
	wbsim_run_opts_to_internal(opts, &ro);
	if (sw->repeat > 1)
		return repeat_point(sw, point, &ro, error);
	r = wbsim_sweep_simulate_point(sw, point, sw->path,
				       (const char *const *)sw->overrides->pdata,
				       &ro, &scn, error);
	if (r)
		text = format_plain(sw, point, r);
	wbsim_run_result_free(r);
	wbsim_scenario_free(scn);
	return text;
}

static const char *format_name(enum wbsim_sweep_format f)
{
	return f == WBSIM_SWEEP_CSV ? "csv" : f == WBSIM_SWEEP_JSON ? "json" : "text";
}

/*
 * The first line of a --results file: what makes two runs the same sweep.
 * The configuration is the resolved scenario (after --set and --seed) as
 * --dump-config prints it, by its SHA-256; it comes last so that a
 * mismatch names the sweep, the seed or the format first when they differ.
 */
static char *results_identity(const struct wbsim_sweep *sw)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *dump = wbsim_scenario_dump(sw->scn);
	g_autofree char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, dump, -1);
	/* a string: JSON readers lose 64-bit integers */
	g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT,
						wbsim_scenario_config(sw->scn)->seed);

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "wbsim_sweep_results");
	json_builder_add_int_value(b, 1);
	json_builder_set_member_name(b, "sweep");
	json_builder_begin_array(b);
	for (guint i = 0; i < wbsim_sweep_n_axes(sw); i++) {
		const struct wbsim_sweep_axis *a = sw->axes->pdata[i];

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "key");
		json_builder_add_string_value(b, a->name);
		json_builder_set_member_name(b, "values");
		json_builder_begin_array(b);
		for (guint j = 0; j < a->values->len; j++)
			json_builder_add_string_value(b, a->values->pdata[j]);
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "seed");
	json_builder_add_string_value(b, seed);
	json_builder_set_member_name(b, "repeat");
	json_builder_add_int_value(b, sw->repeat);
	json_builder_set_member_name(b, "format");
	json_builder_add_string_value(b, format_name(sw->format));
	json_builder_set_member_name(b, "wall_time");
	json_builder_add_boolean_value(b, sw->include_wall);
	json_builder_set_member_name(b, "scenario");
	json_builder_add_string_value(b, sw->path);
	json_builder_set_member_name(b, "configuration_sha256");
	json_builder_add_string_value(b, sum);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	return json_to_string(root, FALSE);
}

gboolean wbsim_sweep_start(wbsim_sweep *sw, GError **error)
{
	g_autofree char *identity = NULL;

	wbsim_check_arg(sw != NULL && sw->scn != NULL && sw->results == NULL, FALSE, error);
	if (!sw->results_path)
		return TRUE;
	identity = results_identity(sw);
	sw->results = wbsim_sweep_results_open_as(sw->results_path, identity, sw, error);
	if (!sw->results)
		return FALSE;
	sw->info.n_done = wbsim_sweep_results_n_done(sw->results);
	return TRUE;
}

const char *wbsim_sweep_done_text(const wbsim_sweep *sw, size_t point)
{
	g_return_val_if_fail(sw != NULL, NULL);
	return sw->results ? wbsim_sweep_results_text(sw->results, point) : NULL;
}

gboolean wbsim_sweep_record(wbsim_sweep *sw, size_t point, const char *text,
			    GError **error)
{
	wbsim_check_arg(sw != NULL && text != NULL && point < sw->info.n_points, FALSE, error);
	return !sw->results || wbsim_sweep_results_add(sw->results, point, text, error);
}
