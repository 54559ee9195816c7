/* SPDX-License-Identifier: MIT */
/*
 * defs/backing-dev-defs.h - the structures of backing devices, writeback
 * contexts, their wbs and flushers, inodes and writeback works (kernel:
 * include/linux/backing-dev-defs.h, the struct writeback_control of
 * include/linux/writeback.h, the inode fields of include/linux/fs.h, and
 * the parallel-writeback series' struct bdi_writeback_ctx).
 *
 * A neutral definition, as in the kernel: lib/fs (fs-writeback.c, the
 * flusher), lib/mm (page-writeback.c, the throttle and the accounting)
 * and lib/report (the tracepoints) all read these structures, so they
 * live in no one of those folders and include none of them; the mm state
 * they embed is in defs/ too (struct wbsim_wb_bw, struct wbsim_bdi_dirty
 * here; defs/flex-proportions-defs.h, defs/page-cache-defs.h).
 */
#ifndef WBSIM_DEFS_BACKING_DEV_DEFS_H
#define WBSIM_DEFS_BACKING_DEV_DEFS_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include <wbsim/sim.h>
#include <wbsim/cpu-costs.h>
#include <wbsim/affinity.h>
#include "defs/flex-proportions-defs.h"
#include "defs/page-cache-defs.h"

struct wbsim_vm;
struct wbsim_memcg;
struct wbsim_memcg_tree;
struct wbsim_bdi;
struct wbsim_page_memcg;
struct wbsim_workqueue;
struct wbsim_wb;
struct wbsim_inode;
struct wbsim_blk_queue;
struct wbsim_fs;
struct wbsim_writeback_ops;
struct wbsim_fs_inode;
struct wp_batch;
struct wbsim_freelist;

/**
 * struct wbsim_bdi_dirty - throttling state of a backing device
 * @min_ratio: bdi min_ratio, BDI_RATIO_SCALE units (0)
 * @max_ratio: bdi max_ratio, BDI_RATIO_SCALE units (100 * BDI_RATIO_SCALE)
 * @max_prop_frac: cap of a wb's completion share, FPROP_FRAC_BASE units
 * @strictlimit: BDI_CAP_STRICTLIMIT (FUSE)
 * @tot_write_bandwidth: sum of avg_write_bandwidth of wbs with dirty IO
 */
struct wbsim_bdi_dirty {
	unsigned int min_ratio;
	unsigned int max_ratio;
	unsigned int max_prop_frac;
	bool strictlimit;
	uint64_t tot_write_bandwidth;
};

/**
 * struct wbsim_wb_bw - bandwidth estimation state of one wb
 * @bw_time_stamp: jiffy of the last bandwidth update
 * @dirtied_stamp: WB_DIRTIED at @bw_time_stamp
 * @written_stamp: WB_WRITTEN at @bw_time_stamp
 * @write_bandwidth: write bandwidth over the last ~4 s, pages/s
 * @avg_write_bandwidth: further smoothed @write_bandwidth, pages/s
 * @dirty_ratelimit: base throttle rate of one dirtier, pages/s
 * @balanced_dirty_ratelimit: last balanced rate estimate, pages/s
 * @dirty_exceeded: a throttled pass saw wb_dirty over wb_thresh
 */
struct wbsim_wb_bw {
	uint64_t bw_time_stamp;
	uint64_t dirtied_stamp;
	uint64_t written_stamp;
	uint64_t write_bandwidth;
	uint64_t avg_write_bandwidth;
	uint64_t dirty_ratelimit;
	uint64_t balanced_dirty_ratelimit;
	bool dirty_exceeded;
};

/* enum wbsim_wb_reason - why writeback runs (WB_WORK_REASON, trace names). */
enum wbsim_wb_reason {
	WB_REASON_BACKGROUND,
	WB_REASON_VMSCAN,
	WB_REASON_SYNC,
	WB_REASON_PERIODIC,
	WB_REASON_LAPTOP_TIMER,
	WB_REASON_FS_FREE_SPACE,
	WB_REASON_FORKER_THREAD,
	WB_REASON_FOREIGN_FLUSH,
	WB_REASON_MAX,
};

/* wbsim_wb_reason_name() - @reason as the tracepoints print it (the
 * kernel's WB_WORK_REASON) and the reports name it; "unknown" past them */
static inline const char *wbsim_wb_reason_name(enum wbsim_wb_reason reason)
{
	static const char *const names[WB_REASON_MAX] = {
		[WB_REASON_BACKGROUND] = "background",
		[WB_REASON_VMSCAN] = "vmscan",
		[WB_REASON_SYNC] = "sync",
		[WB_REASON_PERIODIC] = "periodic",
		[WB_REASON_LAPTOP_TIMER] = "laptop_timer",
		[WB_REASON_FS_FREE_SPACE] = "fs_free_space",
		[WB_REASON_FORKER_THREAD] = "forker_thread",
		[WB_REASON_FOREIGN_FLUSH] = "foreign_flush",
	};

	return (unsigned int)reason < WB_REASON_MAX ? names[reason] : "unknown";
}

enum wbsim_sync_mode {
	WB_SYNC_NONE,	/* do not wait on anything */
	WB_SYNC_ALL,	/* wait on every page under writeback */
};

/* Inode state bits modelled (a subset of the kernel's i_state). */
/*
 * writepages' batch: the pages one walk step takes before it maps and
 * submits them (lib/fs/writepages.c); and the bvecs of a bio
 * (include/linux/bio.h), so of an ioend's bio: one per folio. Read by
 * the cost explanation too (lib/scenario/explain-costs.c).
 */
#define WBSIM_WP_BATCH_PAGES 256
#define WBSIM_BIO_MAX_VECS 256

#define I_DIRTY_PAGES	(1u << 0)	/* the mapping has dirty pages */
#define I_SYNC		(1u << 1)	/* being written back right now */
#define I_SYNC_QUEUED	(1u << 2)	/* on b_io/b_more_io, owned by the flusher */

/**
 * struct wbsim_inode - a regular file of the simulated filesystem
 * @ino: inode number (chosen by the filesystem)
 * @name: path for reports ("/mnt/test.0.0")
 * @size: i_size in bytes
 * @pages: page cache state of the mapping (with writeback_index)
 * @fs_inode: the filesystem's per-inode allocation state
 * @bdi: the device it lives on
 * @wb: the wb it is attached to (i_wb / its writeback context), or NULL
 * @i_state: I_* bits
 * @dirtied_when: time it went clean -> dirty (ns; the kernel uses jiffies)
 * @io_link: node of its wb list (b_dirty, b_io or b_more_io)
 * @on_list: which list @io_link is on (NULL: none)
 * @nr_writeback: pages of this inode under writeback
 * @written_by: bitmap of the writeback contexts that ever wrote it back
 *	(only the first 64 contexts are told apart)
 * @sync_waiters: tasks waiting for I_SYNC to clear or writeback to end
 * @openers: open file descriptions (the filesystem hears the last close)
 * @affinity_data: the affinity policy's per-inode pointer
 * @folio_pages: pages per page-cache folio (the filesystem's folio size;
 *	the same under both dirty accountings)
 * @acct_folio: pages accounted per folio: @folio_pages with whole-folio
 *	dirty accounting, 1 per block otherwise (the page cache itself always
 *	keeps one state per 4 KiB block, as iomap's per-block state does)
 * @max_folio_pages: with [writeback] folio_size = auto, the filesystem's
 *	largest folio (mapping_max_folio_size()) in pages, and @folio_pages
 *	is chosen by the write that finds the cache empty
 *	(wbsim_filemap_folio_pages()); 0: @folio_pages is fixed
 * @per_block_accounting: per-block dirty accounting (@acct_folio is 1)
 * @i_rwsem: the VFS inode lock; a buffered write holds it exclusive from
 *	before its copy to after its balance_dirty_pages_ratelimited()
 * @wb_locked_folio: first page of the folio that writeback holds locked
 *	while it submits the ioend before it (WBSIM_PGOFF_NONE: none)
 * @mtime_tick: the tick of the coarse clock (the jiffies clock,
 *	wbsim_jiffies_at()) the timestamps were last set in: at creation, then by a write's
 *	file_update_time()
 */
struct wbsim_inode {
	uint64_t ino;
	char *name;
	uint64_t size;
	struct wbsim_page_cache pages;
	struct wbsim_fs_inode *fs_inode;
	struct wbsim_bdi *bdi;
	struct wbsim_wb *wb;
	unsigned int i_state;
	wbsim_time_t dirtied_when;
	GList io_link;
	GQueue *on_list;
	uint64_t nr_writeback;
	uint64_t written_by;
	GPtrArray *sync_waiters;
	unsigned int openers;
	void *affinity_data;
	uint64_t folio_pages;
	uint64_t acct_folio;
	uint64_t max_folio_pages;
	bool per_block_accounting;
	wbsim_lock i_rwsem;
	uint64_t wb_locked_folio;
	uint64_t mtime_tick;
	/* cgroup writeback (fs/cgroup-writeback.c) */
	struct wbsim_page_memcg *page_memcg;	/* folio_memcg() of each page, or NULL */
	unsigned int i_wb_frn_winner;		/* last round's majority memcg id */
	uint16_t i_wb_frn_avg_time;		/* EWMA of round IO time, 1/8192 s */
	uint16_t i_wb_frn_history;		/* foreign slots, 125 ms each */
	bool wb_switching;			/* I_WB_SWITCH */
};

/* The folio size of @inode's page cache (its cache must be empty), and
 * the pages accounted per folio with it. */
static inline void wbsim_inode_set_folio_pages(struct wbsim_inode *inode, uint64_t folio_pages)
{
	inode->folio_pages = folio_pages;
	inode->acct_folio = inode->per_block_accounting ? 1 : folio_pages;
}

/* A waiter on an inode: resumed through @fn when its condition holds. */
struct wbsim_inode_waiter {
	enum { WAIT_I_SYNC_CLEAR, WAIT_WRITEBACK_DONE, WAIT_FOLIO_UNLOCK } what;
	wbsim_event_fn fn;
	void *arg;
	uint64_t folio;		/* WAIT_FOLIO_UNLOCK: the folio's first page */
};

/**
 * struct wbsim_wb_work - a writeback work (struct wb_writeback_work)
 */
struct wbsim_wb_work {
	int64_t nr_pages;
	enum wbsim_sync_mode sync_mode;
	bool tagged_writepages;
	bool for_kupdate;
	bool range_cyclic;
	bool for_background;
	bool for_sync;
	bool auto_free;
	enum wbsim_wb_reason reason;
	/* completion: called when the work is done (sync waiters) */
	wbsim_event_fn done_fn;
	void *done_arg;
	unsigned int *done_count;	/* decremented; done_fn runs at zero */
	GList link;
};

/**
 * struct wbsim_wbc - one call's writeback control (struct writeback_control)
 */
struct wbsim_wbc {
	int64_t nr_to_write;
	int64_t pages_skipped;
	enum wbsim_sync_mode sync_mode;
	bool tagged_writepages;
	bool for_kupdate;
	bool for_background;
	bool for_sync;
	bool range_cyclic;
	/* cgroup owner vote of this slice (wbc_account_cgroup_owner()) */
	struct wbsim_wb *wb;			/* the wb attached at the start */
	unsigned int wb_id, wb_lcand_id, wb_tcand_id;
	uint64_t wb_bytes, wb_lcand_bytes, wb_tcand_bytes;
};

/* The state of one in-progress do_writepages() (it is asynchronous). */
struct wbsim_writepages {
	struct wbsim_inode *inode;
	struct wbsim_wbc *wbc;
	wbsim_task *task;		/* who does the work: a flusher or a dirtier */
	struct wbsim_wb *wb;		/* wb of the inode, for bandwidth hooks */
	int context;			/* writeback context writing, -1: a dirtier */
	uint64_t index;			/* next page to look at */
	uint64_t end;			/* last page + 1 of the range */
	bool tagged;			/* walking TOWRITE instead of DIRTY */
	struct wp_batch *batch;		/* runs and bios of the current step */
	unsigned int map_run;		/* next run for the filesystem to map */
	wbsim_event_fn map_done;
	wbsim_lock *fs_lock;		/* the filesystem's writepages lock, if held */
	wbsim_event_fn done;
	void *done_arg;
};

enum wbsim_flusher_phase {
	FLUSHER_IDLE,
	FLUSHER_WORKS,		/* running queued works */
	FLUSHER_START_ALL,
	FLUSHER_KUPDATE,
	FLUSHER_BACKGROUND,
	FLUSHER_TAIL,		/* end of wb_do_writeback() */
};

/**
 * struct wbsim_wb - one writeback structure (struct bdi_writeback) with its
 * writeback context's flusher
 */
struct wbsim_wb {
	struct wbsim_bdi *bdi;
	unsigned int ctx;		/* index of the writeback context */
	char name[40];

	/* cgroup writeback: the memcg it serves (root for a context's own
	 * wb), the blkcg it was associated with at creation, whether it was
	 * killed (wb_dying()), the inodes attached to it while clean
	 * (b_attached), and its completions in its memcg's domain */
	struct wbsim_memcg *memcg;
	const struct wbsim_memcg *blkcg;
	bool dying;
	GQueue b_attached;
	struct wbsim_fprop_local memcg_completions;
	unsigned int nr_inodes;		/* inodes whose i_wb it is */
	uint64_t switched_in, switched_out;	/* inode switches */
	uint64_t foreign_works;		/* foreign flush works it ran */

	GQueue b_dirty;			/* dirty inodes, newest at head */
	GQueue b_io;			/* parked for this pass, served from the tail */
	GQueue b_more_io;		/* need another slice in this pass */

	uint64_t stat_reclaimable;	/* WB_RECLAIMABLE */
	uint64_t stat_writeback;	/* WB_WRITEBACK */
	uint64_t stat_dirtied;		/* WB_DIRTIED */
	uint64_t stat_written;		/* WB_WRITTEN */
	struct wbsim_wb_bw bw;
	struct wbsim_fprop_local completions;

	GQueue work_list;
	wbsim_timer dwork;		/* runs wb_workfn */
	wbsim_timer bw_dwork;		/* wb_update_bandwidth 200 ms after writeback ends */
	bool writeback_running;		/* WB_writeback_running */
	bool has_dirty_io;		/* WB_has_dirty_io */
	bool start_all;			/* WB_start_all */
	enum wbsim_wb_reason start_all_reason;
	uint64_t last_old_flush;	/* jiffies */
	uint64_t writeback_inodes;	/* inodes with pages under writeback */

	/* The flusher kworker and the state of its (asynchronous) work. */
	wbsim_task flusher;
	enum wbsim_flusher_phase phase;
	bool rerun;			/* woken while running: run again */
	struct wbsim_wb_work *work;	/* the work wb_writeback() runs */
	struct wbsim_wb_work own_work;	/* kupdate/background/start-all work */
	int64_t work_nr0;
	int64_t do_written;		/* pages this wb_do_writeback() wrote, for its trace */
	wbsim_time_t work_start;
	bool work_queued;		/* queue_io() ran in this wb_writeback() */
	unsigned int idle_loops;
	wbsim_time_t slice_start;	/* writeback_sb_inodes() t0 */
	int64_t slice_total;
	int64_t chunk;
	struct wbsim_inode *cur_inode;
	struct wbsim_wbc wbc;
	struct wbsim_writepages wp;

	/* Results. */
	uint64_t pages_written;		/* pages this context's flusher wrote */
	uint64_t inodes_written;	/* inode slices */
	uint64_t works_done;
};

/**
 * struct wbsim_bdi - a backing device (struct backing_dev_info) with its
 * writeback contexts
 */
struct wbsim_bdi {
	char name[32];			/* "259:0", as the tracepoints print it */
	struct wbsim_vm *vm;
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	const struct wbsim_cpu_costs *costs;
	struct wbsim_bdi_dirty dirty;
	struct wbsim_blk_queue *queue;
	struct wbsim_fs *fs;
	unsigned int nr_wb_ctx;
	unsigned int nr_flushers;	/* kworkers named so far (wbsim_wb_init) */
	struct wbsim_wb **wb_ctx;
	const struct wbsim_affinity_ops *affinity;
	uint64_t max_request_pages;	/* max_sectors_kb in pages */
	/* writepages.c's bios (core/freelist.h), made on first use: those
	 * not yet ended are freed with it at clear */
	struct wbsim_freelist *bios;
	uint64_t last_bdp_sleep;	/* jiffies */
	/* what mm calls of fs (defs/writeback.h), set by wbsim_bdi_init() */
	const struct wbsim_writeback_ops *wb_ops;
	/* tracing hook: NULL when not tracing */
	struct wbsim_trace *trace;
	/* writeback_start events of its wbs by reason, traced or not */
	uint64_t writeback_starts[WB_REASON_MAX];
	/* the first failure of a model (allocation error): ends the run */
	GError *failure;
	/* every inode of the bdi, in creation order (for a context change) */
	GPtrArray *inodes;
	/* a change of nr_wb_ctx in progress (wb-ctx-change.c) */
	bool ctx_changing;
	bool frozen;			/* writers wait for the thaw */
	GArray *freeze_waiters;		/* struct wbsim_freeze_waiter */
	GPtrArray *retired_wbs;		/* contexts removed by a change */
	void *ctx_change;		/* the change in progress, freed at clear */
	GQueue *ctx_change_queue;	/* changes asked for meanwhile */
	GQueue syncs;		/* sync_inodes_sb() calls in flight (fs-writeback.c) */
	/* cgroup writeback (fs/cgroup-writeback.c) */
	struct wbsim_memcg_tree *memcgs;	/* the machine's memcgs */
	bool dying_wb_reachable;	/* [writeback] dying_wb = reachable */
	GPtrArray *wb_list;		/* every wb: contexts' own, then cgwbs as created */
	GHashTable **cgwb_tree;		/* per context: memcg id -> live wb */
	GPtrArray *offline_cgwbs;	/* killed wbs not released yet */
	unsigned int isw_in_flight;	/* inode switches queued */
	uint64_t isw_done, isw_skipped;	/* inode switches done, refused */
	struct wbsim_workqueue *isw_wq;	/* inode_switch_wbs_work_fn, cleanup */
	GPtrArray *isw_pending;		/* switches not done yet (freed at clear) */
	bool cleanup_queued;		/* cleanup_offline_cgwbs_work queued */
};

struct wbsim_freeze_waiter {
	wbsim_event_fn fn;
	void *arg;
	wbsim_time_t since;
};

#endif /* WBSIM_DEFS_BACKING_DEV_DEFS_H */
