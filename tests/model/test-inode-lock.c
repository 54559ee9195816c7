/* SPDX-License-Identifier: MIT */
/*
 * test-inode-lock.c - buffered writes hold their inode's i_rwsem from
 * before the copy to after balance_dirty_pages_ratelimited() (issue 17):
 * two writers of one file never run their writes at the same time, a
 * throttled writer keeps the lock through its pause, writers of two
 * files are not serialised at all, and fifteen writers of one file pay
 * for handing the lock on write by write.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "model-harness.h"

/* Two jobs of 4 KiB random writes on 2 CPUs, no writeback during the run
 * (16 GiB of memory: the dirty pages stay far below the background level);
 * @shared: one file for both, else a file each. */
static struct wbsim_run_result *two_writers(bool shared, const char *vm)
{
	g_autofree char *text = g_strdup_printf(
		"[machine]\ncpus = 2\nmemory = 16G\n"
		"[filesystem]\ntype = xfs\n"
		"%s"
		"[fio:w]\nrw=randwrite\nbs=4k\nsize=64m\nnumber_ios=10000\nnumjobs=2\n"
		"fallocate=none\ninvalidate=0\n%s",
		vm, shared ? "filename=/mnt/shared\n" : "");

	return run_text(text, NULL, FALSE);
}

static const struct wbsim_job_result *job(const struct wbsim_run_result *r, guint i)
{
	return r->jobs->pdata[i];
}

/* The lock table's first row whose name starts with @prefix, or NULL. */
static const struct wbsim_lock_result *lock_row(const struct wbsim_run_result *r,
						const char *prefix)
{
	for (guint i = 0; i < r->locks->len; i++) {
		const struct wbsim_lock_result *l = r->locks->pdata[i];

		if (g_str_has_prefix(l->name, prefix))
			return l;
	}
	return NULL;
}

/* The i_rwsem row (the files' locks summed), or NULL. */
static const struct wbsim_lock_result *i_rwsem_row(const struct wbsim_run_result *r)
{
	return lock_row(r, "i_rwsem ");
}

/* One inode: the two writers' CPU time adds up inside the run (never at
 * once), and they wait for each other; two inodes: the writes overlap on
 * the two CPUs and no writer waits for a lock. */
static void test_one_inode_serialises_writes(void **state)
{
	struct wbsim_run_result *one = two_writers(true, "");
	struct wbsim_run_result *two = two_writers(false, "");
	wbsim_time_t span_one = MAX(job(one, 0)->runtime_ns, job(one, 1)->runtime_ns);
	wbsim_time_t span_two = MAX(job(two, 0)->runtime_ns, job(two, 1)->runtime_ns);
	wbsim_time_t cpu_one = job(one, 0)->cpu_ns + job(one, 1)->cpu_ns;
	wbsim_time_t cpu_two = job(two, 0)->cpu_ns + job(two, 1)->cpu_ns;

	(void)state;
	assert_int_equal(job(one, 0)->total_ios, 10000);
	assert_int_equal(job(one, 1)->total_ios, 10000);
	/* no writeback, no throttle: nothing else to wait for */
	assert_int_equal(job(one, 0)->pauses + job(one, 1)->pauses, 0);
	/* the writes never run at once; a writer that finds the owner running
	 * spins (optimistic spinning), so the jobs' CPU may exceed the span by
	 * what the one spinner burns while the owner runs, up to both CPUs
	 * (invalidate=0: no CPU before the first write) */
	assert_true(cpu_one <= 2 * span_one);
	assert_true(job(one, 0)->lock_wait_ns > 0 && job(one, 1)->lock_wait_ns > 0);
	/* each waited about as long as the other held the lock: the writes'
	 * CPU is at least a half of cpu_one (a spinner burns at most as much
	 * again), and a waiter misses only its syscall entry of each hold */
	assert_true(job(one, 0)->lock_wait_ns + job(one, 1)->lock_wait_ns >= cpu_one / 3);
	assert_true(span_two < cpu_two * 3 / 4);
	assert_int_equal(job(two, 0)->lock_wait_ns + job(two, 1)->lock_wait_ns, 0);
	/* the report's row: one file, one acquisition a write, the waits the
	 * jobs count; two files, never contended: a file one job alone has
	 * open is locked once a batch of 64 writes (job.c's JOB_BATCH_MAX),
	 * 157 batches of each job's 10,000 */
	assert_non_null(i_rwsem_row(one));
	assert_string_equal(i_rwsem_row(one)->name, "i_rwsem (1 file)");
	assert_int_equal(i_rwsem_row(one)->acquisitions, 20000);
	assert_true(i_rwsem_row(one)->contended > 0);
	assert_int_equal(i_rwsem_row(one)->wait_ns,
			 job(one, 0)->lock_wait_ns + job(one, 1)->lock_wait_ns);
	assert_string_equal(i_rwsem_row(two)->name, "i_rwsem (2 files)");
	assert_int_equal(i_rwsem_row(two)->acquisitions, 2 * 157);
	assert_int_equal(i_rwsem_row(two)->contended, 0);
	/* but XFS's ILOCK is taken and dropped by every write of a batch, as
	 * each write() takes it for its delalloc reservation: a flusher or a
	 * completion that wants it gets it between two writes */
	assert_non_null(lock_row(two, "xfs-ilock"));
	assert_int_equal(lock_row(two, "xfs-ilock")->acquisitions, 2 * 10000);
	wbsim_run_result_free(one);
	wbsim_run_result_free(two);
}

/* A small dirty limit on a slow disk: both writers are throttled. Sharing
 * the inode, a writer that is due a pause sleeps holding i_rwsem, so the
 * other waits for the lock at least through the longest of its pauses;
 * with a file each, no writer waits through a pause. */
static void test_throttled_writer_holds_lock(void **state)
{
	static const char vm[] =
		"[vm]\ndirty_bytes = 16m\ndirty_background_bytes = 8m\n"
		"[device]\npreset = hdd-7200-sata\n";
	struct wbsim_run_result *one = two_writers(true, vm);
	struct wbsim_run_result *two = two_writers(false, vm);

	(void)state;
	assert_true(job(one, 0)->pauses > 0 && job(one, 1)->pauses > 0);
	assert_true(job(two, 0)->pauses > 0 && job(two, 1)->pauses > 0);
	assert_true(job(one, 1)->lock_wait_ns >= job(one, 0)->max_pause_ns ||
		    job(one, 0)->lock_wait_ns >= job(one, 1)->max_pause_ns);
	assert_true(job(one, 0)->lock_wait_ns + job(one, 1)->lock_wait_ns >=
		    MIN(job(one, 0)->paused_ns, job(one, 1)->paused_ns));
	/* a file each: only the XFS ILOCK its own file's writeback takes
	 * (microseconds), never a pause */
	assert_true(job(two, 0)->lock_wait_ns < job(two, 1)->max_pause_ns);
	assert_true(job(two, 1)->lock_wait_ns < job(two, 0)->max_pause_ns);
	wbsim_run_result_free(one);
	wbsim_run_result_free(two);
}

/* @jobs writers of 50-byte random writes into one file, @ios each, on 2
 * CPUs with no writeback during the run. */
static struct wbsim_run_result *small_writers(unsigned int jobs, unsigned int ios)
{
	g_autofree char *text = g_strdup_printf(
		"[machine]\ncpus = 2\nmemory = 16G\n"
		"[filesystem]\ntype = xfs\n"
		"[fio:fill]\nrw=write\nbs=1m\nsize=16m\nfilename=/mnt/f\n"
		"[fio:w]\nstonewall\nrw=randwrite\nbs=50\nsize=16m\nfilename=/mnt/f\n"
		"norandommap=1\nnumber_ios=%u\nnumjobs=%u\n", ios, jobs);

	return run_text(text, NULL, FALSE);
}

/* The writes of the jobs after the fill: from the first one's start to the
 * last one's end, and their CPU. */
static void small_span(const struct wbsim_run_result *r, wbsim_time_t *span, wbsim_time_t *cpu)
{
	wbsim_time_t start = G_MAXUINT64, end = 0;

	*cpu = 0;
	for (guint i = 1; i < r->jobs->len; i++) {
		start = MIN(start, job(r, i)->start_ns);
		end = MAX(end, job(r, i)->start_ns + job(r, i)->runtime_ns);
		*cpu += job(r, i)->cpu_ns;
	}
	*span = end - start;
}

/* Fifteen writers of one file take i_rwsem in every write() and hand it on
 * write by write: each hand-off costs a spin or a sleep and its wake-up, so
 * a write costs more CPU than when one writer makes them all (it takes the
 * lock uncontended). Their system calls' entry and exit and their user
 * space run outside the lock, on both CPUs at once, so the fifteen still
 * end sooner than the one writer, as on the lab kernel (issue 36's
 * variants, lab/results-e8-v1272: 750,000 writes by 15 threads in 1.59 s,
 * 50,000 by one in 0.123 s), though never in less than half its time on
 * two CPUs. Same writes, same file. */
static void test_contended_writes_cost_more(void **state)
{
	struct wbsim_run_result *many = small_writers(15, 2000);
	struct wbsim_run_result *one = small_writers(1, 30000);
	wbsim_time_t span_many, cpu_many, span_one, cpu_one;

	(void)state;
	small_span(many, &span_many, &cpu_many);
	small_span(one, &span_one, &cpu_one);
	assert_int_equal(many->jobs->len, 16);
	for (guint i = 1; i < many->jobs->len; i++)
		assert_int_equal(job(many, i)->total_ios, 2000);
	assert_int_equal(job(one, 1)->total_ios, 30000);
	/* the same 30,000 writes: dearer when contended, sooner done on two
	 * CPUs, but not more than twice as soon */
	assert_true(cpu_many > cpu_one);
	assert_true(span_many < span_one);
	assert_true(2 * span_many > span_one);
	/* the lone writer waits for no other writer: what it waits for is the
	 * ILOCK behind xfs-conv's conversions of the fill's ioends, far less
	 * than the fifteen wait for each other */
	wbsim_time_t wait_many = 0;

	for (guint i = 1; i < many->jobs->len; i++)
		wait_many += job(many, i)->lock_wait_ns;
	assert_true(job(one, 1)->lock_wait_ns * 100 < wait_many);
	wbsim_run_result_free(many);
	wbsim_run_result_free(one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_inode_serialises_writes),
		cmocka_unit_test(test_throttled_writer_holds_lock),
		cmocka_unit_test(test_contended_writes_cost_more),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
