/* SPDX-License-Identifier: MIT */
/*
 * config-sweep.c - the [sweep] lines of a scenario as the loader reads
 * them (scenario/config-sweep.h): "SECTION.KEY = VALUES", KEY a scenario
 * key that holds one value, VALUES a list "V1,V2,..." whose items are
 * values or, for keys that are not text or file names, integer ranges
 * "FIRST..LAST" or "FIRST..LAST:STEP" (inclusive). A line is checked as an
 * axis when it is read, so that its errors come with the file's other
 * errors; the runner expands the axes into points (run/sweep.c).
 */
#include <string.h>

#include <wbsim/error.h>
#include "scenario/config-private.h"
#include "scenario/config-sweep.h"

#define RANGE_SYNTAX "expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers"

void wbsim_config_sweep_line_free(gpointer data)
{
	struct wbsim_config_sweep_line *sl = data;

	g_free(sl->key);
	g_free(sl->value);
	g_free(sl->file);
	g_free(sl->base_dir);
	g_free(sl);
}

void wbsim_sweep_axis_free(gpointer data)
{
	struct wbsim_sweep_axis *a = data;

	g_free(a->name);
	g_free(a->section);
	g_free(a->key);
	g_free(a->text);
	g_ptr_array_unref(a->values);
	g_free(a->file);
	g_free(a->base_dir);
	g_free(a);
}

gboolean wbsim_sweep_range_number(const char *s, guint64 *out)
{
	if (!*s)
		return FALSE;
	for (const char *p = s; *p; p++)
		if (!g_ascii_isdigit(*p))
			return FALSE;
	return g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, out, NULL);
}

/* FIRST..LAST[:STEP], inclusive, appended to @out. */
static gboolean parse_range(const char *item, const char *dots, GPtrArray *out,
			    GError **error)
{
	g_autofree char *first = g_strndup(item, dots - item);
	g_autofree char *last = g_strdup(dots + 2);
	char *colon = strchr(last, ':');
	const char *step_text = NULL;
	guint64 a, b, step = 1, n;

	if (colon) {
		*colon = '\0';
		step_text = colon + 1;
	}
	if (!*first || !*last || (step_text && !*step_text)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "range %s has no %s: " RANGE_SYNTAX, item,
			    !*first ? "FIRST" : !*last ? "LAST" : "STEP");
		return FALSE;
	}
	if (!wbsim_sweep_range_number(first, &a) || !wbsim_sweep_range_number(last, &b) ||
	    (step_text && !wbsim_sweep_range_number(step_text, &step))) {
		const char *bad = !wbsim_sweep_range_number(first, &a) ? first :
				  !wbsim_sweep_range_number(last, &b) ? last : step_text;

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "range %s: '%s' is not an integer: " RANGE_SYNTAX,
			    item, bad);
		return FALSE;
	}
	if (a > b) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "range %s is empty: expected FIRST <= LAST", item);
		return FALSE;
	}
	if (step == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "range %s: step 0: expected a STEP of at least 1", item);
		return FALSE;
	}
	n = (b - a) / step + 1;
	if (n > WBSIM_SWEEP_MAX_POINTS || out->len + n > WBSIM_SWEEP_MAX_POINTS) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "range %s has %" G_GUINT64_FORMAT " values: expected at most %d points in a sweep",
			    item, n, WBSIM_SWEEP_MAX_POINTS);
		return FALSE;
	}
	for (guint64 i = 0; i < n; i++)
		g_ptr_array_add(out, g_strdup_printf("%" G_GUINT64_FORMAT, a + i * step));
	return TRUE;
}

gboolean wbsim_sweep_parse_values(const char *text, gboolean ranges,
				  GPtrArray *out, GError **error)
{
	g_auto(GStrv) items = NULL;
	const char *p = text;

	while (p && g_ascii_isspace(*p))
		p++;
	if (!p || !*p) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "no values: expected a range FIRST..LAST[:STEP] or a list V1,V2,...");
		return FALSE;
	}
	items = g_strsplit(text, ",", -1);
	for (size_t i = 0; items[i]; i++) {
		char *item = g_strstrip(items[i]);
		const char *dots = ranges ? strstr(item, "..") : NULL;

		if (!*item) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "empty value in the list: expected V1,V2,... with no empty item");
			return FALSE;
		}
		if (dots) {
			if (!parse_range(item, dots, out, error))
				return FALSE;
			continue;
		}
		if (out->len >= WBSIM_SWEEP_MAX_POINTS) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "more than %d values: expected at most %d points in a sweep",
				    WBSIM_SWEEP_MAX_POINTS, WBSIM_SWEEP_MAX_POINTS);
			return FALSE;
		}
		g_ptr_array_add(out, g_strdup(item));
	}
	return TRUE;
}

/* The scenario's sections that hold keys, for suggestions. */
static GPtrArray *sweepable_sections(void)
{
	GPtrArray *names = g_ptr_array_new();
	size_t n;
	const struct wbsim_param *keys = wbsim_config_keys(&n);

	for (size_t i = 0; i < n; i++) {
		gboolean seen = FALSE;

		for (guint j = 0; j < names->len; j++)
			seen |= strcmp(names->pdata[j], keys[i].section) == 0;
		if (!seen)
			g_ptr_array_add(names, (char *)keys[i].section);
	}
	g_ptr_array_add(names, NULL);
	return names;
}

/*
 * Split "section.key" and check it names a key holding one value. @ranges
 * says whether the key's values may be integer ranges. The error message
 * is the reason.
 */
static gboolean sweep_key(const char *name, char **section, char **key,
			  gboolean *ranges, GError **error)
{
	const char *dot = strchr(name, '.');
	g_autofree char *sec = NULL;
	const struct wbsim_param *k;
	const struct wbsim_param_renamed *renamed;

	if (!dot || dot == name || !dot[1]) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "expected a key SECTION.KEY (e.g. writeback.contexts)");
		return FALSE;
	}
	sec = g_strndup(name, dot - name);
	if (!wbsim_config_is_section(sec) || strcmp(sec, "sweep") == 0) {
		g_autoptr(GPtrArray) secs = sweepable_sections();
		const char *near = wbsim_closest_name(sec, (const char *const *)secs->pdata);

		if (near)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "unknown section [%s] (did you mean [%s]?)", sec, near);
		else
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "unknown section [%s]: expected a scenario key SECTION.KEY", sec);
		return FALSE;
	}
	k = wbsim_config_find_key(sec, dot + 1, NULL);
	if (!k && strcmp(sec, "device") != 0 && strcmp(sec, "filesystem") != 0 &&
	    strcmp(sec, "costs") != 0) {
		size_t n;
		const struct wbsim_param *keys = wbsim_config_keys(&n);
		g_autoptr(GPtrArray) names = g_ptr_array_new();
		const char *near;

		for (size_t i = 0; i < n; i++)
			if (strcmp(keys[i].section, sec) == 0)
				g_ptr_array_add(names, (char *)keys[i].name);
		g_ptr_array_add(names, NULL);
		near = wbsim_closest_name(dot + 1, (const char *const *)names->pdata);
		if (near)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "unknown key (did you mean %s.%s?)", sec, near);
		else
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "unknown key: [%s] has no key %s", sec, dot + 1);
		return FALSE;
	}
	renamed = k ? NULL : wbsim_param_renamed_entry(sec, dot + 1);
	if (renamed) {
		const char *to = renamed->moved_to ? renamed->moved_to : sec;

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
			    "the key %s to %s.%s (%s): expected [sweep] %s.%s = VALUES",
			    renamed->moved_to ? "moved" : "was renamed", to, renamed->now,
			    renamed->why, to, renamed->now);
		return FALSE;
	}
	if (k && (k->flags & (WBSIM_PARAM_REPEATABLE | WBSIM_PARAM_NO_STORE))) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "[%s] %s cannot be swept: expected a key that holds one value",
			    sec, k->name);
		return FALSE;
	}
	/* device, filesystem and cost parameters are checked by their layer */
	*ranges = !k || !wbsim_param_is_text(k->type);
	*section = g_steal_pointer(&sec);
	*key = g_strdup(dot + 1);
	return TRUE;
}

struct wbsim_sweep_axis *wbsim_sweep_axis_new(const char *name, const char *text,
					 const char *file, unsigned int line,
					 const char *base_dir, GError **error)
{
	struct wbsim_sweep_axis *a = g_new0(struct wbsim_sweep_axis, 1);
	gboolean ranges = FALSE;

	a->values = g_ptr_array_new_with_free_func(g_free);
	if (!sweep_key(name, &a->section, &a->key, &ranges, error) ||
	    !wbsim_sweep_parse_values(text, ranges, a->values, error)) {
		wbsim_sweep_axis_free(a);
		return NULL;
	}
	a->name = g_strdup(name);
	a->text = g_strdup(text);
	a->file = g_strdup(file);
	a->line = line;
	a->base_dir = g_strdup(base_dir);
	return a;
}

gboolean wbsim_sweep_add_line(struct wbsim_config *cfg, const char *name,
			      const char *value, const char *file,
			      unsigned int line, unsigned int instance,
			      const char *base_dir, GError **error)
{
	GPtrArray *lines = cfg->priv->sweep_lines;
	g_autofree char *where = wbsim_param_where(file, line);
	g_autoptr(GError) local = NULL;
	struct wbsim_config_sweep_line *sl = NULL;
	struct wbsim_sweep_axis *a;

	if (!value) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s[sweep] %s: no value: expected 'SECTION.KEY = VALUES' (a range FIRST..LAST[:STEP] or a list V1,V2,...)",
			    where, name);
		return FALSE;
	}
	a = wbsim_sweep_axis_new(name, value, file, line, base_dir, &local);
	if (!a) {
		wbsim_param_value_error(error, local->code, file, line, "[sweep]", name,
					value, local->message);
		return FALSE;
	}
	wbsim_sweep_axis_free(a);
	for (guint i = 0; i < lines->len; i++) {
		struct wbsim_config_sweep_line *o = lines->pdata[i];

		if (strcmp(o->key, name) != 0)
			continue;
		if (instance && o->instance == instance) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s[sweep] %s = %s: duplicate key (first set at line %u)",
				    where, name, value, o->line);
			return FALSE;
		}
		sl = o;		/* a later file replaces it where it stood */
		g_free(sl->value);
		g_free(sl->file);
		g_free(sl->base_dir);
		break;
	}
	if (!sl) {
		sl = g_new0(struct wbsim_config_sweep_line, 1);
		sl->key = g_strdup(name);
		g_ptr_array_add(lines, sl);
	}
	sl->value = g_strdup(value);
	sl->file = g_strdup(file);
	sl->line = line;
	sl->instance = instance;
	sl->base_dir = g_strdup(base_dir);
	return TRUE;
}

