/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/ioend.h - completed writes waiting for a filesystem's completion
 * work: the per-inode lists of XFS (ip->i_ioend_list, drained by
 * xfs_end_io) and ext4 (ei->i_rsv_conversion_list, drained by
 * ext4_end_io_rsv_work), with iomap's sort and merge of adjacent ioends.
 */
#ifndef WBSIM_FS_ALLOC_IOEND_H
#define WBSIM_FS_ALLOC_IOEND_H

#include <wbsim/fs.h>
#include "core/workqueue.h"
#include "core/freelist.h"

/* One completed write (an iomap_ioend / ext4_io_end_t). */
struct wbsim_ioend {
	uint64_t first, nr;		/* file blocks */
	unsigned int flags;		/* WBSIM_FS_IO_* */
	wbsim_event_fn done;		/* ends the pages' writeback */
	void *arg;
	struct wbsim_ioend *next_merged;	/* ioends merged into this one */
};

/*
 * The ioends of one filesystem: a pool (core/freelist.h), so a completed
 * write is no malloc, and one spare array, so taking a list leaves the
 * next list an array without a malloc either; and the pool of the inodes'
 * queues, made on an inode's first deferred completion (500,000 files that
 * never convert an extent hold no queue).
 */
struct wbsim_ioend_cache {
	struct wbsim_freelist ioends;
	GPtrArray *spare;
	struct wbsim_freelist queues;
};

void wbsim_ioend_cache_init(struct wbsim_ioend_cache *cache);
/* Teardown, after every list of the filesystem was cleared. */
void wbsim_ioend_cache_clear(struct wbsim_ioend_cache *cache);

struct wbsim_ioend_list {
	GPtrArray *items;	/* struct wbsim_ioend *, in completion order */
};

/* Append a completed write; TRUE if the list was empty (queue the work). */
gboolean wbsim_ioend_list_add(struct wbsim_ioend_list *list, struct wbsim_ioend_cache *cache,
			      uint64_t first, uint64_t nr, unsigned int flags,
			      wbsim_event_fn done, void *arg);
/* Take every ioend (list_replace_init); NULL if none. The caller owns it. */
GPtrArray *wbsim_ioend_list_splice(struct wbsim_ioend_list *list);
/* iomap_sort_ioends() + iomap_ioend_try_merge(): order by file offset and
 * fold each ioend that continues the previous one with the same flags into
 * it (the folded ones stay chained on it and leave the array). */
void wbsim_ioend_sort_merge(GPtrArray *ioends);
/* Free what is left (teardown), ending nothing. */
void wbsim_ioend_list_clear(struct wbsim_ioend_list *list, struct wbsim_ioend_cache *cache);
/* Free the ioends of @ioends (NULL entries are taken ones) and give the
 * array back to @cache. */
void wbsim_ioends_free(struct wbsim_ioend_cache *cache, GPtrArray *ioends);

/*
 * An inode's completion work: its list of completed ioends and the one work
 * item that drains it (queued when the list becomes non-empty, so never
 * twice), with the ioends of the run in progress.
 */
struct wbsim_ioend_queue {
	struct wbsim_ioend_cache *cache;	/* the filesystem's, set at inode init */
	struct wbsim_ioend_list list;
	struct wbsim_work work;
	GPtrArray *running;	/* the run's ioends; taken ones are NULL */
	guint next;
	wbsim_task *worker;	/* the kworker of the run */
};

/* The queue in *@slot, made from @cache if there is none yet. */
struct wbsim_ioend_queue *wbsim_ioend_queue_of(struct wbsim_ioend_queue **slot,
					       struct wbsim_ioend_cache *cache);
/* A completed write joins @q; the work (@fn with @arg) is queued on @wq
 * when the list was empty. */
void wbsim_ioend_queue_add(struct wbsim_ioend_queue *q, struct wbsim_workqueue *wq,
			   void (*fn)(struct wbsim_work *work, wbsim_task *worker), void *arg,
			   uint64_t first, uint64_t nr, unsigned int flags,
			   wbsim_event_fn done, void *done_arg);
/* The work starts on @worker: take the list. FALSE (the work is done) when
 * it is empty. */
gboolean wbsim_ioend_queue_begin(struct wbsim_ioend_queue *q, wbsim_task *worker);
/* The next ioend of the run, or NULL: the run is over and the work done. */
struct wbsim_ioend *wbsim_ioend_queue_peek(struct wbsim_ioend_queue *q);
/* Take the ioend wbsim_ioend_queue_peek() returned (the caller finishes it). */
struct wbsim_ioend *wbsim_ioend_queue_pop(struct wbsim_ioend_queue *q);
/* The pages of @ioend (taken from @q) and of those merged into it leave
 * writeback; frees them. */
void wbsim_ioend_finish(wbsim_sim *sim, struct wbsim_ioend_queue *q, struct wbsim_ioend *ioend);
/* Teardown: free the queue in *@slot (if any) and what waits, ending nothing. */
void wbsim_ioend_queue_free(struct wbsim_ioend_queue **slot);

#endif
