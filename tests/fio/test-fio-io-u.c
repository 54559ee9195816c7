/* SPDX-License-Identifier: MIT */
/*
 * test-fio-io-u.c - fio 3.33's depth accounting (lib/fio/fio-io-u.c):
 * the counters of fio's "IO depths", "submit" and "complete" for each
 * kind of engine, against the counts fio's own loop makes (io_u.c,
 * ioengines.c, backend.c do_io()). The io_uring case is the lab's real
 * run of E1 (lab/studies/conversions/e1-xfs/run1/fio.json): 2 jobs, iodepth=1024,
 * 1416880 writes, whose percentages tests/report checks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <cmocka.h>

#include "fio-test-util.h"
#include "fio/fio-io-u.h"

/* The accounting of the only job of @text. */
static void io_u_of(const char *text, struct wbsim_fio_io_u *u)
{
	struct wbsim_fio_file *f = fio_load(text);

	wbsim_fio_io_u_init(u, fio_job(f, 0));
	wbsim_fio_file_free(f);
}

static void assert_map(const uint64_t *map, const uint64_t *want)
{
	for (unsigned int i = 0; i < WBSIM_FIO_IO_U_MAP_NR; i++)
		if (map[i] != want[i])
			fail_msg("bucket %u: %" PRIu64 ", fio counts %" PRIu64, i, map[i], want[i]);
}

/* psync: every write and fsync=32's fsyncs at depth 1, each one submitted
 * and completed alone; end_fsync's is submitted and completed, not counted
 * at a depth. The fsyncs are not in total_io_u: "IO depths" adds up to
 * more than 100%, as fio's does. */
static void test_psync(void **state)
{
	struct wbsim_fio_io_u u;

	(void)state;
	io_u_of("[a]\nrw=write\nsize=1m\nfsync=32\nend_fsync=1\niodepth=8\n", &u);
	for (unsigned int i = 1; i <= 100; i++) {
		wbsim_fio_io_u_write(&u);
		if (i % 32 == 0)
			wbsim_fio_io_u_fsync(&u);
	}
	wbsim_fio_io_u_drain(&u);
	wbsim_fio_io_u_end_fsync(&u);
	assert_map(u.stat.io_u_map, (const uint64_t[]){ 103, 0, 0, 0, 0, 0, 0 });
	assert_map(u.stat.io_u_submit, (const uint64_t[]){ 0, 104, 0, 0, 0, 0, 0 });
	assert_map(u.stat.io_u_complete, (const uint64_t[]){ 0, 104, 0, 0, 0, 0, 0 });
	assert_int_equal(u.stat.total_io_u, 100);
	assert_int_equal(u.stat.total_submit, 104);
	assert_int_equal(u.stat.total_complete, 104);
	assert_int_equal(u.cur_depth, 0);
}

/* libaio at iodepth=16, buffered or direct alike: fio takes io_us up to
 * 16 without reaping, then reaps one before each next; the drain reaps the
 * last 15 at once. Its fsync runs in ->queue at the depth it finds (with
 * the writes not yet reaped), neither submitted nor completed. */
static void test_libaio(void **state)
{
	struct wbsim_fio_io_u u;

	(void)state;
	io_u_of("[a]\nrw=write\nsize=1m\nioengine=libaio\niodepth=16\n", &u);
	for (unsigned int i = 0; i < 100; i++)
		wbsim_fio_io_u_write(&u);
	assert_int_equal(u.cur_depth, 15);
	wbsim_fio_io_u_drain(&u);
	assert_map(u.stat.io_u_map, (const uint64_t[]){ 1, 2, 4, 8, 85, 0, 0 });
	assert_map(u.stat.io_u_submit, (const uint64_t[]){ 0, 100, 0, 0, 0, 0, 0 });
	assert_map(u.stat.io_u_complete, (const uint64_t[]){ 0, 85, 0, 1, 0, 0, 0 });
	assert_int_equal(u.stat.total_io_u, 100);
	assert_int_equal(u.stat.total_submit, 100);
	assert_int_equal(u.stat.total_complete, 86);
	assert_int_equal(u.cur_depth, 0);

	io_u_of("[a]\nrw=write\nsize=1m\nioengine=libaio\niodepth=4\nfsync=2\n", &u);
	wbsim_fio_io_u_write(&u);
	wbsim_fio_io_u_write(&u);
	wbsim_fio_io_u_fsync(&u);	/* at depth 3: two writes out and itself */
	assert_map(u.stat.io_u_map, (const uint64_t[]){ 1, 2, 0, 0, 0, 0, 0 });
	assert_int_equal(u.stat.total_submit, 2);
	assert_int_equal(u.stat.total_complete, 0);
	assert_int_equal(u.cur_depth, 2);
}

/* io_uring: an fsync is queued like a write; end_fsync's is counted at its
 * depth too (td_io_commit() counts every io_u it commits), and reaped. */
static void test_io_uring(void **state)
{
	struct wbsim_fio_io_u u;

	(void)state;
	io_u_of("[a]\nrw=randwrite\nsize=1m\nioengine=io_uring\niodepth=1024\n", &u);
	for (unsigned int i = 0; i < 708440; i++)
		wbsim_fio_io_u_write(&u);
	wbsim_fio_io_u_drain(&u);
	assert_map(u.stat.io_u_map, (const uint64_t[]){ 1, 2, 4, 8, 16, 32, 708440 - 63 });
	assert_map(u.stat.io_u_submit, (const uint64_t[]){ 0, 708440, 0, 0, 0, 0, 0 });
	assert_map(u.stat.io_u_complete, (const uint64_t[]){ 0, 708440 - 1023, 0, 0, 0, 0, 1 });

	io_u_of("[a]\nrw=write\nsize=1m\nioengine=io_uring\niodepth=4\nend_fsync=1\n", &u);
	wbsim_fio_io_u_write(&u);
	wbsim_fio_io_u_fsync(&u);
	wbsim_fio_io_u_drain(&u);
	wbsim_fio_io_u_end_fsync(&u);
	assert_map(u.stat.io_u_map, (const uint64_t[]){ 2, 1, 0, 0, 0, 0, 0 });
	assert_map(u.stat.io_u_submit, (const uint64_t[]){ 0, 3, 0, 0, 0, 0, 0 });
	assert_map(u.stat.io_u_complete, (const uint64_t[]){ 0, 2, 0, 0, 0, 0, 0 });
	assert_int_equal(u.stat.total_io_u, 1);
	assert_int_equal(u.cur_depth, 0);

	/* a job an error ended (the lab's frag-e2-xfs-fill95, ENOSPC at
	 * iodepth=1): the failed write was queued and reaped; fio's cleanup
	 * then reaps nothing, and counts that reap in bucket 0 */
	io_u_of("[a]\nrw=write\nsize=1m\nioengine=io_uring\niodepth=1\n", &u);
	for (unsigned int i = 0; i < 3; i++)
		wbsim_fio_io_u_write(&u);
	wbsim_fio_io_u_cleanup(&u);
	assert_map(u.stat.io_u_complete, (const uint64_t[]){ 1, 3, 0, 0, 0, 0, 0 });
	assert_int_equal(u.stat.total_complete, 4);
	/* at iodepth=4 with three out: one reaped, then the other two */
	io_u_of("[a]\nrw=write\nsize=1m\nioengine=io_uring\niodepth=4\n", &u);
	for (unsigned int i = 0; i < 3; i++)
		wbsim_fio_io_u_write(&u);
	wbsim_fio_io_u_cleanup(&u);
	assert_map(u.stat.io_u_complete, (const uint64_t[]){ 0, 2, 0, 0, 0, 0, 0 });
	assert_int_equal(u.cur_depth, 0);
}

/* posixaio has no ->commit: fio counts each io_u submitted and completed
 * when it is queued, and completed again when it is reaped. */
static void test_posixaio(void **state)
{
	struct wbsim_fio_io_u u;

	(void)state;
	io_u_of("[a]\nrw=write\nsize=1m\nioengine=posixaio\niodepth=2\n", &u);
	for (unsigned int i = 0; i < 3; i++)
		wbsim_fio_io_u_write(&u);
	wbsim_fio_io_u_drain(&u);
	assert_map(u.stat.io_u_map, (const uint64_t[]){ 1, 2, 0, 0, 0, 0, 0 });
	assert_map(u.stat.io_u_submit, (const uint64_t[]){ 0, 3, 0, 0, 0, 0, 0 });
	assert_map(u.stat.io_u_complete, (const uint64_t[]){ 0, 6, 0, 0, 0, 0, 0 });
	assert_int_equal(u.stat.total_complete, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_psync),
		cmocka_unit_test(test_libaio),
		cmocka_unit_test(test_io_uring),
		cmocka_unit_test(test_posixaio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
