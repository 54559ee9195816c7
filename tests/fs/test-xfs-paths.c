/* SPDX-License-Identifier: MIT */
/*
 * test-xfs-paths.c - the CPU that XFS's write, writeback and completion
 * paths charge, as functions of the kernel's structures: the shape of the
 * in-core extent tree, the free-space btrees and the bmbt from their record
 * counts (exact); a buffered write into a hole costs a delalloc reservation
 * more than one into an extent, and more as the in-core tree deepens; an
 * allocation costs more once the AG's free space has more records than one
 * btree leaf holds; an unwritten conversion costs more once the file's
 * extents leave the inode for a bmbt; a transaction on a file whose real
 * extents still fit in the inode walks the whole in-core extent list,
 * delalloc records included, and stops walking once they need a bmbt;
 * a writepages call looks a mapping up (ILOCK, map_ns) only where the one
 * it cached does not cover the range or the data fork changed since.
 */
#include "fs-test-util.h"
#include "fs/alloc/fs-private.h"
#include "fs/alloc/xfs-btree.h"

#define BS 4096ull

/* Each cost set here, so that the exact figures below do not follow the defaults. */
static const struct wbsim_setting costs[] = {
	{ "write_ns", "300ns", NULL, 0 },
	{ "iext_level_ns", "100ns", NULL, 0 },
	{ "delalloc_ns", "400ns", NULL, 0 },
	{ "map_ns", "1us", NULL, 0 },
	{ "alloc_ns", "5us", NULL, 0 },
	{ "btree_level_ns", "200ns", NULL, 0 },
	{ "end_io_ns", "1us", NULL, 0 },
	{ "update_time_ns", "2us", NULL, 0 },
	{ "prealloc", "0", NULL, 0 },
};

static void test_btree_shapes(void **state)
{
	(void)state;
	/* the in-core extent tree: one leaf of 15 records, then 16-key nodes */
	assert_int_equal(wbsim_xfs_iext_height(0), 0);
	assert_int_equal(wbsim_xfs_iext_height(1), 1);
	assert_int_equal(wbsim_xfs_iext_height(15), 1);
	assert_int_equal(wbsim_xfs_iext_height(16), 2);
	assert_int_equal(wbsim_xfs_iext_height(176), 2);	/* 16 leaves of 11 */
	assert_int_equal(wbsim_xfs_iext_height(177), 3);
	assert_int_equal(wbsim_xfs_iext_height(65536), 5);
	/* bnobt/cntbt in 4 KiB blocks: 505 records a leaf, 336 keys a node */
	assert_int_equal(wbsim_xfs_allocbt_levels(0, 4096), 1);
	assert_int_equal(wbsim_xfs_allocbt_levels(505, 4096), 1);
	assert_int_equal(wbsim_xfs_allocbt_levels(506, 4096), 2);
	assert_int_equal(wbsim_xfs_allocbt_levels(378 * 336, 4096), 2);
	assert_int_equal(wbsim_xfs_allocbt_levels(378 * 336 + 1, 4096), 3);
	/* 1 KiB blocks hold fewer: (1024 - 56) / 8 = 121 records */
	assert_int_equal(wbsim_xfs_allocbt_levels(122, 1024), 2);
	/* bmbt: 21 extents in a 512-byte inode, then 251-record blocks under
	 * a root of 20 pointers in the inode */
	assert_int_equal(wbsim_xfs_bmbt_levels(21, 4096, 512), 0);
	assert_int_equal(wbsim_xfs_bmbt_levels(22, 4096, 512), 1);
	assert_int_equal(wbsim_xfs_bmbt_levels(188 * 20, 4096, 512), 1);
	assert_int_equal(wbsim_xfs_bmbt_levels(188 * 20 + 1, 4096, 512), 2);
	/* a 256-byte inode holds (256 - 176) / 16 = 5 */
	assert_int_equal(wbsim_xfs_bmbt_levels(5, 4096, 256), 0);
	assert_int_equal(wbsim_xfs_bmbt_levels(6, 4096, 256), 1);
}

/* A write into a hole pays the reservation; into an extent only the lookup. */
static void test_write_hole_against_extent(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, costs, G_N_ELEMENTS(costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	/* a hole: lookup (one-leaf tree) + reservation */
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), 300 + 400);
	/* the same block again: its delalloc extent is found */
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), 300);
	/* written back: a written extent is found too */
	tfs_writeback(&t, f, NULL, 0, 1);
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), 300);
	/* the hole next to it still pays the reservation */
	assert_int_equal(wbsim_fs_write(t.fs, f, 8 * BS, BS), 300 + 400);
	tfs_close(&t);
}

/* The lookup descends one more level of the in-core tree per level. */
static void test_write_cost_grows_with_iext_height(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, costs, G_N_ELEMENTS(costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	/* 200 separate delalloc records (every other block): height 3 */
	for (uint64_t i = 0; i < 200; i++)
		wbsim_fs_write(t.fs, f, 2 * i * BS, BS);
	assert_int_equal(wbsim_xfs_iext_height(200), 3);
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), 300 + 2 * 100);
	/* a hole after the last record: found nothing, reserves */
	assert_int_equal(wbsim_fs_write(t.fs, f, 401 * BS, BS), 300 + 2 * 100 + 400);
	tfs_close(&t);
}

/* The flusher's CPU for writing back [first, first + nr) of @f. */
static wbsim_time_t writeback_cpu(struct tfs *t, wbsim_fs_inode *f, uint64_t first, uint64_t nr)
{
	wbsim_time_t before = t->task.cpu_ns;

	tfs_writeback(t, f, NULL, first, nr);
	return t->task.cpu_ns - before;
}

/* The ILOCK acquisitions the filesystem has counted (its summed lock). */
static uint64_t ilock_acquisitions(struct tfs *t)
{
	for (guint i = 0; i < t->fs->locks->len; i++) {
		wbsim_lock *l = g_ptr_array_index(t->fs->locks, i);

		if (g_str_equal(l->name, "xfs-ilock"))
			return l->acquisitions;
	}
	fail_msg("no xfs-ilock");
	return 0;
}

/*
 * xfs_imap_valid(): within one writepages call, a range the cached mapping
 * covers needs no lookup while the data fork is unchanged (no ILOCK, no
 * map_ns); a delalloc reservation elsewhere in the file, a conversion at
 * I/O completion, or a new writepages call (a new xfs_writepage_ctx) make
 * the next range look up again.
 */
static void test_map_cached_while_data_fork_unchanged(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	wbsim_time_t before;
	uint64_t locks;

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, costs, G_N_ELEMENTS(costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_write(t.fs, f, 0, 16 * BS);
	tfs_writeback(&t, f, NULL, 0, 16);	/* one written extent of 16 blocks */
	/* a new call: the lookup under the ILOCK */
	locks = ilock_acquisitions(&t);
	assert_int_equal(writeback_cpu(&t, f, 0, 4), 1000);
	assert_int_equal(ilock_acquisitions(&t), locks + 1);
	/* the same call, inside the extent it cached: nothing */
	before = t.task.cpu_ns;
	tfs_writeback_more(&t, f, NULL, 8, 4);
	assert_int_equal(t.task.cpu_ns - before, 0);
	assert_int_equal(ilock_acquisitions(&t), locks + 1);
	/* a write into the hole past the extent reserves delalloc: the data
	 * fork changed, so the next range is looked up again */
	assert_int_equal(wbsim_fs_write(t.fs, f, 20 * BS, BS), 300 + 400);
	before = t.task.cpu_ns;
	tfs_writeback_more(&t, f, NULL, 12, 2);
	assert_int_equal(t.task.cpu_ns - before, 1000);
	assert_int_equal(ilock_acquisitions(&t), locks + 2);
	/* and cached again within the same call */
	before = t.task.cpu_ns;
	tfs_writeback_more(&t, f, NULL, 14, 2);
	assert_int_equal(t.task.cpu_ns - before, 0);
	/* a range beyond the cached extent is looked up */
	before = t.task.cpu_ns;
	tfs_writeback_more(&t, f, NULL, 20, 1);
	assert_true(t.task.cpu_ns - before >= 1000);
	tfs_close(&t);
}

/*
 * An allocation searches and updates both free-space btrees: once the AG's
 * free space is split into more records than a leaf holds (505), each has
 * a second level, and each of an allocation's seven lookups in them one
 * level more.
 */
static void test_alloc_cost_grows_with_free_records(void **state)
{
	struct tfs t;
	wbsim_fs_inode *frag, *a, *b;
	wbsim_time_t fresh, fragmented;

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, costs, G_N_ELEMENTS(costs), 2);
	a = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_write(t.fs, a, 0, BS);
	/* map, transaction, 4 cntbt and 3 bnobt lookups of one level, no bmbt */
	fresh = writeback_cpu(&t, a, 0, 1);
	assert_int_equal(fresh, 1000 + 5000 + 7 * 1 * 200);
	/* every other block of a file, written back one by one: each allocation
	 * keeps the logical gap, so each leaves a one-block free extent */
	frag = wbsim_fs_create(t.fs, NULL);
	for (uint64_t i = 0; i < 1000; i++) {
		wbsim_fs_write(t.fs, frag, 2 * i * BS, BS);
		tfs_writeback(&t, frag, NULL, 2 * i, 1);
	}
	assert_true(wbsim_fs_xfs_check(t.fs));
	b = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_write(t.fs, b, 0, BS);
	fragmented = writeback_cpu(&t, b, 0, 1);
	assert_int_equal(fragmented, 1000 + 5000 + 7 * 2 * 200);
	assert_true(fragmented > fresh);
	tfs_close(&t);
}

/*
 * A conversion updates the file's bmbt: free of it while the extents fit
 * in the inode (21), one level more once they do not, per record looked up
 * or inserted.
 */
static void test_conversion_cost_grows_with_bmbt(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	GError *error = NULL;

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, costs, G_N_ELEMENTS(costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	/* unwritten extents over 64 blocks, converted one block in two: each
	 * conversion splits off records */
	assert_int_not_equal(wbsim_fs_fallocate(t.fs, f, 0, 64 * BS, &error), G_MAXUINT64);
	/* the extents still fit in the inode: the commit copies them out of
	 * the in-core list ([0] written, [1, 64) unwritten: 2 records) */
	assert_int_equal(wbsim_fs_end_io(t.fs, f, 0, 1), 1000 + 2 * 100 / 15);
	for (uint64_t i = 1; i < 16; i++)
		wbsim_fs_end_io(t.fs, f, 2 * i, 1);
	assert_true(wbsim_fs_nr_extents(t.fs, f) > 21);
	/* a block from the middle of the unwritten tail [32, 64): the record
	 * found, and two inserted (written [40], unwritten [41, 64)) */
	assert_int_equal(wbsim_fs_end_io(t.fs, f, 40, 1), 1000 + 3 * 200);
	/* the next block joins [40] and shortens the tail: no record added */
	assert_int_equal(wbsim_fs_end_io(t.fs, f, 41, 1), 1000 + 200);
	/* nothing unwritten there any more: nothing to convert */
	assert_int_equal(wbsim_fs_end_io(t.fs, f, 40, 1), 0);
	tfs_close(&t);
}

/*
 * xfs_vn_update_time: the transaction, and the inode's format at its
 * commit, which walks every in-core record (delalloc ones too) while the
 * data fork is in extents format and holds a real extent.
 */
static void test_update_time_walks_extent_list(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	GError *error = NULL;

	(void)state;
	tfs_open(&t, "xfs", 4 * GiB, costs, G_N_ELEMENTS(costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	assert_int_equal(wbsim_fs_update_time(t.fs, f), 2000);
	/* 30 delalloc records, no real extent: nothing to copy */
	for (uint64_t i = 1; i <= 30; i++)
		wbsim_fs_write(t.fs, f, 2 * i * BS, BS);
	assert_int_equal(wbsim_fs_update_time(t.fs, f), 2000);
	/* one unwritten extent: the walk covers all 31 records */
	assert_int_not_equal(wbsim_fs_fallocate(t.fs, f, 0, BS, &error), G_MAXUINT64);
	assert_int_equal(wbsim_fs_update_time(t.fs, f), 2000 + 31 * 100 / 15);
	/* 21 more (22 real extents): the fork is a btree, its root is logged */
	for (uint64_t i = 0; i < 21; i++)
		assert_int_not_equal(wbsim_fs_fallocate(t.fs, f, (101 + 2 * i) * BS, BS, &error),
				     G_MAXUINT64);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 22);
	assert_int_equal(wbsim_fs_update_time(t.fs, f), 2000);
	tfs_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_btree_shapes),
		cmocka_unit_test(test_write_hole_against_extent),
		cmocka_unit_test(test_write_cost_grows_with_iext_height),
		cmocka_unit_test(test_alloc_cost_grows_with_free_records),
		cmocka_unit_test(test_conversion_cost_grows_with_bmbt),
		cmocka_unit_test(test_update_time_walks_extent_list),
		cmocka_unit_test(test_map_cached_while_data_fork_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
