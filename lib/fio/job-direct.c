/* SPDX-License-Identifier: MIT */
/*
 * job-direct.c - O_DIRECT writes of an fio job (direct=1 or buffered=0):
 * no page cache and no dirty throttling; each write maps its blocks through
 * the filesystem (allocating holes; unwritten extents are converted when the
 * write completes) and goes to the block layer as its own bio, with up to
 * iodepth writes in flight for the asynchronous engines (io_uring, libaio,
 * posixaio) and one for the synchronous ones (fio's psync, sync, ...).
 *
 * Left out: coherence with cached pages of the same range (fio's direct
 * jobs do not mix with buffered I/O to the same file), alignment checks.
 */
#include <string.h>
#include <wbsim/block.h>
#include <wbsim/fs.h>
#include "fio/job.h"
#include "core/workqueue.h"
#include "fs/fs-writeback.h"
#include "fs/wb-ctx-change.h"

struct direct_io {
	struct wbsim_job *job;
	struct wbsim_job_file *f;
	uint64_t first_block;	/* filesystem block of the file */
	uint64_t nr_blocks;
	wbsim_time_t issued;
	GPtrArray *bios;	/* struct direct_bio * */
	unsigned int outstanding;
	bool unwritten;
};

struct direct_bio {
	struct wbsim_bio bio;
	struct direct_io *io;
};

static bool engine_is_async(const char *engine)
{
	static const char *const async[] = { "io_uring", "libaio", "posixaio", NULL };

	for (size_t i = 0; engine && async[i]; i++)
		if (strcmp(engine, async[i]) == 0)
			return true;
	return false;
}

unsigned int wbsim_job_direct_depth(const struct wbsim_job *job)
{
	return engine_is_async(job->fio->ioengine) ? MAX(job->fio->iodepth, 1) : 1;
}

static void direct_issue(wbsim_sim *sim, void *arg);

static void direct_io_done(wbsim_sim *sim, void *arg)
{
	struct direct_io *io = arg;
	struct wbsim_job *job = io->job;

	wbsim_lat_hist_add(&job->clat, wbsim_sim_now(sim) - io->issued);
	job->bytes_done += job->bs;
	job->ios_done++;
	job->dio_inflight--;
	g_ptr_array_free(io->bios, TRUE);
	g_free(io);
	wbsim_job_direct_continue(job);
}

static void direct_bio_end_io(wbsim_sim *sim, void *arg)
{
	struct direct_bio *b = arg;
	struct direct_io *io = b->io;

	if (--io->outstanding)
		return;
	if (io->unwritten) {
		/* iomap_dio_complete -> the filesystem's unwritten conversion */
		struct wbsim_machine *m = io->job->m;
		wbsim_time_t cost = wbsim_fs_end_io(m->fs, io->f->inode->fs_inode,
						    io->first_block, io->nr_blocks);

		wbsim_queue_work(m->bdi.endio_wq, cost, direct_io_done, io);
		return;
	}
	direct_io_done(sim, io);
}

static void direct_submitted(wbsim_sim *sim, void *arg);

/* The filesystem has mapped the range: one bio per physical piece. */
static void direct_mapped(wbsim_fs *fs, void *arg, const struct wbsim_fs_map *maps,
			  size_t nr_maps, const GError *error)
{
	struct direct_io *io = arg;
	struct wbsim_job *job = io->job;

	if (error) {
		wbsim_bdi_fail(&job->m->bdi, error);
		return;
	}
	for (size_t i = 0; i < nr_maps; i++) {
		struct direct_bio *b = g_new0(struct direct_bio, 1);

		b->io = io;
		b->bio.sector = maps[i].dev_block << (WBSIM_PAGE_SHIFT - WBSIM_SECTOR_SHIFT);
		b->bio.nr_sectors = (uint32_t)(maps[i].nr_blocks << (WBSIM_PAGE_SHIFT - WBSIM_SECTOR_SHIFT));
		/* REQ_SYNC | REQ_IDLE: what the kernel's direct I/O sets */
		b->bio.flags = WBSIM_REQ_SYNC | WBSIM_REQ_IDLE;
		b->bio.end_io = direct_bio_end_io;
		b->bio.private = b;
		if (maps[i].flags & WBSIM_FS_MAP_UNWRITTEN)
			io->unwritten = true;
		g_ptr_array_add(io->bios, b);
	}
	io->outstanding = io->bios->len;
	job->dio_next_bio = 0;
	job->dio_cur = io;
	direct_submitted(job->m->sim, job);
}

/* Submit the current write's bios one after the other, then issue the next
 * write while the queue depth allows. */
static void direct_submitted(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct direct_io *io = job->dio_cur;

	if (io && job->dio_next_bio < io->bios->len) {
		struct direct_bio *b = io->bios->pdata[job->dio_next_bio++];

		wbsim_submit_bio(job->m->bdi.queue, &job->task, NULL, &b->bio, direct_submitted, job);
		return;
	}
	job->dio_cur = NULL;
	job->dio_issuing = false;
	wbsim_job_direct_continue(job);
}

/* The write(2)/io_uring submission's CPU time is spent: map the blocks. */
static void direct_syscall_done(wbsim_sim *sim, void *arg)
{
	struct direct_io *io = arg;
	struct wbsim_machine *m = io->job->m;

	wbsim_fs_map_blocks(m->fs, io->f->inode->fs_inode, &io->job->task, io->first_block,
			    io->nr_blocks, direct_mapped, io);
}

static void direct_issue(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_file *f = &job->files[job->cur_file];
	struct direct_io *io;
	uint64_t blk, off;

	if (wbsim_bdi_wait_if_frozen(&job->m->bdi, direct_issue, job))
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
		wbsim_job_pass_over(job);
		return;
	}
	job->cur_file = (job->cur_file + 1) % job->nr_files;
	off = f->offset + blk * job->bs;
	if (off + job->bs > f->inode->size)
		f->inode->size = off + job->bs;
	io = g_new0(struct direct_io, 1);
	io->job = job;
	io->f = f;
	io->first_block = off / WBSIM_PAGE_SIZE;
	io->nr_blocks = job->bs / WBSIM_PAGE_SIZE;
	io->issued = wbsim_sim_now(sim);
	io->bios = g_ptr_array_new_with_free_func(g_free);
	job->dio_inflight++;
	wbsim_cpus_run(job->m->cpus, &job->task, job->m->costs.write_syscall_ns,
		       direct_syscall_done, io);
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
