/* SPDX-License-Identifier: MIT */
/*
 * test-filemap.c - the buffered write path (mm/filemap.c) on a bdi over the
 * ideal device and filesystem: what one write does to the page cache, the
 * counters and i_size, and that the per-CPU throttle counters
 * (bdp_ratelimits) are those of the CPU the writing task runs on; and
 * that mm reaches fs only through the bdi's table (struct
 * wbsim_writeback_ops).
 */
#include "../fs/ideal-bdi.h"
#include "fs/fs-writeback.h"
#include "mm/filemap.h"
#include "fs/alloc/fs.h"

#define NR_CPUS 4

struct fx {
	struct ideal_bdi ib;
	struct wbsim_inode *inode;
	wbsim_task ta, tb;
	struct wbsim_dirtier da, db;
};

static int fx_setup(void **state)
{
	struct fx *fx = g_new0(struct fx, 1);

	ideal_bdi_open(&fx->ib, NR_CPUS, false);
	fx->inode = wbsim_inode_new(&fx->ib.bdi,
				    wbsim_fs_create(fx->ib.fs, wbsim_fs_root(fx->ib.fs)),
				    "/mnt/f", 1, false);
	wbsim_task_init(&fx->ta, "a", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&fx->tb, "b", WBSIM_TASK_DIRTIER);
	wbsim_dirtier_init(&fx->da, &fx->ta);
	wbsim_dirtier_init(&fx->db, &fx->tb);
	*state = fx;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *fx = *state;

	ideal_bdi_clear(&fx->ib);
	wbsim_inode_free(fx->inode);
	wbsim_task_clear(&fx->ta);
	wbsim_task_clear(&fx->tb);
	ideal_bdi_close(&fx->ib);
	g_free(fx);
	return 0;
}

static uint64_t bdp_ratelimits(const struct fx *fx, unsigned int cpu)
{
	return fx->ib.vm.cpu_dirty[cpu].bdp_ratelimits;
}

/* A write dirties whole pages, moves i_size, and counts each newly dirty
 * page once: in the global count, the task's nr_dirtied, and the per-CPU
 * count of the CPU the task runs on (none elsewhere). Rewriting dirty
 * pages counts nothing. */
static void test_write_counts_on_task_cpu(void **state)
{
	struct fx *fx = *state;
	bool throttle = true;
	wbsim_time_t fs_cost;

	fx->ta.last_cpu = 2;
	/* 10000 bytes at 100: pages 0..2 */
	wbsim_generic_perform_write(fx->inode, &fx->da, 100, 10000, &throttle, &fs_cost);
	assert_int_equal(fx->inode->size, 10100);
	assert_int_equal(fx->ib.vm.nr_file_dirty, 3);
	assert_int_equal(fx->da.td.nr_dirtied, 3);
	assert_false(throttle);
	assert_int_equal(bdp_ratelimits(fx, 2), 3);
	for (unsigned int c = 0; c < NR_CPUS; c++)
		if (c != 2)
			assert_int_equal(bdp_ratelimits(fx, c), 0);
	/* the task moved to CPU 1: pages 2..4, of which 3 and 4 are new */
	fx->ta.last_cpu = 1;
	wbsim_generic_perform_write(fx->inode, &fx->da, 3 * 4096 - 1, 2 * 4096, &throttle, &fs_cost);
	assert_int_equal(fx->inode->size, 5 * 4096 - 1);
	assert_int_equal(fx->ib.vm.nr_file_dirty, 5);
	assert_int_equal(bdp_ratelimits(fx, 1), 2);
	assert_int_equal(bdp_ratelimits(fx, 2), 3);
	assert_int_equal(bdp_ratelimits(fx, 0), 0);
	/* a rewrite of dirty pages: no new dirty page, i_size stays */
	wbsim_generic_perform_write(fx->inode, &fx->da, 0, 4096, &throttle, &fs_cost);
	assert_int_equal(fx->inode->size, 5 * 4096 - 1);
	assert_int_equal(fx->ib.vm.nr_file_dirty, 5);
	assert_int_equal(bdp_ratelimits(fx, 1), 2);
}

/*
 * The forced look of balance_dirty_pages_ratelimited(): a CPU that has
 * dirtied ratelimit_pages pages makes the task writing on it look, even
 * below its own nr_dirtied_pause; pages dirtied on another CPU do not
 * count. (With every count on CPU 0, task b's write would force the look.)
 */
static void test_forced_look_per_cpu(void **state)
{
	struct fx *fx = *state;
	bool throttle;
	wbsim_time_t fs_cost;

	fx->ib.vm.dirty.ratelimit_pages = 8;
	fx->da.td.nr_dirtied_pause = 1 << 20;
	fx->db.td.nr_dirtied_pause = 1 << 20;
	fx->ta.last_cpu = 1;
	fx->tb.last_cpu = 3;
	wbsim_generic_perform_write(fx->inode, &fx->da, 0, 4 * 4096, &throttle, &fs_cost);
	assert_false(throttle);
	wbsim_generic_perform_write(fx->inode, &fx->db, 4 * 4096, 4 * 4096, &throttle, &fs_cost);
	assert_false(throttle);
	assert_int_equal(bdp_ratelimits(fx, 1), 4);
	assert_int_equal(bdp_ratelimits(fx, 3), 4);
	/* CPU 1 reaches 8: a looks now, and CPU 1's count starts again */
	wbsim_generic_perform_write(fx->inode, &fx->da, 8 * 4096, 4 * 4096, &throttle, &fs_cost);
	assert_true(throttle);
	assert_int_equal(bdp_ratelimits(fx, 1), 0);
	assert_int_equal(bdp_ratelimits(fx, 3), 4);
}

/* file_update_time(): the timestamps follow the coarse clock, so only the
 * first write of each tick (1 ms at this machine's HZ 1000) updates them;
 * a file created in a tick has that tick's timestamps. */
static void test_update_time_once_a_tick(void **state)
{
	struct fx *fx = *state;
	const wbsim_time_t ms = WBSIM_NSEC_PER_SEC / 1000;

	assert_false(wbsim_inode_needs_update_time(fx->inode, 0));
	assert_false(wbsim_inode_needs_update_time(fx->inode, ms - 1));
	assert_true(wbsim_inode_needs_update_time(fx->inode, ms));
	/* the ideal filesystem's update costs nothing: the clock moves on */
	assert_int_equal(wbsim_file_update_time(fx->inode, ms + ms / 2), 0);
	assert_false(wbsim_inode_needs_update_time(fx->inode, 2 * ms - 1));
	assert_true(wbsim_inode_needs_update_time(fx->inode, 2 * ms));
	assert_true(wbsim_inode_needs_update_time(fx->inode, 7 * ms));
	wbsim_file_update_time(fx->inode, 7 * ms);
	assert_false(wbsim_inode_needs_update_time(fx->inode, 7 * ms + 1));
}

/* What mm called of fs through the bdi's table (defs/writeback.h), each
 * call forwarded to fs's own function. */
static const struct wbsim_writeback_ops *fs_ops;
static unsigned int nr_marked, nr_done, nr_dirtier_wb, nr_pages_dirtied;
static struct wbsim_inode *done_inode;

static void rec_mark_inode_dirty(struct wbsim_inode *inode, const wbsim_task *task,
				 struct wbsim_memcg *memcg)
{
	nr_marked++;
	fs_ops->mark_inode_dirty(inode, task, memcg);
}

static void rec_inode_writeback_done(struct wbsim_inode *inode)
{
	nr_done++;
	done_inode = inode;
	fs_ops->inode_writeback_done(inode);
}

static struct wbsim_wb *rec_dirtier_wb(struct wbsim_bdi *bdi, struct wbsim_inode *inode,
				       struct wbsim_memcg *memcg)
{
	nr_dirtier_wb++;
	return fs_ops->dirtier_wb(bdi, inode, memcg);
}

static void rec_pages_dirtied(struct wbsim_inode *inode, struct wbsim_dirtier *d, uint64_t first,
			      uint64_t nr)
{
	nr_pages_dirtied++;
	fs_ops->pages_dirtied(inode, d, first, nr);
}

/*
 * mm reaches fs through the bdi's table, which wbsim_bdi_init() fills with
 * fs's functions: the write that dirties pages anew marks the inode dirty
 * (once a write) and looks up the throttling wb; a rewrite of dirty pages
 * marks nothing; the end of the inode's last block under writeback tells
 * fs. Without a memcg, no page is charged (pages_dirtied not called).
 */
static void test_write_through_ops(void **state)
{
	struct fx *fx = *state;
	struct wbsim_writeback_ops rec;
	bool throttle = true;
	wbsim_time_t fs_cost;

	fs_ops = fx->ib.bdi.wb_ops;
	assert_ptr_equal(fs_ops->mark_inode_dirty, wbsim_mark_inode_dirty);
	assert_ptr_equal(fs_ops->inode_writeback_done, wbsim_inode_maybe_detach);
	rec = *fs_ops;
	rec.mark_inode_dirty = rec_mark_inode_dirty;
	rec.inode_writeback_done = rec_inode_writeback_done;
	rec.dirtier_wb = rec_dirtier_wb;
	rec.pages_dirtied = rec_pages_dirtied;
	fx->ib.bdi.wb_ops = &rec;
	nr_marked = nr_done = nr_dirtier_wb = nr_pages_dirtied = 0;

	wbsim_generic_perform_write(fx->inode, &fx->da, 0, 3 * 4096, &throttle, &fs_cost);
	assert_int_equal(nr_marked, 1);
	assert_int_equal(nr_dirtier_wb, 1);
	assert_non_null(fx->inode->wb);
	assert_true(fx->inode->i_state & I_DIRTY_PAGES);
	wbsim_generic_perform_write(fx->inode, &fx->da, 4096, 4096, &throttle, &fs_cost);
	assert_int_equal(nr_marked, 1);
	assert_int_equal(nr_dirtier_wb, 2);
	assert_int_equal(nr_pages_dirtied, 0);

	wbsim_account_start_writeback(fx->inode, fx->inode->wb, 3, 3);
	wbsim_account_end_writeback(fx->inode, fx->inode->wb, 2, 2);
	assert_int_equal(nr_done, 0);
	wbsim_account_end_writeback(fx->inode, fx->inode->wb, 1, 1);
	assert_int_equal(nr_done, 1);
	assert_ptr_equal(done_inode, fx->inode);
	fx->ib.bdi.wb_ops = fs_ops;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_counts_on_task_cpu, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_forced_look_per_cpu, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_update_time_once_a_tick, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_write_through_ops, fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
