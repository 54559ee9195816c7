/* SPDX-License-Identifier: MIT */
/*
 * fuzz/fuzz-trace-events.c - libFuzzer target for the trace-event selector
 * (wbsim_trace_events_select(), what --trace-events reads): the input is
 * the comma-separated list. The selection either fails with a WBSIM_ERROR
 * carrying a message, or is a non-empty list of known event names, each
 * once, in the order of the full list, which selects itself again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <wbsim/wbsim.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char **all;
	GError *error = NULL;
	char *list, *joined;
	char **chosen, **again;
	guint k = 0;

	if (!all && !(all = wbsim_trace_events_select("writeback", NULL)))
		abort();
	if (memchr(data, '\0', size))
		return -1;	/* a C string cannot hold it: keep it out of the corpus */
	list = g_strndup((const char *)data, size);
	chosen = wbsim_trace_events_select(list, &error);
	g_free(list);
	if (!chosen) {
		if (!error || error->domain != WBSIM_ERROR || !error->message[0])
			abort();
		g_error_free(error);
		return 0;
	}
	if (error || !chosen[0])
		abort();
	/* a subsequence of the full list: known names, each once, in order */
	for (guint i = 0; chosen[i]; i++) {
		while (all[k] && strcmp(all[k], chosen[i]) != 0)
			k++;
		if (!all[k++])
			abort();
	}
	joined = g_strjoinv(",", chosen);
	again = wbsim_trace_events_select(joined, NULL);
	if (!again || g_strv_length(again) != g_strv_length(chosen))
		abort();
	for (guint i = 0; chosen[i]; i++)
		if (strcmp(again[i], chosen[i]) != 0)
			abort();
	g_free(joined);
	g_strfreev(again);
	g_strfreev(chosen);
	return 0;
}
