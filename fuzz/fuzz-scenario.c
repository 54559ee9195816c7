/* SPDX-License-Identifier: MIT */
/*
 * fuzz/fuzz-scenario.c - libFuzzer target for the scenario loader:
 * wbsim_scenario_load_string() on the input, with an empty base directory
 * (a scenario naming an fio file or an include gets "cannot read"). A
 * scenario that loads must dump, and its dump must load back to the same
 * dump (the property wbsim_scenario_dump() promises).
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include <wbsim/wbsim.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const struct wbsim_scenario *scn, const GError *error)
{
	if (scn || !error || error->domain != WBSIM_ERROR || !error->message ||
	    !*error->message)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wbsim_scenario *scn;
	GError *error = NULL;
	char *text;

	if (!fuzz_reads_no_file(data, size))
		return -1;	/* keep it out of the corpus */
	text = g_strndup((const char *)data, size);
	scn = wbsim_scenario_load_string(text, "fuzz.ini", fuzz_empty_dir(),
					 NULL, &error);
	g_free(text);
	if (!scn) {
		check_error(scn, error);
		g_error_free(error);
		return 0;
	}
	if (error)
		abort();
	fuzz_check_dump_round_trip(scn);
	return 0;
}
