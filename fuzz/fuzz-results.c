/* SPDX-License-Identifier: MIT */
/*
 * fuzz/fuzz-results.c - libFuzzer target for the --results reader
 * (run/sweep-results.c): the input is written to a file of its own
 * and opened as the results file of a fixed 2 x 3 sweep. An input that
 * does not start with a results file's first line (after a byte order
 * mark, which the reader skips) gets this sweep's first line in front, so
 * the fuzzer spends its time on the point lines. Opening
 * either fails with a WBSIM_ERROR or keeps each point at most once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <wbsim/wbsim.h>
#include "run/sweep.h"
#include "run/sweep-results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define IDENTITY "{\"wbsim_sweep_results\":1,\"fuzz\":true}"

static struct wbsim_scenario *scn;
static struct wbsim_sweep *sw;
static char *path;

static void remove_file(void)
{
	if (path)
		unlink(path);
}

static void setup(void)
{
	const char *axes[] = { "writeback.contexts=1..3", "vm.dirty_ratio=10,30" };
	GError *error = NULL;

	scn = wbsim_scenario_load_string("[fio:w]\nrw=write\nsize=64k\n", "fuzz.ini", NULL,
					 NULL, &error);
	if (!scn)
		abort();
	sw = wbsim_sweep_new(wbsim_scenario_config(scn), &error);
	for (size_t i = 0; sw && i < G_N_ELEMENTS(axes); i++)
		if (!wbsim_sweep_add_option(sw, axes[i], &error))
			abort();
	if (!sw)
		abort();
	path = g_strdup_printf("%s/wbsim-fuzz-results-%d.jsonl", g_get_tmp_dir(), (int)getpid());
	atexit(remove_file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wbsim_sweep_results *res;
	GError *error = NULL;
	GString *text;
	size_t skip;

	if (!sw)
		setup();
	text = g_string_new(NULL);
	/* an editor's byte order mark before line 1 is the reader's to handle */
	skip = size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	if (size - skip < 22 || memcmp(data + skip, "{\"wbsim_sweep_results\"", 22) != 0)
		g_string_append(text, IDENTITY "\n");
	g_string_append_len(text, (const char *)data, (gssize)size);
	if (!g_file_set_contents(path, text->str, (gssize)text->len, NULL))
		abort();
	g_string_free(text, TRUE);
	res = wbsim_sweep_results_open_as(path, IDENTITY, sw, &error);
	if (!res) {
		if (!error || error->domain != WBSIM_ERROR || !error->message[0])
			abort();
		g_error_free(error);
		return 0;
	}
	if (error || wbsim_sweep_results_n_done(res) > wbsim_sweep_n_points(sw))
		abort();
	wbsim_sweep_results_close(res);
	return 0;
}
