/* SPDX-License-Identifier: MIT */
/*
 * test-cgroup-writeback.c - the cgroup writeback model on a bdi with no
 * device behind it: the memcg tree and its counters, per-page memcgs,
 * inode ownership, the owner vote and inode switching, foreign-dirty
 * records and foreign flushes under both dying_wb variants.
 */
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/error.h>
#include <wbsim/affinity.h>
#include <wbsim/device.h>
#include <wbsim/fs.h>
#include "fs/bdi.h"
#include "fs/cgroup-writeback.h"
#include "fs/fs-writeback.h"
#include "mm/page-writeback.h"
#include "mm/page-memcg.h"
#include "ideal-bdi.h"
#include "mm/vm.h"
#include "core/sim.h"
#include "fs/alloc/fs.h"

struct fx {
	struct ideal_bdi ib;
	struct wbsim_inode *inode;
	wbsim_task ta, tb;
	struct wbsim_dirtier da, db;
	struct wbsim_memcg *a, *b;
};

static struct fx *fx_new(bool reachable)
{
	struct fx *fx = g_new0(struct fx, 1);

	ideal_bdi_open(&fx->ib, 4, reachable);
	fx->inode = wbsim_inode_new(&fx->ib.bdi, wbsim_fs_create(fx->ib.fs, wbsim_fs_root(fx->ib.fs)),
				    "/mnt/f", 1, false);
	wbsim_task_init(&fx->ta, "a", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&fx->tb, "b", WBSIM_TASK_DIRTIER);
	wbsim_dirtier_init(&fx->da, &fx->ta);
	wbsim_dirtier_init(&fx->db, &fx->tb);
	fx->a = wbsim_cgroup_mkdir(&fx->ib.bdi, "/c/a", UINT64_MAX, UINT64_MAX, NULL);
	fx->b = wbsim_cgroup_mkdir(&fx->ib.bdi, "/c/b", UINT64_MAX, UINT64_MAX, NULL);
	wbsim_dirtier_set_memcg(&fx->da, fx->a);
	wbsim_dirtier_set_memcg(&fx->db, fx->b);
	return fx;
}

static void fx_free(struct fx *fx)
{
	ideal_bdi_clear(&fx->ib);
	wbsim_inode_free(fx->inode);
	wbsim_task_clear(&fx->ta);
	wbsim_task_clear(&fx->tb);
	ideal_bdi_close(&fx->ib);
	g_free(fx);
}

/* Pages a wb is accountable for: dirty, under writeback, or written by
 * it. A switched inode's counts go with it; the new wb's flusher may then
 * write them (a new wb has no completions yet, so it is over its share of
 * the background threshold at once). */
static uint64_t wb_pages(const struct wbsim_wb *wb)
{
	return wb->stat_reclaimable + wb->stat_writeback + wb->stat_written;
}

/* A buffered write's page part: the hook, the page cache, point (a). */
static void dirty(struct fx *fx, struct wbsim_dirtier *d, uint64_t first, uint64_t nr)
{
	uint64_t newly;

	wbsim_cgwb_pages_dirtied(fx->inode, d, first, nr);
	newly = wbsim_page_cache_mark_dirty(&fx->inode->pages, first, nr);
	if (newly)
		wbsim_account_page_dirtied(fx->inode, d, newly);
}

static void assert_consistent(struct fx *fx)
{
	GString *why = g_string_new(NULL);
	gboolean ok = wbsim_cgwb_check(&fx->ib.bdi, fx->ib.bdi.inodes, why);

	if (!ok)
		fprintf(stderr, "check: %s\n", why->str);
	assert_true(ok);
	g_string_free(why, TRUE);
}

static void test_memcg_tree(void **state)
{
	struct fx *fx = fx_new(false);
	struct wbsim_memcg_tree *t = &fx->ib.vm.memcgs;
	GError *error = NULL;

	(void)state;
	/* mkdir -p: /c (2), /c/a (3), /c/b (4) */
	assert_int_equal(t->all->len, 4);
	assert_int_equal(fx->a->id, 3);
	assert_ptr_equal(wbsim_memcg_lookup(t, "/c/a"), fx->a);
	assert_ptr_equal(wbsim_memcg_lookup(t, "/"), t->root);
	assert_null(wbsim_memcg_lookup(t, "/c/x"));
	assert_null(wbsim_memcg_lookup(t, "c/a"));
	assert_null(wbsim_cgroup_mkdir(&fx->ib.bdi, "/c/a", UINT64_MAX, UINT64_MAX, &error));
	assert_string_equal(error->message, "cgroup path '/c/a': the cgroup exists already");
	g_clear_error(&error);
	assert_null(wbsim_cgroup_mkdir(&fx->ib.bdi, "/c//a", UINT64_MAX, UINT64_MAX, &error));
	assert_string_equal(error->message, "cgroup path '/c//a': expected an absolute path below "
					    "the root such as /e7/a");
	g_clear_error(&error);
	/* rmdir is refused while tasks or online children remain */
	assert_false(wbsim_cgroup_rmdir(&fx->ib.bdi, fx->a, &error));
	assert_string_equal(error->message, "cgroup /c/a: busy: 1 tasks are still in it");
	g_clear_error(&error);
	assert_false(wbsim_cgroup_rmdir(&fx->ib.bdi, fx->a->parent, &error));
	assert_string_equal(error->message, "cgroup /c: busy: it has the child cgroup /c/a");
	g_clear_error(&error);
	wbsim_dirtier_set_memcg(&fx->da, NULL);
	assert_true(wbsim_cgroup_rmdir(&fx->ib.bdi, fx->a, &error));
	assert_false(fx->a->online);
	assert_null(wbsim_memcg_lookup(t, "/c/a"));
	/* a new /c/a is another memcg with a new id */
	assert_int_equal(wbsim_cgroup_mkdir(&fx->ib.bdi, "/c/a", UINT64_MAX, UINT64_MAX, NULL)->id, 5);
	/* blkcg association: own while the parent delegates io */
	assert_ptr_equal(wbsim_memcg_blkcg(fx->b), fx->b);
	wbsim_cgroup_set_io(&fx->ib.bdi, fx->b->parent, false);
	assert_ptr_equal(wbsim_memcg_blkcg(fx->b), fx->b->parent);
	fx_free(fx);
}

static void test_wb_stats_limits(void **state)
{
	struct fx *fx = fx_new(false);
	uint64_t filepages, headroom, dirty, writeback;

	(void)state;
	fx->a->parent->max_pages = 1000;
	wbsim_memcg_mod_file(fx->a, 600);
	wbsim_memcg_mod_dirty(fx->a, 100);
	wbsim_memcg_wb_stats(fx->a, &filepages, &headroom, &dirty, &writeback);
	assert_int_equal(filepages, 600);
	assert_int_equal(headroom, 400);
	assert_int_equal(dirty, 100);
	assert_int_equal(fx->a->parent->nr_file, 600);	/* hierarchical */
	/* the sibling's pages use up the parent's headroom */
	wbsim_memcg_mod_file(fx->b, 300);
	wbsim_memcg_wb_stats(fx->a, &filepages, &headroom, &dirty, &writeback);
	assert_int_equal(headroom, 100);
	/* past the parent's limit (1500 charged): reclaimed down to it, from
	 * each child in proportion, 1200 * 1000 / 1500; no headroom */
	wbsim_memcg_mod_file(fx->a, 600);
	wbsim_memcg_wb_stats(fx->a, &filepages, &headroom, &dirty, &writeback);
	assert_int_equal(filepages, 800);
	assert_int_equal(headroom, 0);
	wbsim_memcg_wb_stats(fx->b, &filepages, &headroom, &dirty, &writeback);
	assert_int_equal(filepages, 200);
	/* its own tighter limit wins: 1200 charged under 600 */
	fx->a->max_pages = 600;
	wbsim_memcg_wb_stats(fx->a, &filepages, &headroom, &dirty, &writeback);
	assert_int_equal(filepages, 600);
	fx->a->max_pages = UINT64_MAX;
	wbsim_memcg_mod_file(fx->a, -1200);
	wbsim_memcg_mod_file(fx->b, -300);
	wbsim_memcg_mod_dirty(fx->a, -100);
	assert_int_equal(fx->ib.vm.memcgs.root->nr_file, 0);
	fx_free(fx);
}

static void test_page_memcg_map(void **state)
{
	struct wbsim_page_memcg *pm = wbsim_page_memcg_new();
	size_t empty;

	(void)state;
	assert_int_equal(wbsim_page_memcg_get(NULL, 5), WBSIM_ROOT_MEMCG_ID);
	assert_int_equal(wbsim_page_memcg_get(pm, 5), WBSIM_ROOT_MEMCG_ID);
	empty = wbsim_page_memcg_mem_bytes(pm);
	wbsim_page_memcg_set(pm, 5, WBSIM_ROOT_MEMCG_ID);	/* no chunk for root */
	assert_int_equal(wbsim_page_memcg_mem_bytes(pm), empty);
	wbsim_page_memcg_set(pm, 5, 3);
	assert_true(wbsim_page_memcg_mem_bytes(pm) > empty);
	wbsim_page_memcg_set(pm, 1000000, 4);
	assert_int_equal(wbsim_page_memcg_get(pm, 5), 3);
	assert_int_equal(wbsim_page_memcg_get(pm, 6), WBSIM_ROOT_MEMCG_ID);
	assert_int_equal(wbsim_page_memcg_get(pm, 1000000), 4);
	wbsim_page_memcg_set(pm, 5, WBSIM_ROOT_MEMCG_ID);
	assert_int_equal(wbsim_page_memcg_get(pm, 5), WBSIM_ROOT_MEMCG_ID);
	wbsim_page_memcg_free(pm);
}

/* The first dirtier owns the inode; the second one's pages are foreign
 * and recorded in its memcg. */
static void test_ownership_and_foreign_record(void **state)
{
	struct fx *fx = fx_new(false);
	struct wbsim_wb *wa;

	(void)state;
	dirty(fx, &fx->da, 0, 10);
	wa = fx->inode->wb;
	assert_non_null(wa);
	assert_ptr_equal(wa->memcg, fx->a);
	assert_ptr_not_equal(wa, fx->ib.bdi.wb_ctx[0]);
	assert_int_equal(wa->stat_reclaimable, 10);
	assert_int_equal(fx->a->nr_file_dirty, 10);
	assert_int_equal(fx->a->nr_file, 10);
	/* rewriting dirty pages changes nothing */
	dirty(fx, &fx->da, 5, 5);
	assert_int_equal(fx->a->nr_file_dirty, 10);
	dirty(fx, &fx->db, 10, 5);
	assert_ptr_equal(fx->inode->wb, wa);	/* still a's */
	assert_int_equal(wa->stat_reclaimable, 15);
	assert_int_equal(fx->b->nr_file_dirty, 5);
	assert_int_equal(fx->a->parent->nr_file_dirty, 15);
	assert_int_equal(fx->b->frn[0].bdi_id, 1);
	assert_int_equal(fx->b->frn[0].memcg_id, fx->a->id);
	assert_int_equal(fx->a->frn[0].bdi_id, 0);	/* a's own pages: no record */
	/* the dirtier throttles against its own memcg's wb */
	assert_ptr_equal(wbsim_dirtier_wb(&fx->ib.bdi, fx->inode, fx->b)->memcg, fx->b);
	assert_ptr_equal(wbsim_dirtier_wb(&fx->ib.bdi, fx->inode, fx->a), wa);
	assert_consistent(fx);
	fx_free(fx);
}

/* One writeback round of the inode: b's pages 10..14 vote. */
static void vote_round(struct fx *fx)
{
	struct wbsim_wbc wbc = { 0 };

	wbsim_wbc_attach_inode(&wbc, fx->inode, NULL);
	wbsim_wbc_account_owner(&wbc, fx->inode, 10, 5);
	wbsim_wbc_detach_inode(&wbc, fx->inode, NULL);
}

static void test_owner_vote_switches_with_counts(void **state)
{
	struct fx *fx = fx_new(false);
	struct wbsim_wb *wa, *wb;
	uint64_t total;

	(void)state;
	dirty(fx, &fx->da, 0, 10);
	dirty(fx, &fx->db, 10, 5);
	wa = fx->inode->wb;
	total = wa->stat_reclaimable;
	/* 20 KiB at the initial 100 MB/s bandwidth is 2/8192 s: one 125 ms
	 * slot per round; a switch needs more than 8 foreign slots of 16 */
	for (int i = 0; i < 8; i++)
		vote_round(fx);
	assert_int_equal(fx->inode->i_wb_frn_history, 0xff);
	assert_int_equal(fx->inode->i_wb_frn_winner, fx->b->id);
	assert_false(fx->inode->wb_switching);
	vote_round(fx);
	assert_true(fx->inode->wb_switching);
	assert_int_equal(fx->ib.bdi.isw_in_flight, 1);
	/* the switch happens after an RCU grace period, on the isw workqueue */
	assert_ptr_equal(fx->inode->wb, wa);
	wbsim_sim_run_until(fx->ib.sim, 50 * WBSIM_NSEC_PER_MSEC);
	wb = fx->inode->wb;
	assert_ptr_equal(wb->memcg, fx->b);
	assert_int_equal(wb_pages(wb), total);
	assert_int_equal(wb_pages(wa), 0);
	assert_int_equal(wa->nr_inodes, 0);
	assert_int_equal(wb->nr_inodes, 1);
	assert_null(wa->b_dirty.head);
	assert_int_equal(wa->b_dirty.length + wa->b_io.length + wa->b_more_io.length, 0);
	assert_int_equal(fx->ib.bdi.isw_done, 1);
	assert_int_equal(fx->ib.bdi.isw_in_flight, 0);
	/* the memcg charges stay with the pages (the new wb's flusher may
	 * have written some: assert_consistent() checks the counters) */
	assert_int_equal(fx->a->nr_file, 10);
	assert_int_equal(fx->b->nr_file, 5);
	assert_consistent(fx);
	fx_free(fx);
}

/* A foreign flush reaches a live wb; after its cgroup is removed it
 * reaches the killed wb only under the reachable variant. */
static void flush_case(bool reachable, bool remove, uint64_t want_failures)
{
	struct fx *fx = fx_new(reachable);
	struct wbsim_wb *wa, *wbb;

	dirty(fx, &fx->da, 0, 10);
	dirty(fx, &fx->db, 10, 5);
	wa = fx->inode->wb;
	if (remove) {
		wbsim_dirtier_set_memcg(&fx->da, NULL);
		assert_true(wbsim_cgroup_rmdir(&fx->ib.bdi, fx->a, NULL));
		assert_true(wa->dying);
		/* the inode stays on the killed wb */
		assert_ptr_equal(fx->inode->wb, wa);
	}
	if (remove) {
		/* the removed memcg is still found by its id (its pages and
		 * its killed wb pin the css); its killed wb is not in the
		 * index, where today's kernel looks */
		assert_ptr_equal(wbsim_memcg_from_id(&fx->ib.vm.memcgs, fx->a->id), fx->a);
		assert_null(wbsim_wb_get_lookup(&fx->ib.bdi, 0, fx->a));
	}
	wbb = wbsim_dirtier_wb(&fx->ib.bdi, fx->inode, fx->b);
	wbsim_mem_cgroup_flush_foreign(wbb, NULL);
	assert_int_equal(fx->b->frn_flushes, 1);
	assert_int_equal(fx->b->frn_flush_failures, want_failures);
	assert_int_equal(wa->foreign_works, 1 - want_failures);
	assert_int_equal(wa->work_list.length, 1 - want_failures);
	assert_int_equal(fx->b->frn[0].in_flight, !want_failures);
	if (!want_failures) {
		const struct wbsim_wb_work *w = (const struct wbsim_wb_work *)
			((const char *)wa->work_list.head - G_STRUCT_OFFSET(struct wbsim_wb_work, link));

		/* the target memcg's own dirty pages (a's 10) plus 25%, not
		 * the wb's 15 (b's 5 are charged to b) */
		assert_int_equal(w->nr_pages, 12);
	}
	/* the record is consumed: no second flush until b dirties again */
	wbsim_mem_cgroup_flush_foreign(wbb, NULL);
	assert_int_equal(fx->b->frn_flushes, 1);
	fx_free(fx);
}

static void test_foreign_flush_live(void **state)
{
	(void)state;
	flush_case(false, false, 0);
	flush_case(true, false, 0);
}

static void test_foreign_flush_killed(void **state)
{
	(void)state;
	flush_case(false, true, 1);
	flush_case(true, true, 0);
}

/* Write every dirty page of @wb (a start-all work) and let it finish. */
static void write_all(struct fx *fx, struct wbsim_wb *wb)
{
	wbsim_wb_start_writeback(wb, WB_REASON_SYNC);
	wbsim_sim_run_until(fx->ib.sim, wbsim_sim_now(fx->ib.sim) + WBSIM_NSEC_PER_SEC);
	assert_int_equal(wb->stat_reclaimable + wb->stat_writeback, 0);
}

/* A page is charged to the memcg of the task that brought it into the
 * cache, whoever owns the inode, and its dirty state is counted there;
 * removing that memcg moves nothing: its pages, their memcg and its
 * counters stay (no LRU reparenting; only kmem objcgs are reparented). */
static void test_charges_stay_with_the_allocator(void **state)
{
	struct fx *fx = fx_new(false);
	struct wbsim_memcg *c;

	(void)state;
	dirty(fx, &fx->da, 0, 10);
	dirty(fx, &fx->db, 10, 5);
	c = fx->a->parent;
	assert_int_equal(fx->a->nr_file_dirty, 10);
	assert_int_equal(fx->b->nr_file_dirty, 5);
	assert_int_equal(fx->inode->wb->stat_reclaimable, 15);	/* a's wb owns all */
	wbsim_dirtier_set_memcg(&fx->da, NULL);
	assert_true(wbsim_cgroup_rmdir(&fx->ib.bdi, fx->a, NULL));
	assert_int_equal(wbsim_page_memcg_get(fx->inode->page_memcg, 0), fx->a->id);
	assert_int_equal(wbsim_page_memcg_get(fx->inode->page_memcg, 10), fx->b->id);
	assert_int_equal(fx->a->nr_file_dirty, 10);
	assert_int_equal(fx->a->nr_file, 10);
	assert_int_equal(c->nr_file_dirty, 15);
	/* b's further pages on the inode the killed wb owns: charged to b */
	dirty(fx, &fx->db, 15, 5);
	assert_int_equal(fx->b->nr_file_dirty, 10);
	assert_int_equal(fx->a->nr_file_dirty, 10);
	assert_int_equal(fx->inode->wb->stat_reclaimable, 20);
	assert_true(fx->inode->wb->dying);
	assert_consistent(fx);
	fx_free(fx);
}

/* wb_over_bg_thresh() of a killed wb whose memcg is offline and has no
 * dirty page left: its memcg domain reads the dead memcg's own counters
 * (NR_FILE_DIRTY 0, its remaining file pages), and the wb is over the
 * background threshold only through its WB_RECLAIMABLE (the sibling's
 * pages on its inodes) against its share of that domain's bg_thresh. */
static bool dying_wb_over_bg(uint64_t a_pages, uint64_t b_pages, uint64_t *m_dirty)
{
	struct fx *fx = fx_new(false);
	struct wbsim_vm *vm = &fx->ib.vm;
	struct wbsim_wb *wa;
	struct wbsim_dtc gdtc = { .avail = wbsim_vm_dirtyable_memory(vm) }, mdtc;
	bool over;

	dirty(fx, &fx->da, 0, a_pages);
	wa = fx->inode->wb;
	write_all(fx, wa);
	assert_int_equal(fx->a->nr_file_dirty, 0);
	wbsim_dirtier_set_memcg(&fx->da, NULL);
	assert_true(wbsim_cgroup_rmdir(&fx->ib.bdi, fx->a, NULL));
	dirty(fx, &fx->db, a_pages, b_pages);
	assert_ptr_equal(fx->inode->wb, wa);
	assert_int_equal(wa->stat_reclaimable, b_pages);
	/* the parent is at its limit: no headroom, the domain is the dead
	 * memcg's file pages */
	fx->a->parent->max_pages = a_pages + b_pages;
	gdtc.dirty = vm->nr_file_dirty;
	assert_true(wbsim_wb_mdtc(wa, &gdtc, &mdtc, false));
	assert_ptr_equal(mdtc.dom, &fx->a->dom);
	*m_dirty = mdtc.dirty;
	assert_int_equal(mdtc.avail, a_pages);
	over = wbsim_wb_check_over_bg_thresh(wa);
	fx_free(fx);
	return over;
}

static void test_dying_wb_bg_thresh(void **state)
{
	uint64_t m_dirty;

	(void)state;
	/* few pages of the dead memcg left: 10 % of 16 is 1 page, the
	 * sibling's 200 are over it */
	assert_true(dying_wb_over_bg(16, 200, &m_dirty));
	assert_int_equal(m_dirty, 0);
	/* many left: 10 % of 4000 covers the sibling's 200 */
	assert_false(dying_wb_over_bg(4000, 200, &m_dirty));
	assert_int_equal(m_dirty, 0);
}

/* The offline cleanup moves a killed wb's clean inodes to the wb of its
 * memcg's parent (first living ancestor from the parent up), also for a
 * wb killed by a blkcg change whose memcg lives; only a memcg removal
 * queues it. */
static void test_cleanup_moves_to_parent(void **state)
{
	struct fx *fx = fx_new(false);
	struct wbsim_wb *old;

	(void)state;
	dirty(fx, &fx->da, 0, 10);
	old = fx->inode->wb;
	write_all(fx, old);
	wbsim_cgroup_set_io(&fx->ib.bdi, fx->a->parent, false);
	assert_true(old->dying);
	wbsim_sim_run_until(fx->ib.sim, wbsim_sim_now(fx->ib.sim) + 100 * WBSIM_NSEC_PER_MSEC);
	assert_ptr_equal(fx->inode->wb, old);	/* nothing queued the cleanup */
	wbsim_dirtier_set_memcg(&fx->db, NULL);
	assert_true(wbsim_cgroup_rmdir(&fx->ib.bdi, fx->b, NULL));
	assert_true(fx->ib.bdi.cleanup_queued);
	wbsim_sim_run_until(fx->ib.sim, wbsim_sim_now(fx->ib.sim) + 100 * WBSIM_NSEC_PER_MSEC);
	assert_ptr_equal(fx->inode->wb->memcg, fx->a->parent);
	assert_false(fx->inode->wb->dying);
	assert_int_equal(old->nr_inodes, 0);
	assert_consistent(fx);
	fx_free(fx);
}

/* dirty_writeback_centisecs = 0: wb_wakeup_delayed() queues the flusher
 * at once when an inode goes dirty on a wb without dirty IO, and
 * wb_workfn() arms no periodic wakeup afterwards, so a wb left with
 * dirty IO is not woken again (kupdate is off as well). */
static void test_periodic_writeback_off(void **state)
{
	struct fx *fx = fx_new(false);
	struct wbsim_wb *wa;
	wbsim_time_t t;

	(void)state;
	fx->ib.vm.dirty_writeback_ns = 0;
	t = wbsim_sim_now(fx->ib.sim);
	dirty(fx, &fx->da, 0, 10);
	wa = fx->inode->wb;
	assert_true(wbsim_timer_pending(&wa->dwork));
	assert_int_equal(wa->dwork.expires, t);
	/* a new wb has written nothing: over its zero share, it writes all */
	wbsim_sim_run_until(fx->ib.sim, t + WBSIM_NSEC_PER_SEC);
	assert_int_equal(wa->stat_reclaimable + wa->stat_writeback, 0);
	t = wbsim_sim_now(fx->ib.sim);
	dirty(fx, &fx->da, 10, 10);
	assert_true(wbsim_timer_pending(&wa->dwork));
	assert_int_equal(wa->dwork.expires, t);
	/* now within its share: the flusher runs, writes nothing, and
	 * leaves no wakeup behind */
	wbsim_sim_run_until(fx->ib.sim, t + WBSIM_NSEC_PER_SEC);
	assert_int_equal(wa->stat_reclaimable, 10);
	assert_true(wa->has_dirty_io);
	assert_false(wbsim_timer_pending(&wa->dwork));
	fx_free(fx);
}

/* io disabled on the parent: the wb is replaced; reachable hands the
 * inodes to the successor, unreachable leaves them on the killed wb. */
static void replace_case(bool reachable)
{
	struct fx *fx = fx_new(reachable);
	struct wbsim_wb *old, *succ;

	dirty(fx, &fx->da, 0, 10);
	old = fx->inode->wb;
	wbsim_cgroup_set_io(&fx->ib.bdi, fx->a->parent, false);
	assert_true(old->dying);
	/* wb_blkcg_offline() queues no offline cleanup */
	assert_false(fx->ib.bdi.cleanup_queued);
	succ = wbsim_wb_get_create(&fx->ib.bdi, 0, fx->a);
	assert_ptr_not_equal(succ, old);
	assert_ptr_equal(succ->blkcg, fx->a->parent);
	assert_ptr_equal(wbsim_wb_get_lookup(&fx->ib.bdi, 0, fx->a), succ);
	wbsim_sim_run_until(fx->ib.sim, 50 * WBSIM_NSEC_PER_MSEC);
	assert_ptr_equal(fx->inode->wb, reachable ? succ : old);
	assert_int_equal(wb_pages(succ), reachable ? 10 : 0);
	assert_int_equal(wb_pages(old), reachable ? 0 : 10);
	if (!reachable) {
		/* its next writeback round moves it: the memcg is alive */
		struct wbsim_wbc wbc = { 0 };

		wbsim_wbc_attach_inode(&wbc, fx->inode, NULL);
		wbsim_wbc_detach_inode(&wbc, fx->inode, NULL);
		wbsim_sim_run_until(fx->ib.sim, 100 * WBSIM_NSEC_PER_MSEC);
		assert_ptr_equal(fx->inode->wb, succ);
		assert_int_equal(wb_pages(succ), 10);
		assert_int_equal(wb_pages(old), 0);
	}
	assert_consistent(fx);
	fx_free(fx);
}

static void test_blkcg_replacement(void **state)
{
	(void)state;
	replace_case(false);
	replace_case(true);
}

/* A run may end while switches wait for their grace period: the bdi
 * frees them (LeakSanitizer and valgrind check it in CI). */
static void test_pending_switch_at_end(void **state)
{
	struct fx *fx = fx_new(true);

	(void)state;
	dirty(fx, &fx->da, 0, 10);
	wbsim_cgroup_set_io(&fx->ib.bdi, fx->a->parent, false);
	assert_int_equal(fx->ib.bdi.isw_in_flight, 1);
	assert_int_equal(fx->ib.bdi.isw_pending->len, 1);
	fx_free(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcg_tree),
		cmocka_unit_test(test_wb_stats_limits),
		cmocka_unit_test(test_page_memcg_map),
		cmocka_unit_test(test_ownership_and_foreign_record),
		cmocka_unit_test(test_charges_stay_with_the_allocator),
		cmocka_unit_test(test_dying_wb_bg_thresh),
		cmocka_unit_test(test_cleanup_moves_to_parent),
		cmocka_unit_test(test_periodic_writeback_off),
		cmocka_unit_test(test_owner_vote_switches_with_counts),
		cmocka_unit_test(test_foreign_flush_live),
		cmocka_unit_test(test_foreign_flush_killed),
		cmocka_unit_test(test_blkcg_replacement),
		cmocka_unit_test(test_pending_switch_at_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
