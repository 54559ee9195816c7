/* SPDX-License-Identifier: MIT */
/*
 * test-fsync-every.c - fio's fsync=N: the fsync is the I/O fio issues
 * before the next write, so a job whose last write completes a group of N
 * issues none after it. Counts of real fio 3.33 for bs=4k fsync=4 and
 * 4, 5, 8 and 9 writes: 0, 1, 1 and 2 fsyncs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model-harness.h"
#include "report/results.h"

static uint64_t fsyncs(const char *size, const char *sync_key)
{
	g_autofree char *text = g_strdup_printf(
		"[scenario]\ndescription = fsync every 4\n"
		"[fio:t]\nfilename=/mnt/f\nrw=write\nbs=4k\nsize=%s\n%s=4\n", size, sync_key);
	struct wbsim_run_result *r = run_text(text, NULL, TRUE);
	const struct wbsim_job_result *j = r->jobs->pdata[0];
	uint64_t n = j->sync_lat.n;

	assert_int_equal(j->error, 0);
	wbsim_run_result_free(r);
	return n;
}

static void test_fsync_like_fio(void **state)
{
	(void)state;
	assert_int_equal(fsyncs("16k", "fsync"), 0);
	assert_int_equal(fsyncs("20k", "fsync"), 1);
	assert_int_equal(fsyncs("32k", "fsync"), 1);
	assert_int_equal(fsyncs("36k", "fsync"), 2);
}

static void test_fdatasync_like_fio(void **state)
{
	(void)state;
	assert_int_equal(fsyncs("16k", "fdatasync"), 0);
	assert_int_equal(fsyncs("36k", "fdatasync"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsync_like_fio),
		cmocka_unit_test(test_fdatasync_like_fio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
