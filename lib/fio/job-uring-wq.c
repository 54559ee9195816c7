/* SPDX-License-Identifier: MIT */
/*
 * job-uring-wq.c - the io-wq worker of an io_uring job that writes in two
 * lanes (io_uring/io-wq.c, io_uring/rw.c io_write()).
 *
 * On a filesystem that takes IOCB_NOWAIT buffered writes (XFS) at an
 * iodepth above 1, the fio thread issues each write inline first, under a
 * trylock of the file's i_rwsem (xfs_ilock_iocb(): the IOLOCK); a write
 * that would block fails with -EAGAIN and io_queue_iowq() hands it to the
 * io-wq worker, which runs it again without IOCB_NOWAIT: it takes i_rwsem
 * the blocking way (spinning on a running owner, else sleeping: lib/core/
 * lock.c), writes, throttles in balance_dirty_pages() still holding it,
 * and posts the completion. The two lanes run at once on two CPUs, so a
 * punt begets punts: while the worker writes, the fio thread's next
 * trylocks fail too, and the fio thread writes inline again only when it
 * finds the lock free between two of the worker's writes (the lab's E6 on
 * XFS: half the writes punted, 0.1% of them for a timestamp update, the
 * rest at the trylock: lab/studies/uring-retries/e6-xfs-v1272). Why a
 * write is punted: sys.h enum wbsim_uring_eagain (the trylock of i_rwsem,
 * a timestamp update due, iomap_begin's trylock of the ILOCK, BDP_ASYNC,
 * a folio writeback holds locked).
 *
 * The writes of one file hash to one worker (io_wq_hash_work()) and run
 * in order, one at a time: the queue here. The punt's own work is split
 * between the two tasks as the lab's perf samples split it by task
 * (cal-uring-ext4): io-wq's dequeue and issue, the CQE it posts and the
 * wake-up of the fio thread (uring_punt_ns) are the worker's, outside
 * i_rwsem, before each write; the fio thread pays for each punted write
 * its own work (uring_io_ns), the system call's entry up to the failed
 * attempt (syscall_entry_ns) and its part of the punt (uring_queue_ns:
 * mostly the completion the worker hands back, run and reaped in the
 * submitter's io_uring_enter(); io_queue_iowq() itself takes 60-90 ns a
 * write in the lab's perf samples), the worker the write from
 * ->write_iter on.
 * A write punted by the throttle also pays there for the inline
 * attempt's reservation and its punch (twice the filesystem's part), the
 * submitter for the throttle's pass (balance_dirty_pages_ns).
 *
 * A second worker: when the worker goes to sleep with writes queued
 * (io_wq_worker_sleeping(): on i_rwsem that the fio thread's inline write
 * holds, on a folio lock, in the throttle), io-wq starts another, which
 * finds the file's hash busy and sleeps on the free list. From then on
 * every enqueue wakes it while it sleeps (io_wq_enqueue() ->
 * io_acct_activate_free_worker() looks for a free worker, not at the
 * hash): the fio thread pays the wake-up ([machine] idle_wake_cost when
 * it goes to another, idle CPU), the woken worker runs on some CPU only
 * to find the hash busy again and sleep (its exit from idle: [machine]
 * idle_poll_cost, idle_exit_cost; lib/core/cpus.c); an enqueue while it
 * is awake wakes nobody (lab/studies/iowq-wakeups-v1272: XFS's E6 runs
 * two workers, ext4's one, whose worker never sleeps).
 * Left out: a frozen filesystem stopping the worker (sb_start_write), the
 * worker's -ENOSPC beyond one flush and retry (the write fails, and fio's
 * job with it), the second worker's share of the writes (in the kernel
 * it takes the file's next writes when it finds the hash free, a quarter
 * to a third of them in the study; here the first runs them all, the
 * hash serialising them either way), the wake-up of a worker waiting on
 * the hash when the other releases it, the idle worker's exit after
 * io-wq's idle timeout, more than two workers.
 */
#include "fio/job.h"

#include "core/cpus.h"
#include "core/pid.h"
#include "core/sim.h"
#include "machine/machine.h"

static struct wbsim_job_wq_write *wq_at(struct wbsim_job_wq *wq, unsigned int i)
{
	return &wq->queue[(wq->head + i) % wq->size];
}

void wbsim_job_wq_setup(struct wbsim_job *job, unsigned int fio_pid)
{
	struct wbsim_job_wq *wq = &job->wq;
	char name[32];

	wq->on = true;
	g_snprintf(name, sizeof(name), "iou-wrk-%u", fio_pid);
	wbsim_task_init(&wq->task, name, WBSIM_TASK_DIRTIER);
	wq->task.pid = wbsim_sim_alloc_pid(job->m->sim);
	wbsim_sys_call_init(&wq->sys, job->m, &wq->task);
	wq->size = MAX(job->fio->iodepth, 1);
	wq->queue = g_new0(struct wbsim_job_wq_write, wq->size);
}

void wbsim_job_wq_clear(struct wbsim_job *job)
{
	struct wbsim_job_wq *wq = &job->wq;

	if (!wq->on)
		return;
	wbsim_sys_call_clear(&wq->sys);
	wbsim_task_clear(&wq->task);
	if (wq->spare_on)
		wbsim_task_clear(&wq->spare);
	g_clear_pointer(&wq->queue, g_free);
}

unsigned int wbsim_job_wq_inflight(const struct wbsim_job *job)
{
	return job->wq.len + job->wq.busy;
}

unsigned int wbsim_job_wq_nr_workers(const struct wbsim_job *job)
{
	return job->wq.spare_on ? 2 : 1;
}

/* io_wq_worker_sleeping(): the worker slept since it took its write (its
 * voluntary switches moved) and writes are queued: io-wq starts a second
 * worker, which finds the file's hash busy and goes to sleep free. */
static void wq_maybe_start_spare(struct wbsim_job *job)
{
	struct wbsim_job_wq *wq = &job->wq;

	if (wq->spare_on || !wq->len || wq->task.nvcsw == wq->nvcsw_at_take)
		return;
	wq->spare_on = true;
	wbsim_task_init(&wq->spare, wq->task.name, WBSIM_TASK_DIRTIER);
	wq->spare.pid = wbsim_sim_alloc_pid(job->m->sim);
}

/* The woken second worker found the file's hash busy: asleep again. */
static void wq_spare_sleeps(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;

	(void)sim;
	job->wq.spare_awake = false;
}

static void wq_run_next(struct wbsim_job *job);

/* The write is over, its completion posted: the next, or sleep. */
static void wq_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_wq *wq = &job->wq;

	(void)sim;
	wq_maybe_start_spare(job);
	wq->busy = false;
	wbsim_job_write_completed(job, wq->cur.off, wq->cur.issued);
	wq_run_next(job);
	if (wq->fio_waits)
		wbsim_job_wq_completed(job);
}

/* inode_unlock() after the throttle: it may wake a sleeping writer */
static void wq_throttled(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_wq *wq = &job->wq;
	wbsim_time_t wake;

	wake = wbsim_sys_write_inode_unlock(&wq->sys, job->files[wq->cur.file].inode);
	if (wake) {
		wbsim_cpus_run(job->m->cpus, &wq->task, wake, wq_done, job);
		return;
	}
	wq_done(sim, job);
}

/* The write is done: balance_dirty_pages() if due, under i_rwsem (the
 * worker sleeps holding it, and the fio thread's trylocks fail meanwhile). */
static void wq_written(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_wq *wq = &job->wq;

	if (wq->throttle &&
	    wbsim_sys_write_balance_dirty_pages(&wq->sys, &job->dirtier,
						job->files[wq->cur.file].inode, wq_throttled, job))
		return;
	wq_throttled(sim, job);
}

static void wq_iunlock(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_wq *wq = &job->wq;

	(void)sim;
	wbsim_sys_write_iunlock(&wq->sys, job->files[wq->cur.file].inode);
	wbsim_cpus_run_on(job->m->cpus, &wq->task, wq->cost - wq->fs_cost, wq_written, job);
}

/* The filesystem's part under its lock (XFS: the ILOCK), on the CPU the
 * worker holds */
static void wq_ilocked(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_wq *wq = &job->wq;

	(void)sim;
	wbsim_cpus_run_on(job->m->cpus, &wq->task, wq->fs_cost, wq_iunlock, job);
}

/* The worker's -ENOSPC that a flush did not cure: the write fails, and
 * fio ends the job with its error; the writes queued behind it are not
 * run (fio stops issuing at the error). */
static void wq_enospc(struct wbsim_job *job)
{
	struct wbsim_job_wq *wq = &job->wq;
	struct wbsim_job_file *f = &job->files[wq->cur.file];

	job->error = 28;	/* ENOSPC */
	job->stopped = true;
	g_ptr_array_add(job->m->warnings,
			g_strdup_printf("fio: io_u error on file %s: No space left on device: "
					"write offset=%" G_GUINT64_FORMAT ", buflen=%" G_GUINT64_FORMAT
					" (job %s, at %.3f s)", f->path, wq->cur.off, job->bs,
					job->fio->name, wbsim_sim_now(job->m->sim) / 1e9));
	wq->len = 0;
	wq->throttle = false;
	wq_throttled(job->m->sim, job);
}

/* i_rwsem is held: write_begin's folio lock, the reservation, the write. */
static void wq_locked(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_wq *wq = &job->wq;
	struct wbsim_job_file *f = &job->files[wq->cur.file];
	const struct wbsim_cpu_costs *c = &job->m->costs;
	wbsim_time_t fs;

	wq_maybe_start_spare(job);
	if (wbsim_sys_write_wait_folio_lock(&wq->sys, f->inode, wq->cur.off, job->bs, wq_locked,
					    job))
		return;
	if (!wbsim_sys_write_reserve_delalloc(&wq->sys, f->inode, wq->cur.off, job->bs)) {
		if (wbsim_sys_write_enospc(&wq->sys, wq_locked, job))
			return;
		wq_enospc(job);
		return;
	}
	/* from ->write_iter on: the system call's entry and exit were the
	 * fio thread's (io_uring_enter()) */
	wq->cost = wbsim_sys_write(job->m, &job->dirtier, f->inode, wq->cur.off, job->bs,
				   wbsim_sim_now(sim), &wq->throttle, &fs);
	wq->cost -= MIN(c->syscall_entry_ns, wq->cost > fs ? wq->cost - fs : 0);
	if (wq->cur.why == WBSIM_URING_EAGAIN_THROTTLE) {
		/* the inline attempt's iomap_begin and iomap_end's punch */
		wq->cost += 2 * fs;
		fs += 2 * fs;
	}
	wq->fs_cost = MIN(fs, wq->cost);
	if (wq->fs_cost && wbsim_sys_write_ilock(&wq->sys, f->inode, wq_ilocked, job))
		return;
	wbsim_cpus_run(job->m->cpus, &wq->task, wq->cost, wq_written, job);
}

/* io_wq_submit_work() -> io_write() without IOCB_NOWAIT: i_rwsem */
static void wq_issue(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_wq *wq = &job->wq;

	(void)sim;
	wbsim_sys_write_inode_lock(&wq->sys, job->files[wq->cur.file].inode, wq_locked, job);
}

/*
 * io_worker_handle_work(): take the oldest punted write, if any. io-wq's
 * part of the punt (the dequeue and the issue up to ->write_iter, the
 * completion posted after it, the wake-ups) runs outside i_rwsem: between
 * two of the worker's writes the lock is free for that long, and the fio
 * thread's trylock may take it.
 */
static void wq_run_next(struct wbsim_job *job)
{
	struct wbsim_job_wq *wq = &job->wq;

	if (wq->busy || !wq->len)
		return;
	wq->cur = *wq_at(wq, 0);
	wq->head = (wq->head + 1) % wq->size;
	wq->len--;
	wq->busy = true;
	wq->nvcsw_at_take = wq->task.nvcsw;
	/* it goes on into ->write_iter on its CPU: it spins there if the
	 * fio thread holds i_rwsem and runs */
	wbsim_cpus_run_on(job->m->cpus, &wq->task, job->m->costs.uring_punt_ns, wq_issue, job);
}

wbsim_time_t wbsim_job_wq_punt(struct wbsim_job *job, unsigned int file, uint64_t off,
			       enum wbsim_uring_eagain why, wbsim_time_t issued)
{
	struct wbsim_job_wq *wq = &job->wq;
	struct wbsim_job_wq_write *w;
	wbsim_time_t wake = 0;
	bool woke, lane_idle, spare_free;

	g_return_val_if_fail(wq->len < wq->size, 0);
	/* io_wq_enqueue() -> io_acct_activate_free_worker(): the worker
	 * sleeps when it has nothing queued and runs nothing; woken onto
	 * another, idle CPU, it costs the fio thread that CPU's IPI (on a
	 * virtual machine the APIC write's exit: bench/bench-cacheline's
	 * wakeup_waker_ns); on the fio thread's own CPU the wake-up is a
	 * local one, part of the punt's measured cost */
	lane_idle = !wq->busy && !wq->len;
	spare_free = !lane_idle && wq->spare_on && !wq->spare_awake;
	woke = (lane_idle || spare_free) &&
	       wbsim_cpus_wake_remote(job->m->cpus, &job->task, &wake);
	if (spare_free) {
		/* the free second worker, woken for a write the hash keeps
		 * from it: it runs, finds the hash busy, sleeps again */
		wq->spare_awake = true;
		job->ring.spare_wakes++;
		wbsim_cpus_run(job->m->cpus, &wq->spare, 0, wq_spare_sleeps, job);
	}
	w = wq_at(wq, wq->len++);
	*w = (struct wbsim_job_wq_write){ .file = file, .off = off, .why = why,
					  .issued = issued };
	job->ring.punts++;
	job->ring.worker_wakes += woke;
	/* io_wq_enqueue() wakes the worker if it sleeps */
	wq_run_next(job);
	return wake;
}
