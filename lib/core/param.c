/* SPDX-License-Identifier: MIT */
/*
 * core/param.c - the one parameter grammar of the simulator: sizes
 * (bytes), rates (bytes/s), times (ns), counts, percentages, centiseconds,
 * booleans, numbers, names from a list and file names, as every section of
 * a scenario, --set, --sweep, the device presets, the filesystem options
 * and the CPU cost table write them; their range checks, printing and
 * description, and the "did you mean" of names. Locale-independent
 * (g_ascii_*), exact: integers only.
 */
#include <math.h>
#include <string.h>

#include <wbsim/error.h>
#include "core/edit-distance.h"
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

/*
 * A percentage as the kernel's *_ratio sysctls take it: a whole number
 * from 0 to 100; a trailing '%' is allowed. No reason is given: the
 * description of the kind says all.
 */
gboolean wbsim_param_parse_percent(const char *text, uint64_t *out,
				   const char **why)
{
	size_t n = strlen(text);
	g_autofree char *digits = g_strndup(text, n && text[n - 1] == '%' ? n - 1 : n);
	uint64_t v;

	if (wbsim_param_parse_count(digits, &v, why) && v <= 100) {
		*out = v;
		return TRUE;
	}
	*why = "";
	return FALSE;
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
	case WBSIM_PARAM_PERCENT:
		return "a percentage, an integer";
	case WBSIM_PARAM_CENTISECS:
		return "an integer number of centiseconds (1/100 s)";
	case WBSIM_PARAM_ENUM:
	case WBSIM_PARAM_NAME:
		return "one of the names";
	case WBSIM_PARAM_PATH:
		return "a file name";
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
	case WBSIM_PARAM_PERCENT:
		return wbsim_param_parse_percent(text, out, why);
	case WBSIM_PARAM_CENTISECS:
		return wbsim_param_parse_count(text, out, why);
	case WBSIM_PARAM_ENUM:
	case WBSIM_PARAM_NAME:
	case WBSIM_PARAM_PATH:
		break;	/* they need their row: wbsim_param_parse_row() */
	}
	*why = "";
	return FALSE;
}

gboolean wbsim_param_parse(enum wbsim_param_type type, const char *text,
			   void *out, GError **error)
{
	const char *why;
	g_autofree char *msg = NULL;

	if (wbsim_param_parse_value(type, text, out, &why))
		return TRUE;
	msg = wbsim_param_explain(type, why);
	g_set_error_literal(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE, msg);
	return FALSE;
}

/* Whether row @p has a default of "auto" and @text is "auto". */
static gboolean is_auto(const struct wbsim_param *p, const char *text)
{
	return p->def && !g_ascii_strcasecmp(p->def, "auto") &&
	       !g_ascii_strcasecmp(text, "auto") &&
	       wbsim_param_field_size(p->type) == sizeof(uint64_t);
}

void wbsim_param_value_error(GError **error, gint code, const char *file,
			     unsigned int line, const char *owner, const char *key,
			     const char *text, const char *reason)
{
	g_autofree char *where = wbsim_param_where(file, line);

	g_set_error(error, WBSIM_ERROR, code, "%s%s %s = %s: %s", where, owner, key,
		    text, reason);
}

gboolean wbsim_param_apply(const struct wbsim_param *p, void *base,
			   const char *text, const char *owner,
			   const char *file, unsigned int line, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (!text)
		text = "";
	if (is_auto(p, text)) {
		*(uint64_t *)((char *)base + p->offset) = WBSIM_PARAM_AUTO;
		return TRUE;
	}
	/* the row's words, zero, names and range, as a scenario key's */
	if (wbsim_param_parse_row(p, text, NULL, (char *)base + p->offset, &local))
		return TRUE;
	wbsim_param_value_error(error, local->code, file, line, owner, p->name, text,
				local->message);
	return FALSE;
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
		if (!(p->flags & WBSIM_PARAM_COST))	/* set in [costs] */
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

/*
 * Keys renamed, by section: refused with their new name, never read as
 * aliases, so a file says what it sets in the words --list-keys prints.
 * Every CPU cost is WORK_ns, the CPU time of one WORK (issue 37): the
 * filesystems' [costs] rows lost their _cpu. The loop device's worker CPU
 * (once request_cpu .., then worker_*_ns in [device]) is host CPU and a
 * row of the host profile's [costs] (block/dev-loop.c).
 */
#define WORK_NS		"a CPU cost is WORK_ns, the CPU time of one WORK"
#define COST(old, now)	{ "costs", old, now, NULL, WORK_NS }
#define LOOP(old, now)	{ "device", old, now, "costs", \
			  "the loop worker's CPU is the host's: a row of its profile" }

static const struct wbsim_param_renamed renamed_keys[] = {
	COST("xfs.alloc_cpu_ns", "xfs.alloc_ns"),
	COST("xfs.btree_level_cpu_ns", "xfs.btree_level_ns"),
	COST("xfs.map_cpu_ns", "xfs.map_ns"),
	COST("xfs.write_cpu_ns", "xfs.write_ns"),
	COST("xfs.iext_level_cpu_ns", "xfs.iext_level_ns"),
	COST("xfs.delalloc_cpu_ns", "xfs.delalloc_ns"),
	COST("xfs.end_io_cpu_ns", "xfs.end_io_ns"),
	COST("xfs.update_time_cpu_ns", "xfs.update_time_ns"),
	COST("ext4.alloc_cpu_ns", "ext4.alloc_ns"),
	COST("ext4.pa_cpu_ns", "ext4.pa_ns"),
	COST("ext4.map_cpu_ns", "ext4.map_ns"),
	COST("ext4.split_cpu_ns", "ext4.split_ns"),
	COST("ext4.write_cpu_ns", "ext4.write_ns"),
	COST("ext4.write_miss_cpu_ns", "ext4.write_miss_ns"),
	COST("ext4.end_io_cpu_ns", "ext4.end_io_ns"),
	COST("ext4.update_time_cpu_ns", "ext4.update_time_ns"),
	COST("f2fs.alloc_cpu_ns", "f2fs.alloc_ns"),
	COST("f2fs.map_cpu_ns", "f2fs.map_ns"),
	COST("f2fs.write_cpu_ns", "f2fs.write_ns"),
	LOOP("request_cpu", "loop_request_ns"),
	LOOP("page_copy_cpu", "loop_page_copy_ns"),
	LOOP("page_alloc_cpu", "loop_page_alloc_ns"),
	LOOP("worker_request_ns", "loop_request_ns"),
	LOOP("worker_page_copy_ns", "loop_page_copy_ns"),
	LOOP("worker_page_alloc_ns", "loop_page_alloc_ns"),
};

const struct wbsim_param_renamed *wbsim_param_renamed_keys(size_t *n)
{
	*n = G_N_ELEMENTS(renamed_keys);
	return renamed_keys;
}

const struct wbsim_param_renamed *wbsim_param_renamed_entry(const char *section,
							    const char *key)
{
	for (size_t i = 0; i < G_N_ELEMENTS(renamed_keys); i++)
		if (strcmp(renamed_keys[i].section, section) == 0 &&
		    strcmp(renamed_keys[i].old, key) == 0)
			return &renamed_keys[i];
	return NULL;
}

const char *wbsim_param_renamed(const char *section, const char *key)
{
	const struct wbsim_param_renamed *r = wbsim_param_renamed_entry(section, key);

	return r ? r->now : NULL;
}

/* What the message says after "KEY = TEXT: " of the old key @r. */
static char *renamed_reason(const struct wbsim_param_renamed *r, const char *text)
{
	if (r->moved_to)
		return g_strdup_printf("the key moved to [%s] as %s (%s): expected [%s] %s = %s",
				       r->moved_to, r->now, r->why, r->moved_to, r->now, text);
	return g_strdup_printf("the key was renamed to %s (%s): expected %s = %s",
			       r->now, r->why, r->now, text);
}

gboolean wbsim_param_check_renamed(GError **error, const char *section,
				   const char *owner, const char *key,
				   const char *text, const char *file,
				   unsigned int line)
{
	const struct wbsim_param_renamed *r = wbsim_param_renamed_entry(section, key);
	g_autofree char *reason = NULL;

	if (!r)
		return TRUE;
	reason = renamed_reason(r, text ? text : "VALUE");
	wbsim_param_value_error(error, WBSIM_ERROR_UNKNOWN_KEY, file, line, owner, key,
				text ? text : "", reason);
	return FALSE;
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
	case WBSIM_PARAM_NAME:
	case WBSIM_PARAM_PATH:
		return sizeof(char *);
	case WBSIM_PARAM_ENUM:
		return sizeof(unsigned int);
	case WBSIM_PARAM_UINT:
	case WBSIM_PARAM_SIZE:
	case WBSIM_PARAM_TIME:
	case WBSIM_PARAM_RATE:
	case WBSIM_PARAM_PERCENT:
	case WBSIM_PARAM_CENTISECS:
		break;
	}
	return sizeof(uint64_t);
}

gboolean wbsim_param_is_text(enum wbsim_param_type type)
{
	return type == WBSIM_PARAM_STRING || type == WBSIM_PARAM_NAME ||
	       type == WBSIM_PARAM_PATH;
}

gboolean wbsim_param_needs_row(enum wbsim_param_type type)
{
	return type == WBSIM_PARAM_PERCENT || type == WBSIM_PARAM_CENTISECS ||
	       type == WBSIM_PARAM_ENUM || type == WBSIM_PARAM_NAME ||
	       type == WBSIM_PARAM_PATH;
}

void wbsim_param_free_field(const struct wbsim_param *p, void *base)
{
	if (wbsim_param_is_text(p->type))
		g_clear_pointer((char **)((char *)base + p->offset), g_free);
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
	case WBSIM_PARAM_NAME:
	case WBSIM_PARAM_PATH:
		return 0;
	case WBSIM_PARAM_ENUM:
		return *(const unsigned int *)field;
	case WBSIM_PARAM_UINT:
	case WBSIM_PARAM_SIZE:
	case WBSIM_PARAM_TIME:
	case WBSIM_PARAM_RATE:
	case WBSIM_PARAM_PERCENT:
	case WBSIM_PARAM_CENTISECS:
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
	case WBSIM_PARAM_PERCENT:
		return "%";
	case WBSIM_PARAM_CENTISECS:
		return "1/100 s";
	case WBSIM_PARAM_ENUM:
	case WBSIM_PARAM_NAME:
		return "name";
	case WBSIM_PARAM_PATH:
		return "file name";
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
	case WBSIM_PARAM_PERCENT:
	case WBSIM_PARAM_CENTISECS:
		return (double)*(const uint64_t *)field;
	case WBSIM_PARAM_BOOL:
		return *(const gboolean *)field ? 1 : 0;
	case WBSIM_PARAM_DOUBLE:
		return *(const double *)field;
	case WBSIM_PARAM_ENUM:
		return *(const unsigned int *)field;
	case WBSIM_PARAM_STRING:
	case WBSIM_PARAM_NAME:
	case WBSIM_PARAM_PATH:
		break;
	}
	return 0;
}

char *wbsim_param_format_value(enum wbsim_param_type type, const void *field)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	switch (type) {
	case WBSIM_PARAM_UINT:
	case WBSIM_PARAM_PERCENT:
	case WBSIM_PARAM_CENTISECS:
		return g_strdup_printf("%" G_GUINT64_FORMAT, *(const guint64 *)field);
	case WBSIM_PARAM_ENUM:
		return g_strdup_printf("%u", *(const unsigned int *)field);
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
	case WBSIM_PARAM_NAME:
	case WBSIM_PARAM_PATH:
		return g_strdup(*(char *const *)field ? *(char *const *)field : "");
	}
	return g_strdup("");
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

char *wbsim_format_time(uint64_t ns)
{
	/* units in decreasing size (no d: the printed form predates it) */
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "h", 3600000000000ull }, { "m", 60000000000ull },
		{ "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 },
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

/* Whether a @type value is a uint64_t number (its row's @names allowed). */
static gboolean is_number(enum wbsim_param_type type)
{
	return type == WBSIM_PARAM_UINT || type == WBSIM_PARAM_SIZE ||
	       type == WBSIM_PARAM_TIME || type == WBSIM_PARAM_RATE ||
	       type == WBSIM_PARAM_PERCENT || type == WBSIM_PARAM_CENTISECS;
}

/*
 * A size as a bound of a range: with its binary suffix where that reads
 * better ("64m", "8k"), in plain bytes where the bound is a decimal one
 * ("1000000000000000000", not "976562500000000k").
 */
static char *format_size_bound(uint64_t bytes)
{
	g_autofree char *text = wbsim_format_size(bytes);

	if (strlen(text) > 5)
		return g_strdup_printf("%" G_GUINT64_FORMAT, bytes);
	return g_steal_pointer(&text);
}

/*
 * A number of row @p's type in the form a scenario line writes it
 * (@bound: a bound of its range, see format_size_bound()).
 */
static char *format_number(const struct wbsim_param *p, double v, gboolean bound)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];
	uint64_t u = (uint64_t)v;

	switch (p->type) {
	case WBSIM_PARAM_SIZE:
		return bound ? format_size_bound(u) : wbsim_format_size(u);
	case WBSIM_PARAM_RATE: {
		g_autofree char *size = bound ? format_size_bound(u)
					      : wbsim_format_size(u);

		return g_strdup_printf("%s/s", size);
	}
	case WBSIM_PARAM_TIME:
		return wbsim_format_time(u);
	case WBSIM_PARAM_DOUBLE:
		return g_strdup(g_ascii_dtostr(buf, sizeof(buf), v));
	default:
		return g_strdup_printf("%" G_GUINT64_FORMAT, u);
	}
}

char *wbsim_param_format_canonical(const struct wbsim_param *p,
				   const void *field)
{
	uint64_t v;

	switch (p->type) {
	case WBSIM_PARAM_BOOL:
		return g_strdup(*(const gboolean *)field ? "true" : "false");
	case WBSIM_PARAM_ENUM:
		return g_strdup(p->names[*(const unsigned int *)field]);
	case WBSIM_PARAM_DOUBLE:
		return format_number(p, *(const double *)field, FALSE);
	case WBSIM_PARAM_STRING:
	case WBSIM_PARAM_NAME:
	case WBSIM_PARAM_PATH:
		return g_strdup(*(char *const *)field ? *(char *const *)field : "");
	default:
		break;
	}
	v = *(const uint64_t *)field;
	for (size_t i = 0; p->names && p->names[i]; i++)
		if (v == WBSIM_PARAM_SPECIAL(i))
			return g_strdup(p->names[i]);
	if (v == WBSIM_PARAM_AUTO && p->def && !g_ascii_strcasecmp(p->def, "auto"))
		return g_strdup("auto");
	return format_number(p, (double)v, FALSE);
}

/* " from 1 to 4096", " of at least 8k", " equal to 4k", or nothing. */
static void append_range(GString *s, const struct wbsim_param *p)
{
	g_autofree char *lo = format_number(p, p->min, TRUE);
	g_autofree char *hi = format_number(p, p->max, TRUE);

	if (p->flags & WBSIM_PARAM_ZERO_OR_RANGE)
		g_string_append(s, " equal to 0 or");
	if (p->min <= 0 && p->max <= 0)
		return;		/* no range */
	if (p->min == p->max)
		g_string_append_printf(s, " equal to %s", lo);
	else if (p->max <= 0)
		g_string_append_printf(s, " of at least %s", lo);
	else
		g_string_append_printf(s, " from %s to %s", lo, hi);
}

static void append_names(GString *s, const char *const *names)
{
	for (size_t i = 0; names && names[i]; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", names[i]);
}

char *wbsim_param_describe(const struct wbsim_param *p)
{
	GString *s = g_string_new(NULL);
	char **names;

	switch (p->type) {
	case WBSIM_PARAM_BOOL:
		g_string_append(s, wbsim_param_expected(p->type));
		break;
	case WBSIM_PARAM_UINT:
		/* "non-negative" goes without saying next to a range */
		g_string_append(s, p->min > 0 || p->max > 0 ? "an integer"
				   : wbsim_param_expected(p->type));
		break;
	case WBSIM_PARAM_STRING:
		g_string_append(s, "text");
		break;
	case WBSIM_PARAM_ENUM:
		g_string_append(s, "one of: ");
		append_names(s, p->names);
		break;
	case WBSIM_PARAM_NAME:
		names = p->names_fn();
		g_string_append(s, "one of: ");
		append_names(s, (const char *const *)names);
		g_strfreev(names);
		break;
	default:
		g_string_append(s, wbsim_param_expected(p->type));
		break;
	}
	if (is_number(p->type) || p->type == WBSIM_PARAM_DOUBLE)
		append_range(s, p);
	if (is_number(p->type) && p->names) {
		g_string_append(s, ", or one of: ");
		append_names(s, p->names);
	}
	return g_string_free(s, FALSE);
}

/* Fail with "expected <description>", and a suggestion if one is near. */
static gboolean set_expected(const struct wbsim_param *p, const char *why,
			     const char *suggestion, GError **error)
{
	g_autofree char *desc = wbsim_param_describe(p);
	g_autofree char *near = suggestion ?
		g_strdup_printf(" (did you mean %s?)", suggestion) : NULL;

	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE, "%s%sexpected %s%s",
		    why ? why : "", why && *why ? ": " : "", desc, near ? near : "");
	return FALSE;
}

/* @text as one of @names into *@index, or fail with the nearest name. */
static gboolean find_name(const struct wbsim_param *p, const char *const *names,
			  const char *text, size_t *index, GError **error)
{
	for (size_t i = 0; names[i]; i++) {
		if (strcmp(text, names[i]) == 0) {
			*index = i;
			return TRUE;
		}
	}
	return set_expected(p, NULL, wbsim_closest_name(text, names), error);
}

gboolean wbsim_param_parse_row(const struct wbsim_param *p, const char *text,
			       const char *base_dir, void *field, GError **error)
{
	const char *why = "";
	union {
		uint64_t u;
		gboolean b;
		double d;
	} v = { 0 };
	size_t i;

	for (i = 0; is_number(p->type) && p->names && p->names[i]; i++) {
		if (strcmp(text, p->names[i]) == 0) {
			*(uint64_t *)field = WBSIM_PARAM_SPECIAL(i);
			return TRUE;
		}
	}
	switch (p->type) {
	case WBSIM_PARAM_ENUM:
		if (!find_name(p, p->names, text, &i, error))
			return FALSE;
		*(unsigned int *)field = (unsigned int)i;
		return TRUE;
	case WBSIM_PARAM_NAME: {
		g_auto(GStrv) names = p->names_fn();

		if (!find_name(p, (const char *const *)names, text, &i, error))
			return FALSE;
		g_free(*(char **)field);
		*(char **)field = g_strdup(text);
		return TRUE;
	}
	case WBSIM_PARAM_STRING:
		g_free(*(char **)field);
		*(char **)field = g_strdup(text);
		return TRUE;
	case WBSIM_PARAM_PATH:
		if (!*text)
			return set_expected(p, NULL, NULL, error);
		g_free(*(char **)field);
		/* relative to the directory of the file that names it */
		if (base_dir && !g_path_is_absolute(text) && strcmp(base_dir, ".") != 0)
			*(char **)field = g_build_filename(base_dir, text, NULL);
		else
			*(char **)field = g_strdup(text);
		return TRUE;
	case WBSIM_PARAM_BOOL:
		if (!wbsim_param_parse_bool(text, &v.b, &why))
			return set_expected(p, NULL, NULL, error);
		*(gboolean *)field = v.b;
		return TRUE;
	default:
		break;
	}
	if (!wbsim_param_parse_value(p->type, text, &v, &why))
		return set_expected(p, why, p->names ? wbsim_closest_name(text, p->names)
						       : NULL, error);
	if (p->type == WBSIM_PARAM_DOUBLE) {
		if (v.d < p->min || (p->max > 0 && v.d > p->max))
			return set_expected(p, NULL, NULL, error);
		*(double *)field = v.d;
		return TRUE;
	}
	if (((double)v.u < p->min || (p->max > 0 && (double)v.u > p->max)) &&
	    !(v.u == 0 && (p->flags & WBSIM_PARAM_ZERO_OR_RANGE)))
		return set_expected(p, NULL, NULL, error);
	*(uint64_t *)field = v.u;
	return TRUE;
}

const char *wbsim_closest_name(const char *word, const char *const *names)
{
	size_t len = strlen(word);
	size_t limit = len <= 3 ? 1 : len <= 8 ? 2 : 3;
	size_t best = SIZE_MAX;
	const char *found = NULL;

	/* ties go to the earlier name: deterministic, table order */
	for (size_t i = 0; names && names[i]; i++) {
		size_t dist = wbsim_edit_distance(word, names[i], true);

		if (dist < best) {
			best = dist;
			found = names[i];
		}
	}
	return best <= limit ? found : NULL;
}

char *wbsim_param_where(const char *file, unsigned int line)
{
	if (file && line)
		return g_strdup_printf("%s:%u: ", file, line);
	if (file)
		return g_strdup_printf("%s: ", file);
	return g_strdup("");
}
