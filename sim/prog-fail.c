/* SPDX-License-Identifier: MIT */
/* prog-fail.c - the programs' error message (sim/prog-fail.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "prog-fail.h"

int prog_fail(const char *prog, int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* the library's parameter as a message starts with it, and the option */
static const char *const option_words[][2] = {
	{ "wbsim_sweep_opts.format WBSIM_FORMAT_JSON_PLUS", "--output-format json+" },
	{ "wbsim_sweep_opts.results ", "--results " },
	{ "wbsim_sweep_opts.repeat ", "--repeat " },
	{ "trace event list", "--trace-events" },
	/* where an override or sweep item is the origin, as a file would be */
	{ "override: ", "--set: " },
	{ "wbsim_sweep_opts.sweeps: ", "--sweep: " },
};

/* the library's words inside its messages, and the program's */
static const char *const inner_words[][2] = {
	{ "wbsim_sweep_opts.sweeps item", "--sweep" },
	{ "wbsim_sweep_opts.sweeps", "--sweep" },
	{ "run a point alone with an override", "run a point alone with --set" },
	{ " is also set (override)", " is also set (--set)" },
};

/* @s with every @from replaced by @to */
static char *replace_all(const char *s, const char *from, const char *to)
{
	GString *out = g_string_new(NULL);
	size_t n = strlen(from);
	const char *p;

	while ((p = strstr(s, from))) {
		g_string_append_len(out, s, p - s);
		g_string_append(out, to);
		s = p + n;
	}
	g_string_append(out, s);
	return g_string_free(out, FALSE);
}

void prog_option_words(GError *e)
{
	size_t at = 0;

	if (!e)
		return;
	/* a sweep point's error: "sweep point N/M (LABEL): " then the loader's */
	if (g_str_has_prefix(e->message, "sweep point ")) {
		const char *end = strstr(e->message, "): ");

		if (end)
			at = (size_t)(end + 3 - e->message);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(option_words); i++) {
		const char *lib = option_words[i][0];
		size_t n = strlen(lib);

		if (strncmp(e->message + at, lib, n) == 0) {
			char *m = g_strdup_printf("%.*s%s%s", (int)at, e->message,
						  option_words[i][1], e->message + at + n);

			g_free(e->message);
			e->message = m;
			break;
		}
	}
	for (size_t i = 0; i < G_N_ELEMENTS(inner_words); i++) {
		if (strstr(e->message, inner_words[i][0])) {
			char *m = replace_all(e->message, inner_words[i][0], inner_words[i][1]);

			g_free(e->message);
			e->message = m;
		}
	}
}
