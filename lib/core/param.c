/* SPDX-License-Identifier: MIT */
/*
 * core/param.c - the one unit parser of the simulator: sizes (bytes),
 * rates (bytes/s), times (ns), counts, booleans and numbers, as every
 * section of a scenario, --set, --sweep, the device presets, the
 * filesystem options and the CPU cost table write them; and their
 * printing. Locale-independent (g_ascii_*), exact: integers only.
 */
#include <math.h>
#include <string.h>

#include <wbsim/error.h>
#include "core/param.h"

/*
 * The one grammar of sizes, rates and times (scenarios/README.md, "Units"):
 * fio's own with its default kb_base=1024, less what fio reads in a way a
 * reader would not guess.
 *
 * A number is decimal digits, whole (fio silently drops a fraction; here it
 * is an error that says which smaller unit to write). Suffixes are
 * case-insensitive, as in fio. Sizes: none or b (bytes), k, m, g, t, p,
 * each optionally followed by b: powers of 1024 (fio's K = KB = kB under
 * kb_base=1024). The IEC KiB, MiB, ... are refused: fio reads them as
 * powers of 1000 under that kb_base, the reverse of IEC, and no one
 * reading a file would guess either. A rate is a size per second, with an
 * optional "/s". A time needs a unit (fio's us, ms, s, m, h, d, and ns for
 * the costs below a microsecond); only 0 may stand bare, because fio's
 * bare time is seconds for some options and microseconds for others.
 */

/*
 * Leading digits of @s into @out, *@end past them; a reason on failure
 * (@fraction: the one for a decimal point).
 */
static const char *read_whole(const char *s, uint64_t *out, const char **end,
			      const char *fraction)
{
	uint64_t v = 0;
	const char *p = s;

	if (*p == '-')
		return "a negative value";
	if (!g_ascii_isdigit(*p))
		return "";
	for (; g_ascii_isdigit(*p); p++) {
		unsigned int d = *p - '0';

		if (v > (UINT64_MAX - d) / 10)
			return "value does not fit in 64 bits";
		v = v * 10 + d;
	}
	if (*p == '.' && g_ascii_isdigit(p[1]))
		return fraction;
	*out = v;
	*end = p;
	return NULL;
}

/* @v times @mult into @out, or the overflow reason. */
static const char *scale(uint64_t v, uint64_t mult, uint64_t *out)
{
	if (mult && v > UINT64_MAX / mult)
		return "value does not fit in 64 bits";
	*out = v * mult;
	return NULL;
}

/* The multiplier of size suffix @suf, 0 if it is none, -1 for IEC. */
static int64_t size_mult(const char *suf)
{
	static const char letters[] = "kmgtp";
	const char *l;

	if (!*suf || !g_ascii_strcasecmp(suf, "b"))
		return 1;
	l = strchr(letters, g_ascii_tolower(*suf));
	if (!l || !*l)
		return 0;
	if (!g_ascii_strcasecmp(suf + 1, "ib"))
		return -1;
	if (suf[1] && g_ascii_strcasecmp(suf + 1, "b"))
		return 0;
	return (int64_t)1 << (10 * (l - letters + 1));
}

static const char *parse_size_reason(const char *text, uint64_t *out)
{
	const char *end, *why;
	int64_t mult;

	why = read_whole(text, out, &end,
			 "a fraction (write it in a smaller unit: 1536m, not 1.5g)");

	if (why)
		return why;
	mult = size_mult(end);
	if (mult < 0)
		return "an IEC suffix, which fio reads as a power of 1000 "
		       "under its default kb_base=1024";
	if (mult == 0)
		return "";
	return scale(*out, (uint64_t)mult, out);
}

gboolean wbsim_param_parse_size(const char *text, uint64_t *out,
				const char **why)
{
	uint64_t v;

	*why = parse_size_reason(text, &v);
	if (*why)
		return FALSE;
	*out = v;
	return TRUE;
}

gboolean wbsim_param_parse_rate(const char *text, uint64_t *out,
				const char **why)
{
	size_t n = strlen(text);
	g_autofree char *size = NULL;

	if (n >= 2 && !g_ascii_strcasecmp(text + n - 2, "/s"))
		n -= 2;
	size = g_strndup(text, n);
	return wbsim_param_parse_size(size, out, why);
}

static const struct {
	const char *name;
	uint64_t ns;
} time_units[] = {
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", 1000 }, { "usec", 1000 },
	{ "ms", 1000000 }, { "msec", 1000000 },
	{ "s", 1000000000 }, { "sec", 1000000000 },
	{ "m", 60000000000ull }, { "min", 60000000000ull },
	{ "h", 3600000000000ull },
	{ "d", 86400000000000ull },
};

gboolean wbsim_param_parse_time(const char *text, uint64_t *out,
				const char **why)
{
	const char *end;
	uint64_t v;

	*why = read_whole(text, &v, &end,
			  "a fraction (write it in a smaller unit: 9500us, not 9.5ms)");
	if (*why)
		return FALSE;
	if (!*end) {
		if (v == 0) {
			*out = 0;
			return TRUE;
		}
		*why = "a number without a unit";
		return FALSE;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(time_units); i++) {
		if (!g_ascii_strcasecmp(end, time_units[i].name)) {
			*why = scale(v, time_units[i].ns, &v);
			if (*why)
				return FALSE;
			*out = v;
			return TRUE;
		}
	}
	*why = "";
	return FALSE;
}

gboolean wbsim_param_parse_count(const char *text, uint64_t *out,
				 const char **why)
{
	const char *end;
	uint64_t v;

	*why = read_whole(text, &v, &end, "a fraction: expected a whole number");
	if (!*why && *end)
		*why = "";
	if (*why)
		return FALSE;
	*out = v;
	return TRUE;
}

gboolean wbsim_param_parse_bool(const char *text, gboolean *out,
				const char **why)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };

	for (size_t i = 0; i < G_N_ELEMENTS(yes); i++) {
		if (!g_ascii_strcasecmp(text, yes[i])) {
			*out = TRUE;
			*why = NULL;
			return TRUE;
		}
		if (!g_ascii_strcasecmp(text, no[i])) {
			*out = FALSE;
			*why = NULL;
			return TRUE;
		}
	}
	*why = "";
	return FALSE;
}

const char *wbsim_param_expected(enum wbsim_param_type type)
{
	switch (type) {
	case WBSIM_PARAM_UINT:
		return "a non-negative integer";
	case WBSIM_PARAM_BOOL:
		return "a boolean (true/false, yes/no, on/off, 1/0)";
	case WBSIM_PARAM_SIZE:
		return "a size in bytes (suffixes k, m, g, t, p are powers of 1024)";
	case WBSIM_PARAM_TIME:
		return "a time with a unit (ns, us, ms, s, m, h)";
	case WBSIM_PARAM_RATE:
		return "a rate in bytes per second (a size, optionally "
		       "followed by /s: 500m/s)";
	case WBSIM_PARAM_DOUBLE:
		return "a number";
	case WBSIM_PARAM_STRING:
		return "a text";
	}
	return "a value";
}

char *wbsim_param_explain(enum wbsim_param_type type, const char *why)
{
	if (why && *why)
		return g_strdup_printf("%s: expected %s", why,
				       wbsim_param_expected(type));
	return g_strdup_printf("expected %s", wbsim_param_expected(type));
}

gboolean wbsim_param_parse_value(enum wbsim_param_type type, const char *text,
				 void *out, const char **why)
{
	*why = NULL;
	switch (type) {
	case WBSIM_PARAM_UINT:
		return wbsim_param_parse_count(text, out, why);
	case WBSIM_PARAM_BOOL:
		return wbsim_param_parse_bool(text, out, why);
	case WBSIM_PARAM_SIZE:
		return wbsim_param_parse_size(text, out, why);
	case WBSIM_PARAM_TIME:
		return wbsim_param_parse_time(text, out, why);
	case WBSIM_PARAM_RATE:
		return wbsim_param_parse_rate(text, out, why);
	case WBSIM_PARAM_DOUBLE: {
		char *end;
		double v = g_ascii_strtod(text, &end);

		if (end == text || *end != '\0' || !isfinite(v)) {
			*why = "";
			return FALSE;
		}
		*(double *)out = v;
		return TRUE;
	}
	case WBSIM_PARAM_STRING:
		g_free(*(char **)out);
		*(char **)out = g_strdup(text);
		return TRUE;
	}
	*why = "";
	return FALSE;
}

/*
 * Bound @v of row @p as text, in the unit of its type ("4096B"); a count
 * also with its unit when @unit ("65536 requests").
 */
static char *format_bound(const struct wbsim_param *p, double v, gboolean unit)
{
	uint64_t u = (uint64_t)v;
	g_autofree char *num = p->type == WBSIM_PARAM_DOUBLE ?
		wbsim_param_format_value(p->type, &v) :
		wbsim_param_format_value(p->type, &u);

	if (unit && p->unit && (p->type == WBSIM_PARAM_UINT || p->type == WBSIM_PARAM_DOUBLE))
		return g_strdup_printf("%s %s", num, p->unit);
	return g_steal_pointer(&num);
}

/* Whether row @p has a default of "auto" and @text is "auto". */
static gboolean is_auto(const struct wbsim_param *p, const char *text)
{
	return p->def && !g_ascii_strcasecmp(p->def, "auto") &&
	       !g_ascii_strcasecmp(text, "auto") &&
	       wbsim_param_field_size(p->type) == sizeof(uint64_t);
}

gboolean wbsim_param_apply(const struct wbsim_param *p, void *base,
			   const char *text, const char *owner,
			   const char *file, unsigned int line, GError **error)
{
	g_autofree char *where = wbsim_param_where(file, line);
	void *field = (char *)base + p->offset;
	const char *why;
	union {
		uint64_t u;
		gboolean b;
		double d;
		char *str;
	} tmp = { 0 };
	double v;

	if (!text)
		text = "";
	if (p->type == WBSIM_PARAM_STRING) {
		g_free(*(char **)field);
		*(char **)field = g_strdup(text);
		return TRUE;
	}
	if (is_auto(p, text)) {
		*(uint64_t *)field = WBSIM_PARAM_AUTO;
		return TRUE;
	}
	if (!wbsim_param_parse_value(p->type, text, &tmp, &why)) {
		g_autofree char *explained = wbsim_param_explain(p->type, why);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s%s %s: invalid value '%s': %s",
			    where, owner, p->name, text, explained);
		return FALSE;
	}
	v = wbsim_param_as_double(p->type, &tmp);
	if (v < p->min || (p->max > 0 && v > p->max)) {
		g_autofree char *lo = format_bound(p, p->min, p->max <= 0);
		g_autofree char *hi = p->max > 0 ? format_bound(p, p->max, TRUE) : NULL;

		if (hi)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s%s %s: value '%s' out of range: expected %s to %s",
				    where, owner, p->name, text, lo, hi);
		else
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s%s %s: value '%s' out of range: expected at least %s",
				    where, owner, p->name, text, lo);
		return FALSE;
	}
	switch (p->type) {
	case WBSIM_PARAM_BOOL:
		*(gboolean *)field = tmp.b;
		break;
	case WBSIM_PARAM_DOUBLE:
		*(double *)field = tmp.d;
		break;
	default:
		*(uint64_t *)field = tmp.u;
		break;
	}
	return TRUE;
}

const struct wbsim_param *wbsim_param_find(const struct wbsim_param *table,
					   const char *key)
{
	for (const struct wbsim_param *p = table; p && p->name; p++)
		if (strcmp(p->name, key) == 0)
			return p;
	return NULL;
}

void wbsim_param_append_names(GString *out, const struct wbsim_param *table)
{
	for (const struct wbsim_param *p = table; p && p->name; p++)
		g_string_append_printf(out, "%s%s", out->len ? ", " : "", p->name);
}

void wbsim_param_set_unknown_key(GError **error, const char *owner,
				 const char *key, const char *names,
				 const char *file, unsigned int line)
{
	g_autofree char *where = wbsim_param_where(file, line);

	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
		    "%s%s unknown key '%s': expected one of %s",
		    where, owner, key, names);
}

gboolean wbsim_param_set(const struct wbsim_param *table, void *base,
			 const char *key, const char *text, const char *owner,
			 const char *file, unsigned int line, GError **error)
{
	const struct wbsim_param *p = wbsim_param_find(table, key);
	g_autoptr(GString) names = NULL;

	if (p)
		return wbsim_param_apply(p, base, text, owner, file, line, error);
	names = g_string_new(NULL);
	wbsim_param_append_names(names, table);
	wbsim_param_set_unknown_key(error, owner, key, names->str, file, line);
	return FALSE;
}

gboolean wbsim_param_apply_defaults(const struct wbsim_param *table, void *base,
				    const char *owner, GError **error)
{
	for (const struct wbsim_param *p = table; p && p->name; p++)
		if (p->def && !wbsim_param_apply(p, base, p->def, owner,
						 "(default)", 0, error))
			return FALSE;
	return TRUE;
}

size_t wbsim_param_field_size(enum wbsim_param_type type)
{
	switch (type) {
	case WBSIM_PARAM_BOOL:
		return sizeof(gboolean);
	case WBSIM_PARAM_DOUBLE:
		return sizeof(double);
	case WBSIM_PARAM_STRING:
		return sizeof(char *);
	case WBSIM_PARAM_UINT:
	case WBSIM_PARAM_SIZE:
	case WBSIM_PARAM_TIME:
	case WBSIM_PARAM_RATE:
		break;
	}
	return sizeof(uint64_t);
}

uint64_t wbsim_param_get_uint(const struct wbsim_param *p, const void *base)
{
	const void *field = (const char *)base + p->offset;

	switch (p->type) {
	case WBSIM_PARAM_BOOL:
		return *(const gboolean *)field ? 1 : 0;
	case WBSIM_PARAM_DOUBLE:
		return (uint64_t)*(const double *)field;
	case WBSIM_PARAM_STRING:
		return 0;
	case WBSIM_PARAM_UINT:
	case WBSIM_PARAM_SIZE:
	case WBSIM_PARAM_TIME:
	case WBSIM_PARAM_RATE:
		break;
	}
	return *(const uint64_t *)field;
}

const char *wbsim_param_unit(const struct wbsim_param *p)
{
	if (p->unit)
		return p->unit;
	switch (p->type) {
	case WBSIM_PARAM_SIZE:
		return "bytes";
	case WBSIM_PARAM_TIME:
		return "ns";
	case WBSIM_PARAM_RATE:
		return "bytes/s";
	case WBSIM_PARAM_BOOL:
		return "bool";
	case WBSIM_PARAM_STRING:
		return "text";
	case WBSIM_PARAM_UINT:
	case WBSIM_PARAM_DOUBLE:
		break;
	}
	return NULL;
}

double wbsim_param_as_double(enum wbsim_param_type type, const void *field)
{
	switch (type) {
	case WBSIM_PARAM_UINT:
	case WBSIM_PARAM_SIZE:
	case WBSIM_PARAM_TIME:
	case WBSIM_PARAM_RATE:
		return (double)*(const uint64_t *)field;
	case WBSIM_PARAM_BOOL:
		return *(const gboolean *)field ? 1 : 0;
	case WBSIM_PARAM_DOUBLE:
		return *(const double *)field;
	case WBSIM_PARAM_STRING:
		break;
	}
	return 0;
}

char *wbsim_param_format_value(enum wbsim_param_type type, const void *field)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	switch (type) {
	case WBSIM_PARAM_UINT:
		return g_strdup_printf("%" G_GUINT64_FORMAT, *(const guint64 *)field);
	case WBSIM_PARAM_SIZE:
		return g_strdup_printf("%" G_GUINT64_FORMAT "B", *(const guint64 *)field);
	case WBSIM_PARAM_TIME:
		return g_strdup_printf("%" G_GUINT64_FORMAT "ns", *(const guint64 *)field);
	case WBSIM_PARAM_RATE:
		return g_strdup_printf("%" G_GUINT64_FORMAT "B/s", *(const guint64 *)field);
	case WBSIM_PARAM_BOOL:
		return g_strdup(*(const gboolean *)field ? "1" : "0");
	case WBSIM_PARAM_DOUBLE:
		return g_strdup(g_ascii_dtostr(buf, sizeof(buf), *(const double *)field));
	case WBSIM_PARAM_STRING:
		return g_strdup(*(char *const *)field ? *(char *const *)field : "");
	}
	return g_strdup("");
}

char *wbsim_param_describe(const struct wbsim_param *p)
{
	GString *s = g_string_new(wbsim_param_expected(p->type));
	const char *unit = wbsim_param_unit(p);

	if (p->type != WBSIM_PARAM_BOOL && p->type != WBSIM_PARAM_STRING &&
	    (p->min > 0 || p->max > 0)) {
		g_autofree char *lo = format_bound(p, p->min, FALSE);
		g_autofree char *hi = p->max > 0 ? format_bound(p, p->max, FALSE) : NULL;

		if (hi)
			g_string_append_printf(s, " from %s to %s", lo, hi);
		else
			g_string_append_printf(s, " of at least %s", lo);
	}
	if (unit)
		g_string_append_printf(s, "; unit: %s", unit);
	return g_string_free(s, FALSE);
}

char *wbsim_param_where(const char *file, unsigned int line)
{
	if (file && line)
		return g_strdup_printf("%s:%u: ", file, line);
	if (file)
		return g_strdup_printf("%s: ", file);
	return g_strdup("");
}
