/* SPDX-License-Identifier: MIT */
/*
 * fio-value.c - fio's value syntax: sizes and their suffixes under
 * kb_base, times, ${VAR} and keyword substitution, and a small
 * recursive-descent evaluator for the arithmetic fio accepts in
 * parentheses ("size=(1+2)*1g") and, through bc(1), after keyword
 * substitution ("numjobs=$ncpus*2").
 *
 * fio itself is lax (it reads "4kq" as 4k and "1.5g" as 1g); here an
 * unknown suffix or trailing junk is an error with a hint instead.
 */
#include <stdarg.h>
#include <string.h>

#include "fio/fio-value.h"

#define USEC_PER_SEC 1000000LL

/* ------------------------------------------------------------------------ */
/* Suffixes                                                                 */

/*
 * Multiplier of a size suffix (already known to be letters or '%').
 * fio parse.c __get_mult_bytes(): with kb_base 1024, "k" is 1024 and the
 * IEC "KiB" is 1000 (inverted "to provide compatibility with old
 * scripts"); with kb_base 1000 both mean what they say.
 */
static gboolean size_suffix_mult(const char *suf, unsigned int kb_base,
				 int64_t *mult, gboolean *percent)
{
	static const char units[] = "kmgtp";
	int64_t base = kb_base, alt = kb_base == 1024 ? 1000 : 1024;
	char lower[8];
	size_t n = strlen(suf), i;
	const char *u;
	int pow;

	*percent = FALSE;
	if (n == 0 || (n == 1 && (suf[0] == 'b' || suf[0] == 'B'))) {
		*mult = 1;
		return TRUE;
	}
	if (n == 1 && suf[0] == '%') {
		*percent = TRUE;
		*mult = 1;
		return TRUE;
	}
	if (n > 3)
		return FALSE;
	for (i = 0; i < n; i++)
		lower[i] = g_ascii_tolower(suf[i]);
	lower[n] = '\0';
	u = strchr(units, lower[0]);
	if (!u || !lower[0])
		return FALSE;
	pow = (int)(u - units) + 1;
	if (n == 2 && lower[1] != 'b')
		return FALSE;
	if (n == 3) {
		if (lower[1] != 'i' || lower[2] != 'b')
			return FALSE;
		base = alt;
	}
	*mult = 1;
	while (pow--)
		*mult *= base;
	return TRUE;
}

/* Multiplier to microseconds of a time suffix (fio parse.c get_mult_time()). */
static gboolean time_suffix_mult(const char *suf, gboolean is_seconds,
				 int64_t *mult)
{
	static const struct {
		const char *s;
		int64_t mult;
	} tab[] = {
		{ "us", 1 }, { "usec", 1 },
		{ "ms", 1000 }, { "msec", 1000 },
		{ "s", USEC_PER_SEC },
		{ "m", 60 * USEC_PER_SEC },
		{ "h", 3600 * USEC_PER_SEC },
		{ "d", 86400 * USEC_PER_SEC },
	};
	size_t i;

	if (!*suf) {
		*mult = is_seconds ? USEC_PER_SEC : 1;
		return TRUE;
	}
	for (i = 0; i < G_N_ELEMENTS(tab); i++) {
		if (g_ascii_strcasecmp(suf, tab[i].s) == 0) {
			*mult = tab[i].mult;
			return TRUE;
		}
	}
	return FALSE;
}

/* Digits of a decimal or 0x-hex number; *end past them. FALSE if none. */
static gboolean read_number(const char *p, const char **end, int64_t *out,
			    char **why)
{
	guint64 v = 0;
	int base = 10, digits = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		int d;

		if (g_ascii_isdigit(*p))
			d = *p - '0';
		else if (base == 16 && g_ascii_isxdigit(*p))
			d = g_ascii_xdigit_value(*p);
		else
			break;
		if (v > (guint64)(INT64_MAX - d) / base) {
			*why = g_strdup("number does not fit in 64 bits");
			return FALSE;
		}
		v = v * base + d;
		digits++;
	}
	if (!digits) {
		*why = g_strdup(base == 16 ? "expected hex digits after 0x"
					   : "expected a number");
		return FALSE;
	}
	*end = p;
	*out = (int64_t)v;
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Expressions                                                              */

struct expr_parser {
	const char *p;
	enum wbsim_fio_expr_mode mode;
	char *why;
};

static gboolean expr_sum(struct expr_parser *ep, int64_t *out);

static void expr_skip_blanks(struct expr_parser *ep)
{
	while (*ep->p == ' ' || *ep->p == '\t')
		ep->p++;
}

static gboolean expr_fail(struct expr_parser *ep, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

static gboolean expr_fail(struct expr_parser *ep, const char *fmt, ...)
{
	va_list ap;

	if (!ep->why) {
		va_start(ap, fmt);
		ep->why = g_strdup_vprintf(fmt, ap);
		va_end(ap);
	}
	return FALSE;
}

/* number [suffix] | '(' sum ')' */
static gboolean expr_primary(struct expr_parser *ep, int64_t *out)
{
	const char *start, *end;
	char suf[16];
	int64_t v, mult;
	gboolean pct;
	size_t n;

	expr_skip_blanks(ep);
	if (*ep->p == '(') {
		ep->p++;
		if (!expr_sum(ep, out))
			return FALSE;
		expr_skip_blanks(ep);
		if (*ep->p != ')')
			return expr_fail(ep, "missing ')' at '%s'", ep->p);
		ep->p++;
		return TRUE;
	}
	if (!g_ascii_isdigit(*ep->p))
		return expr_fail(ep, "expected a number or '(' at '%s'",
				 *ep->p ? ep->p : "end of value");
	if (!read_number(ep->p, &end, &v, &ep->why))
		return FALSE;
	if (*end == '.')
		return expr_fail(ep, "fractional numbers are not supported at '%s'",
				 ep->p);
	start = end;
	while (g_ascii_isalpha(*end))
		end++;
	n = end - start;
	if (n >= sizeof(suf))
		return expr_fail(ep, "unknown suffix at '%s'", start);
	memcpy(suf, start, n);
	suf[n] = '\0';
	ep->p = end;
	switch (ep->mode) {
	case WBSIM_FIO_EXPR_PLAIN:
		if (n)
			return expr_fail(ep, "unexpected '%s' in arithmetic", suf);
		mult = 1;
		break;
	case WBSIM_FIO_EXPR_BYTES:
		/* inside parentheses fio uses 1024 for k and 1000 for KiB */
		if (!size_suffix_mult(suf, 1024, &mult, &pct) || pct)
			return expr_fail(ep, "unknown size suffix '%s' (expected k, m, g, t, p, optionally with b or iB)",
					 suf);
		break;
	default:
		if (!time_suffix_mult(suf, FALSE, &mult))
			return expr_fail(ep, "unknown time suffix '%s' (expected us, ms, s, m, h or d)",
					 suf);
		break;
	}
	if (__builtin_mul_overflow(v, mult, out))
		return expr_fail(ep, "value overflows 64 bits");
	return TRUE;
}

/* ['+'|'-'] unary | primary */
static gboolean expr_unary(struct expr_parser *ep, int64_t *out)
{
	expr_skip_blanks(ep);
	if (*ep->p == '-' || *ep->p == '+') {
		gboolean neg = *ep->p == '-';

		ep->p++;
		if (!expr_unary(ep, out))
			return FALSE;
		if (neg && __builtin_sub_overflow((int64_t)0, *out, out))
			return expr_fail(ep, "value overflows 64 bits");
		return TRUE;
	}
	return expr_primary(ep, out);
}

/* unary ['^' power]: right-associative */
static gboolean expr_power(struct expr_parser *ep, int64_t *out)
{
	int64_t base, exp, r = 1;

	if (!expr_unary(ep, &base))
		return FALSE;
	expr_skip_blanks(ep);
	if (*ep->p != '^') {
		*out = base;
		return TRUE;
	}
	ep->p++;
	if (!expr_power(ep, &exp))
		return FALSE;
	if (exp < 0)
		return expr_fail(ep, "negative exponent %" G_GINT64_FORMAT, exp);
	while (exp-- > 0) {
		if (__builtin_mul_overflow(r, base, &r))
			return expr_fail(ep, "value overflows 64 bits");
		if (r == 0 || r == 1)
			break;
	}
	*out = r;
	return TRUE;
}

/* power (('*'|'/'|'%') power)* */
static gboolean expr_product(struct expr_parser *ep, int64_t *out)
{
	int64_t v, rhs;

	if (!expr_power(ep, &v))
		return FALSE;
	for (;;) {
		char op;

		expr_skip_blanks(ep);
		op = *ep->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		ep->p++;
		if (!expr_power(ep, &rhs))
			return FALSE;
		if (op == '*') {
			if (__builtin_mul_overflow(v, rhs, &v))
				return expr_fail(ep, "value overflows 64 bits");
			continue;
		}
		if (rhs == 0)
			return expr_fail(ep, "division by zero");
		if (v == INT64_MIN && rhs == -1)
			return expr_fail(ep, "value overflows 64 bits");
		v = op == '/' ? v / rhs : v % rhs;
	}
	*out = v;
	return TRUE;
}

/* product (('+'|'-') product)* */
static gboolean expr_sum(struct expr_parser *ep, int64_t *out)
{
	int64_t v, rhs;

	if (!expr_product(ep, &v))
		return FALSE;
	for (;;) {
		char op;

		expr_skip_blanks(ep);
		op = *ep->p;
		if (op != '+' && op != '-')
			break;
		ep->p++;
		if (!expr_product(ep, &rhs))
			return FALSE;
		if (op == '+' ? __builtin_add_overflow(v, rhs, &v)
			      : __builtin_sub_overflow(v, rhs, &v))
			return expr_fail(ep, "value overflows 64 bits");
	}
	*out = v;
	return TRUE;
}

gboolean wbsim_fio_eval(const char *expr, enum wbsim_fio_expr_mode mode,
			int64_t *out, char **why)
{
	struct expr_parser ep = { .p = expr, .mode = mode };
	int64_t v;

	if (!expr_sum(&ep, &v)) {
		*why = ep.why;
		return FALSE;
	}
	expr_skip_blanks(&ep);
	if (*ep.p) {
		*why = g_strdup_printf("unexpected '%s' after the expression",
				       ep.p);
		return FALSE;
	}
	*out = v;
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Sizes, times, integers                                                   */

gboolean wbsim_fio_parse_size(const char *s, unsigned int kb_base,
			      gboolean allow_negative, int64_t *out,
			      gboolean *percent, char **why)
{
	const char *p = s, *end;
	gboolean neg = FALSE, pct;
	int64_t v, mult;

	if (percent)
		*percent = FALSE;
	if (*p == '(') {
		if (!wbsim_fio_eval(p, WBSIM_FIO_EXPR_BYTES, &v, why))
			return FALSE;
		if (v < 0 && !allow_negative) {
			*why = g_strdup_printf("expression gives %" G_GINT64_FORMAT ", expected a value >= 0",
					       v);
			return FALSE;
		}
		*out = v;
		return TRUE;
	}
	if (*p == '-' && allow_negative) {
		neg = TRUE;
		p++;
	}
	if (!g_ascii_isdigit(*p)) {
		*why = g_strdup(*p ? "expected a number with an optional k/m/g/t/p suffix"
				   : "empty value, expected a number");
		return FALSE;
	}
	if (!read_number(p, &end, &v, why))
		return FALSE;
	if (*end == '.') {
		*why = g_strdup("expected an integer (fio would silently drop the fraction; write (1536*1m) or 1536m instead of 1.5g)");
		return FALSE;
	}
	if (!size_suffix_mult(end, kb_base, &mult, &pct) || (pct && !percent)) {
		*why = g_strdup_printf("unknown suffix '%s': expected k, m, g, t, p (optionally with b), KiB-style IEC prefixes%s",
				       end, percent ? " or %" : "");
		return FALSE;
	}
	if (pct) {
		if (v > 100) {
			*why = g_strdup("a percentage must be at most 100%");
			return FALSE;
		}
		*percent = TRUE;
		*out = v;
		return TRUE;
	}
	if (__builtin_mul_overflow(v, mult, &v)) {
		*why = g_strdup("value overflows 64 bits");
		return FALSE;
	}
	*out = neg ? -v : v;
	return TRUE;
}

gboolean wbsim_fio_parse_time(const char *s, gboolean is_seconds,
			      uint64_t *out_us, char **why)
{
	const char *end;
	int64_t v, mult;

	if (*s == '(') {
		if (!wbsim_fio_eval(s, WBSIM_FIO_EXPR_TIME, &v, why))
			return FALSE;
		if (v < 0) {
			*why = g_strdup("expected a time >= 0");
			return FALSE;
		}
		*out_us = (uint64_t)v;
		return TRUE;
	}
	if (!g_ascii_isdigit(*s)) {
		*why = g_strdup(*s ? "expected a time: a number with an optional d, h, m, s, ms or us suffix"
				   : "empty value, expected a time");
		return FALSE;
	}
	if (!read_number(s, &end, &v, why))
		return FALSE;
	if (!time_suffix_mult(end, is_seconds, &mult)) {
		*why = g_strdup_printf("unknown time suffix '%s': expected d, h, m, s, ms/msec or us/usec (without suffix: %s)",
				       end, is_seconds ? "seconds" : "microseconds");
		return FALSE;
	}
	if (__builtin_mul_overflow(v, mult, &v)) {
		*why = g_strdup("time overflows 64 bits");
		return FALSE;
	}
	*out_us = (uint64_t)v;
	return TRUE;
}

gboolean wbsim_fio_parse_uint(const char *s, uint64_t *out, char **why)
{
	g_autofree char *tmp = NULL;
	const char *end = s;
	int64_t v = 0;

	/* fio parse.c check_int(): %u or %x, no suffix */
	if (!g_ascii_isdigit(*s) || !read_number(s, &end, &v, &tmp) || *end) {
		*why = g_strdup("expected an integer (decimal or 0x hex)");
		return FALSE;
	}
	*out = (uint64_t)v;
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Substitutions                                                            */

char *wbsim_fio_subst_env(const char *value)
{
	GString *out = g_string_new(NULL);
	const char *p = value;

	/* fio options.c fio_option_dup_subs(): ${VAR}, unset gives "" */
	while (*p) {
		const char *close;

		if (p[0] == '$' && p[1] == '{' && (close = strchr(p + 2, '}'))) {
			g_autofree char *var = g_strndup(p + 2, close - (p + 2));
			const char *env = *var ? g_getenv(var) : NULL;

			if (env)
				g_string_append(out, env);
			p = close + 1;
			continue;
		}
		g_string_append_c(out, *p++);
	}
	return g_string_free(out, FALSE);
}

char *wbsim_fio_subst_keywords(const char *value,
			       const struct wbsim_fio_env *env,
			       gboolean *replaced)
{
	const struct {
		const char *word;
		uint64_t val;
	} kw[] = {
		{ "$pagesize", env->pagesize },
		{ "$mb_memory", env->mb_memory },
		{ "$ncpus", env->ncpus },
	};
	char *cur = g_strdup(value);
	size_t i;

	*replaced = FALSE;
	/* fio options.c fio_keyword_replace(): every occurrence, in this order */
	for (i = 0; i < G_N_ELEMENTS(kw); i++) {
		char *s;

		while ((s = strstr(cur, kw[i].word))) {
			char *next;

			*s = '\0';
			next = g_strdup_printf("%s%" G_GUINT64_FORMAT "%s", cur,
					       kw[i].val,
					       s + strlen(kw[i].word));
			g_free(cur);
			cur = next;
			*replaced = TRUE;
		}
	}
	return cur;
}
