/* SPDX-License-Identifier: MIT */
/*
 * test-memmap.c - [machine] memmap: RAM reserved at boot for a PMEM region
 * emulated on DRAM is RAM the kernel never sees, whatever device the run
 * writes to.
 *
 * - A 16 GiB machine with memmap = 6g has exactly the dirty thresholds of
 *   a 10 GiB machine without it, for an NVMe run as for a PMEM run.
 * - A PMEM device lives in the region: with memmap = 6g a 6 GiB PMEM
 *   device takes nothing more; without memmap it reserves its own
 *   capacity, so the thresholds are again those of 10 GiB.
 * - The thresholds of 16 GiB are larger: the reservation changes the
 *   model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model-harness.h"

/* Background and hard thresholds (pages) of a short run of one writer. */
static void thresholds(const char *memory, const char *memmap, const char *device,
		       double *bg, double *th)
{
	g_autofree char *text = g_strdup_printf(
		"[machine]\ncpus = 2\nmemory = %s\nmemmap = %s\n"
		"[device]\npreset = %s\n"
		"[run]\ntime_limit = 200ms\n"
		"[fio:w]\nrw=write\nbs=64k\nsize=64m\n",
		memory, memmap, device);
	struct wbsim_run_result *r = run_text(text, NULL, TRUE);
	int c_bg = series_col(r, "bg_thresh_pages"), c_th = series_col(r, "thresh_pages");

	assert_true(c_bg >= 0 && c_th >= 0);
	assert_true(series_rows(r) > 0);
	*bg = series_at(r, 0, c_bg);
	*th = series_at(r, 0, c_th);
	assert_true(*bg > 0 && *th > *bg);
	wbsim_run_result_free(r);
}

static void test_memmap_is_not_ram(void **state)
{
	double bg10, th10, bg, th, bg16, th16;

	thresholds("10g", "0", "samsung-pm1733-3.84t", &bg10, &th10);
	thresholds("16g", "6g", "samsung-pm1733-3.84t", &bg, &th);
	assert_true(bg == bg10 && th == th10);
	/* PMEM in the reserved region, or reserving its own capacity */
	thresholds("16g", "6g", "pmem-dram-6g", &bg, &th);
	assert_true(bg == bg10 && th == th10);
	thresholds("16g", "0", "pmem-dram-6g", &bg, &th);
	assert_true(bg == bg10 && th == th10);
	/* the same NVMe run on all 16 GiB: larger limits, in proportion */
	thresholds("16g", "0", "samsung-pm1733-3.84t", &bg16, &th16);
	assert_true(th16 > th10 * 1.5 && th16 < th10 * 1.7);
	assert_true(bg16 > bg10 * 1.5 && bg16 < bg10 * 1.7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memmap_is_not_ram),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
