/* SPDX-License-Identifier: MIT */
/*
 * test-ext4-write-path.c - what a buffered write costs the writer in ext4's
 * ext4_da_map_blocks(), by the path the block takes: a block the extent
 * status cache maps (delayed, unwritten, written) costs the lookup,
 * write_ns per call; a block it misses (a hole, or an on-disk extent
 * the cache dropped at a remount) costs write_miss_ns. And what
 * writeback's ext4_do_writepages() costs the flusher per run: no handle for
 * blocks over written extents, map_ns per extent it maps, split_ns
 * more per extent in preallocated (unwritten) blocks, and
 * writepages_block_ns per block of the run, written or not. A timestamp update
 * (ext4_dirty_inode's journal handle) costs update_time_ns, whatever
 * the file's extents.
 */
#include "fs-test-util.h"
#include "core/host-profile.h"
#include "core/param.h"

#define BS 4096ull

static const struct wbsim_setting costs[] = {
	{ "write_ns", "400ns", "test.ini", 1 },
	{ "write_miss_ns", "2500ns", "test.ini", 2 },
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

/* Writeback maps [first, first + nr): the flusher's simulated time for it. */
static wbsim_time_t map_time(struct tfs *t, wbsim_fs_inode *f, uint64_t first, uint64_t nr)
{
	wbsim_time_t start = wbsim_sim_now(t->sim);

	tfs_writeback(t, f, NULL, first, nr);
	return wbsim_sim_now(t->sim) - start;
}

static const struct wbsim_setting map_costs[] = {
	{ "map_ns", "5us", "test.ini", 1 },
	{ "split_ns", "2us", "test.ini", 2 },
	{ "writepages_max", "4", "test.ini", 3 },
	{ "alloc_ns", "0", "test.ini", 4 },
	{ "alloc_unlocked_ns", "0", "test.ini", 5 },
	{ "pa_ns", "0", "test.ini", 6 },
	{ "end_io_ns", "0", "test.ini", 7 },
	{ "end_io_page_ns", "0", "test.ini", 8 },
	{ "writepages_block_ns", "0", "test.ini", 9 },
};

/* One handle per extent that needs mapping, as mpage_add_bh_to_extent()
 * grows it: written blocks go out unmapped and end an extent, an extent
 * holds one kind of block and at most writepages_max of them. */
static void test_writeback_extents(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;

	(void)state;
	tfs_open(&t, "ext4", 4 * GiB, map_costs, G_N_ELEMENTS(map_costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	assert_true(wbsim_fs_fallocate(t.fs, f, 0, MiB, NULL) != G_MAXUINT64);
	/* 3 preallocated blocks: one unwritten extent (and converted after) */
	assert_int_equal(map_time(&t, f, 0, 3), 5000 + 2000);
	/* the same blocks, now written: no handle, no time */
	assert_int_equal(map_time(&t, f, 0, 3), 0);
	/* written 0-2, unwritten 3-4: one extent; block 5 converted apart */
	assert_int_equal(map_time(&t, f, 5, 1), 7000);
	assert_int_equal(map_time(&t, f, 1, 4), 7000);
	/* 6..8 unwritten, 5 written: written 0..5, then one extent 6..8 */
	assert_int_equal(map_time(&t, f, 0, 9), 7000);
	/* 10 unwritten blocks, at most 4 an extent: three extents */
	assert_int_equal(map_time(&t, f, 20, 10), 3 * 7000);
	/* holes past the preallocation (delayed blocks): no split, allocation
	 * costs set to 0 here; 2 blocks */
	wbsim_fs_write(t.fs, f, 2 * MiB, 2 * BS);
	assert_int_equal(map_time(&t, f, 2 * MiB / BS, 2), 5000);
	/* an unwritten block next to a hole is two extents */
	wbsim_fs_write(t.fs, f, MiB, BS);
	assert_int_equal(map_time(&t, f, MiB / BS - 1, 2), 2 * 5000 + 2000);
	tfs_close(&t);
}

static const struct wbsim_setting folio_costs[] = {
	{ "map_ns", "5us", "test.ini", 1 },
	{ "split_ns", "2us", "test.ini", 2 },
	{ "writepages_block_ns", "300ns", "test.ini", 3 },
	{ "end_io_ns", "0", "test.ini", 4 },
	{ "end_io_page_ns", "0", "test.ini", 5 },
};

/* Every block of a run costs writepages_block_ns (its buffer head walked
 * and added to the bio), over written blocks too, where the run needs no
 * handle; on top of the extents it maps. */
static void test_writeback_per_block(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;

	(void)state;
	tfs_open(&t, "ext4", 4 * GiB, folio_costs, G_N_ELEMENTS(folio_costs), 2);
	f = wbsim_fs_create(t.fs, NULL);
	assert_true(wbsim_fs_fallocate(t.fs, f, 0, MiB, NULL) != G_MAXUINT64);
	/* 3 preallocated blocks: one unwritten extent, 3 blocks */
	assert_int_equal(map_time(&t, f, 0, 3), 5000 + 2000 + 3 * 300);
	/* the same, now written: no handle, the blocks still walked */
	assert_int_equal(map_time(&t, f, 0, 3), 3 * 300);
	assert_int_equal(map_time(&t, f, 0, 1), 300);
	tfs_close(&t);
}

/* The built-in host profile's ext4 cost @key, in ns. */
static uint64_t profile_ns(const char *key)
{
	const struct wbsim_ini_entry *e = wbsim_host_profile_lookup(key);
	uint64_t ns = 0;

	assert_non_null(e);
	assert_true(wbsim_param_parse(WBSIM_PARAM_TIME, e->value, &ns, NULL));
	return ns;
}

/* The defaults are the host profile's figures (a hole's miss, a mapped
 * block's hit, a timestamp update), each charged once where it applies. */
static void test_defaults(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	uint64_t miss = profile_ns("ext4.write_miss_ns");
	uint64_t hit = profile_ns("ext4.write_ns");
	uint64_t update = profile_ns("ext4.update_time_ns");

	(void)state;
	assert_true(miss > hit);
	tfs_open(&t, "ext4", 4 * GiB, NULL, 0, 2);
	f = wbsim_fs_create(t.fs, NULL);
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), miss);
	assert_int_equal(wbsim_fs_write(t.fs, f, 0, BS), hit);
	assert_int_equal(wbsim_fs_update_time(t.fs, f), update);
	for (uint64_t i = 1; i <= 40; i++)
		wbsim_fs_write(t.fs, f, 2 * i * BS, BS);
	assert_int_equal(wbsim_fs_update_time(t.fs, f), update);
	tfs_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hole_then_delalloc),
		cmocka_unit_test(test_prealloc_written_remount),
		cmocka_unit_test(test_writeback_extents),
		cmocka_unit_test(test_writeback_per_block),
		cmocka_unit_test(test_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
