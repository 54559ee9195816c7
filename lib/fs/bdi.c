/* SPDX-License-Identifier: MIT */
/*
 * bdi.c - a backing device and its writeback contexts (kernel:
 * mm/backing-dev.c bdi_init/wb_init, and the parallel-writeback series'
 * bdi_writeback_ctx array). Every context's wb starts as the kernel's
 * wb_init() leaves it: INIT_BW bandwidth estimates, empty lists, no work.
 */
#include <wbsim/fs.h>
#include <wbsim/error.h>
#include <wbsim/affinity.h>
#include "core/lock.h"
#include "fs/bdi.h"
#include "fs/alloc/fs.h"
#include "fs/fs-writeback.h"
#include "fs/fs-glue.h"
#include "fs/wb-ctx-change.h"
#include "fs/cgroup-writeback.h"
#include "mm/page-memcg.h"
#include "mm/bandwidth.h"
#include "mm/page-writeback.h"
#include "core/sim.h"

/*
 * Models bdi_set_max_bytes(): the byte cap becomes a max_ratio against the
 * global dirty threshold of this moment (bdi_ratio_from_pages()), and stays
 * that ratio when the threshold later moves.
 */
static void bdi_set_max_bytes(struct wbsim_bdi *bdi, const struct wbsim_vm *vm,
			      uint64_t max_bytes)
{
	uint64_t bg_thresh, thresh, ratio;

	wbsim_global_dirty_limits(vm, &bg_thresh, &thresh);
	ratio = (max_bytes >> WBSIM_PAGE_SHIFT) * 100 * WBSIM_BDI_RATIO_SCALE /
		MAX(thresh, 1);
	bdi->dirty.max_ratio = (unsigned int)MIN(ratio, 100 * WBSIM_BDI_RATIO_SCALE);
}

/* What lib/mm calls of the flusher and cgroup writeback (defs/writeback.h). */
static const struct wbsim_writeback_ops fs_writeback_ops = {
	.mark_inode_dirty = wbsim_mark_inode_dirty,
	.start_background_writeback = wbsim_wb_start_background_writeback,
	.inode_writeback_done = wbsim_inode_maybe_detach,
	.dirtier_wb = wbsim_dirtier_wb,
	.pages_dirtied = wbsim_cgwb_pages_dirtied,
	.flush_foreign = wbsim_mem_cgroup_flush_foreign,
};

void wbsim_bdi_init(struct wbsim_bdi *bdi, struct wbsim_vm *vm, wbsim_cpus *cpus,
		    const struct wbsim_cpu_costs *costs, struct wbsim_blk_queue *queue,
		    struct wbsim_fs *fs, const struct wbsim_bdi_params *p)
{
	*bdi = (struct wbsim_bdi){ 0 };
	g_strlcpy(bdi->name, p->name, sizeof(bdi->name));
	bdi->vm = vm;
	bdi->sim = vm->sim;
	bdi->cpus = cpus;
	bdi->costs = costs;
	bdi->queue = queue;
	bdi->fs = fs;
	bdi->wb_ops = &fs_writeback_ops;
	bdi->affinity = p->affinity;
	bdi->memcgs = p->memcgs;
	bdi->dying_wb_reachable = p->dying_wb_reachable;
	bdi->wb_list = g_ptr_array_new();
	bdi->offline_cgwbs = g_ptr_array_new();
	bdi->max_request_pages = MAX(p->max_request_pages, 1);
	bdi->dirty.min_ratio = 0;
	bdi->dirty.max_ratio = 100 * WBSIM_BDI_RATIO_SCALE;
	bdi->dirty.max_prop_frac = WBSIM_FPROP_FRAC_BASE;
	bdi->dirty.strictlimit = p->strictlimit;
	if (p->max_bytes)
		bdi_set_max_bytes(bdi, vm, p->max_bytes);
	bdi->inodes = g_ptr_array_new();
	bdi->freeze_waiters = g_array_new(FALSE, FALSE, sizeof(struct wbsim_freeze_waiter));
	bdi->retired_wbs = g_ptr_array_new();
	bdi->nr_wb_ctx = MAX(p->nr_wb_ctx, 1);
	bdi->wb_ctx = g_new0(struct wbsim_wb *, bdi->nr_wb_ctx);
	for (unsigned int i = 0; i < bdi->nr_wb_ctx; i++) {
		bdi->wb_ctx[i] = g_new0(struct wbsim_wb, 1);
		wbsim_wb_init(bdi->wb_ctx[i], bdi, i);
		g_ptr_array_add(bdi->wb_list, bdi->wb_ctx[i]);
	}
}

void wbsim_bdi_clear(struct wbsim_bdi *bdi)
{
	wbsim_bdi_ctx_change_free(bdi);
	wbsim_cgwb_clear(bdi);
	for (unsigned int i = 0; i < bdi->nr_wb_ctx; i++) {
		wbsim_writepages_clear(&bdi->wb_ctx[i]->wp);
		wbsim_wb_clear(bdi->wb_ctx[i]);
		g_free(bdi->wb_ctx[i]);
	}
	g_clear_pointer(&bdi->wb_ctx, g_free);
	for (guint i = 0; bdi->retired_wbs && i < bdi->retired_wbs->len; i++) {
		struct wbsim_wb *wb = bdi->retired_wbs->pdata[i];

		wbsim_writepages_clear(&wb->wp);
		wbsim_wb_clear(wb);
		g_free(wb);
	}
	g_clear_pointer(&bdi->retired_wbs, g_ptr_array_unref);
	wbsim_sync_inodes_sb_free_all(bdi);
	g_clear_pointer(&bdi->freeze_waiters, g_array_unref);
	g_clear_pointer(&bdi->inodes, g_ptr_array_unref);
	wbsim_writepages_free_live_bios(bdi);
	g_clear_error(&bdi->failure);
}

void wbsim_bdi_fail(struct wbsim_bdi *bdi, const GError *error)
{
	if (!bdi->failure)
		bdi->failure = g_error_copy(error);
	wbsim_sim_stop(bdi->sim);
}

struct wbsim_inode *wbsim_inode_new(struct wbsim_bdi *bdi, struct wbsim_fs_inode *fs_inode,
				    const char *name, unsigned int folio_pages,
				    bool per_block_accounting)
{
	struct wbsim_inode *inode = g_new0(struct wbsim_inode, 1);

	inode->ino = wbsim_fs_inode_number(fs_inode);
	inode->name = g_strdup(name);
	inode->bdi = bdi;
	inode->fs_inode = fs_inode;
	wbsim_page_cache_init(&inode->pages, 1);
	/* folio_pages 0: the filesystem's choice per write (folio_size = auto) */
	if (folio_pages == 0 && bdi->fs)
		inode->max_folio_pages = wbsim_fs_max_folio_size(bdi->fs) / WBSIM_PAGE_SIZE;
	inode->per_block_accounting = per_block_accounting;
	wbsim_inode_set_folio_pages(inode, MAX(folio_pages, 1));
	wbsim_lock_init(&inode->i_rwsem, bdi->sim, "i_rwsem");
	/* a writer spins on it or sleeps (i_rwsem is a kernel rw_semaphore) */
	if (bdi->cpus && bdi->costs)
		wbsim_lock_set_rwsem(&inode->i_rwsem, bdi->cpus, bdi->costs->rwsem_sleep_ns,
				     bdi->costs->rwsem_wake_ns);
	inode->wb_locked_folio = WBSIM_PGOFF_NONE;
	/* created now: its timestamps are this tick's */
	if (bdi->vm)
		inode->mtime_tick = wbsim_jiffies(bdi->vm);
	g_ptr_array_add(bdi->inodes, inode);
	return inode;
}

void wbsim_inode_free(struct wbsim_inode *inode)
{
	if (!inode)
		return;
	wbsim_affinity_release(inode);
	wbsim_page_memcg_free(inode->page_memcg);
	wbsim_page_cache_destroy(&inode->pages);
	if (inode->sync_waiters)
		g_ptr_array_free(inode->sync_waiters, TRUE);
	wbsim_lock_clear(&inode->i_rwsem);
	g_free(inode->name);
	g_free(inode);
}

/* A counter that went below zero reads as a huge unsigned number. */
#define COUNTER_WRAPPED (UINT64_C(1) << 62)

gboolean wbsim_bdi_check(struct wbsim_bdi *bdi, bool all_wbs, bool deep, GError **error)
{
	const struct wbsim_vm *vm = bdi->vm;
	uint64_t dirty = 0, wbk = 0, reclaimable = 0, writeback = 0;
	unsigned int nr_wbs = all_wbs ? bdi->wb_list->len : bdi->nr_wb_ctx;

#define FAIL(...) do {									\
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION, __VA_ARGS__);	\
		return FALSE;								\
	} while (0)
	for (guint i = 0; i < bdi->inodes->len; i++) {
		struct wbsim_inode *inode = bdi->inodes->pdata[i];
		uint64_t d = wbsim_inode_nr_dirty(inode);
		uint64_t w = wbsim_page_cache_nr(&inode->pages, WBSIM_PC_WRITEBACK);

		/* the counters count accounted pages (whole folios, or blocks) */
		dirty += wbsim_inode_acct(inode, WBSIM_PC_DIRTY);
		wbk += wbsim_inode_acct(inode, WBSIM_PC_WRITEBACK);
		if (w != inode->nr_writeback)
			FAIL("%s: %" G_GUINT64_FORMAT " pages under writeback, inode counts %"
			     G_GUINT64_FORMAT, inode->name, w, inode->nr_writeback);
		if (d && (!inode->wb || (!inode->on_list && !(inode->i_state & I_SYNC))))
			FAIL("%s has %" G_GUINT64_FORMAT " dirty pages but is on no writeback list",
			     inode->name, d);
		/* a fixed affinity keeps every attached inode on its context */
		if (inode->wb && !bdi->ctx_changing &&
		    (bdi->affinity->flags & WBSIM_AFFINITY_FIXED) &&
		    inode->wb->ctx != wbsim_affinity_select(bdi, inode, NULL))
			FAIL("%s is on context %u, the affinity policy gives %u", inode->name,
			     inode->wb->ctx, wbsim_affinity_select(bdi, inode, NULL));
		if (inode->on_list && inode->wb && inode->on_list != &inode->wb->b_dirty &&
		    inode->on_list != &inode->wb->b_io && inode->on_list != &inode->wb->b_more_io &&
		    inode->on_list != &inode->wb->b_attached)
			FAIL("%s is on a list of another wb", inode->name);
	}
	for (unsigned int i = 0; i < nr_wbs; i++) {
		const struct wbsim_wb *wb = all_wbs ? bdi->wb_list->pdata[i] : bdi->wb_ctx[i];

		reclaimable += wb->stat_reclaimable;
		writeback += wb->stat_writeback;
		if (wb->stat_reclaimable >= COUNTER_WRAPPED || wb->stat_writeback >= COUNTER_WRAPPED)
			FAIL("wb %u counter below zero", i);
	}
	if (dirty != vm->nr_file_dirty)
		FAIL("NR_FILE_DIRTY = %" G_GUINT64_FORMAT " but %" G_GUINT64_FORMAT
		     " pages are dirty", vm->nr_file_dirty, dirty);
	if (wbk != vm->nr_writeback)
		FAIL("NR_WRITEBACK = %" G_GUINT64_FORMAT " but %" G_GUINT64_FORMAT
		     " pages are under writeback", vm->nr_writeback, wbk);
	if (reclaimable != vm->nr_file_dirty)
		FAIL("sum of WB_RECLAIMABLE = %" G_GUINT64_FORMAT " != NR_FILE_DIRTY = %"
		     G_GUINT64_FORMAT, reclaimable, vm->nr_file_dirty);
	if (writeback != vm->nr_writeback)
		FAIL("sum of WB_WRITEBACK = %" G_GUINT64_FORMAT " != NR_WRITEBACK = %"
		     G_GUINT64_FORMAT, writeback, vm->nr_writeback);
	if (deep) {
		g_autoptr(GString) why = g_string_new(NULL);

		if (!wbsim_cgwb_check(bdi, bdi->inodes, why))
			FAIL("cgroup writeback: %s", why->str);
	}
#undef FAIL
	return TRUE;
}
