/* SPDX-License-Identifier: MIT */
/*
 * test-ioend.c - the ioend as iomap builds it (fs/iomap/ioend.c
 * iomap_add_to_ioend(), iomap_finish_ioend()): contiguous folios gather into
 * one ioend across the walk's batches until its bio has BIO_MAX_VECS bvecs
 * (one per folio), and writeback ends on all of its folios at once, when the
 * last of the device requests it is split into has completed.
 */
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/affinity.h>
#include <wbsim/block.h>
#include "folio-fixture.h"
#include "core/sim.h"

#define MAX_STEPS 64

struct fx {
	struct folio_fx f;
	/* the pages each completion took out of writeback, in order */
	uint64_t last_writeback;
	uint64_t steps[MAX_STEPS];
	unsigned int nr_steps;
	uint64_t peak_writeback;
};

static struct fx *fx_new(uint64_t folio_pages)
{
	struct fx *fx = g_new0(struct fx, 1);

	folio_fx_open(&fx->f, folio_pages, false);
	return fx;
}

static void fx_free(struct fx *fx)
{
	folio_fx_close(&fx->f);
	g_free(fx);
}

/* After every event: record each drop of the pages under writeback. */
static gboolean watch(wbsim_sim *sim, void *arg)
{
	struct fx *fx = arg;
	uint64_t now = fx->f.ib.vm.nr_writeback;

	fx->peak_writeback = MAX(fx->peak_writeback, now);
	if (now < fx->last_writeback) {
		assert_true(fx->nr_steps < MAX_STEPS);
		fx->steps[fx->nr_steps++] = fx->last_writeback - now;
	}
	fx->last_writeback = now;
	return FALSE;
}

/* Dirty @pages pages from offset 0 with page-sized writes, write them all
 * back (SYNC_ALL, one do_writepages() call) and watch writeback end. */
static void write_and_flush(struct fx *fx, uint64_t pages)
{
	wbsim_time_t fs_cost;
	bool throttle;

	for (uint64_t p = 0; p < pages; p++)
		assert_true(wbsim_generic_perform_write(fx->f.inode, &fx->f.d, p * 4096, 4096,
							&throttle, &fs_cost) > 0);
	assert_int_equal(fx->f.ib.vm.nr_file_dirty, pages);
	fx->f.wbc = (struct wbsim_wbc){ .nr_to_write = INT64_MAX, .sync_mode = WB_SYNC_ALL };
	wbsim_do_writepages(&fx->f.wp, fx->f.inode, &fx->f.wbc, &fx->f.task, -1,
			    folio_fx_written, &fx->f);
	wbsim_sim_run_while_not(fx->f.ib.sim, watch, fx);
	assert_true(fx->f.written);
	assert_int_equal(fx->f.ib.vm.nr_writeback, 0);
	assert_int_equal(fx->f.ib.vm.nr_written, pages);
}

/* 300 contiguous 2 MiB folios: one ioend of 256 folios (BIO_MAX_VECS
 * bvecs, 512 MiB, 512 requests of 1 MiB) ends writeback at once, then one
 * of the 44 left; nothing ends before the whole first ioend is written. */
static void test_large_folios_one_ioend_per_256(void **state)
{
	struct fx *fx = fx_new(512);

	write_and_flush(fx, 300 * 512);
	assert_int_equal(fx->nr_steps, 2);
	assert_int_equal(fx->steps[0], 256 * 512);
	assert_int_equal(fx->steps[1], 44 * 512);
	assert_int_equal(fx->peak_writeback, 300 * 512);
	fx_free(fx);
}

/* Order-0 folios: one bvec a page, so an ioend carries at most 256 pages
 * (BIO_MAX_VECS): 1000 contiguous pages end writeback in ioends of 256,
 * 256, 256 and 232 pages. */
static void test_small_folios_ioend_at_most_256_pages(void **state)
{
	struct fx *fx = fx_new(1);
	uint64_t total = 0;

	write_and_flush(fx, 1000);
	assert_int_equal(fx->nr_steps, 4);
	for (unsigned int i = 0; i < fx->nr_steps; i++) {
		assert_true(fx->steps[i] <= 256);
		total += fx->steps[i];
	}
	assert_int_equal(total, 1000);
	assert_int_equal(fx->steps[0], 256);
	assert_int_equal(fx->steps[3], 232);
	fx_free(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_large_folios_one_ioend_per_256),
		cmocka_unit_test(test_small_folios_ioend_at_most_256_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
