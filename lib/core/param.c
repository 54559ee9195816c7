/* SPDX-License-Identifier: MIT */
/*
 * core/param.c - parsing and printing of parameters with units (device
 * presets, the CPU cost table):
 * sizes (bytes), times (ns), rates (bytes/s), counts, booleans, numbers.
 * Locale-independent (g_ascii_*), exact for integers.
 */
#include <math.h>
#include <string.h>

#include "core/param.h"

struct unit {
	const char *suffix;
	double mult;
};

static const struct unit size_units[] = {
	{ "", 1 },
	{ "B", 1 },
	{ "k", 1024.0 }, { "K", 1024.0 }, { "KiB", 1024.0 }, { "KB", 1e3 },
	{ "m", 1048576.0 }, { "M", 1048576.0 }, { "MiB", 1048576.0 }, { "MB", 1e6 },
	{ "g", 1073741824.0 }, { "G", 1073741824.0 }, { "GiB", 1073741824.0 },
	{ "GB", 1e9 },
	{ "t", 1099511627776.0 }, { "T", 1099511627776.0 },
	{ "TiB", 1099511627776.0 }, { "TB", 1e12 },
	{ NULL, 0 },
};

static const struct unit time_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	{ NULL, 0 },
};

/* Split "12.5MiB" into a number and a suffix looked up in @units. */
static gboolean parse_with_units(const char *text, const struct unit *units,
				 double *out)
{
	char *end;
	double v;

	while (g_ascii_isspace(*text))
		text++;
	if (!g_ascii_isdigit(*text) && *text != '.')
		return FALSE;
	v = g_ascii_strtod(text, &end);
	if (end == text || !isfinite(v) || v < 0)
		return FALSE;
	while (g_ascii_isspace(*end))
		end++;
	for (const struct unit *u = units; u->suffix; u++) {
		size_t n = strlen(u->suffix);

		if (strncmp(end, u->suffix, n) == 0) {
			const char *rest = end + n;

			while (g_ascii_isspace(*rest))
				rest++;
			if (*rest == '\0') {
				*out = v * u->mult;
				return TRUE;
			}
		}
	}
	return FALSE;
}

static gboolean to_u64(double v, uint64_t *out)
{
	if (v > 1.8e19)
		return FALSE;
	*out = (uint64_t)llround(v);
	return TRUE;
}

gboolean wbsim_param_parse_value(enum wbsim_param_type type, const char *text,
			       void *out, const char **expected)
{
	double v;

	switch (type) {
	case WBSIM_PARAM_UINT: {
		char *end;
		guint64 u;

		*expected = "an unsigned integer";
		if (!g_ascii_isdigit(*text))
			return FALSE;
		u = g_ascii_strtoull(text, &end, 10);
		if (*end != '\0')
			return FALSE;
		*(uint64_t *)out = u;
		return TRUE;
	}
	case WBSIM_PARAM_BOOL:
		*expected = "a boolean (0, 1, true, false, yes, no, on, off)";
		if (!g_ascii_strcasecmp(text, "1") || !g_ascii_strcasecmp(text, "true") ||
		    !g_ascii_strcasecmp(text, "yes") || !g_ascii_strcasecmp(text, "on")) {
			*(gboolean *)out = TRUE;
			return TRUE;
		}
		if (!g_ascii_strcasecmp(text, "0") || !g_ascii_strcasecmp(text, "false") ||
		    !g_ascii_strcasecmp(text, "no") || !g_ascii_strcasecmp(text, "off")) {
			*(gboolean *)out = FALSE;
			return TRUE;
		}
		return FALSE;
	case WBSIM_PARAM_SIZE:
		*expected = "a size in bytes (a number with an optional suffix "
			    "K, KiB, KB, M, MiB, MB, G, GiB, GB, T, TiB, TB)";
		return parse_with_units(text, size_units, &v) && to_u64(v, out);
	case WBSIM_PARAM_TIME:
		*expected = "a time with a unit (ns, us, ms, s)";
		return parse_with_units(text, time_units, &v) && to_u64(v, out);
	case WBSIM_PARAM_RATE: {
		const char *slash = strstr(text, "/s");
		g_autofree char *num = NULL;

		*expected = "a rate in bytes per second (a size followed by /s, "
			    "e.g. 3800MB/s)";
		if (!slash || slash[2] != '\0')
			return FALSE;
		num = g_strndup(text, slash - text);
		return parse_with_units(num, size_units, &v) && to_u64(v, out);
	}
	case WBSIM_PARAM_DOUBLE: {
		char *end;

		*expected = "a number";
		v = g_ascii_strtod(text, &end);
		if (end == text || *end != '\0' || !isfinite(v))
			return FALSE;
		*(double *)out = v;
		return TRUE;
	}
	case WBSIM_PARAM_STRING:
		*expected = "a text";
		g_free(*(char **)out);
		*(char **)out = g_strdup(text);
		return TRUE;
	}
	return FALSE;
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

char *wbsim_param_where(const char *file, unsigned int line)
{
	if (file && line)
		return g_strdup_printf("%s:%u: ", file, line);
	if (file)
		return g_strdup_printf("%s: ", file);
	return g_strdup("");
}
