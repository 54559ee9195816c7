/* SPDX-License-Identifier: MIT */
/* model-harness.h - run a scenario given as text and read its results. */
#ifndef WBSIM_TESTS_MODEL_HARNESS_H
#define WBSIM_TESTS_MODEL_HARNESS_H

#include <stdio.h>
#include <string.h>
#include <wbsim/scenario.h>
#include "run/run.h"

/* Run @text (a scenario) with @overrides (NULL-terminated or NULL) and
 * @opts; the test fails if it does not load or run. */
static inline struct wbsim_run_result *run_text_opts(const char *text,
						     const char *const *overrides,
						     const struct wbsim_run_options *opts)
{
	GError *error = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load_string(text, "test.ini", ".", overrides,
								&error);
	struct wbsim_run_result *r;

	if (!scn) {
		fprintf(stderr, "load: %s\n", error->message);
		g_assert_not_reached();
	}
	r = wbsim_run_scenario(scn, opts, &error);
	if (!r) {
		fprintf(stderr, "run: %s\n", error->message);
		g_assert_not_reached();
	}
	/* The results point into the scenario's fio jobs, so the scenario
	 * lives as long as the test program: kept reachable from a static
	 * array, it is not a leak for LeakSanitizer or valgrind. */
	{
		static GPtrArray *scenarios;

		if (!scenarios)
			scenarios = g_ptr_array_new();
		g_ptr_array_add(scenarios, scn);
	}
	return r;
}

/* run_text_opts() with --check or not. */
static inline struct wbsim_run_result *run_text(const char *text, const char *const *overrides,
						gboolean check)
{
	struct wbsim_run_options opts = { .check = check };

	return run_text_opts(text, overrides, &opts);
}

/*
 * The writeback_start events of a run's trace: those of @reason, and the
 * others. Run with run_traced_starts().
 */
struct writeback_starts {
	const char *reason;	/* as the event prints it: "sync", "fs_free_space" */
	unsigned int of_reason;
	unsigned int others;
};

static inline void writeback_starts_count(void *arg, const char *line)
{
	struct writeback_starts *c = arg;
	g_autofree char *tag = g_strdup_printf("reason=%s ", c->reason);

	if (!strstr(line, "writeback_start:"))
		return;
	if (strstr(line, tag))
		c->of_reason++;
	else
		c->others++;
}

/* run_text() with --check, counting its writeback_start events in @c. */
static inline struct wbsim_run_result *run_traced_starts(const char *text,
							 struct writeback_starts *c)
{
	static const char *const events[] = { "writeback_start", NULL };
	struct wbsim_run_options opts = { .check = TRUE, .trace_fn = writeback_starts_count,
					  .trace_events = events, .trace_arg = c };

	return run_text_opts(text, NULL, &opts);
}

/* Column @name of the time series, or -1. */
static inline int series_col(const struct wbsim_run_result *r, const char *name)
{
	for (guint i = 0; i < r->series.columns->len; i++)
		if (strcmp(r->series.columns->pdata[i], name) == 0)
			return (int)i;
	return -1;
}

static inline guint series_rows(const struct wbsim_run_result *r)
{
	return r->series.values->len / r->series.columns->len;
}

static inline double series_at(const struct wbsim_run_result *r, guint row, int col)
{
	return g_array_index(r->series.values, double, row * r->series.columns->len + (guint)col);
}

/* The row whose time is closest to @t seconds. */
static inline guint series_row_at(const struct wbsim_run_result *r, double t)
{
	guint best = 0;
	double bd = 1e300;

	for (guint i = 0; i < series_rows(r); i++) {
		double d = series_at(r, i, 0) - t;

		if (d < 0)
			d = -d;
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

#endif
