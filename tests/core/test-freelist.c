/* SPDX-License-Identifier: MIT */
/*
 * test-freelist.c - the object pool of core/freelist.c: sizes rounded to
 * the alignment, the last object freed is the next handed out, objects
 * come zeroed, chunks of 16, 32, ... 1024 slots, and clear visits exactly
 * the objects still in use, in the order they were first handed out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>
#include "core/freelist.h"

static void test_size_rounded(void **state)
{
	struct wbsim_freelist fl;

	wbsim_freelist_init(&fl, 1);
	assert_int_equal(fl.size, 16);
	wbsim_freelist_init(&fl, 16);
	assert_int_equal(fl.size, 16);
	wbsim_freelist_init(&fl, 17);
	assert_int_equal(fl.size, 32);
	wbsim_freelist_init(&fl, 152);
	assert_int_equal(fl.size, 160);
	assert_null(fl.chunks);
	assert_int_equal(fl.nr_live, 0);
	/* nothing allocated: clear has nothing to free or visit */
	wbsim_freelist_clear(&fl, NULL, NULL);
	assert_int_equal(fl.size, 160);
}

/* Last in, first out; a new slot only when the free list is empty. */
static void test_last_freed_first_reused(void **state)
{
	struct wbsim_freelist fl;
	void *a, *b, *c, *d;

	wbsim_freelist_init(&fl, 40);
	a = wbsim_freelist_alloc(&fl);
	b = wbsim_freelist_alloc(&fl);
	c = wbsim_freelist_alloc(&fl);
	assert_int_equal(fl.nr_live, 3);
	/* consecutive slots of the first chunk */
	assert_ptr_equal((char *)b, (char *)a + 48);
	assert_ptr_equal((char *)c, (char *)b + 48);
	assert_int_equal((uintptr_t)a % WBSIM_FREELIST_ALIGN, 0);
	wbsim_freelist_free(&fl, b);
	assert_int_equal(fl.nr_live, 2);
	assert_ptr_equal(wbsim_freelist_alloc(&fl), b);
	wbsim_freelist_free(&fl, a);
	wbsim_freelist_free(&fl, c);
	assert_ptr_equal(wbsim_freelist_alloc(&fl), c);
	assert_ptr_equal(wbsim_freelist_alloc(&fl), a);
	d = wbsim_freelist_alloc(&fl);
	assert_ptr_equal((char *)d, (char *)c + 48);
	assert_int_equal(fl.nr_live, 4);
	wbsim_freelist_clear(&fl, NULL, NULL);
	assert_int_equal(fl.nr_live, 0);
	assert_null(fl.chunks);
	assert_null(fl.free);
}

/* A reused object comes back zeroed, as a new one does. */
static void test_objects_zeroed(void **state)
{
	struct wbsim_freelist fl;
	unsigned char *p;

	wbsim_freelist_init(&fl, 64);
	p = wbsim_freelist_alloc(&fl);
	for (size_t i = 0; i < 64; i++)
		assert_int_equal(p[i], 0);
	memset(p, 0xa5, 64);
	wbsim_freelist_free(&fl, p);
	assert_ptr_equal(wbsim_freelist_alloc(&fl), p);
	for (size_t i = 0; i < 64; i++)
		assert_int_equal(p[i], 0);
	wbsim_freelist_clear(&fl, NULL, NULL);
}

/* Chunks of 16, 32, 64, ... slots, then 1024 each: slots are consecutive
 * within a chunk, and a new chunk starts after each of those counts. */
static void test_chunks_double(void **state)
{
	struct wbsim_freelist fl;
	size_t expect[] = { 16, 32, 64, 128, 256, 512, 1024, 1024, 1024 };
	size_t total = 0, n = 0;
	char *prev = NULL;
	size_t run = 0, chunk = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(expect); i++)
		total += expect[i];
	wbsim_freelist_init(&fl, 24);
	for (size_t i = 0; i < total; i++) {
		char *p = wbsim_freelist_alloc(&fl);

		if (prev && p == prev + fl.size) {
			run++;
		} else if (prev) {
			assert_int_equal(run, expect[chunk]);
			chunk++;
			run = 1;
		} else {
			run = 1;
		}
		prev = p;
		n++;
	}
	assert_int_equal(run, expect[chunk]);
	assert_int_equal(chunk, G_N_ELEMENTS(expect) - 1);
	assert_int_equal(fl.nr_live, n);
	/* every slot is used: the next object opens a tenth chunk */
	assert_ptr_equal(fl.next, fl.end);
	assert_ptr_not_equal(wbsim_freelist_alloc(&fl), prev + fl.size);
	assert_int_equal(fl.end - fl.next, 1023 * fl.size);
	wbsim_freelist_clear(&fl, NULL, NULL);
}

static void record(void *obj, void *data)
{
	g_ptr_array_add(data, obj);
}

/* Clear visits the objects in use, in the order they were handed out
 * (across chunks), and none of those freed. */
static void test_clear_visits_live(void **state)
{
	struct wbsim_freelist fl;
	void *objs[100];
	GPtrArray *seen = g_ptr_array_new();
	guint k = 0;

	wbsim_freelist_init(&fl, 8);
	for (int i = 0; i < 100; i++)
		objs[i] = wbsim_freelist_alloc(&fl);
	for (int i = 0; i < 100; i += 3)
		wbsim_freelist_free(&fl, objs[i]);
	wbsim_freelist_clear(&fl, record, seen);
	assert_int_equal(seen->len, 100 - 34);
	for (int i = 0; i < 100; i++)
		if (i % 3)
			assert_ptr_equal(seen->pdata[k++], objs[i]);
	assert_int_equal(fl.nr_live, 0);
	assert_null(fl.chunks);

	/* the cleared pool is ready for use: one object in use, visited */
	g_ptr_array_set_size(seen, 0);
	objs[0] = wbsim_freelist_alloc(&fl);
	wbsim_freelist_clear(&fl, record, seen);
	assert_int_equal(seen->len, 1);
	assert_ptr_equal(seen->pdata[0], objs[0]);

	/* nothing in use: nothing visited */
	g_ptr_array_set_size(seen, 0);
	wbsim_freelist_free(&fl, wbsim_freelist_alloc(&fl));
	wbsim_freelist_clear(&fl, record, seen);
	assert_int_equal(seen->len, 0);
	g_ptr_array_free(seen, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_rounded),
		cmocka_unit_test(test_last_freed_first_reused),
		cmocka_unit_test(test_objects_zeroed),
		cmocka_unit_test(test_chunks_double),
		cmocka_unit_test(test_clear_visits_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
