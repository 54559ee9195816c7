/* SPDX-License-Identifier: MIT */
/*
 * test-freespace.c - a group's free space before its trees are made (one
 * extent: fresh, or cut only at its ends) answers every query as the
 * trees answer it, and the trees are made exactly when a change leaves
 * more than one extent or gives blocks back. (The trees themselves are
 * tested against a per-block array in test-extent-map.c.)
 */
#include "fs-test-util.h"
#include "fs/alloc/freespace.h"
#include "core/sim.h"

/* A group whose trees are made, holding the same one extent as a fresh one. */
static void init_with_trees(struct wbsim_freespace *fsp, uint64_t base, uint64_t size)
{
	wbsim_freespace_init(fsp, base, size);
	assert_true(wbsim_freespace_take(fsp, base + size / 2, 1));
	assert_non_null(fsp->by_start);
	wbsim_freespace_give(fsp, base + size / 2, 1);
	assert_int_equal(wbsim_freespace_nr_extents(fsp), 1);
}

/* Every query of @a and @b, at @nr random arguments, agrees. */
static void compare_queries(struct wbsim_freespace *a, struct wbsim_freespace *b,
			    wbsim_rng *rng, int nr)
{
	uint64_t base = a->base, size = a->size;

	assert_int_equal(a->free, b->free);
	assert_int_equal(wbsim_freespace_longest(a), wbsim_freespace_longest(b));
	assert_int_equal(wbsim_freespace_nr_extents(a), wbsim_freespace_nr_extents(b));
	assert_true(wbsim_freespace_check(a));
	assert_true(wbsim_freespace_check(b));
	for (int i = 0; i < nr; i++) {
		/* arguments inside, at and around the group */
		uint64_t at = base - 10 + wbsim_rng_below(rng, size + 20);
		uint64_t want = wbsim_rng_below(rng, 3) ? 1 + wbsim_rng_below(rng, 64)
							: wbsim_rng_below(rng, size + 10);
		uint64_t align = wbsim_rng_below(rng, 4) ? 1 + wbsim_rng_below(rng, 64) : 0;
		uint64_t sa = 0, sb = 0, la, lb;
		gboolean fa, fb;

		assert_int_equal(wbsim_freespace_is_free(a, at), wbsim_freespace_is_free(b, at));
		assert_int_equal(wbsim_freespace_free_run(a, at), wbsim_freespace_free_run(b, at));
		la = wbsim_freespace_first_any(a, at, &sa);
		lb = wbsim_freespace_first_any(b, at, &sb);
		assert_int_equal(la, lb);
		if (la)
			assert_int_equal(sa, sb);
		la = wbsim_freespace_near(a, at, want, &sa);
		lb = wbsim_freespace_near(b, at, want, &sb);
		assert_int_equal(la, lb);
		if (la)
			assert_int_equal(sa, sb);
		fa = wbsim_freespace_first_fit(a, at, want, align, &sa);
		fb = wbsim_freespace_first_fit(b, at, want, align, &sb);
		assert_int_equal(fa, fb);
		if (fa)
			assert_int_equal(sa, sb);
	}
}

/* Takes at the extent's ends keep a fresh group without trees, down to
 * nothing free; its answers match the trees' all along. */
static void test_one_extent_answers_as_trees(void **state)
{
	const uint64_t base = 32768, size = 32768;
	struct wbsim_freespace a, b;
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 19);
	wbsim_freespace_init(&a, base, size);
	assert_null(a.by_start);
	init_with_trees(&b, base, size);
	compare_queries(&a, &b, &rng, 2000);
	while (a.free) {
		uint64_t len = MIN(a.free, 1 + wbsim_rng_below(&rng, 3000));
		uint64_t start = wbsim_rng_below(&rng, 2) ? a.one_start
							  : a.one_start + a.free - len;

		assert_true(wbsim_freespace_take(&a, start, len));
		assert_true(wbsim_freespace_take(&b, start, len));
		assert_null(a.by_start);
		/* a range not all free is refused, as by the trees */
		assert_false(wbsim_freespace_take(&a, start, 1));
		assert_false(wbsim_freespace_take(&b, start, 1));
		compare_queries(&a, &b, &rng, 200);
	}
	assert_int_equal(wbsim_freespace_nr_extents(&a), 0);
	assert_false(wbsim_freespace_take(&a, base, 1));
	assert_null(a.by_start);
	wbsim_freespace_clear(&a);
	wbsim_freespace_clear(&b);
}

/* The trees are made by the first take inside the extent (then the group
 * has two) or the first give; a take that fails or takes nothing makes none. */
static void test_trees_made_on_split(void **state)
{
	struct wbsim_freespace a, b;
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 20);
	wbsim_freespace_init(&a, 1000, 1000);
	assert_true(wbsim_freespace_take(&a, 1000, 100));	/* metadata at the start */
	assert_true(wbsim_freespace_take(&a, 1900, 100));	/* and at the end */
	assert_true(wbsim_freespace_take(&a, 1500, 0));
	assert_false(wbsim_freespace_take(&a, 1050, 10));	/* already used */
	assert_false(wbsim_freespace_take(&a, 1850, 100));	/* runs past the free end */
	assert_null(a.by_start);
	assert_int_equal(a.one_start, 1100);
	assert_int_equal(a.free, 800);
	assert_true(wbsim_freespace_take(&a, 1500, 10));
	assert_non_null(a.by_start);
	assert_int_equal(wbsim_freespace_nr_extents(&a), 2);
	assert_int_equal(wbsim_freespace_free_run(&a, 1100), 400);
	assert_int_equal(wbsim_freespace_free_run(&a, 1510), 390);

	/* a give, even one that leaves one extent, makes them too */
	wbsim_freespace_init(&b, 1000, 1000);
	assert_true(wbsim_freespace_take(&b, 1000, 100));
	wbsim_freespace_give(&b, 1000, 100);
	assert_non_null(b.by_start);
	assert_int_equal(wbsim_freespace_nr_extents(&b), 1);
	assert_int_equal(wbsim_freespace_longest(&b), 1000);
	wbsim_freespace_clear(&a);
	wbsim_freespace_clear(&b);
}

/* ext4's mount (ext4_init): metadata taken from a group's start, then the
 * journal from its first free block: still one extent, no trees. */
static void test_mount_takes_keep_one_extent(void **state)
{
	struct wbsim_freespace g;
	uint64_t start, len;

	wbsim_freespace_init(&g, 32768 * 7, 32768);
	assert_true(wbsim_freespace_take(&g, 32768 * 7, 1 + 1 + 1024 + 16 * 514));
	len = wbsim_freespace_first_any(&g, 32768 * 7, &start);
	assert_int_equal(start, 32768 * 7 + 1 + 1 + 1024 + 16 * 514);
	assert_int_equal(len, 32768 - (1 + 1 + 1024 + 16 * 514));
	assert_true(wbsim_freespace_take(&g, start, 4096));
	assert_null(g.by_start);
	assert_int_equal(g.free, 32768 - (1 + 1 + 1024 + 16 * 514) - 4096);
	assert_true(wbsim_freespace_check(&g));
	wbsim_freespace_clear(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_extent_answers_as_trees),
		cmocka_unit_test(test_trees_made_on_split),
		cmocka_unit_test(test_mount_takes_keep_one_extent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
