/* SPDX-License-Identifier: MIT */
/*
 * test-fsync-every.c - fio's fsync=N: the fsync is the I/O fio issues
 * before the next write, so a job whose last write completes a group of N
 * issues none after it. Counts of real fio 3.33 for bs=4k fsync=4 and
 * 4, 5, 8 and 9 writes: 0, 1, 1 and 2 fsyncs. And how fio 3.33 reports
 * them: fdatasyncs are sync latencies but not syncs in "issued rwts" or
 * the JSON's sync total_ios; they land in the short count of reads
 * (fio-3.33, bs=4k size=36k: fsync=4 gives "total=0,9,0,2 short=0,0,0,0"
 * and sync total_ios 2; fdatasync=4 gives "total=0,9,0,0 short=2,0,0,0",
 * sync total_ios 0 with lat_ns N 2, read short_ios 2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model-harness.h"
#include "report/results.h"
#include "report/report.h"
#include <json-glib/json-glib.h>

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

/* The reports of a 9-write job with @sync_key=4: its "issued rwts" line
 * and the JSON figures fio writes for the syncs. */
static void reported(const char *sync_key, char **issued, int64_t *sync_ios, int64_t *sync_n,
		     int64_t *read_short)
{
	g_autofree char *text = g_strdup_printf(
		"[scenario]\ndescription = sync every 4\n"
		"[fio:t]\nfilename=/mnt/f\nrw=write\nbs=4k\nsize=36k\n%s=4\n", sync_key);
	struct wbsim_run_result *r = run_text(text, NULL, TRUE);
	GString *normal = wbsim_report_text(r, FALSE);
	g_autofree char *json = wbsim_report_json(r, FALSE);
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonObject *job;
	const char *line = strstr(normal->str, "issued rwts: ");

	assert_non_null(line);
	*issued = g_strndup(line, strcspn(line, "\n"));
	assert_true(json_parser_load_from_data(parser, json, -1, NULL));
	job = json_array_get_object_element(
		json_object_get_array_member(json_node_get_object(json_parser_get_root(parser)),
					     "jobs"), 0);
	*sync_ios = json_object_get_int_member(json_object_get_object_member(job, "sync"),
					       "total_ios");
	*sync_n = json_object_get_int_member(
		json_object_get_object_member(json_object_get_object_member(job, "sync"), "lat_ns"),
		"N");
	*read_short = json_object_get_int_member(json_object_get_object_member(job, "read"),
						 "short_ios");
	g_string_free(normal, TRUE);
	wbsim_run_result_free(r);
}

static void test_reported_like_fio(void **state)
{
	g_autofree char *fsync_line = NULL, *fdatasync_line = NULL;
	int64_t ios, n, short_reads;

	(void)state;
	reported("fsync", &fsync_line, &ios, &n, &short_reads);
	assert_string_equal(fsync_line, "issued rwts: total=0,9,0,2 short=0,0,0,0 dropped=0,0,0,0");
	assert_int_equal(ios, 2);
	assert_int_equal(n, 2);
	assert_int_equal(short_reads, 0);
	reported("fdatasync", &fdatasync_line, &ios, &n, &short_reads);
	assert_string_equal(fdatasync_line,
			    "issued rwts: total=0,9,0,0 short=2,0,0,0 dropped=0,0,0,0");
	assert_int_equal(ios, 0);
	assert_int_equal(n, 2);
	assert_int_equal(short_reads, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsync_like_fio),
		cmocka_unit_test(test_fdatasync_like_fio),
		cmocka_unit_test(test_reported_like_fio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
