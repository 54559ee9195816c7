/* SPDX-License-Identifier: MIT */
/* prog-fail.c - the programs' error message (sim/prog-fail.h). */
#include <stdarg.h>
#include <stdio.h>

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
