/* SPDX-License-Identifier: MIT */
/*
 * cgroup-writeback.c - cgroup writeback (kernel: mm/backing-dev.c cgwb_*,
 * fs/fs-writeback.c inode_switch_wbs(), wbc_attach_and_unlock_inode(),
 * wbc_account_cgroup_owner(), wbc_detach_inode(),
 * cgroup_writeback_by_id(), cleanup_offline_cgwbs_workfn(), and
 * mm/memcontrol.c mem_cgroup_track_foreign_dirty_slowpath(),
 * mem_cgroup_flush_foreign()).
 *
 * Each writeback context has its root wb (the root memcg's) and one wb per
 * memcg that dirtied an inode through it, in an index keyed by (context,
 * css id). A wb is killed when its memcg goes offline or its memcg's blkcg
 * changes; a killed wb leaves the index but keeps its inodes (they are
 * switched away by the owner vote, by the offline cleanup once the wb has
 * no dirty IO, or by nothing), and is released when none is left. Only
 * a memcg removal queues the offline cleanup (wb_memcg_offline()).
 *
 * Two kernel variants ([writeback] dying_wb):
 * - unreachable (today's kernel): a foreign flush looks a wb up by css id
 *   in the index only; a removed memcg is still found by its id, but its
 *   killed wb is not (-ENOENT), and a wb replaced after a blkcg change
 *   keeps its inodes until they are written back.
 * - reachable: a killed wb stays findable by its memcg id until released
 *   (the foreign flush reaches it), and a wb replaced after a blkcg change
 *   hands its inodes to its successor at once.
 *
 * Left out: the bdi id space (one bdi, id 1), GFP failures of switch and
 * flush allocations, the 2025 batched switching rework, lazytime.
 */
#include <wbsim/error.h>
#include "fs/cgroup-writeback.h"
#include "fs/fs-writeback.h"
#include "mm/page-writeback.h"
#include "mm/page-memcg.h"
#include "core/workqueue.h"
#include "fs/fs-glue.h"
#include "fs/fs-writeback-trace.h"

/* The simulated machine has one bdi: its id in foreign-dirty records. */
#define BDI_ID 1
/* WB_FRN_* constants of fs/fs-writeback.c */
#define WB_FRN_TIME_SHIFT 13		/* 1 s = 8192 units */
#define WB_FRN_TIME_AVG_SHIFT 3		/* EWMA 1/8 */
#define WB_FRN_TIME_CUT_DIV 8		/* ignore rounds under avg / 8 */
#define WB_FRN_HIST_SLOTS 16		/* 16 bits of history */
#define WB_FRN_HIST_UNIT ((2 << WB_FRN_TIME_SHIFT) / WB_FRN_HIST_SLOTS)	/* 125 ms */
#define WB_FRN_HIST_THR_SLOTS 8		/* switch when more foreign slots */
#define WB_FRN_HIST_MAX_SLOTS 5		/* a round adds at most 5 slots */
#define WB_FRN_MAX_IN_FLIGHT 1024	/* switches in flight */
/* WB_MAX_INODES_PER_ISW: (1024 B - the context header) / 8 on 64-bit */
#define WB_MAX_INODES_PER_ISW 115
/*
 * Inode switches run after an RCU grace period (queue_rcu_work()). A grace
 * period takes a few jiffies on an idle machine and tens of milliseconds
 * under load; 10 ms is taken. The switch itself costs CPU on the isw
 * workqueue: locks, list and stat moves, per inode.
 */
#define RCU_GRACE_PERIOD_NS (10 * WBSIM_NSEC_PER_MSEC)
#define SWITCH_INODE_NS (2 * WBSIM_NSEC_PER_USEC)
/* cleanup_offline_cgwbs_workfn(): walking the list, per wb */
#define CLEANUP_WB_NS (1 * WBSIM_NSEC_PER_USEC)

static bool memcg_is_root(const struct wbsim_memcg *memcg)
{
	return !memcg || !memcg->parent;
}

static unsigned int memcg_id(const struct wbsim_memcg *memcg)
{
	return memcg ? memcg->id : WBSIM_ROOT_MEMCG_ID;
}

static gpointer tree_key(unsigned int ctx, unsigned int id)
{
	return GUINT_TO_POINTER((ctx << 16) | id);
}

static void ensure_state(struct wbsim_bdi *bdi)
{
	if (!bdi->cgwb_tree) {
		bdi->cgwb_tree = g_new0(GHashTable *, 1);
		bdi->cgwb_tree[0] = g_hash_table_new(g_direct_hash, g_direct_equal);
	}
	if (!bdi->isw_wq)
		bdi->isw_wq = wbsim_workqueue_new(bdi->sim, bdi->cpus, "inode_switch_wbs",
						  wbsim_cpus_count(bdi->cpus), 1);
	if (!bdi->isw_pending)
		bdi->isw_pending = g_ptr_array_new();
}

/* ------------------------------------------------------------------------ */
/* The index of wbs                                                         */

/* cgwb_create() */
static struct wbsim_wb *cgwb_create(struct wbsim_bdi *bdi, unsigned int ctx,
				    struct wbsim_memcg *memcg)
{
	struct wbsim_wb *wb = g_new0(struct wbsim_wb, 1);

	ensure_state(bdi);
	wbsim_wb_init(wb, bdi, ctx);
	wb->memcg = memcg;
	wb->blkcg = wbsim_memcg_blkcg(memcg);
	/* the flusher of a cgroup wb: its own kworker (wbsim_wb_init()) */
	g_hash_table_insert(bdi->cgwb_tree[0], tree_key(ctx, memcg->id), wb);
	g_ptr_array_add(bdi->wb_list, wb);
	return wb;
}

static void queue_cleanup(struct wbsim_bdi *bdi);

/* cgwb_kill(): out of the index, onto offline_cgwbs; wb_dying() is true */
static void cgwb_kill(struct wbsim_wb *wb)
{
	struct wbsim_bdi *bdi = wb->bdi;

	if (wb->dying)
		return;
	g_hash_table_remove(bdi->cgwb_tree[0], tree_key(wb->ctx, wb->memcg->id));
	wb->dying = true;
	g_ptr_array_add(bdi->offline_cgwbs, wb);
}

static struct wbsim_wb *tree_lookup(struct wbsim_bdi *bdi, unsigned int ctx,
				    const struct wbsim_memcg *memcg)
{
	if (!bdi->cgwb_tree)
		return NULL;
	return g_hash_table_lookup(bdi->cgwb_tree[0], tree_key(ctx, memcg->id));
}

struct wbsim_wb *wbsim_wb_get_lookup(struct wbsim_bdi *bdi, unsigned int ctx,
				     const struct wbsim_memcg *memcg)
{
	struct wbsim_wb *wb;

	if (memcg_is_root(memcg))
		return bdi->wb_ctx[ctx];
	wb = tree_lookup(bdi, ctx, memcg);
	/* a wb whose blkcg no longer matches is as good as gone */
	if (wb && wb->blkcg != wbsim_memcg_blkcg(memcg))
		return NULL;
	return wb;
}

static void switch_all_to(struct wbsim_wb *from, struct wbsim_wb *to);

/* wb_get_create() without the root fallback: NULL when @memcg is offline
 * (its cgwb list is poisoned, cgwb_create() fails). */
static struct wbsim_wb *cgwb_get_create(struct wbsim_bdi *bdi, unsigned int ctx,
					struct wbsim_memcg *memcg)
{
	struct wbsim_wb *wb, *old;

	if (memcg_is_root(memcg))
		return bdi->wb_ctx[ctx];
	wb = tree_lookup(bdi, ctx, memcg);
	if (wb && wb->blkcg == wbsim_memcg_blkcg(memcg))
		return wb;
	if (!memcg->online)
		return NULL;
	/* cgwb_create() kills a wb associated with a stale blkcg */
	old = wb;
	if (old)
		cgwb_kill(old);
	wb = cgwb_create(bdi, ctx, memcg);
	if (old && bdi->dying_wb_reachable)
		switch_all_to(old, wb);
	return wb;
}

struct wbsim_wb *wbsim_wb_get_create(struct wbsim_bdi *bdi, unsigned int ctx,
				     struct wbsim_memcg *memcg)
{
	struct wbsim_wb *wb = cgwb_get_create(bdi, ctx, memcg);

	return wb ? wb : bdi->wb_ctx[ctx];
}

struct wbsim_wb *wbsim_dirtier_wb(struct wbsim_bdi *bdi, struct wbsim_inode *inode,
				  struct wbsim_memcg *memcg)
{
	unsigned int ctx = inode->wb ? inode->wb->ctx : 0;

	if (memcg_is_root(memcg) && inode->wb && memcg_is_root(inode->wb->memcg))
		return inode->wb;
	if (ctx >= bdi->nr_wb_ctx)
		ctx = 0;
	return wbsim_wb_get_create(bdi, ctx, memcg);
}

/* ------------------------------------------------------------------------ */
/* Cgroups                                                                  */

struct wbsim_memcg *wbsim_cgroup_mkdir(struct wbsim_bdi *bdi, const char *path,
				       uint64_t max_bytes, uint64_t high_bytes, GError **error)
{
	struct wbsim_memcg *memcg = wbsim_memcg_create(bdi->vm, path, error);

	if (!memcg)
		return NULL;
	wbsim_memcg_set_max(memcg, max_bytes);
	wbsim_memcg_set_high(memcg, high_bytes);
	return memcg;
}

void wbsim_dirtier_set_memcg(struct wbsim_dirtier *d, struct wbsim_memcg *memcg)
{
	if (d->memcg)
		d->memcg->nr_tasks--;
	d->memcg = memcg_is_root(memcg) ? NULL : memcg;
	if (d->memcg)
		d->memcg->nr_tasks++;
}

gboolean wbsim_cgroup_rmdir(struct wbsim_bdi *bdi, struct wbsim_memcg *memcg, GError **error)
{
	if (memcg_is_root(memcg) || !memcg->online) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "cgroup %s: no such cgroup to remove", memcg ? memcg->path : "/");
		return FALSE;
	}
	if (memcg->nr_tasks) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "cgroup %s: busy: %u tasks are still in it", memcg->path, memcg->nr_tasks);
		return FALSE;
	}
	for (guint i = 0; i < memcg->children->len; i++) {
		const struct wbsim_memcg *c = memcg->children->pdata[i];

		if (c->online) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "cgroup %s: busy: it has the child cgroup %s", memcg->path,
				    c->path);
			return FALSE;
		}
	}
	memcg->online = false;
	/* wb_memcg_offline(): every wb of the memcg is killed */
	for (guint i = 0; i < bdi->wb_list->len; i++) {
		struct wbsim_wb *wb = bdi->wb_list->pdata[i];

		if (wb->memcg == memcg)
			cgwb_kill(wb);
	}
	queue_cleanup(bdi);
	return TRUE;
}

void wbsim_cgroup_set_io(struct wbsim_bdi *bdi, struct wbsim_memcg *memcg, bool enabled)
{
	if (memcg_is_root(memcg) || memcg->io_subtree == enabled)
		return;
	memcg->io_subtree = enabled;
	/* wb_blkcg_offline() (or a new blkcg coming online): every wb whose
	 * memcg is now associated with another blkcg is killed; the memcg's
	 * next wb_get_create() makes its successor */
	for (guint i = 0; i < bdi->wb_list->len; i++) {
		struct wbsim_wb *wb = bdi->wb_list->pdata[i];

		if (wb->dying || memcg_is_root(wb->memcg) ||
		    wb->blkcg == wbsim_memcg_blkcg(wb->memcg))
			continue;
		cgwb_kill(wb);
		if (bdi->dying_wb_reachable && wb->memcg->online)
			switch_all_to(wb, cgwb_get_create(bdi, wb->ctx, wb->memcg));
	}
	/* wb_blkcg_offline() queues no cleanup_offline_cgwbs_work (only
	 * wb_memcg_offline() does): the killed wbs wait on offline_cgwbs
	 * for the next memcg removal */
}

/* ------------------------------------------------------------------------ */
/* Inode switching                                                          */

struct isw {
	struct wbsim_bdi *bdi;
	struct wbsim_wb *new_wb;
	GPtrArray *inodes;
};

/* inode_do_switch_wbs(): move the inode's WB_RECLAIMABLE, WB_WRITEBACK and
 * writeback_inodes to @new_wb, and its list place: b_dirty by
 * dirtied_when if dirty, b_attached if clean. Returns whether it moved. */
static bool inode_do_switch_wbs(struct wbsim_inode *inode, struct wbsim_wb *new_wb,
				const wbsim_task *task)
{
	struct wbsim_wb *old = inode->wb;
	uint64_t dirty, wbk;

	if (!old || old == new_wb) {
		inode->wb_switching = false;
		return false;
	}
	/* traced while I_WB_SWITCH is still set */
	wbsim_trace_inode_switch_wbs(inode, old, new_wb, task);
	inode->wb_switching = false;
	dirty = wbsim_inode_acct(inode, WBSIM_PC_DIRTY);
	wbk = wbsim_inode_acct(inode, WBSIM_PC_WRITEBACK);
	old->stat_reclaimable -= dirty;
	new_wb->stat_reclaimable += dirty;
	old->stat_writeback -= wbk;
	new_wb->stat_writeback += wbk;
	if (inode->nr_writeback) {
		old->writeback_inodes--;
		new_wb->writeback_inodes++;
	}
	inode->wb = new_wb;
	old->nr_inodes--;
	new_wb->nr_inodes++;
	if (inode->on_list) {
		if (inode->i_state & I_DIRTY_PAGES)
			wbsim_inode_io_list_insert_by_age(new_wb, inode);
		else
			wbsim_inode_io_list_attach(new_wb, inode);
		wbsim_wb_io_lists_changed(old);
	}
	inode->i_wb_frn_winner = 0;
	inode->i_wb_frn_avg_time = 0;
	inode->i_wb_frn_history = 0;
	old->switched_out++;
	new_wb->switched_in++;
	return true;
}

static void try_release(struct wbsim_wb *wb);

static void isw_free(struct isw *isw)
{
	g_ptr_array_unref(isw->inodes);
	g_free(isw);
}

/* inode_switch_wbs_work_fn() */
static void isw_workfn(wbsim_sim *sim, void *arg)
{
	struct isw *isw = arg;
	struct wbsim_bdi *bdi = isw->bdi;
	GPtrArray *olds = g_ptr_array_new();
	const wbsim_task *worker = wbsim_workqueue_current(bdi->isw_wq);
	unsigned int nr = 0;

	for (guint i = 0; i < isw->inodes->len; i++) {
		struct wbsim_inode *inode = isw->inodes->pdata[i];
		struct wbsim_wb *old = inode->wb;

		if (inode_do_switch_wbs(inode, isw->new_wb, worker)) {
			nr++;
			g_ptr_array_add(olds, old);
		}
	}
	bdi->isw_in_flight -= isw->inodes->len;
	bdi->isw_done += nr;
	if (nr)
		wbsim_wb_wakeup(isw->new_wb);
	for (guint i = 0; i < olds->len; i++)
		try_release(olds->pdata[i]);
	g_ptr_array_unref(olds);
	g_ptr_array_remove_fast(bdi->isw_pending, isw);
	isw_free(isw);
}

/* After an RCU grace period, switch @inodes to @new_wb on the isw
 * workqueue. */
static void isw_queue_rcu_fn(wbsim_sim *sim, void *arg)
{
	struct isw *isw = arg;

	wbsim_queue_work(isw->bdi->isw_wq, SWITCH_INODE_NS * isw->inodes->len, isw_workfn, isw);
}

static void isw_submit(struct wbsim_bdi *bdi, struct wbsim_wb *new_wb, GPtrArray *inodes)
{
	struct isw *isw = g_new0(struct isw, 1);

	ensure_state(bdi);
	isw->bdi = bdi;
	isw->new_wb = new_wb;
	isw->inodes = inodes;
	g_ptr_array_add(bdi->isw_pending, isw);
	for (guint i = 0; i < inodes->len; i++)
		((struct wbsim_inode *)inodes->pdata[i])->wb_switching = true;
	bdi->isw_in_flight += inodes->len;
	wbsim_sim_schedule_after(bdi->sim, RCU_GRACE_PERIOD_NS, isw_queue_rcu_fn, isw);
}

/* inode_switch_wbs(): start switching @inode to the wb of css id @id
 * (in @task's context). */
static void inode_switch_wbs(struct wbsim_inode *inode, unsigned int id, const wbsim_task *task)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_memcg *memcg;
	struct wbsim_wb *new_wb;
	GPtrArray *one;

	if (inode->wb_switching)
		return;
	if (bdi->isw_in_flight > WB_FRN_MAX_IN_FLIGHT) {
		bdi->isw_skipped++;
		return;
	}
	memcg = wbsim_memcg_from_id(bdi->memcgs, id);
	new_wb = memcg ? cgwb_get_create(bdi, inode->wb->ctx, memcg) : NULL;
	if (!new_wb || new_wb == inode->wb) {
		bdi->isw_skipped++;
		return;
	}
	one = g_ptr_array_new();
	g_ptr_array_add(one, inode);
	wbsim_trace_inode_switch_wbs_queue(inode->wb, new_wb, 1, task);
	isw_submit(bdi, new_wb, one);
}

/* Move every inode of @from (dirty, clean-attached or under writeback)
 * to @to, in batches of WB_MAX_INODES_PER_ISW: the reachable variant's
 * hand-over of a replaced wb to its successor. */
static void switch_all_to(struct wbsim_wb *from, struct wbsim_wb *to)
{
	struct wbsim_bdi *bdi = from->bdi;
	GPtrArray *batch = NULL;

	if (!to || to == from)
		return;
	for (guint i = 0; i < bdi->inodes->len; i++) {
		struct wbsim_inode *inode = bdi->inodes->pdata[i];

		if (inode->wb != from || inode->wb_switching)
			continue;
		if (!batch)
			batch = g_ptr_array_new();
		g_ptr_array_add(batch, inode);
		if (batch->len == WB_MAX_INODES_PER_ISW) {
			isw_submit(bdi, to, batch);
			batch = NULL;
		}
	}
	if (batch)
		isw_submit(bdi, to, batch);
}

/* ------------------------------------------------------------------------ */
/* Offline wbs: cleanup and release                                         */

/* cgwb_release_workfn(): the last reference is gone (no inode, no work,
 * flusher idle): off the offline list. It stays in wb_list for reports. */
static void try_release(struct wbsim_wb *wb)
{
	struct wbsim_bdi *bdi = wb->bdi;

	if (!wb->dying || wb->nr_inodes || wb->work_list.length || wb->phase != FLUSHER_IDLE)
		return;
	if (g_ptr_array_remove(bdi->offline_cgwbs, wb)) {
		wbsim_timer_cancel(bdi->sim, &wb->dwork);
		wbsim_timer_cancel(bdi->sim, &wb->bw_dwork);
	}
}

/* The wb cleanup_offline_cgwb() moves @wb's clean inodes to: that of the
 * first ancestor of its memcg, starting from the parent (not the memcg
 * itself, even when only its blkcg changed), that can have a wb (is
 * online); the context's root wb if none. */
static struct wbsim_wb *cleanup_target(struct wbsim_wb *wb)
{
	for (struct wbsim_memcg *m = wb->memcg->parent; m; m = m->parent) {
		struct wbsim_wb *to = cgwb_get_create(wb->bdi, wb->ctx, m);

		if (to)
			return to;
	}
	return wb->bdi->wb_ctx[wb->ctx];
}

/* cleanup_offline_cgwb(): switch the clean inodes of b_attached to the
 * nearest living ancestor's wb, in batches. */
static void cleanup_offline_cgwb(struct wbsim_wb *wb)
{
	struct wbsim_bdi *bdi = wb->bdi;
	struct wbsim_wb *to = cleanup_target(wb);
	const wbsim_task *worker = wbsim_workqueue_current(bdi->isw_wq);
	GPtrArray *batch = NULL;

	for (GList *l = wb->b_attached.tail; l; l = l->prev) {
		struct wbsim_inode *inode = (struct wbsim_inode *)((char *)l -
					    G_STRUCT_OFFSET(struct wbsim_inode, io_link));

		if (inode->wb_switching)
			continue;
		if (!batch)
			batch = g_ptr_array_new();
		g_ptr_array_add(batch, inode);
		if (batch->len == WB_MAX_INODES_PER_ISW - 1) {
			wbsim_trace_inode_switch_wbs_queue(wb, to, batch->len, worker);
			isw_submit(bdi, to, batch);
			batch = NULL;
		}
	}
	if (batch) {
		wbsim_trace_inode_switch_wbs_queue(wb, to, batch->len, worker);
		isw_submit(bdi, to, batch);
	}
}

/* cleanup_offline_cgwbs_workfn(): every offline wb without dirty IO has
 * its clean inodes moved up; the others are postponed (switching them
 * would escape their bandwidth control). Processed wbs go to the tail. */
static void cleanup_offline_cgwbs_workfn(wbsim_sim *sim, void *arg)
{
	struct wbsim_bdi *bdi = arg;
	GPtrArray *list = g_ptr_array_copy(bdi->offline_cgwbs, NULL, NULL);

	bdi->cleanup_queued = false;
	for (guint i = 0; i < list->len; i++) {
		struct wbsim_wb *wb = list->pdata[i];

		if (wb->has_dirty_io)
			continue;
		cleanup_offline_cgwb(wb);
		try_release(wb);
		if (g_ptr_array_remove(bdi->offline_cgwbs, wb))
			g_ptr_array_add(bdi->offline_cgwbs, wb);
	}
	g_ptr_array_unref(list);
}

static void queue_cleanup(struct wbsim_bdi *bdi)
{
	ensure_state(bdi);
	if (bdi->cleanup_queued)
		return;
	bdi->cleanup_queued = true;
	wbsim_queue_work(bdi->isw_wq, CLEANUP_WB_NS * (bdi->offline_cgwbs->len + 1),
			 cleanup_offline_cgwbs_workfn, bdi);
}

/* ------------------------------------------------------------------------ */
/* Page hooks                                                               */

/* mem_cgroup_track_foreign_dirty_slowpath(): @memcg dirtied a page of an
 * inode owned by @wb of another memcg. */
static void track_foreign_dirty(struct wbsim_memcg *memcg, struct wbsim_wb *wb)
{
	struct wbsim_vm *vm = wb->bdi->vm;
	uint64_t now = wbsim_jiffies(vm);
	uint64_t expire = vm->dirty_expire_ns / vm->jiffy_ns;
	uint64_t update_intv = MIN((uint64_t)vm->dirty.hz, expire / 8);
	uint64_t oldest_at = now;
	int oldest = -1;

	for (int i = 0; i < WBSIM_MEMCG_CGWB_FRN_CNT; i++) {
		struct wbsim_memcg_frn *frn = &memcg->frn[i];

		if (frn->bdi_id == BDI_ID && frn->memcg_id == wb->memcg->id) {
			/* lazy refresh, at most once per update interval */
			if (frn->at + update_intv < now)
				frn->at = now;
			return;
		}
		if (frn->at < oldest_at && !frn->in_flight) {
			oldest = i;
			oldest_at = frn->at;
		}
	}
	if (oldest >= 0) {
		memcg->frn[oldest] = (struct wbsim_memcg_frn){
			.bdi_id = BDI_ID,
			.memcg_id = wb->memcg->id,
			.at = now,
		};
	}
}

void wbsim_cgwb_pages_dirtied(struct wbsim_inode *inode, struct wbsim_dirtier *d,
			      uint64_t first, uint64_t nr)
{
	struct wbsim_bdi *bdi = inode->bdi;
	struct wbsim_memcg_tree *t = bdi->memcgs;
	unsigned int dirtier_id = memcg_id(d->memcg);
	uint64_t f = inode->folio_pages, traced = UINT64_MAX;

	/* __inode_attach_wb() happens with the first dirtying */
	if (!inode->wb)
		wbsim_mark_inode_dirty(inode, d->task, d->memcg);
	if (!inode->page_memcg) {
		if (memcg_is_root(d->memcg))
			return;
		inode->page_memcg = wbsim_page_memcg_new();
	}
	for (uint64_t p = first; p < first + nr; p++) {
		struct wbsim_memcg *memcg;

		if (!wbsim_page_cache_test(&inode->pages, WBSIM_PC_PRESENT, p)) {
			/* a new page is charged to the writer's memcg */
			wbsim_page_memcg_set(inode->page_memcg, p, dirtier_id);
			memcg = wbsim_memcg_from_id(t, dirtier_id);
			wbsim_memcg_mod_file(memcg, 1);
		} else {
			if (wbsim_page_cache_test(&inode->pages, WBSIM_PC_DIRTY, p))
				continue;
			memcg = wbsim_memcg_from_id(t, wbsim_page_memcg_get(inode->page_memcg, p));
		}
		wbsim_memcg_mod_dirty(memcg, 1);
		if (memcg != inode->wb->memcg) {
			/* traced once a folio going clean -> dirty, as
			 * folio_account_dirtied() calls it */
			if (bdi->trace && p / f != traced &&
			    wbsim_inode_folios_without(inode, WBSIM_PC_DIRTY, p / f * f, f))
				wbsim_trace_track_foreign_dirty(inode, inode->wb, memcg, d->task);
			traced = p / f;
			track_foreign_dirty(memcg, inode->wb);
		}
	}
}

/* Walk [first, first + nr) in runs of one memcg, calling @fn(memcg, len). */
static void for_each_memcg_run(struct wbsim_inode *inode, uint64_t first, uint64_t nr,
			       void (*fn)(struct wbsim_memcg *memcg, int64_t len))
{
	struct wbsim_memcg_tree *t = inode->bdi->memcgs;
	uint64_t p = first;
	unsigned int id = wbsim_page_memcg_get(inode->page_memcg, p);

	while (p < first + nr) {
		uint64_t q = p + 1;
		unsigned int next = id;

		while (q < first + nr && (next = wbsim_page_memcg_get(inode->page_memcg, q)) == id)
			q++;
		fn(wbsim_memcg_from_id(t, id), (int64_t)(q - p));
		p = q;
		id = next;
	}
}

/* Dirty pages of a memcg go under writeback. */
static void memcg_start_writeback(struct wbsim_memcg *memcg, int64_t len)
{
	wbsim_memcg_mod_dirty(memcg, -len);
	wbsim_memcg_mod_writeback(memcg, len);
}

static void memcg_end_writeback(struct wbsim_memcg *memcg, int64_t len)
{
	wbsim_memcg_mod_writeback(memcg, -len);
}

void wbsim_cgwb_pages_start_writeback(struct wbsim_inode *inode, uint64_t first, uint64_t nr)
{
	for_each_memcg_run(inode, first, nr, memcg_start_writeback);
}

void wbsim_cgwb_pages_end_writeback(struct wbsim_inode *inode, uint64_t first, uint64_t nr)
{
	for_each_memcg_run(inode, first, nr, memcg_end_writeback);
}

void wbsim_cgwb_pages_dropped(struct wbsim_inode *inode, uint64_t first, uint64_t nr)
{
	struct wbsim_memcg_tree *t = inode->bdi->memcgs;
	uint64_t p = first;

	if (!inode->page_memcg)
		return;
	while ((p = wbsim_page_cache_next(&inode->pages, WBSIM_PC_PRESENT, p)) != WBSIM_PGOFF_NONE &&
	       p < first + nr) {
		if (!wbsim_page_cache_test(&inode->pages, WBSIM_PC_DIRTY, p) &&
		    !wbsim_page_cache_test(&inode->pages, WBSIM_PC_WRITEBACK, p)) {
			unsigned int id = wbsim_page_memcg_get(inode->page_memcg, p);

			wbsim_memcg_mod_file(wbsim_memcg_from_id(t, id), -1);
			wbsim_page_memcg_set(inode->page_memcg, p, WBSIM_ROOT_MEMCG_ID);
		}
		p++;
	}
}

/* ------------------------------------------------------------------------ */
/* The owner vote                                                           */

/* wbc_attach_and_unlock_inode() / wbc_attach_fdatawrite_inode() */
void wbsim_wbc_attach_inode(struct wbsim_wbc *wbc, struct wbsim_inode *inode,
			    const wbsim_task *task)
{
	wbc->wb = NULL;
	if (!wbsim_cgwb_enabled(inode->bdi) || !inode->wb)
		return;
	wbc->wb = inode->wb;
	wbc->wb_id = memcg_id(inode->wb->memcg);
	wbc->wb_lcand_id = inode->i_wb_frn_winner;
	wbc->wb_tcand_id = 0;
	wbc->wb_bytes = wbc->wb_lcand_bytes = wbc->wb_tcand_bytes = 0;
	/* a wb replaced while its memcg lives: go to its successor now */
	if (inode->wb->dying && inode->wb->memcg->online)
		inode_switch_wbs(inode, wbc->wb_id, task);
}

/* wbc_account_cgroup_owner(), folio by folio (4 KiB pages here); pages of
 * offline memcgs do not vote */
void wbsim_wbc_account_owner(struct wbsim_wbc *wbc, struct wbsim_inode *inode,
			     uint64_t first, uint64_t nr)
{
	struct wbsim_memcg_tree *t = inode->bdi->memcgs;

	if (!wbc->wb)
		return;
	for (uint64_t p = first; p < first + nr; p++) {
		unsigned int id = wbsim_page_memcg_get(inode->page_memcg, p);
		const struct wbsim_memcg *memcg = wbsim_memcg_from_id(t, id);
		uint64_t bytes = WBSIM_PAGE_SIZE;

		if (!memcg->online)
			continue;
		if (id == wbc->wb_id) {
			wbc->wb_bytes += bytes;
			continue;
		}
		if (id == wbc->wb_lcand_id)
			wbc->wb_lcand_bytes += bytes;
		/* Boyer-Moore majority vote */
		if (!wbc->wb_tcand_bytes)
			wbc->wb_tcand_id = id;
		if (id == wbc->wb_tcand_id)
			wbc->wb_tcand_bytes += bytes;
		else
			wbc->wb_tcand_bytes -= MIN(bytes, wbc->wb_tcand_bytes);
	}
}

/* wbc_detach_inode(): the round's winner and its IO time go into the
 * inode's foreign history; a foreign majority over about 2 s of IO time
 * switches the inode to the winner's wb. */
void wbsim_wbc_detach_inode(struct wbsim_wbc *wbc, struct wbsim_inode *inode,
			    const wbsim_task *task)
{
	struct wbsim_wb *wb = wbc->wb;
	unsigned int history, max_id;
	uint64_t max_bytes, avg_time;

	if (!wb)
		return;
	wbc->wb = NULL;
	history = inode->i_wb_frn_history;
	avg_time = inode->i_wb_frn_avg_time;
	if (wbc->wb_bytes >= wbc->wb_lcand_bytes && wbc->wb_bytes >= wbc->wb_tcand_bytes) {
		max_id = wbc->wb_id;
		max_bytes = wbc->wb_bytes;
	} else if (wbc->wb_lcand_bytes >= wbc->wb_tcand_bytes) {
		max_id = wbc->wb_lcand_id;
		max_bytes = wbc->wb_lcand_bytes;
	} else {
		max_id = wbc->wb_tcand_id;
		max_bytes = wbc->wb_tcand_bytes;
	}
	if (max_bytes) {
		uint64_t bw = MAX(wb->bw.avg_write_bandwidth, 1);
		uint64_t max_time = ((max_bytes >> WBSIM_PAGE_SHIFT) << WB_FRN_TIME_SHIFT);

		max_time = (max_time + bw - 1) / bw;
		/* the EWMA starts at the first round's time */
		if (avg_time)
			avg_time += (max_time >> WB_FRN_TIME_AVG_SHIFT) -
				    (avg_time >> WB_FRN_TIME_AVG_SHIFT);
		else
			avg_time = max_time;	/* immediate catch-up on the first round */
		if (max_time >= avg_time / WB_FRN_TIME_CUT_DIV) {
			unsigned int slots = (unsigned int)MIN((max_time + WB_FRN_HIST_UNIT - 1) /
							       WB_FRN_HIST_UNIT,
							       WB_FRN_HIST_MAX_SLOTS);

			history <<= slots;
			if (wbc->wb_id != max_id)
				history |= (1u << slots) - 1;
			/* the kernel traces the history before its u16 store cuts it */
			if (history)
				wbsim_trace_inode_foreign_history(inode, wb, task, history);
			history &= (1u << WB_FRN_HIST_SLOTS) - 1;
			if ((unsigned int)__builtin_popcount(history) > WB_FRN_HIST_THR_SLOTS)
				inode_switch_wbs(inode, max_id, task);
		}
	}
	inode->i_wb_frn_winner = max_id;
	inode->i_wb_frn_avg_time = (uint16_t)MIN(avg_time, UINT16_MAX);
	inode->i_wb_frn_history = (uint16_t)history;
}

/* ------------------------------------------------------------------------ */
/* Foreign flushes                                                          */

/* The record's flush works are all done: it may be flushed again. */
static void frn_flush_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_memcg_frn *frn = arg;

	frn->in_flight = false;
}

/* The wb a foreign flush to (ctx, @memcg) reaches: the live one, or under
 * the reachable variant a killed one not yet released. */
static struct wbsim_wb *frn_lookup(struct wbsim_bdi *bdi, unsigned int ctx,
				   const struct wbsim_memcg *memcg)
{
	struct wbsim_wb *wb = wbsim_wb_get_lookup(bdi, ctx, memcg);

	if (wb || !bdi->dying_wb_reachable)
		return wb;
	for (guint i = bdi->offline_cgwbs->len; i-- > 0;) {
		struct wbsim_wb *dead = bdi->offline_cgwbs->pdata[i];

		if (dead->ctx == ctx && dead->memcg == memcg)
			return dead;
	}
	return NULL;
}

/* cgroup_writeback_by_id(): a SYNC_NONE cyclic work of the target
 * memcg's own NR_FILE_DIRTY plus 25% on each context's wb of it; FALSE
 * (-ENOENT) when the memcg or its wb cannot be found.
 *
 * A removed memcg is still found: css_from_id() finds a css until it is
 * released, and its charged pages and its killed wb hold references, so
 * css_tryget() succeeds. What fails in today's kernel is the wb lookup
 * (wb_get_lookup() searches bdi->cgwb_tree, which cgwb_kill() left). */
static gboolean cgroup_writeback_by_id(struct wbsim_bdi *bdi, unsigned int id,
				       struct wbsim_memcg_frn *frn)
{
	struct wbsim_memcg *memcg = wbsim_memcg_from_id(bdi->memcgs, id);

	if (!memcg)
		return FALSE;
	/* the caller found no flush of this record in flight; a queued work
	 * only runs from a later event, so counting them as queued is safe */
	frn->pending = 0;
	for (unsigned int ctx = 0; ctx < bdi->nr_wb_ctx; ctx++) {
		struct wbsim_wb *wb = frn_lookup(bdi, ctx, memcg);
		struct wbsim_wb_work *work;

		if (!wb)
			continue;
		work = g_new0(struct wbsim_wb_work, 1);
		work->nr_pages = (int64_t)(memcg->nr_file_dirty * 10 / 8);
		work->sync_mode = WB_SYNC_NONE;
		work->range_cyclic = true;
		work->reason = WB_REASON_FOREIGN_FLUSH;
		work->auto_free = true;
		work->done_fn = frn_flush_done;
		work->done_arg = frn;
		work->done_count = &frn->pending;
		frn->pending++;
		wb->foreign_works++;
		wbsim_wb_queue_work(wb, work);
	}
	frn->in_flight = frn->pending > 0;
	return frn->in_flight;
}

void wbsim_mem_cgroup_flush_foreign(struct wbsim_wb *wb, const wbsim_task *task)
{
	struct wbsim_memcg *memcg = wb->memcg;
	struct wbsim_vm *vm = wb->bdi->vm;
	uint64_t now = wbsim_jiffies(vm);
	uint64_t intv = vm->dirty_expire_ns / vm->jiffy_ns;

	for (int i = 0; i < WBSIM_MEMCG_CGWB_FRN_CNT; i++) {
		struct wbsim_memcg_frn *frn = &memcg->frn[i];

		/* a record of the last expire interval with no flush in flight */
		if (frn->bdi_id && frn->at > now - intv && !frn->in_flight) {
			frn->at = 0;
			memcg->frn_flushes++;
			wbsim_trace_flush_foreign(wb, frn->bdi_id, frn->memcg_id, task);
			if (!cgroup_writeback_by_id(wb->bdi, frn->memcg_id, frn))
				memcg->frn_flush_failures++;
		}
	}
}

/* ------------------------------------------------------------------------ */
/* End of run and --check                                                   */

void wbsim_cgwb_clear(struct wbsim_bdi *bdi)
{
	for (guint i = 0; bdi->wb_list && i < bdi->wb_list->len; i++) {
		struct wbsim_wb *wb = bdi->wb_list->pdata[i];

		if (memcg_is_root(wb->memcg))
			continue;	/* a context's own wb: the bdi frees it */
		wbsim_writepages_clear(&wb->wp);
		wbsim_wb_clear(wb);
		g_free(wb);
	}
	g_clear_pointer(&bdi->wb_list, g_ptr_array_unref);
	g_clear_pointer(&bdi->offline_cgwbs, g_ptr_array_unref);
	if (bdi->cgwb_tree) {
		g_hash_table_destroy(bdi->cgwb_tree[0]);
		g_clear_pointer(&bdi->cgwb_tree, g_free);
	}
	g_clear_pointer(&bdi->isw_wq, wbsim_workqueue_free);
	/* switches the run ended before */
	for (guint i = 0; bdi->isw_pending && i < bdi->isw_pending->len; i++)
		isw_free(bdi->isw_pending->pdata[i]);
	g_clear_pointer(&bdi->isw_pending, g_ptr_array_unref);
}

gboolean wbsim_cgwb_check(struct wbsim_bdi *bdi, GPtrArray *inodes, GString *why)
{
	struct wbsim_memcg_tree *t = bdi->memcgs;
	g_autofree uint64_t *dirty = NULL, *wbk = NULL, *file = NULL;
	g_autofree uint64_t *wb_dirty = NULL, *wb_wbk = NULL;
	guint n;

	if (!wbsim_cgwb_enabled(bdi))
		return TRUE;
	n = t->all->len;
	dirty = g_new0(uint64_t, n + 1);
	wbk = g_new0(uint64_t, n + 1);
	file = g_new0(uint64_t, n + 1);
	/* per-memcg counters from the pages themselves (local, then summed up) */
	for (guint i = 0; i < inodes->len; i++) {
		struct wbsim_inode *inode = inodes->pdata[i];
		uint64_t p = 0;

		if (!inode->page_memcg)
			continue;
		while ((p = wbsim_page_cache_next(&inode->pages, WBSIM_PC_PRESENT, p)) !=
		       WBSIM_PGOFF_NONE) {
			unsigned int id = wbsim_page_memcg_get(inode->page_memcg, p);

			file[id]++;
			if (wbsim_page_cache_test(&inode->pages, WBSIM_PC_DIRTY, p))
				dirty[id]++;
			if (wbsim_page_cache_test(&inode->pages, WBSIM_PC_WRITEBACK, p))
				wbk[id]++;
			p++;
		}
	}
	/* children have larger ids than their parents: sum bottom up */
	for (guint id = n; id > 1; id--) {
		const struct wbsim_memcg *m = wbsim_memcg_from_id(t, id);

		dirty[m->parent->id] += dirty[id];
		wbk[m->parent->id] += wbk[id];
		file[m->parent->id] += file[id];
	}
	for (guint id = 2; id <= n; id++) {
		const struct wbsim_memcg *m = wbsim_memcg_from_id(t, id);

		if (m->nr_file_dirty != dirty[id] || m->nr_writeback != wbk[id] ||
		    m->nr_file != file[id]) {
			g_string_append_printf(why,
					       "memcg %s: counters dirty %" G_GUINT64_FORMAT
					       " writeback %" G_GUINT64_FORMAT " file %" G_GUINT64_FORMAT
					       ", its pages have %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
					       "/%" G_GUINT64_FORMAT,
					       m->path, m->nr_file_dirty, m->nr_writeback, m->nr_file,
					       dirty[id], wbk[id], file[id]);
			return FALSE;
		}
	}
	/* every wb's counters equal the sums over the inodes it owns */
	{
		guint nw = bdi->wb_list->len;
		g_autofree uint64_t *owned = g_new0(uint64_t, nw);
		GHashTable *index = g_hash_table_new(g_direct_hash, g_direct_equal);
		gboolean ok = TRUE;

		wb_dirty = g_new0(uint64_t, nw);
		wb_wbk = g_new0(uint64_t, nw);
		for (guint w = 0; w < nw; w++)
			g_hash_table_insert(index, bdi->wb_list->pdata[w], GUINT_TO_POINTER(w + 1));
		for (guint i = 0; i < inodes->len; i++) {
			struct wbsim_inode *inode = inodes->pdata[i];
			guint w = GPOINTER_TO_UINT(g_hash_table_lookup(index, inode->wb));

			if (!w--)
				continue;
			owned[w]++;
			wb_dirty[w] += wbsim_inode_acct(inode, WBSIM_PC_DIRTY);
			wb_wbk[w] += wbsim_inode_acct(inode, WBSIM_PC_WRITEBACK);
		}
		g_hash_table_destroy(index);
		for (guint w = 0; ok && w < nw; w++) {
			struct wbsim_wb *wb = bdi->wb_list->pdata[w];

			if (wb->stat_reclaimable == wb_dirty[w] && wb->stat_writeback == wb_wbk[w] &&
			    wb->nr_inodes == owned[w])
				continue;
			g_string_append_printf(why,
					       "wb %u of memcg %s%s: WB_RECLAIMABLE %" G_GUINT64_FORMAT
					       " WB_WRITEBACK %" G_GUINT64_FORMAT " inodes %u, its inodes "
					       "have %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
					       wb->ctx, wb->memcg ? wb->memcg->path : "/",
					       wb->dying ? " (dying)" : "", wb->stat_reclaimable,
					       wb->stat_writeback, wb->nr_inodes, wb_dirty[w], wb_wbk[w],
					       owned[w]);
			ok = FALSE;
		}
		if (!ok)
			return FALSE;
	}
	return TRUE;
}
