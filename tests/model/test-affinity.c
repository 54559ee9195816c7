/* SPDX-License-Identifier: MIT */
/*
 * test-affinity.c - inode-to-context affinity. Files are dirtied slowly, so
 * each is written back (after dirty_expire_centisecs) and becomes clean
 * several times; every time it is dirtied again its context is chosen again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "model-harness.h"

static const char slow_files[] =
	"[machine]\ncpus = 4\nmemory = 2G\n"
	"[device]\npreset = ideal\n"
	"[filesystem]\ntype = ideal\n"
	"[writeback]\ncontexts = 4\n"
	"[fio:w]\nrw=write\nbs=4k\nnrfiles=4\nsize=256k\ntime_based\nruntime=120s\n"
	"rate=4k\ninvalidate=0\n";

static unsigned int contexts_of(const struct wbsim_extent_result *e)
{
	return (unsigned int)__builtin_popcountll(e->written_by);
}

/* inode: context = inode number % 4 for life: each file is only ever
 * written back by one flusher, though it is written back many times. */
static void test_inode_affinity_one_context(void **state)
{
	const char *set[] = { "writeback.affinity=inode", NULL };
	struct wbsim_run_result *r = run_text(slow_files, set, FALSE);
	unsigned int used = 0;

	assert_int_equal(r->extents->len, 4);
	for (guint i = 0; i < r->extents->len; i++) {
		const struct wbsim_extent_result *e = r->extents->pdata[i];

		assert_int_equal(contexts_of(e), 1);
		used |= (unsigned int)e->written_by;
	}
	/* and the flushers that wrote at all wrote pages */
	for (guint i = 0; i < r->wbs->len; i++) {
		const struct wbsim_wb_result *w = r->wbs->pdata[i];

		assert_true(((used >> i) & 1) == (w->pages_written > 0));
	}
	wbsim_run_result_free(r);
}

/* none: a file dirtied again after it was cleaned may go to another
 * context, so some file is written back by two flushers or more. */
static void test_no_affinity_shares_inodes(void **state)
{
	const char *set[] = { "writeback.affinity=none", NULL };
	struct wbsim_run_result *r = run_text(slow_files, set, FALSE);
	unsigned int most = 0;

	for (guint i = 0; i < r->extents->len; i++) {
		unsigned int n = contexts_of(r->extents->pdata[i]);

		most = n > most ? n : most;
	}
	assert_true(most >= 2);
	wbsim_run_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inode_affinity_one_context),
		cmocka_unit_test(test_no_affinity_shares_inodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
