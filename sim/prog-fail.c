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
};

void prog_option_words(GError *e)
{
	for (size_t i = 0; e && i < sizeof(option_words) / sizeof(option_words[0]); i++) {
		const char *lib = option_words[i][0];
		size_t n = strlen(lib);

		if (strncmp(e->message, lib, n) == 0) {
			char *m = g_strconcat(option_words[i][1], e->message + n, NULL);

			g_free(e->message);
			e->message = m;
			return;
		}
	}
}
