/* SPDX-License-Identifier: MIT */
/*
 * fs-writeback.c - the flusher of each writeback context: inode lists, works,
 * periodic (kupdate), background and sync writeback, and the per-inode
 * slices (kernel: fs/fs-writeback.c, v6.10 behaviour).
 *
 * The kernel runs wb_workfn() as one synchronous function on a kworker; here
 * the same control flow is a chain of events, because writing a slice costs
 * simulated CPU time, takes filesystem locks and waits for free device
 * tags. Each asynchronous step stores its state in struct wbsim_wb and
 * continues in the function named after the point of the kernel function it
 * resumes.
 *
 * Left out: several superblocks per bdi (one filesystem per device), the
 * s_umount trylock, lazytime (b_dirty_time), metadata inode writeback
 * (write_inode), the rescuer fallback, and laptop mode.
 */
#include "core/pid.h"
#include "core/timer-wheel.h"
#include "fs/fs-writeback.h"
#include "fs/fs-writeback-trace.h"
#include "fs/cgroup-writeback.h"
#include "mm/page-writeback.h"
#include "mm/dirty-limits.h"
#include "mm/bandwidth.h"
#include "mm/writeback-chunk.h"

static inline wbsim_time_t now_ns(const struct wbsim_wb *wb)
{
	return wbsim_sim_now(wb->bdi->sim);
}

/* ------------------------------------------------------------------------ */
/* Inode lists                                                              */

static struct wbsim_inode *inode_of(GList *link)
{
	return link ? (struct wbsim_inode *)((char *)link - G_STRUCT_OFFSET(struct wbsim_inode, io_link))
		    : NULL;
}

/* wb_io_lists_populated()/depopulated(): WB_has_dirty_io and the bdi's
 * tot_write_bandwidth follow whether any of b_dirty, b_io, b_more_io holds
 * an inode. */
static void wb_io_lists_changed(struct wbsim_wb *wb)
{
	bool has = wb->b_dirty.length || wb->b_io.length || wb->b_more_io.length;

	if (has == wb->has_dirty_io)
		return;
	wb->has_dirty_io = has;
	if (has)
		wb->bdi->dirty.tot_write_bandwidth += wb->bw.avg_write_bandwidth;
	else
		wb->bdi->dirty.tot_write_bandwidth -= wb->bw.avg_write_bandwidth;
}

static void inode_io_list_unlink(struct wbsim_inode *inode)
{
	if (inode->on_list) {
		g_queue_unlink(inode->on_list, &inode->io_link);
		inode->on_list = NULL;
	}
}

/* inode_io_list_move_locked(): put @inode at the head of @list. */
static void inode_io_list_move(struct wbsim_wb *wb, struct wbsim_inode *inode, GQueue *list)
{
	inode_io_list_unlink(inode);
	g_queue_push_head_link(list, &inode->io_link);
	inode->on_list = list;
	wb_io_lists_changed(wb);
}

/* Under an affinity that is not fixed for the inode's life, a clean inode
 * with no page under writeback and on no list is detached from its wb, so
 * that its next dirtying chooses a context again. */
void wbsim_inode_maybe_detach(struct wbsim_inode *inode)
{
	if (inode->wb && !(inode->bdi->affinity->flags & WBSIM_AFFINITY_FIXED) && !inode->on_list &&
	    !(inode->i_state & (I_SYNC | I_DIRTY_PAGES)) && inode->nr_writeback == 0 &&
	    wbsim_inode_nr_dirty(inode) == 0 && !inode->wb_switching) {
		inode->wb->nr_inodes--;
		inode->wb = NULL;
	}
}

/* inode_io_list_del() / inode_cgwb_move_to_attached(): the inode is
 * clean; a cgroup wb keeps it on b_attached (it still owns it), a root wb
 * on no list. */
static void inode_io_list_del(struct wbsim_wb *wb, struct wbsim_inode *inode)
{
	inode_io_list_unlink(inode);
	inode->i_state &= ~I_SYNC_QUEUED;
	if (wb->memcg && wb->memcg->parent) {
		g_queue_push_head_link(&wb->b_attached, &inode->io_link);
		inode->on_list = &wb->b_attached;
	}
	wb_io_lists_changed(wb);
}

void wbsim_wb_io_lists_changed(struct wbsim_wb *wb)
{
	wb_io_lists_changed(wb);
}

/* Put @inode on @wb's b_dirty at the place its dirtied_when gives (newest
 * at the head), as inode_do_switch_wbs() and a context change do. */
void wbsim_inode_io_list_insert_by_age(struct wbsim_wb *wb, struct wbsim_inode *inode)
{
	GList *l = wb->b_dirty.head;

	inode_io_list_unlink(inode);
	inode->i_state &= ~I_SYNC_QUEUED;
	while (l && inode_of(l)->dirtied_when > inode->dirtied_when)
		l = l->next;
	if (l) {
		/* insert before l */
		inode->io_link.prev = l->prev;
		inode->io_link.next = l;
		if (l->prev)
			l->prev->next = &inode->io_link;
		else
			wb->b_dirty.head = &inode->io_link;
		l->prev = &inode->io_link;
		wb->b_dirty.length++;
	} else {
		g_queue_push_tail_link(&wb->b_dirty, &inode->io_link);
	}
	inode->on_list = &wb->b_dirty;
	wb_io_lists_changed(wb);
}

/* The inode goes clean-attached on @wb (a switch of a clean inode). */
void wbsim_inode_io_list_attach(struct wbsim_wb *wb, struct wbsim_inode *inode)
{
	inode_io_list_del(wb, inode);
}

/* redirty_tail(): back to b_dirty as the newest inode; a timestamp older
 * than the newest dirty inode's is refreshed so b_dirty stays ordered. */
static void redirty_tail(struct wbsim_wb *wb, struct wbsim_inode *inode)
{
	if (wb->b_dirty.length) {
		struct wbsim_inode *newest = inode_of(wb->b_dirty.head);

		if (inode->dirtied_when < newest->dirtied_when)
			inode->dirtied_when = now_ns(wb);
	}
	inode_io_list_move(wb, inode, &wb->b_dirty);
	inode->i_state &= ~I_SYNC_QUEUED;
}

/* requeue_io(): next turn in this pass. */
static void requeue_io(struct wbsim_wb *wb, struct wbsim_inode *inode)
{
	inode_io_list_move(wb, inode, &wb->b_more_io);
}

/* ------------------------------------------------------------------------ */
/* Waking the flusher                                                       */

/* wb_wakeup_delayed(): run wb_workfn after dirty_writeback_interval unless
 * it is already due earlier (queue, do not modify); with the interval at
 * 0 (periodic writeback off) that is at once. queue_delayed_work() arms a
 * timer for jiffies + the interval in jiffies, and the timer wheel fires
 * it at the end of its bucket (wbsim_timer_wheel_expiry(): 5.12 s at
 * HZ=250 for the default 5 s). */
void wbsim_wb_wakeup_delayed(struct wbsim_wb *wb)
{
	struct wbsim_vm *vm = wb->bdi->vm;
	uint64_t now, delay;

	if (wbsim_timer_pending(&wb->dwork))
		return;
	if (!vm->dirty_writeback_ns) {
		wbsim_wb_wakeup(wb);
		return;
	}
	now = wbsim_jiffies(vm);
	delay = (vm->dirty_writeback_ns + vm->jiffy_ns - 1) / vm->jiffy_ns;	/* msecs_to_jiffies */
	wbsim_timer_arm(wb->bdi->sim, &wb->dwork,
			wbsim_jiffy_time(vm, wbsim_timer_wheel_expiry(now, now + delay,
								      vm->dirty.hz)));
}

/* wb_wakeup(): run wb_workfn now. */
void wbsim_wb_wakeup(struct wbsim_wb *wb)
{
	wbsim_timer_arm(wb->bdi->sim, &wb->dwork, now_ns(wb));
}

/* wb_queue_work(): append to the work list and wake the flusher. */
void wbsim_wb_queue_work(struct wbsim_wb *wb, struct wbsim_wb_work *work)
{
	wbsim_trace_writeback_work(wb, work, WBSIM_TRACE_WRITEBACK_QUEUE);
	g_queue_push_tail_link(&wb->work_list, &work->link);
	wbsim_wb_wakeup(wb);
}

/* One sync_inodes_sb() in flight (wbsim_sync_inodes_sb()). */
struct sync_sb {
	GList link;		/* in bdi->syncs while in flight */
	struct wbsim_bdi *bdi;
	GPtrArray *inodes;
	struct wbsim_wb_work *works;
	unsigned int outstanding;
	guint wait_next;
	wbsim_event_fn done;
	void *arg;
};

/* wait_sb_inodes(): after the works, wait for every inode that still has
 * pages under writeback, one after the other. */
static void sync_sb_wait_inodes(wbsim_sim *sim, void *arg)
{
	struct sync_sb *s = arg;

	while (s->inodes && s->wait_next < s->inodes->len) {
		struct wbsim_inode *inode = s->inodes->pdata[s->wait_next];

		if (inode->nr_writeback) {
			wbsim_inode_wait(inode, WAIT_WRITEBACK_DONE, sync_sb_wait_inodes, s);
			return;
		}
		s->wait_next++;
	}
	g_queue_unlink(&s->bdi->syncs, &s->link);
	s->done(sim, s->arg);
	g_free(s->works);
	g_free(s);
}

/* The syncs a run left in flight, once the wbs have let go of their works
 * (wbsim_bdi_clear()). */
void wbsim_sync_inodes_sb_free_all(struct wbsim_bdi *bdi)
{
	GList *l;

	while ((l = g_queue_pop_head_link(&bdi->syncs)) != NULL) {
		struct sync_sb *s = l->data;

		g_free(s->works);
		g_free(s);
	}
}

static int64_t get_nr_dirty_pages(struct wbsim_wb *wb);

/*
 * Models bdi_split_work_to_wbs(): a copy of @base to every wb of the bdi
 * with dirty IO (with cgroup writeback, every wb: the walk of
 * bdi->wb_list, where killed wbs stay until released), its nr_pages split
 * by the wb's share of the bandwidth; with @skip_if_busy not to a wb whose
 * flusher runs already (writeback_in_progress()); with @start_all each wb
 * first woken for a start-all pass (sync(2)). Returns the sync that
 * counts the works queued, holding the issuer's own reference in
 * @outstanding: the caller drops it; sync_sb_wait_inodes() runs when the
 * last work is over (and wait_sb_inodes() over @inodes, then @done).
 */
static struct sync_sb *bdi_split_work_to_wbs(struct wbsim_bdi *bdi, bool cgroups,
					     const struct wbsim_wb_work *base, bool skip_if_busy,
					     bool start_all, GPtrArray *inodes,
					     wbsim_event_fn done, void *arg)
{
	struct sync_sb *s = g_new0(struct sync_sb, 1);
	bool cg = cgroups && bdi->wb_list;
	unsigned int nr = cg ? bdi->wb_list->len : bdi->nr_wb_ctx;

	s->link.data = s;
	g_queue_push_tail_link(&bdi->syncs, &s->link);
	s->bdi = bdi;
	s->inodes = inodes;
	s->done = done;
	s->arg = arg;
	s->works = g_new0(struct wbsim_wb_work, nr);
	s->outstanding = 1;
	for (unsigned int i = 0; i < nr; i++) {
		struct wbsim_wb *wb = cg ? bdi->wb_list->pdata[i] : bdi->wb_ctx[i];

		if (start_all)
			wbsim_wb_start_writeback(wb, base->reason);
		if (!wb->has_dirty_io || (skip_if_busy && wb->writeback_running))
			continue;
		s->works[i] = *base;
		s->works[i].nr_pages = wbsim_wb_split_bdi_pages(base->nr_pages,
								wb->bw.avg_write_bandwidth,
								bdi->dirty.tot_write_bandwidth);
		s->works[i].done_fn = sync_sb_wait_inodes;
		s->works[i].done_arg = s;
		s->works[i].done_count = &s->outstanding;
		s->outstanding++;
		wbsim_wb_queue_work(wb, &s->works[i]);
	}
	return s;
}

/*
 * Models sync_inodes_sb(): a WB_SYNC_ALL work of @reason to every wb with
 * dirty IO, waited for, then wait_sb_inodes() over @inodes; @done(@arg)
 * runs at the end. With @start_all (sync(2)), every flusher is first woken
 * for a start-all pass.
 */
void wbsim_sync_inodes_sb(struct wbsim_bdi *bdi, GPtrArray *inodes, bool cgroups,
			  bool start_all, enum wbsim_wb_reason reason, wbsim_event_fn done,
			  void *arg)
{
	const struct wbsim_wb_work base = {
		.nr_pages = WBSIM_LONG_MAX,
		.sync_mode = WB_SYNC_ALL,
		.for_sync = true,
		.range_cyclic = false,
		.reason = reason,
	};
	struct sync_sb *s = bdi_split_work_to_wbs(bdi, cgroups, &base, false, start_all, inodes,
						  done, arg);

	/* the issuer's own reference */
	if (--s->outstanding == 0)
		sync_sb_wait_inodes(bdi->sim, s);
}

/*
 * Models try_to_writeback_inodes_sb() -> __writeback_inodes_sb_nr() with
 * skip_if_busy: a tagged WB_SYNC_NONE work of @reason for
 * get_nr_dirty_pages() pages, split over the wbs whose flusher is not
 * running already; the caller waits for them (wb_wait_for_completion()),
 * and @done(@arg) runs when they are over. Returns FALSE, and @done never
 * runs, when no work was queued.
 */
gboolean wbsim_try_to_writeback_inodes_sb(struct wbsim_bdi *bdi, bool cgroups,
					  enum wbsim_wb_reason reason, wbsim_event_fn done,
					  void *arg)
{
	const struct wbsim_wb_work base = {
		.nr_pages = get_nr_dirty_pages(bdi->wb_ctx[0]),
		.sync_mode = WB_SYNC_NONE,
		.tagged_writepages = true,
		.range_cyclic = false,
		.reason = reason,
	};

	struct sync_sb *s = bdi_split_work_to_wbs(bdi, cgroups, &base, true, false, NULL, done,
						  arg);

	if (--s->outstanding > 0)
		return TRUE;
	/* no work queued: no callback */
	g_queue_unlink(&bdi->syncs, &s->link);
	g_free(s->works);
	g_free(s);
	return FALSE;
}

static void flush_inodes_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_flush_inodes *f = arg;
	GQueue waiters = f->waiters;
	GList *l;

	f->running = false;
	g_queue_init(&f->waiters);
	while ((l = g_queue_pop_head_link(&waiters)) != NULL) {
		struct wbsim_flush_waiter *w = l->data;

		w->fn(sim, w->arg);
	}
}

void wbsim_flush_inodes(struct wbsim_flush_inodes *f, struct wbsim_bdi *bdi, GPtrArray *inodes,
			bool cgroups, struct wbsim_flush_waiter *w)
{
	w->link.data = w;
	w->link.prev = w->link.next = NULL;
	g_queue_push_tail_link(&f->waiters, &w->link);
	if (f->running)
		return;
	f->running = true;
	wbsim_sync_inodes_sb(bdi, inodes, cgroups, false, WB_REASON_SYNC, flush_inodes_done, f);
}

/* wb_start_writeback(): a start-all request (deduplicated). */
void wbsim_wb_start_writeback(struct wbsim_wb *wb, enum wbsim_wb_reason reason)
{
	if (!wb->has_dirty_io || wb->start_all)
		return;
	wb->start_all = true;
	wb->start_all_reason = reason;
	wbsim_wb_wakeup(wb);
}

/* wb_start_background_writeback(): balance_dirty_pages() found the domain
 * over its background threshold. */
void wbsim_wb_start_background_writeback(struct wbsim_wb *wb, const wbsim_task *task)
{
	wbsim_trace_writeback_wake_background(wb, task);
	wbsim_wb_wakeup(wb);
}

/* ------------------------------------------------------------------------ */
/* __mark_inode_dirty()                                                     */

/* __mark_inode_dirty(inode, I_DIRTY_PAGES): attach the inode to a wb
 * (through the affinity policy), timestamp it and put it at the head of
 * b_dirty when it goes clean -> dirty. */
void wbsim_mark_inode_dirty(struct wbsim_inode *inode, const wbsim_task *task,
			    struct wbsim_memcg *memcg)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_wb *wb;
	bool had_dirty_io;

	if (inode->i_state & I_DIRTY_PAGES)
		return;
	if (!inode->wb) {
		unsigned int ctx = wbsim_affinity_select(bdi, inode, task) % bdi->nr_wb_ctx;

		/* __inode_attach_wb(): the wb of the dirtier's memcg */
		inode->wb = wbsim_wb_get_create(bdi, ctx, memcg);
		inode->wb->nr_inodes++;
	}
	wb = inode->wb;
	inode->i_state |= I_DIRTY_PAGES;
	if (inode->i_state & I_SYNC_QUEUED)
		return;
	inode->dirtied_when = now_ns(wb);
	had_dirty_io = wb->has_dirty_io;
	inode_io_list_move(wb, inode, &wb->b_dirty);
	wbsim_trace_writeback_dirty_inode_enqueue(inode, task);
	if (!had_dirty_io)
		wbsim_wb_wakeup_delayed(wb);
}

/* ------------------------------------------------------------------------ */
/* queue_io()                                                               */

/* move_expired_inodes(): oldest first from the tail of b_dirty while
 * dirtied_when <= cutoff, to the head of b_io. */
static uint64_t move_expired_inodes(struct wbsim_wb *wb, int64_t cutoff)
{
	GQueue tmp = G_QUEUE_INIT;
	uint64_t moved = 0;
	GList *l;

	while ((l = wb->b_dirty.tail)) {
		struct wbsim_inode *inode = inode_of(l);

		if ((int64_t)inode->dirtied_when > cutoff)
			break;
		g_queue_unlink(&wb->b_dirty, l);
		g_queue_push_head_link(&tmp, l);
		inode->i_state |= I_SYNC_QUEUED;
		moved++;
	}
	/* list_splice(&tmp, &b_io): tmp goes in front of b_io. */
	while ((l = tmp.tail)) {
		g_queue_unlink(&tmp, l);
		g_queue_push_head_link(&wb->b_io, l);
		inode_of(l)->on_list = &wb->b_io;
	}
	return moved;
}

/* queue_io(): b_more_io joins b_io (served after b_io's leftovers), then
 * the expired dirty inodes are added. */
static void queue_io(struct wbsim_wb *wb, struct wbsim_wb_work *work, int64_t cutoff)
{
	GList *l;
	uint64_t moved;

	while ((l = wb->b_more_io.tail)) {
		g_queue_unlink(&wb->b_more_io, l);
		g_queue_push_head_link(&wb->b_io, l);
		inode_of(l)->on_list = &wb->b_io;
	}
	moved = move_expired_inodes(wb, cutoff);
	wb_io_lists_changed(wb);
	wbsim_trace_writeback_queue_io(wb, work, cutoff, moved);
}

/* ------------------------------------------------------------------------ */
/* wb_over_bg_thresh(), writeback_chunk_size()                              */

/* wb_over_bg_thresh(): the global domain, and the memcg domain of a
 * cgroup wb (either over its background threshold keeps writing). */
bool wbsim_wb_check_over_bg_thresh(struct wbsim_wb *wb)
{
	struct wbsim_vm *vm = wb->bdi->vm;
	struct wbsim_dtc gdtc = {
		.dom = &vm->dom,
		.wb_completions = &wb->completions,
		.wb = &wb->bw,
		.bdi = &wb->bdi->dirty,
		.avail = wbsim_vm_dirtyable_memory(vm),
		.dirty = vm->nr_file_dirty,	/* excluding writeback pages */
	};
	struct wbsim_dtc mdtc;
	bool has_m = wbsim_wb_mdtc(wb, &gdtc, &mdtc, false);

	wbsim_domain_dirty_limits(&vm->dirty, &gdtc, false);
	if (has_m)
		wbsim_domain_dirty_limits(&vm->dirty, &mdtc, false);
	return wbsim_wb_over_bg_thresh(&vm->dirty, &gdtc, has_m ? &mdtc : NULL,
				       wb->stat_reclaimable);
}

/* writeback_chunk_size(): about half a second of the wb's bandwidth, at
 * most 1/8 of the dirty limit, a multiple of 4 MiB. */
static int64_t writeback_chunk_size(struct wbsim_wb *wb, struct wbsim_wb_work *work)
{
	return wbsim_writeback_chunk_size(work->sync_mode == WB_SYNC_ALL || work->tagged_writepages,
					  wb->bw.avg_write_bandwidth,
					  wb->bdi->vm->dom.dirty_limit, work->nr_pages);
}

/* ------------------------------------------------------------------------ */
/* The flusher: wb_workfn() and wb_do_writeback()                           */

static void flusher_next(struct wbsim_wb *wb);
static void wb_writeback_start(struct wbsim_wb *wb, struct wbsim_wb_work *work);
static void wb_writeback_loop(wbsim_sim *sim, void *arg);
static void writeback_sb_inodes_next(wbsim_sim *sim, void *arg);

/* wb_workfn(): the dwork fired. If the flusher is already running the
 * work item is queued again behind itself (rerun). */
static void wb_workfn(wbsim_sim *sim, void *arg)
{
	struct wbsim_wb *wb = arg;

	if (wb->phase != FLUSHER_IDLE) {
		wb->rerun = true;
		return;
	}
	wb->phase = FLUSHER_WORKS;
	wb->writeback_running = true;
	flusher_next(wb);
}

static void flusher_restart(wbsim_sim *sim, void *arg)
{
	struct wbsim_wb *wb = arg;

	wb->phase = FLUSHER_WORKS;
	wb->writeback_running = true;
	flusher_next(wb);
}

static void own_work(struct wbsim_wb *wb, int64_t nr_pages, enum wbsim_wb_reason reason)
{
	wb->own_work = (struct wbsim_wb_work){
		.nr_pages = nr_pages,
		.sync_mode = WB_SYNC_NONE,
		.range_cyclic = true,
		.reason = reason,
	};
}

/* get_nr_dirty_pages() as wb_check_old_data_flush() uses it: the global
 * NR_FILE_DIRTY plus a crude count of dirty inodes. */
static int64_t get_nr_dirty_pages(struct wbsim_wb *wb)
{
	struct wbsim_bdi *bdi = wb->bdi;
	uint64_t inodes = 0;

	for (unsigned int i = 0; i < bdi->nr_wb_ctx; i++)
		inodes += bdi->wb_ctx[i]->b_dirty.length + bdi->wb_ctx[i]->b_io.length +
			  bdi->wb_ctx[i]->b_more_io.length;
	return (int64_t)(bdi->vm->nr_file_dirty + inodes);
}

/*
 * wb_do_writeback(): run the queued works, then a start-all request, then
 * kupdate if due, then background writeback if over the threshold; then
 * wb_workfn()'s tail: again if works arrived, else sleep until the next
 * kupdate tick.
 */
static void flusher_next(struct wbsim_wb *wb)
{
	struct wbsim_vm *vm = wb->bdi->vm;
	GList *l;

	/* while contexts change, no own work (start-all, kupdate, background) */
	if (wb->bdi->ctx_changing && wb->phase != FLUSHER_WORKS)
		wb->phase = FLUSHER_TAIL;
	switch (wb->phase) {
	case FLUSHER_WORKS:
		if ((l = g_queue_pop_head_link(&wb->work_list))) {
			wb_writeback_start(wb, (struct wbsim_wb_work *)((char *)l -
					   G_STRUCT_OFFSET(struct wbsim_wb_work, link)));
			return;
		}
		wb->phase = FLUSHER_START_ALL;
		/* while contexts change, only explicit works run */
		if (wb->bdi->ctx_changing)
			break;
		/* fall through */
	case FLUSHER_START_ALL:
		wb->phase = FLUSHER_KUPDATE;
		if (wb->start_all) {
			/* wb_check_start_all() */
			own_work(wb, wbsim_wb_split_bdi_pages(get_nr_dirty_pages(wb), wb->bw.avg_write_bandwidth,
							   wb->bdi->dirty.tot_write_bandwidth),
				 wb->start_all_reason);
			wb->start_all = false;
			wb_writeback_start(wb, &wb->own_work);
			return;
		}
		/* fall through */
	case FLUSHER_KUPDATE:
		wb->phase = FLUSHER_BACKGROUND;
		/* wb_check_old_data_flush() */
		if (vm->dirty_writeback_ns) {
			uint64_t now = wbsim_jiffies(vm);
			uint64_t interval = vm->dirty_writeback_ns / vm->jiffy_ns;

			if (now >= wb->last_old_flush + interval) {
				int64_t n = get_nr_dirty_pages(wb);

				wb->last_old_flush = now;
				if (n) {
					own_work(wb, n, WB_REASON_PERIODIC);
					wb->own_work.for_kupdate = true;
					wb_writeback_start(wb, &wb->own_work);
					return;
				}
			}
		}
		/* fall through */
	case FLUSHER_BACKGROUND:
		/* wb_check_background_flush() */
		if (wbsim_wb_check_over_bg_thresh(wb)) {
			own_work(wb, WBSIM_LONG_MAX, WB_REASON_BACKGROUND);
			wb->own_work.for_background = true;
			/* Come back to the end of wb_do_writeback() afterwards. */
			wb->phase = FLUSHER_TAIL;
			wb_writeback_start(wb, &wb->own_work);
			return;
		}
		/* fall through */
	default:
		break;
	}
	/* End of wb_do_writeback(); wb_workfn() traces what it wrote and
	 * repeats while works are queued. */
	wbsim_trace_writeback_pages_written(wb, wb->do_written);
	wb->do_written = 0;
	wb->writeback_running = false;
	wb->phase = FLUSHER_IDLE;
	if (wb->work_list.length || (wb->rerun && !wb->bdi->ctx_changing)) {
		wb->rerun = false;
		wb->phase = FLUSHER_WORKS;	/* busy until the restart event runs */
		wbsim_sim_schedule_at(wb->bdi->sim, now_ns(wb), flusher_restart, wb);
		return;
	}
	/* wb_workfn(): the periodic wakeup, unless periodic writeback is off */
	if (wb->has_dirty_io && wb->bdi->vm->dirty_writeback_ns)
		wbsim_wb_wakeup_delayed(wb);
}

/* ------------------------------------------------------------------------ */
/* wb_writeback()                                                           */

/*
 * Run @work. writeback_exec is traced by wb_do_writeback() for a work of
 * the work list only; the flusher's own works (start-all, kupdate,
 * background: wb_check_start_all(), wb_check_old_data_flush(),
 * wb_check_background_flush()) call wb_writeback() directly.
 */
static void wb_writeback_start(struct wbsim_wb *wb, struct wbsim_wb_work *work)
{
	wb->work = work;
	wb->work_nr0 = work->nr_pages;
	wb->work_start = now_ns(wb);
	wb->work_queued = false;
	wb->idle_loops = 0;
	if (work != &wb->own_work)
		wbsim_trace_writeback_work(wb, work, WBSIM_TRACE_WRITEBACK_EXEC);
	wb_writeback_loop(wb->bdi->sim, wb);
}

static void wb_writeback_done(struct wbsim_wb *wb)
{
	struct wbsim_wb_work *work = wb->work;

	wb->work = NULL;
	wb->works_done++;
	/* wb_writeback()'s return: the pages its slices used up */
	wb->do_written += wb->work_nr0 - work->nr_pages;
	if (work != &wb->own_work) {
		/* finish_writeback_work(): wake the issuer when every wb is done. */
		if (work->done_count && --*work->done_count == 0 && work->done_fn)
			wbsim_sim_schedule_at(wb->bdi->sim, now_ns(wb), work->done_fn, work->done_arg);
		else if (!work->done_count && work->done_fn)
			wbsim_sim_schedule_at(wb->bdi->sim, now_ns(wb), work->done_fn, work->done_arg);
		if (work->auto_free)
			g_free(work);
	}
	flusher_next(wb);
}

static void writeback_sb_inodes_start(struct wbsim_wb *wb);

static void wb_writeback_loop(wbsim_sim *sim, void *arg)
{
	struct wbsim_wb *wb = arg;
	struct wbsim_wb_work *work = wb->work;
	int64_t now = (int64_t)now_ns(wb), cutoff;

	if (work->nr_pages <= 0)
		goto done;
	/* Background and kupdate writeback yield to explicit works, and stop
	 * while the number of writeback contexts changes. */
	if ((work->for_background || work->for_kupdate) &&
	    (wb->work_list.length || wb->bdi->ctx_changing))
		goto done;
	if (work->for_background && !wbsim_wb_check_over_bg_thresh(wb))
		goto done;
	/* Times before the start of the simulation are negative here: at 5 s
	 * nothing dirtied after time 0 is older than 30 s. */
	if (work->for_kupdate)
		cutoff = now - (int64_t)wb->bdi->vm->dirty_expire_ns;
	else if (work->for_background)
		cutoff = now;
	else
		cutoff = (int64_t)wb->work_start;	/* livelock guard of one-shot works */
	/* wb_writeback() traces writeback_start at every pass of its loop,
	 * writeback_written after the pass's writeback_sb_inodes()
	 * (wb_writeback_after_slice()); the starts are counted by reason
	 * for the report whether traced or not */
	wb->bdi->writeback_starts[work->reason]++;
	wbsim_trace_writeback_work(wb, work, WBSIM_TRACE_WRITEBACK_START);
	if (!wb->b_io.length) {
		queue_io(wb, work, cutoff);
		wb->work_queued = true;
	}
	writeback_sb_inodes_start(wb);
	return;
done:
	wb_writeback_done(wb);
}

/* After one writeback_sb_inodes() call: go on if it made progress; stop if
 * nothing is left for another turn; else wait for the inode that holds up
 * b_more_io (someone else is writing it). */
static void wb_writeback_after_slice(struct wbsim_wb *wb)
{
	struct wbsim_inode *inode;

	wbsim_trace_writeback_work(wb, wb->work, WBSIM_TRACE_WRITEBACK_WRITTEN);
	if (wb->slice_total > 0) {
		wb->idle_loops = 0;
		wbsim_sim_schedule_at(wb->bdi->sim, now_ns(wb), wb_writeback_loop, wb);
		return;
	}
	if (!wb->b_more_io.length || !wb->work_queued || ++wb->idle_loops > 2) {
		wb_writeback_done(wb);
		return;
	}
	/* nothing written: wait for an inode of b_more_io */
	wbsim_trace_writeback_work(wb, wb->work, WBSIM_TRACE_WRITEBACK_WAIT);
	inode = inode_of(wb->b_more_io.tail);
	if (inode->i_state & I_SYNC)
		wbsim_inode_wait(inode, WAIT_I_SYNC_CLEAR, wb_writeback_loop, wb);
	else
		wbsim_sim_schedule_at(wb->bdi->sim, now_ns(wb), wb_writeback_loop, wb);
}

/* ------------------------------------------------------------------------ */
/* writeback_sb_inodes() and the per-inode slice                            */

static void writeback_sb_inodes_start(struct wbsim_wb *wb)
{
	wb->slice_start = now_ns(wb);
	wb->slice_total = 0;
	writeback_sb_inodes_next(wb->bdi->sim, wb);
}

static void requeue_inode(struct wbsim_wb *wb, struct wbsim_inode *inode,
			  const struct wbsim_wbc *wbc, int64_t cutoff_k);
static void writeback_single_inode_done(wbsim_sim *sim, void *arg);

static void writeback_sb_inodes_next(wbsim_sim *sim, void *arg)
{
	struct wbsim_wb *wb = arg;
	struct wbsim_wb_work *work = wb->work;

	for (;;) {
		struct wbsim_inode *inode;

		if (!wb->b_io.length) {
			wb_writeback_after_slice(wb);
			return;
		}
		inode = inode_of(wb->b_io.tail);
		if (inode->i_state & I_SYNC) {
			if (work->sync_mode != WB_SYNC_ALL) {
				/* Someone else is writing it: next turn. */
				requeue_io(wb, inode);
				wbsim_trace_writeback_sb_inodes_requeue(wb, inode);
				continue;
			}
			wbsim_inode_wait(inode, WAIT_I_SYNC_CLEAR, writeback_sb_inodes_next, wb);
			return;
		}
		inode->i_state |= I_SYNC;
		wb->cur_inode = inode;
		wb->chunk = writeback_chunk_size(wb, work);
		wb->wbc = (struct wbsim_wbc){
			.nr_to_write = wb->chunk,
			.sync_mode = work->sync_mode,
			.tagged_writepages = work->tagged_writepages,
			.for_kupdate = work->for_kupdate,
			.for_background = work->for_background,
			.for_sync = work->for_sync,
			.range_cyclic = work->range_cyclic,
		};
		/* __writeback_single_inode() -> do_writepages() */
		wbsim_trace_writeback_single_inode(wb, inode, &wb->wbc, wb->chunk,
						   WBSIM_TRACE_WRITEBACK_SINGLE_INODE_START);
		wbsim_do_writepages(&wb->wp, inode, &wb->wbc, &wb->flusher, (int)wb->ctx,
				    writeback_single_inode_done, wb);
		return;
	}
}

static void writeback_single_inode_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_wb *wb = arg;
	struct wbsim_wb_work *work = wb->work;
	struct wbsim_inode *inode = wb->cur_inode;
	int64_t wrote = wb->chunk - wb->wbc.nr_to_write - wb->wbc.pages_skipped;
	int64_t cutoff_k = (int64_t)now_ns(wb);

	work->nr_pages -= wb->chunk - wb->wbc.nr_to_write;
	if (wrote > 0)
		wb->slice_total += wrote;
	wb->inodes_written++;
	/* __writeback_single_inode() step 4: I_DIRTY_PAGES stays only while
	 * the mapping still has dirty pages. */
	if (wbsim_inode_nr_dirty(inode) == 0)
		inode->i_state &= ~I_DIRTY_PAGES;
	wbsim_trace_writeback_single_inode(wb, inode, &wb->wbc, wb->chunk,
					   WBSIM_TRACE_WRITEBACK_SINGLE_INODE);
	if (!(inode->i_state & I_DIRTY_PAGES))
		wb->slice_total++;	/* a cleaned inode counts as progress */
	if (work->for_kupdate)
		cutoff_k -= (int64_t)wb->bdi->vm->dirty_expire_ns;
	requeue_inode(wb, inode, &wb->wbc, cutoff_k);
	inode->i_state &= ~I_SYNC;
	wb->cur_inode = NULL;
	wbsim_inode_maybe_detach(inode);
	wbsim_inode_wake(inode, sim);
	if (wb->slice_total > 0 &&
	    (now_ns(wb) > wb->slice_start + 100 * WBSIM_NSEC_PER_MSEC || work->nr_pages <= 0)) {
		wb_writeback_after_slice(wb);
		return;
	}
	wbsim_sim_schedule_at(sim, now_ns(wb), writeback_sb_inodes_next, wb);
}

/* requeue_inode(): where the inode goes after its slice. */
static void requeue_inode(struct wbsim_wb *wb, struct wbsim_inode *inode,
			  const struct wbsim_wbc *wbc, int64_t cutoff_k)
{
	bool dirty = wbsim_inode_nr_dirty(inode) > 0;

	/* The inode may have been re-attached elsewhere only when clean. */
	if (inode->wb != wb)
		return;
	if (dirty && (wbc->sync_mode == WB_SYNC_ALL || wbc->tagged_writepages))
		inode->dirtied_when = now_ns(wb);	/* sync livelock guard */
	if (wbc->pages_skipped > 0) {
		if (dirty)
			redirty_tail(wb, inode);
		else
			inode_io_list_del(wb, inode);
		return;
	}
	if (dirty) {
		if (wbc->nr_to_write <= 0 && (int64_t)inode->dirtied_when <= cutoff_k)
			requeue_io(wb, inode);	/* slice used up */
		else
			redirty_tail(wb, inode);	/* blocked: retry later */
		return;
	}
	inode_io_list_del(wb, inode);
}

/* ------------------------------------------------------------------------ */
/* Set-up                                                                   */

void wbsim_wb_init(struct wbsim_wb *wb, struct wbsim_bdi *bdi, unsigned int ctx)
{
	uint64_t now = wbsim_jiffies(bdi->vm);

	*wb = (struct wbsim_wb){ 0 };
	wb->bdi = bdi;
	wb->ctx = ctx;
	g_snprintf(wb->name, sizeof(wb->name), "%s", bdi->name);
	g_queue_init(&wb->b_dirty);
	g_queue_init(&wb->b_io);
	g_queue_init(&wb->b_more_io);
	g_queue_init(&wb->work_list);
	g_queue_init(&wb->b_attached);
	wbsim_wb_bw_init(&wb->bw, now);
	wbsim_fprop_local_init(&wb->completions);
	wbsim_fprop_local_init(&wb->memcg_completions);
	wb->memcg = bdi->memcgs ? bdi->memcgs->root : NULL;
	wb->blkcg = wb->memcg;
	wb->last_old_flush = now;
	wbsim_timer_init(&wb->dwork, wb_workfn, wb);
	wbsim_timer_init(&wb->bw_dwork, wbsim_wb_update_bandwidth_workfn, wb);
	{
		/* The flusher: a kworker of the unbound pool that runs bdi_wq,
		 * named as the kernel names it, kworker/uN:M, where N is the
		 * pool's id (the first unbound pool follows the two per-CPU
		 * pools of each CPU: 2 * nr_cpus) and M the worker's id in the
		 * pool, one per wb in creation order. ps shows it as
		 * kworker/uN:M-flush-MAJ:MIN (wb_workfn's set_worker_desc());
		 * the trace's comm is the 15-character task name. */
		char name[48];

		g_snprintf(name, sizeof(name), "kworker/u%u:%u", wbsim_cpus_count(bdi->cpus) * 2,
			   bdi->nr_flushers++);
		wbsim_task_init(&wb->flusher, name, WBSIM_TASK_FLUSHER);
		wb->flusher.pid = wbsim_sim_alloc_pid(bdi->sim);
	}
}

void wbsim_wb_clear(struct wbsim_wb *wb)
{
	GList *l;

	while ((l = g_queue_pop_head_link(&wb->work_list))) {
		struct wbsim_wb_work *w = (struct wbsim_wb_work *)((char *)l -
					   G_STRUCT_OFFSET(struct wbsim_wb_work, link));

		if (w->auto_free)
			g_free(w);
	}
	/* the work the run ended in (a foreign flush's is the wb's to free) */
	if (wb->work && wb->work != &wb->own_work && wb->work->auto_free)
		g_free(wb->work);
	wb->work = NULL;
	wbsim_task_clear(&wb->flusher);
}
