/* SPDX-License-Identifier: MIT */
/*
 * run-api.c - the public way to run a scenario (include/wbsim/run.h): a
 * scenario builder that writes scenario.ini text, run options with the
 * program's callbacks, and wbsim_run() over the internal
 * wbsim_run_scenario().
 */
#include <string.h>
#include <wbsim/error.h>
#include <wbsim/run.h>
#include "run/api-private.h"
#include "core/arg-check.h"
#include "report/trace.h"
#include "report/trace-dat.h"
#include "run/run.h"
#include "scenario/config-private.h"

/* ------------------------------------------------------------------------ */
/* Scenario builder                                                         */

struct builder_setting {
	char *section;
	char *key;
	char *value;
};

struct wbsim_scenario_builder {
	char *name;
	GPtrArray *settings;	/* struct builder_setting *, in order set */
	GString *fio;		/* [fio:NAME] sections */
};

static void setting_free(gpointer p)
{
	struct builder_setting *s = p;

	g_free(s->section);
	g_free(s->key);
	g_free(s->value);
	g_free(s);
}

wbsim_scenario_builder *wbsim_scenario_builder_new(const char *name)
{
	wbsim_scenario_builder *b = g_new0(wbsim_scenario_builder, 1);

	b->name = g_strdup(name ? name : "builder");
	b->settings = g_ptr_array_new_with_free_func(setting_free);
	b->fio = g_string_new(NULL);
	return b;
}

void wbsim_scenario_builder_free(wbsim_scenario_builder *b)
{
	if (!b)
		return;
	g_free(b->name);
	g_ptr_array_unref(b->settings);
	g_string_free(b->fio, TRUE);
	g_free(b);
}

static gboolean one_line(const char *what, const char *s, GError **error)
{
	if (strpbrk(s, "\r\n")) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "%s '%s' holds a line break", what, s);
		return FALSE;
	}
	/* the line lexer cuts a line at its first ';' or '#': "2;x" read as 2 */
	if (strpbrk(s, ";#")) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "%s '%s' holds '%c': expected text without ';' or '#' (a scenario line is cut there)",
			    what, s, *strpbrk(s, ";#"));
		return FALSE;
	}
	return TRUE;
}

/*
 * The key is written as "[SECTION]" and "KEY = VALUE" lines of a scenario
 * file: '=' would end the key early, '[' or ']' break the header, blanks
 * are stripped around the name and control characters are not text.
 */
static gboolean key_text(const char *key, GError **error)
{
	for (const char *c = key; *c; c++) {
		g_autofree char *what = NULL;

		if (g_ascii_isspace(*c))
			what = g_strdup("a blank");
		else if (g_ascii_iscntrl(*c))
			what = g_strdup("a control character");
		else if (strchr("=[]", *c))
			what = g_strdup_printf("'%c'", *c);
		else
			continue;
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "key '%s' holds %s: expected section.key without '=', '[', ']', "
			    "blanks or control characters (a scenario file could not hold it)",
			    key, what);
		return FALSE;
	}
	return TRUE;
}

gboolean wbsim_scenario_builder_set(wbsim_scenario_builder *b, const char *key,
				    const char *value, GError **error)
{
	const char *dot;
	const struct wbsim_param *k;
	struct builder_setting *s;

	wbsim_check_arg(b != NULL && key != NULL && value != NULL, FALSE, error);
	dot = strchr(key, '.');
	if (!dot || dot == key || !dot[1]) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "key '%s': expected section.key", key);
		return FALSE;
	}
	if (!one_line("key", key, error) || !key_text(key, error) ||
	    !one_line("value", value, error))
		return FALSE;
	s = g_new0(struct builder_setting, 1);
	s->section = g_strndup(key, (gsize)(dot - key));
	s->key = g_strdup(dot + 1);
	s->value = g_strdup(value);
	/* A later setting replaces an earlier one, unless the key repeats. */
	k = wbsim_config_find_key(s->section, s->key, NULL);
	if (!k || !(k->flags & WBSIM_PARAM_REPEATABLE)) {
		for (guint i = 0; i < b->settings->len; i++) {
			struct builder_setting *o = b->settings->pdata[i];

			if (!strcmp(o->section, s->section) && !strcmp(o->key, s->key)) {
				g_free(o->value);
				o->value = g_strdup(value);
				setting_free(s);
				return TRUE;
			}
		}
	}
	g_ptr_array_add(b->settings, s);
	return TRUE;
}

gboolean wbsim_scenario_builder_add_fio_job(wbsim_scenario_builder *b, const char *job,
					    const char *text, GError **error)
{
	wbsim_check_arg(b != NULL && job != NULL && text != NULL, FALSE, error);
	/* "[fio:NAME]": a blank at either end would be stripped from the name */
	if (!*job || strpbrk(job, "[]") || g_ascii_isspace(job[0]) ||
	    g_ascii_isspace(job[strlen(job) - 1]) || !one_line("fio job name", job, error)) {
		if (error && !*error)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
				    "fio job name '%s': expected a non-empty name without '[', ']' "
				    "or a blank at either end", job);
		return FALSE;
	}
	/* option lines only: a header would start a job the caller never named */
	{
		g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

		for (guint i = 0; lines[i]; i++) {
			const char *l = lines[i];

			while (*l == ' ' || *l == '\t')
				l++;
			if (*l == '[') {
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
					    "fio job '%s': line %u '%s' is a section header: expected option lines only (add each job with its own call)",
					    job, i + 1, g_strstrip(lines[i]));
				return FALSE;
			}
		}
	}
	g_string_append_printf(b->fio, "\n[fio:%s]\n%s", job, text);
	if (b->fio->len && b->fio->str[b->fio->len - 1] != '\n')
		g_string_append_c(b->fio, '\n');
	return TRUE;
}

char *wbsim_scenario_builder_text(const wbsim_scenario_builder *b)
{
	GString *s = g_string_new(NULL);
	g_autoptr(GPtrArray) sections = g_ptr_array_new();

	g_return_val_if_fail(b != NULL, NULL);
	g_string_append_printf(s, "# scenario built in code: %s\n", b->name);
	/* sections in the order they were first set */
	for (guint i = 0; i < b->settings->len; i++) {
		struct builder_setting *o = b->settings->pdata[i];
		gboolean seen = FALSE;

		for (guint j = 0; j < sections->len && !seen; j++)
			seen = strcmp(sections->pdata[j], o->section) == 0;
		if (!seen)
			g_ptr_array_add(sections, o->section);
	}
	for (guint j = 0; j < sections->len; j++) {
		g_string_append_printf(s, "\n[%s]\n", (const char *)sections->pdata[j]);
		for (guint i = 0; i < b->settings->len; i++) {
			struct builder_setting *o = b->settings->pdata[i];

			if (strcmp(o->section, sections->pdata[j]) == 0)
				g_string_append_printf(s, "%s = %s\n", o->key, o->value);
		}
	}
	g_string_append(s, b->fio->str);
	return g_string_free(s, FALSE);
}

wbsim_scenario *wbsim_scenario_builder_build(const wbsim_scenario_builder *b, GError **error)
{
	g_autofree char *text = NULL;

	wbsim_check_arg(b != NULL, NULL, error);
	text = wbsim_scenario_builder_text(b);
	return wbsim_scenario_load_string(text, b->name, NULL, NULL, error);
}

/* ------------------------------------------------------------------------ */
/* Run options                                                              */

char **wbsim_trace_events_select(const char *list, GError **error)
{
	wbsim_check_arg(list != NULL, NULL, error);
	return wbsim_trace_select_events(list, error);
}

/* ------------------------------------------------------------------------ */
/* Running                                                                  */

static void api_sample(void *arg, wbsim_time_t now, const char *const *columns,
		       const double *row, unsigned int n)
{
	const wbsim_run_opts *o = arg;

	o->sample_fn(now, columns, row, n, o->user_data);
}

static void api_job_end(void *arg, wbsim_time_t now, unsigned int job, const char *name)
{
	const wbsim_run_opts *o = arg;

	o->point_fn(WBSIM_POINT_JOB_END, now, (int)job, name, o->user_data);
}

static void api_progress(void *arg, const struct wbsim_run_progress *p)
{
	const wbsim_run_opts *o = arg;

	o->progress_fn(p->now, p->fraction, p->jobs_running, p->bytes, o->user_data);
}

static void api_fio_log(void *arg, const char *name, const char *text, gboolean append)
{
	const wbsim_run_opts *o = arg;

	o->fio_log_fn(name, text, append, o->user_data);
}

static int api_fio_log_open(void *arg, const char *name, gboolean append)
{
	const wbsim_run_opts *o = arg;

	return o->fio_log_open_fn ? o->fio_log_open_fn(name, append, o->user_data) : 0;
}

/* The event name of an ftrace text line "<comm>-<pid> [<cpu>] ..... <secs>:
 * <event>: <fields>": the text between the first ": " and the next ':'. */
static void api_trace(void *arg, const char *line)
{
	const wbsim_run_opts *o = arg;
	char event[64];

	if (!wbsim_trace_line_event(line, event, sizeof(event)))
		return;
	if (o->trace_events && !g_strv_contains((const char *const *)o->trace_events, event))
		return;
	o->trace_fn(event, line, o->user_data);
}

void wbsim_run_opts_to_internal(const wbsim_run_opts *opts, struct wbsim_run_options *ro)
{
	memset(ro, 0, sizeof(*ro));
	if (!opts)
		return;
	ro->name = opts->name;
	ro->check = opts->check;
	ro->series_streamed = opts->stream_series;
	ro->stop = opts->stop;
	ro->hook_arg = (void *)opts;
	if (opts->sample_fn)
		ro->sample_fn = api_sample;
	if (opts->point_fn)
		ro->job_end_fn = api_job_end;
	if (opts->progress_fn)
		ro->progress_fn = api_progress;
	if (opts->fio_log_fn) {
		ro->io_log_fn = api_fio_log;
		ro->io_log_open_fn = api_fio_log_open;
		ro->io_log_arg = (void *)opts;
	}
	ro->temp_dir = opts->temp_dir;
	if (opts->trace_fn) {
		ro->trace_fn = api_trace;
		ro->trace_arg = (void *)opts;
		/* lines of other events are not even formatted */
		ro->trace_events = opts->trace_events;
	}
	if (opts->trace_dat)
		ro->trace_events = opts->trace_events;
}

/* Every name of @events (NULL: none) is a tracepoint the model emits. */
static gboolean known_events(const char *const *events, const char *what, GError **error)
{
	for (size_t i = 0; events && events[i]; i++) {
		if (!g_strv_contains(wbsim_trace_event_names, events[i])) {
			g_autofree char *known = g_strjoinv(", ", (char **)wbsim_trace_event_names);

			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
				    "%s: unknown tracepoint '%s': expected one of %s",
				    what, events[i], known);
			return FALSE;
		}
	}
	return TRUE;
}

/* What wbsim_run() refuses in @opts: see its @error. */
static gboolean check_opts(const wbsim_run_opts *opts, GError **error)
{
	for (size_t i = 0; i < G_N_ELEMENTS(opts->reserved); i++) {
		if (opts->reserved[i]) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
				    "wbsim_run_opts.reserved[%zu]: not zero: expected zero (an option of a newer wbsim?)",
				    i);
			return FALSE;
		}
	}
	/* a name that is never emitted would silently deliver nothing */
	return !(opts->trace_fn || opts->trace_dat) ||
	       known_events(opts->trace_events, "wbsim_run_opts.trace_events", error);
}

wbsim_result *wbsim_run(const wbsim_scenario *scn, const wbsim_run_opts *opts, GError **error)
{
	struct wbsim_run_options ro = { 0 };
	struct wbsim_run_result *rr;
	struct wbsim_trace_dat *dat = NULL;
	wbsim_result *r;

	wbsim_check_arg(scn != NULL, NULL, error);
	if (opts && !check_opts(opts, error))
		return NULL;
	wbsim_run_opts_to_internal(opts, &ro);
	if (opts && opts->trace_dat &&
	    !(ro.trace_dat = dat = wbsim_trace_dat_new(wbsim_scenario_config(scn)->cpus,
						       (unsigned int)wbsim_scenario_config(scn)->hz,
						       opts->temp_dir, error)))
		return NULL;
	rr = wbsim_run_scenario(scn, &ro, error);
	if (!rr) {
		wbsim_trace_dat_free(dat);
		return NULL;
	}
	r = wbsim_result_wrap(rr);
	/* the results' jobs point into the scenario's: kept with them */
	r->fio = wbsim_fio_file_ref((struct wbsim_fio_file *)wbsim_scenario_fio(scn));
	r->dat = dat;
	if (dat && opts->trace_events)
		r->dat_events = g_strdupv((char **)opts->trace_events);
	if (opts && opts->point_fn)
		opts->point_fn(WBSIM_POINT_RUN_END, rr->sim_ns, -1, NULL, opts->user_data);
	return r;
}
