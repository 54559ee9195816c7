/* SPDX-License-Identifier: MIT */
/*
 * test-xfs-space.c - XFS's space rules at the write: a write that starts
 * past EOF converts the preallocation beyond EOF to an unwritten extent
 * (xfs_file_write_zero_eof), so each such write leaves two extents where
 * writeback would have made one; the preallocation ends past the 64 KiB
 * boundary below the write's end; a delalloc reservation holds its blocks
 * and their worst-case indirect blocks against the free-block counter, so
 * lone blocks use it up six times faster than a sequential file, until
 * writeback turns them into extents; blockgc frees the preallocation.
 */
#include <math.h>
#include "fs-test-util.h"
#include "fs/alloc/fs-private.h"
#include "fs/alloc/xfs-btree.h"

#define BS 4096ull

static struct wbsim_fs_extent extent_at(struct tfs *t, wbsim_fs_inode *f, guint i, guint *n)
{
	GArray *ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));
	struct wbsim_fs_extent e = { 0 };

	wbsim_fs_fiemap(t->fs, f, ext);
	*n = ext->len;
	if (i < ext->len)
		e = g_array_index(ext, struct wbsim_fs_extent, i);
	g_array_free(ext, TRUE);
	return e;
}

#define assert_extent(t, f, i, log, len, unwritten)                                  \
	do {                                                                         \
		guint n_;                                                            \
		struct wbsim_fs_extent e_ = extent_at(t, f, i, &n_);                 \
		assert_true((i) < n_);                                               \
		assert_int_equal(e_.logical, (log) * BS);                            \
		assert_int_equal(e_.length, (len) * BS);                             \
		assert_int_equal(!!(e_.flags & WBSIM_FIEMAP_EXTENT_UNWRITTEN), unwritten); \
	} while (0)

/*
 * Writes at blocks 100 and 200 (the second past EOF after a hole: 64 KiB of
 * preallocation, ending at block 208), then at 300: the zeroing from EOF
 * (block 201) finds the delalloc extent 200..207 beyond EOF and converts it
 * whole; the write at 300 gets its own preallocation to block 304.
 */
static void test_zero_eof_converts_preallocation(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	guint n;

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, NULL, 0, 1);
	f = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_write(t.fs, f, 100 * BS, BS);
	wbsim_fs_write(t.fs, f, 50 * BS, BS);
	wbsim_fs_write(t.fs, f, 200 * BS, BS);
	/* no preallocation while i_size < 64 KiB; then to the boundary */
	assert_extent(&t, f, 0, 50, 1, 0);
	assert_extent(&t, f, 1, 100, 1, 0);
	assert_extent(&t, f, 2, 200, 8, 0);
	wbsim_fs_write(t.fs, f, 300 * BS, BS);
	assert_extent(&t, f, 2, 200, 8, 1);
	assert_extent(&t, f, 3, 300, 4, 0);
	(void)extent_at(&t, f, 0, &n);
	assert_int_equal(n, 4);
	assert_true(wbsim_fs_xfs_check(t.fs));
	tfs_close(&t);
}

/*
 * The rule that makes E6's 17: fill the file around the converted extent
 * and write everything back: the delalloc on either side becomes one
 * extent each, the unwritten one stays between them: 2 x 1 + 1 extents.
 * A file whose writes never skip past EOF ends in one.
 */
static void fill_and_count(gboolean skip_past_eof, uint64_t *filefrag)
{
	const uint64_t blocks = 400;
	struct tfs t;
	wbsim_fs_inode *f;

	tfs_open(&t, "xfs", 4 * GiB, NULL, 0, 1);
	f = wbsim_fs_create(t.fs, NULL);
	if (skip_past_eof) {
		wbsim_fs_write(t.fs, f, 100 * BS, BS);
		wbsim_fs_write(t.fs, f, 200 * BS, BS);
		wbsim_fs_write(t.fs, f, 300 * BS, BS);
	}
	for (uint64_t b = 0; b < blocks; b++)
		wbsim_fs_write(t.fs, f, b * BS, BS);
	tfs_writeback(&t, f, NULL, 0, blocks);
	wbsim_fs_close(t.fs, f);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	*filefrag = wbsim_fs_filefrag_count(t.fs, f);
	assert_int_equal(*filefrag, tfs_physical_runs(&t, f));
	assert_true(wbsim_fs_xfs_check(t.fs));
	tfs_close(&t);
}

static void test_extending_writes_split_the_file(void **state)
{
	uint64_t n;

	(void)state;
	fill_and_count(FALSE, &n);
	assert_int_equal(n, 1);
	fill_and_count(TRUE, &n);
	assert_int_equal(n, 3);
}

/*
 * The worst-case indirect blocks (xfs_bmap_worst_indlen): 5 bmbt levels
 * with 4 KiB blocks, so a lone block holds 1 + 5 blocks of the counter and
 * a long sequential record hardly more than its own. Fill a small
 * filesystem with lone blocks (every other block of a file) and count the
 * writes that fit; a sequential file fits about six times as many blocks.
 * Written back, the lone blocks' reservations are released (their data
 * stays) and the writes fit again.
 */
static uint64_t writes_that_fit(struct tfs *t, wbsim_fs_inode *f, uint64_t stride)
{
	uint64_t n = 0;

	while (wbsim_fs_write_space(t->fs, f, n * stride * BS, BS)) {
		wbsim_fs_write(t->fs, f, n * stride * BS, BS);
		n++;
	}
	return n;
}

static void test_reservation_counts_indirect_blocks(void **state)
{
	const struct wbsim_setting set[] = {
		{ "agcount", "1", NULL, 0 },
		{ "prealloc", "0", NULL, 0 },
		{ "reflink", "0", NULL, 0 },
	};
	struct tfs t;
	wbsim_fs_inode *lone, *seq;
	uint64_t n_lone, n_seq;

	(void)state;
	assert_int_equal(wbsim_xfs_bmap_maxlevels(4096), 5);
	assert_int_equal(wbsim_xfs_bmap_maxlevels(1024), 7);
	tfs_open(&t, "xfs", 256 * MiB, set, G_N_ELEMENTS(set), 1);
	lone = wbsim_fs_create(t.fs, NULL);
	n_lone = writes_that_fit(&t, lone, 2);
	tfs_close(&t);

	tfs_open(&t, "xfs", 256 * MiB, set, G_N_ELEMENTS(set), 1);
	seq = wbsim_fs_create(t.fs, NULL);
	n_seq = writes_that_fit(&t, seq, 1);
	/* a sequential block holds 1 + 1/251 blocks, a lone one 6 */
	assert_true(fabs((double)n_seq - 6.0 * n_lone * 251 / 252) < 0.002 * n_seq);
	tfs_close(&t);

	/* written back, a lone block holds only itself: room again */
	tfs_open(&t, "xfs", 256 * MiB, set, G_N_ELEMENTS(set), 1);
	lone = wbsim_fs_create(t.fs, NULL);
	n_lone = writes_that_fit(&t, lone, 2);
	assert_false(wbsim_fs_write_space(t.fs, lone, 2 * n_lone * BS, BS));
	for (uint64_t i = 0; i < n_lone; i++)
		tfs_writeback(&t, lone, NULL, 2 * i, 1);
	assert_true(wbsim_fs_write_space(t.fs, lone, 2 * n_lone * BS, BS));
	assert_true(wbsim_fs_xfs_check(t.fs));
	tfs_close(&t);
}

/* blockgc (the free_space hook) frees the preallocation past EOF. */
static void test_blockgc_frees_preallocation(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	guint n;

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, NULL, 0, 1);
	f = wbsim_fs_create(t.fs, NULL);
	for (uint64_t b = 0; b < 64; b++)
		wbsim_fs_write(t.fs, f, b * BS, BS);
	/* the appends' preallocation reaches past block 64 */
	(void)extent_at(&t, f, 0, &n);
	assert_int_equal(n, 1);
	assert_true(extent_at(&t, f, 0, &n).length > 64 * BS);
	wbsim_fs_free_space(t.fs);
	assert_extent(&t, f, 0, 0, 64, 0);
	tfs_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_eof_converts_preallocation),
		cmocka_unit_test(test_extending_writes_split_the_file),
		cmocka_unit_test(test_reservation_counts_indirect_blocks),
		cmocka_unit_test(test_blockgc_frees_preallocation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
