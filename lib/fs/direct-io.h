/* SPDX-License-Identifier: MIT */
/*
 * fs/direct-io.h - O_DIRECT writes through iomap (kernel: fs/iomap/
 * direct-io.c iomap_dio_rw() for a write).
 */
#ifndef WBSIM_FS_DIRECT_IO_H
#define WBSIM_FS_DIRECT_IO_H

#include "fs/writeback.h"

/* The write at byte @pos started at @issued has completed (its data is on
 * the device, its unwritten extents converted). */
typedef void (*wbsim_dio_done_fn)(void *arg, wbsim_time_t issued, uint64_t pos);

/**
 * wbsim_iomap_dio_write() - an O_DIRECT write of @len bytes at byte @pos
 * of @inode by @task, from the write(2) system call on
 * @submitted: runs when the last bio of the write is submitted (the task
 *	may issue its next write)
 * @done: runs when the write is complete
 *
 * The task spends the system call's CPU time, the filesystem maps the
 * range (allocating holes), each physical piece goes to the block layer
 * as its own bio (REQ_SYNC | REQ_IDLE); when the last bio ends, unwritten
 * extents are converted on the bdi's end-io workqueue. i_size moves when
 * the write is issued. A mapping failure fails the bdi (the run ends).
 */
void wbsim_iomap_dio_write(struct wbsim_inode *inode, wbsim_task *task, uint64_t pos,
			   uint64_t len, wbsim_event_fn submitted, wbsim_dio_done_fn done,
			   void *arg);

#endif
