/* SPDX-License-Identifier: MIT */
/*
 * test-fio-errors.c - how bad or unsupported fio job files fail: fio's own
 * texts ("Bad option <x>", "Did you mean y?", "Option x requires an
 * argument", "failed parsing"), refusals of what wbsim does not model,
 * and every message naming file, line and option.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fio-test-util.h"

#define E_PARSE WBSIM_ERROR_PARSE
#define E_KEY WBSIM_ERROR_UNKNOWN_KEY
#define E_VAL WBSIM_ERROR_INVALID_VALUE
#define E_UNSUP WBSIM_ERROR_UNSUPPORTED

static void test_bare_keys(void **state)
{
	struct wbsim_fio_file *f;

	fio_fails("[w]\nrw=write\nend_fsync\n", E_VAL,
		  "t.fio:3: Option end_fsync requires an argument (fio: failed parsing end_fsync)", FALSE);
	fio_fails("[w]\nrw=write\ndirect\n", E_VAL,
		  "t.fio:3: Option direct requires an argument", TRUE);
	fio_fails("[w]\nrw=write\ncreate_on_open\n", E_VAL,
		  "t.fio:3: Option create_on_open requires an argument", TRUE);
	fio_fails("[w]\nrw\n", E_VAL, "t.fio:2: Option rw requires an argument", TRUE);
	fio_fails("[w]\nrw=write\nsize\n", E_VAL, "t.fio:3: Option size requires an argument", TRUE);
	/* STR_SET options and STR options without fixed values may be bare */
	f = fio_load("[w]\nrw=write\ntime_based\ngroup_reporting\nstonewall\n"
		     "new_group\nthread\nwrite_bw_log\n");
	assert_true(fio_job(f, 0)->time_based);
	assert_true(fio_job(f, 0)->group_reporting);
	wbsim_fio_file_free(f);
}

static void test_bad_options(void **state)
{
	fio_fails("[w]\nrw=write\ngroup_reportin\n", E_KEY,
		  "t.fio:3: Bad option <group_reportin>. Did you mean group_reporting?", FALSE);
	fio_fails("[w]\nrw=write\nend_fsnc=1\n", E_KEY,
		  "t.fio:3: Bad option <end_fsnc=1>. Did you mean end_fsync?", FALSE);
	fio_fails("[w]\nrw=write\nzzzzzzzzzzzzzzzzzzzzzzzz=1\n", E_KEY,
		  "t.fio:3: Bad option <zzzzzzzzzzzzzzzzzzzzzzzz=1> (not an fio option, nor one of ioengine psync)", FALSE);
	/* names are case-sensitive, as in fio */
	fio_fails("[w]\nrw=write\nBS=4k\n", E_KEY, "t.fio:3: Bad option <BS=4k>", TRUE);
	/* an engine option needs its engine */
	fio_fails("[w]\nrw=write\nsqthread_poll\n", E_KEY,
		  "t.fio:3: Bad option <sqthread_poll>", TRUE);
	/* in [global] too, with the global's line */
	fio_fails("[global]\n\nblocksz=4k\n[w]\nrw=write\n", E_KEY,
		  "t.fio:3: Bad option <blocksz=4k>", TRUE);
}

static void test_bad_values(void **state)
{
	fio_fails("[w]\nrw=write\nbs=4kq\n", E_VAL,
		  "t.fio:3: failed parsing bs=4kq: unknown suffix 'kq'", TRUE);
	fio_fails("[w]\nrw=writex\n", E_VAL,
		  "t.fio:2: failed parsing rw=writex: expected one of: read, write, trim, randread, randwrite, randtrim, rw, readwrite, randrw, trimwrite, randtrimwrite, filecreate, filestat, filedelete",
		  FALSE);
	fio_fails("[w]\nrw=write\niodepth=0\n", E_VAL,
		  "t.fio:3: failed parsing iodepth=0: min value out of range: 0 (1 min)", FALSE);
	fio_fails("[w]\nrw=write\nrwmixread=101\n", E_VAL,
		  "t.fio:3: failed parsing rwmixread=101: max value out of range: 101 (100 max)", FALSE);
	fio_fails("[w]\nrw=write\nruntime=10x\n", E_VAL,
		  "t.fio:3: failed parsing runtime=10x: unknown time suffix 'x'", TRUE);
	fio_fails("[w]\nrw=write\ndirect=yes\n", E_VAL,
		  "t.fio:3: failed parsing direct=yes: expected an integer (decimal or 0x hex)", FALSE);
	fio_fails("[w]\nrw=write\nsize=(2^62)*4\n", E_VAL,
		  "t.fio:3: failed parsing size=(2^62)*4: value overflows 64 bits", FALSE);
	fio_fails("[w]\nrw=write\nruntime=300000d\n", E_VAL,
		  "t.fio:3: failed parsing runtime=300000d: time overflows 64-bit simulated nanoseconds", FALSE);
	fio_fails("[w]\nrw=write\nsize=(1/0)\n", E_VAL,
		  "t.fio:3: failed parsing size=(1/0): division by zero", FALSE);
	fio_fails("[w]\nrw=write\nnumjobs=$ncpus*x\n", E_VAL,
		  "t.fio:3: failed parsing numjobs=$ncpus*x: expected a number or '(' at 'x' (after substitution: '12*x'; fio computes this with bc)",
		  FALSE);
	fio_fails("[w]\nrw=write\nbsrange=4k\n", E_VAL,
		  "t.fio:3: failed parsing bsrange=4k: '4k' is not a range", TRUE);
	fio_fails("[w]\nrw=write\nfallocate=yes\n", E_VAL,
		  "t.fio:3: failed parsing fallocate=yes: expected one of: none, native, posix, keep, truncate, 0, 1", FALSE);
	fio_fails("[w]\nrw=write\nioengine=nosuch\n", E_VAL,
		  "t.fio:3: failed parsing ioengine=nosuch: fio: engine nosuch not loadable", TRUE);
	fio_fails("[w]\nrw=write:-8k\n", E_UNSUP,
		  "t.fio:2: fio option 'rw' is not modelled by wbsim (a negative rw offset modifier", TRUE);
	fio_fails("[w]\nrw=write:8x\n", E_VAL,
		  "t.fio:2: failed parsing rw=write:8x: unknown suffix 'x'", TRUE);
	fio_fails("[w]\nrw=write\npercentile_list=1:x\n", E_VAL,
		  "t.fio:3: failed parsing percentile_list=1:x: 'x' is not a decimal number", TRUE);
	g_unsetenv("WBSIM_T_UNSET");
	fio_fails("[w]\nrw=${WBSIM_T_UNSET}\n", E_VAL,
		  "t.fio:2: failed parsing rw=${WBSIM_T_UNSET}: expected one of", TRUE);
}

static void test_refusals(void **state)
{
	struct wbsim_fio_file *f;

	fio_fails("[w]\nrw=write\nioengine=mmap\n", E_UNSUP,
		  "t.fio:3: fio option 'ioengine' is not modelled by wbsim (writes through a shared mapping dirty pages by page faults, which is not modelled)",
		  FALSE);
	fio_fails("[w]\nrw=write\nioengine=external:/x.so\n", E_UNSUP,
		  "t.fio:3: fio option 'ioengine' is not modelled by wbsim (external engines", TRUE);
	fio_fails("[w]\nrw=randread\n", E_UNSUP,
		  "t.fio:2: fio option 'rw' is not modelled by wbsim (job 'w' only reads (rw=randread); reads are not modelled)",
		  FALSE);
	/* fio's default rw is read: the section line is named */
	fio_fails("[w]\nsize=1m\n", E_UNSUP,
		  "t.fio:1: fio option 'rw' is not modelled by wbsim (job 'w' only reads (rw=read, fio's default); reads are not modelled)",
		  FALSE);
	/* rw inherited from [global]: the global's line is named */
	fio_fails("[global]\nreadwrite=read\n[w]\n", E_UNSUP,
		  "t.fio:2: fio option 'rw' is not modelled by wbsim (job 'w' only reads", TRUE);
	fio_fails("[w]\nrw=randtrim\n", E_UNSUP, "t.fio:2: fio option 'rw' is not modelled by wbsim (job 'w' trims", TRUE);
	fio_fails("[w]\nrw=filecreate\n", E_UNSUP, "t.fio:2: fio option 'rw' is not modelled by wbsim (the file-operation", TRUE);
	fio_fails("[w]\nrw=write\nbssplit=4k/50:8k/50\n", E_UNSUP,
		  "t.fio:3: fio option 'bssplit' is not modelled by wbsim (a mix of block sizes", TRUE);
	fio_fails("[w]\nrw=write\nsync=1\n", E_UNSUP,
		  "t.fio:3: fio option 'sync' is not modelled by wbsim (O_SYNC/O_DSYNC writes", TRUE);
	fio_fails("[w]\nrw=write\nzonesize=1m\n", E_UNSUP, "t.fio:3: fio option 'zonesize'", TRUE);
	fio_fails("[w]\nrw=write\nrandom_distribution=zipf:1.2\n", E_UNSUP,
		  "t.fio:3: fio option 'random_distribution' is not modelled by wbsim (only the uniform", TRUE);
	fio_fails("[w]\nrw=write\nfill_fs=1\n", E_UNSUP,
		  "t.fio:3: fio option 'fill_fs' is not modelled by wbsim (fill_device: writing until", TRUE);
	fio_fails("[w]\nrw=write\nread_iolog=trace.log\n", E_UNSUP, "t.fio:3: fio option 'read_iolog'", TRUE);
	fio_fails("[w]\nrw=write\nioengine=io_uring\nuncached=1\n", E_UNSUP, "t.fio:4: fio option 'uncached'", TRUE);
	/* the same options at their harmless values are accepted silently */
	f = fio_load("[w]\nrw=write\nsync=0\nzonesize=0\nrandom_distribution=random\n"
		     "fill_device=0\nzonemode=none\nverify=0\n");
	assert_int_equal(f->warnings->len, 0);
	wbsim_fio_file_free(f);
}

static void test_structure(void **state)
{
	struct wbsim_fio_file *f = NULL;
	GError *err = NULL;
	const struct wbsim_fio_env bad = { .ncpus = 0, .mb_memory = 1, .pagesize = 4096 };

	fio_fails("size=1m\n[w]\n", E_PARSE, "t.fio:1: option <size=1m> outside of [] job section", FALSE);
	fio_fails("[w]\nrw=write\ninclude\n", E_PARSE, "t.fio:3: include without a file name", FALSE);
	fio_fails("[w\n", E_PARSE, "t.fio:1: malformed section header '[w'", TRUE);
	assert_false(wbsim_fio_parse_string("[w]\nrw=write\n", -1, "t.fio", NULL, &bad, &f, &err));
	assert_true(g_error_matches(err, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	g_clear_error(&err);
	assert_false(wbsim_fio_parse_file("/nonexistent/job.fio", &test_env_e1, &f, &err));
	assert_true(g_error_matches(err, WBSIM_ERROR, WBSIM_ERROR_IO));
	assert_non_null(strstr(err->message, "/nonexistent/job.fio"));
	g_clear_error(&err);
	/* the first failing job stops the parse: nothing is returned */
	f = NULL;
	assert_false(wbsim_fio_parse_string("[a]\nrw=write\n[b]\nrw=read\n", -1, "t.fio",
					    NULL, &test_env_e1, &f, &err));
	assert_null(f);
	g_clear_error(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bare_keys),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_structure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
