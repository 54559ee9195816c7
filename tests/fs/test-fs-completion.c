/* SPDX-License-Identifier: MIT */
/*
 * test-fs-completion.c - where a filesystem runs a write's completion
 * (struct wbsim_fs_ops end_bio): ext4 converts on one worker for the whole
 * filesystem, XFS serialises one inode's ioends while inodes convert in
 * parallel, pages end writeback only once converted, overwrites convert
 * nothing, and the XFS ILOCK makes the flusher wait for a writer.
 */
#include <string.h>
#include "fs-test-util.h"
#include "core/sim.h"
#include "fs/alloc/fs.h"

#define BS 4096ull
#define NCPUS 4

/* The completion of one ioend: when its pages left writeback, and
 * whether its blocks were written (not unwritten) by then. */
struct done_rec {
	struct tfs *t;
	wbsim_fs_inode *inode;
	uint64_t first;
	wbsim_time_t at;
	gboolean called;
	gboolean converted;
};

/* The FIEMAP record of @inode holding byte offset @off is unwritten. */
static gboolean is_unwritten(struct tfs *t, wbsim_fs_inode *inode, uint64_t block)
{
	GArray *ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));
	gboolean unwritten = FALSE;

	wbsim_fs_fiemap(t->fs, inode, ext);
	for (guint i = 0; i < ext->len; i++) {
		struct wbsim_fs_extent *e = &g_array_index(ext, struct wbsim_fs_extent, i);

		if (e->logical <= block * BS && block * BS < e->logical + e->length)
			unwritten = (e->flags & WBSIM_FIEMAP_EXTENT_UNWRITTEN) != 0;
	}
	g_array_free(ext, TRUE);
	return unwritten;
}

static void rec_done(wbsim_sim *sim, void *arg)
{
	struct done_rec *r = arg;

	r->at = wbsim_sim_now(sim);
	r->called = TRUE;
	r->converted = !is_unwritten(r->t, r->inode, r->first);
}

/* A file of @blocks blocks preallocated (unwritten), as fio lays it out. */
static wbsim_fs_inode *prealloc_file(struct tfs *t, uint64_t blocks)
{
	wbsim_fs_inode *f = wbsim_fs_create(t->fs, NULL);
	GError *error = NULL;

	assert_int_not_equal(wbsim_fs_fallocate(t->fs, f, 0, blocks * BS, &error), G_MAXUINT64);
	return f;
}

/* Map [first, first + nr) for writeback (as the flusher would) and return
 * the flags of its single piece. */
static unsigned int map_flags(struct tfs *t, wbsim_fs_inode *f, uint64_t first, uint64_t nr)
{
	struct tmap m = { .maps = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_map)) };
	unsigned int flags;

	wbsim_fs_map_blocks(t->fs, f, &t->task, first, nr, tmap_done, &m);
	while (!m.done && wbsim_sim_pending(t->sim))
		wbsim_sim_run_until(t->sim, WBSIM_TIME_NEVER);
	assert_true(m.done);
	assert_int_equal(m.maps->len, 1);
	flags = g_array_index(m.maps, struct wbsim_fs_map, 0).flags;
	g_array_free(m.maps, TRUE);
	return flags;
}

static void end_bio(struct tfs *t, wbsim_fs_inode *f, uint64_t first, uint64_t nr,
		    struct done_rec *r)
{
	*r = (struct done_rec){ .t = t, .inode = f, .first = first };
	wbsim_fs_end_bio(t->fs, f, first, nr, WBSIM_FS_IO_UNWRITTEN, rec_done, r);
}

static uint64_t param(struct tfs *t, const char *key)
{
	uint64_t v = 0;

	assert_true(wbsim_fs_param_value(t->fs, key, &v));
	return v;
}

/* ext4: two inodes complete at the same moment on a 4-CPU machine; the one
 * ext4-rsv-conversion worker converts them one after the other. */
static void test_ext4_conversions_never_overlap(void **state)
{
	struct tfs t;
	wbsim_fs_inode *a, *b;
	struct done_rec ra, rb;
	wbsim_time_t cost1, cost8;

	(void)state;
	tfs_open(&t, "ext4", 4 * GiB, NULL, 0, NCPUS);
	a = prealloc_file(&t, 256);
	b = prealloc_file(&t, 256);
	cost1 = param(&t, "end_io_ns") + param(&t, "end_io_page_ns");
	cost8 = param(&t, "end_io_ns") + 8 * param(&t, "end_io_page_ns");
	end_bio(&t, a, 0, 1, &ra);
	end_bio(&t, b, 16, 8, &rb);
	/* deferred: the pages are still under writeback, the blocks unwritten */
	assert_false(ra.called);
	assert_true(is_unwritten(&t, a, 0));
	wbsim_sim_run(t.sim);
	assert_true(ra.called && rb.called);
	assert_int_equal(ra.at, cost1);
	assert_int_equal(rb.at, cost1 + cost8);	/* not in parallel with a */
	/* converted before the pages left writeback */
	assert_true(ra.converted && rb.converted);
	assert_int_equal(wbsim_fs_completion_cpu_ns(t.fs), cost1 + cost8);
	tfs_close(&t);
}

static const struct wbsim_setting no_iext_walk[] = {
	{ "iext_level_ns", "0", NULL, 0 },
};

/* XFS: inode A completes two separate ioends and inode B one, at the same
 * moment: A's are converted one after the other by A's work item, B's on
 * another worker at the same time as A's first. An ioend adjacent to one
 * already queued is merged into it: one conversion for both. */
static void test_xfs_inode_serialised_inodes_parallel(void **state)
{
	struct tfs t;
	wbsim_fs_inode *a, *b;
	struct done_rec a1, a2, a3, b1;
	wbsim_time_t c;

	(void)state;
	/* no walk of the extent list at the commits (the fork of these
	 * files is in extents format): each conversion costs the same */
	tfs_open(&t, "xfs", 4 * GiB, no_iext_walk, G_N_ELEMENTS(no_iext_walk), NCPUS);
	a = prealloc_file(&t, 256);
	b = prealloc_file(&t, 256);
	c = param(&t, "end_io_ns");
	end_bio(&t, a, 32, 4, &a2);	/* out of order: sorted by offset */
	end_bio(&t, a, 0, 4, &a1);
	end_bio(&t, a, 4, 4, &a3);	/* continues a1: merged */
	end_bio(&t, b, 0, 4, &b1);
	assert_false(a1.called || b1.called);
	wbsim_sim_run(t.sim);
	assert_int_equal(a1.at, c);
	assert_int_equal(a3.at, c);
	assert_int_equal(a2.at, 2 * c);
	assert_int_equal(b1.at, c);	/* overlaps A's first conversion */
	assert_true(a1.converted && a2.converted && a3.converted && b1.converted);
	assert_int_equal(wbsim_fs_completion_cpu_ns(t.fs), 3 * c);
	tfs_close(&t);
}

/* A write over a written extent completes in the bio's end_io context: no
 * workqueue, no conversion. */
static void test_overwrite_completes_inline(void **state)
{
	static const char *const types[] = { "xfs", "ext4", "f2fs", "ideal" };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(types); i++) {
		struct tfs t;
		wbsim_fs_inode *f;
		struct done_rec r = { 0 };

		tfs_open(&t, types[i], 4 * GiB, NULL, 0, NCPUS);
		f = wbsim_fs_create(t.fs, NULL);
		r.t = &t;
		r.inode = f;
		wbsim_fs_end_bio(t.fs, f, 0, 4, 0, rec_done, &r);
		assert_true(r.called);
		assert_int_equal(r.at, 0);
		assert_int_equal(wbsim_fs_completion_cpu_ns(t.fs), 0);
		tfs_close(&t);
	}
}

/* fio's passes over a preallocated file: the first pass writes into
 * unwritten extents (its ioends convert), the second overwrites written
 * blocks, which need no conversion (map_blocks no longer says UNWRITTEN,
 * so the writeback path completes them inline). */
static void test_second_pass_converts_nothing(void **state)
{
	static const char *const types[] = { "xfs", "ext4" };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(types); i++) {
		struct tfs t;
		wbsim_fs_inode *f;
		struct done_rec r;
		wbsim_time_t cpu_pass1;

		tfs_open(&t, types[i], 4 * GiB, NULL, 0, NCPUS);
		f = prealloc_file(&t, 64);
		/* pass 1: every block once, in random order */
		for (uint64_t k = 0; k < 64; k++) {
			uint64_t blk = (k * 37) % 64;

			wbsim_fs_write(t.fs, f, blk * BS, BS);
			assert_true(map_flags(&t, f, blk, 1) & WBSIM_FS_MAP_UNWRITTEN);
			end_bio(&t, f, blk, 1, &r);
			wbsim_sim_run(t.sim);
			assert_true(r.called && r.converted);
		}
		cpu_pass1 = wbsim_fs_completion_cpu_ns(t.fs);
		assert_true(cpu_pass1 > 0);
		/* pass 2 */
		for (uint64_t k = 0; k < 64; k++) {
			uint64_t blk = (k * 29) % 64;

			wbsim_fs_write(t.fs, f, blk * BS, BS);
			assert_false(map_flags(&t, f, blk, 1) & WBSIM_FS_MAP_UNWRITTEN);
		}
		assert_int_equal(wbsim_fs_completion_cpu_ns(t.fs), cpu_pass1);
		tfs_close(&t);
	}
}

/* XFS ILOCK: a buffered write holds it exclusively; the flusher's
 * xfs_map_blocks asks for it shared and waits; two flushers' lookups share it. */
struct ilock_writer {
	struct tfs *t;
	wbsim_fs_inode *f;
	wbsim_task task;
};

static void writer_release(wbsim_sim *sim, void *arg)
{
	struct ilock_writer *w = arg;

	(void)sim;
	wbsim_fs_write_unlock(w->t->fs, w->f, &w->task);
}

static void writer_locked(wbsim_sim *sim, void *arg)
{
	wbsim_sim_schedule_after(sim, 1000, writer_release, arg);
}

static void test_xfs_ilock_writer_and_flusher(void **state)
{
	struct tfs t;
	struct ilock_writer w;
	wbsim_task flusher2;
	wbsim_lock *ilock;
	struct tmap m1 = { .maps = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_map)) };
	struct tmap m2 = { .maps = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_map)) };

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, NULL, 0, NCPUS);
	w.t = &t;
	w.f = prealloc_file(&t, 64);
	wbsim_task_init(&w.task, "fio", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&flusher2, "kworker/flush2", WBSIM_TASK_FLUSHER);
	ilock = wbsim_fs_get_lock(t.fs, wbsim_fs_nr_locks(t.fs) - 1);
	assert_string_equal(ilock->name, "xfs-ilock");
	assert_true(wbsim_fs_write_lock(t.fs, w.f, &w.task,
					writer_locked, &w));
	wbsim_sim_run_until(t.sim, 10);
	/* the flusher's lookup waits for the writer */
	wbsim_fs_writepages_begin(t.fs, w.f, &t.task);
	wbsim_fs_map_blocks(t.fs, w.f, &t.task, 0, 4, tmap_done, &m1);
	wbsim_sim_run(t.sim);
	assert_true(m1.done);
	assert_int_equal(t.task.lock_wait_ns, 990);
	/* two flushers' lookups at once (two writepages calls, each with its
	 * writeback context) share the ILOCK: no wait */
	wbsim_fs_writepages_begin(t.fs, w.f, &t.task);
	wbsim_fs_map_blocks(t.fs, w.f, &t.task, 8, 4, tmap_done, &m2);
	m1.done = FALSE;
	wbsim_fs_writepages_begin(t.fs, w.f, &flusher2);
	wbsim_fs_map_blocks(t.fs, w.f, &flusher2, 16, 4, tmap_done, &m1);
	wbsim_sim_run(t.sim);
	assert_true(m1.done && m2.done);
	assert_int_equal(t.task.lock_wait_ns, 990);
	assert_int_equal(flusher2.lock_wait_ns, 0);
	/* the report's lock counts the ILOCK's waits like the AG locks' */
	assert_int_equal(ilock->contended, 1);
	assert_int_equal(ilock->wait_ns, 990);
	assert_int_equal(ilock->acquisitions, 4);
	g_array_free(m1.maps, TRUE);
	g_array_free(m2.maps, TRUE);
	wbsim_task_clear(&w.task);
	wbsim_task_clear(&flusher2);
	tfs_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext4_conversions_never_overlap),
		cmocka_unit_test(test_xfs_inode_serialised_inodes_parallel),
		cmocka_unit_test(test_overwrite_completes_inline),
		cmocka_unit_test(test_second_pass_converts_nothing),
		cmocka_unit_test(test_xfs_ilock_writer_and_flusher),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
