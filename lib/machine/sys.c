/* SPDX-License-Identifier: MIT */
/*
 * sys.c - the machine's system calls (machine/sys.h): what the kernel does
 * for a task that opens, closes, truncates, preallocates, syncs or drops
 * a file, or makes, enters and removes a cgroup, and the kernel's part of
 * a buffered write by write(2) or io_uring, with the model's mm and fs
 * doing the work.
 */
#include "machine/sys.h"
#include "fs/fs-glue.h"
#include "fs/fs-writeback.h"
#include "fs/wb-ctx-change.h"
#include "fs/cgroup-writeback.h"
#include "mm/page-cache.h"
#include "mm/memcontrol.h"
#include "mm/page-writeback.h"
#include "mm/filemap.h"
#include "fs/alloc/fs.h"
#include "core/cpus.h"
#include "core/sim.h"

void wbsim_sys_call_init(struct wbsim_sys_call *c, struct wbsim_machine *m, wbsim_task *task)
{
	*c = (struct wbsim_sys_call){ .m = m, .task = task };
}

void wbsim_sys_call_clear(struct wbsim_sys_call *c)
{
	wbsim_writepages_clear(&c->wp);
}

void wbsim_sys_copy_process(struct wbsim_dirtier *d, wbsim_task *task)
{
	wbsim_dirtier_init(d, task);
}

/* -- files ----------------------------------------------------------------- */

struct wbsim_inode *wbsim_sys_open(struct wbsim_machine *m, const char *path)
{
	gboolean created;
	struct wbsim_inode *inode = wbsim_machine_open(m, path, &created);

	if (inode)
		inode->openers++;
	return inode;
}

void wbsim_sys_close(struct wbsim_machine *m, struct wbsim_inode *inode)
{
	if (--inode->openers == 0)
		wbsim_fs_close(m->fs, inode->fs_inode);
}

void wbsim_sys_ftruncate(struct wbsim_machine *m, struct wbsim_inode *inode, uint64_t size)
{
	wbsim_fs_truncate(m->fs, inode->fs_inode, size);
	inode->size = size;
}

gboolean wbsim_sys_fallocate(struct wbsim_machine *m, struct wbsim_inode *inode, uint64_t len,
			     bool keep_size)
{
	GError *e = NULL;

	if (wbsim_fs_fallocate(m->fs, inode->fs_inode, 0, len, &e) == G_MAXUINT64) {
		g_clear_error(&e);
		return FALSE;
	}
	if (!keep_size)
		inode->size = len;
	return TRUE;
}

/* -- writeback by the calling task: fsync, fadvise(DONTNEED) ---------------- */

static void sys_return(wbsim_sim *sim, void *arg)
{
	struct wbsim_sys_call *c = arg;

	(void)sim;
	c->done(c->arg);
}

/* The task's writepages submitted its last request. */
static void sys_writeback_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_sys_call *c = arg;
	struct wbsim_machine *m = c->m;
	uint64_t dropped;

	if (c->sync) {
		/* fsync: filemap_fdatawait() for every page under writeback */
		if (c->inode->nr_writeback) {
			wbsim_inode_wait(c->inode, WAIT_WRITEBACK_DONE, sys_return, c);
			return;
		}
		sys_return(sim, c);
		return;
	}
	/* DONTNEED: clean pages leave the cache (and their memcgs). */
	if (c->inode->page_memcg)
		wbsim_cgwb_pages_dropped(c->inode, c->first, c->nr);
	dropped = wbsim_page_cache_invalidate(&c->inode->pages, c->first, c->nr);
	/* mapping_try_invalidate() releases each dropped folio on this task */
	if (dropped && m->costs.invalidate_page_ns) {
		wbsim_cpus_run(m->cpus, c->task, dropped * m->costs.invalidate_page_ns,
			       sys_return, c);
		return;
	}
	sys_return(sim, c);
}

void wbsim_sys_fsync(struct wbsim_sys_call *c, struct wbsim_inode *inode,
		     void (*done)(void *arg), void *arg)
{
	c->inode = inode;
	c->sync = true;
	c->done = done;
	c->arg = arg;
	if (!inode || (!inode->wb && inode->nr_writeback == 0)) {
		done(arg);
		return;
	}
	c->wbc = (struct wbsim_wbc){
		.nr_to_write = WBSIM_LONG_MAX,
		.sync_mode = WB_SYNC_ALL,
		.range_cyclic = false,
	};
	if (inode->wb && wbsim_inode_nr_dirty(inode))
		wbsim_do_writepages(&c->wp, inode, &c->wbc, c->task, -1, sys_writeback_done, c);
	else
		sys_writeback_done(c->m->sim, c);
}

void wbsim_sys_fadvise_dontneed(struct wbsim_sys_call *c, struct wbsim_inode *inode,
				uint64_t off, uint64_t len, void (*done)(void *arg), void *arg)
{
	c->inode = inode;
	c->sync = false;
	c->first = off / WBSIM_PAGE_SIZE;
	c->nr = (len + WBSIM_PAGE_SIZE - 1) / WBSIM_PAGE_SIZE;
	c->done = done;
	c->arg = arg;
	if (!inode->wb || wbsim_inode_nr_dirty(inode) == 0) {
		sys_writeback_done(c->m->sim, c);
		return;
	}
	c->wbc = (struct wbsim_wbc){
		.nr_to_write = WBSIM_LONG_MAX,
		.sync_mode = WB_SYNC_NONE,
		.range_cyclic = false,
	};
	wbsim_do_writepages(&c->wp, inode, &c->wbc, c->task, -1, sys_writeback_done, c);
}

/* -- the cgroup filesystem -------------------------------------------------- */

struct wbsim_memcg *wbsim_sys_cgroup_mkdir(struct wbsim_machine *m, const char *path,
					   GError **error)
{
	struct wbsim_memcg *memcg = wbsim_memcg_lookup(&m->vm.memcgs, path);

	return memcg ? memcg : wbsim_cgroup_mkdir(&m->bdi, path, UINT64_MAX, UINT64_MAX, error);
}

void wbsim_sys_cgroup_attach(struct wbsim_machine *m, struct wbsim_dirtier *d,
			     struct wbsim_memcg *memcg)
{
	struct wbsim_memcg *root = m->vm.memcgs.root;

	if (!memcg && (!d->memcg || d->memcg == root))
		return;
	wbsim_dirtier_set_memcg(d, memcg ? memcg : root);
}

gboolean wbsim_sys_cgroup_rmdir(struct wbsim_machine *m, const char *path)
{
	struct wbsim_memcg *memcg = wbsim_memcg_lookup(&m->vm.memcgs, path);
	GError *e = NULL;

	if (!memcg)
		return FALSE;
	if (!wbsim_cgroup_rmdir(&m->bdi, memcg, &e)) {
		g_clear_error(&e);	/* busy: other tasks are in it */
		return FALSE;
	}
	return TRUE;
}

/* -- writes: a frozen filesystem, O_DIRECT, write(2), io_uring --------------- */

gboolean wbsim_sys_write_frozen(struct wbsim_machine *m, wbsim_event_fn fn, void *arg)
{
	return wbsim_bdi_wait_if_frozen(&m->bdi, fn, arg);
}

void wbsim_sys_pwrite_direct(struct wbsim_machine *m, wbsim_task *task,
			     struct wbsim_inode *inode, uint64_t off, uint64_t len,
			     wbsim_event_fn submitted, wbsim_dio_done_fn done, void *arg)
{
	(void)m;
	wbsim_iomap_dio_write(inode, task, off, len, submitted, done, arg);
}

wbsim_time_t wbsim_sys_write(struct wbsim_machine *m, struct wbsim_dirtier *d,
			     struct wbsim_inode *inode, uint64_t off, uint64_t len,
			     wbsim_time_t at, bool *throttle, wbsim_time_t *fs_cost)
{
	/* ->write_iter's checks first: the timestamps (under the ILOCK) */
	wbsim_time_t update = wbsim_file_update_time(inode, at);
	wbsim_time_t cost = wbsim_generic_perform_write(inode, d, off, len, throttle, fs_cost);

	(void)m;
	*fs_cost += update;
	return cost + update;
}

/* -- a buffered write's steps (sys.h lists them) ------------------------------ */

void wbsim_sys_write_inode_lock(struct wbsim_sys_call *c, struct wbsim_inode *inode,
				wbsim_event_fn resume, void *arg)
{
	wbsim_file_write_lock(inode, c->task, resume, arg);
}

bool wbsim_sys_write_inode_trylock(struct wbsim_sys_call *c, struct wbsim_inode *inode)
{
	return wbsim_file_write_trylock(inode, c->task);
}

static void sys_write_entered(wbsim_sim *sim, void *arg)
{
	struct wbsim_sys_call *c = arg;

	(void)sim;
	wbsim_sys_write_inode_lock(c, c->inode, c->resume, c->resume_arg);
}

void wbsim_sys_write_enter(struct wbsim_sys_call *c, struct wbsim_inode *inode,
			   wbsim_event_fn resume, void *arg)
{
	c->inode = inode;
	c->resume = resume;
	c->resume_arg = arg;
	wbsim_cpus_run_on(c->m->cpus, c->task, c->m->costs.syscall_entry_ns, sys_write_entered, c);
}

wbsim_time_t wbsim_sys_write_inode_unlock(struct wbsim_sys_call *c, struct wbsim_inode *inode)
{
	return wbsim_file_write_unlock(inode, c->task);
}

bool wbsim_sys_write_folio_locked(struct wbsim_machine *m, const struct wbsim_inode *inode,
				  uint64_t pos, uint64_t len)
{
	(void)m;
	return wbsim_filemap_folio_locked(inode, pos, len);
}

/* A step of the write slept: the task wakes, its sleep counted as a wait
 * for a lock (the folio's, or the writeback it asked for), and goes on. */
static void sys_write_woken(wbsim_sim *sim, void *arg)
{
	struct wbsim_sys_call *c = arg;

	c->task->lock_wait_ns += wbsim_sim_now(sim) - c->wait_since;
	c->resume(sim, c->resume_arg);
}

static void sys_write_sleep(struct wbsim_sys_call *c, wbsim_event_fn resume, void *arg)
{
	c->resume = resume;
	c->resume_arg = arg;
	c->wait_since = wbsim_sim_now(c->m->sim);
}

bool wbsim_sys_write_wait_folio_lock(struct wbsim_sys_call *c, struct wbsim_inode *inode,
				     uint64_t pos, uint64_t len, wbsim_event_fn resume, void *arg)
{
	if (!wbsim_filemap_wait_folio_lock(inode, pos, len, sys_write_woken, c))
		return false;
	sys_write_sleep(c, resume, arg);
	return true;
}

bool wbsim_sys_write_free_space_low(const struct wbsim_sys_call *c)
{
	return !c->nonda_switched && wbsim_fs_free_space_writeback(c->m->fs);
}

bool wbsim_sys_write_nonda_switch(struct wbsim_sys_call *c, wbsim_event_fn resume, void *arg)
{
	struct wbsim_machine *m = c->m;

	c->nonda_switched = true;
	if (!wbsim_try_to_writeback_inodes_sb(&m->bdi, m->cgroups, WB_REASON_FS_FREE_SPACE,
					      sys_write_woken, c))
		return false;
	sys_write_sleep(c, resume, arg);
	return true;
}

bool wbsim_sys_write_reserve_delalloc(struct wbsim_sys_call *c, struct wbsim_inode *inode,
				      uint64_t pos, uint64_t len)
{
	if (!wbsim_fs_write_space(c->m->fs, inode->fs_inode, pos, len))
		return false;
	c->cleared_space = false;
	c->nonda_switched = false;
	return true;
}

/* The -ENOSPC flush is over: blockgc, then the write is tried again (still
 * under i_rwsem: the kernel drops it for blockgc and takes it back). */
static void sys_write_flushed(wbsim_sim *sim, void *arg)
{
	struct wbsim_sys_call *c = arg;

	wbsim_fs_free_space(c->m->fs);
	c->resume(sim, c->resume_arg);
}

bool wbsim_sys_write_enospc(struct wbsim_sys_call *c, wbsim_event_fn resume, void *arg)
{
	struct wbsim_machine *m = c->m;

	if (c->cleared_space)
		return false;
	c->cleared_space = true;
	c->resume = resume;
	c->resume_arg = arg;
	c->flush.fn = sys_write_flushed;
	c->flush.arg = c;
	wbsim_flush_inodes(&m->flush_inodes, &m->bdi, m->inodes, m->cgroups, &c->flush);
	return true;
}

bool wbsim_sys_write_ilock(struct wbsim_sys_call *c, struct wbsim_inode *inode,
			   wbsim_event_fn resume, void *arg)
{
	return wbsim_fs_write_lock(c->m->fs, inode->fs_inode, c->task, resume, arg);
}

void wbsim_sys_write_iunlock(struct wbsim_sys_call *c, struct wbsim_inode *inode)
{
	wbsim_fs_write_unlock(c->m->fs, inode->fs_inode, c->task);
}

/* The throttle of a write by @d: *@called when there was a wb to throttle
 * against. TRUE when the task sleeps. */
static bool sys_balance_dirty_pages(struct wbsim_sys_call *c, struct wbsim_dirtier *d,
				    struct wbsim_inode *inode, wbsim_event_fn resume, void *arg,
				    bool *called)
{
	*called = inode->wb != NULL;
	if (!inode->wb)
		return false;
	/* the task throttles against its own memcg's wb */
	return !wbsim_dirtier_balance_dirty_pages(d, wbsim_dirtier_wb(&c->m->bdi, inode, d->memcg),
						  resume, arg);
}

bool wbsim_sys_write_balance_dirty_pages(struct wbsim_sys_call *c, struct wbsim_dirtier *d,
					 struct wbsim_inode *inode, wbsim_event_fn resume,
					 void *arg)
{
	bool called;

	return sys_balance_dirty_pages(c, d, inode, resume, arg, &called);
}

void wbsim_sys_write_prefetch(struct wbsim_machine *m, const struct wbsim_inode *inode,
			      uint64_t pos, bool fs_map)
{
	wbsim_page_cache_prefetch(&inode->pages, pos / WBSIM_PAGE_SIZE);
	if (fs_map)
		wbsim_fs_prefetch_write(m->fs, inode->fs_inode, pos);
}

/* -- io_uring ---------------------------------------------------------------- */

void wbsim_sys_uring_init(struct wbsim_sys_uring *r, struct wbsim_machine *m,
			  struct wbsim_dirtier *submitter, unsigned int depth)
{
	*r = (struct wbsim_sys_uring){
		.nowait = wbsim_fs_nowait_buffered_write(m->fs),
		.depth = depth,
		.submitter = submitter,
	};
}

bool wbsim_sys_uring_inline_first(const struct wbsim_sys_uring *r)
{
	return r->nowait && r->depth <= 1;
}

bool wbsim_sys_uring_punts(const struct wbsim_sys_uring *r)
{
	return !r->nowait;
}

bool wbsim_sys_uring_two_lanes(const struct wbsim_sys_uring *r)
{
	return r->nowait && r->depth > 1;
}

/*
 * The inline attempt of a two-lane ring fails before it writes: a
 * timestamp update is due (kiocb_modified() under IOCB_NOWAIT, before
 * iomap_begin), iomap_begin's trylock of the filesystem's lock fails
 * (XFS's ILOCK, held shared by the flusher's mapping or by another
 * writer), or balance_dirty_pages_ratelimited_flags() with BDP_ASYNC
 * would pause the submitter (after iomap_begin reserved: iomap_end
 * punches it out again). Counts a timestamp punt.
 */
enum wbsim_uring_eagain wbsim_sys_uring_inline_eagain(struct wbsim_sys_uring *r,
						       struct wbsim_machine *m,
						       struct wbsim_inode *inode, wbsim_time_t at)
{
	struct wbsim_dirtier *sub = r->submitter;
	struct wbsim_bdi *bdi = &m->bdi;
	enum wbsim_uring_eagain e = WBSIM_URING_INLINE;

	if (wbsim_inode_needs_update_time(inode, at)) {
		e = WBSIM_URING_EAGAIN_TIME;
		r->time_punts++;
	} else if (wbsim_fs_write_lock_busy(m->fs, inode->fs_inode)) {
		e = WBSIM_URING_EAGAIN_ILOCK;
	} else if (inode->wb) {
		struct wbsim_wb *wb = wbsim_dirtier_wb(bdi, inode, sub->memcg);

		if (wbsim_dirtier_ratelimited(sub, wb) &&
		    wbsim_dirtier_balance_dirty_pages_async(sub, wb))
			e = WBSIM_URING_EAGAIN_THROTTLE;
	}
	return e;
}

wbsim_time_t wbsim_sys_uring_write(struct wbsim_sys_uring *r, struct wbsim_machine *m,
				   struct wbsim_dirtier *worker, struct wbsim_inode *inode,
				   uint64_t off, uint64_t len, wbsim_time_t at, bool *throttle,
				   wbsim_time_t *fs_cost)
{
	wbsim_time_t cost = wbsim_sys_write(m, worker, inode, off, len, at, throttle, fs_cost);

	/* the punt to io-wq: the submitter's part and the worker's (a
	 * two-task caller runs the first on the fio thread) */
	if (wbsim_sys_uring_punts(r))
		cost += m->costs.uring_queue_ns + m->costs.uring_punt_ns;
	return cost;
}

/*
 * io_write() issues the write with IOCB_NOWAIT; XFS's ->write_iter maps
 * it (xfs_buffered_write_iomap_begin: the lookup and, into a hole, the
 * delalloc reservation), then iomap_write_iter() calls
 * balance_dirty_pages_ratelimited_flags() with BDP_ASYNC, which returns
 * -EAGAIN where the throttle would sleep. iomap_end then punches the
 * reservation out again (xfs_buffered_write_iomap_end), io_write() returns
 * -EAGAIN and the write is queued to io-wq (io_queue_iowq), whose worker
 * runs it again without IOCB_NOWAIT: its own throttle look (it may sleep)
 * and the whole write. The submitter's throttle state is not reset by an
 * -EAGAIN, so its later writes are punted too until its pass computes no
 * pause. The writes of the two tasks dirty pages on their own counts
 * (current->nr_dirtied). A write that must update the file's timestamps
 * (the first of a tick, wbsim_inode_needs_update_time()) fails earlier:
 * kiocb_modified() returns -EAGAIN under IOCB_NOWAIT before iomap_begin,
 * and the worker makes the update and the write.
 * Left out: the other -EAGAINs of the inline attempt (the IOLOCK and
 * ILOCK trylocks, FGP_NOWAIT folios).
 */
wbsim_time_t wbsim_sys_uring_nowait_write(struct wbsim_sys_uring *r, struct wbsim_machine *m,
					  struct wbsim_dirtier *worker, struct wbsim_inode *inode,
					  uint64_t off, uint64_t len, wbsim_time_t at,
					  bool *wq_throttle, wbsim_time_t *fs_cost)
{
	const struct wbsim_cpu_costs *c = &m->costs;
	struct wbsim_bdi *bdi = &m->bdi;
	struct wbsim_dirtier *sub = r->submitter;
	bool punted = r->pending_punted;
	bool time_punt = r->pending_time_punt;
	wbsim_time_t cost, fs, update;

	*wq_throttle = false;
	*fs_cost = 0;
	r->pending_punted = false;
	r->pending_time_punt = false;
	if (!punted && wbsim_inode_needs_update_time(inode, at))
		punted = time_punt = true;
	/* the submitter shares the worker's cgroup */
	sub->memcg = worker->memcg;
	if (!punted && inode->wb &&
	    wbsim_dirtier_ratelimited(sub, wbsim_dirtier_wb(bdi, inode, sub->memcg)))
		punted = wbsim_dirtier_balance_dirty_pages_async(
			sub, wbsim_dirtier_wb(bdi, inode, sub->memcg));
	if (punted && !r->pending_punted_looked && inode->wb &&
	    wbsim_dirtier_ratelimited(worker, wbsim_dirtier_wb(bdi, inode, worker->memcg))) {
		r->pending_punted = true;
		r->pending_time_punt = time_punt;
		r->pending_punted_looked = true;
		*wq_throttle = true;
		return 0;
	}
	r->pending_punted_looked = false;
	/* the worker's write updates the timestamps if they are still stale
	 * (an inline write gets here only with them current) */
	update = wbsim_file_update_time(inode, at);
	cost = wbsim_generic_perform_write(inode, punted ? worker : sub, off, len, NULL, &fs);
	cost += update;
	if (punted && !time_punt) {
		/* the failed attempt: iomap_begin's walk and reservation and
		 * iomap_end's punch of it (the same walk, undoing what it
		 * reserved), the BDP_ASYNC pass */
		cost += 2 * fs + c->balance_dirty_pages_ns;
		fs += 2 * fs;
	}
	if (punted) {
		cost += c->uring_queue_ns + c->uring_punt_ns;	/* the punt to io-wq */
		r->punts++;
		r->time_punts += time_punt;
	}
	*fs_cost = fs + update;
	return cost;
}
