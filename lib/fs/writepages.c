/* SPDX-License-Identifier: MIT */
/*
 * writepages.c - do_writepages() of one inode: walk the dirty pages from the
 * mapping's writeback_index, start writeback on runs of contiguous pages, ask
 * the filesystem where they go (delayed allocation is converted here), and
 * gather file- and disk-contiguous blocks into ioends of up to BIO_MAX_VECS
 * folios, across the walk's batches; an ioend is submitted as bios no larger
 * than the device allows and ends writeback on all its folios when the last
 * completes (kernel: mm/page-writeback.c do_writepages() and
 * writeback_iter(), fs/iomap/buffered-io.c and fs/iomap/ioend.c).
 *
 * The walk goes in batches of up to WP_BATCH_PAGES pages (the kernel's
 * folio_batch is 31 folios; a batch here is a simulation step, not a change
 * of behaviour): the CPU time of a batch (per folio and per dirty block
 * range, from the cost table) is charged in one burst on the task doing the
 * writeback, then its bios are submitted under one plug. Left out: pages_skipped
 * (redirty_page_for_writepage never happens), write errors, writeback of
 * holes in large folios.
 */
#include "fs/fs-writeback.h"
#include "fs/cgroup-writeback.h"
#include "fs/fs-glue.h"
#include "mm/page-writeback.h"
#include "fs/wb-ctx-change.h"
#include "block/blk.h"
#include "fs/alloc/fs.h"
#include "core/freelist.h"
#include <wbsim/block.h>
#include <wbsim/fs.h>

#define WP_BATCH_PAGES WBSIM_WP_BATCH_PAGES
/* the bvecs of a bio (include/linux/bio.h), so of an ioend's bio */
#define BIO_MAX_VECS WBSIM_BIO_MAX_VECS
#define WP_BATCH_RUNS 32
/* room for the runs of whole folios (a large folio's walk takes every
 * dirty block of it at once, however scattered) */
#define WP_RUNS_MAX 1024

struct wp_run {
	uint64_t start, len;
};

/* A bio of the page cache: knows which pages it ends writeback on. */
struct wb_bio {
	struct wbsim_bio bio;
	struct wbsim_inode *inode;
	uint64_t first_page;
	uint64_t nr_pages;
	bool unwritten;		/* written into an unwritten extent */
	/* An ioend larger than the device's request size is several bios;
	 * the first holds the whole ioend and ends its pages' writeback when
	 * all of them completed (iomap_finish_ioend()). */
	struct wb_bio *parent;
	unsigned int pending;
};

/* The ioend being built (iomap_writepage_ctx's cached ioend): file- and
 * disk-contiguous blocks of one kind; one bvec per folio part added. */
struct wp_ioend {
	bool open;
	bool unwritten;
	uint64_t file_page, dev_block, nr_pages;
	unsigned int nr_vecs;
};

/* The batch being written by one do_writepages() call. */
struct wp_batch {
	struct wp_run runs[WP_RUNS_MAX];
	unsigned int nr_runs;
	uint64_t pages;
	uint64_t folios;	/* large folios taken */
	uint64_t ranges;	/* their dirty block ranges (a range may be several runs) */
	GPtrArray *bios;	/* struct wb_bio *, in submission order */
	guint next_bio;
	struct wbsim_plug plug;
	/* grows across batches until it is submitted */
	struct wp_ioend ioend;
	/* after the last ioend of the call is submitted: finish or wait */
	wbsim_event_fn after_flush;
};

static void wp_next_batch(wbsim_sim *sim, void *arg);

/*
 * Bios come and go at the rate of the writes: they come from the bdi's
 * pool, where an ended one waits for the next, zeroed as g_new0() would
 * give it. The pool owns them all, so one still in flight when a run stops
 * (in a plug, a queue or the device) is freed with it at clear, and ending
 * a bio touches no other bio (a list of live bios did, per bio).
 */
static struct wb_bio *wb_bio_alloc(struct wbsim_bdi *bdi)
{
	if (!bdi->bios) {
		bdi->bios = g_new(struct wbsim_freelist, 1);
		wbsim_freelist_init(bdi->bios, sizeof(struct wb_bio));
	}
	return wbsim_freelist_alloc(bdi->bios);
}

static void wb_bio_free(struct wbsim_bdi *bdi, struct wb_bio *b)
{
	wbsim_freelist_free(bdi->bios, b);
}

/* __folio_end_writeback() for every page of a completed bio. */
static void wb_bio_end_writeback(wbsim_sim *sim, void *arg)
{
	struct wb_bio *b = arg;
	struct wbsim_inode *inode = b->inode;
	bool last = false;
	uint64_t ended = wbsim_page_cache_end_writeback(&inode->pages, b->first_page,
							b->nr_pages, &last);
	/* whole-folio accounting: a folio leaves writeback with its last
	 * block (the folios of this piece with no block under writeback left) */
	uint64_t acct = inode->acct_folio == 1 ? ended :
			inode->acct_folio * wbsim_inode_folios_without(inode, WBSIM_PC_WRITEBACK,
								       b->first_page, b->nr_pages);

	if (inode->page_memcg)
		wbsim_cgwb_pages_end_writeback(inode, b->first_page, b->nr_pages);
	/* the inode's wb now: a switch moves the writeback counts along */
	wbsim_account_end_writeback(inode, inode->wb, acct, ended);
	wb_bio_free(inode->bdi, b);
}

/*
 * bio completion (iomap_writepage_end_bio, ext4_end_bio): the filesystem
 * decides where the completion runs (wbsim_fs_end_bio: in this end_io
 * context, or deferred to a workqueue of its own when the write went into
 * unwritten extents); the pages stay under writeback until it is done.
 */
static void wb_bio_end_io(wbsim_sim *sim, void *arg)
{
	struct wb_bio *b = arg;
	struct wbsim_inode *inode = b->inode;

	(void)sim;
	if (b->parent) {
		struct wb_bio *p = b->parent;

		wb_bio_free(inode->bdi, b);
		if (--p->pending)
			return;
		b = p;
	} else if (--b->pending) {
		return;
	}
	wbsim_fs_end_bio(inode->bdi->fs, inode->fs_inode, b->first_page, b->nr_pages,
			 b->unwritten ? WBSIM_FS_IO_UNWRITTEN : 0, wb_bio_end_writeback, b);
}

static struct wp_batch *wp_batch_of(const struct wbsim_writepages *wp)
{
	return wp->batch;
}

void wbsim_writepages_run(const struct wbsim_writepages *wp, unsigned int i,
			  uint64_t *start, uint64_t *len, unsigned int *nr_runs)
{
	const struct wp_batch *b = wp_batch_of(wp);

	*nr_runs = b->nr_runs;
	if (i < b->nr_runs) {
		*start = b->runs[i].start;
		*len = b->runs[i].len;
	}
}

static void wp_locked(wbsim_sim *sim, void *arg);

static void wp_restart(wbsim_sim *sim, void *arg)
{
	struct wbsim_writepages *wp = arg;

	wbsim_do_writepages(wp, wp->inode, wp->wbc, wp->task, wp->context, wp->done, wp->done_arg);
}

void wbsim_do_writepages(struct wbsim_writepages *wp, struct wbsim_inode *inode,
			 struct wbsim_wbc *wbc, wbsim_task *task, int context,
			 wbsim_event_fn done, void *done_arg)
{
	struct wbsim_wb *wb = inode->wb;

	/* While the number of writeback contexts changes, writeback started
	 * by a task (fadvise, fsync) waits: no page may go under writeback
	 * until the inodes have moved. */
	if (context < 0 && inode->bdi->ctx_changing) {
		wp->inode = inode;
		wp->wbc = wbc;
		wp->task = task;
		wp->context = context;
		wp->done = done;
		wp->done_arg = done_arg;
		wbsim_bdi_wait_ctx_change(inode->bdi, wp_restart, wp);
		return;
	}

	wp->inode = inode;
	wp->wbc = wbc;
	wp->task = task;
	wp->wb = wb;
	wp->context = context;
	wp->done = done;
	wp->done_arg = done_arg;
	/* cgroup writeback: the owner vote of this call (wbc_attach_*()) */
	wbsim_wbc_attach_inode(wbc, inode, task);
	if (!wp->batch) {
		wp->batch = g_new0(struct wp_batch, 1);
		wp->batch->bios = g_ptr_array_new();
	}
	if (wb)
		wbsim_wb_bw_estimate_start(wb);
	/* the filesystem's writeback context for this call (its cached
	 * mapping) starts empty */
	wbsim_fs_writepages_begin(inode->bdi->fs, inode->fs_inode, task);
	/* A filesystem may serialise writepages of its inodes (F2FS's
	 * sbi->writepages lock): take it first if it has one. */
	wp->fs_lock = wbsim_fs_writepages_lock(inode->bdi->fs, inode->fs_inode,
					       wbc->sync_mode == WB_SYNC_ALL,
					       wbsim_inode_nr_dirty(inode));
	if (wp->fs_lock) {
		wbsim_lock_acquire(wp->fs_lock, task, wp_locked, wp);
		return;
	}
	wp_locked(inode->bdi->sim, wp);
}

/* writeback_iter(): where to start, and which tag to walk. */
static void wp_locked(wbsim_sim *sim, void *arg)
{
	struct wbsim_writepages *wp = arg;
	struct wbsim_inode *inode = wp->inode;

	wp->index = wp->wbc->range_cyclic ? inode->pages.writeback_index : 0;
	wp->tagged = wp->wbc->sync_mode == WB_SYNC_ALL || wp->wbc->tagged_writepages;
	if (wp->tagged)
		wbsim_tag_pages_for_writeback(&inode->pages, wp->index, WBSIM_PC_MAX_PAGES - wp->index);
	wp_next_batch(sim, wp);
}

static void wp_finish(struct wbsim_writepages *wp)
{
	if (wp->fs_lock) {
		wbsim_lock_release(wp->fs_lock, wp->task);
		wp->fs_lock = NULL;
	}
	if (wp->wb)
		wbsim_wb_update_bandwidth_if_due(wp->wb);
	wbsim_wbc_detach_inode(wp->wbc, wp->inode, wp->task);
	wbsim_sim_schedule_at(wp->inode->bdi->sim, wbsim_sim_now(wp->inode->bdi->sim),
			      wp->done, wp->done_arg);
}

static void wp_charge_done(wbsim_sim *sim, void *arg);
static void wp_mapped(wbsim_sim *sim, void *arg);
static void iomap_submit_ioend(struct wbsim_writepages *wp);

static void wp_finish_event(wbsim_sim *sim, void *arg)
{
	(void)sim;
	wp_finish(arg);
}

/* folio_wait_writeback() on the folio the walk reached (SYNC_ALL) */
static void wp_wait_writeback(wbsim_sim *sim, void *arg)
{
	struct wbsim_writepages *wp = arg;

	(void)sim;
	wbsim_inode_wait(wp->inode, WAIT_WRITEBACK_DONE, wp_next_batch, wp);
}

/* The end of the walk (iomap_writepages() submitting the cached ioend):
 * submit the ioend still being built, then run @then. */
static void wp_flush_ioend(struct wbsim_writepages *wp, wbsim_event_fn then)
{
	struct wp_batch *b = wp_batch_of(wp);

	if (!b->ioend.open) {
		then(wp->inode->bdi->sim, wp);
		return;
	}
	g_ptr_array_set_size(b->bios, 0);
	b->next_bio = 0;
	iomap_submit_ioend(wp);
	b->after_flush = then;
	wp_mapped(wp->inode->bdi->sim, wp);
}

/* Pages a batch counts against nr_to_write: writeback_iter() subtracts
 * folio_nr_pages() per folio with whole-folio accounting; per-block
 * accounting counts the blocks written. */
static uint64_t wp_batch_acct(const struct wbsim_inode *inode, const struct wp_batch *b)
{
	return inode->acct_folio > 1 ? b->folios * inode->acct_folio : b->pages;
}

/*
 * Large folios: the walk goes folio by folio, as writeback_iter() does: a
 * folio with a dirty (or tagged) block is taken whole — every such block
 * of it, in as many runs as it has gaps, as iomap_writepage_map() finds
 * them in its per-block dirty state — unless it is still under writeback
 * (SYNC_NONE skips the folio, SYNC_ALL waits). The same under both dirty
 * accountings (they differ in what is charged, not in what is written).
 * Returns true when the walk must wait.
 */
static bool wp_collect_folios(struct wbsim_writepages *wp, enum wbsim_pc_mark mark)
{
	struct wbsim_inode *inode = wp->inode;
	struct wbsim_page_cache *pc = &inode->pages;
	struct wp_batch *b = wp_batch_of(wp);
	uint64_t f = inode->folio_pages;
	uint64_t max_run = inode->bdi->max_request_pages;

	while (b->pages < WP_BATCH_PAGES && b->nr_runs + f / 2 + 1 <= WP_RUNS_MAX) {
		uint64_t idx = wbsim_page_cache_next(pc, mark, wp->index);
		uint64_t start, end, pos, run_end = WBSIM_PGOFF_NONE;

		if (idx == WBSIM_PGOFF_NONE)
			break;
		start = idx / f * f;
		end = start + f;
		if (wbsim_page_cache_next(pc, WBSIM_PC_WRITEBACK, start) < end) {
			if (wp->wbc->sync_mode == WB_SYNC_ALL)
				return b->nr_runs == 0;	/* folio_wait_writeback() */
			wp->index = end;
			continue;
		}
		for (pos = start; pos < end;) {
			uint64_t r = wbsim_page_cache_next(pc, mark, pos), len;

			if (r == WBSIM_PGOFF_NONE || r >= end)
				break;
			if (!wbsim_page_cache_test(pc, WBSIM_PC_DIRTY, r)) {
				pos = r + 1;	/* tagged, cleaned meanwhile */
				continue;
			}
			len = wbsim_page_cache_run(pc, WBSIM_PC_DIRTY, r, MIN(end - r, max_run), true);
			if (len == 0)
				len = 1;
			/* a run cut at the request size goes on the same range */
			if (r != run_end)
				b->ranges++;
			b->runs[b->nr_runs++] = (struct wp_run){ r, len };
			b->pages += len;
			pos = run_end = r + len;
		}
		b->folios++;
		wp->index = end;
		if (wp->wbc->sync_mode == WB_SYNC_NONE &&
		    (int64_t)wp_batch_acct(inode, b) >= wp->wbc->nr_to_write)
			break;
	}
	return false;
}

/*
 * The walk's CPU time for a batch: per folio, whatever its size
 * (writeback_iter() hands out folios, locks each, folio_clear_dirty_for_io()
 * and __folio_start_writeback() move the counters by folio_nr_pages() in one
 * update; iomap_writeback_folio() runs once per folio), and per dirty block
 * range (iomap_writeback_folio() calls iomap_writeback_range() for each
 * range iomap_find_dirty_range() finds: the mapping lookup and the add to
 * the ioend). A run of 4 KiB folios is one range here, as before.
 */
static wbsim_time_t wp_batch_cpu(const struct wbsim_inode *inode, const struct wp_batch *b,
				 const struct wbsim_cpu_costs *costs)
{
	bool large = inode->folio_pages > 1;

	return (large ? b->folios : b->pages) * costs->writepages_folio_ns +
	       (large ? b->ranges : b->nr_runs) * costs->bio_build_ns;
}

/* Collect the next batch of runs; start writeback on them. */
static void wp_next_batch(wbsim_sim *sim, void *arg)
{
	struct wbsim_writepages *wp = arg;
	struct wbsim_inode *inode = wp->inode;
	struct wbsim_page_cache *pc = &inode->pages;
	struct wbsim_wbc *wbc = wp->wbc;
	struct wp_batch *b = wp_batch_of(wp);
	const struct wbsim_cpu_costs *costs = inode->bdi->costs;
	enum wbsim_pc_mark mark = wp->tagged ? WBSIM_PC_TOWRITE : WBSIM_PC_DIRTY;
	uint64_t max_run = inode->bdi->max_request_pages;
	bool must_wait = false;

	b->nr_runs = 0;
	b->pages = 0;
	b->folios = 0;
	b->ranges = 0;
	if (inode->folio_pages > 1) {
		must_wait = wp_collect_folios(wp, mark);
		goto collected;
	}
	while (b->nr_runs < WP_BATCH_RUNS && b->pages < WP_BATCH_PAGES) {
		uint64_t idx = wbsim_page_cache_next(pc, mark, wp->index);
		uint64_t len, want;

		if (idx == WBSIM_PGOFF_NONE)
			break;
		if (mark == WBSIM_PC_TOWRITE && !wbsim_page_cache_test(pc, WBSIM_PC_DIRTY, idx)) {
			/* Tagged but cleaned meanwhile (written by someone else). */
			wp->index = idx + 1;
			continue;
		}
		if (wbsim_page_cache_test(pc, WBSIM_PC_WRITEBACK, idx)) {
			if (wbc->sync_mode == WB_SYNC_ALL) {
				/* folio_wait_writeback(): wait before writing it again */
				must_wait = true;
				break;
			}
			wp->index = idx + 1;	/* SYNC_NONE skips it */
			continue;
		}
		want = MIN(max_run, WP_BATCH_PAGES - b->pages);
		if (wbc->sync_mode == WB_SYNC_NONE)
			want = MIN(want, (uint64_t)MAX(wbc->nr_to_write, 1));
		len = wbsim_page_cache_run(pc, mark, idx, want, true);
		if (len == 0)
			len = 1;
		b->runs[b->nr_runs++] = (struct wp_run){ idx, len };
		b->pages += len;
		wp->index = idx + len;
		if (wbc->sync_mode == WB_SYNC_NONE && (int64_t)b->pages >= wbc->nr_to_write)
			break;
	}
collected:
	if (b->nr_runs == 0) {
		if (must_wait) {
			/* the cached ioend goes first: the folio waited for may
			 * be another caller's, waiting on this one's */
			wp_flush_ioend(wp, wp_wait_writeback);
			return;
		}
		/* No more pages in range: the next cyclic pass starts at 0. */
		if (wbc->range_cyclic)
			pc->writeback_index = 0;
		wp_flush_ioend(wp, wp_finish_event);
		return;
	}
	/* (b) + (c): the pages leave the dirty state as the walk takes them;
	 * whole-folio accounting moves a folio's worth per folio taken */
	for (unsigned int i = 0; i < b->nr_runs; i++) {
		struct wbsim_pc_writeback_counts c = { 0 };

		wbsim_page_cache_start_writeback(pc, b->runs[i].start, b->runs[i].len, &c);
		/* A run holds only dirty pages not under writeback. */
		g_assert(c.started == b->runs[i].len);
		if (inode->page_memcg)
			wbsim_cgwb_pages_start_writeback(inode, b->runs[i].start, b->runs[i].len);
		wbsim_wbc_account_owner(wbc, inode, b->runs[i].start, b->runs[i].len);
		wbsim_account_start_writeback(inode, inode->wb,
					      inode->acct_folio == 1 ? c.started : 0, c.started);
	}
	if (inode->acct_folio > 1)
		wbsim_account_start_writeback(inode, inode->wb, b->folios * inode->acct_folio, 0);
	wbc->nr_to_write -= (int64_t)wp_batch_acct(inode, b);
	if (wp->wb)
		wp->wb->pages_written += wp->context >= 0 ? b->pages : 0;
	if (wp->context >= 0 && wp->context < 64)
		inode->written_by |= UINT64_C(1) << wp->context;
	wbsim_cpus_run(inode->bdi->cpus, wp->task, wp_batch_cpu(inode, b, costs),
		       wp_charge_done, wp);
}

/* The page walk's CPU time is spent: map the runs (the filesystem may take
 * allocation-group locks and CPU of its own). */
static void wp_charge_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_writepages *wp = arg;
	struct wp_batch *b = wp_batch_of(wp);

	g_ptr_array_set_size(b->bios, 0);
	b->next_bio = 0;
	wbsim_fs_map_runs(wp, wp_mapped);
}

/*
 * iomap_submit_ioend() (kernel: the cached ioend's bio goes to submit_bio();
 * the block layer splits it at max_sectors, bio_split_to_limits(), and the
 * pieces are chained to it): queue the ioend as bios of at most
 * max_request_pages; the first holds the whole ioend and ends writeback on
 * all of its folios when every piece has completed (iomap_finish_ioend()).
 * Left out: XFS's merging of completed ioends (iomap_ioend_try_merge()).
 */
static void iomap_submit_ioend(struct wbsim_writepages *wp)
{
	struct wp_batch *b = wp_batch_of(wp);
	struct wp_ioend *io = &b->ioend;
	uint64_t max = wp->inode->bdi->max_request_pages;
	unsigned int flags = wp->wbc->sync_mode == WB_SYNC_ALL ? WBSIM_REQ_SYNC :
			     (wp->wbc->for_kupdate || wp->wbc->for_background) ? WBSIM_REQ_BACKGROUND : 0;
	uint64_t file_page = io->file_page, dev_block = io->dev_block, nr = io->nr_pages;
	struct wb_bio *parent = NULL;

	if (!io->open)
		return;
	io->open = false;
	while (nr) {
		uint64_t n = MIN(nr, max);
		struct wb_bio *bio = wb_bio_alloc(wp->inode->bdi);

		bio->bio.sector = dev_block << (WBSIM_PAGE_SHIFT - WBSIM_SECTOR_SHIFT);
		bio->bio.nr_sectors = (uint32_t)(n << (WBSIM_PAGE_SHIFT - WBSIM_SECTOR_SHIFT));
		bio->bio.flags = flags;
		bio->bio.end_io = wb_bio_end_io;
		bio->bio.private = bio;
		/* page-cache folios, scattered in memory: the queue's segments */
		bio->bio.folio_pages = (uint32_t)MAX(wp->inode->folio_pages, 1);
		bio->inode = wp->inode;
		bio->first_page = file_page;
		bio->nr_pages = n;
		bio->unwritten = io->unwritten;
		if (!parent) {
			parent = bio;
			bio->nr_pages = io->nr_pages;	/* ends the whole ioend */
		} else {
			bio->parent = parent;
		}
		/* large folios: the completion walks one bvec per folio, all
		 * charged with the first piece (order-0 pages: one a page) */
		if (wp->inode->folio_pages > 1) {
			bio->bio.vecs_set = true;
			bio->bio.nr_vecs = parent == bio ? io->nr_vecs : 0;
		}
		parent->pending++;
		g_ptr_array_add(b->bios, bio);
		file_page += n;
		dev_block += n;
		nr -= n;
	}
}

/* iomap_can_add_to_ioend(): same kind, contiguous in the file and on the
 * device, and bio_add_folio() finds a free bvec for a new folio (left out:
 * the shared and boundary flags, IOEND_BATCH_SIZE, never reached with
 * BIO_MAX_VECS). */
static bool iomap_can_add_to_ioend(const struct wp_ioend *io, uint64_t file_page,
				   uint64_t dev_block, bool unwritten, uint64_t folio_pages)
{
	bool same_folio = io->nr_pages &&
			  (io->file_page + io->nr_pages - 1) / folio_pages == file_page / folio_pages;

	return io->open && io->unwritten == unwritten &&
	       file_page == io->file_page + io->nr_pages &&
	       dev_block == io->dev_block + io->nr_pages &&
	       (io->nr_vecs < BIO_MAX_VECS || same_folio);
}

/*
 * iomap_add_to_ioend() for a physically contiguous piece of a run (kernel:
 * called per folio and mapping; the bio of the cached ioend takes one bvec
 * per folio part, bio_add_folio(); page-cache pages of order 0 are taken as
 * one bvec each, physically adjacent pages merging into one bvec being the
 * exception): a block that cannot join the cached ioend submits it and
 * starts the next. The ioend outlives the batch; the end of the
 * do_writepages() call submits the last one.
 */
static void iomap_add_to_ioend(struct wbsim_writepages *wp, uint64_t file_page,
			       uint64_t dev_block, uint64_t nr, bool unwritten)
{
	struct wp_ioend *io = &wp_batch_of(wp)->ioend;
	uint64_t f = wp->inode->folio_pages;

	while (nr) {
		uint64_t n = MIN(nr, f - file_page % f);	/* this folio's part */

		if (!iomap_can_add_to_ioend(io, file_page, dev_block, unwritten, f)) {
			iomap_submit_ioend(wp);
			*io = (struct wp_ioend){ .open = true, .unwritten = unwritten,
						 .file_page = file_page, .dev_block = dev_block };
		}
		/* the rest of the folio of the last bvec merges into it
		 * (physically contiguous, bvec_try_merge_page()) */
		if (io->nr_pages == 0 ||
		    (io->file_page + io->nr_pages - 1) / f != file_page / f)
			io->nr_vecs++;
		io->nr_pages += n;
		file_page += n;
		dev_block += n;
		nr -= n;
	}
}

void wbsim_writepages_add_mapping(struct wbsim_writepages *wp, uint64_t file_page,
				  uint64_t dev_block, uint64_t nr, bool unwritten)
{
	iomap_add_to_ioend(wp, file_page, dev_block, nr, unwritten);
}

static void wp_submit_next(wbsim_sim *sim, void *arg);
static void wp_plug_done(wbsim_sim *sim, void *arg);

/* Every run is mapped: submit the bios under one plug. */
static void wp_mapped(wbsim_sim *sim, void *arg)
{
	struct wbsim_writepages *wp = arg;
	struct wp_batch *b = wp_batch_of(wp);

	wbsim_blk_start_plug(wp->inode->bdi->queue, &b->plug);
	wp_submit_next(sim, wp);
}

/*
 * The folio writeback holds locked (kernel: writeback_iter() locks each
 * folio, iomap_writeback_folio() adds its blocks to the current ioend and
 * folio_unlock() follows; iomap_add_to_ioend() submits the previous ioend
 * when a block does not merge into it, so that submission, with any wait
 * of the bio in wbt or for a request, runs under the next folio's lock).
 * Here: while a bio is submitted, the folio of the bio after it is locked.
 * Left out: the brief lock of each folio while its blocks are added.
 */
static void wp_lock_folio(struct wbsim_writepages *wp, uint64_t page)
{
	struct wbsim_inode *inode = wp->inode;
	uint64_t folio = page == WBSIM_PGOFF_NONE ? page : page / inode->folio_pages * inode->folio_pages;
	bool was_locked = inode->wb_locked_folio != WBSIM_PGOFF_NONE;

	if (inode->wb_locked_folio == folio)
		return;
	inode->wb_locked_folio = folio;
	/* folio_unlock(): a writer waiting in __filemap_get_folio() goes on */
	if (was_locked)
		wbsim_inode_wake(inode, inode->bdi->sim);
}

static void wp_submit_next(wbsim_sim *sim, void *arg)
{
	struct wbsim_writepages *wp = arg;
	struct wp_batch *b = wp_batch_of(wp);

	if (b->next_bio < b->bios->len) {
		struct wb_bio *bio = b->bios->pdata[b->next_bio++];
		const struct wb_bio *next = b->next_bio < b->bios->len ? b->bios->pdata[b->next_bio] : NULL;

		wp_lock_folio(wp, next ? next->first_page : WBSIM_PGOFF_NONE);
		wbsim_submit_bio(wp->inode->bdi->queue, wp->task, &b->plug, &bio->bio,
				 wp_submit_next, wp);
		return;
	}
	wp_lock_folio(wp, WBSIM_PGOFF_NONE);
	wbsim_blk_finish_plug(wp->inode->bdi->queue, wp->task, &b->plug, wp_plug_done, wp);
}

static void wp_plug_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_writepages *wp = arg;
	struct wp_batch *b = wp_batch_of(wp);

	if (b->after_flush) {
		wbsim_event_fn then = b->after_flush;

		b->after_flush = NULL;
		then(sim, wp);
		return;
	}
	/* SYNC_NONE stops when nr_to_write is spent and resumes there next time. */
	if (wp->wbc->sync_mode == WB_SYNC_NONE && wp->wbc->nr_to_write <= 0) {
		if (wp->wbc->range_cyclic)
			wp->inode->pages.writeback_index = wp->index;
		wp_flush_ioend(wp, wp_finish_event);
		return;
	}
	wp_next_batch(sim, wp);
}

void wbsim_writepages_free_live_bios(struct wbsim_bdi *bdi)
{
	/* a run stopped at its time limit leaves bios in plugs, queues and
	 * the device: nothing will end them now */
	if (bdi->bios) {
		wbsim_freelist_clear(bdi->bios, NULL, NULL);
		g_clear_pointer(&bdi->bios, g_free);
	}
}

void wbsim_writepages_clear(struct wbsim_writepages *wp)
{
	if (wp->batch) {
		g_ptr_array_free(wp->batch->bios, TRUE);
		g_clear_pointer(&wp->batch, g_free);
	}
}
