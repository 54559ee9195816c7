/* SPDX-License-Identifier: MIT */
/*
 * sweep.c - parameter sweeps (run/sweep.h): the [sweep] lines of a
 * scenario and wbsim_sweep_opts.sweeps items expanded into points, each
 * point loaded as the scenario plus the point's values (applied like an
 * override, after the overrides, with the same parsers and checks), the
 * points simulated on worker threads and
 * their outputs handed back in point order; and the per-point CSV row and
 * JSON line.
 *
 * Threads are safe here because a run owns everything it changes: its
 * simulation, machine, random generator and results. What is shared is
 * read-only during a run (key tables, cost defaults, fio option tables) or
 * behind a lock (the device model, filesystem type and parameter-set
 * registries, which are also initialised under their lock).
 */
#include <string.h>

#include <json-glib/json-glib.h>
#include <wbsim/error.h>
#include "core/arg-check.h"
#include "scenario/config-private.h"
#include "run/sweep.h"
#include "run/sweep-results.h"
#include "report/report.h"

/* where a wbsim_sweep_opts.sweeps item is said to come from, as a file
 * would be (sim-writeback says --sweep) */
#define SWEEPS_ORIGIN "wbsim_sweep_opts.sweeps"

guint wbsim_sweep_n_axes(const struct wbsim_sweep *sw)
{
	g_return_val_if_fail(sw != NULL, 0);
	return sw->axes->len;
}

size_t wbsim_sweep_n_points(const struct wbsim_sweep *sw)
{
	size_t n = 1;

	g_return_val_if_fail(sw != NULL, 0);
	for (guint i = 0; i < sw->axes->len; i++)
		n *= ((struct wbsim_sweep_axis *)sw->axes->pdata[i])->values->len;
	return n;
}

/* The product stays within WBSIM_SWEEP_MAX_POINTS (each axis has >= 1 value). */
static gboolean check_size(const struct wbsim_sweep *sw, const char *where,
			   GError **error)
{
	size_t n = 1;

	for (guint i = 0; i < sw->axes->len; i++) {
		n *= ((struct wbsim_sweep_axis *)sw->axes->pdata[i])->values->len;
		if (n > WBSIM_SWEEP_MAX_POINTS) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%sthe sweep has more than %d points: expected at most %d",
				    where, WBSIM_SWEEP_MAX_POINTS,
				    WBSIM_SWEEP_MAX_POINTS);
			return FALSE;
		}
	}
	return TRUE;
}

struct wbsim_sweep *wbsim_sweep_new(const struct wbsim_config *cfg,
				    GError **error)
{
	struct wbsim_sweep *sw = g_new0(struct wbsim_sweep, 1);
	const GPtrArray *lines = cfg->priv->sweep_lines;

	sw->axes = g_ptr_array_new_with_free_func(wbsim_sweep_axis_free);
	for (guint i = 0; i < lines->len; i++) {
		const struct wbsim_config_sweep_line *sl = lines->pdata[i];
		g_autofree char *where = wbsim_param_where(sl->file, sl->line);
		g_autoptr(GError) local = NULL;
		struct wbsim_sweep_axis *a;

		/* checked when the line was read: this does not fail */
		a = wbsim_sweep_axis_new(sl->key, sl->value, sl->file, sl->line, sl->base_dir, &local);
		if (!a) {
			wbsim_param_value_error(error, local->code, sl->file, sl->line,
						"[sweep]", sl->key, sl->value, local->message);
			wbsim_sweep_free(sw);
			return NULL;
		}
		g_ptr_array_add(sw->axes, a);
		if (!check_size(sw, where, error)) {
			wbsim_sweep_free(sw);
			return NULL;
		}
	}
	return sw;
}

void wbsim_sweep_free(struct wbsim_sweep *sw)
{
	if (!sw)
		return;
	g_ptr_array_unref(sw->axes);
	wbsim_scenario_free(sw->scn);
	g_free(sw->path);
	if (sw->overrides)
		g_ptr_array_unref(sw->overrides);
	if (sw->groups)
		g_array_unref(sw->groups);
	wbsim_sweep_results_close(sw->results);
	g_free(sw->results_path);
	g_free(sw->header);
	g_free(sw);
}

gboolean wbsim_sweep_add_option(struct wbsim_sweep *sw, const char *assignment,
				GError **error)
{
	g_autofree char *copy = NULL;
	char *eq;
	g_autoptr(GError) local = NULL;
	struct wbsim_sweep_axis *a;
	char *name, *text;

	wbsim_check_arg(sw != NULL && assignment != NULL, FALSE, error);
	copy = g_strdup(assignment);
	eq = strchr(copy, '=');
	if (!eq) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "wbsim_sweep_opts.sweeps: '%s': expected SECTION.KEY=VALUES",
			    assignment);
		return FALSE;
	}
	*eq = '\0';
	name = g_strstrip(copy);
	text = g_strstrip(eq + 1);
	a = wbsim_sweep_axis_new(name, text, SWEEPS_ORIGIN, 0, NULL, &local);
	if (!a) {
		g_set_error(error, WBSIM_ERROR, local->code, SWEEPS_ORIGIN ": %s = %s: %s",
			    name, text, local->message);
		return FALSE;
	}
	/*
	 * an item of wbsim_sweep_opts.sweeps replaces the scenario's [sweep]
	 * line of its key, but a key given twice in the items is a mistake:
	 * refused, not the first silently dropped
	 */
	for (guint i = 0; i < sw->axes->len; i++) {
		const struct wbsim_sweep_axis *o = sw->axes->pdata[i];

		if (o->line == 0 && g_strcmp0(o->file, SWEEPS_ORIGIN) == 0 &&
		    strcmp(o->section, a->section) == 0 && strcmp(o->key, a->key) == 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    SWEEPS_ORIGIN ": %s = %s: %s is swept already (" SWEEPS_ORIGIN " %s=%s): "
				    "expected each key once (all its values in one " SWEEPS_ORIGIN " item)",
				    name, text, name, o->name, o->text);
			wbsim_sweep_axis_free(a);
			return FALSE;
		}
	}
	/* the scenario's [sweep] says it too, as --dump-config prints it */
	if (sw->scn && !wbsim_scenario_add_sweep(sw->scn, name, text, error)) {
		wbsim_sweep_axis_free(a);
		return FALSE;
	}
	for (guint i = 0; i < sw->axes->len; i++) {
		struct wbsim_sweep_axis *o = sw->axes->pdata[i];

		if (strcmp(o->section, a->section) == 0 && strcmp(o->key, a->key) == 0) {
			/* replace it where it stood (the free function frees @o) */
			sw->axes->pdata[i] = a;
			wbsim_sweep_axis_free(o);
			return check_size(sw, SWEEPS_ORIGIN ": ", error);
		}
	}
	g_ptr_array_add(sw->axes, a);
	return check_size(sw, SWEEPS_ORIGIN ": ", error);
}

const char *wbsim_sweep_value(const struct wbsim_sweep *sw, size_t point,
			      guint axis)
{
	/* mixed radix, the last axis varying fastest */
	for (guint i = sw->axes->len; i-- > axis + 1;)
		point /= ((struct wbsim_sweep_axis *)sw->axes->pdata[i])->values->len;
	{
		const struct wbsim_sweep_axis *a = sw->axes->pdata[axis];

		return a->values->pdata[point % a->values->len];
	}
}

char *wbsim_sweep_label(const struct wbsim_sweep *sw, size_t point)
{
	GString *s;

	g_return_val_if_fail(sw != NULL, NULL);
	s = g_string_new(NULL);
	for (guint i = 0; i < sw->axes->len; i++) {
		const struct wbsim_sweep_axis *a = sw->axes->pdata[i];

		g_string_append_printf(s, "%s%s=%s", i ? " " : "", a->name,
				       wbsim_sweep_value(sw, point, i));
	}
	return g_string_free(s, FALSE);
}

struct point_hook {
	const struct wbsim_sweep *sw;
	size_t point;
};

/* The point's values, as lines at their [sweep] line (or SWEEPS_ORIGIN). */
static gboolean apply_point(struct wbsim_config *cfg, void *arg, GError **error)
{
	const struct point_hook *ph = arg;

	for (guint i = 0; i < ph->sw->axes->len; i++) {
		const struct wbsim_sweep_axis *a = ph->sw->axes->pdata[i];

		if (!wbsim_config_set_value(cfg, a->section, a->key,
					    wbsim_sweep_value(ph->sw, ph->point, i),
					    a->file, a->line, 0, a->base_dir, error))
			return FALSE;
	}
	return TRUE;
}

struct wbsim_scenario *wbsim_sweep_load_point(const struct wbsim_sweep *sw,
					      size_t point, const char *path,
					      const char *const *overrides,
					      GError **error)
{
	struct point_hook ph = { sw, point };
	struct wbsim_scenario *scn;

	scn = wbsim_scenario_load_hooked(path, overrides, apply_point, &ph, error);
	if (!scn && error && *error && sw->axes->len) {
		g_autofree char *label = wbsim_sweep_label(sw, point);

		g_prefix_error(error, "sweep point %zu/%zu (%s): ", point + 1,
			       wbsim_sweep_n_points(sw), label);
	}
	return scn;
}

static gint cmp_guint(gconstpointer a, gconstpointer b)
{
	guint x = *(const guint *)a, y = *(const guint *)b;

	return x < y ? -1 : x > y;
}

gboolean wbsim_sweep_check(const struct wbsim_sweep *sw, const char *path,
			   const char *const *overrides, GArray **groups,
			   GError **error)
{
	g_autoptr(GArray) g = g_array_new(FALSE, FALSE, sizeof(guint));
	size_t n = wbsim_sweep_n_points(sw);

	for (size_t p = 0; p < n; p++) {
		struct wbsim_scenario *scn = wbsim_sweep_load_point(sw, p, path,
								    overrides, error);
		const struct wbsim_fio_file *fio;

		if (!scn)
			return FALSE;
		fio = wbsim_scenario_fio(scn);
		for (guint j = 0; j < fio->jobs->len; j++) {
			guint id = ((const struct wbsim_fio_job *)fio->jobs->pdata[j])->group_id;
			gboolean seen = FALSE;

			for (guint k = 0; k < g->len; k++)
				seen |= g_array_index(g, guint, k) == id;
			if (!seen)
				g_array_append_val(g, id);
		}
		wbsim_scenario_free(scn);
	}
	g_array_sort(g, cmp_guint);
	if (groups)
		*groups = g_steal_pointer(&g);
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Running the points                                                       */

struct task_runner {
	wbsim_sweep_task_fn task;
	void *task_arg;
	size_t n;
	GMutex lock;
	GCond cond;
	size_t next;		/* the next point a worker takes */
	gboolean stop;		/* take no more points */
	char **texts;		/* per point, once done */
	GError **errors;	/* per point, once done */
	gboolean *done;
};

/* Compute one point's text; record the outcome. */
static void run_task(struct task_runner *tr, size_t p)
{
	GError *e = NULL;
	char *text = tr->task(p, tr->task_arg, &e);

	g_mutex_lock(&tr->lock);
	tr->texts[p] = text;
	tr->errors[p] = text ? NULL : e;
	if (text && e)
		g_error_free(e);
	tr->done[p] = TRUE;
	g_cond_broadcast(&tr->cond);
	g_mutex_unlock(&tr->lock);
}

static gpointer task_worker(gpointer data)
{
	struct task_runner *tr = data;

	for (;;) {
		size_t p;

		g_mutex_lock(&tr->lock);
		if (tr->stop || tr->next >= tr->n) {
			g_mutex_unlock(&tr->lock);
			return NULL;
		}
		p = tr->next++;
		g_mutex_unlock(&tr->lock);
		run_task(tr, p);
	}
}

gboolean wbsim_sweep_run_tasks(size_t n, unsigned int jobs,
			       wbsim_sweep_task_fn task, void *task_arg,
			       wbsim_sweep_emit_fn emit, void *emit_arg,
			       GError **error)
{
	struct task_runner tr = { .task = task, .task_arg = task_arg, .n = n };
	g_autoptr(GPtrArray) threads = NULL;
	gboolean ok = TRUE;

	wbsim_check_arg(task != NULL && emit != NULL, FALSE, error);
	threads = g_ptr_array_new();

	g_mutex_init(&tr.lock);
	g_cond_init(&tr.cond);
	tr.texts = g_new0(char *, n);
	tr.errors = g_new0(GError *, n);
	tr.done = g_new0(gboolean, n);
	if (jobs > n)
		jobs = (unsigned int)n;
	for (unsigned int i = 0; jobs > 1 && i < jobs; i++)
		g_ptr_array_add(threads, g_thread_new("wbsim-sweep", task_worker, &tr));

	for (size_t p = 0; p < n; p++) {
		if (!threads->len) {
			run_task(&tr, p);
		} else {
			g_mutex_lock(&tr.lock);
			while (!tr.done[p])
				g_cond_wait(&tr.cond, &tr.lock);
			g_mutex_unlock(&tr.lock);
		}
		if (tr.errors[p]) {
			g_propagate_error(error, g_steal_pointer(&tr.errors[p]));
			ok = FALSE;
		} else {
			ok = emit(p, tr.texts[p], emit_arg, error);
		}
		g_clear_pointer(&tr.texts[p], g_free);
		if (!ok)
			break;
	}

	g_mutex_lock(&tr.lock);
	tr.stop = TRUE;
	g_mutex_unlock(&tr.lock);
	for (guint i = 0; i < threads->len; i++)
		g_thread_join(threads->pdata[i]);
	for (size_t p = 0; p < n; p++) {
		g_free(tr.texts[p]);
		g_clear_error(&tr.errors[p]);
	}
	g_free(tr.texts);
	g_free(tr.errors);
	g_free(tr.done);
	g_mutex_clear(&tr.lock);
	g_cond_clear(&tr.cond);
	return ok;
}

/* What wbsim_sweep_run() runs: load, simulate and format one point. */
struct sweep_runner {
	const struct wbsim_sweep *sw;
	const char *path;
	const char *const *overrides;
	const struct wbsim_run_options *opts;
	wbsim_sweep_format_fn format;
	void *format_arg;
};

struct wbsim_run_result *wbsim_sweep_simulate_point(const struct wbsim_sweep *sw,
						    size_t point, const char *path,
						    const char *const *overrides,
						    const struct wbsim_run_options *opts,
						    struct wbsim_scenario **scn,
						    GError **error)
{
	struct wbsim_run_result *r;

	*scn = wbsim_sweep_load_point(sw, point, path, overrides, error);
	if (!*scn)
		return NULL;
	r = wbsim_run_scenario(*scn, opts, error);
	if (!r && sw->axes->len) {
		g_autofree char *label = wbsim_sweep_label(sw, point);

		g_prefix_error(error, "sweep point %zu/%zu (%s): ", point + 1,
			       wbsim_sweep_n_points(sw), label);
	}
	return r;
}

static char *sweep_task(size_t p, void *arg, GError **error)
{
	const struct sweep_runner *sr = arg;
	struct wbsim_scenario *scn = NULL;
	struct wbsim_run_result *r;
	char *text = NULL;

	r = wbsim_sweep_simulate_point(sr->sw, p, sr->path, sr->overrides,
				       sr->opts, &scn, error);
	if (r) {
		text = sr->format(sr->sw, p, r, sr->format_arg);
		wbsim_run_result_free(r);
	}
	wbsim_scenario_free(scn);
	return text;
}

gboolean wbsim_sweep_run(const struct wbsim_sweep *sw, const char *path,
			 const char *const *overrides,
			 const struct wbsim_run_options *opts, unsigned int jobs,
			 wbsim_sweep_format_fn format, void *format_arg,
			 wbsim_sweep_emit_fn emit, void *emit_arg,
			 GError **error)
{
	struct sweep_runner sr = {
		.sw = sw, .path = path, .overrides = overrides, .opts = opts,
		.format = format, .format_arg = format_arg,
	};

	g_return_val_if_fail(!opts || !opts->trace_fn, FALSE);
	return wbsim_sweep_run_tasks(wbsim_sweep_n_points(sw), jobs, sweep_task,
				     &sr, emit, emit_arg, error);
}

/* ------------------------------------------------------------------------ */
/* Per-point output                                                         */

void wbsim_sweep_csv_field(GString *s, const char *v)
{
	if (!strpbrk(v, ",\"\r\n")) {
		g_string_append(s, v);
		return;
	}
	g_string_append_c(s, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"')
			g_string_append_c(s, '"');
		g_string_append_c(s, *p);
	}
	g_string_append_c(s, '"');
}

void wbsim_sweep_append_double(GString *s, const char *fmt, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append(s, g_ascii_formatd(buf, sizeof(buf), fmt, v));
}

static void csv_double(GString *s, const char *fmt, double v)
{
	g_string_append_c(s, ',');
	wbsim_sweep_append_double(s, fmt, v);
}

char *wbsim_sweep_csv_header(const struct wbsim_sweep *sw, const GArray *groups)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; sw && i < sw->axes->len; i++) {
		wbsim_sweep_csv_field(s, ((const struct wbsim_sweep_axis *)sw->axes->pdata[i])->name);
		g_string_append_c(s, ',');
	}
	g_string_append(s, "write_bw_mib_s");
	for (guint i = 0; groups && groups->len > 1 && i < groups->len; i++)
		g_string_append_printf(s, ",group%u_write_bw_mib_s",
				       g_array_index(groups, guint, i));
	g_string_append(s, ",pauses,max_pause_ms,pages_by_flushers,pages_by_tasks,"
			   "device_util_pct,filefrag_extents,sim_time_s\n");
	return g_string_free(s, FALSE);
}

/* MiB/s of @bytes over @ns (0 when nothing ran). */
static double mib_per_s(uint64_t bytes, wbsim_time_t ns)
{
	return ns ? (double)bytes / ((double)ns / 1e9) / (1024.0 * 1024.0) : 0.0;
}

void wbsim_sweep_figures(const struct wbsim_run_result *r,
			 struct wbsim_sweep_figures *f)
{
	uint64_t bytes = 0, flushers = 0;
	wbsim_time_t runtime = 0, max_pause = 0, max_lag = 0;

	memset(f, 0, sizeof(*f));
	for (guint i = 0; i < r->jobs->len; i++) {
		const struct wbsim_job_result *j = r->jobs->pdata[i];

		bytes += j->io_bytes;
		runtime = MAX(runtime, j->runtime_ns);
		f->pauses += j->pauses;
		max_pause = MAX(max_pause, j->max_pause_ns);
		max_lag = MAX(max_lag, j->max_lag_ns);
	}
	f->write_bw_mib_s = mib_per_s(bytes, runtime);
	f->max_pause_ms = (double)max_pause / 1e6;
	f->max_lag_ms = (double)max_lag / 1e6;
	for (guint i = 0; i < r->wbs->len; i++)
		flushers += ((const struct wbsim_wb_result *)r->wbs->pdata[i])->pages_written;
	f->pages_by_flushers = flushers;
	/* pages whose writeback completed and that no flusher submitted */
	f->pages_by_tasks = r->nr_written > flushers ? r->nr_written - flushers : 0;
	for (guint i = 0; i < r->extents->len; i++) {
		const struct wbsim_extent_result *e = r->extents->pdata[i];

		if (strcmp(e->moment, "end") == 0)
			f->filefrag_extents += e->filefrag;
	}
	f->device_util_pct = MIN(r->device_stats.utilisation * 100.0, 100.0);
	f->sim_time_s = (double)r->sim_ns / 1e9;
}

char *wbsim_sweep_csv_row(const struct wbsim_sweep *sw, size_t point,
			  const struct wbsim_run_result *r, const GArray *groups)
{
	GString *s = g_string_new(NULL);
	struct wbsim_sweep_figures f;

	for (guint i = 0; sw && i < sw->axes->len; i++) {
		wbsim_sweep_csv_field(s, wbsim_sweep_value(sw, point, i));
		g_string_append_c(s, ',');
	}
	wbsim_sweep_figures(r, &f);
	wbsim_sweep_append_double(s, "%.3f", f.write_bw_mib_s);
	for (guint g = 0; groups && groups->len > 1 && g < groups->len; g++) {
		guint id = g_array_index(groups, guint, g);
		uint64_t gbytes = 0;
		wbsim_time_t gruntime = 0;
		gboolean any = FALSE;

		for (guint i = 0; i < r->jobs->len; i++) {
			const struct wbsim_job_result *j = r->jobs->pdata[i];

			if (j->fio->group_id != id)
				continue;
			any = TRUE;
			gbytes += j->io_bytes;
			gruntime = MAX(gruntime, j->runtime_ns);
		}
		if (any)
			csv_double(s, "%.3f", mib_per_s(gbytes, gruntime));
		else
			g_string_append_c(s, ',');	/* this point has no such group */
	}
	g_string_append_printf(s, ",%" G_GUINT64_FORMAT, f.pauses);
	csv_double(s, "%.3f", f.max_pause_ms);
	g_string_append_printf(s, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT,
			       f.pages_by_flushers, f.pages_by_tasks);
	csv_double(s, "%.2f", f.device_util_pct);
	g_string_append_printf(s, ",%" G_GUINT64_FORMAT, f.filefrag_extents);
	csv_double(s, "%.6f", f.sim_time_s);
	g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

void wbsim_sweep_add_values_json(const struct wbsim_sweep *sw, size_t point,
				 JsonBuilder *b)
{
	json_builder_begin_object(b);
	for (guint i = 0; i < sw->axes->len; i++) {
		const struct wbsim_sweep_axis *a = sw->axes->pdata[i];
		const char *v = wbsim_sweep_value(sw, point, i);
		guint64 n;

		json_builder_set_member_name(b, a->name);
		if (wbsim_sweep_range_number(v, &n) && n <= G_MAXINT64)
			json_builder_add_int_value(b, (gint64)n);
		else
			json_builder_add_string_value(b, v);
	}
	json_builder_end_object(b);
}

char *wbsim_sweep_json_line(const struct wbsim_sweep *sw, size_t point,
			    const struct wbsim_run_result *r,
			    gboolean include_wall)
{
	g_autofree char *report = wbsim_report_json(r, include_wall);
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *text = NULL;
	JsonNode *rep;

	/* the report is the library's own JSON: parsing it cannot fail */
	rep = json_from_string(report, NULL);
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "sweep_point");
	json_builder_add_int_value(b, (gint64)point + 1);
	json_builder_set_member_name(b, "sweep");
	wbsim_sweep_add_values_json(sw, point, b);
	json_builder_set_member_name(b, "report");
	if (rep)
		json_builder_add_value(b, rep);
	else
		json_builder_add_null_value(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	text = json_to_string(root, FALSE);
	return g_strconcat(text, "\n", NULL);
}
