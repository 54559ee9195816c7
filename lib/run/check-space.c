/* SPDX-License-Identifier: MIT */
/*
 * check-space.c - at load, will the jobs' files fit the new filesystem?
 * The distinct files of the jobs that write a known amount (not
 * time_based, not appending), each with the bytes it ends up holding,
 * against the filesystem's free space; refused before the first event
 * with the line to change (xfs said "no space left for inode 129" at run
 * time). The ideal model takes a region of [filesystem] region_size per
 * file: when the data would fit but the regions do not, that key is the
 * one named.
 */
#include <string.h>
#include <wbsim/error.h>
#include "run/run-private.h"
#include "fio/job.h"
#include "fs/alloc/fs-private.h"
#include "fs/alloc/fs.h"

/* @blocks of @bsize bytes, at most G_MAXUINT64 (sums saturate: 2^21 files
 * of up to 2^64 bytes wrapped them, and the bytes printed) */
static uint64_t bytes_of(uint64_t blocks, uint64_t bsize)
{
	return blocks > G_MAXUINT64 / bsize ? G_MAXUINT64 : blocks * bsize;
}

/* The blocks @ends (each file's end, in bytes) take with a region of at
 * least @region blocks per file (0: none) */
static uint64_t files_blocks(const GArray *ends, uint64_t bsize, uint64_t region)
{
	uint64_t sum = 0;

	for (guint i = 0; i < ends->len; i++) {
		uint64_t end = g_array_index(ends, uint64_t, i);
		uint64_t blocks = end / bsize + (end % bsize != 0);

		if (!g_uint64_checked_add(&sum, sum, MAX(blocks, region)))
			return G_MAXUINT64;
	}
	return sum;
}

/* The largest region (blocks) with which the files fit @free_blocks, 0 if
 * none; they do with 1 block when their data fits. */
static uint64_t largest_region(const GArray *ends, uint64_t bsize, uint64_t region,
			       uint64_t free_blocks)
{
	uint64_t lo = 0, hi = region;	/* lo fits (or is 0), hi does not */

	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (files_blocks(ends, bsize, mid) <= free_blocks)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* "FILE:LINE: [filesystem] region_size = VALUE" when the scenario sets it */
static char *region_where(const struct wbsim_config *cfg)
{
	for (guint i = 0; i < cfg->fs_params->len; i++) {
		const struct wbsim_config_override *o = cfg->fs_params->pdata[i];

		if (strcmp(o->key, "region_size") == 0) {
			g_autofree char *where = wbsim_param_where(o->file, o->line);

			return g_strdup_printf("%s[filesystem] region_size = %s", where, o->value);
		}
	}
	return NULL;
}

gboolean wbsim_run_check_space(const struct wbsim_config *cfg, struct wbsim_machine *m,
			       const struct wbsim_fio_file *fio, struct wbsim_job *jobs,
			       GError **error)
{
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GArray) ends = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	uint64_t free_blocks = wbsim_fs_free_blocks(m->fs);
	uint64_t bsize = wbsim_fs_block_size(m->fs);
	uint64_t region = wbsim_fs_ideal_region_blocks(m->fs);
	uint64_t need, data, best;
	const struct wbsim_fio_job *first = NULL;
	g_autofree char *where = NULL, *rwhere = NULL;

	if (!m->fs->free_fn)
		return TRUE;	/* a model that does not say its free space */
	for (guint i = 0; i < fio->jobs->len; i++) {
		const struct wbsim_fio_job *f = fio->jobs->pdata[i];
		const struct wbsim_job *job = &jobs[i];

		if (f->time_based || f->file_append)
			continue;
		for (unsigned int k = 0; k < job->nr_files; k++) {
			const struct wbsim_job_file *jf = &job->files[k];
			char *path = wbsim_job_file_path(f, k);
			/* wbsim_job_setup() refused an end past 2^64 */
			uint64_t end = jf->offset + jf->size;
			gpointer at;

			/* the end of a file two jobs write is the further one */
			if (g_hash_table_lookup_extended(seen, path, NULL, &at)) {
				uint64_t *e = &g_array_index(ends, uint64_t, GPOINTER_TO_UINT(at));

				*e = MAX(*e, end);
				g_free(path);
			} else {
				g_hash_table_insert(seen, path, GUINT_TO_POINTER(ends->len));
				g_array_append_val(ends, end);
			}
			if (!first)
				first = f;
		}
	}
	need = files_blocks(ends, bsize, region);
	if (need <= free_blocks)
		return TRUE;
	{
		/* the first job's size= line, or its section's */
		g_autofree char *shown = g_strdup_printf("%" G_GUINT64_FORMAT, first->size);

		where = wbsim_fio_job_option_where(first, "size", shown);
	}
	data = files_blocks(ends, bsize, 0);
	best = data <= free_blocks ? largest_region(ends, bsize, region, free_blocks) : 0;
	/* the data fits, the ideal model's regions do not: region_size is
	 * the key to change (it has a 4k minimum) */
	if (best && bytes_of(best, bsize) >= 4096) {
		rwhere = region_where(cfg);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s: the jobs' %u files hold %" G_GUINT64_FORMAT " bytes, but the "
			    "ideal filesystem gives each a region of %" G_GUINT64_FORMAT " bytes (%"
			    G_GUINT64_FORMAT " bytes in all) and has %" G_GUINT64_FORMAT " bytes "
			    "free: expected a [filesystem] region_size of at most %" G_GUINT64_FORMAT
			    " bytes (or fewer files, a larger device)",
			    rwhere ? rwhere : where, ends->len, bytes_of(data, bsize),
			    bytes_of(region, bsize), bytes_of(need, bsize),
			    bytes_of(free_blocks, bsize), bytes_of(best, bsize));
		return FALSE;
	}
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
		    "%s: the jobs' %u files need %s%" G_GUINT64_FORMAT
		    " bytes of the filesystem (%s), which has %" G_GUINT64_FORMAT
		    " bytes free: expected files that fit (a smaller size= or nrfiles=, a larger device)",
		    where, ends->len, bytes_of(need, bsize) == G_MAXUINT64 ? "more than " : "",
		    bytes_of(need, bsize), wbsim_fs_type(m->fs), bytes_of(free_blocks, bsize));
	return FALSE;
}
