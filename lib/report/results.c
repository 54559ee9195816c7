/* SPDX-License-Identifier: MIT */
/*
 * results.c - allocation and release of struct wbsim_run_result.
 *
 * Ownership: every string and array of the result is owned by it. The
 * arrays are created by wbsim_run_result_new() with free functions, so the
 * filler appends g_new0()-allocated elements whose strings are g_strdup()ed
 * and never frees them itself. A job's bw_samples array and histogram bins
 * are freed with the job; job->fio points into the scenario and is not.
 */
#include <string.h>
#include <glib.h>
#include "report/results.h"

static void job_result_free(gpointer p)
{
	struct wbsim_job_result *j = p;

	g_free(j->name);
	wbsim_lat_hist_clear(&j->clat);
	wbsim_lat_hist_clear(&j->sync_lat);
	if (j->bw_samples)
		g_array_unref(j->bw_samples);
	g_free(j);
}

static void wb_result_free(gpointer p)
{
	struct wbsim_wb_result *w = p;

	g_free(w->flusher);
	g_free(w);
}

static void cgwb_result_free(gpointer p)
{
	struct wbsim_cgwb_result *w = p;

	g_free(w->memcg);
	g_free(w);
}

static void memcg_result_free(gpointer p)
{
	struct wbsim_memcg_result *m = p;

	g_free(m->path);
	g_free(m);
}

static void lock_result_free(gpointer p)
{
	struct wbsim_lock_result *l = p;

	g_free(l->name);
	g_free(l);
}

static void extent_result_free(gpointer p)
{
	struct wbsim_extent_result *e = p;

	g_free(e->moment);
	g_free(e->path);
	g_free(e->line);
	g_free(e);
}

/**
 * wbsim_run_result_new() - an empty run result
 *
 * jobs, wbs, cgwbs, memcgs, locks, extents and warnings are empty arrays that free their
 * elements; series.columns holds g_free()d strings and series.values
 * doubles.
 *
 * Return: the result, to free with wbsim_run_result_free().
 */
struct wbsim_run_result *wbsim_run_result_new(void)
{
	struct wbsim_run_result *r = g_new0(struct wbsim_run_result, 1);

	r->jobs = g_ptr_array_new_with_free_func(job_result_free);
	r->wbs = g_ptr_array_new_with_free_func(wb_result_free);
	r->cgwbs = g_ptr_array_new_with_free_func(cgwb_result_free);
	r->memcgs = g_ptr_array_new_with_free_func(memcg_result_free);
	r->locks = g_ptr_array_new_with_free_func(lock_result_free);
	r->extents = g_ptr_array_new_with_free_func(extent_result_free);
	r->warnings = g_ptr_array_new_with_free_func(g_free);
	r->series.columns = g_ptr_array_new_with_free_func(g_free);
	r->series.values = g_array_new(FALSE, FALSE, sizeof(double));
	return r;
}

/**
 * wbsim_run_result_free() - free a run result and everything it owns
 * @r: the result (NULL is fine)
 */
void wbsim_run_result_free(struct wbsim_run_result *r)
{
	if (!r)
		return;
	g_free(r->scenario);
	g_free(r->description);
	g_free(r->device);
	g_free(r->fs_type);
	g_free(r->affinity);
	g_clear_pointer(&r->jobs, g_ptr_array_unref);
	g_clear_pointer(&r->wbs, g_ptr_array_unref);
	g_clear_pointer(&r->cgwbs, g_ptr_array_unref);
	g_clear_pointer(&r->memcgs, g_ptr_array_unref);
	g_clear_pointer(&r->locks, g_ptr_array_unref);
	g_clear_pointer(&r->extents, g_ptr_array_unref);
	g_clear_pointer(&r->warnings, g_ptr_array_unref);
	g_clear_pointer(&r->series.columns, g_ptr_array_unref);
	g_clear_pointer(&r->series.values, g_array_unref);
	g_free(r);
}

const struct wbsim_memcg_result *wbsim_run_result_memcg(const struct wbsim_run_result *r,
							const char *path)
{
	for (guint i = r->memcgs ? r->memcgs->len : 0; i-- > 0;) {
		const struct wbsim_memcg_result *m = r->memcgs->pdata[i];

		if (strcmp(m->path, path) == 0)
			return m;
	}
	return NULL;
}
