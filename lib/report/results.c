/* SPDX-License-Identifier: MIT */
/*
 * results.c - allocation and release of struct wbsim_run_result, and the
 * figures the reports draw from a file's extent lengths.
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
	if (e->lengths)
		g_array_unref(e->lengths);
	g_free(e);
}

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void wbsim_extent_lengths_set(struct wbsim_extent_result *e, GArray *blocks)
{
	g_array_sort(blocks, cmp_u64);
	if (e->lengths)
		g_array_set_size(e->lengths, 0);
	else
		e->lengths = g_array_sized_new(FALSE, FALSE, sizeof(struct wbsim_extent_length), 1);
	for (guint i = 0; i < blocks->len; i++) {
		uint64_t b = g_array_index(blocks, uint64_t, i);
		struct wbsim_extent_length *last = e->lengths->len ?
			&g_array_index(e->lengths, struct wbsim_extent_length, e->lengths->len - 1) :
			NULL;

		if (last && last->blocks == b) {
			last->count++;
		} else {
			struct wbsim_extent_length l = { .blocks = b, .count = 1 };

			g_array_append_val(e->lengths, l);
		}
	}
}

/* The length of record @k (0-based) in order of length. */
static uint64_t nth_length(const GArray *lengths, uint64_t k)
{
	for (guint i = 0; i < lengths->len; i++) {
		const struct wbsim_extent_length *l =
			&g_array_index(lengths, struct wbsim_extent_length, i);

		if (k < l->count)
			return l->blocks;
		k -= l->count;
	}
	return 0;
}

double wbsim_extent_median_length(const struct wbsim_extent_result *e)
{
	uint64_t n = 0;

	for (guint i = 0; e->lengths && i < e->lengths->len; i++)
		n += g_array_index(e->lengths, struct wbsim_extent_length, i).count;
	if (!n)
		return 0;
	return ((double)nth_length(e->lengths, (n - 1) / 2) +
		(double)nth_length(e->lengths, n / 2)) / 2;
}

unsigned int wbsim_extent_log2_histogram(const struct wbsim_extent_result *e, uint64_t hist[64])
{
	unsigned int used = 0;

	memset(hist, 0, 64 * sizeof(hist[0]));
	for (guint i = 0; e->lengths && i < e->lengths->len; i++) {
		const struct wbsim_extent_length *l =
			&g_array_index(e->lengths, struct wbsim_extent_length, i);
		unsigned int k;

		if (!l->blocks)
			continue;
		k = 63u - (unsigned int)__builtin_clzll(l->blocks);
		hist[k] += l->count;
		used = MAX(used, k + 1);
	}
	return used;
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
