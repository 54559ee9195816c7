/* SPDX-License-Identifier: MIT */
/*
 * test-fifo-list.c - the head/tail list of core/fifo-list.h: objects come
 * out in the order they went in, also when adds and takes alternate and
 * the list empties on the way; first and last are the oldest and the
 * newest; links are cleared on the way in and out; two link fields put
 * one object on two lists.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <glib.h>
#include "core/fifo-list.h"

struct item {
	int id;
	struct item *next;
	struct item *other_next;
};

typedef WBSIM_FIFO_LIST(struct item) item_list;

/* Take every object of @fl in order; their ids into @ids. */
static int drain(item_list *fl, int *ids, int max)
{
	struct item *it;
	int n = 0;

	while ((it = wbsim_fifo_list_first(fl))) {
		wbsim_fifo_list_del_first(fl, it, next);
		assert_null(it->next);
		assert_true(n < max);
		ids[n++] = it->id;
	}
	assert_true(wbsim_fifo_list_empty(fl));
	assert_null(wbsim_fifo_list_last(fl));
	return n;
}

static void test_order(void **state)
{
	struct item items[5];
	item_list fl;
	int ids[8];

	(void)state;
	wbsim_fifo_list_init(&fl);
	assert_true(wbsim_fifo_list_empty(&fl));
	assert_null(wbsim_fifo_list_first(&fl));
	assert_null(wbsim_fifo_list_last(&fl));
	for (int i = 0; i < 5; i++) {
		items[i].id = 10 + i;
		items[i].next = &items[0];	/* stale: the add clears it */
		wbsim_fifo_list_add_tail(&fl, &items[i], next);
		assert_ptr_equal(wbsim_fifo_list_first(&fl), &items[0]);
		assert_ptr_equal(wbsim_fifo_list_last(&fl), &items[i]);
		assert_false(wbsim_fifo_list_empty(&fl));
	}
	assert_null(items[4].next);
	assert_int_equal(drain(&fl, ids, 8), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(ids[i], 10 + i);
}

static void test_interleaved(void **state)
{
	struct item items[6];
	item_list fl;
	struct item *it;
	int ids[8], n;

	(void)state;
	for (int i = 0; i < 6; i++)
		items[i] = (struct item){ .id = i };
	wbsim_fifo_list_init(&fl);
	wbsim_fifo_list_add_tail(&fl, &items[0], next);
	wbsim_fifo_list_add_tail(&fl, &items[1], next);
	it = wbsim_fifo_list_first(&fl);
	wbsim_fifo_list_del_first(&fl, it, next);
	assert_int_equal(it->id, 0);
	assert_ptr_equal(wbsim_fifo_list_first(&fl), &items[1]);
	assert_ptr_equal(wbsim_fifo_list_last(&fl), &items[1]);
	/* the last one out empties the list: the tail goes too */
	it = wbsim_fifo_list_first(&fl);
	wbsim_fifo_list_del_first(&fl, it, next);
	assert_int_equal(it->id, 1);
	assert_true(wbsim_fifo_list_empty(&fl));
	assert_null(wbsim_fifo_list_last(&fl));
	/* and an add after that starts a new list */
	wbsim_fifo_list_add_tail(&fl, &items[2], next);
	wbsim_fifo_list_add_tail(&fl, &items[3], next);
	it = wbsim_fifo_list_first(&fl);
	wbsim_fifo_list_del_first(&fl, it, next);
	assert_int_equal(it->id, 2);
	wbsim_fifo_list_add_tail(&fl, &items[4], next);
	wbsim_fifo_list_add_tail(&fl, &items[5], next);
	assert_ptr_equal(wbsim_fifo_list_last(&fl), &items[5]);
	n = drain(&fl, ids, 8);
	assert_int_equal(n, 3);
	assert_int_equal(ids[0], 3);
	assert_int_equal(ids[1], 4);
	assert_int_equal(ids[2], 5);
}

static void test_two_links(void **state)
{
	struct item items[3] = { { .id = 0 }, { .id = 1 }, { .id = 2 } };
	item_list a, b;
	int ids[4];

	(void)state;
	wbsim_fifo_list_init(&a);
	wbsim_fifo_list_init(&b);
	for (int i = 0; i < 3; i++) {
		wbsim_fifo_list_add_tail(&a, &items[i], next);
		wbsim_fifo_list_add_tail(&b, &items[2 - i], other_next);
	}
	assert_ptr_equal(wbsim_fifo_list_first(&b), &items[2]);
	assert_ptr_equal(items[2].other_next, &items[1]);
	assert_ptr_equal(items[0].next, &items[1]);
	assert_int_equal(drain(&a, ids, 4), 3);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[2], 2);
	/* list b is untouched by the takes from a */
	assert_ptr_equal(wbsim_fifo_list_first(&b), &items[2]);
	assert_ptr_equal(wbsim_fifo_list_last(&b), &items[0]);
	assert_ptr_equal(items[1].other_next, &items[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_two_links),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
