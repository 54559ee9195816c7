/* SPDX-License-Identifier: MIT */
/*
 * test-folio-accounting.c - the four accounting points for a large folio
 * (mm/page-writeback.c folio_account_dirtied(), folio_clear_dirty_for_io(),
 * __folio_start_writeback(), __folio_end_writeback()) under whole-folio
 * and per-block dirty accounting, on a bdi over the ideal device: what a
 * 50-byte write into a clean 2 MiB folio charges, what writeback start and
 * end move, what reaches the device, and that the counters balance.
 */
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/affinity.h>
#include <wbsim/block.h>
#include "folio-fixture.h"
#include "block/blk.h"
#include "core/sim.h"

#define FOLIO_PAGES 512		/* a 2 MiB folio */

/* A buffered write of @len bytes at byte @off through the model's write
 * path (generic_perform_write()). Returns the pages charged at (a). */
static uint64_t write_bytes(struct folio_fx *fx, uint64_t off, uint64_t len)
{
	uint64_t before = fx->ib.vm.nr_dirtied;
	wbsim_time_t fs_cost;
	bool throttle;

	assert_true(wbsim_generic_perform_write(fx->inode, &fx->d, off, len, &throttle,
						&fs_cost) > 0);
	return fx->ib.vm.nr_dirtied - before;
}

/* Every page ever dirtied is dirty, under writeback or written. */
static void assert_conserved(const struct folio_fx *fx)
{
	assert_int_equal(fx->ib.vm.nr_dirtied,
			 fx->ib.vm.nr_file_dirty + fx->ib.vm.nr_writeback + fx->ib.vm.nr_written);
	assert_int_equal(fx->inode->wb->stat_dirtied,
			 fx->inode->wb->stat_reclaimable + fx->inode->wb->stat_writeback +
			 fx->inode->wb->stat_written);
}

static uint64_t device_bytes(struct folio_fx *fx)
{
	struct wbsim_blk_stats st;

	wbsim_blk_queue_get_stats(wbsim_device_queue(fx->ib.dev), &st);
	return st.bytes;
}

static gboolean under_writeback(wbsim_sim *sim, void *arg)
{
	return ((struct folio_fx *)arg)->ib.vm.nr_writeback > 0;
}

/* Write the inode back (SYNC_ALL): stop once its pages are under
 * writeback, so (b)+(c) can be checked before (d). */
static void start_writeback(struct folio_fx *fx)
{
	fx->wbc = (struct wbsim_wbc){ .nr_to_write = INT64_MAX, .sync_mode = WB_SYNC_ALL };
	fx->written = false;
	wbsim_do_writepages(&fx->wp, fx->inode, &fx->wbc, &fx->task, -1, folio_fx_written, fx);
	wbsim_sim_run_while_not(fx->ib.sim, under_writeback, fx);
}

/* (a): a 50-byte write into a clean 2 MiB folio charges the whole folio
 * (folio_account_dirtied() adds folio_nr_pages() to NR_FILE_DIRTY,
 * NR_DIRTIED, WB_RECLAIMABLE, WB_DIRTIED and current->nr_dirtied); more
 * writes into the dirty folio charge nothing more, a write into the next
 * folio another 512. */
static void test_dirty_whole_folio(void **state)
{
	struct folio_fx *fx = folio_fx_new(FOLIO_PAGES, false);

	assert_int_equal(write_bytes(fx, (1 << 20) + 100, 50), FOLIO_PAGES);
	assert_int_equal(fx->ib.vm.nr_file_dirty, FOLIO_PAGES);
	assert_int_equal(fx->ib.vm.nr_dirtied, FOLIO_PAGES);
	assert_int_equal(fx->inode->wb->stat_reclaimable, FOLIO_PAGES);
	assert_int_equal(fx->d.td.nr_dirtied, FOLIO_PAGES);
	assert_int_equal(wbsim_inode_acct(fx->inode, WBSIM_PC_DIRTY), FOLIO_PAGES);
	/* one block is dirty in the page cache (iomap's per-block state) */
	assert_int_equal(wbsim_page_cache_nr(&fx->inode->pages, WBSIM_PC_DIRTY), 1);
	assert_int_equal(write_bytes(fx, 4096 * 7, 50), 0);
	assert_int_equal(write_bytes(fx, (2 << 20) + 4000, 50), FOLIO_PAGES);
	assert_int_equal(fx->ib.vm.nr_file_dirty, 2 * FOLIO_PAGES);
	assert_conserved(fx);
	folio_fx_free(fx);
}

/* (a) per block: the same write charges its one block; a write that
 * crosses a block boundary two; a block dirty already nothing. */
static void test_dirty_per_block(void **state)
{
	struct folio_fx *fx = folio_fx_new(FOLIO_PAGES, true);

	assert_int_equal(write_bytes(fx, (1 << 20) + 100, 50), 1);
	assert_int_equal(fx->ib.vm.nr_file_dirty, 1);
	assert_int_equal(fx->d.td.nr_dirtied, 1);
	assert_int_equal(write_bytes(fx, (1 << 20) + 200, 50), 0);
	assert_int_equal(write_bytes(fx, 4096 * 7 + 4090, 50), 2);
	assert_int_equal(fx->ib.vm.nr_file_dirty, 3);
	assert_int_equal(wbsim_inode_acct(fx->inode, WBSIM_PC_DIRTY), 3);
	assert_conserved(fx);
	folio_fx_free(fx);
}

/* (b)+(c) then (d) for one dirty block in a 2 MiB folio: the folio's
 * worth leaves dirty for writeback and then writeback for written
 * (folio_clear_dirty_for_io(), __folio_start_writeback(),
 * __folio_end_writeback() all move folio_nr_pages()) with whole-folio
 * accounting, the one block per block; either way only the dirty block
 * reaches the device (iomap_writepage_map() walks the per-block dirty
 * state). */
static void check_writeback(bool per_block, uint64_t moved)
{
	struct folio_fx *fx = folio_fx_new(FOLIO_PAGES, per_block);

	write_bytes(fx, (1 << 20) + 100, 50);
	start_writeback(fx);
	assert_int_equal(fx->ib.vm.nr_file_dirty, 0);
	assert_int_equal(fx->ib.vm.nr_writeback, moved);
	assert_int_equal(fx->inode->wb->stat_writeback, moved);
	assert_int_equal(wbsim_inode_acct(fx->inode, WBSIM_PC_WRITEBACK), moved);
	assert_conserved(fx);
	wbsim_sim_run(fx->ib.sim);
	assert_true(fx->written);
	assert_int_equal(fx->ib.vm.nr_writeback, 0);
	assert_int_equal(fx->ib.vm.nr_written, moved);
	assert_int_equal(fx->inode->wb->stat_written, moved);
	assert_int_equal(device_bytes(fx), 4096);
	assert_conserved(fx);
	folio_fx_free(fx);
}

static void test_writeback_whole_folio(void **state)
{
	check_writeback(false, FOLIO_PAGES);
}

static void test_writeback_per_block(void **state)
{
	check_writeback(true, 1);
}

/* A write into a folio under writeback: the folio is clean (its dirty
 * flag went at folio_clear_dirty_for_io()), so it is charged again: the
 * folio then counts both as dirty and as under writeback, as in the
 * kernel; the counters still balance after the second writeback. */
static void test_redirty_under_writeback(void **state)
{
	struct folio_fx *fx = folio_fx_new(FOLIO_PAGES, false);

	write_bytes(fx, 100, 50);
	start_writeback(fx);
	assert_int_equal(write_bytes(fx, 8192, 50), FOLIO_PAGES);
	assert_int_equal(fx->ib.vm.nr_file_dirty, FOLIO_PAGES);
	assert_int_equal(fx->ib.vm.nr_writeback, FOLIO_PAGES);
	assert_conserved(fx);
	wbsim_sim_run(fx->ib.sim);
	start_writeback(fx);
	wbsim_sim_run(fx->ib.sim);
	assert_int_equal(fx->ib.vm.nr_file_dirty, 0);
	assert_int_equal(fx->ib.vm.nr_writeback, 0);
	assert_int_equal(fx->ib.vm.nr_written, 2 * FOLIO_PAGES);
	assert_int_equal(device_bytes(fx), 2 * 4096);
	assert_conserved(fx);
	folio_fx_free(fx);
}

/* The folio writeback holds locked, and when a write waiting for it woke. */
static uint64_t locked_folio;
static wbsim_time_t woke_at;

static gboolean folio_locked(wbsim_sim *sim, void *arg)
{
	(void)sim;
	return ((struct folio_fx *)arg)->inode->wb_locked_folio != WBSIM_PGOFF_NONE;
}

static gboolean folio_released(wbsim_sim *sim, void *arg)
{
	(void)sim;
	return ((struct folio_fx *)arg)->inode->wb_locked_folio != locked_folio;
}

static gboolean wrote(wbsim_sim *sim, void *arg)
{
	(void)sim;
	return ((struct folio_fx *)arg)->written;
}

static void write_resumes(wbsim_sim *sim, void *arg)
{
	(void)arg;
	woke_at = wbsim_sim_now(sim);
}

/* Writeback of three folios with one scattered dirty block each: three
 * ioends. While the first is submitted, the second folio is locked (the
 * block that did not merge submits the ioend before it, under its folio's
 * lock); a write into it waits until that submission is over, a write
 * into the first folio does not wait at all. */
static void test_write_waits_for_folio_lock(void **state)
{
	struct folio_fx *fx = folio_fx_new(FOLIO_PAGES, false);
	const uint64_t folio_bytes = FOLIO_PAGES * 4096;
	wbsim_time_t locked_at, released_at;

	(void)state;
	for (uint64_t i = 0; i < 3; i++)
		write_bytes(fx, i * folio_bytes + (i + 1) * 8192, 50);
	fx->wbc = (struct wbsim_wbc){ .nr_to_write = INT64_MAX, .sync_mode = WB_SYNC_ALL };
	fx->written = false;
	wbsim_do_writepages(&fx->wp, fx->inode, &fx->wbc, &fx->task, -1, folio_fx_written, fx);
	wbsim_sim_run_while_not(fx->ib.sim, folio_locked, fx);
	locked_folio = fx->inode->wb_locked_folio;
	locked_at = wbsim_sim_now(fx->ib.sim);
	assert_int_equal(locked_folio, FOLIO_PAGES);
	assert_true(wbsim_filemap_folio_locked(fx->inode, folio_bytes + 100000, 50));
	assert_false(wbsim_filemap_folio_locked(fx->inode, 100000, 50));
	assert_false(wbsim_filemap_wait_folio_lock(fx->inode, 100000, 50, write_resumes, fx));
	woke_at = 0;
	assert_true(wbsim_filemap_wait_folio_lock(fx->inode, folio_bytes + 100000, 50,
						  write_resumes, fx));
	wbsim_sim_run_while_not(fx->ib.sim, folio_released, fx);
	released_at = wbsim_sim_now(fx->ib.sim);
	/* the submission of the first ioend's bio: at least its CPU */
	assert_true(released_at - locked_at >= fx->ib.costs.blk_submit_rq_ns);
	assert_int_equal(woke_at, 0);
	wbsim_sim_run_while_not(fx->ib.sim, wrote, fx);
	assert_int_equal(woke_at, released_at);
	assert_int_equal(fx->inode->wb_locked_folio, WBSIM_PGOFF_NONE);
	folio_fx_free(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirty_whole_folio),
		cmocka_unit_test(test_dirty_per_block),
		cmocka_unit_test(test_writeback_whole_folio),
		cmocka_unit_test(test_writeback_per_block),
		cmocka_unit_test(test_redirty_under_writeback),
		cmocka_unit_test(test_write_waits_for_folio_lock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
