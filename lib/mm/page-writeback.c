/* SPDX-License-Identifier: MIT */
/*
 * page-writeback.c - where the page cache meets the throttle: the four
 * accounting points of dirtying and writeback, the asynchronous
 * balance_dirty_pages() of a writing task, and the bandwidth update hooks
 * (kernel: mm/page-writeback.c). The control law itself is in throttle.c,
 * bandwidth.c, position-ratio.c and dirty-limits.c.
 *
 * Per-memcg page counters are kept by fs/cgroup-writeback.c's page hooks.
 * Left out: NR_ZONE_WRITE_PENDING,
 * per-CPU counter drift (counters are exact; wb_stat_error only gates the
 * decisions the kernel gates with it), dirty_throttle_leaks of exited tasks.
 */
#include <wbsim/block.h>
#include "mm/page-writeback.h"
#include "mm/bandwidth.h"
#include "mm/dirty-limits.h"
#include "defs/writeback.h"
#include "mm/page-writeback-trace.h"
#include "block/blk.h"

void wbsim_dirtier_init(struct wbsim_dirtier *d, wbsim_task *task)
{
	*d = (struct wbsim_dirtier){ 0 };
	d->task = task;
	wbsim_task_dirty_init(&d->td);
}

/* this_cpu_ptr(): the per-CPU counters of the CPU @d's task runs on. A
 * dirtier dirties and throttles between its CPU bursts, so that is the CPU
 * of its last burst (0 before its first). */
static struct wbsim_cpu_dirty *dirtier_cpu(struct wbsim_vm *vm, struct wbsim_dirtier *d)
{
	return &vm->cpu_dirty[d->task->last_cpu % vm->dirty.nr_cpus];
}

/* (a) folio_account_dirtied() + __mark_inode_dirty(I_DIRTY_PAGES) */
void wbsim_account_page_dirtied(struct wbsim_inode *inode, struct wbsim_dirtier *d, uint64_t nr)
{
	struct wbsim_vm *vm = inode->bdi->vm;
	struct wbsim_wb *wb;

	/* The inode is attached first: its wb takes the WB_* stats. */
	inode->bdi->wb_ops->mark_inode_dirty(inode, d->task, d->memcg);
	wb = inode->wb;
	vm->nr_file_dirty += nr;
	vm->nr_dirtied += nr;
	wb->stat_reclaimable += nr;
	wb->stat_dirtied += nr;
	wbsim_task_account_dirtied(&d->td, dirtier_cpu(vm, d), nr);
}

/* (b) folio_clear_dirty_for_io() and (c) __folio_start_writeback():
 * @nr accounted pages, @blocks blocks going under writeback */
void wbsim_account_start_writeback(struct wbsim_inode *inode, struct wbsim_wb *wb, uint64_t nr,
				   uint64_t blocks)
{
	struct wbsim_vm *vm = inode->bdi->vm;

	vm->nr_file_dirty -= nr;
	wb->stat_reclaimable -= nr;
	vm->nr_writeback += nr;
	wb->stat_writeback += nr;
	if (inode->nr_writeback == 0)
		wb->writeback_inodes++;
	inode->nr_writeback += blocks;
}

/* Folios of @inode among the blocks [first, first + nr) none of whose
 * blocks has @mark (the folio size, whatever the accounting). */
uint64_t wbsim_inode_folios_without(const struct wbsim_inode *inode, enum wbsim_pc_mark mark,
				    uint64_t first, uint64_t nr)
{
	uint64_t f = inode->folio_pages, count = 0;

	/* single-page folios: the pages in the range without the mark (one
	 * bit test for a write of one page, the common case) */
	if (f == 1 && nr == 1)
		return !wbsim_page_cache_test(&inode->pages, mark, first);
	if (f == 1)
		return nr - wbsim_page_cache_count(&inode->pages, mark, first, nr);
	for (uint64_t fo = first / f; fo * f < first + nr; fo++) {
		uint64_t next = wbsim_page_cache_next(&inode->pages, mark, fo * f);

		if (next == WBSIM_PGOFF_NONE || next >= (fo + 1) * f)
			count++;
	}
	return count;
}

/* (a) what __folio_mark_dirty() -> folio_account_dirtied() charges for a
 * write into @inode: with whole-folio accounting folio_nr_pages() for each
 * of the @folios that went clean -> dirty (a 50-byte write into a clean
 * 2 MiB folio: 512 pages); per block, the @blocks newly dirty. */
uint64_t wbsim_inode_dirty_charge(const struct wbsim_inode *inode, uint64_t folios,
				  uint64_t blocks)
{
	return inode->acct_folio > 1 ? folios * inode->acct_folio : blocks;
}

/* The accounted pages of @inode's blocks with @mark: the blocks, or one
 * folio's worth for every folio that has such a block. */
uint64_t wbsim_inode_acct(const struct wbsim_inode *inode, enum wbsim_pc_mark mark)
{
	uint64_t f = inode->acct_folio;

	return f * wbsim_page_cache_count_folios(&inode->pages, mark, f);
}

/* (d) __folio_end_writeback(): counters, the fprop completion event, and
 * for the inode's last page the 200 ms bandwidth work and the waiters:
 * @nr accounted pages, @blocks blocks leaving writeback. */
void wbsim_account_end_writeback(struct wbsim_inode *inode, struct wbsim_wb *wb, uint64_t nr,
				 uint64_t blocks)
{
	struct wbsim_vm *vm = inode->bdi->vm;

	vm->nr_writeback -= nr;
	vm->nr_written += nr;
	wb->stat_writeback -= nr;
	wb->stat_written += nr;
	if (nr)
		wbsim_vm_writeout_add(vm, wb, nr);
	inode->nr_writeback -= blocks;
	if (inode->nr_writeback == 0) {
		wb->writeback_inodes--;
		/* wb_inode_writeback_end(): a pending work is not re-armed */
		if (!wbsim_timer_pending(&wb->bw_dwork))
			wbsim_timer_arm(vm->sim, &wb->bw_dwork,
					wbsim_sim_now(vm->sim) +
					wbsim_jiffies_to_ns(vm, wbsim_bandwidth_interval(vm->dirty.hz)));
		inode->bdi->wb_ops->inode_writeback_done(inode);
		wbsim_inode_wake(inode, vm->sim);
	}
}

/* ------------------------------------------------------------------------ */
/* Inode waiters (I_SYNC, folio lock, writeback end)                        */

void wbsim_inode_wait(struct wbsim_inode *inode, int what, wbsim_event_fn fn, void *arg)
{
	struct wbsim_inode_waiter *w = g_new(struct wbsim_inode_waiter, 1);

	w->what = what;
	w->fn = fn;
	w->arg = arg;
	w->folio = inode->wb_locked_folio;
	/* the array owns its waiters: an inode freed while some still wait
	 * (a run cut by time_limit during an fsync) frees them too */
	if (!inode->sync_waiters)
		inode->sync_waiters = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(inode->sync_waiters, w);
}

/* Wake the waiters whose condition now holds, in the order they waited. */
void wbsim_inode_wake(struct wbsim_inode *inode, wbsim_sim *sim)
{
	GPtrArray *w = inode->sync_waiters;
	guint keep = 0;

	if (!w)
		return;
	for (guint i = 0; i < w->len; i++) {
		struct wbsim_inode_waiter *x = w->pdata[i];
		bool ready = x->what == WAIT_I_SYNC_CLEAR ? !(inode->i_state & I_SYNC) :
			     x->what == WAIT_FOLIO_UNLOCK ? inode->wb_locked_folio != x->folio :
							    inode->nr_writeback == 0;

		if (ready) {
			wbsim_sim_schedule_at(sim, wbsim_sim_now(sim), x->fn, x->arg);
			g_free(x);
		} else {
			w->pdata[keep++] = x;
		}
	}
	/* the woken ones are freed above: shrink without the free function */
	for (guint i = keep; i < w->len; i++)
		w->pdata[i] = NULL;
	g_ptr_array_set_size(w, keep);
}

/* ------------------------------------------------------------------------ */
/* Bandwidth hooks                                                          */

static void bw_input(struct wbsim_wb *wb, struct wbsim_wb_bw_input *in)
{
	in->now = wbsim_jiffies(wb->bdi->vm);
	in->dirtied = wb->stat_dirtied;
	in->written = wb->stat_written;
	in->has_dirty_io = wb->has_dirty_io;
}

/* wb_update_bandwidth(): bandwidth only, no ratelimit update. */
static void wb_update_bandwidth(struct wbsim_wb *wb)
{
	struct wbsim_wb_bw_input in;
	struct wbsim_wb_bw_update out = { 0 };

	bw_input(wb, &in);
	wbsim_wb_update_bandwidth(&wb->bdi->vm->dirty, &wb->bw, NULL, NULL, false, &in, &out);
	wb->bdi->dirty.tot_write_bandwidth += out.tot_write_bandwidth_delta;
}

void wbsim_wb_update_bandwidth_workfn(wbsim_sim *sim, void *arg)
{
	wb_update_bandwidth(arg);
}

void wbsim_wb_update_bandwidth_if_due(struct wbsim_wb *wb)
{
	struct wbsim_vm *vm = wb->bdi->vm;

	if (wbsim_wb_bandwidth_due(&vm->dirty, &wb->bw, wbsim_jiffies(vm)))
		wb_update_bandwidth(wb);
}

void wbsim_wb_bw_estimate_start(struct wbsim_wb *wb)
{
	struct wbsim_wb_bw_input in;

	bw_input(wb, &in);
	wbsim_wb_bandwidth_estimate_start(&wb->bdi->vm->dirty, &wb->bw, wb->writeback_inodes, &in);
}

/* ------------------------------------------------------------------------ */
/* The memcg domain                                                         */

/* mem_cgroup_wb_stats() + mdtc_calc_avail() for a pass of @wb. */
bool wbsim_wb_mdtc(struct wbsim_wb *wb, struct wbsim_dtc *gdtc, struct wbsim_dtc *mdtc,
		   bool with_writeback)
{
	uint64_t filepages, headroom, dirty, writeback, clean, global_clean, other_clean;

	if (!wb->memcg || !wb->memcg->parent)
		return false;
	wbsim_memcg_wb_stats(wb->memcg, &filepages, &headroom, &dirty, &writeback);
	*mdtc = (struct wbsim_dtc){
		.gdtc = gdtc,
		.dom = &wb->memcg->dom,
		.wb_completions = &wb->memcg_completions,
		.wb = &wb->bw,
		.bdi = &wb->bdi->dirty,
		.dirty = dirty + (with_writeback ? writeback : 0),
		.wb_reclaimable = gdtc->wb_reclaimable,
		.wb_writeback = gdtc->wb_writeback,
	};
	/* mdtc_calc_avail(): the memcg's file pages, plus what it could grow
	 * into: its headroom, as far as clean memory elsewhere allows */
	clean = filepages - MIN(filepages, mdtc->dirty);
	global_clean = gdtc->avail - MIN(gdtc->avail, gdtc->dirty);
	other_clean = global_clean - MIN(global_clean, clean);
	mdtc->avail = filepages + MIN(headroom, other_clean);
	return true;
}

/* ------------------------------------------------------------------------ */
/* balance_dirty_pages()                                                    */

static bool bdp_pass(struct wbsim_dirtier *d);

/* The sleep of a pass with task_ratelimit == 0 ended: look again. */
static void bdp_woke(wbsim_sim *sim, void *arg)
{
	struct wbsim_dirtier *d = arg;

	if (bdp_pass(d))
		d->cont(sim, d->cont_arg);
}

/* The sleep that ends the call is over. */
static void bdp_slept(wbsim_sim *sim, void *arg)
{
	struct wbsim_dirtier *d = arg;

	d->cont(sim, d->cont_arg);
}

static unsigned int pause_bucket(wbsim_time_t ns)
{
	unsigned int b = 0;
	wbsim_time_t ms = ns / WBSIM_NSEC_PER_MSEC;

	while (b < 10 && ms >= ((wbsim_time_t)1 << b))
		b++;
	return b;
}

/* The call is over at @end: record its length and forget the wb. */
static void bdp_call_ends(struct wbsim_dirtier *d, wbsim_time_t end)
{
	if (end - d->call_start > d->max_pause_ns)
		d->max_pause_ns = end - d->call_start;
	d->wb = NULL;
}

/*
 * One pass of balance_dirty_pages(): gather the global domain's numbers,
 * let wbsim_balance_dirty_pages() decide, act on what it says (wake the
 * flusher, apply the bandwidth update, trace), and sleep if told to.
 * Returns true when the call is over with no sleep pending.
 */
static bool bdp_pass(struct wbsim_dirtier *d)
{
	struct wbsim_wb *wb = d->wb;
	struct wbsim_bdi *bdi = wb->bdi;
	struct wbsim_vm *vm = bdi->vm;
	wbsim_time_t now = wbsim_sim_now(bdi->sim);
	struct wbsim_dtc gdtc = {
		.dom = &vm->dom,
		.wb_completions = &wb->completions,
		.wb = &wb->bw,
		.bdi = &bdi->dirty,
		.avail = wbsim_vm_dirtyable_memory(vm),
		.dirty = vm->nr_file_dirty + vm->nr_writeback,
		.wb_reclaimable = wb->stat_reclaimable,
		.wb_writeback = wb->stat_writeback,
	};
	struct wbsim_bdp_input in = {
		.gdtc = &gdtc,
		.mdtc = NULL,
		.nr_dirty = vm->nr_file_dirty,
		.now = wbsim_jiffies(vm),
		.start_time = d->start_jiffies,
		.pages_dirtied = d->pages_dirtied,
		.writeback_in_progress = wb->writeback_running,
		.wb_dirtied = wb->stat_dirtied,
		.wb_written = wb->stat_written,
		.wb_has_dirty_io = wb->has_dirty_io,
		.async = d->async,
	};
	struct wbsim_bdp_result out = { 0 };
	struct wbsim_dtc mdtc;
	wbsim_time_t pause_ns;

	/* the memcg domain of a cgroup wb: the stricter of the two rules */
	if (wbsim_wb_mdtc(wb, &gdtc, &mdtc, true))
		in.mdtc = &mdtc;
	wbsim_balance_dirty_pages(&vm->dirty, &in, &d->td, &out);
	/* the kernel emits global_dirty_state where it computes the global
	 * thresholds (domain_dirty_limits() on the global domain) */
	wbsim_trace_global_dirty_state(bdi, d->task, gdtc.bg_thresh, gdtc.thresh);
	if (out.wake_flusher)
		bdi->wb_ops->start_background_writeback(wb, d->task);
	if (out.flush_foreign && wbsim_cgwb_enabled(bdi))
		bdi->wb_ops->flush_foreign(wb, d->task);
	if (out.bandwidth_updated) {
		bdi->dirty.tot_write_bandwidth += out.bw.tot_write_bandwidth_delta;
		for (unsigned int i = 0; i < out.bw.nr_traces; i++)
			wbsim_trace_bdi_dirty_ratelimit(wb, d->task, &out.bw.trace[i]);
	}
	if (out.traced)
		wbsim_trace_balance_dirty_pages(wb, d->task, &out.trace);
	d->eagain = out.eagain;
	if (out.pause <= 0 || out.eagain) {
		bdp_call_ends(d, now);
		return true;
	}
	bdi->last_bdp_sleep = in.now;
	/* read by blk-wbt: full queue depth for writeback for a second */
	wbsim_blk_queue_note_bdp_sleep(bdi->queue);
	pause_ns = wbsim_jiffies_to_ns(vm, (uint64_t)out.pause);
	d->pauses++;
	d->paused_ns += pause_ns;
	if (pause_ns > d->max_sleep_ns)
		d->max_sleep_ns = pause_ns;
	d->pause_hist[pause_bucket(pause_ns)]++;
	if (out.repeat) {
		wbsim_sim_schedule_after(bdi->sim, pause_ns, bdp_woke, d);
	} else {
		bdp_call_ends(d, now + pause_ns);
		wbsim_sim_schedule_after(bdi->sim, pause_ns, bdp_slept, d);
	}
	return false;
}

/* Models the ratelimit part of balance_dirty_pages_ratelimited_flags(). */
bool wbsim_dirtier_ratelimited(struct wbsim_dirtier *d, struct wbsim_wb *wb)
{
	struct wbsim_vm *vm = wb->bdi->vm;

	return wbsim_balance_dirty_pages_ratelimited(&vm->dirty, &d->td, dirtier_cpu(vm, d),
						     wb->bw.dirty_exceeded);
}

/* The state of one balance_dirty_pages() call, before its first pass. */
static void bdp_begin(struct wbsim_dirtier *d, struct wbsim_wb *wb, wbsim_event_fn cont,
		      void *arg, bool async)
{
	struct wbsim_vm *vm = wb->bdi->vm;

	d->wb = wb;
	d->pages_dirtied = d->td.nr_dirtied;
	d->start_jiffies = wbsim_jiffies(vm);
	d->call_start = wbsim_sim_now(vm->sim);
	d->cont = cont;
	d->cont_arg = arg;
	d->async = async;
}

gboolean wbsim_dirtier_balance_dirty_pages(struct wbsim_dirtier *d, struct wbsim_wb *wb,
					   wbsim_event_fn cont, void *arg)
{
	bdp_begin(d, wb, cont, arg, false);
	return bdp_pass(d);
}

/* balance_dirty_pages(BDP_ASYNC): one pass, never a sleep. */
bool wbsim_dirtier_balance_dirty_pages_async(struct wbsim_dirtier *d, struct wbsim_wb *wb)
{
	bdp_begin(d, wb, NULL, NULL, true);
	bdp_pass(d);
	d->async = false;
	return d->eagain;
}
