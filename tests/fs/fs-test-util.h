/* SPDX-License-Identifier: MIT */
/*
 * fs-test-util.h - helpers for the filesystem-allocator tests: a simulated
 * machine, synchronous writeback of a range (map, then complete the I/O),
 * and an independent count of physically discontiguous runs.
 */
#ifndef WBSIM_TESTS_FS_UTIL_H
#define WBSIM_TESTS_FS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/sim.h>
#include <wbsim/fs.h>
#include <wbsim/error.h>
#include "core/sim.h"
#include "fs/alloc/fs.h"

#define KiB (1024ull)
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

struct tfs {
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	wbsim_fs *fs;
	wbsim_task task;
};

static inline void tfs_open(struct tfs *t, const char *type, uint64_t dev_bytes,
			    const struct wbsim_setting *set, size_t n, unsigned int ncpus)
{
	GError *error = NULL;

	t->sim = wbsim_sim_new(42);
	t->cpus = wbsim_cpus_new(t->sim, ncpus, NULL);
	t->fs = wbsim_fs_new(type, t->sim, t->cpus, dev_bytes, set, n, &error);
	if (!t->fs)
		fail_msg("wbsim_fs_new(%s): %s", type, error->message);
	wbsim_task_init(&t->task, "kworker/flush", WBSIM_TASK_FLUSHER);
}

static inline void tfs_close(struct tfs *t)
{
	wbsim_fs_free(t->fs);
	wbsim_task_clear(&t->task);
	wbsim_cpus_free(t->cpus);
	wbsim_sim_free(t->sim);
}

struct tmap {
	gboolean done;
	gboolean failed;
	GArray *maps;
};

static inline void tmap_done(wbsim_fs *fs, void *arg, const struct wbsim_fs_map *maps,
			     size_t n, const GError *error)
{
	struct tmap *m = arg;

	m->done = TRUE;
	m->failed = error != NULL;
	if (maps)
		g_array_append_vals(m->maps, maps, n);
}

/* Map [first, first+nr) within the writepages call under way, run the
 * simulation until done, complete the I/O. */
static inline size_t tfs_writeback_more(struct tfs *t, wbsim_fs_inode *inode, wbsim_task *task,
					uint64_t first, uint64_t nr)
{
	struct tmap m = { .maps = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_map)) };
	uint64_t covered = 0;
	size_t n;

	wbsim_fs_map_blocks(t->fs, inode, task ? task : &t->task, first, nr, tmap_done, &m);
	while (!m.done && wbsim_sim_pending(t->sim))
		wbsim_sim_run_until(t->sim, WBSIM_TIME_NEVER);
	assert_true(m.done);
	assert_false(m.failed);
	for (guint i = 0; i < m.maps->len; i++) {
		struct wbsim_fs_map *p = &g_array_index(m.maps, struct wbsim_fs_map, i);

		assert_int_equal(p->file_block, first + covered);
		covered += p->nr_blocks;
		wbsim_fs_end_io(t->fs, inode, p->file_block, p->nr_blocks);
	}
	assert_int_equal(covered, nr);
	n = m.maps->len;
	g_array_free(m.maps, TRUE);
	return n;
}

/* A writepages call of its own that maps [first, first+nr): as
 * tfs_writeback_more() after wbsim_fs_writepages_begin(). */
static inline size_t tfs_writeback(struct tfs *t, wbsim_fs_inode *inode, wbsim_task *task,
				   uint64_t first, uint64_t nr)
{
	wbsim_fs_writepages_begin(t->fs, inode, task ? task : &t->task);
	return tfs_writeback_more(t, inode, task, first, nr);
}

/* Runs of blocks contiguous both logically-shifted and physically, from FIEMAP. */
static inline uint64_t tfs_physical_runs(struct tfs *t, wbsim_fs_inode *inode)
{
	GArray *ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));
	uint64_t runs = 0, next_phys = 0, next_log = 0;

	wbsim_fs_fiemap(t->fs, inode, ext);
	for (guint i = 0; i < ext->len; i++) {
		struct wbsim_fs_extent *e = &g_array_index(ext, struct wbsim_fs_extent, i);

		/* a run continues when the physical offset keeps the logical distance */
		if (i == 0 || e->physical == 0 ||
		    e->physical != next_phys + (e->logical - next_log))
			runs++;
		next_phys = e->physical + e->length;
		next_log = e->logical + e->length;
	}
	g_array_free(ext, TRUE);
	return runs;
}

static inline uint64_t tfs_fiemap_records(struct tfs *t, wbsim_fs_inode *inode)
{
	GArray *ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));
	uint64_t n = wbsim_fs_fiemap(t->fs, inode, ext);

	g_array_free(ext, TRUE);
	return n;
}

#endif /* WBSIM_TESTS_FS_UTIL_H */
