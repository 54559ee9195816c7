/* SPDX-License-Identifier: MIT */
/*
 * test-enospc.c - a filling XFS, end to end: four jobs write lone 4 KiB
 * blocks at random into files that together take about 95% of a 512 MiB
 * filesystem, on a machine whose dirty limits are far away. Each lone
 * dirty block holds six blocks of the free-block counter (itself and its
 * worst-case indirect blocks), so the reservations run out long before
 * the data does: a write fails with ENOSPC, the writer flushes every dirty
 * inode (sync_inodes_sb: writeback_start with reason=sync) and retries,
 * and the jobs finish with no error, every byte written. Dirty pages never
 * exceed what the counter can hold at six blocks each. A job that writes
 * more than the counter grants (less than the AGs' free blocks: the
 * reserve pool and the AGs' metadata reservations are held back) fails
 * with fio's err=28 and its message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model-harness.h"
#include "report/results.h"

static const char *fill_scenario =
	"[scenario]\n"
	"description = filling XFS\n"
	"[machine]\n"
	"cpus = 2\n"
	"memory = 8g\n"
	"[device]\n"
	"preset = lab-ram\n"
	"capacity = 512m\n"
	"[filesystem]\n"
	"type = xfs\n"
	"agcount = 4\n"
	"[fio:global]\n"
	"bs=4k\n"
	"rw=randwrite\n"
	"ioengine=psync\n"
	"size=%s\n"
	"direct=0\n"
	"create_on_open=1\n"
	"[fio:a]\n"
	"directory=/mnt/a\n"
	"%s";

static const char *more_jobs =
	"[fio:b]\n"
	"directory=/mnt/b\n"
	"[fio:c]\n"
	"directory=/mnt/c\n"
	"[fio:d]\n"
	"directory=/mnt/d\n";

static void test_fill_flushes_and_completes(void **state)
{
	g_autofree char *text = g_strdup_printf(fill_scenario, "100m", more_jobs);
	struct writeback_starts c = { .reason = "sync" };
	struct wbsim_run_result *r = run_traced_starts(text, &c);
	int col = series_col(r, "dirty_pages");
	double max_dirty = 0;

	(void)state;
	assert_int_equal(r->jobs->len, 4);
	for (guint i = 0; i < r->jobs->len; i++) {
		const struct wbsim_job_result *j = r->jobs->pdata[i];

		assert_int_equal(j->error, 0);
		assert_int_equal(j->io_bytes, 100 << 20);
	}
	/* the flushes are the writeback: no threshold is near */
	assert_true(c.of_reason >= 4);
	assert_true(col >= 0);
	for (guint i = 0; i < series_rows(r); i++)
		max_dirty = MAX(max_dirty, series_at(r, i, col));
	/* at most the free blocks of a 512 MiB XFS over six */
	assert_true(max_dirty > 0 && max_dirty < (512 << 20) / 4096 / 6);
	wbsim_run_result_free(r);
}

static void test_overfill_fails_with_enospc(void **state)
{
	/* within the AGs' free blocks (the loader's check) but beyond what
	 * the counter grants after the reserve pool and the AGs' reservations */
	g_autofree char *text = g_strdup_printf(fill_scenario, "440m", "");
	struct writeback_starts c = { .reason = "sync" };
	struct wbsim_run_result *r = run_traced_starts(text, &c);
	const struct wbsim_job_result *j;
	gboolean said = FALSE;

	(void)state;
	assert_int_equal(r->jobs->len, 1);
	j = r->jobs->pdata[0];
	assert_int_equal(j->error, 28);
	assert_true(j->io_bytes < (512ull << 20));
	for (guint i = 0; i < r->warnings->len; i++)
		said |= strstr(r->warnings->pdata[i], "fio: io_u error on file /mnt/a/a.0.0: "
				"No space left on device: write offset=") != NULL;
	assert_true(said);
	assert_true(c.of_reason >= 1);
	wbsim_run_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_flushes_and_completes),
		cmocka_unit_test(test_overfill_fails_with_enospc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
