/* SPDX-License-Identifier: MIT */
/*
 * direct-io.c - O_DIRECT writes (kernel: fs/iomap/direct-io.c): no page
 * cache and no dirty throttling; each write maps its blocks through the
 * filesystem (allocating holes; unwritten extents are converted when the
 * write completes) and goes to the block layer as bios of its own.
 *
 * Left out: coherence with cached pages of the same range (the page cache
 * flush and invalidation of iomap_dio_rw()), alignment checks, reads.
 */
#include <wbsim/block.h>
#include <wbsim/fs.h>
#include "fs/direct-io.h"
#include "block/blk.h"
#include "fs/alloc/fs.h"
#include "mm/filemap.h"

struct direct_io {
	struct wbsim_inode *inode;
	wbsim_task *task;
	uint64_t first_block;	/* filesystem block of the file */
	uint64_t nr_blocks;
	uint64_t pos;		/* the write's byte offset in the file */
	wbsim_time_t issued;
	GPtrArray *bios;	/* struct direct_bio * */
	unsigned int next_bio;	/* the next to submit */
	unsigned int outstanding;
	bool unwritten;
	wbsim_event_fn submitted;
	wbsim_dio_done_fn done;
	void *arg;
};

struct direct_bio {
	struct wbsim_bio bio;
	struct direct_io *io;
};

static void direct_io_done(wbsim_sim *sim, void *arg)
{
	struct direct_io *io = arg;
	wbsim_dio_done_fn done = io->done;
	void *done_arg = io->arg;
	wbsim_time_t issued = io->issued;
	uint64_t pos = io->pos;

	g_ptr_array_free(io->bios, TRUE);
	g_free(io);
	done(done_arg, issued, pos);
}

/* Models iomap_dio_bio_end_io() and iomap_dio_complete(): the last bio's
 * end completes the write, through the filesystem's completion
 * (wbsim_fs_end_bio(): an unwritten conversion runs on the sb's dio
 * workqueue). */
static void direct_bio_end_io(wbsim_sim *sim, void *arg)
{
	struct direct_bio *b = arg;
	struct direct_io *io = b->io;

	if (--io->outstanding)
		return;
	(void)sim;
	wbsim_fs_end_bio(io->inode->bdi->fs, io->inode->fs_inode, io->first_block,
			 io->nr_blocks,
			 WBSIM_FS_IO_DIRECT | (io->unwritten ? WBSIM_FS_IO_UNWRITTEN : 0),
			 direct_io_done, io);
}

/* Submit the write's bios one after the other, then let the task go. */
static void direct_submitted(wbsim_sim *sim, void *arg)
{
	struct direct_io *io = arg;

	if (io->next_bio < io->bios->len) {
		struct direct_bio *b = io->bios->pdata[io->next_bio++];

		wbsim_submit_bio(io->inode->bdi->queue, io->task, NULL, &b->bio, direct_submitted, io);
		return;
	}
	io->submitted(sim, io->arg);
}

/* Models iomap_dio_bio_iter(): the filesystem has mapped the range, one
 * bio per physical piece. */
static void direct_mapped(wbsim_fs *fs, void *arg, const struct wbsim_fs_map *maps,
			  size_t nr_maps, const GError *error)
{
	struct direct_io *io = arg;

	if (error) {
		wbsim_bdi_fail(io->inode->bdi, error);
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
	direct_submitted(io->inode->bdi->sim, io);
}

/* The system call's CPU time is spent: map the blocks. */
static void direct_syscall_done(wbsim_sim *sim, void *arg)
{
	struct direct_io *io = arg;

	wbsim_fs_map_blocks(io->inode->bdi->fs, io->inode->fs_inode, io->task, io->first_block,
			    io->nr_blocks, direct_mapped, io);
}

/* Models iomap_dio_rw() for a write; leaves out the page cache flush. */
void wbsim_iomap_dio_write(struct wbsim_inode *inode, wbsim_task *task, uint64_t pos,
			   uint64_t len, wbsim_event_fn submitted, wbsim_dio_done_fn done,
			   void *arg)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct direct_io *io = g_new0(struct direct_io, 1);

	if (pos + len > inode->size)
		inode->size = pos + len;
	io->inode = inode;
	io->task = task;
	io->pos = pos;
	io->first_block = pos / WBSIM_PAGE_SIZE;
	io->nr_blocks = len / WBSIM_PAGE_SIZE;
	io->issued = wbsim_sim_now(bdi->sim);
	io->bios = g_ptr_array_new_with_free_func(g_free);
	io->submitted = submitted;
	io->done = done;
	io->arg = arg;
	/* ->write_iter's checks update the timestamps as a buffered write's do */
	wbsim_cpus_run(bdi->cpus, task,
		       bdi->costs->write_syscall_ns +
		       wbsim_file_update_time(inode, wbsim_sim_now(bdi->sim)),
		       direct_syscall_done, io);
}
