/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/ideal.c - the "ideal" filesystem: the reference that isolates
 * writeback from allocation. Each file gets a contiguous region of the
 * device when it is created (region_size bytes, or more once it grows past
 * that: a further region is appended), file block b maps to region start +
 * b, and mapping costs neither locks nor CPU. There is no delayed
 * allocation state to report: FIEMAP shows the blocks written back so far.
 */
#include <stddef.h>
#include "fs/alloc/fs-private.h"

struct ideal_params {
	uint64_t block_size;
	uint64_t region_size;
};

static const struct wbsim_param ideal_options[] = {
	{ "block_size", WBSIM_PARAM_SIZE, offsetof(struct ideal_params, block_size),
	  "4k", "bytes", 512, 65536, "filesystem block size" },
	{ "region_size", WBSIM_PARAM_SIZE, offsetof(struct ideal_params, region_size),
	  "1g", "bytes", 4096, 0, "contiguous region reserved per file at creation" },
	{ .name = NULL },
};

struct ideal_fs {
	uint64_t next_free;	/* regions are carved from the front of the device */
	uint64_t region_blocks;
};

struct ideal_region {
	uint64_t lblk;
	uint64_t pblk;
	uint64_t len;
};

struct ideal_inode {
	GArray *regions;	/* struct ideal_region, in file order */
	uint64_t covered;	/* file blocks covered by regions */
	struct wbsim_emap written;
};

static uint64_t ideal_free(wbsim_fs *fs)
{
	struct ideal_fs *ifs = fs->priv;

	return fs->nr_blocks - ifs->next_free;
}

static gboolean ideal_init(wbsim_fs *fs, GError **error)
{
	struct ideal_params *p = fs->params;
	struct ideal_fs *ifs;

	if (p->block_size & (p->block_size - 1)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "ideal option block_size: %" G_GUINT64_FORMAT
			    " is not a power of two", p->block_size);
		return FALSE;
	}
	wbsim_fs_set_block_size(fs, p->block_size);
	fs->nr_blocks = fs->dev_bytes / fs->block_size;
	ifs = g_new0(struct ideal_fs, 1);
	ifs->region_blocks = wbsim_fs_bytes_to_blocks(fs, p->region_size);
	fs->priv = ifs;
	wbsim_fs_set_free_fn(fs, ideal_free);
	return TRUE;
}

uint64_t wbsim_fs_ideal_region_blocks(wbsim_fs *fs)
{
	struct ideal_fs *ifs = fs->priv;

	return fs->ops == &wbsim_fs_ideal_ops ? ifs->region_blocks : 0;
}

static void ideal_exit(wbsim_fs *fs)
{
	g_free(fs->priv);
}

/* Append a region so that the file covers at least @blocks blocks. */
static gboolean ideal_grow(wbsim_fs *fs, struct ideal_inode *ii, uint64_t blocks)
{
	struct ideal_fs *ifs = fs->priv;

	while (ii->covered < blocks) {
		struct ideal_region r = {
			.lblk = ii->covered,
			.pblk = ifs->next_free,
			.len = MAX(ifs->region_blocks, blocks - ii->covered),
		};

		r.len = MIN(r.len, fs->nr_blocks - ifs->next_free);
		if (!r.len)
			return FALSE;
		ifs->next_free += r.len;
		g_array_append_val(ii->regions, r);
		ii->covered += r.len;
	}
	return TRUE;
}

static uint64_t ideal_inode_init(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct ideal_inode *ii = g_new0(struct ideal_inode, 1);

	ii->regions = g_array_new(FALSE, FALSE, sizeof(struct ideal_region));
	wbsim_emap_init(&ii->written, 1, 1, G_MAXUINT64 / 4);
	inode->priv = ii;
	if (!inode->is_dir)
		ideal_grow(fs, ii, 1);	/* the region of a new file */
	return fs->inodes->len + 2;	/* ext2-style: the root is inode 2 */
}

static void ideal_inode_exit(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct ideal_inode *ii = inode->priv;

	g_array_free(ii->regions, TRUE);
	wbsim_emap_clear(&ii->written);
	g_free(ii);
}

static uint64_t ideal_pblk(struct ideal_inode *ii, uint64_t lblk, uint64_t *run)
{
	for (guint i = 0; i < ii->regions->len; i++) {
		struct ideal_region *r = &g_array_index(ii->regions, struct ideal_region, i);

		if (lblk >= r->lblk && lblk < r->lblk + r->len) {
			*run = r->lblk + r->len - lblk;
			return r->pblk + (lblk - r->lblk);
		}
	}
	*run = 0;
	return 0;
}

struct ideal_call {
	wbsim_fs *fs;
	GArray *maps;
	GError *error;
	wbsim_fs_map_done_fn done;
	void *arg;
};

static void ideal_call_done(wbsim_sim *sim, void *arg)
{
	struct ideal_call *c = arg;

	c->done(c->fs, c->arg, c->error ? NULL : (const struct wbsim_fs_map *)(void *)c->maps->data,
		c->error ? 0 : c->maps->len, c->error);
	g_clear_error(&c->error);
	g_array_free(c->maps, TRUE);
	wbsim_fs_call_free(c->fs, c);
}

static void ideal_call_release(void *call)
{
	struct ideal_call *c = call;

	g_clear_error(&c->error);
	if (c->maps)
		g_array_free(c->maps, TRUE);
}

static void ideal_map_blocks(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			     uint64_t first, uint64_t nr, wbsim_fs_map_done_fn done, void *arg)
{
	struct ideal_inode *ii = inode->priv;
	struct ideal_call *c = wbsim_fs_call_new(fs, sizeof(*c), ideal_call_release);
	uint64_t pos = first;

	c->fs = fs;
	c->done = done;
	c->arg = arg;
	c->maps = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_map));
	if (!ideal_grow(fs, ii, first + nr)) {
		g_set_error(&c->error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
			    "ideal filesystem: no space for inode %" G_GUINT64_FORMAT,
			    inode->ino);
	} else {
		while (pos < first + nr) {
			uint64_t run, pblk = ideal_pblk(ii, pos, &run);

			run = MIN(run, first + nr - pos);
			/* never WBSIM_FS_MAP_NEW: the region was allocated at creation */
			wbsim_fs_maps_add(c->maps, pos, pblk, run, 0);
			wbsim_emap_set(&ii->written, pos, run, WBSIM_EXT_WRITTEN, pblk);
			pos += run;
		}
	}
	wbsim_sim_schedule_at(fs->sim, wbsim_sim_now(fs->sim), ideal_call_done, c);
}

static void ideal_truncate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t new_size)
{
	struct ideal_inode *ii = inode->priv;
	uint64_t keep = wbsim_fs_bytes_to_blocks(fs, new_size);

	/* the region stays reserved: the file may grow back into it */
	wbsim_emap_punch(&ii->written, keep, G_MAXUINT64 / 4 - keep);
}

static void ideal_fiemap(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out)
{
	struct ideal_inode *ii = inode->priv;

	wbsim_fs_emap_fiemap(fs, &ii->written, out);
}

static uint64_t ideal_nr_extents(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct ideal_inode *ii = inode->priv;

	return wbsim_emap_count(&ii->written);
}

const struct wbsim_fs_ops wbsim_fs_ideal_ops = {
	.name = "ideal",
	.version = WBSIM_FS_OPS_VERSION,
	.params_size = sizeof(struct ideal_params),
	.options = ideal_options,
	.init = ideal_init,
	.exit = ideal_exit,
	.inode_init = ideal_inode_init,
	.inode_exit = ideal_inode_exit,
	.map_blocks = ideal_map_blocks,
	.truncate = ideal_truncate,
	.fiemap = ideal_fiemap,
	.nr_extents = ideal_nr_extents,
	/* an ideal filesystem never blocks a write */
	.nowait_buffered_write = TRUE,
};
