/* SPDX-License-Identifier: MIT */
/*
 * test-fs-layout.c - where XFS, ext4, F2FS and the ideal filesystem put a
 * file's blocks, and what FIEMAP/filefrag report before writeback, after
 * writeback and after a remount.
 */
#include <string.h>
#include "fs-test-util.h"
#include "fs/alloc/fs-private.h"
#include "core/sim.h"
#include "fs/alloc/fs.h"

#define BS 4096ull

/* Write [0, bytes) sequentially in 1 MiB buffered writes. */
static void write_seq(struct tfs *t, wbsim_fs_inode *f, uint64_t bytes)
{
	for (uint64_t off = 0; off < bytes; off += MiB)
		wbsim_fs_write(t->fs, f, off, MiB);
}

static void writeback_seq(struct tfs *t, wbsim_fs_inode *f, uint64_t blocks, uint64_t chunk)
{
	for (uint64_t b = 0; b < blocks; b += chunk)
		tfs_writeback(t, f, NULL, b, MIN(chunk, blocks - b));
}

/*
 * XFS, 1 GiB written sequentially on an empty 16 GiB filesystem: the
 * whole delalloc extent (with its speculative preallocation) is converted
 * at the first writeback call into one extent, since 262144 blocks are
 * less than XFS_MAX_BMBT_EXTLEN; the unwritten post-EOF part is a second
 * record until close trims it.
 */
static void test_xfs_seq_1g(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	uint64_t blocks = GiB / BS;

	tfs_open(&t, "xfs", 16 * GiB, NULL, 0, 4);
	f = wbsim_fs_create(t.fs, NULL);
	write_seq(&t, f, GiB);
	/* before writeback: one delayed extent reaching beyond EOF */
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 0);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 1);
	assert_int_equal(tfs_fiemap_records(&t, f), 1);
	writeback_seq(&t, f, blocks, 1024);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 1);
	assert_int_equal(tfs_physical_runs(&t, f), 1);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 2);	/* written + post-EOF unwritten */
	wbsim_fs_close(t.fs, f);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), (blocks + 2097151 - 1) / 2097151);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 1);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 1);
	tfs_close(&t);
}

/* The same with max_extent = 65536: 4 records, still one filefrag extent. */
static void test_xfs_seq_1g_short_records(void **state)
{
	static const struct wbsim_setting set[] = {
		{ "max_extent", "65536", "test.ini", 3 },
	};
	struct tfs t;
	wbsim_fs_inode *f;

	tfs_open(&t, "xfs", 16 * GiB, set, 1, 4);
	f = wbsim_fs_create(t.fs, NULL);
	write_seq(&t, f, GiB);
	writeback_seq(&t, f, GiB / BS, 1024);
	wbsim_fs_close(t.fs, f);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), GiB / BS / 65536);
	assert_int_equal(tfs_fiemap_records(&t, f), 4);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 1);
	/* filefrag -v: one line per record, each 65536 blocks long */
	{
		g_autoptr(GArray) len = g_array_new(FALSE, FALSE, sizeof(uint64_t));

		assert_int_equal(wbsim_fs_filefrag_verbose(t.fs, f, len), 1);
		assert_int_equal(len->len, 4);
		for (guint i = 0; i < len->len; i++)
			assert_int_equal(g_array_index(len, uint64_t, i), 65536);
	}
	tfs_close(&t);
}

/*
 * ext4, 1 GiB sequential on an empty 16 GiB filesystem (128 groups, 8 flex
 * groups, 1024 reserved GDT blocks, 64-byte descriptors). By hand: the
 * first 8 MiB window (stream allocation from group 0, cr0 aligned on 2048)
 * lands at block 10240, just after flex group 0's metadata (1 + 2 + 1024 +
 * 16 x 514 = 9251 blocks); windows then merge to the left until group 1,
 * whose backup superblock and GDT (1027 blocks) push the next aligned
 * window to 34816; groups 3, 5 and 7 break the file the same way. Runs:
 * 22528 + 3 x 63488 + 49152 blocks = 5 physical runs; the on-disk tree
 * splits them at 32768 blocks: 1 + 2 + 2 + 2 + 2 = 9 extents, at least
 * the 8 = 1 GiB / 128 MiB the maximum length implies. filefrag counts
 * physically contiguous records as one: 5.
 */
static void test_ext4_seq_1g(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	GArray *ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));
	uint64_t free0;

	tfs_open(&t, "ext4", 16 * GiB, NULL, 0, 4);
	f = wbsim_fs_create(t.fs, NULL);
	free0 = wbsim_fs_free_blocks(t.fs);
	write_seq(&t, f, GiB);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 1);	/* one delayed ES extent */
	writeback_seq(&t, f, GiB / BS, 1024);
	wbsim_fs_fiemap(t.fs, f, ext);
	assert_int_equal(g_array_index(ext, struct wbsim_fs_extent, 0).physical, 10240 * BS);
	assert_int_equal(g_array_index(ext, struct wbsim_fs_extent, 1).physical, 34816 * BS);
	assert_int_equal(ext->len, 5);		/* ES merges beyond 32768 blocks */
	assert_int_equal(tfs_physical_runs(&t, f), 5);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 5);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 9);
	assert_true(wbsim_fs_nr_extents(t.fs, f) >= GiB / BS / 32768);
	/* filefrag -v's lengths, in blocks: the five runs above */
	{
		static const uint64_t want[] = { 22528, 63488, 63488, 63488, 49152 };
		g_autoptr(GArray) len = g_array_new(FALSE, FALSE, sizeof(uint64_t));

		assert_int_equal(wbsim_fs_filefrag_verbose(t.fs, f, len), 5);
		assert_int_equal(len->len, G_N_ELEMENTS(want));
		assert_memory_equal(len->data, want, sizeof(want));
	}
	wbsim_fs_close(t.fs, f);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	/* first FIEMAP after mount reads the on-disk tree: 9 records ... */
	assert_int_equal(tfs_fiemap_records(&t, f), 9);
	/* ... and caches them; the ES tree merges them back to 5 */
	assert_int_equal(tfs_fiemap_records(&t, f), 5);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 5);
	/* extents cross group boundaries: freeing must split them per group */
	wbsim_fs_truncate(t.fs, f, 0);
	assert_true(wbsim_fs_ext4_check(t.fs));
	assert_true(wbsim_fs_remount(t.fs, NULL));
	assert_int_equal(wbsim_fs_free_blocks(t.fs), free0);
	g_array_free(ext, TRUE);
	tfs_close(&t);
}

/* Random 4 KiB writes over half of a 64 MiB file (a random permutation). */
static uint8_t *write_random_half(struct tfs *t, wbsim_fs_inode *f, uint64_t blocks,
				  uint64_t seed, uint64_t *runs)
{
	uint8_t *dirty = g_new0(uint8_t, blocks);
	uint64_t *perm = g_new(uint64_t, blocks);
	wbsim_rng rng;

	wbsim_rng_seed(&rng, seed);
	for (uint64_t i = 0; i < blocks; i++)
		perm[i] = i;
	for (uint64_t i = blocks - 1; i > 0; i--) {
		uint64_t j = wbsim_rng_below(&rng, i + 1), x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	for (uint64_t i = 0; i < blocks / 2; i++) {
		wbsim_fs_write(t->fs, f, perm[i] * BS, BS);
		dirty[perm[i]] = 1;
	}
	*runs = 0;
	for (uint64_t b = 0; b < blocks; b++)
		if (dirty[b] && (b == 0 || !dirty[b - 1]))
			(*runs)++;
	g_free(perm);
	return dirty;
}

/* The next run of dirty blocks at or after *@b: [*@b, *@e). */
static gboolean next_run(const uint8_t *dirty, uint64_t blocks, uint64_t *b, uint64_t *e)
{
	while (*b < blocks && !dirty[*b])
		(*b)++;
	if (*b >= blocks)
		return FALSE;
	for (*e = *b; *e < blocks && dirty[*e]; (*e)++)
		;
	return TRUE;
}

static void writeback_runs(struct tfs *t, wbsim_fs_inode *f, const uint8_t *dirty,
			   uint64_t blocks)
{
	uint64_t e;

	for (uint64_t b = 0; next_run(dirty, blocks, &b, &e); b = e)
		tfs_writeback(t, f, NULL, b, e - b);
}

/*
 * XFS's runs that keep the logical distance on disk (tfs_physical_runs())
 * after the runs of @dirty are written back in file order on an empty
 * filesystem: xfs_bmap_adjacent() keeps the logical gap before a run only
 * when it is at most 4 times the run's length (XFS_ALLOC_GAP_UNITS); a run
 * after a larger gap starts right after the previous one on disk.
 */
static uint64_t xfs_expected_runs(const uint8_t *dirty, uint64_t blocks)
{
	uint64_t runs = 0, prev_end = 0, e;

	for (uint64_t b = 0; next_run(dirty, blocks, &b, &e); b = e) {
		if (runs == 0 || b - prev_end > 4 * (e - b))
			runs++;
		prev_end = e;
	}
	return runs;
}

/*
 * The three moments of experiment E6 on a small scale, for XFS and ext4:
 * (a) before writeback every run of dirty pages is a delayed record at
 * physical 0, so filefrag counts each; (b) written back in file order,
 * XFS keeps the small logical gaps and closes the large ones
 * (xfs_bmap_adjacent: xfs_expected_runs()) and ext4 maps whole 8 MiB
 * windows (inode preallocation), so every record sits where the previous
 * one predicts, at the logical distance or right after it, and filefrag
 * (which counts neither as a new extent) counts 1 while the raw count is
 * one record per run (XFS starts just after the inode chunk, at block 24,
 * ext4 at the first 2048-aligned block after flex group 0's metadata,
 * 10240); (c) a remount changes neither
 * (no post-EOF blocks: the file was sized by truncate, as fio does, so no
 * write extended it).
 */
static void stages(const char *type)
{
	const uint64_t blocks = 64 * MiB / BS;
	struct tfs t;
	wbsim_fs_inode *f;
	uint64_t runs, b_frag, b_raw, b_rec;
	uint8_t *dirty;

	tfs_open(&t, type, 16 * GiB, NULL, 0, 4);
	f = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_truncate(t.fs, f, 64 * MiB);
	dirty = write_random_half(&t, f, blocks, 5, &runs);
	assert_true(runs > 1000);
	/* (a) */
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), runs);
	assert_int_equal(tfs_fiemap_records(&t, f), runs);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 0);
	/* (b) */
	writeback_runs(&t, f, dirty, blocks);
	b_frag = wbsim_fs_filefrag_count(t.fs, f);
	b_raw = wbsim_fs_nr_extents(t.fs, f);
	b_rec = tfs_fiemap_records(&t, f);
	assert_int_equal(b_frag, 1);
	if (strcmp(type, "xfs") == 0) {
		/* the rule's runs, in a file where it closes some gaps, not all */
		uint64_t kept = xfs_expected_runs(dirty, blocks);

		assert_true(kept > 1 && kept < runs);
		assert_int_equal(tfs_physical_runs(&t, f), kept);
	} else {
		assert_int_equal(tfs_physical_runs(&t, f), 1);
	}
	assert_int_equal(b_raw, runs);
	assert_int_equal(b_rec, runs);
	/* (c) */
	wbsim_fs_close(t.fs, f);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), b_frag);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), b_raw);
	assert_int_equal(tfs_fiemap_records(&t, f), b_rec);
	g_free(dirty);
	tfs_close(&t);
}

static void test_stages_xfs(void **state)
{
	stages("xfs");
}

static void test_stages_ext4(void **state)
{
	stages("ext4");
}

/*
 * ext4's on-disk extents merge only within a leaf block of the tree (340
 * extents with 4 KiB blocks). A 64 MiB file (16,384 blocks) gets its even
 * blocks first, each written back and converted on its own in file order:
 * 8,192 extents, appended leaf after leaf (a full leaf's last extent is
 * followed by a new leaf holding the new one): 24 full leaves (0..678,
 * 680..1358, ...) and one of 32. Then the odd blocks, in file order: block
 * 1 finds leaf 0 full, the extents after its left neighbour (2..678) move
 * to a new leaf, and block 1 merges with 0 at its conversion but not with
 * 2 (another leaf); the rest of that leaf merges into one extent, the next
 * hole (679) joins it from the left, and every full leaf splits so once:
 * 25 + 24 leaves of one extent each, 49 extents where one 16,384-block
 * extent would do, though the file is one physical run (the inode's
 * preallocations hold the odd blocks' places; the tree's 49 leaf blocks
 * and its index block take free blocks of group 0 below the file's first
 * window, at 10240, after flex group 0's metadata). The first FIEMAP after a
 * remount reads the tree (49 records), the ES cache merges them (1).
 */
static void test_ext4_extents_merge_within_leaves(void **state)
{
	const uint64_t blocks = 64 * MiB / BS;
	struct tfs t;
	wbsim_fs_inode *f;

	tfs_open(&t, "ext4", 16 * GiB, NULL, 0, 4);
	f = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_truncate(t.fs, f, 64 * MiB);
	for (uint64_t odd = 0; odd < 2; odd++) {
		for (uint64_t b = odd; b < blocks; b += 2)
			wbsim_fs_write(t.fs, f, b * BS, BS);
		for (uint64_t b = odd; b < blocks; b += 2)
			tfs_writeback(&t, f, NULL, b, 1);
		if (!odd)
			assert_int_equal(wbsim_fs_nr_extents(t.fs, f), blocks / 2);
		assert_true(wbsim_fs_ext4_check(t.fs));
	}
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 49);
	assert_int_equal(tfs_physical_runs(&t, f), 1);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 1);
	wbsim_fs_close(t.fs, f);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	assert_int_equal(tfs_fiemap_records(&t, f), 49);
	assert_int_equal(tfs_fiemap_records(&t, f), 1);
	/* truncated to 1,000 blocks: the leaves past it are freed */
	wbsim_fs_truncate(t.fs, f, 1000 * BS);
	assert_true(wbsim_fs_ext4_check(t.fs));
	/* 0-1, 2-679, 680-681 (the leaf block 681 split off), 682-999 */
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 4);
	tfs_close(&t);
}

/*
 * XFS appending: (b) and (c) differ in the raw count because the unwritten
 * speculative preallocation beyond EOF is a record until the remount
 * (eviction) frees it; filefrag is 1 throughout.
 */
static void test_stages_xfs_append(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;

	tfs_open(&t, "xfs", 16 * GiB, NULL, 0, 4);
	f = wbsim_fs_create(t.fs, NULL);
	write_seq(&t, f, 100 * MiB);
	writeback_seq(&t, f, 100 * MiB / BS, 1024);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 2);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 1);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	assert_int_equal(wbsim_fs_nr_extents(t.fs, f), 1);
	assert_int_equal(wbsim_fs_filefrag_count(t.fs, f), 1);
	tfs_close(&t);
}

/*
 * XFS's minimum length across AGs (xfs_bmap_select_minlen): a file fills
 * most of AG 0 (2 GiB, 4 AGs of 128Ki blocks; 3,048 blocks are left), and a second file in the
 * same directory (AG 0) then writes 16 MiB. Its delalloc stretch is longer
 * than anything AG 0 has left, so writeback allocates it whole in AG 1,
 * just past AG 1's headers, instead of splitting it in the goal's AG.
 */
static void test_xfs_minlen_next_ag(void **state)
{
	const uint64_t agblocks = 2 * GiB / 4 / BS;
	struct tfs t;
	wbsim_fs_inode *a, *b;
	GArray *ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));

	tfs_open(&t, "xfs", 2 * GiB, NULL, 0, 4);
	a = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_truncate(t.fs, a, 500 * MiB);	/* sized first: no preallocation */
	write_seq(&t, a, 500 * MiB);
	writeback_seq(&t, a, 500 * MiB / BS, 1024);
	wbsim_fs_close(t.fs, a);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, a), 1);
	b = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_truncate(t.fs, b, 16 * MiB);
	write_seq(&t, b, 16 * MiB);
	writeback_seq(&t, b, 16 * MiB / BS, 1024);
	wbsim_fs_close(t.fs, b);
	assert_int_equal(wbsim_fs_nr_extents(t.fs, b), 1);
	wbsim_fs_fiemap(t.fs, b, ext);
	assert_int_equal(ext->len, 1);
	assert_int_equal(g_array_index(ext, struct wbsim_fs_extent, 0).length, 16 * MiB);
	assert_int_equal(g_array_index(ext, struct wbsim_fs_extent, 0).physical,
			 (agblocks + 16) * BS);
	g_array_free(ext, TRUE);
	tfs_close(&t);
}

/* Overwrite 10% of a written 16 MiB file at random, write it back in order. */
static void overwrite(const char *type, uint64_t *before, uint64_t *after)
{
	const uint64_t blocks = 16 * MiB / BS;
	struct tfs t;
	wbsim_fs_inode *f;
	uint8_t *dirty = g_new0(uint8_t, blocks);
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 11);
	tfs_open(&t, type, 16 * GiB, NULL, 0, 4);
	f = wbsim_fs_create(t.fs, NULL);
	write_seq(&t, f, 16 * MiB);
	writeback_seq(&t, f, blocks, 1024);
	wbsim_fs_close(t.fs, f);
	*before = wbsim_fs_filefrag_count(t.fs, f);
	for (uint64_t i = 0; i < blocks / 10; i++) {
		uint64_t b = wbsim_rng_below(&rng, blocks);

		wbsim_fs_write(t.fs, f, b * BS, BS);
		dirty[b] = 1;
	}
	writeback_runs(&t, f, dirty, blocks);
	*after = wbsim_fs_filefrag_count(t.fs, f);
	assert_int_equal(*after, tfs_physical_runs(&t, f));
	g_free(dirty);
	tfs_close(&t);
}

static void test_overwrites(void **state)
{
	uint64_t before, after;

	overwrite("f2fs", &before, &after);
	assert_int_equal(before, 1);
	assert_true(after > 300);	/* ~370 relocated runs, each splitting the file */
	overwrite("xfs", &before, &after);
	assert_int_equal(before, 1);
	assert_int_equal(after, 1);
	overwrite("ext4", &before, &after);
	assert_int_equal(before, 1);
	assert_int_equal(after, 1);
}

/* filefrag's line, and the ideal filesystem's 1:1 contiguous regions. */
static void test_ideal_and_line(void **state)
{
	struct tfs t;
	wbsim_fs_inode *a, *b;
	GArray *ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));
	char *line;

	tfs_open(&t, "ideal", 16 * GiB, NULL, 0, 1);
	a = wbsim_fs_create(t.fs, NULL);
	b = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_write(t.fs, a, 0, 8 * MiB);
	wbsim_fs_write(t.fs, b, 0, 8 * MiB);
	/* interleaved writeback cannot fragment: regions are fixed at creation */
	for (uint64_t c = 0; c < 2048; c += 64) {
		tfs_writeback(&t, a, NULL, c, 64);
		tfs_writeback(&t, b, NULL, c, 64);
	}
	wbsim_fs_fiemap(t.fs, b, ext);
	assert_int_equal(ext->len, 1);
	assert_int_equal(g_array_index(ext, struct wbsim_fs_extent, 0).physical, GiB);
	line = wbsim_fs_filefrag_line(t.fs, a, "/mnt/a");
	assert_string_equal(line, "/mnt/a: 1 extent found");
	g_free(line);
	/* a hole keeps the count at 1 (the expected block skips it), a jump does not */
	wbsim_fs_write(t.fs, a, GiB + 4 * MiB, 4096);	/* beyond the 1 GiB region */
	tfs_writeback(&t, a, NULL, (GiB + 4 * MiB) / BS, 1);
	line = wbsim_fs_filefrag_line(t.fs, a, "/mnt/a");
	assert_string_equal(line, "/mnt/a: 2 extents found");
	g_free(line);
	g_array_free(ext, TRUE);
	tfs_close(&t);
}

/* Parameters: overrides apply in order; bad ones are named with file and line. */
static void test_params(void **state)
{
	static const struct wbsim_setting good[] = {
		{ "agcount", "8", "s.ini", 4 }, { "agcount", "16", "s.ini", 5 },
		{ "alloc_ns", "2us", "s.ini", 6 },
	};
	static const struct wbsim_setting unknown[] = { { "agcnt", "8", "s.ini", 7 } };
	static const struct wbsim_setting bad[] = { { "agcount", "four", "s.ini", 9 } };
	static const struct wbsim_setting range[] = { { "flex_bg", "0", "s.ini", 2 } };
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	GError *error = NULL;
	wbsim_fs *fs;
	uint64_t v;

	fs = wbsim_fs_new("xfs", sim, cpus, 16 * GiB, good, 3, &error);
	assert_non_null(fs);
	assert_true(wbsim_fs_param_value(fs, "agcount", &v));
	assert_int_equal(v, 16);
	assert_true(wbsim_fs_param_value(fs, "alloc_ns", &v));
	assert_int_equal(v, 2000);
	assert_int_equal(wbsim_fs_nr_locks(fs), 17);	/* 16 AGF locks and the ILOCKs summed */
	wbsim_fs_free(fs);
	assert_null(wbsim_fs_new("xfs", sim, cpus, 16 * GiB, unknown, 1, &error));
	assert_int_equal(error->code, WBSIM_ERROR_UNKNOWN_KEY);
	assert_non_null(strstr(error->message, "s.ini:7"));
	assert_non_null(strstr(error->message, "agcnt"));
	g_clear_error(&error);
	assert_null(wbsim_fs_new("xfs", sim, cpus, 16 * GiB, bad, 1, &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
	assert_non_null(strstr(error->message, "s.ini:9"));
	assert_non_null(strstr(error->message, "four"));
	g_clear_error(&error);
	assert_null(wbsim_fs_new("ext4", sim, cpus, 16 * GiB, range, 1, &error));
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
	assert_non_null(strstr(error->message, "flex_bg"));
	g_clear_error(&error);
	assert_null(wbsim_fs_new("zfs", sim, cpus, 16 * GiB, NULL, 0, &error));
	assert_non_null(strstr(error->message, "xfs"));
	g_clear_error(&error);
	/* checking without building: same verdicts, same messages */
	assert_true(wbsim_fs_check_settings("xfs", "", good, 3, &error));
	assert_false(wbsim_fs_check_settings("xfs", "", unknown, 1, &error));
	assert_non_null(strstr(error->message, "s.ini:7"));
	g_clear_error(&error);
	assert_false(wbsim_fs_check_settings("btrfs", "s.ini:1: ", NULL, 0, &error));
	assert_true(g_str_has_prefix(error->message, "s.ini:1: "));
	g_clear_error(&error);
	{
		char *text = wbsim_fs_describe("xfs", good, 3);

		assert_non_null(strstr(text, "\nagcount = 16\n"));
		/* a cost is the host's: [costs] prints it, as the run takes it */
		assert_null(strstr(text, "alloc_ns"));
		assert_string_equal(wbsim_fs_cost_value("xfs", "alloc_ns", good, 3), "2us");
		assert_non_null(strstr(text, "\nag_trylock = 1\n"));
		g_free(text);
		text = wbsim_fs_describe("ext4", NULL, 0);
		assert_non_null(strstr(text, "\nreserved_gdt = auto\n"));
		g_free(text);
	}
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/*
 * Free-space accounting is exact: after writeback, truncate and remount.
 * ext4's extent tree takes blocks of its own: the file written at random
 * holds one record a run (written back in file order, nothing merges), so
 * once they outgrow the inode's four, full leaves of 340 and, past four
 * leaves, one index block.
 */
static void accounting(const char *type)
{
	const uint64_t blocks = 32 * MiB / BS;
	struct tfs t;
	wbsim_fs_inode *f, *g;
	uint64_t free0, runs, tree = 0;
	uint8_t *dirty;

	tfs_open(&t, type, 4 * GiB, NULL, 0, 2);
	f = wbsim_fs_create(t.fs, wbsim_fs_mkdir(t.fs, NULL));
	g = wbsim_fs_create(t.fs, NULL);
	/* measured after the inodes exist: XFS inode chunks take blocks */
	free0 = wbsim_fs_free_blocks(t.fs);
	assert_true(free0 < wbsim_fs_nr_blocks(t.fs));
	write_seq(&t, f, 32 * MiB);
	wbsim_fs_truncate(t.fs, g, 32 * MiB);
	dirty = write_random_half(&t, g, blocks, 3, &runs);
	if (!strcmp(type, "ext4") && runs > 4) {
		tree = (runs + 339) / 340;
		tree += tree > 4;
	}
	writeback_seq(&t, f, blocks, 1000);
	writeback_runs(&t, g, dirty, blocks);
	wbsim_fs_close(t.fs, f);
	wbsim_fs_close(t.fs, g);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	/* used blocks are exactly the files' blocks and ext4's tree blocks */
	assert_true(tree == 0 || tree > 5);
	assert_int_equal(free0 - wbsim_fs_free_blocks(t.fs), blocks + blocks / 2 + tree);
	wbsim_fs_truncate(t.fs, f, 0);
	wbsim_fs_truncate(t.fs, g, 0);
	assert_true(wbsim_fs_remount(t.fs, NULL));
	assert_int_equal(wbsim_fs_free_blocks(t.fs), free0);
	if (!strcmp(type, "xfs"))
		assert_true(wbsim_fs_xfs_check(t.fs));
	if (!strcmp(type, "ext4"))
		assert_true(wbsim_fs_ext4_check(t.fs));
	g_free(dirty);
	tfs_close(&t);
}

static void test_accounting(void **state)
{
	accounting("xfs");
	accounting("ext4");
	accounting("f2fs");
}

/* A remount with dirty (delayed) data inside EOF is refused. */
static void test_remount_dirty(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f;
	GError *error = NULL;

	tfs_open(&t, "ext4", 4 * GiB, NULL, 0, 1);
	f = wbsim_fs_create(t.fs, NULL);
	wbsim_fs_write(t.fs, f, 0, 4096);
	assert_false(wbsim_fs_remount(t.fs, &error));
	assert_int_equal(error->code, WBSIM_ERROR_SIMULATION);
	g_clear_error(&error);
	tfs_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xfs_seq_1g),
		cmocka_unit_test(test_xfs_seq_1g_short_records),
		cmocka_unit_test(test_ext4_seq_1g),
		cmocka_unit_test(test_stages_xfs),
		cmocka_unit_test(test_stages_ext4),
		cmocka_unit_test(test_stages_xfs_append),
		cmocka_unit_test(test_ext4_extents_merge_within_leaves),
		cmocka_unit_test(test_xfs_minlen_next_ag),
		cmocka_unit_test(test_overwrites),
		cmocka_unit_test(test_ideal_and_line),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_remount_dirty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
