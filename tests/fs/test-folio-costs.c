/* SPDX-License-Identifier: MIT */
/*
 * test-folio-costs.c - what a large folio costs the CPU against the same
 * bytes in 4 KiB folios, and the folio size the write path chooses:
 * - the writepages walk charges per folio, whatever its size, and per
 *   dirty block range (writeback_iter() hands out folios;
 *   iomap_writeback_folio() calls iomap_writeback_range() once per range
 *   iomap_find_dirty_range() finds);
 * - the completion ends writeback per folio (iomap_finish_ioend walks the
 *   bio's folios: one folio_end_writeback() each), besides its request;
 * - a write charges its bookkeeping per folio it goes through, an
 *   allocation per folio plus per page of it, its copy per byte;
 * - __filemap_get_folio()'s order for a write (fgf_set_order() of the
 *   write's part of a max-size chunk, the mapping's largest order, the
 *   alignment of the index), and folio_size = auto taking it from the
 *   write that finds the cache empty.
 */
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/affinity.h>
#include <wbsim/block.h>
#include "folio-fixture.h"
#include "core/sim.h"

#define MIB (UINT64_C(1) << 20)

/* Only the walk's own two costs left in the table: the task's CPU time is
 * then the walk's charge alone. */
static void walk_costs_only(struct folio_fx *fx)
{
	struct wbsim_cpu_costs *c = &fx->ib.costs;

	memset(c, 0, sizeof(*c));
	c->memcpy_bandwidth = 1;
	c->writepages_folio_ns = 550;
	c->bio_build_ns = 800;
}

static void write_at(struct folio_fx *fx, uint64_t off, uint64_t len)
{
	wbsim_time_t fs_cost;
	bool throttle;

	wbsim_generic_perform_write(fx->inode, &fx->d, off, len, &throttle, &fs_cost);
}

static gboolean all_written(wbsim_sim *sim, void *arg)
{
	struct folio_fx *fx = arg;

	(void)sim;
	return fx->written && fx->ib.vm.nr_writeback == 0;
}

/* Write the inode back (SYNC_ALL, one do_writepages() call) to the end. */
static void write_back(struct folio_fx *fx)
{
	fx->wbc = (struct wbsim_wbc){ .nr_to_write = INT64_MAX, .sync_mode = WB_SYNC_ALL };
	fx->written = false;
	wbsim_do_writepages(&fx->wp, fx->inode, &fx->wbc, &fx->task, -1, folio_fx_written, fx);
	wbsim_sim_run_while_not(fx->ib.sim, all_written, fx);
	assert_true(fx->written);
	assert_int_equal(fx->ib.vm.nr_writeback, 0);
}

/* 2 MiB written back as one 2 MiB folio: one folio, one dirty range. As
 * 512 4 KiB folios: 512 folios, and the walk's two runs of 256 pages (one
 * request's worth each). */
static void test_walk_charge_2m_folio_against_512_small(void **state)
{
	struct folio_fx *big = folio_fx_new(512, false), *small = folio_fx_new(1, false);

	(void)state;
	walk_costs_only(big);
	walk_costs_only(small);
	write_at(big, 0, 2 * MIB);
	write_at(small, 0, 2 * MIB);
	write_back(big);
	write_back(small);
	assert_int_equal(big->ib.vm.nr_written, 512);
	assert_int_equal(small->ib.vm.nr_written, 512);
	assert_int_equal(big->task.cpu_ns, 550 + 800);
	assert_int_equal(small->task.cpu_ns, 512 * 550 + 2 * 800);
	folio_fx_free(big);
	folio_fx_free(small);
}

/* The completion: per request, and per folio ended. 2 MiB as one folio:
 * two requests of 1 MiB (the fixture's largest), one folio; as 4 KiB
 * folios: two ioends of 256 (BIO_MAX_VECS), each split into two requests
 * of 128 segments (a scattered 4 KiB folio is a segment), 512 folios.
 * Only the completion's costs are left, so the pool's CPU time is theirs. */
static void test_completion_charge_2m_folio_against_512_small(void **state)
{
	struct folio_fx *big = folio_fx_new(512, false), *small = folio_fx_new(1, false);
	struct folio_fx *fxs[] = { big, small };

	(void)state;
	for (unsigned int i = 0; i < 2; i++) {
		struct wbsim_cpu_costs *c = &fxs[i]->ib.costs;

		memset(c, 0, sizeof(*c));
		c->memcpy_bandwidth = 1;
		c->blk_complete_rq_ns = 500;
		c->blk_complete_page_ns = 400;
		write_at(fxs[i], 0, 2 * MIB);
		write_back(fxs[i]);
		assert_int_equal(fxs[i]->ib.vm.nr_written, 512);
	}
	assert_int_equal(wbsim_cpus_busy_ns(big->ib.cpus), 2 * 500 + 400);
	assert_int_equal(wbsim_cpus_busy_ns(small->ib.cpus), 4 * 500 + 512 * 400);
	folio_fx_free(big);
	folio_fx_free(small);
}

/* Three dirty blocks apart in a 2 MiB folio: three ioends, three
 * requests, each ending its part of the folio (one bvec each). */
static void test_completion_charge_per_range(void **state)
{
	struct folio_fx *fx = folio_fx_new(512, false);
	struct wbsim_cpu_costs *c = &fx->ib.costs;

	(void)state;
	memset(c, 0, sizeof(*c));
	c->memcpy_bandwidth = 1;
	c->blk_complete_rq_ns = 500;
	c->blk_complete_page_ns = 400;
	write_at(fx, 0, 4096);
	write_at(fx, MIB, 4096);
	write_at(fx, 2 * MIB - 4096, 4096);
	write_back(fx);
	assert_int_equal(wbsim_cpus_busy_ns(fx->ib.cpus), 3 * (500 + 400));
	folio_fx_free(fx);
}

/* A 2 MiB folio with three dirty blocks apart (4 KiB at 0, at 1 MiB and
 * at its last block): one folio, three ranges, three blocks written. */
static void test_walk_charge_per_dirty_range(void **state)
{
	struct folio_fx *fx = folio_fx_new(512, false);

	(void)state;
	walk_costs_only(fx);
	write_at(fx, 0, 4096);
	write_at(fx, MIB, 4096);
	write_at(fx, 2 * MIB - 4096, 4096);
	write_back(fx);
	assert_int_equal(fx->task.cpu_ns, 550 + 3 * 800);
	folio_fx_free(fx);
}

/* One 2 MiB write into an empty file: the copy per byte either way; the
 * lookup, the dirtying and the allocation once for a 2 MiB folio, 512
 * times for 4 KiB folios; the allocation's per-page part 512 times in
 * both. */
static void test_write_charge_2m_folio_against_512_small(void **state)
{
	struct folio_fx *big = folio_fx_new(512, false), *small = folio_fx_new(1, false);
	const struct wbsim_cpu_costs *c = wbsim_cpu_costs_default();
	wbsim_time_t fs_big, fs_small, cost_big, cost_small;
	bool throttle;

	(void)state;
	cost_big = wbsim_generic_perform_write(big->inode, &big->d, 0, 2 * MIB, &throttle, &fs_big);
	cost_small = wbsim_generic_perform_write(small->inode, &small->d, 0, 2 * MIB, &throttle,
						 &fs_small);
	assert_int_equal(cost_big - fs_big,
			 c->write_syscall_ns + 512 * c->copy_page_ns + c->dirty_folio_ns +
			 c->page_alloc_ns + 512 * c->page_alloc_page_ns + c->account_dirty_ns);
	assert_int_equal(cost_small - fs_small,
			 c->write_syscall_ns + 512 * c->copy_page_ns + 512 * c->dirty_folio_ns +
			 512 * (c->page_alloc_ns + c->page_alloc_page_ns) +
			 512 * c->account_dirty_ns);
	/* the same pages dirtied and charged at (a) either way */
	assert_int_equal(big->ib.vm.nr_dirtied, 512);
	assert_int_equal(small->ib.vm.nr_dirtied, 512);
	/* a second write into the now cached folio allocates nothing */
	cost_big = wbsim_generic_perform_write(big->inode, &big->d, MIB, 4096, &throttle, &fs_big);
	assert_int_equal(cost_big - fs_big, c->write_syscall_ns + c->copy_page_ns + c->dirty_folio_ns);
	folio_fx_free(big);
	folio_fx_free(small);
}

/* __filemap_get_folio()'s order for a write, in pages (2 MiB = 512). */
static void test_folio_size_of_a_write(void **state)
{
	(void)state;
	/* fio's aligned 1 MiB writes: 1 MiB folios, wherever in the chunk */
	assert_int_equal(wbsim_filemap_folio_pages(0, MIB, 512), 256);
	assert_int_equal(wbsim_filemap_folio_pages(MIB, MIB, 512), 256);
	/* a 256 MiB write: the largest folio (E8's first write) */
	assert_int_equal(wbsim_filemap_folio_pages(0, 256 * MIB, 512), 512);
	/* up to 8 KiB - 1: order 0; 8 KiB: order 1 */
	assert_int_equal(wbsim_filemap_folio_pages(0, 50, 512), 1);
	assert_int_equal(wbsim_filemap_folio_pages(0, 4096, 512), 1);
	assert_int_equal(wbsim_filemap_folio_pages(0, 8191, 512), 1);
	assert_int_equal(wbsim_filemap_folio_pages(0, 8192, 512), 2);
	/* 96 KiB rounds down to 64 KiB */
	assert_int_equal(wbsim_filemap_folio_pages(0, 96 * 1024, 512), 16);
	/* the index's alignment bounds it: page 1 takes order 0, page 2
	 * order 1, page 48 (192 KiB) order 4 */
	assert_int_equal(wbsim_filemap_folio_pages(4096, MIB, 512), 1);
	assert_int_equal(wbsim_filemap_folio_pages(8192, MIB, 512), 2);
	assert_int_equal(wbsim_filemap_folio_pages(3 * 65536, 65536, 512), 16);
	/* only the write's part in its 2 MiB chunk counts: 4 KiB before the
	 * chunk's end, 512 KiB at 1.5 MiB */
	assert_int_equal(wbsim_filemap_folio_pages(2 * MIB - 4096, MIB, 512), 1);
	assert_int_equal(wbsim_filemap_folio_pages(MIB + MIB / 2, MIB, 512), 128);
	/* a mapping without large folios (f2fs, ideal): always one page */
	assert_int_equal(wbsim_filemap_folio_pages(0, 256 * MIB, 1), 1);
}

/* folio_size = auto: the write that finds the cache empty sets the
 * file's folio size (up to the filesystem's largest), later writes keep
 * it; per-block accounting keeps its one page per block. */
static void test_auto_folio_size_from_first_write(void **state)
{
	struct folio_fx *fx = folio_fx_new(1, false);
	struct wbsim_inode *first = fx->inode, *whole, *per_block, *small;

	(void)state;
	wbsim_fs_set_max_folio_size(fx->ib.fs, 2 * MIB);
	whole = wbsim_inode_new(&fx->ib.bdi, wbsim_fs_create(fx->ib.fs, wbsim_fs_root(fx->ib.fs)),
				"/mnt/whole", 0, false);
	per_block = wbsim_inode_new(&fx->ib.bdi,
				    wbsim_fs_create(fx->ib.fs, wbsim_fs_root(fx->ib.fs)),
				    "/mnt/per-block", 0, true);
	small = wbsim_inode_new(&fx->ib.bdi, wbsim_fs_create(fx->ib.fs, wbsim_fs_root(fx->ib.fs)),
				"/mnt/small", 0, false);
	assert_int_equal(whole->max_folio_pages, 512);
	fx->inode = whole;
	write_at(fx, 0, MIB);
	assert_int_equal(whole->folio_pages, 256);
	assert_int_equal(whole->acct_folio, 256);
	/* a small write into the cached file keeps the size */
	write_at(fx, 4 * MIB, 4096);
	assert_int_equal(whole->folio_pages, 256);
	/* whole-folio accounting: a 1 MiB folio, then a second one */
	assert_int_equal(fx->ib.vm.nr_dirtied, 512);
	fx->inode = per_block;
	write_at(fx, 0, 256 * MIB);
	assert_int_equal(per_block->folio_pages, 512);
	assert_int_equal(per_block->acct_folio, 1);
	fx->inode = small;
	write_at(fx, 0, 4096);
	assert_int_equal(small->folio_pages, 1);
	/* folio_fx_close()'s steps, with the three inodes freed */
	fx->inode = first;
	wbsim_writepages_clear(&fx->wp);
	ideal_bdi_clear(&fx->ib);
	wbsim_inode_free(whole);
	wbsim_inode_free(per_block);
	wbsim_inode_free(small);
	wbsim_inode_free(first);
	wbsim_task_clear(&fx->task);
	ideal_bdi_close(&fx->ib);
	g_free(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_charge_2m_folio_against_512_small),
		cmocka_unit_test(test_walk_charge_per_dirty_range),
		cmocka_unit_test(test_completion_charge_2m_folio_against_512_small),
		cmocka_unit_test(test_completion_charge_per_range),
		cmocka_unit_test(test_write_charge_2m_folio_against_512_small),
		cmocka_unit_test(test_folio_size_of_a_write),
		cmocka_unit_test(test_auto_folio_size_from_first_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
