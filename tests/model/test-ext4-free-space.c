/* SPDX-License-Identifier: MIT */
/*
 * test-ext4-free-space.c - ext4's delayed allocation against its free
 * space, end to end (ext4_nonda_switch()): one job writes a file at random
 * in 4 KiB blocks on a 512 MiB ext4 whose dirty limits are far away (8 GiB
 * of memory). Every buffered write checks the delayed blocks against the
 * free ones; once half the free blocks are reserved by delayed allocation,
 * the writer pushes every dirty inode out (writeback_start with
 * reason=fs_free_space) and waits for it. So a 300 MiB file is written
 * back while it is written, the dirty pages never exceed half the free
 * blocks, and every byte arrives; a 100 MiB file never gets there, and
 * XFS, which reserves otherwise, never starts such a writeback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model-harness.h"
#include "report/results.h"

static const char *scenario =
	"[scenario]\n"
	"description = ext4 free space\n"
	"[machine]\n"
	"cpus = 2\n"
	"memory = 8g\n"
	"[device]\n"
	"preset = lab-ram\n"
	"capacity = 512m\n"
	"[filesystem]\n"
	"type = %s\n"
	"[fio:a]\n"
	"filename=/mnt/a\n"
	"bs=4k\n"
	"rw=randwrite\n"
	"ioengine=psync\n"
	"fallocate=none\n"
	"size=%s\n"
	"direct=0\n";

static struct wbsim_run_result *run_traced(const char *fs, const char *size,
					   struct writeback_starts *c)
{
	g_autofree char *text = g_strdup_printf(scenario, fs, size);

	return run_traced_starts(text, c);
}

static double max_dirty_pages(const struct wbsim_run_result *r)
{
	int col = series_col(r, "dirty_pages");
	double max = 0;

	assert_true(col >= 0);
	for (guint i = 0; i < series_rows(r); i++)
		max = MAX(max, series_at(r, i, col));
	return max;
}

static void test_half_free_dirty_pushes_writeback(void **state)
{
	struct writeback_starts c = { .reason = "fs_free_space" };
	struct wbsim_run_result *r = run_traced("ext4", "300m", &c);
	const struct wbsim_job_result *j;
	double max_dirty = max_dirty_pages(r);

	(void)state;
	assert_int_equal(r->jobs->len, 1);
	j = r->jobs->pdata[0];
	assert_int_equal(j->error, 0);
	assert_int_equal(j->io_bytes, 300 << 20);
	/* no threshold is near: the free space started the writeback */
	assert_true(c.of_reason >= 1);
	assert_int_equal(r->writeback_starts[WB_REASON_FS_FREE_SPACE], c.of_reason);
	assert_int_equal(r->writeback_starts[WB_REASON_BACKGROUND], 0);
	/* the writer waited each time: the dirty pages stayed below half of
	 * a 512 MiB filesystem's blocks (its free ones are fewer still) */
	assert_true(max_dirty > 0 && max_dirty < (512 << 20) / 4096 / 2);
	wbsim_run_result_free(r);
}

static void test_small_file_needs_no_push(void **state)
{
	struct writeback_starts c = { .reason = "fs_free_space" };
	struct wbsim_run_result *r = run_traced("ext4", "100m", &c);

	(void)state;
	assert_int_equal(((const struct wbsim_job_result *)r->jobs->pdata[0])->io_bytes, 100 << 20);
	assert_int_equal(c.of_reason, 0);
	/* the whole file stays dirty until the periodic writeback */
	assert_true(max_dirty_pages(r) >= (100 << 20) / 4096);
	wbsim_run_result_free(r);
}

static void test_xfs_has_no_such_push(void **state)
{
	struct writeback_starts c = { .reason = "fs_free_space" };
	struct wbsim_run_result *r = run_traced("xfs", "300m", &c);

	(void)state;
	assert_int_equal(((const struct wbsim_job_result *)r->jobs->pdata[0])->io_bytes, 300 << 20);
	assert_int_equal(c.of_reason, 0);
	wbsim_run_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half_free_dirty_pushes_writeback),
		cmocka_unit_test(test_small_file_needs_no_push),
		cmocka_unit_test(test_xfs_has_no_such_push),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
