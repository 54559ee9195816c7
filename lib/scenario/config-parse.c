/* SPDX-License-Identifier: MIT */
/*
 * config-parse.c - the typed values of the scenario keys: booleans,
 * integers, sizes, percentages, times, centiseconds, enums and names (the
 * units through the one grammar of core/param.c), their printing, and the
 * edit distance behind "did you mean X?".
 *
 * Every value printed by wbsim_config_format_value() parses back to the
 * same value.
 */
#include <string.h>

#include <wbsim/error.h>
#include "core/param.h"
#include "scenario/config-private.h"

/* Fail with "[REASON: ]expected <what the kind is>". */
static gboolean set_reason(GError **error, enum wbsim_param_type type,
			   const char *why)
{
	g_autofree char *msg = wbsim_param_explain(type, why);

	g_set_error_literal(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE, msg);
	return FALSE;
}

gboolean wbsim_parse_bool(const char *s, bool *out, GError **error)
{
	const char *why;
	gboolean b = FALSE;

	if (!wbsim_param_parse_bool(s, &b, &why))
		return set_reason(error, WBSIM_PARAM_BOOL, why);
	*out = b;
	return TRUE;
}

gboolean wbsim_parse_uint(const char *s, uint64_t *out, GError **error)
{
	const char *why;

	return wbsim_param_parse_count(s, out, &why) ||
	       set_reason(error, WBSIM_PARAM_UINT, why);
}

gboolean wbsim_parse_size(const char *s, uint64_t *out, GError **error)
{
	const char *why;

	return wbsim_param_parse_size(s, out, &why) ||
	       set_reason(error, WBSIM_PARAM_SIZE, why);
}

gboolean wbsim_parse_percent(const char *s, uint64_t *out, GError **error)
{
	size_t n = strlen(s);
	g_autofree char *digits = g_strndup(s, n && s[n - 1] == '%' ? n - 1 : n);
	const char *why;
	uint64_t v;

	if (wbsim_param_parse_count(digits, &v, &why) && v <= 100) {
		*out = v;
		return TRUE;
	}
	g_set_error_literal(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "expected a percentage, an integer from 0 to 100");
	return FALSE;
}

gboolean wbsim_parse_time(const char *s, wbsim_time_t *out, GError **error)
{
	const char *why;
	uint64_t v;

	if (!wbsim_param_parse_time(s, &v, &why))
		return set_reason(error, WBSIM_PARAM_TIME, why);
	*out = v;
	return TRUE;
}

char *wbsim_format_size(uint64_t bytes)
{
	static const char letters[] = "kmgtp";

	if (bytes == 0)
		return g_strdup("0");
	for (int i = 4; i >= 0; i--) {
		unsigned int shift = 10 * (unsigned int)(i + 1);
		uint64_t unit = (uint64_t)1 << shift;

		if (bytes % unit == 0)
			return g_strdup_printf("%" G_GUINT64_FORMAT "%c",
					       bytes >> shift, letters[i]);
	}
	return g_strdup_printf("%" G_GUINT64_FORMAT, bytes);
}

char *wbsim_format_time(wbsim_time_t ns)
{
	/* units in decreasing size (no d: the printed form predates it) */
	static const struct {
		const char *name;
		wbsim_time_t ns;
	} units[] = {
		{ "h", 3600 * WBSIM_NSEC_PER_SEC }, { "m", 60 * WBSIM_NSEC_PER_SEC },
		{ "s", WBSIM_NSEC_PER_SEC }, { "ms", WBSIM_NSEC_PER_MSEC },
		{ "us", WBSIM_NSEC_PER_USEC }, { "ns", 1 },
	};

	if (ns == 0)
		return g_strdup("0");
	for (size_t i = 0; i < G_N_ELEMENTS(units); i++) {
		if (ns % units[i].ns == 0)
			return g_strdup_printf("%" G_GUINT64_FORMAT "%s",
					       ns / units[i].ns, units[i].name);
	}
	g_assert_not_reached();
}

static char *format_number(const struct wbsim_config_key *k, uint64_t v)
{
	switch (k->type) {
	case WBSIM_CFG_SIZE:
		return wbsim_format_size(v);
	case WBSIM_CFG_TIME:
		return wbsim_format_time(v);
	default:
		return g_strdup_printf("%" G_GUINT64_FORMAT, v);
	}
}

static void append_range(GString *s, const struct wbsim_config_key *k)
{
	g_autofree char *lo = format_number(k, k->min);
	g_autofree char *hi = format_number(k, k->max);

	if (k->flags & WBSIM_CFG_ZERO_OR_RANGE)
		g_string_append(s, " equal to 0 or");
	if (k->min == k->max)
		g_string_append_printf(s, " equal to %s", lo);
	else if (k->max == UINT64_MAX && k->min > 0)
		g_string_append_printf(s, " of at least %s", lo);
	else if (k->max != UINT64_MAX)
		g_string_append_printf(s, " from %s to %s", lo, hi);
}

static void append_names(GString *s, const char *const *names)
{
	for (size_t i = 0; names && names[i]; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", names[i]);
}

char *wbsim_config_describe_type(const struct wbsim_config_key *k)
{
	GString *s = g_string_new(NULL);
	char **names;

	switch (k->type) {
	case WBSIM_CFG_BOOL:
		g_string_append(s, wbsim_param_expected(WBSIM_PARAM_BOOL));
		break;
	case WBSIM_CFG_UINT:
		g_string_append(s, "an integer");
		append_range(s, k);
		if (k->choices) {
			g_string_append(s, ", or one of: ");
			append_names(s, k->choices);
		}
		break;
	case WBSIM_CFG_SIZE:
		g_string_append(s, wbsim_param_expected(WBSIM_PARAM_SIZE));
		append_range(s, k);
		if (k->choices) {
			g_string_append(s, ", or ");
			append_names(s, k->choices);
		}
		break;
	case WBSIM_CFG_PERCENT:
		g_string_append(s, "a percentage, an integer");
		append_range(s, k);
		break;
	case WBSIM_CFG_TIME:
		g_string_append(s, wbsim_param_expected(WBSIM_PARAM_TIME));
		append_range(s, k);
		break;
	case WBSIM_CFG_CENTISECS:
		g_string_append(s, "an integer number of centiseconds (1/100 s)");
		append_range(s, k);
		break;
	case WBSIM_CFG_ENUM:
		g_string_append(s, "one of: ");
		append_names(s, k->choices);
		break;
	case WBSIM_CFG_NAME:
		names = k->choices_fn();
		g_string_append(s, "one of: ");
		append_names(s, (const char *const *)names);
		g_strfreev(names);
		break;
	case WBSIM_CFG_STRING:
		g_string_append(s, "text");
		break;
	case WBSIM_CFG_PATH:
		g_string_append(s, "a file name");
		break;
	}
	return g_string_free(s, FALSE);
}

/* Fail with "expected <type and range>", plus a suggestion if one is near. */
static gboolean set_expected(const struct wbsim_config_key *k,
			     const char *suggestion, GError **error)
{
	g_autofree char *desc = wbsim_config_describe_type(k);

	if (suggestion)
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "expected %s (did you mean %s?)", desc, suggestion);
	else
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "expected %s", desc);
	return FALSE;
}

static gboolean is_numeric(enum wbsim_config_type t)
{
	return t == WBSIM_CFG_UINT || t == WBSIM_CFG_SIZE ||
	       t == WBSIM_CFG_PERCENT || t == WBSIM_CFG_TIME ||
	       t == WBSIM_CFG_CENTISECS;
}

gboolean wbsim_config_parse_value(const struct wbsim_config_key *k,
				  const char *value, const char *base_dir,
				  void *field, GError **error)
{
	const char *why = NULL;
	uint64_t v = 0;
	gboolean ok = FALSE;

	if (is_numeric(k->type) && k->choices) {
		for (size_t i = 0; k->choices[i]; i++) {
			if (strcmp(value, k->choices[i]) == 0) {
				*(uint64_t *)field = WBSIM_CONFIG_SPECIAL(i);
				return TRUE;
			}
		}
	}

	switch (k->type) {
	case WBSIM_CFG_BOOL: {
		bool b = false;

		if (!wbsim_parse_bool(value, &b, NULL))
			return set_expected(k, NULL, error);
		*(bool *)field = b;
		return TRUE;
	}
	case WBSIM_CFG_UINT:
	case WBSIM_CFG_CENTISECS:
		ok = wbsim_param_parse_count(value, &v, &why);
		break;
	case WBSIM_CFG_SIZE:
		ok = wbsim_param_parse_size(value, &v, &why);
		break;
	case WBSIM_CFG_PERCENT:
		ok = wbsim_parse_percent(value, &v, NULL);
		break;
	case WBSIM_CFG_TIME:
		ok = wbsim_param_parse_time(value, &v, &why);
		break;
	case WBSIM_CFG_ENUM:
		for (size_t i = 0; k->choices[i]; i++) {
			if (strcmp(value, k->choices[i]) == 0) {
				*(unsigned int *)field = (unsigned int)i;
				return TRUE;
			}
		}
		return set_expected(k, wbsim_closest_name(value, k->choices),
				    error);
	case WBSIM_CFG_NAME: {
		g_auto(GStrv) names = k->choices_fn();

		for (size_t i = 0; names[i]; i++) {
			if (strcmp(value, names[i]) == 0) {
				g_free(*(char **)field);
				*(char **)field = g_strdup(value);
				return TRUE;
			}
		}
		return set_expected(k, wbsim_closest_name(value,
				(const char *const *)names), error);
	}
	case WBSIM_CFG_STRING:
		g_free(*(char **)field);
		*(char **)field = g_strdup(value);
		return TRUE;
	case WBSIM_CFG_PATH:
		if (!*value)
			return set_expected(k, NULL, error);
		g_free(*(char **)field);
		if (base_dir && !g_path_is_absolute(value) &&
		    strcmp(base_dir, ".") != 0)
			*(char **)field = g_build_filename(base_dir, value, NULL);
		else
			*(char **)field = g_strdup(value);
		return TRUE;
	}

	if (!ok) {
		g_autofree char *desc = wbsim_config_describe_type(k);

		/* the parser's reason, if it has one, then what is expected */
		if (why && *why)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s: expected %s", why, desc);
		else
			set_expected(k, NULL, error);
		return FALSE;
	}
	if ((v < k->min || v > k->max) &&
	    !(v == 0 && (k->flags & WBSIM_CFG_ZERO_OR_RANGE)))
		return set_expected(k, NULL, error);
	*(uint64_t *)field = v;
	return TRUE;
}

char *wbsim_config_format_value(const struct wbsim_config_key *k,
				const void *field)
{
	uint64_t v;

	switch (k->type) {
	case WBSIM_CFG_BOOL:
		return g_strdup(*(const bool *)field ? "true" : "false");
	case WBSIM_CFG_ENUM:
		return g_strdup(k->choices[*(const unsigned int *)field]);
	case WBSIM_CFG_STRING:
	case WBSIM_CFG_PATH:
	case WBSIM_CFG_NAME:
		return g_strdup(*(char *const *)field ? *(char *const *)field : "");
	default:
		break;
	}
	v = *(const uint64_t *)field;
	if (k->choices) {
		for (size_t i = 0; k->choices[i]; i++)
			if (v == WBSIM_CONFIG_SPECIAL(i))
				return g_strdup(k->choices[i]);
	}
	return format_number(k, v);
}

void wbsim_config_free_field(const struct wbsim_config_key *k, void *field)
{
	if (k->type == WBSIM_CFG_STRING || k->type == WBSIM_CFG_PATH ||
	    k->type == WBSIM_CFG_NAME)
		g_clear_pointer((char **)field, g_free);
}

void wbsim_config_set_defaults(const struct wbsim_config_key *keys,
			       size_t n_keys, void *base)
{
	for (size_t i = 0; i < n_keys; i++) {
		const struct wbsim_config_key *k = &keys[i];
		void *field = (char *)base + k->offset;

		if (k->flags & WBSIM_CFG_NO_STORE)
			continue;
		wbsim_config_free_field(k, field);
		if (!k->def)
			continue;
		/* a default that does not parse is a bug in the table */
		if (!wbsim_config_parse_value(k, k->def, NULL, field, NULL))
			g_critical("default of [%s] %s does not parse: %s",
				   k->section, k->key, k->def);
	}
}

/*
 * Optimal string alignment distance: Levenshtein plus transposition of two
 * adjacent characters, the commonest typo ("ratoi" for "ratio").
 */
static size_t osa_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	g_autofree size_t *d = g_new0(size_t, (la + 1) * (lb + 1));
#define D(i, j) d[(i) * (lb + 1) + (j)]

	for (size_t i = 0; i <= la; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = MIN(D(i - 1, j) + 1, D(i, j - 1) + 1);

			best = MIN(best, D(i - 1, j - 1) + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1])
				best = MIN(best, D(i - 2, j - 2) + 1);
			D(i, j) = best;
		}
	}
	return D(la, lb);
#undef D
}

const char *wbsim_closest_name(const char *word, const char *const *names)
{
	size_t len = strlen(word);
	size_t limit = len <= 3 ? 1 : len <= 8 ? 2 : 3;
	size_t best = SIZE_MAX;
	const char *found = NULL;

	/* ties go to the earlier name: deterministic, table order */
	for (size_t i = 0; names && names[i]; i++) {
		size_t dist = osa_distance(word, names[i]);

		if (dist < best) {
			best = dist;
			found = names[i];
		}
	}
	return best <= limit ? found : NULL;
}
