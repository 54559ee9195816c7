/* SPDX-License-Identifier: MIT */
/*
 * test-large-folios.c - large folios with whole-folio or per-block dirty
 * accounting ([writeback] folio_size, dirty_accounting; experiment E8).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "model-harness.h"

/* A 4 MiB file written and synced, then one 50-byte write, then a sync. */
static const char one_small_write[] =
	"[machine]\ncpus = 2\nmemory = 2G\n"
	"[filesystem]\ntype = xfs\n"
	"[writeback]\nfolio_size = 2m\n"
	"[events]\nat = 5s umount\n"
	"[fio:fill]\nrw=write\nbs=1m\nsize=4m\nfilename=/mnt/f\nend_fsync=1\n"
	"[fio:small]\nstonewall\nrw=write\nbs=50\nsize=4m\nfilename=/mnt/f\nnumber_ios=1\n"
	"offset=1m\n";

/* The same small write costs a whole folio's worth of dirty accounting
 * (512 pages of 2 MiB) with whole-folio accounting and one block with
 * per-block accounting, at every accounting point, so the counters
 * balance after the unmount in both modes (--check verifies them
 * throughout); either way only the dirty block is written to the device,
 * as iomap's per-block dirty state makes it. */
static void test_small_write_accounting(void **state)
{
	const char *whole[] = { "writeback.dirty_accounting=whole-folio", NULL };
	const char *block[] = { "writeback.dirty_accounting=per-block", NULL };
	struct wbsim_run_result *w = run_text(one_small_write, whole, TRUE);
	struct wbsim_run_result *b = run_text(one_small_write, block, TRUE);
	const uint64_t fill = 4 * 1024 * 1024 / 4096;

	assert_int_equal(w->nr_dirtied, fill + 512);
	assert_int_equal(b->nr_dirtied, fill + 1);
	assert_int_equal(w->nr_written, w->nr_dirtied);
	assert_int_equal(b->nr_written, b->nr_dirtied);
	assert_int_equal(b->device_stats.bytes, b->nr_written * 4096);
	assert_int_equal(w->device_stats.bytes, (fill + 1) * 4096);
	wbsim_run_result_free(w);
	wbsim_run_result_free(b);
}

/* folio_size = auto: XFS and ext4 give fio's aligned 1 MiB writes 1 MiB
 * folios (fgf_set_order() of the write's length), so the small write into
 * the clean folio at 1 MiB is charged 256 pages; f2fs keeps 4 KiB folios
 * and charges the one page. */
static void test_auto_folio_size_follows_the_write(void **state)
{
	const char *xfs[] = { "writeback.folio_size=auto", NULL };
	const char *ext4[] = { "writeback.folio_size=auto", "filesystem.type=ext4", NULL };
	const char *f2fs[] = { "writeback.folio_size=auto", "filesystem.type=f2fs", NULL };
	struct wbsim_run_result *x = run_text(one_small_write, xfs, TRUE);
	struct wbsim_run_result *e = run_text(one_small_write, ext4, TRUE);
	struct wbsim_run_result *f = run_text(one_small_write, f2fs, TRUE);
	const uint64_t fill = 4 * 1024 * 1024 / 4096;

	assert_int_equal(x->nr_dirtied, fill + 256);
	assert_int_equal(e->nr_dirtied, fill + 256);
	assert_int_equal(f->nr_dirtied, fill + 1);
	/* only the dirty block reaches the device, whatever the folio */
	assert_int_equal(x->device_stats.bytes, (fill + 1) * 4096);
	wbsim_run_result_free(x);
	wbsim_run_result_free(e);
	wbsim_run_result_free(f);
}

/* With 4 KiB folios the two modes are the same kernel: identical runs. */
static void test_4k_folios_modes_identical(void **state)
{
	static const char text[] =
		"[machine]\ncpus = 4\nmemory = 1G\n"
		"[filesystem]\ntype = xfs\n"
		"[fio:w]\nrw=randwrite\nbs=50\nsize=64m\nnumber_ios=20000\nnumjobs=3\n"
		"norandommap=1\n";
	const char *whole[] = { "writeback.dirty_accounting=whole-folio", NULL };
	const char *block[] = { "writeback.dirty_accounting=per-block", NULL };
	struct wbsim_run_result *a = run_text(text, whole, FALSE);
	struct wbsim_run_result *b = run_text(text, block, FALSE);

	assert_int_equal(a->events, b->events);
	assert_int_equal(a->nr_dirtied, b->nr_dirtied);
	assert_int_equal(a->series.values->len, b->series.values->len);
	assert_memory_equal(a->series.values->data, b->series.values->data,
			    a->series.values->len * sizeof(double));
	wbsim_run_result_free(a);
	wbsim_run_result_free(b);
}

static void test_folio_size_power_of_two(void **state)
{
	GError *error = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load_string(
		"[writeback]\nfolio_size = 12k\n[fio:w]\nrw=write\nbs=4k\nsize=1m\n",
		"bad.ini", ".", NULL, &error);

	assert_null(scn);
	assert_string_equal(error->message,
			    "bad.ini:2: [writeback] folio_size = 12k: expected a power of two from 4k to 2m, or auto");
	g_error_free(error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_write_accounting),
		cmocka_unit_test(test_4k_folios_modes_identical),
		cmocka_unit_test(test_folio_size_power_of_two),
		cmocka_unit_test(test_auto_folio_size_follows_the_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
