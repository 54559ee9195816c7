/* SPDX-License-Identifier: MIT */
/*
 * test-fs-contention.c - allocation-group locks under concurrent
 * allocators (the knee at the number of AGs), and the fragmentation that
 * writers without inode affinity cause.
 */
#include <string.h>
#include "fs-test-util.h"
#include "core/sim.h"
#include "fs/alloc/fs.h"

#define BS 4096ull

/* ------------------------------------------------------------------------ */
/* N allocators, K = 4 allocation groups                                    */

struct allocator {
	wbsim_fs *fs;
	wbsim_fs_inode *file;
	wbsim_task task;
	uint64_t done, target;
	wbsim_time_t finished;
};

static void alloc_next(struct allocator *a);

static void alloc_mapped(wbsim_fs *fs, void *arg, const struct wbsim_fs_map *maps,
			 size_t n, const GError *error)
{
	struct allocator *a = arg;

	assert_null(error);
	assert_int_equal(n, 1);
	wbsim_fs_end_io(fs, a->file, maps[0].file_block, 1);
	a->done++;
	alloc_next(a);
}

/* One block every other block: each write is a separate delalloc extent. */
static void alloc_next(struct allocator *a)
{
	if (a->done == a->target) {
		a->finished = wbsim_sim_now(wbsim_fs_sim(a->fs));
		return;
	}
	wbsim_fs_write(a->fs, a->file, 2 * a->done * BS, BS);
	wbsim_fs_map_blocks(a->fs, a->file, &a->task, 2 * a->done, 1, alloc_mapped, a);
}

struct knee_point {
	double per_us;		/* allocations per simulated microsecond */
	wbsim_time_t wait_ns;	/* summed over the AG locks */
};

/* The costs the knee below is computed with, whatever the defaults: a flat
 * allocation (no btree levels) and a 1 us lookup. CPUs are not the limit. */
static const struct wbsim_setting knee_costs[] = {
	{ "alloc_ns", "7us", NULL, 0 },
	/* nor the walk of a young file's extent list at each commit */
	{ "iext_level_ns", "0", NULL, 0 },
	{ "btree_level_ns", "0", NULL, 0 },
	{ "map_ns", "1us", NULL, 0 },
};

static struct knee_point knee_run(unsigned int n)
{
	struct tfs t;
	struct allocator *a = g_new0(struct allocator, n);
	struct knee_point kp = { 0 };
	wbsim_time_t end = 0;

	tfs_open(&t, "xfs", 64 * GiB, knee_costs, G_N_ELEMENTS(knee_costs), 64);
	for (unsigned int i = 0; i < n; i++) {
		/* one directory per allocator: directories rotate over the AGs */
		a[i].fs = t.fs;
		a[i].file = wbsim_fs_create(t.fs, wbsim_fs_mkdir(t.fs, NULL));
		assert_int_equal(wbsim_fs_inode_group(a[i].file), i % 4);
		wbsim_fs_truncate(t.fs, a[i].file, GiB);	/* no EOF extension */
		a[i].target = 200;
		wbsim_task_init(&a[i].task, "flusher", WBSIM_TASK_FLUSHER);
		alloc_next(&a[i]);
	}
	wbsim_sim_run(t.sim);
	for (unsigned int i = 0; i < n; i++) {
		assert_int_equal(a[i].done, a[i].target);
		end = MAX(end, a[i].finished);
		wbsim_task_clear(&a[i].task);
	}
	for (size_t l = 0; l < wbsim_fs_nr_locks(t.fs); l++)
		kp.wait_ns += wbsim_fs_get_lock(t.fs, l)->wait_ns;
	kp.per_us = (double)n * 200 * 1000 / (double)end;
	tfs_close(&t);
	g_free(a);
	return kp;
}

/*
 * Each allocation holds its AG lock for alloc_ns = 7 us after 1 us of
 * lookup: alone, an allocator makes 1/8 allocations per us; with one AG
 * each (N <= 4) they never meet; beyond 4 the AG locks are the bottleneck:
 * at most 4 / 7 us = 0.571 per us, and waiting appears and grows with N.
 */
static void test_xfs_knee(void **state)
{
	static const unsigned int ns[] = { 1, 2, 3, 4, 5, 6, 8, 12 };
	struct knee_point kp[G_N_ELEMENTS(ns)];

	for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
		kp[i] = knee_run(ns[i]);
		print_message("xfs agcount=4 allocators=%2u: %.4f allocations/us, "
			      "AG lock wait %" G_GUINT64_FORMAT " ns\n", ns[i], kp[i].per_us,
			      kp[i].wait_ns);
	}
	assert_float_equal(kp[0].per_us, 1.0 / 8, 1e-9);
	for (size_t i = 0; i < 4; i++) {
		assert_float_equal(kp[i].per_us, ns[i] / 8.0, 1e-9);	/* linear */
		assert_int_equal(kp[i].wait_ns, 0);
	}
	for (size_t i = 4; i < G_N_ELEMENTS(ns); i++) {
		assert_true(kp[i].per_us <= 4.0 / 7 + 1e-9);		/* K locks' worth */
		assert_true(kp[i].per_us >= 0.9 * 4.0 / 7);			/* saturated */
		assert_true(kp[i].wait_ns > kp[i - 1].wait_ns);		/* grows with N */
	}
}

/* ------------------------------------------------------------------------ */
/* Writers with and without inode affinity                                  */

#define FRAG_BLOCKS 4096
#define CHUNK 256

struct chunk {
	wbsim_fs_inode *file;
	const uint8_t *dirty;
	uint64_t first;
};

struct writer {
	struct tfs *t;
	wbsim_task task;
	GQueue *queue;		/* of struct chunk *, shared or private */
	struct chunk *cur;
	uint64_t pos;
};

static void writer_step(struct writer *w);

static void writer_mapped(wbsim_fs *fs, void *arg, const struct wbsim_fs_map *maps,
			  size_t n, const GError *error)
{
	struct writer *w = arg;

	assert_null(error);
	for (size_t i = 0; i < n; i++)
		wbsim_fs_end_io(fs, w->cur->file, maps[i].file_block, maps[i].nr_blocks);
	writer_step(w);
}

/* Map the next run of dirty blocks of the current chunk, or take a chunk. */
static void writer_step(struct writer *w)
{
	for (;;) {
		uint64_t end, e;

		if (!w->cur) {
			w->cur = g_queue_pop_head(w->queue);
			if (!w->cur)
				return;
			w->pos = w->cur->first;
		}
		end = w->cur->first + CHUNK;
		while (w->pos < end && !w->cur->dirty[w->pos])
			w->pos++;
		if (w->pos == end) {
			w->cur = NULL;
			continue;
		}
		e = w->pos;
		while (e < end && w->cur->dirty[e])
			e++;
		wbsim_fs_map_blocks(w->t->fs, w->cur->file, &w->task, w->pos, e - w->pos,
				    writer_mapped, w);
		w->pos = e;
		return;
	}
}

static uint8_t *dirty_half(struct tfs *t, wbsim_fs_inode *f, uint64_t seed)
{
	uint8_t *dirty = g_new0(uint8_t, FRAG_BLOCKS);
	wbsim_rng rng;

	wbsim_rng_seed(&rng, seed);
	wbsim_fs_truncate(t->fs, f, FRAG_BLOCKS * BS);
	for (uint64_t b = 0; b < FRAG_BLOCKS; b++) {
		if (wbsim_rng_below(&rng, 2)) {
			wbsim_fs_write(t->fs, f, b * BS, BS);
			dirty[b] = 1;
		}
	}
	return dirty;
}

/*
 * Two files, in two directories (two AGs), half of their blocks dirty at
 * random. With affinity each writer writes one file in file order. Without
 * it the two writers take the next chunk of a shared list ordered A0 A1 B0
 * B1 A2 A3 ..., so consecutive chunks of one file are mapped at the same
 * time: the second chunk's first allocation cannot see the first chunk's
 * (no previous extent yet), and it finds that AG busy and goes elsewhere.
 */
static void frag_run(gboolean affine, uint64_t *fa, uint64_t *fb)
{
	struct tfs t;
	struct writer w[2];
	struct chunk ch[2][FRAG_BLOCKS / CHUNK];
	GQueue *shared = g_queue_new(), *own[2] = { g_queue_new(), g_queue_new() };
	wbsim_fs_inode *f[2];
	uint8_t *dirty[2];

	tfs_open(&t, "xfs", 16 * GiB, NULL, 0, 4);
	for (int i = 0; i < 2; i++) {
		f[i] = wbsim_fs_create(t.fs, wbsim_fs_mkdir(t.fs, NULL));
		dirty[i] = dirty_half(&t, f[i], 100 + i);
		for (uint64_t c = 0; c < FRAG_BLOCKS / CHUNK; c++)
			ch[i][c] = (struct chunk){ f[i], dirty[i], c * CHUNK };
	}
	assert_int_not_equal(wbsim_fs_inode_group(f[0]), wbsim_fs_inode_group(f[1]));
	for (uint64_t c = 0; c < FRAG_BLOCKS / CHUNK; c += 2) {
		for (int i = 0; i < 2; i++) {
			g_queue_push_tail(shared, &ch[i][c]);
			g_queue_push_tail(shared, &ch[i][c + 1]);
			g_queue_push_tail(own[i], &ch[i][c]);
			g_queue_push_tail(own[i], &ch[i][c + 1]);
		}
	}
	for (int i = 0; i < 2; i++) {
		w[i] = (struct writer){ .t = &t, .queue = affine ? own[i] : shared };
		wbsim_task_init(&w[i].task, i ? "flush-1" : "flush-0", WBSIM_TASK_FLUSHER);
	}
	writer_step(&w[0]);
	writer_step(&w[1]);
	wbsim_sim_run(t.sim);
	assert_null(w[0].cur);
	assert_null(w[1].cur);
	*fa = wbsim_fs_filefrag_count(t.fs, f[0]);
	*fb = wbsim_fs_filefrag_count(t.fs, f[1]);
	for (int i = 0; i < 2; i++) {
		wbsim_task_clear(&w[i].task);
		g_queue_free(own[i]);
		g_free(dirty[i]);
	}
	g_queue_free(shared);
	tfs_close(&t);
}

static void test_unaffined_fragments(void **state)
{
	uint64_t aa, ab, ua, ub;

	frag_run(TRUE, &aa, &ab);
	frag_run(FALSE, &ua, &ub);
	print_message("xfs filefrag, affine writers: %" G_GUINT64_FORMAT " and %"
		      G_GUINT64_FORMAT "; unaffined: %" G_GUINT64_FORMAT " and %"
		      G_GUINT64_FORMAT "\n", aa, ab, ua, ub);
	assert_int_equal(aa, 1);
	assert_int_equal(ab, 1);
	assert_true(ua > 10 * aa);
	assert_true(ub > 10 * ab);
}

/* F2FS serialises background writeback of regular files on one lock. */
static void test_f2fs_writepages_lock(void **state)
{
	struct tfs t;
	wbsim_fs_inode *f, *d;

	tfs_open(&t, "f2fs", 4 * GiB, NULL, 0, 2);
	d = wbsim_fs_mkdir(t.fs, NULL);
	f = wbsim_fs_create(t.fs, d);
	assert_non_null(wbsim_fs_writepages_lock(t.fs, f, FALSE, 1));
	assert_null(wbsim_fs_writepages_lock(t.fs, f, TRUE, 511));
	assert_non_null(wbsim_fs_writepages_lock(t.fs, f, TRUE, 512));
	assert_null(wbsim_fs_writepages_lock(t.fs, d, FALSE, 1));
	tfs_close(&t);
	tfs_open(&t, "xfs", 4 * GiB, NULL, 0, 2);
	assert_null(wbsim_fs_writepages_lock(t.fs, wbsim_fs_create(t.fs, NULL), FALSE, 1));
	tfs_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xfs_knee),
		cmocka_unit_test(test_unaffined_fragments),
		cmocka_unit_test(test_f2fs_writepages_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
