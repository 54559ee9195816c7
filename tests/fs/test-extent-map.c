/* SPDX-License-Identifier: MIT */
/*
 * test-extent-map.c - the extent map and the free-space index against naive
 * per-block arrays under long random operation sequences (fixed seeds),
 * and the map's behaviour at hundreds of thousands of extents.
 */
#include <string.h>
#include "fs-test-util.h"
#include "fs/alloc/extent-map.h"
#include "fs/alloc/freespace.h"
#include "core/sim.h"

#define SPAN 4096
#define NONE 0xff

struct naive {
	uint8_t state[SPAN];
	uint64_t pblk[SPAN];
};

static void naive_set(struct naive *n, uint64_t lblk, uint64_t len, uint8_t state,
		      uint64_t pblk)
{
	for (uint64_t i = 0; i < len; i++) {
		n->state[lblk + i] = state;
		n->pblk[lblk + i] = state == WBSIM_EXT_DELALLOC || state == NONE ? 0 : pblk + i;
	}
}

static void compare(struct wbsim_emap *map, const struct naive *n)
{
	uint64_t blocks[WBSIM_EXT_NR_STATES] = { 0 };

	assert_true(wbsim_emap_check(map));
	for (uint64_t b = 0; b < SPAN; b++) {
		struct wbsim_extent *e = wbsim_emap_lookup(map, b);

		if (n->state[b] == NONE) {
			assert_null(e);
			continue;
		}
		assert_non_null(e);
		assert_int_equal(e->state, n->state[b]);
		if (e->state != WBSIM_EXT_DELALLOC)
			assert_int_equal(e->pblk + (b - e->lblk), n->pblk[b]);
		blocks[n->state[b]]++;
	}
	assert_memory_equal(blocks, map->blocks, sizeof(blocks));
}

/* 10^5 random set/punch operations (a set into a hole sometimes as
 * wbsim_emap_fill_hole()); the map must equal the naive array. */
static void test_emap_random(void **state)
{
	static struct naive n;
	struct wbsim_emap map;
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 20261129);
	memset(n.state, NONE, sizeof(n.state));
	memset(n.pblk, 0, sizeof(n.pblk));
	/* small maxima so that splitting and partial merging are exercised */
	wbsim_emap_init(&map, 50, 23, 37);
	for (int op = 0; op < 100000; op++) {
		uint64_t lblk = wbsim_rng_below(&rng, SPAN);
		uint64_t max_len = 1 + wbsim_rng_below(&rng, 90);
		uint64_t len = 1 + wbsim_rng_below(&rng, MIN(SPAN - lblk, max_len));
		uint64_t kind = wbsim_rng_below(&rng, 10);
		uint64_t seq = map.seq;

		if (kind < 2) {
			wbsim_emap_punch(&map, lblk, len);
			naive_set(&n, lblk, len, NONE, 0);
		} else {
			uint8_t st = (uint8_t)wbsim_rng_below(&rng, WBSIM_EXT_NR_STATES);
			/* physical placement: often contiguous with the neighbour, to merge */
			uint64_t pblk = kind < 6 ? 100000 + lblk : wbsim_rng_below(&rng, 1u << 30);

			gboolean hole = TRUE;

			for (uint64_t b = lblk; b < lblk + len; b++)
				hole = hole && n.state[b] == NONE;
			/* a hole, half the time, the way the write paths fill one */
			if (hole && (kind & 1))
				wbsim_emap_fill_hole(&map, lblk, len, st, pblk);
			else
				wbsim_emap_set(&map, lblk, len, st, pblk);
			naive_set(&n, lblk, len, st, pblk);
		}
		/* every change moves the sequence a cached mapping is checked
		 * against (XFS's if_seq) */
		assert_true(map.seq > seq);
		if (op % 997 == 0)
			compare(&map, &n);
	}
	compare(&map, &n);
	/* a full sweep of the extents visits the same blocks as the lookups */
	{
		struct wbsim_emap_cursor cur;
		uint64_t seen = 0, count = 0, prev_end = 0;

		for (struct wbsim_extent *e = wbsim_emap_first(&map, &cur); e;
		     e = wbsim_emap_next(&map, &cur)) {
			assert_true(e->lblk >= prev_end);
			prev_end = wbsim_ext_end(e);
			seen += e->len;
			count++;
		}
		assert_int_equal(count, wbsim_emap_count(&map));
		assert_int_equal(seen, map.blocks[0] + map.blocks[1] + map.blocks[2]);
	}
	wbsim_emap_clear(&map);
}

/* Merging follows the kernels' rule: both, else left, else right, within max. */
static void test_emap_merge_rules(void **state)
{
	struct wbsim_emap map;
	struct wbsim_extent *e;

	wbsim_emap_init(&map, 8, 8, 8);
	wbsim_emap_set(&map, 0, 3, WBSIM_EXT_WRITTEN, 100);
	wbsim_emap_set(&map, 4, 3, WBSIM_EXT_WRITTEN, 104);
	wbsim_emap_set(&map, 3, 1, WBSIM_EXT_WRITTEN, 103);	/* 3+1+3 <= 8: one extent */
	assert_int_equal(wbsim_emap_count(&map), 1);
	wbsim_emap_set(&map, 7, 3, WBSIM_EXT_WRITTEN, 107);	/* 7+3 > 8: stays apart */
	assert_int_equal(wbsim_emap_count(&map), 2);
	wbsim_emap_set(&map, 10, 2, WBSIM_EXT_UNWRITTEN, 110);	/* other state: apart */
	assert_int_equal(wbsim_emap_count(&map), 3);
	wbsim_emap_set(&map, 12, 1, WBSIM_EXT_UNWRITTEN, 500);	/* not contiguous: apart */
	assert_int_equal(wbsim_emap_count(&map), 4);
	wbsim_emap_set(&map, 20, 20, WBSIM_EXT_DELALLOC, 0);	/* 20 > 8: 8+8+4 */
	assert_int_equal(wbsim_emap_count(&map), 7);
	e = wbsim_emap_lookup(&map, 39);
	assert_int_equal(e->lblk, 36);
	assert_int_equal(e->len, 4);
	/* a middle punch splits an extent in two */
	wbsim_emap_punch(&map, 2, 2);
	e = wbsim_emap_lookup(&map, 4);
	assert_int_equal(e->lblk, 4);
	assert_int_equal(e->pblk, 104);
	assert_null(wbsim_emap_lookup(&map, 3));
	assert_true(wbsim_emap_check(&map));
	wbsim_emap_clear(&map);
}

/* A barrier at block 10: an extent starting there merges with nothing on its left. */
static gboolean barrier_at_10(const void *data, uint64_t lblk)
{
	(void)data;
	return lblk == 10;
}

/*
 * Barriers and unmerged inserts (ext4's leaves and its PRE_IO extents):
 * an extent starting at a barrier keeps its left neighbour apart but
 * still merges to its right; an unmerged insert merges with neither
 * neighbour, and a later ordinary set of the same range merges it.
 */
static void test_emap_barrier_and_unmerged(void **state)
{
	struct wbsim_emap map;
	struct wbsim_extent *e;

	wbsim_emap_init(&map, 64, 64, 64);
	wbsim_emap_set_barrier(&map, barrier_at_10, NULL);
	wbsim_emap_set(&map, 0, 10, WBSIM_EXT_WRITTEN, 100);
	wbsim_emap_set(&map, 10, 5, WBSIM_EXT_WRITTEN, 110);	/* contiguous, but barred */
	assert_int_equal(wbsim_emap_count(&map), 2);
	wbsim_emap_set(&map, 15, 5, WBSIM_EXT_WRITTEN, 115);	/* merges into 10..14 */
	assert_int_equal(wbsim_emap_count(&map), 2);
	e = wbsim_emap_lookup(&map, 19);
	assert_int_equal(e->lblk, 10);
	assert_int_equal(e->len, 10);
	/* a piece set before the barrier merges to its left only */
	wbsim_emap_punch(&map, 5, 5);
	wbsim_emap_set(&map, 5, 5, WBSIM_EXT_WRITTEN, 105);
	assert_int_equal(wbsim_emap_count(&map), 2);
	assert_int_equal(wbsim_emap_lookup(&map, 9)->lblk, 0);
	/* unmerged: three contiguous unwritten pieces stay three extents */
	wbsim_emap_set_unmerged(&map, 20, 4, WBSIM_EXT_UNWRITTEN, 120);
	wbsim_emap_set_unmerged(&map, 24, 4, WBSIM_EXT_UNWRITTEN, 124);
	wbsim_emap_set_unmerged(&map, 28, 4, WBSIM_EXT_UNWRITTEN, 128);
	assert_int_equal(wbsim_emap_count(&map), 5);
	/* converting the middle one merges nothing (its neighbours are unwritten) */
	wbsim_emap_set(&map, 24, 4, WBSIM_EXT_WRITTEN, 124);
	assert_int_equal(wbsim_emap_count(&map), 5);
	/* converting the first joins 10..19 and the middle: 10..27 */
	wbsim_emap_set(&map, 20, 4, WBSIM_EXT_WRITTEN, 120);
	assert_int_equal(wbsim_emap_count(&map), 3);
	e = wbsim_emap_lookup(&map, 27);
	assert_int_equal(e->lblk, 10);
	assert_int_equal(e->len, 18);
	assert_true(wbsim_emap_check(&map));
	/* without the barrier, 0..9 and 10..27 would have been one */
	wbsim_emap_set_barrier(&map, NULL, NULL);
	wbsim_emap_set(&map, 10, 1, WBSIM_EXT_WRITTEN, 110);
	assert_int_equal(wbsim_emap_count(&map), 2);
	assert_int_equal(wbsim_emap_lookup(&map, 27)->lblk, 0);
	wbsim_emap_clear(&map);
}

/* 300,000 single-block extents inserted in random order stay exact. */
static void test_emap_large(void **state)
{
	const uint64_t n = 300000;
	struct wbsim_emap map;
	uint64_t *order = g_new(uint64_t, n);
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 7);
	for (uint64_t i = 0; i < n; i++)
		order[i] = i;
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = wbsim_rng_below(&rng, i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	wbsim_emap_init(&map, 1u << 21, 1u << 21, 1u << 21);
	/* every other block, each placed apart: nothing can merge */
	for (uint64_t i = 0; i < n; i++)
		wbsim_emap_set(&map, 2 * order[i], 1, WBSIM_EXT_WRITTEN, 10 * order[i]);
	assert_int_equal(wbsim_emap_count(&map), n);
	assert_true(wbsim_emap_check(&map));
	for (uint64_t i = 0; i < n; i += 977) {
		struct wbsim_extent *e = wbsim_emap_lookup(&map, 2 * i);

		assert_non_null(e);
		assert_int_equal(e->pblk, 10 * i);
		assert_null(wbsim_emap_lookup(&map, 2 * i + 1));
	}
	/* filling the holes physically contiguously merges pairs: count halves */
	for (uint64_t i = 0; i < n; i++)
		wbsim_emap_set(&map, 2 * order[i] + 1, 1, WBSIM_EXT_WRITTEN, 10 * order[i] + 1);
	assert_int_equal(wbsim_emap_count(&map), n);
	assert_int_equal(map.blocks[WBSIM_EXT_WRITTEN], 2 * n);
	assert_true(wbsim_emap_check(&map));
	wbsim_emap_clear(&map);
	g_free(order);
}

/*
 * Index in @ext (@n extents in order) of the first extent that ends after
 * @lblk, or @n: what a seek must find, by a linear scan.
 */
static size_t scan_seek(const struct wbsim_extent *ext, size_t n, uint64_t lblk)
{
	size_t i = 0;

	while (i < n && wbsim_ext_end(&ext[i]) <= lblk)
		i++;
	return i;
}

/* The seek's answer and its cursor against a linear scan of the extents. */
static void check_seek(struct wbsim_emap *map, const struct wbsim_extent *ext, size_t n,
		       uint64_t lblk)
{
	struct wbsim_emap_cursor cur, c2;
	size_t want = scan_seek(ext, n, lblk);
	struct wbsim_emap before = *map;
	struct wbsim_extent *e, *p;

	/* the prefetch is a hint: it reads within the map (the sanitizers
	 * check the leaf slot it names) and changes nothing, not the hint */
	wbsim_emap_prefetch(map, lblk);
	assert_memory_equal(&before, map, sizeof(before));
	e = wbsim_emap_seek(map, lblk, &cur);

	if (want == n) {
		assert_null(e);
	} else {
		assert_non_null(e);
		assert_int_equal(e->lblk, ext[want].lblk);
		assert_int_equal(e->len, ext[want].len);
		/* the cursor is where the extent is: its neighbours follow */
		c2 = cur;
		p = wbsim_emap_next(map, &c2);
		if (want + 1 < n)
			assert_int_equal(p->lblk, ext[want + 1].lblk);
		else
			assert_null(p);
		c2 = cur;
		p = wbsim_emap_prev(map, &c2);
		if (want)
			assert_int_equal(p->lblk, ext[want - 1].lblk);
		else
			assert_null(p);
	}
	/* the last extent that starts before lblk */
	p = wbsim_emap_prev_of(map, lblk);
	if (want < n && ext[want].lblk < lblk)
		assert_int_equal(p->lblk, ext[want].lblk);
	else if (want)
		assert_int_equal(p->lblk, ext[want - 1].lblk);
	else
		assert_null(p);
}

/*
 * Seeks at every block of a map of many leaves (in order, as writeback
 * walks a file, then backwards, then at random) find what a linear scan
 * finds: in extents, in holes, before the first and after the last.
 */
static void test_emap_seek_matches_scan(void **state)
{
	const size_t n = 3000;
	struct wbsim_emap map;
	struct wbsim_extent *ext = g_new(struct wbsim_extent, n);
	struct wbsim_emap_cursor cur;
	uint64_t pos = 5, span;
	size_t i = 0;
	wbsim_rng rng;

	(void)state;
	wbsim_rng_seed(&rng, 19);
	wbsim_emap_init(&map, 1000, 1000, 1000);
	/* extents of 1 to 4 blocks with holes of 0 to 2 between, placed
	 * apart physically, so none merge */
	for (size_t k = 0; k < n; k++) {
		ext[k].lblk = pos;
		ext[k].len = 1 + wbsim_rng_below(&rng, 4);
		ext[k].pblk = 10 * pos + 7;
		ext[k].state = WBSIM_EXT_WRITTEN;
		pos += ext[k].len + wbsim_rng_below(&rng, 3);
		if (wbsim_rng_below(&rng, 8) == 0)
			pos++;
	}
	span = pos + 3;
	/* inserted in random order, so that leaves split everywhere */
	for (size_t k = n - 1; k > 0; k--) {
		size_t j = wbsim_rng_below(&rng, k + 1);
		struct wbsim_extent t = ext[k];

		ext[k] = ext[j];
		ext[j] = t;
	}
	for (size_t k = 0; k < n; k++)
		wbsim_emap_set(&map, ext[k].lblk, ext[k].len, WBSIM_EXT_WRITTEN, ext[k].pblk);
	assert_int_equal(wbsim_emap_count(&map), n);
	assert_true(wbsim_emap_check(&map));
	/* the extents in order, by walking the map (no seek) */
	for (struct wbsim_extent *e = wbsim_emap_first(&map, &cur); e;
	     e = wbsim_emap_next(&map, &cur))
		ext[i++] = *e;
	assert_int_equal(i, n);
	for (uint64_t b = 0; b < span; b++)
		check_seek(&map, ext, n, b);
	for (uint64_t b = span; b-- > 0;)
		check_seek(&map, ext, n, b);
	for (int k = 0; k < 20000; k++)
		check_seek(&map, ext, n, wbsim_rng_below(&rng, span));
	wbsim_emap_clear(&map);
	g_free(ext);
}

/*
 * The seek starts where interpolation between a leaf's key and the next
 * one's puts the block, then gallops: on a map far from even (a dense run
 * of 2,000 one-block extents, 500 extents a million blocks apart, then
 * another dense run) the guess is far off in both directions, and every
 * seek must still find what a linear scan finds.
 */
static void test_emap_seek_skewed(void **state)
{
	const size_t n = 4500;
	struct wbsim_emap map;
	struct wbsim_extent *ext = g_new(struct wbsim_extent, n);
	uint64_t pos = 0;
	wbsim_rng rng;

	(void)state;
	wbsim_rng_seed(&rng, 7);
	wbsim_emap_init(&map, 1000, 1000, 1000);
	for (size_t k = 0; k < n; k++) {
		ext[k].lblk = pos;
		ext[k].len = 1;
		ext[k].pblk = 3 * pos + 11;
		ext[k].state = WBSIM_EXT_WRITTEN;
		pos += k >= 2000 && k < 2500 ? 1000000 : 2;
	}
	/* inserted from both ends inwards, so that no leaf is even */
	for (size_t k = 0; k < n / 2; k++) {
		wbsim_emap_set(&map, ext[k].lblk, 1, WBSIM_EXT_WRITTEN, ext[k].pblk);
		wbsim_emap_set(&map, ext[n - 1 - k].lblk, 1, WBSIM_EXT_WRITTEN,
			       ext[n - 1 - k].pblk);
	}
	assert_int_equal(wbsim_emap_count(&map), n);
	assert_true(wbsim_emap_check(&map));
	for (size_t k = 0; k < n; k++) {
		/* at, before and after every extent, alternating far apart so
		 * the cursor's hint never helps */
		check_seek(&map, ext, n, ext[k].lblk);
		check_seek(&map, ext, n, ext[n - 1 - k].lblk + 1);
		if (ext[k].lblk)
			check_seek(&map, ext, n, ext[k].lblk - 1);
	}
	for (int k = 0; k < 20000; k++)
		check_seek(&map, ext, n, wbsim_rng_below(&rng, pos + 10));
	wbsim_emap_clear(&map);
	g_free(ext);
}

/* Free space: random takes and gives against a bitmap; exact accounting. */
static void test_freespace_random(void **state)
{
	const uint64_t base = 1000000, size = 20000;
	uint8_t *used = g_new0(uint8_t, size);
	struct wbsim_freespace fsp;
	uint64_t free_count = size;
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 99);
	wbsim_freespace_init(&fsp, base, size);
	for (int op = 0; op < 100000; op++) {
		uint64_t at = wbsim_rng_below(&rng, size);
		uint64_t want = 1 + wbsim_rng_below(&rng, 64);

		if (wbsim_rng_below(&rng, 2)) {
			uint64_t start, len = wbsim_freespace_first_any(&fsp, base + at, &start);

			if (!len)
				continue;
			len = MIN(len, want);
			assert_true(wbsim_freespace_take(&fsp, start, len));
			for (uint64_t i = 0; i < len; i++) {
				assert_int_equal(used[start - base + i], 0);
				used[start - base + i] = 1;
			}
			free_count -= len;
		} else {
			uint64_t len = 0;

			while (at < size && !used[at])
				at++;
			while (at + len < size && used[at + len] && len < want)
				len++;
			if (!len)
				continue;
			wbsim_freespace_give(&fsp, base + at, len);
			memset(used + at, 0, len);
			free_count += len;
		}
		/* allocated + free = size, always */
		assert_int_equal(fsp.free, free_count);
		if (op % 1009 == 0) {
			uint64_t longest = 0, run = 0;

			assert_true(wbsim_freespace_check(&fsp));
			for (uint64_t i = 0; i < size; i++) {
				assert_int_equal(wbsim_freespace_is_free(&fsp, base + i), !used[i]);
				run = used[i] ? 0 : run + 1;
				longest = MAX(longest, run);
			}
			assert_int_equal(wbsim_freespace_longest(&fsp), longest);
		}
	}
	/* a taken range cannot be taken twice */
	{
		uint64_t start, len = wbsim_freespace_first_any(&fsp, base, &start);

		if (len) {
			assert_true(wbsim_freespace_take(&fsp, start, 1));
			assert_false(wbsim_freespace_take(&fsp, start, 1));
		}
	}
	wbsim_freespace_clear(&fsp);
	g_free(used);
}

/* Near allocation: exact at the goal when free, else the closest fit. */
static void test_freespace_near(void **state)
{
	struct wbsim_freespace fsp;
	uint64_t start, len;

	wbsim_freespace_init(&fsp, 0, 1000);
	assert_true(wbsim_freespace_take(&fsp, 100, 400));	/* free: [0,100) [500,1000) */
	len = wbsim_freespace_near(&fsp, 520, 50, &start);
	assert_int_equal(len, 50);
	assert_int_equal(start, 520);
	len = wbsim_freespace_near(&fsp, 300, 50, &start);	/* 500 is closer than 50 */
	assert_int_equal(start, 500);
	len = wbsim_freespace_near(&fsp, 200, 50, &start);	/* 100-50=50 vs 300: left */
	assert_int_equal(start, 50);
	len = wbsim_freespace_near(&fsp, 0, 600, &start);	/* too long: the longest */
	assert_int_equal(len, 500);
	assert_int_equal(start, 500);
	assert_true(wbsim_freespace_first_fit(&fsp, 0, 64, 64, &start));
	assert_int_equal(start, 0);
	assert_true(wbsim_freespace_first_fit(&fsp, 1, 64, 64, &start));
	assert_int_equal(start, 512);	/* aligned: 64 would end past 100 */
	wbsim_freespace_clear(&fsp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emap_random),
		cmocka_unit_test(test_emap_merge_rules),
		cmocka_unit_test(test_emap_barrier_and_unmerged),
		cmocka_unit_test(test_emap_large),
		cmocka_unit_test(test_emap_seek_matches_scan),
		cmocka_unit_test(test_emap_seek_skewed),
		cmocka_unit_test(test_freespace_random),
		cmocka_unit_test(test_freespace_near),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
