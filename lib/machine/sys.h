/* SPDX-License-Identifier: MIT */
/*
 * machine/sys.h - the machine's system calls: the door through which a
 * task (an fio job) reaches the kernel model, as a process reaches the
 * kernel, instead of calling mm and fs itself (sys.c).
 *
 * A call that may sleep takes a struct wbsim_sys_call, the kernel side of
 * the calling task while it is in the call (what the kernel keeps on the
 * task's stack), and a continuation: done(arg) runs when the call returns
 * to the task, at once (before the call returns) if it never sleeps.
 *
 * The start of the door: open, close, ftruncate, fallocate, fsync,
 * fdatasync, fadvise(DONTNEED), the cgroup filesystem's mkdir, rmdir and
 * cgroup.procs, the wait of a write on a frozen filesystem, an O_DIRECT
 * pwrite(2), and the kernel's part of one buffered write, by write(2) or
 * by io_uring (its inline attempt with IOCB_NOWAIT and the punt to
 * io-wq). What is left on the other side (issue 37): the fio job still
 * batches its buffered writes itself, and makes the checks of the write
 * path (folio locks, the free space, the reservation, the filesystem's
 * write lock, the throttle) between them by calling mm and fs.
 */
#ifndef WBSIM_MACHINE_SYS_H
#define WBSIM_MACHINE_SYS_H

#include "machine/machine.h"
#include "fs/direct-io.h"

struct wbsim_dirtier;

/**
 * struct wbsim_sys_call - the kernel side of one task's sleeping call
 * @m: the machine
 * @task: the calling task, which the call's CPU work runs on
 * @wp: the writeback the task does itself (fsync, fadvise)
 * @wbc: its writeback control
 * @inode: the file of the call
 * @first: fadvise: the first page of the range
 * @nr: fadvise: its pages
 * @sync: fsync or fdatasync, not fadvise
 * @done: where the call returns, with @arg
 */
struct wbsim_sys_call {
	struct wbsim_machine *m;
	wbsim_task *task;
	struct wbsim_writepages wp;
	struct wbsim_wbc wbc;
	struct wbsim_inode *inode;
	uint64_t first;
	uint64_t nr;
	bool sync;
	void (*done)(void *arg);
	void *arg;
};

/* The kernel side of @task's calls on @m; wbsim_sys_call_clear() frees it. */
void wbsim_sys_call_init(struct wbsim_sys_call *c, struct wbsim_machine *m, wbsim_task *task);
void wbsim_sys_call_clear(struct wbsim_sys_call *c);

/*
 * wbsim_sys_open() - open(@path, O_CREAT): the inode, created with its
 * directories on first use, one opener more; NULL when the filesystem has
 * no inode left
 */
struct wbsim_inode *wbsim_sys_open(struct wbsim_machine *m, const char *path);
/* wbsim_sys_close() - close(2): the filesystem hears the last close (XFS
 * trims its speculative preallocation, ext4 discards its preallocations). */
void wbsim_sys_close(struct wbsim_machine *m, struct wbsim_inode *inode);
/* wbsim_sys_ftruncate() - ftruncate(2) to @size bytes. */
void wbsim_sys_ftruncate(struct wbsim_machine *m, struct wbsim_inode *inode, uint64_t size);
/*
 * wbsim_sys_fallocate() - fallocate(2) of @len bytes from 0, mode 0 (the
 * size grows to @len) or FALLOC_FL_KEEP_SIZE (@keep_size): unwritten
 * extents. FALSE when the filesystem cannot (-ENOSPC).
 */
gboolean wbsim_sys_fallocate(struct wbsim_machine *m, struct wbsim_inode *inode, uint64_t len,
			     bool keep_size);
/*
 * wbsim_sys_fsync() - vfs_fsync() of the whole file
 * (file_write_and_wait_range(): WB_SYNC_ALL writeback of its dirty pages
 * from the calling task, then the wait for every page under writeback);
 * @inode NULL: a file never opened, nothing to do. fdatasync(2) is the
 * same call here (the inode's metadata is not modelled).
 */
void wbsim_sys_fsync(struct wbsim_sys_call *c, struct wbsim_inode *inode,
		     void (*done)(void *arg), void *arg);
/*
 * wbsim_sys_fadvise_dontneed() - posix_fadvise(POSIX_FADV_DONTNEED) of
 * @len bytes from byte @off (generic_fadvise(): WB_SYNC_NONE writeback of
 * the range from the calling task, no wait, then the clean pages leave
 * the cache, each released on the task)
 */
void wbsim_sys_fadvise_dontneed(struct wbsim_sys_call *c, struct wbsim_inode *inode,
				uint64_t off, uint64_t len, void (*done)(void *arg), void *arg);

/*
 * wbsim_sys_cgroup_mkdir() - mkdir(2) of cgroup @path ("/e7/a") and its
 * missing parents, no limits; an existing one is no error (fio's
 * cgroup_add_pid() takes EEXIST so). Return: its memcg, or NULL with
 * @error ("cgroup /x: ..." as wbsim_cgroup_mkdir() says).
 */
struct wbsim_memcg *wbsim_sys_cgroup_mkdir(struct wbsim_machine *m, const char *path,
					   GError **error);
/*
 * wbsim_sys_cgroup_attach() - the task of @d writes its pid to @memcg's
 * cgroup.procs (NULL: the root's): what it dirties from now on is charged
 * there. A task in no cgroup yet, or in the root, moving to the root:
 * nothing happens.
 */
void wbsim_sys_cgroup_attach(struct wbsim_machine *m, struct wbsim_dirtier *d,
			     struct wbsim_memcg *memcg);
/*
 * wbsim_sys_cgroup_rmdir() - rmdir(2) of cgroup @path: its memcg goes
 * offline and its wbs are killed. FALSE when there is none, or when it
 * is busy (tasks or children in it: -EBUSY).
 */
gboolean wbsim_sys_cgroup_rmdir(struct wbsim_machine *m, const char *path);

/*
 * wbsim_sys_write_frozen() - a write about to enter a filesystem that a
 * writeback-contexts change froze (sb_start_write()): TRUE when it must
 * wait, and @fn(@arg) runs at the thaw (to try again).
 */
gboolean wbsim_sys_write_frozen(struct wbsim_machine *m, wbsim_event_fn fn, void *arg);
/*
 * wbsim_sys_pwrite_direct() - pwrite(2) of @len bytes at @off on a file
 * opened O_DIRECT, by @task (iomap's direct I/O: wbsim_iomap_dio_write()):
 * @submitted runs when its last bio is submitted (the task may issue its
 * next write), @done when the write is complete.
 */
void wbsim_sys_pwrite_direct(struct wbsim_machine *m, wbsim_task *task,
			     struct wbsim_inode *inode, uint64_t off, uint64_t len,
			     wbsim_event_fn submitted, wbsim_dio_done_fn done, void *arg);
/*
 * wbsim_sys_write() - the kernel's part of one buffered write(2) of @len
 * bytes at @off by the task of @d, at @at: ->write_iter's timestamp
 * update and generic_perform_write() (mm/filemap.c); *@throttle: whether
 * balance_dirty_pages() is due after it. Return: its CPU cost; *@fs_cost
 * the filesystem's part of it (under its write lock).
 */
wbsim_time_t wbsim_sys_write(struct wbsim_machine *m, struct wbsim_dirtier *d,
			     struct wbsim_inode *inode, uint64_t off, uint64_t len,
			     wbsim_time_t at, bool *throttle, wbsim_time_t *fs_cost);

/**
 * struct wbsim_sys_uring - the kernel side of one io_uring of buffered
 *	writes: the submitting task's and the io-wq worker's
 * @nowait: the filesystem takes IOCB_NOWAIT buffered writes
 *	(FOP_BUFFER_WASYNC: XFS), so a write is tried inline first
 * @submitter: the dirty state of the submitting task (current->nr_dirtied
 *	of the inline attempts; its CPU work runs on the worker's task, one
 *	serial writer); the worker's is the caller's
 * @pending_punted: the write held back failed inline: the worker writes it
 * @pending_time_punt: and it was punted for a timestamp update
 * @pending_punted_looked: the worker's throttle look for it was taken
 * @punts: writes punted to io-wq after -EAGAIN
 * @time_punts: of which for a timestamp update
 */
struct wbsim_sys_uring {
	bool nowait;
	struct wbsim_dirtier *submitter;
	bool pending_punted;
	bool pending_time_punt;
	bool pending_punted_looked;
	uint64_t punts;
	uint64_t time_punts;
};

/* An io_uring on @m whose submitter's dirty state is @submitter. */
void wbsim_sys_uring_init(struct wbsim_sys_uring *r, struct wbsim_machine *m,
			  struct wbsim_dirtier *submitter);
/*
 * wbsim_sys_uring_nowait_write() - one buffered write on a ring whose
 * filesystem takes IOCB_NOWAIT ones, at iodepth 1: tried inline by the
 * submitter, punted to the io-wq worker of @worker when it would block
 * (see sys.c). *@wq_throttle, writing nothing: the worker must throttle
 * before the punted write (the caller runs it, then asks again).
 * Return: the CPU cost, all serial; *@fs_cost the filesystem's part.
 */
wbsim_time_t wbsim_sys_uring_nowait_write(struct wbsim_sys_uring *r, struct wbsim_machine *m,
					  struct wbsim_dirtier *worker, struct wbsim_inode *inode,
					  uint64_t off, uint64_t len, wbsim_time_t at,
					  bool *wq_throttle, wbsim_time_t *fs_cost);

#endif /* WBSIM_MACHINE_SYS_H */
