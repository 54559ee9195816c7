/* SPDX-License-Identifier: MIT */
/*
 * fuzz/fuzz-builder.c - libFuzzer target for the scenario builder API
 * (include/wbsim/run.h): the input is a script, one call per line,
 *
 *   SECTION.KEY=VALUE	wbsim_scenario_builder_set()
 *   [NAME]		wbsim_scenario_builder_add_fio_job() of NAME with the
 *			lines up to the next [NAME] line as its text
 *
 * (so the repository's scenario and fio files are useful seeds). Every
 * call either succeeds or sets a WBSIM_ERROR; a scenario that builds must
 * dump, and the dump must load back to the same dump.
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <wbsim/wbsim.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(gboolean ok, GError *error)
{
	if (ok ? error != NULL : !error || error->domain != WBSIM_ERROR || !error->message[0])
		abort();
	g_clear_error(&error);
}

static void add_job(wbsim_scenario_builder *b, const char *name, GString *text)
{
	GError *error = NULL;
	gboolean ok = wbsim_scenario_builder_add_fio_job(b, name, text->str, &error);

	check(ok, error);
	g_string_truncate(text, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	wbsim_scenario_builder *b;
	struct wbsim_scenario *scn;
	GError *error = NULL;
	char *input, *job = NULL;
	GString *text = g_string_new(NULL);
	char **lines;

	static gboolean in_empty_dir;

	/* the builder resolves relative names against the working directory */
	if (!in_empty_dir) {
		if (chdir(fuzz_empty_dir()) != 0)
			abort();
		in_empty_dir = TRUE;
	}
	if (!fuzz_reads_no_file(data, size) || memchr(data, '\0', size)) {
		g_string_free(text, TRUE);
		return -1;	/* keep it out of the corpus */
	}
	input = g_strndup((const char *)data, size);
	lines = g_strsplit(input, "\n", 256);
	g_free(input);
	b = wbsim_scenario_builder_new("fuzz");
	for (size_t i = 0; lines[i]; i++) {
		char *l = lines[i], *eq;
		size_t n = strlen(l);

		if (l[0] == '[' && n > 1 && l[n - 1] == ']') {
			if (job)
				add_job(b, job, text);
			g_free(job);
			job = g_strndup(l + 1, n - 2);
		} else if (job) {
			g_string_append_printf(text, "%s\n", l);
		} else if ((eq = strchr(l, '='))) {
			gboolean ok;

			*eq = '\0';
			ok = wbsim_scenario_builder_set(b, g_strstrip(l), g_strstrip(eq + 1), &error);
			check(ok, error);
			error = NULL;
		}
	}
	if (job)
		add_job(b, job, text);
	g_free(job);
	g_strfreev(lines);
	g_string_free(text, TRUE);

	scn = wbsim_scenario_builder_build(b, &error);
	wbsim_scenario_builder_free(b);
	if (!scn) {
		check(FALSE, error);
		return 0;
	}
	if (error)
		abort();
	fuzz_check_dump_round_trip(scn);
	return 0;
}
