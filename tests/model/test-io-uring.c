/* SPDX-License-Identifier: MIT */
/*
 * test-io-uring.c - fio's io_uring engine with buffered writes: what each
 * write costs besides the write itself, and where it runs.
 *
 * One job of 2048 writes of 4 KiB to an empty 8 MiB file, far below the
 * background threshold of a 4 GiB machine (no throttling, no writeback
 * by the job), once with ioengine=psync and once with io_uring; the job's
 * CPU time (its fio thread and its io-wq worker, one process for fio)
 * differs by exactly:
 * - ext4 (no FOP_BUFFER_WASYNC, every write punted to io-wq):
 *   2048 x (uring_io_ns + the punt), at any iodepth;
 * - XFS at iodepth 1 (each write tried inline, one at a time):
 *   2048 x uring_io_ns, and the punt per write punted for a timestamp
 *   update.
 * The punt is two costs, the submitter's (uring_queue_ns) and the
 * worker's (uring_punt_ns), set here as a calibration splits them (the
 * built-in profile does not). At iodepth 32 on ext4 the fio thread's share (its own
 * work, the system call's entry and exit of each punted write and the
 * submitter's part of its punt) runs beside the worker, so the writes
 * finish sooner than at iodepth 1, where each write waits for the fio
 * thread's submission and reaping.
 *
 * At iodepth 32 on XFS the job writes in two lanes (lib/fio/job-uring-
 * wq.c): the fio thread inline under a trylock of i_rwsem, the io-wq
 * worker the writes punted to it. On one CPU the worker runs only while
 * the fio thread does not: only the timestamp updates are punted (every
 * attempt of a tick until the worker has run its write), and the CPU is
 * the serial ring's to the nanosecond. On four CPUs the two run at once: once a
 * timestamp update has woken the worker, the fio thread's trylocks fail
 * while the worker writes, and the punts are many more than the updates
 * (but not every write: between two of its writes the worker's own part
 * of the punt runs outside the lock, and the fio thread takes it then);
 * the worker spins on i_rwsem while the fio thread writes inline.
 *
 * Throttled (a 1 MiB dirty limit), at iodepth 1 on a filesystem that takes
 * IOCB_NOWAIT writes: balance_dirty_pages() with BDP_ASYNC returns -EAGAIN
 * where it would sleep, and the write is punted to io-wq, whose worker
 * sleeps the pauses. On the ideal filesystem (no filesystem CPU) each
 * punt costs exactly balance_dirty_pages_ns + the punt more (on XFS
 * more again: iomap_begin's reservation, punched, and done again).
 *
 * A write that must update the file's timestamps (the first of a tick)
 * fails inline too, with no throttle pass: XFS's and ext4's update costs
 * are set to 0 here, so that the jobs' differing numbers of ticks do not
 * show in their CPU, and each such punt costs the punt exactly. So is
 * XFS's speculative preallocation: without it no write past EOF converts
 * blocks (xfs_zero_eof), and the file has no real extent whose logging
 * a timestamp update would pay for at a different tick in each job.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <wbsim/cpu-costs.h>
#include "model-harness.h"
#include "report/results.h"
#include "core/cpu-costs.h"

#define WRITES 2048
/* the punt's two parts, set by every job here as a calibration splits
 * them (lib/core/hosts/lab-v1272-20261207e.inc: 1,160 and 2,310 ns) */
#define QUEUE_NS 1100
#define PUNT_NS 2300

struct job_figures {
	wbsim_time_t cpu_ns, runtime_ns, lock_wait_ns;
	uint64_t pauses, punts, time_punts, wakes;
	bool threads;		/* the fio thread and the worker apart */
	wbsim_time_t fio_cpu_ns, worker_cpu_ns;
	uint64_t i_rwsem_sleeps;	/* the i_rwsem row's contended takes */
	unsigned int workers;		/* io-wq workers */
	uint64_t spare_wakes;		/* wake-ups of the second one */
};

static struct job_figures run_job_on(unsigned int cpus, const char *fs, const char *engine,
				     unsigned int iodepth, const char *vm)
{
	g_autofree char *text = g_strdup_printf(
		"[machine]\ncpus = %u\nmemory = 4g\n"
		"%s"
		"[device]\npreset = ideal\n"
		"[filesystem]\ntype = %s\n%s"
		"[costs]\nuring_queue_ns = %dns\nuring_punt_ns = %dns\n%s%s"
		"[fio:w]\nrw=randwrite\nbs=4k\nsize=8m\nfallocate=none\n"
		"ioengine=%s\niodepth=%u\n",
		cpus, vm, fs, g_str_equal(fs, "xfs") ? "prealloc = 0\n" : "", QUEUE_NS, PUNT_NS,
		g_str_equal(fs, "ideal") ? "" : fs,
		g_str_equal(fs, "ideal") ? "" : ".update_time_ns = 0\n", engine, iodepth);
	struct wbsim_run_result *r = run_text(text, NULL, TRUE);
	const struct wbsim_job_result *j;
	struct job_figures f;

	assert_int_equal(r->jobs->len, 1);
	j = r->jobs->pdata[0];
	assert_int_equal(j->total_ios, WRITES);
	f.cpu_ns = j->cpu_ns;
	f.runtime_ns = j->runtime_ns;
	f.pauses = j->pauses;
	f.punts = j->uring_punts;
	f.time_punts = j->uring_time_punts;
	f.wakes = j->uring_worker_wakes;
	f.threads = j->uring_threads;
	f.fio_cpu_ns = j->uring_fio_cpu_ns;
	f.worker_cpu_ns = j->uring_worker_cpu_ns;
	f.workers = j->uring_workers;
	f.spare_wakes = j->uring_spare_wakes;
	if (f.threads)
		assert_true(f.fio_cpu_ns + f.worker_cpu_ns == f.cpu_ns);
	f.lock_wait_ns = j->lock_wait_ns;
	f.i_rwsem_sleeps = 0;
	for (guint i = 0; i < r->locks->len; i++) {
		const struct wbsim_lock_result *l = r->locks->pdata[i];

		if (g_str_has_prefix(l->name, "i_rwsem "))
			f.i_rwsem_sleeps = l->contended;
	}
	assert_true(f.time_punts <= f.punts);
	wbsim_run_result_free(r);
	return f;
}

static struct job_figures run_job(const char *fs, const char *engine, unsigned int iodepth,
				  const char *vm)
{
	return run_job_on(4, fs, engine, iodepth, vm);
}

/* Unthrottled: no pauses; the timestamps are due once a tick (the
 * machine's default HZ, 1000), and until the worker's write has updated
 * them every inline attempt fails for them: at most iodepth punts a tick
 * (fio keeps no more in flight). */
static struct job_figures any_job(unsigned int cpus, const char *fs, const char *engine,
				  unsigned int iodepth)
{
	struct job_figures f = run_job_on(cpus, fs, engine, iodepth, "");
	const wbsim_time_t tick = WBSIM_NSEC_PER_SEC / 1000;

	assert_int_equal(f.pauses, 0);
	assert_true(f.time_punts <= (f.runtime_ns / tick + 1) * iodepth);
	return f;
}

/* ... and no punts but for the timestamps */
static struct job_figures one_job(const char *fs, const char *engine, unsigned int iodepth)
{
	struct job_figures f = any_job(4, fs, engine, iodepth);

	assert_int_equal(f.punts, f.time_punts);
	return f;
}

#define THROTTLED "[vm]\ndirty_bytes = 1m\ndirty_background_bytes = 512k\n"

static void test_ext4_punts_every_write(void **state)
{
	const struct wbsim_cpu_costs *c = wbsim_cpu_costs_default();
	struct job_figures sync = one_job("ext4", "psync", 1);
	struct job_figures deep = one_job("ext4", "io_uring", 32);
	struct job_figures serial = one_job("ext4", "io_uring", 1);

	/* every write goes to io-wq anyway: none is counted as punted */
	assert_int_equal(deep.punts, 0);
	/* psync pays a system call per write (sync_io_ns), io_uring its own */
	assert_true(deep.cpu_ns + (wbsim_time_t)WRITES * c->sync_io_ns - sync.cpu_ns ==
		    (wbsim_time_t)WRITES * (c->uring_io_ns + PUNT_NS + QUEUE_NS));
	assert_true(serial.cpu_ns == deep.cpu_ns);
	/* at depth 1 one task runs both; at 32 the fio thread runs, for each
	 * write, its own work, the system call's entry and the submitter's
	 * part of the punt, and nothing else */
	assert_false(serial.threads);
	assert_true(deep.threads);
	assert_true(deep.fio_cpu_ns ==
		    (wbsim_time_t)WRITES * (c->uring_io_ns + QUEUE_NS +
					    MIN(c->syscall_entry_ns, c->write_syscall_ns)));
	/* the fio thread's work overlaps the worker's only at depth > 1: its
	 * own (uring_io_ns), each punted write's system call entry and exit
	 * (io_uring_enter) and the submitter's part of the punt, which the
	 * worker does not run: more than fio's own work and the punt's part
	 * is taken off the serial time, at most all three */
	assert_true(deep.runtime_ns < serial.runtime_ns);
	assert_true(serial.runtime_ns - deep.runtime_ns >
		    (wbsim_time_t)WRITES * (c->uring_io_ns + QUEUE_NS));
	assert_true(serial.runtime_ns - deep.runtime_ns <=
		    (wbsim_time_t)WRITES * (c->uring_io_ns + QUEUE_NS +
					    MIN(c->syscall_entry_ns, c->write_syscall_ns)));
}

static void test_xfs_writes_inline(void **state)
{
	const struct wbsim_cpu_costs *c = wbsim_cpu_costs_default();
	struct job_figures sync = one_job("xfs", "psync", 1);
	struct job_figures serial = one_job("xfs", "io_uring", 1);

	(void)state;
	/* at iodepth 1 the fio thread tries each write inline first: the
	 * first of each tick is punted for the timestamps */
	assert_true(serial.time_punts > 0);
	assert_true(serial.cpu_ns + (wbsim_time_t)WRITES * c->sync_io_ns - sync.cpu_ns ==
		    (wbsim_time_t)WRITES * c->uring_io_ns +
		    (wbsim_time_t)serial.time_punts * (PUNT_NS + QUEUE_NS));
}

static void test_xfs_two_lanes(void **state)
{
	const struct wbsim_cpu_costs *c = wbsim_cpu_costs_default();
	struct job_figures sync1 = any_job(1, "xfs", "psync", 1);
	struct job_figures one = any_job(1, "xfs", "io_uring", 32);
	struct job_figures sync = any_job(4, "xfs", "psync", 1);
	struct job_figures four = any_job(4, "xfs", "io_uring", 32);

	(void)state;
	/* one CPU: a lane holds i_rwsem while the other runs only when it
	 * left its CPU at its copy loop's cond_resched() (its slice over):
	 * the other, finding no idle CPU to spin on, sleeps on it (each such
	 * take contended). Every punt is a timestamp's; each write costs the
	 * ring's own work, each punt the punt, each sleep on i_rwsem the
	 * sleep and the wake-up */
	assert_true(one.time_punts > 0);
	assert_int_equal(one.punts, one.time_punts);
	assert_true(one.i_rwsem_sleeps < one.punts);
	assert_true(one.cpu_ns + (wbsim_time_t)WRITES * c->sync_io_ns - sync1.cpu_ns ==
		    (wbsim_time_t)WRITES * c->uring_io_ns +
		    (wbsim_time_t)one.punts * (PUNT_NS + QUEUE_NS) +
		    (wbsim_time_t)one.i_rwsem_sleeps * (c->rwsem_sleep_ns + c->rwsem_wake_ns));
	/* four CPUs: the trylocks fail while the worker writes, and the
	 * worker spins while the fio thread writes inline; both lanes write */
	assert_true(four.punts > 4 * four.time_punts);
	assert_true(four.punts < WRITES);
	assert_true(four.lock_wait_ns > 0);
	assert_true(four.cpu_ns + (wbsim_time_t)WRITES * c->sync_io_ns - sync.cpu_ns >=
		    (wbsim_time_t)WRITES * c->uring_io_ns +
		    (wbsim_time_t)four.punts * (PUNT_NS + QUEUE_NS) + four.lock_wait_ns / 2);
	/* the lanes overlap: sooner than one CPU's serial ring */
	assert_true(four.runtime_ns < one.runtime_ns);
}

static void test_bdp_async_punts(void **state)
{
	const struct wbsim_cpu_costs *c = wbsim_cpu_costs_default();
	struct job_figures sync = run_job("ideal", "psync", 1, THROTTLED);
	struct job_figures uring = run_job("ideal", "io_uring", 1, THROTTLED);
	struct job_figures xsync = run_job("xfs", "psync", 1, THROTTLED);
	struct job_figures xfs = run_job("xfs", "io_uring", 1, THROTTLED);

	(void)state;
	assert_true(sync.pauses > 0);
	assert_int_equal(sync.punts, 0);
	/* the fio thread never sleeps: the pauses are the worker's */
	assert_true(uring.punts > 0);
	assert_true(uring.pauses > 0);
	/* the ideal filesystem's timestamps cost nothing to update, but its
	 * inline writes are punted for them as for the throttle */
	assert_true(uring.cpu_ns + (wbsim_time_t)WRITES * c->sync_io_ns - sync.cpu_ns ==
		    (wbsim_time_t)WRITES * c->uring_io_ns +
		    (wbsim_time_t)(uring.punts - uring.time_punts) * c->balance_dirty_pages_ns +
		    (wbsim_time_t)uring.punts * (PUNT_NS + QUEUE_NS));
	/* on XFS too, most punts are the throttle's; their CPU is not
	 * compared with the psync twin's: the ILOCK, an rw_semaphore whose
	 * waiters spin and sleep, is contended differently in the two runs */
	assert_true(xfs.punts > 2 * xfs.time_punts);
	assert_true(xsync.pauses > 0);
}

/*
 * io_wq_enqueue() wakes the worker when it sleeps: a job paced at one
 * write a tick (rate=4m, HZ 1000) on XFS at iodepth 32 punts nearly every
 * write for its timestamp update, and the worker has written it and gone back
 * to sleep long before the next. On two CPUs each punt wakes it onto the
 * other, idle CPU, and the fio thread pays the machine's idle_wake_cost; on one CPU
 * the wake-up is the waker's own CPU's, part of the punt. The rest of the
 * two jobs' CPU is the same to the nanosecond.
 */
#define WAKE_NS 5000

static struct job_figures paced_job(unsigned int cpus)
{
	g_autofree char *text = g_strdup_printf(
		"[machine]\ncpus = %u\nmemory = 4g\nidle_wake_cost = %dns\n"
		"[device]\npreset = ideal\n[filesystem]\ntype = xfs\nprealloc = 0\n"
		"[costs]\nxfs.update_time_ns = 0\n"
		"[fio:w]\nrw=randwrite\nbs=4k\nsize=8m\nfallocate=none\n"
		"ioengine=io_uring\niodepth=32\nrate=4m\n", cpus, WAKE_NS);
	struct wbsim_run_result *r = run_text(text, NULL, TRUE);
	const struct wbsim_job_result *j = r->jobs->pdata[0];
	struct job_figures f = { .cpu_ns = j->cpu_ns, .runtime_ns = j->runtime_ns,
				 .punts = j->uring_punts, .time_punts = j->uring_time_punts,
				 .wakes = j->uring_worker_wakes };

	assert_int_equal(j->total_ios, WRITES);
	wbsim_run_result_free(r);
	return f;
}

static void test_punt_wakes_the_idle_worker(void **state)
{
	struct job_figures one = paced_job(1);
	struct job_figures two = paced_job(2);

	(void)state;
	/* nearly every write is punted for its timestamp update (the first
	 * ones fio issues in one tick, catching up with its rate, are not) */
	assert_true(two.punts > WRITES * 9 / 10);
	assert_int_equal(two.time_punts, two.punts);
	assert_int_equal(one.punts, two.punts);
	assert_int_equal(two.wakes, two.punts);
	assert_int_equal(one.wakes, 0);
	assert_true(two.cpu_ns - one.cpu_ns == (wbsim_time_t)two.wakes * WAKE_NS);
}

/*
 * io-wq's second worker: XFS's two lanes against a small dirty limit, the
 * worker sleeps in balance_dirty_pages() with writes queued, and io-wq
 * starts another, woken by later enqueues though the file's hash keeps
 * the writes from it: every one of them is an enqueue's (at most one a
 * punt). Under a limit the job never reaches, the worker never sleeps and
 * works alone; ext4's worker (every write punted, the fio thread never
 * holds i_rwsem) throttles too, and io-wq starts no other: ext4 is an
 * every-write-punted job, whose one worker is the model's only io-wq
 * thread.
 */
static void test_second_worker(void **state)
{
	static const char throttled[] = "[vm]\ndirty_bytes = 2m\ndirty_background_bytes = 1m\n";
	struct job_figures xfs = run_job_on(2, "xfs", "io_uring", 32, throttled);
	struct job_figures xfree = run_job_on(2, "xfs", "io_uring", 32, "");
	struct job_figures ext4 = run_job_on(2, "ext4", "io_uring", 32, throttled);

	(void)state;
	assert_true(xfs.pauses > 0);
	assert_int_equal(xfs.workers, 2);
	assert_true(xfs.spare_wakes > 0);
	assert_true(xfs.spare_wakes <= xfs.punts);
	assert_int_equal(xfree.pauses, 0);
	assert_int_equal(xfree.workers, 1);
	assert_int_equal(xfree.spare_wakes, 0);
	assert_true(ext4.pauses > 0);
	assert_int_equal(ext4.workers, 1);
	assert_int_equal(ext4.spare_wakes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext4_punts_every_write),
		cmocka_unit_test(test_xfs_writes_inline),
		cmocka_unit_test(test_xfs_two_lanes),
		cmocka_unit_test(test_bdp_async_punts),
		cmocka_unit_test(test_punt_wakes_the_idle_worker),
		cmocka_unit_test(test_second_worker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
