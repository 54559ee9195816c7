/* SPDX-License-Identifier: MIT */
/*
 * wb-ctx-change.c - changing the number of writeback contexts of a live bdi
 * (the sysfs knob proposed with the parallel-writeback series; experiment
 * E9).
 *
 * Inodes cannot move between contexts while writeback is using them, so
 * the change first stops writeback from starting anything new and waits for
 * what is in flight, then moves every inode to the context the affinity
 * policy gives it under the new count, then resumes:
 *
 *   quiesce: background and periodic writeback stop at the end of their
 *	current slice and no new work starts; explicit works (sync) finish;
 *	the change waits until no flusher runs and no page of the bdi is
 *	under writeback. Writers go on dirtying (and may stall in
 *	balance_dirty_pages while nothing is written back).
 *   freeze: as freeze_super(): writers are blocked at their next write,
 *	every dirty page is synced (a WB_SYNC_ALL work on every context,
 *	then wait_sb_inodes()), then inodes move, then the filesystem thaws.
 *
 * Moving an inode carries its dirty-page count (WB_RECLAIMABLE) to the new
 * wb and puts it on the new wb's b_dirty in dirtied_when order, as
 * inode_do_switch_wbs() does for cgroup switches; nothing is under
 * writeback at that moment. Contexts that remain keep their bandwidth
 * estimates; new ones start as wb_init() leaves them. Left out: the CPU
 * time of the switch itself and the RCU grace period before it.
 */
#include "fs/wb-ctx-change.h"
#include "fs/fs-writeback.h"
#include "mm/page-writeback.h"
#include "mm/bandwidth.h"
#include <wbsim/affinity.h>

/* Poll interval while waiting for writeback to drain. */
#define DRAIN_POLL_NS (1 * WBSIM_NSEC_PER_MSEC)

struct ctx_change {
	struct wbsim_bdi *bdi;
	unsigned int nr;
	enum wbsim_ctx_change_mode mode;
	struct wbsim_ctx_change_result res;
	void (*done)(void *arg, const struct wbsim_ctx_change_result *res);
	void *arg;
	wbsim_timer poll;
};

static wbsim_time_t now_of(const struct ctx_change *c)
{
	return wbsim_sim_now(c->bdi->sim);
}

static bool bdi_writeback_idle(const struct wbsim_bdi *bdi)
{
	for (unsigned int i = 0; i < bdi->nr_wb_ctx; i++) {
		const struct wbsim_wb *wb = bdi->wb_ctx[i];

		if (wb->phase != FLUSHER_IDLE || wb->stat_writeback || wb->work_list.length)
			return false;
	}
	return true;
}


/* Move every inode to its context under the new count. */
static void redistribute(struct ctx_change *c)
{
	struct wbsim_bdi *bdi = c->bdi;
	unsigned int old_nr = bdi->nr_wb_ctx, nr = c->nr;
	struct wbsim_wb **old = bdi->wb_ctx;
	struct wbsim_wb **ctx = g_new0(struct wbsim_wb *, nr);

	for (unsigned int i = 0; i < nr; i++) {
		if (i < old_nr) {
			ctx[i] = old[i];
		} else {
			ctx[i] = g_new0(struct wbsim_wb, 1);
			bdi->nr_wb_ctx = nr;	/* names use the new count */
			wbsim_wb_init(ctx[i], bdi, i);
			g_ptr_array_add(bdi->wb_list, ctx[i]);
		}
	}
	bdi->wb_ctx = ctx;
	bdi->nr_wb_ctx = nr;
	for (guint i = 0; i < bdi->inodes->len; i++) {
		struct wbsim_inode *inode = bdi->inodes->pdata[i];
		struct wbsim_wb *from = inode->wb, *to;
		uint64_t dirty;

		if (!from)
			continue;
		if ((bdi->affinity->flags & WBSIM_AFFINITY_FIXED) || from->ctx >= nr)
			to = ctx[wbsim_affinity_select(bdi, inode, NULL)];
		else
			to = from;	/* an unfixed policy keeps a valid choice */
		if (to == from)
			continue;
		dirty = wbsim_inode_acct(inode, WBSIM_PC_DIRTY);
		from->stat_reclaimable -= dirty;
		to->stat_reclaimable += dirty;
		if (inode->on_list) {
			g_queue_unlink(inode->on_list, &inode->io_link);
			inode->on_list = NULL;
			inode->i_state &= ~I_SYNC_QUEUED;
			wbsim_inode_io_list_insert_by_age(to, inode);
		}
		inode->wb = to;
		from->nr_inodes--;
		to->nr_inodes++;
		c->res.inodes_moved++;
	}
	/* Retire the contexts past the new count (nothing is left on them). */
	for (unsigned int i = nr; i < old_nr; i++) {
		c->res.retired_pages_written += old[i]->pages_written;
		wbsim_timer_cancel(bdi->sim, &old[i]->dwork);
		wbsim_timer_cancel(bdi->sim, &old[i]->bw_dwork);
		g_ptr_array_add(bdi->retired_wbs, old[i]);
	}
	g_free(old);
	/* WB_has_dirty_io and tot_write_bandwidth from scratch */
	bdi->dirty.tot_write_bandwidth = 0;
	for (unsigned int i = 0; i < nr; i++) {
		struct wbsim_wb *wb = ctx[i];

		wb->has_dirty_io = wb->b_dirty.length || wb->b_io.length || wb->b_more_io.length;
		if (wb->has_dirty_io)
			bdi->dirty.tot_write_bandwidth += wb->bw.avg_write_bandwidth;
	}
}

static void start_change(struct ctx_change *c);

static void resume(struct ctx_change *c)
{
	struct wbsim_bdi *bdi = c->bdi;
	GArray *w = bdi->freeze_waiters;

	redistribute(c);
	bdi->ctx_changing = false;
	bdi->frozen = false;
	c->res.done = now_of(c);
	/* thaw: writers go on in the order they stopped */
	for (guint i = 0; i < w->len; i++) {
		struct wbsim_freeze_waiter *x = &g_array_index(w, struct wbsim_freeze_waiter, i);

		c->res.writers_blocked++;
		c->res.writers_blocked_ns += now_of(c) - x->since;
		wbsim_sim_schedule_at(bdi->sim, now_of(c), x->fn, x->arg);
	}
	g_array_set_size(w, 0);
	for (unsigned int i = 0; i < bdi->nr_wb_ctx; i++)
		if (bdi->wb_ctx[i]->has_dirty_io || bdi->wb_ctx[i]->rerun) {
			bdi->wb_ctx[i]->rerun = false;
			wbsim_wb_wakeup(bdi->wb_ctx[i]);
		}
	bdi->ctx_change = NULL;
	if (c->done)
		c->done(c->arg, &c->res);
	g_free(c);
	/* a change asked for meanwhile starts now */
	if (bdi->ctx_change_queue && bdi->ctx_change_queue->length)
		start_change(g_queue_pop_head(bdi->ctx_change_queue));
}

void wbsim_bdi_ctx_change_free(struct wbsim_bdi *bdi)
{
	struct ctx_change *c = bdi->ctx_change;

	if (!c)
		return;
	wbsim_timer_cancel(bdi->sim, &c->poll);
	/* a sync of a freeze still in flight is the bdi's to free
	 * (wbsim_sync_inodes_sb_free_all()) */
	g_free(c);
	bdi->ctx_change = NULL;
	if (bdi->ctx_change_queue) {
		struct ctx_change *q;

		while ((q = g_queue_pop_head(bdi->ctx_change_queue)))
			g_free(q);
		g_queue_free(bdi->ctx_change_queue);
		bdi->ctx_change_queue = NULL;
	}
}

/* Wait until no flusher runs and nothing of the bdi is under writeback. */
static void drain_poll(wbsim_sim *sim, void *arg)
{
	struct ctx_change *c = arg;

	if (!bdi_writeback_idle(c->bdi)) {
		wbsim_timer_arm(sim, &c->poll, now_of(c) + DRAIN_POLL_NS);
		return;
	}
	c->res.quiesced = now_of(c);
	resume(c);
}

/* freeze: the sync is over (works done, then every inode's writeback). */
/* sync_filesystem() is over (every inode written and waited for): drain. */
static void freeze_synced(wbsim_sim *sim, void *arg)
{
	drain_poll(sim, arg);
}

void wbsim_bdi_change_nr_wb_ctx(struct wbsim_bdi *bdi, unsigned int nr,
				enum wbsim_ctx_change_mode mode,
				void (*done)(void *arg, const struct wbsim_ctx_change_result *res),
				void *arg)
{
	struct ctx_change *c = g_new0(struct ctx_change, 1);

	c->bdi = bdi;
	c->nr = MAX(nr, 1);
	c->mode = mode;
	c->done = done;
	c->arg = arg;
	c->res.start = wbsim_sim_now(bdi->sim);
	wbsim_timer_init(&c->poll, drain_poll, c);
	/* one change at a time: the knob's writer waits for the one before */
	if (bdi->ctx_change) {
		if (!bdi->ctx_change_queue)
			bdi->ctx_change_queue = g_queue_new();
		g_queue_push_tail(bdi->ctx_change_queue, c);
		return;
	}
	start_change(c);
}

static void start_change(struct ctx_change *c)
{
	struct wbsim_bdi *bdi = c->bdi;

	c->res.from = bdi->nr_wb_ctx;
	c->res.to = c->nr;
	bdi->ctx_change = c;
	bdi->ctx_changing = true;
	if (c->mode != WBSIM_CTX_CHANGE_FREEZE) {
		drain_poll(bdi->sim, c);
		return;
	}
	/* freeze_super(): block writers, then sync_filesystem(), whose
	 * sync_inodes_sb() writes every context's inodes and waits for them */
	bdi->frozen = true;
	wbsim_sync_inodes_sb(bdi, bdi->inodes, false, false, WB_REASON_SYNC, freeze_synced, c);
}

void wbsim_bdi_wait_ctx_change(struct wbsim_bdi *bdi, wbsim_event_fn fn, void *arg)
{
	struct wbsim_freeze_waiter w = { fn, arg, wbsim_sim_now(bdi->sim) };

	g_array_append_val(bdi->freeze_waiters, w);
}

gboolean wbsim_bdi_wait_if_frozen(struct wbsim_bdi *bdi, wbsim_event_fn fn, void *arg)
{
	struct wbsim_freeze_waiter w = { fn, arg, wbsim_sim_now(bdi->sim) };

	if (!bdi->frozen)
		return FALSE;
	g_array_append_val(bdi->freeze_waiters, w);
	return TRUE;
}
