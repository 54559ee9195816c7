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
 * The door: open, close, ftruncate, fallocate, fsync, fdatasync,
 * fadvise(DONTNEED), the cgroup filesystem's mkdir, rmdir and
 * cgroup.procs, an O_DIRECT pwrite(2), and a buffered write(2) in the
 * steps the kernel takes it (wbsim_sys_write_*(): the wait on a frozen
 * filesystem, inode_lock(), write_begin's folio lock, ext4's free-space
 * push, the delalloc reservation and its -ENOSPC flush, the copy and
 * the dirtying, the filesystem's ILOCK part, the dirty throttle that
 * balance_dirty_pages_ratelimited() runs before the call returns,
 * inode_unlock()), by write(2) or by io_uring (its inline attempt with
 * IOCB_NOWAIT and the punt to io-wq). The caller (lib/fio) strings the
 * steps together: it batches the writes of one file under one
 * inode_lock() where no other task could tell (fio/job.c says when), so
 * each step is a call of its own.
 */
#ifndef WBSIM_MACHINE_SYS_H
#define WBSIM_MACHINE_SYS_H

#include "machine/machine.h"
#include "fs/direct-io.h"
#include "mm/page-writeback.h"

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
 * @resume: a buffered write's step that slept: where it goes on, with
 *	@resume_arg
 * @wait_since: when the step began to sleep (the task's lock_wait_ns)
 * @cleared_space: xfs_file_buffered_write()'s cleared_space: the write
 *	has had its flush after -ENOSPC (a second one fails it)
 * @nonda_switched: the write's ext4_nonda_switch() push was made and
 *	waited for
 * @flush: the write's place among the waiters of the -ENOSPC flush
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
	wbsim_event_fn resume;
	void *resume_arg;
	wbsim_time_t wait_since;
	bool cleared_space;
	bool nonda_switched;
	struct wbsim_flush_waiter flush;
};

/* The kernel side of @task's calls on @m; wbsim_sys_call_clear() frees it. */
void wbsim_sys_call_init(struct wbsim_sys_call *c, struct wbsim_machine *m, wbsim_task *task);
void wbsim_sys_call_clear(struct wbsim_sys_call *c);
/*
 * wbsim_sys_copy_process() - the dirty-throttle state @d of a new task
 * @task, as copy_process() starts it (nr_dirtied 0, nr_dirtied_pause 32
 * pages, dirty_paused_when 0), in the root cgroup. A process may keep
 * two on one task: an io_uring job's inline attempts count the fio
 * thread's dirtying apart from its io-wq worker's.
 */
void wbsim_sys_copy_process(struct wbsim_dirtier *d, wbsim_task *task);

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

/*
 * The steps of one buffered write(2) after wbsim_sys_write_frozen(), in
 * the kernel's order (xfs_file_buffered_write(), ext4_buffered_write_iter(),
 * generic_perform_write()):
 *
 *   wbsim_sys_write_inode_lock()          inode_lock(): i_rwsem, exclusive
 *   (or wbsim_sys_write_inode_trylock())  (IOCB_NOWAIT: or -EAGAIN)
 *   (or wbsim_sys_write_enter())          (after the entry, on a CPU)
 *   wbsim_sys_write_folio_locked() /
 *   wbsim_sys_write_wait_folio_lock()     write_begin's folio lock
 *   wbsim_sys_write_free_space_low() /
 *   wbsim_sys_write_nonda_switch()        ext4_da_write_begin()'s push
 *   wbsim_sys_write_reserve_delalloc()    iomap_begin's reservation
 *   wbsim_sys_write_enospc()              its -ENOSPC: flush, free, retry
 *   wbsim_sys_write()                     the copy, the dirtying: its CPU
 *   wbsim_sys_write_ilock() /
 *   wbsim_sys_write_iunlock()             the filesystem's part of that
 *                                         CPU under its lock (XFS: ILOCK)
 *   wbsim_sys_write_balance_dirty_pages() the throttle, when the write
 *                                         found it due, still under i_rwsem
 *   wbsim_sys_write_inode_unlock()        inode_unlock(), and the return
 *
 * The steps that may sleep take the task's struct wbsim_sys_call and a
 * continuation @resume(sim, @arg); they return TRUE when the task sleeps
 * (@resume runs when it wakes), FALSE, calling nothing, when it goes on.
 */

/* inode_lock() of ->write_iter: take @inode's i_rwsem for the task of @c,
 * then @resume(sim, @arg) (wbsim_file_write_lock()). */
void wbsim_sys_write_inode_lock(struct wbsim_sys_call *c, struct wbsim_inode *inode,
				wbsim_event_fn resume, void *arg);
/* IOCB_NOWAIT's inode lock (io_uring's inline attempt): true with
 * @inode's i_rwsem held by the task of @c, false when another holds it
 * (wbsim_file_write_trylock()). */
bool wbsim_sys_write_inode_trylock(struct wbsim_sys_call *c, struct wbsim_inode *inode);
/*
 * wbsim_sys_write_enter() - the system call's entry (syscall_entry_ns) on
 * the task's CPU, then wbsim_sys_write_inode_lock() from there, the task
 * keeping its CPU: where other tasks write @inode too, the writer asks
 * for i_rwsem only once in the kernel, as it does. The caller takes the
 * entry out of the write's own cost.
 */
void wbsim_sys_write_enter(struct wbsim_sys_call *c, struct wbsim_inode *inode,
			   wbsim_event_fn resume, void *arg);
/* inode_unlock() at the end of ->write_iter. Return: the CPU time the task
 * of @c spends waking a writer that slept on i_rwsem (the caller runs it). */
wbsim_time_t wbsim_sys_write_inode_unlock(struct wbsim_sys_call *c, struct wbsim_inode *inode);
/* Would write_begin of @len bytes at @pos wait for a folio that writeback
 * holds locked? (nothing changes) */
bool wbsim_sys_write_folio_locked(struct wbsim_machine *m, const struct wbsim_inode *inode,
				  uint64_t pos, uint64_t len);
/*
 * wbsim_sys_write_wait_folio_lock() - write_begin's __filemap_get_folio()
 * with FGP_LOCK: when writeback holds a folio of the write locked, the
 * task sleeps until folio_unlock() (the sleep counts in its lock_wait_ns)
 */
bool wbsim_sys_write_wait_folio_lock(struct wbsim_sys_call *c, struct wbsim_inode *inode,
				     uint64_t pos, uint64_t len, wbsim_event_fn resume, void *arg);
/*
 * wbsim_sys_write_free_space_low() - ext4_nonda_switch()'s test: are the
 * filesystem's delayed allocations near its free space (the model's
 * ->free_space_writeback; FALSE without one)? FALSE too once the write
 * of @c made its push. Nothing changes.
 */
bool wbsim_sys_write_free_space_low(const struct wbsim_sys_call *c);
/*
 * wbsim_sys_write_nonda_switch() - ext4_nonda_switch()'s push, once per
 * write (@c->nonda_switched): try_to_writeback_inodes_sb() of every dirty
 * inode, reason fs_free_space, and the wait for it (the sleep counts in
 * the task's lock_wait_ns). FALSE when nothing was queued (the flusher
 * writes already): the write goes on at once.
 */
bool wbsim_sys_write_nonda_switch(struct wbsim_sys_call *c, wbsim_event_fn resume, void *arg);
/*
 * wbsim_sys_write_reserve_delalloc() - would the delalloc reservation of
 * the write of @len bytes at @pos succeed now (iomap_begin's
 * xfs_bmapi_reserve_delalloc(): the model's ->write_space; TRUE without
 * one)? FALSE: -ENOSPC. TRUE ends the write's checks: its next -ENOSPC
 * and free-space push are a new write's.
 */
bool wbsim_sys_write_reserve_delalloc(struct wbsim_sys_call *c, struct wbsim_inode *inode,
				      uint64_t pos, uint64_t len);
/*
 * wbsim_sys_write_enospc() - xfs_file_buffered_write()'s answer to
 * -ENOSPC, once per write: xfs_flush_inodes() (sync_inodes_sb() of every
 * dirty inode, WB_SYNC_ALL, reason sync; a writer that finds one under
 * way waits for it), then xfs_blockgc_free_space() (the speculative
 * preallocations), then @resume to retry. FALSE, calling nothing, on the
 * second -ENOSPC of the write: it fails (fio ends the job with err=28).
 */
bool wbsim_sys_write_enospc(struct wbsim_sys_call *c, wbsim_event_fn resume, void *arg);
/*
 * wbsim_sys_write_ilock() - take the lock the filesystem holds for its
 * part of a buffered write of @inode (XFS: the ILOCK, exclusive), then
 * @resume(sim, @arg) from an event. FALSE, calling nothing, when the
 * model has no such lock.
 */
bool wbsim_sys_write_ilock(struct wbsim_sys_call *c, struct wbsim_inode *inode,
			   wbsim_event_fn resume, void *arg);
/* Release what wbsim_sys_write_ilock() took. */
void wbsim_sys_write_iunlock(struct wbsim_sys_call *c, struct wbsim_inode *inode);
/*
 * wbsim_sys_write_balance_dirty_pages() - the throttle a write of @inode
 * by the task of @d found due (wbsim_sys_write()'s *throttle): the sleep
 * of balance_dirty_pages_ratelimited() before write(2) returns, against
 * the wb of the task's own memcg; nothing for an inode with no wb (the
 * flusher cleaned and detached it since). TRUE when the task sleeps.
 */
bool wbsim_sys_write_balance_dirty_pages(struct wbsim_sys_call *c, struct wbsim_dirtier *d,
					 struct wbsim_inode *inode, wbsim_event_fn resume,
					 void *arg);
/*
 * wbsim_sys_write_prefetch() - no system call: a hint to the host that
 * runs the simulation, no state changes. Start loading what the write
 * of @inode at @pos that comes next will touch, its page-cache words and,
 * with @fs_map, the filesystem's map where its write hook looks (a write
 * in a later event: in the same one the load would not land in time).
 */
void wbsim_sys_write_prefetch(struct wbsim_machine *m, const struct wbsim_inode *inode,
			      uint64_t pos, bool fs_map);

/**
 * struct wbsim_sys_uring - the kernel side of one io_uring of buffered
 *	writes: the submitting task's and the io-wq worker's
 * @nowait: the filesystem takes IOCB_NOWAIT buffered writes
 *	(FOP_BUFFER_WASYNC: XFS), so a write is tried inline first
 * @depth: the writes the submitter keeps in flight (fio's iodepth)
 * @submitter: the dirty state of the submitting task (current->nr_dirtied
 *	of the inline attempts); the worker's is the caller's
 * @pending_punted: the write held back failed inline: the worker writes it
 * @pending_time_punt: and it was punted for a timestamp update
 * @pending_punted_looked: the worker's throttle look for it was taken
 * @punts: writes punted to io-wq after -EAGAIN
 * @time_punts: of which for a timestamp update (in two lanes every
 *	attempt fails for it until the worker's write has made it)
 * @worker_wakes: punts that woke the idle io-wq worker onto another CPU
 * @spare_wakes: punts that woke io-wq's second worker (job-uring-wq.c),
 *	onto any CPU
 */
struct wbsim_sys_uring {
	bool nowait;
	unsigned int depth;
	struct wbsim_dirtier *submitter;
	bool pending_punted;
	bool pending_time_punt;
	bool pending_punted_looked;
	uint64_t punts;
	uint64_t time_punts;
	uint64_t worker_wakes;
	uint64_t spare_wakes;
};

/* An io_uring on @m of @depth writes in flight whose submitter's dirty
 * state is @submitter. */
void wbsim_sys_uring_init(struct wbsim_sys_uring *r, struct wbsim_machine *m,
			  struct wbsim_dirtier *submitter, unsigned int depth);
/* Is each write on @r tried inline first, one at a time (a filesystem
 * with IOCB_NOWAIT buffered writes at depth 1: wbsim_sys_uring_nowait_write())? */
bool wbsim_sys_uring_inline_first(const struct wbsim_sys_uring *r);
/* Does a write on @r go to io-wq without an inline attempt (a filesystem
 * without IOCB_NOWAIT buffered writes)? */
bool wbsim_sys_uring_punts(const struct wbsim_sys_uring *r);
/*
 * wbsim_sys_uring_two_lanes() - does @r write in two lanes: a filesystem
 * with IOCB_NOWAIT buffered writes at a @depth above 1, where the
 * submitter tries each write inline while the io-wq worker runs the
 * punted ones (lib/fio/job-uring-wq.c), both under the file's i_rwsem?
 */
bool wbsim_sys_uring_two_lanes(const struct wbsim_sys_uring *r);

/* Why an inline attempt fails before it writes (-EAGAIN) */
enum wbsim_uring_eagain {
	WBSIM_URING_INLINE,		/* it does not: the write runs inline */
	WBSIM_URING_EAGAIN_LOCK,	/* i_rwsem's trylock (the IOLOCK) failed */
	WBSIM_URING_EAGAIN_TIME,	/* kiocb_modified(): timestamps due */
	WBSIM_URING_EAGAIN_ILOCK,	/* iomap_begin's trylock of XFS's ILOCK */
	WBSIM_URING_EAGAIN_THROTTLE,	/* BDP_ASYNC: the submitter would pause */
	WBSIM_URING_EAGAIN_FOLIO,	/* FGP_NOWAIT: writeback holds the folio locked */
};
/*
 * wbsim_sys_uring_inline_eagain() - with i_rwsem held by the submitter
 * of a two-lane ring, does its inline attempt at @at fail before it
 * writes (a timestamp update due, the filesystem's write lock busy, or
 * BDP_ASYNC's pause of @r->submitter)?
 * WBSIM_URING_INLINE when it goes on to write.
 */
enum wbsim_uring_eagain wbsim_sys_uring_inline_eagain(struct wbsim_sys_uring *r,
						       struct wbsim_machine *m,
						       struct wbsim_inode *inode, wbsim_time_t at);
/*
 * wbsim_sys_uring_write() - io_write() of one buffered write on a ring
 * that is neither tried inline one at a time nor in two lanes (a
 * filesystem without IOCB_NOWAIT buffered writes): the write as
 * wbsim_sys_write() makes it, by the io-wq worker of @worker, plus the
 * punt when wbsim_sys_uring_punts(): the submitter's part (uring_queue_ns)
 * and the worker's (uring_punt_ns). *@throttle and
 * *@fs_cost as wbsim_sys_write().
 */
wbsim_time_t wbsim_sys_uring_write(struct wbsim_sys_uring *r, struct wbsim_machine *m,
				   struct wbsim_dirtier *worker, struct wbsim_inode *inode,
				   uint64_t off, uint64_t len, wbsim_time_t at, bool *throttle,
				   wbsim_time_t *fs_cost);
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
