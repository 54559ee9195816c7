/* SPDX-License-Identifier: MIT */
/*
 * fuzz/fuzz-common.c - the empty base directory and the input filter of
 * the libFuzzer targets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

#include <wbsim/scenario.h>

#include "fuzz-common.h"

static char *empty_dir;

static void remove_empty_dir(void)
{
	if (empty_dir)
		g_rmdir(empty_dir);
}

const char *fuzz_empty_dir(void)
{
	if (!empty_dir) {
		empty_dir = g_dir_make_tmp("wbsim-fuzz-XXXXXX", NULL);
		if (!empty_dir)
			g_error("cannot make a temporary directory");
		atexit(remove_empty_dir);
	}
	return empty_dir;
}

/* A case-insensitive memmem() for a short lowercase ASCII needle. */
static gboolean line_has_word(const uint8_t *p, size_t len, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= len; i++)
		if (g_ascii_strncasecmp((const char *)p + i, word, n) == 0)
			return TRUE;
	return FALSE;
}

static gboolean line_has_path_char(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] == '/' || p[i] == '\\' || p[i] == '$' || p[i] == '~')
			return TRUE;
	return FALSE;
}

gboolean fuzz_reads_no_file(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;

	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', end - p);
		size_t len = (nl ? nl : end) - p;

		/* strncasecmp stops at a NUL: the lexer refuses those lines */
		if (line_has_path_char(p, len) &&
		    (line_has_word(p, len, "include") ||
		     line_has_word(p, len, "fio") ||
		     line_has_word(p, len, "preset")))
			return FALSE;
		p = nl ? nl + 1 : end;
	}
	return TRUE;
}

void fuzz_check_dump_round_trip(struct wbsim_scenario *scn)
{
	GError *error = NULL;
	struct wbsim_scenario *again;
	char *dump, *dump2;

	dump = wbsim_scenario_dump(scn);
	wbsim_scenario_free(scn);
	again = wbsim_scenario_load_string(dump, "dump.ini", fuzz_empty_dir(), NULL, &error);
	if (!again) {
		fprintf(stderr, "the dump does not load: %s\n%s", error->message, dump);
		abort();
	}
	dump2 = wbsim_scenario_dump(again);
	if (strcmp(dump, dump2) != 0) {
		fprintf(stderr, "the dump of the dump differs:\n%s\n----\n%s", dump, dump2);
		abort();
	}
	g_free(dump2);
	g_free(dump);
	wbsim_scenario_free(again);
}
