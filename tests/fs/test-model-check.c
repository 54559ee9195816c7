/* SPDX-License-Identifier: MIT */
/*
 * test-model-check.c - the invariant checks of the model that --check runs
 * after events: wbsim_bdi_check() (the bdi's inodes and wbs against the
 * vm's counters) and wbsim_vm_check() (the vm's own counters), on a bdi
 * over the ideal device and filesystem: a consistent state passes, and
 * each counter put out of step fails with the message naming it.
 */
#include "ideal-bdi.h"
#include <wbsim/error.h>
#include "fs/fs-writeback.h"
#include "mm/filemap.h"
#include "fs/alloc/fs.h"

struct fx {
	struct ideal_bdi ib;
	struct wbsim_inode *inode;
	wbsim_task task;
	struct wbsim_dirtier dirtier;
};

static int fx_setup(void **state)
{
	struct fx *fx = g_new0(struct fx, 1);
	bool throttle = true;
	wbsim_time_t fs_cost;

	ideal_bdi_open(&fx->ib, 2, false);
	fx->inode = wbsim_inode_new(&fx->ib.bdi,
				    wbsim_fs_create(fx->ib.fs, wbsim_fs_root(fx->ib.fs)),
				    "/mnt/f", 1, false);
	wbsim_task_init(&fx->task, "w", WBSIM_TASK_DIRTIER);
	wbsim_dirtier_init(&fx->dirtier, &fx->task);
	/* three dirty pages, on the wb's dirty list */
	wbsim_generic_perform_write(fx->inode, &fx->dirtier, 0, 3 * 4096, &throttle, &fs_cost);
	*state = fx;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *fx = *state;

	ideal_bdi_clear(&fx->ib);
	wbsim_inode_free(fx->inode);
	wbsim_task_clear(&fx->task);
	ideal_bdi_close(&fx->ib);
	g_free(fx);
	return 0;
}

/* Both checks fail with @message (the bdi's when @bdi, else the vm's). */
static void assert_check_fails(struct fx *fx, bool bdi, const char *message)
{
	g_autoptr(GError) e = NULL;

	if (bdi)
		assert_false(wbsim_bdi_check(&fx->ib.bdi, false, false, &e));
	else
		assert_false(wbsim_vm_check(&fx->ib.vm, &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_SIMULATION));
	assert_string_equal(e->message, message);
}

static void test_consistent_state_passes(void **state)
{
	struct fx *fx = *state;
	g_autoptr(GError) e = NULL;

	assert_int_equal(fx->ib.vm.nr_file_dirty, 3);
	assert_true(wbsim_bdi_check(&fx->ib.bdi, false, true, &e));
	assert_true(wbsim_vm_check(&fx->ib.vm, &e));
	assert_null(e);
}

static void test_bdi_counters_out_of_step(void **state)
{
	struct fx *fx = *state;
	struct wbsim_wb *wb = fx->ib.bdi.wb_ctx[0];

	fx->ib.vm.nr_file_dirty++;
	assert_check_fails(fx, true, "NR_FILE_DIRTY = 4 but 3 pages are dirty");
	fx->ib.vm.nr_file_dirty--;
	wb->stat_reclaimable--;
	assert_check_fails(fx, true, "sum of WB_RECLAIMABLE = 2 != NR_FILE_DIRTY = 3");
	wb->stat_reclaimable -= 3;	/* below zero */
	assert_check_fails(fx, true, "wb 0 counter below zero");
	wb->stat_reclaimable += 4;
	fx->inode->nr_writeback = 1;
	assert_check_fails(fx, true, "/mnt/f: 0 pages under writeback, inode counts 1");
	fx->inode->nr_writeback = 0;
}

static void test_vm_counters_out_of_step(void **state)
{
	struct fx *fx = *state;

	fx->ib.vm.nr_dirtied += 2;
	assert_check_fails(fx, false, "dirtied 5 != written 0 + dirty + writeback");
	fx->ib.vm.nr_dirtied -= 2;
	fx->ib.vm.nr_writeback--;	/* below zero */
	assert_check_fails(fx, false, "global counter below zero");
	fx->ib.vm.nr_writeback++;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_consistent_state_passes, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_bdi_counters_out_of_step, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_vm_counters_out_of_step, fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
