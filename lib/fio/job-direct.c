/* SPDX-License-Identifier: MIT */
/*
 * job-direct.c - O_DIRECT writes of an fio job (direct=1 or buffered=0),
 * each one the machine's wbsim_sys_pwrite_direct() (fs/direct-io.c), with
 * up to iodepth writes in flight for the asynchronous engines (io_uring,
 * libaio, posixaio) and one for the synchronous ones (fio's psync, sync,
 * ...).
 * fio's direct jobs do not mix with buffered I/O to the same file.
 */
#include <string.h>
#include "fio/fio-options.h"
#include "fio/job.h"

unsigned int wbsim_job_direct_depth(const struct wbsim_job *job)
{
	const struct wbsim_fio_engine *engine = wbsim_fio_engine_find(job->fio->ioengine);

	return engine && (engine->flags & WBSIM_FIO_ENGINE_ASYNC) ? MAX(job->fio->iodepth, 1) : 1;
}

static void direct_issue(wbsim_sim *sim, void *arg);

/* A write of the job completed. */
static void direct_io_done(void *arg, wbsim_time_t issued, uint64_t pos)
{
	struct wbsim_job *job = arg;

	wbsim_time_t now = wbsim_sim_now(job->m->sim);

	wbsim_lat_hist_add(&job->clat, now - issued);
	wbsim_job_logs_io(&job->logs, now, now - issued, job->bs, pos, job->bytes_done,
			  job->ios_done);
	job->bytes_done += job->bs;
	job->ios_done++;
	job->dio_inflight--;
	wbsim_job_direct_continue(job);
}

/* The write's bios are submitted: the task may issue the next write while
 * the queue depth allows. */
static void direct_submitted(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;

	job->dio_issuing = false;
	wbsim_job_direct_continue(job);
}

static void direct_issue(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_file *f = &job->files[job->cur_file];
	uint64_t blk, off;

	if (wbsim_sys_write_frozen(job->m, direct_issue, job))
		return;
	if (!f->opened) {
		/* first use of the file: fio opens it (and invalidates) first */
		job->dio_issuing = false;
		wbsim_job_open_file(job, job->cur_file);
		return;
	}
	blk = wbsim_job_next_block(job, f);
	if (blk == UINT64_MAX) {
		job->dio_issuing = false;
		/* fio reaps the pass's writes still in flight before the pass
		 * ends (the last completion comes back here) */
		if (job->dio_inflight == 0)
			wbsim_job_pass_over(job);
		return;
	}
	job->cur_file = (job->cur_file + 1) % job->nr_files;
	off = f->offset + blk * job->bs;
	job->dio_inflight++;
	wbsim_fio_io_u_write(&job->io_u);
	wbsim_sys_pwrite_direct(job->m, &job->task, f->inode, off, job->bs, direct_submitted,
				direct_io_done, job);
}

/* Issue writes while fewer than the queue depth are in flight; when the job
 * must stop, finish once the last one completed (fio drains its queue). */
void wbsim_job_direct_continue(struct wbsim_job *job)
{
	if (job->dio_issuing || job->state != JOB_RUNNING)
		return;
	if (wbsim_job_should_stop(job)) {
		if (job->dio_inflight == 0)
			wbsim_job_finish(job);
		return;
	}
	if (job->dio_inflight >= wbsim_job_direct_depth(job))
		return;
	job->dio_issuing = true;
	wbsim_sim_schedule_at(job->m->sim, wbsim_sim_now(job->m->sim), direct_issue, job);
}
