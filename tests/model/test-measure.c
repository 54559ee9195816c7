/* SPDX-License-Identifier: MIT */
/*
 * test-measure.c - [measure] extents: filefrag counts at the moments of
 * experiment E6 (just after fio exits, later, after unmount and mount) on a
 * small XFS file written with 4 KiB random writes, and what the XFS model
 * implies for each:
 *
 * - fio writes 256 random blocks of a 1024-block file (io_size = 1m of
 *   size = 4m), far below the background threshold, and exits within
 *   milliseconds: nothing is written back by the kernel's own writeback
 *   yet, every written block is delayed allocation, except where a write
 *   past EOF found the preallocation beyond EOF and converted it to an
 *   unwritten extent (xfs_file_write_zero_eof: a few, one per running
 *   maximum of the offsets after the first few). filefrag (without -s)
 *   asks FIEMAP with fm_flags 0, no FIEMAP_FLAG_SYNC, so it sees the
 *   delayed extents: one DELALLOC record at physical 0 per run of written
 *   blocks, each counted apart (on the lab kernel, 2048 random blocks of a
 *   64 MiB file: XFS 1669 extents, ext4 1677, every record "delalloc"; one
 *   and 232 after a sync).
 * - One second later nothing has changed: no writeback has started.
 * - 40 s later kupdate wrote the file back (the pages expired after 30 s).
 *   Writeback maps the file in index order, and xfs_bmap_adjacent puts
 *   each extent where the previous one ends plus the logical gap; the
 *   unwritten extents made at the writes sit elsewhere (allocated before,
 *   near the inode), and each breaks the mapping where it is and where the
 *   gap rule would have put it: filefrag sees more than one extent and far
 *   fewer than the records (the lab kernel: 232 after a sync for 2048
 *   random blocks of 64 MiB; this model 156 from fio's offsets, which
 *   give it the kernel's 1669 records before the writeback). The
 *   on-disk records are at least one per run of written blocks (each
 *   delalloc record is allocated whole; the blocks fio never wrote are
 *   holes between them).
 * - Unmount and mount: XFS keeps in memory exactly the on-disk extent list
 *   (speculative preallocation past EOF was trimmed when fio closed the
 *   file), so the counts do not change.
 *
 * And the lengths of the extents filefrag -v lists, on files of known
 * layout (test_extent_lengths()).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model-harness.h"
#include "report/results.h"

static const char scenario[] =
	"[machine]\n"
	"cpus = 2\n"
	"memory = 4g\n"
	"[filesystem]\n"
	"type = xfs\n"
	"[fio:f]\n"
	"filename=/mnt/f\n"
	"rw=randwrite\n"
	"bs=4k\n"
	"size=4m\n"
	"io_size=1m\n"
	"fallocate=none\n"
	"[measure]\n"
	"extents = after-jobs\n"
	"extents = after-jobs+1s\n"
	"extents = after-jobs+40s\n"
	"extents = remount\n"
	"extents = end\n";

static const struct wbsim_extent_result *at(const struct wbsim_run_result *r, guint i,
					    const char *moment)
{
	const struct wbsim_extent_result *e;

	assert_true(i < r->extents->len);
	e = r->extents->pdata[i];
	assert_string_equal(e->moment, moment);
	assert_string_equal(e->path, "/mnt/f");
	return e;
}

static void test_e6_moments_xfs(void **state)
{
	struct wbsim_run_result *r = run_text(scenario, NULL, TRUE);
	const struct wbsim_extent_result *a, *b, *c, *d, *e;

	(void)state;
	/* one record per moment, in the order they came */
	assert_int_equal(r->extents->len, 5);
	a = at(r, 0, "after-jobs");
	b = at(r, 1, "after-jobs+1s");
	c = at(r, 2, "after-jobs+40s");
	d = at(r, 3, "remount");
	e = at(r, 4, "end");

	/* 256 random blocks of 1024 leave many separate runs, each a delayed
	 * record at the first count; only what writes past EOF converted is
	 * allocated yet */
	assert_true(a->nextents > 0 && a->nextents < 16);
	assert_true(a->filefrag > 16 && a->filefrag <= 256);
	assert_int_equal(b->filefrag, a->filefrag);
	assert_int_equal(b->nextents, a->nextents);
	/* written back by kupdate before the third count: the mapping broken
	 * where the early unwritten extents sit */
	assert_true(c->filefrag > 1 && c->filefrag < a->filefrag);
	{
		g_autofree char *line = g_strdup_printf("/mnt/f: %" G_GUINT64_FORMAT
							" extents found", c->filefrag);

		assert_string_equal(c->line, line);
	}
	assert_true(c->nextents > 16 && c->nextents <= 256);
	assert_int_equal(r->nr_written, r->nr_dirtied);
	for (const struct wbsim_extent_result *x = d; x; x = x == d ? e : NULL) {
		assert_int_equal(x->filefrag, c->filefrag);
		assert_int_equal(x->nextents, c->nextents);
	}
	/* the run went on to the last moment */
	assert_true(r->sim_ns >= 40 * WBSIM_NSEC_PER_SEC);
	wbsim_run_result_free(r);
}

/*
 * The lengths of the records filefrag -v shows, on files whose layout is
 * known: /mnt/a, 4 MiB written sequentially, is one run of 1024 blocks,
 * one delayed record after the job (its speculative preallocation was
 * trimmed at close) and one extent after the remount writeback on an empty
 * filesystem; /mnt/b, 8 KiB writes with 8 KiB skipped after each (fio's
 * rw=write:8k) over 64 KiB, is four runs of 2 blocks at blocks 0, 4, 8
 * and 12 (below 64 KiB no preallocation), four delayed records, then four
 * extents that xfs_bmap_adjacent() places as the logical gaps say: one
 * physically consistent mapping (filefrag: 1 extent) of four records.
 */
static const char sequential[] =
	"[machine]\n"
	"cpus = 2\n"
	"memory = 4g\n"
	"[filesystem]\n"
	"type = xfs\n"
	"[fio:a]\n"
	"filename=/mnt/a\n"
	"rw=write\n"
	"bs=4k\n"
	"size=4m\n"
	"fallocate=none\n"
	"[fio:b]\n"
	"filename=/mnt/b\n"
	"rw=write:8k\n"
	"bs=8k\n"
	"size=64k\n"
	"fallocate=none\n"
	"[measure]\n"
	"extents = after-jobs\n"
	"extents = remount\n";

static const struct wbsim_extent_result *file_at(const struct wbsim_run_result *r,
						 const char *moment, const char *path)
{
	for (guint i = 0; i < r->extents->len; i++) {
		const struct wbsim_extent_result *e = r->extents->pdata[i];

		if (strcmp(e->moment, moment) == 0 && strcmp(e->path, path) == 0)
			return e;
	}
	fail_msg("no extents record of %s at %s", path, moment);
	return NULL;
}

/* @e's lengths are exactly @n records of @blocks blocks */
static void assert_lengths(const struct wbsim_extent_result *e, uint64_t blocks, uint64_t n)
{
	uint64_t hist[64];
	unsigned int used = wbsim_extent_log2_histogram(e, hist);

	assert_non_null(e->lengths);
	assert_int_equal(e->lengths->len, 1);
	assert_int_equal(g_array_index(e->lengths, struct wbsim_extent_length, 0).blocks, blocks);
	assert_int_equal(g_array_index(e->lengths, struct wbsim_extent_length, 0).count, n);
	assert_true(wbsim_extent_median_length(e) == (double)blocks);
	/* one bucket in use, the last: 2^k <= blocks < 2^(k+1) */
	assert_int_equal(used, g_bit_storage(blocks));
	assert_int_equal(hist[used - 1], n);
	for (unsigned int k = 0; k + 1 < used; k++)
		assert_int_equal(hist[k], 0);
}

static void test_extent_lengths(void **state)
{
	struct wbsim_run_result *r = run_text(sequential, NULL, TRUE);
	const struct wbsim_extent_result *e;

	(void)state;
	assert_int_equal(r->extents->len, 4);
	e = file_at(r, "after-jobs", "/mnt/a");
	assert_int_equal(e->filefrag, 1);
	assert_int_equal(e->nextents, 0);		/* delayed */
	assert_lengths(e, 1024, 1);
	e = file_at(r, "remount", "/mnt/a");
	assert_int_equal(e->filefrag, 1);
	assert_int_equal(e->nextents, 1);
	assert_lengths(e, 1024, 1);
	e = file_at(r, "after-jobs", "/mnt/b");
	assert_int_equal(e->filefrag, 4);		/* delayed records count apart */
	assert_int_equal(e->nextents, 0);
	assert_lengths(e, 2, 4);
	e = file_at(r, "remount", "/mnt/b");
	assert_int_equal(e->filefrag, 1);
	assert_int_equal(e->nextents, 4);
	assert_lengths(e, 2, 4);
	wbsim_run_result_free(r);
}

/* A run stopped by its time limit counts the moments it reached and says
 * which it did not reach. */
static void test_unreached_moment(void **state)
{
	static const char *const limit[] = { "run.time_limit=10s", NULL };
	struct wbsim_run_result *r = run_text(scenario, limit, TRUE);
	guint notes = 0;

	(void)state;
	/* "end" is whenever the run stops, here at the limit */
	assert_int_equal(r->extents->len, 3);
	at(r, 0, "after-jobs");
	at(r, 1, "after-jobs+1s");
	at(r, 2, "end");
	assert_int_equal(r->sim_ns, 10 * WBSIM_NSEC_PER_SEC);
	for (guint i = 0; i < r->warnings->len; i++)
		if (strstr(r->warnings->pdata[i], "before that moment"))
			notes++;
	/* after-jobs+40s and remount */
	assert_int_equal(notes, 2);
	wbsim_run_result_free(r);
}

/* Bad moments name the line, the value and what was expected. */
static void test_bad_moments(void **state)
{
	static const char *const twice[] = { "measure.extents=after-jobs+30000ms", NULL };
	static const char *const typo[] = { "measure.extents=after-job", NULL };
	GError *error = NULL;
	struct wbsim_scenario *scn;

	(void)state;
	scn = wbsim_scenario_load_string("[fio:f]\nrw=write\nsize=1m\n"
					 "[measure]\nextents = after-jobs+30s\n",
					 "m.ini", ".", twice, &error);
	assert_null(scn);
	assert_string_equal(error->message,
			    "override: [measure] extents = after-jobs+30000ms: moment after-jobs+30s is already listed (m.ini:5)");
	g_clear_error(&error);
	scn = wbsim_scenario_load_string("[fio:f]\nrw=write\nsize=1m\n", "m.ini", ".", typo,
					 &error);
	assert_null(scn);
	assert_string_equal(error->message,
			    "override: [measure] extents = after-job: unknown moment 'after-job': expected one of: end, after-jobs, after-jobs+TIME (e.g. after-jobs+30s), remount");
	g_clear_error(&error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_e6_moments_xfs),
		cmocka_unit_test(test_extent_lengths),
		cmocka_unit_test(test_unreached_moment),
		cmocka_unit_test(test_bad_moments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
