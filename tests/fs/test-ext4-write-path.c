/* SPDX-License-Identifier: MIT */
/*
 * test-ext4-write-path.c - what a buffered write costs the writer in ext4's
 * ext4_da_map_blocks(), by the path the block takes: a block the extent
 * status cache maps (delayed, unwritten, written) costs the lookup,
 * write_cpu_ns per call; a block it misses (a hole, or an on-disk extent
 * the cache dropped at a remount) costs write_miss_cpu_ns.
 */
#include "fs-test-util.h"

#define BS 4096ull

static const struct wbsim_setting costs[] = {
	{ "write_cpu_ns", "400ns", "test.ini", 1 },
	{ "write_miss_cpu_ns", "2500ns", "test.ini", 2 },
};

/* Into a hole, then the same block again (now delayed in the cache). */
static void test_hole_then_delalloc(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;

	(void)state;
	tfs_open(&t, "ext4", 4 * GiB, costs, G_N_ELEMENTS(costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	assert_int_equal(wbsim_fs_write(t.fs, f, 10 * BS, BS), 2500);
	assert_int_equal(wbsim_fs_write(t.fs, f, 10 * BS, BS), 400);
	/* 4 blocks, one of them delayed already: three misses, one call's lookup */
	assert_int_equal(wbsim_fs_write(t.fs, f, 9 * BS, 4 * BS), 3 * 2500 + 400);
	/* all four delayed now */
	assert_int_equal(wbsim_fs_write(t.fs, f, 9 * BS, 4 * BS), 400);
	tfs_close(&t);
}

/* Preallocated (unwritten) blocks and written blocks hit the cache; after a
 * remount the cache is empty and the first write of each extent misses. */
static void test_prealloc_written_remount(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;

	(void)state;
	tfs_open(&t, "ext4", 4 * GiB, costs, G_N_ELEMENTS(costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	assert_true(wbsim_fs_fallocate(t.fs, f, 0, MiB, NULL) != G_MAXUINT64);
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), 400);
	wbsim_fs_write(t.fs, f, MiB, 4 * BS);
	tfs_writeback(&t, f, NULL, MiB / BS, 4);
	assert_int_equal(wbsim_fs_write(t.fs, f, MiB, BS), 400);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	/* the first lookup misses and caches the on-disk extent; the next hits */
	assert_int_equal(wbsim_fs_write(t.fs, f, MiB + BS, BS), 2500);
	assert_int_equal(wbsim_fs_write(t.fs, f, MiB + 2 * BS, BS), 400);
	tfs_close(&t);
}

/* The defaults are the lab's figures (E1's preallocated file, E6's holes). */
static void test_defaults(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;

	(void)state;
	tfs_open(&t, "ext4", 4 * GiB, NULL, 0, 2);
	f = wbsim_fs_create(t.fs, NULL);
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), 2550);
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), 460);
	tfs_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hole_then_delalloc),
		cmocka_unit_test(test_prealloc_written_remount),
		cmocka_unit_test(test_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
