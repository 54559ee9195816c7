/* SPDX-License-Identifier: MIT */
/*
 * block/blk-core.c - the request queue: submission with CPU costs, plugging
 * and merging, tags, the none and mq-deadline schedulers, dispatch to the
 * device within its hardware depth, completion on an IRQ task, statistics.
 *                        (kernel: block/blk-core.c, blk-mq.c, mq-deadline.c)
 *
 * blk-wbt (block/blk-wbt.c, writes only) throttles buffered writes before
 * they get a tag: background writeback may have wb_background requests in
 * flight, other buffered writes wb_normal, and all of them max_depth for a
 * second after balance_dirty_pages() slept. max_depth starts at
 * min(16, queue depth) and, with writes and no reads, doubles every 100 ms
 * window up to 3/4 of the queue depth (LAT_UNKNOWN_WRITES -> scale_up);
 * idle windows walk it back.
 *   wb_normal = (max_depth + 1) / 2,  wb_background = (max_depth + 3) / 4
 * Waiters wake when a completion leaves the in-flight count below the limit
 * by wb_background / 2 (or at zero); with a volatile write cache and no
 * recent dirtier sleep, only at zero.
 *
 * Completions: a device with several hardware queues, each with its own
 * interrupt vector (wbsim_device_set_hw_queues(): NVMe), completes each
 * request in hard-interrupt context on the first CPU of its submitter's
 * queue (the submitting CPU when there is a queue per CPU), preempting
 * the task running there (nvme_irq -> nvme_pci_complete_batch ->
 * blk_mq_end_request_batch -> bio_endio; blk_mq_complete_need_ipi() says
 * no IPI is needed on the submitting CPU). Other devices complete on one
 * IRQ task that takes any free CPU.
 *
 * Segments: a request carries at most BLK_MAX_SEGMENTS (128) memory
 * segments, each at most BLK_MAX_SEGMENT_SIZE (64 KiB) of contiguous
 * memory. A 4 KiB page-cache folio is a segment of its own (the pages of
 * a file lie scattered in memory), a large folio one per 64 KiB. A bio
 * with more is split before it meets the plug (bio_split_to_limits()):
 * iomap's and ext4's writeback bios of 256 scattered pages become two
 * requests of 128 pages, as the lab's loop device shows (128.0 pages a
 * request, lab/studies/contention-v1272/sleeps-v1272); the pieces end the
 * bio when the last of them ends (bio_chain()), and a merge that would
 * pass the limit is refused (ll_back_merge_fn()). A bio larger than
 * max_sectors_kb is split at it too (get_max_io_size()).
 *
 * Left out: multiple hardware contexts (one tag pool per device), a
 * driver's own segment limits (nvme-pci, SATA), segments
 * merged where pages happen to be contiguous in memory, reads (and so
 * wbt's read-latency control), discards, flush sequencing, I/O
 * priorities.
 */
#include <string.h>
#include "core/pid.h"
#include "core/fifo-list.h"
#include "core/freelist.h"

#include <wbsim/error.h>
#include "block/blk.h"
#include "core/sim.h"

/* mq-deadline defaults (block/mq-deadline.c) */
#define DD_WRITE_EXPIRE (5 * WBSIM_NSEC_PER_SEC)	/* write_expire = 5 s */
#define DD_FIFO_BATCH 16				/* fifo_batch */
/* BLK_MAX_REQUEST_COUNT: a plug holding this many requests is flushed */
#define PLUG_MAX_REQUESTS 32
#define PAGE_SECTORS 8u
/* queue_limits defaults (include/linux/blkdev.h) */
#define BLK_MAX_SEGMENTS 128u
#define BLK_MAX_SEGMENT_SIZE 65536u
/* blk-wbt constants (block/blk-wbt.c, blk-rq-qos.c) */
#define RWB_DEF_DEPTH 16
#define RWB_WINDOW_NSEC (100 * WBSIM_NSEC_PER_MSEC)
#define RWB_UNKNOWN_BUMP 5

struct wbsim_blk_queue {
	struct wbsim_device *dev;
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	const struct wbsim_cpu_costs *costs;
	enum wbsim_blk_sched sched;
	gboolean sync_copy;
	gboolean stacked;
	unsigned int nr_requests;
	unsigned int async_depth;	/* mq-deadline: tags async writes may use */
	unsigned int tags_used;
	uint32_t max_sectors;
	unsigned int hw_depth;
	unsigned int in_device;
	gboolean dispatching;

	/* scheduler state */
	GQueue fifo;			/* none: dispatch order; dd: expiry order */
	GSequence *sort;		/* dd: by (sector, seq) */
	GHashTable *rqhash;		/* dd: end sector -> request (back merges) */
	uint64_t latest_pos;		/* dd: end of the last dispatched request */
	unsigned int batching;
	unsigned int nr_queued;

	/* submitters waiting for a tag, FIFO */
	WBSIM_FIFO_LIST(struct wbsim_bio) wait;

	/* blk-wbt */
	gboolean wbt_enabled;
	gboolean write_cache;		/* QUEUE_FLAG_WC */
	unsigned int wbt_queue_depth;	/* blk_queue_depth() */
	unsigned int wbt_inflight;
	int scale_step;
	gboolean scaled_max;
	unsigned int max_depth, wb_normal, wb_background;
	unsigned int unknown_cnt;
	uint64_t win_writes;		/* tracked completions this window */
	wbsim_timer wbt_timer;
	wbsim_timer wbt_wake_timer;	/* wakes after a bdp sleep, as an event */
	gboolean bdp_slept;
	wbsim_time_t last_bdp_sleep;
	WBSIM_FIFO_LIST(struct wbsim_bio) wbt_wait;

	/* completions waiting for the IRQ task */
	unsigned int nr_vectors;	/* per-CPU interrupts: the device's queues; 0: none */
	wbsim_task irq;
	WBSIM_FIFO_LIST(struct wbsim_request) done;
	struct wbsim_request *irq_cur;

	struct wbsim_freelist rqs;	/* every request, those in flight freed at free */
	struct wbsim_freelist pieces;	/* the pieces of split bios (struct wbsim_bio) */
	uint64_t seq;

	/* statistics */
	struct wbsim_blk_stats st;
	wbsim_time_t created;
	wbsim_time_t last_change;
	double area_device;		/* integral of in_device dt */
	double area_tags;		/* integral of tags_used dt */
};

static void blk_run_queue(struct wbsim_blk_queue *q);

static uint64_t bio_pages(uint32_t nr_sectors)
{
	return (nr_sectors + PAGE_SECTORS - 1) / PAGE_SECTORS;
}

/* The bvecs a bio's completion walks: its folios, or one per page. */
static uint64_t bio_vecs(const struct wbsim_bio *bio)
{
	return bio->vecs_set ? bio->nr_vecs : bio_pages(bio->nr_sectors);
}

/* The memory segments of @bio: a segment covers at most
 * BLK_MAX_SEGMENT_SIZE of contiguous memory; page-cache folios lie
 * scattered, so each is a segment of its own (or one per 64 KiB of a large
 * one); a bio of contiguous memory (folio_pages 0) one per 64 KiB. */
static uint64_t bio_segments(const struct wbsim_bio *bio)
{
	const uint64_t seg_pages = BLK_MAX_SEGMENT_SIZE / (PAGE_SECTORS << WBSIM_SECTOR_SHIFT);
	uint64_t pages = bio_pages(bio->nr_sectors), per_folio;

	if (!bio->folio_pages)
		return (pages + seg_pages - 1) / seg_pages;
	per_folio = (bio->folio_pages + seg_pages - 1) / seg_pages;
	return (pages + bio->folio_pages - 1) / bio->folio_pages * per_folio;
}

/* Integrate the queue-depth areas up to now; call before any change. */
static void account_time(struct wbsim_blk_queue *q)
{
	wbsim_time_t now = wbsim_sim_now(q->sim);
	wbsim_time_t dt = now - q->last_change;

	if (dt) {
		q->area_device += (double)q->in_device * (double)dt;
		q->area_tags += (double)q->tags_used * (double)dt;
		if (q->in_device)
			q->st.busy_ns += dt;
		q->last_change = now;
	}
}

/* ------------------------------------------------------------------------ */
/* blk-wbt                                                                  */

static void wbt_timer_fn(wbsim_sim *sim, void *arg);

/* rq_depth_calc_max_depth(): Return: TRUE when the scale-up hit the cap. */
static gboolean rq_depth_calc_max_depth(struct wbsim_blk_queue *q)
{
	unsigned int depth;
	gboolean capped = FALSE;

	if (q->wbt_queue_depth == 1) {
		if (q->scale_step > 0) {
			q->max_depth = 1;
		} else {
			q->max_depth = 2;
			capped = TRUE;
		}
		return capped;
	}
	depth = MIN((unsigned int)RWB_DEF_DEPTH, q->wbt_queue_depth);
	if (q->scale_step > 0) {
		depth = 1 + ((depth - 1) >> MIN(31, q->scale_step));
	} else if (q->scale_step < 0) {
		unsigned int maxd = 3 * q->wbt_queue_depth / 4;
		uint64_t d = 1 + ((uint64_t)(depth - 1) << MIN(31, -q->scale_step));

		if (d > maxd) {
			d = maxd;
			capped = TRUE;
		}
		depth = (unsigned int)d;
	}
	q->max_depth = depth;
	return capped;
}

/* calc_wb_limits() */
static void calc_wb_limits(struct wbsim_blk_queue *q)
{
	if (q->max_depth <= 2) {
		q->wb_normal = q->max_depth;
		q->wb_background = 1;
	} else {
		q->wb_normal = (q->max_depth + 1) / 2;
		q->wb_background = (q->max_depth + 3) / 4;
	}
}

/* wb_recent_wait(): a dirtier slept in balance_dirty_pages() within 1 s. */
static gboolean wb_recent_wait(const struct wbsim_blk_queue *q)
{
	return q->bdp_slept &&
	       wbsim_sim_now(q->sim) < q->last_bdp_sleep + WBSIM_NSEC_PER_SEC;
}

/* wbt_should_throttle(): buffered writes; O_DIRECT (SYNC|IDLE) passes. */
static gboolean wbt_tracks(const struct wbsim_blk_queue *q, unsigned int flags)
{
	return q->wbt_enabled &&
	       (flags & (WBSIM_REQ_SYNC | WBSIM_REQ_IDLE)) !=
	       (WBSIM_REQ_SYNC | WBSIM_REQ_IDLE);
}

/* get_limit() for writes (no reads, so close_io() never holds). */
static unsigned int wbt_get_limit(const struct wbsim_blk_queue *q,
				  unsigned int flags)
{
	if (wb_recent_wait(q))
		return q->max_depth;
	if (flags & WBSIM_REQ_BACKGROUND)
		return q->wb_background;
	return q->wb_normal;
}

static void wbt_arm_timer(struct wbsim_blk_queue *q)
{
	wbsim_time_t win = RWB_WINDOW_NSEC;

	/* rwb_arm_timer(): throttled (step > 0) windows are shorter */
	if (q->scale_step > 0) {
		unsigned int x = (unsigned int)(q->scale_step + 1) << 8, r = 0;

		while ((r + 1) * (r + 1) <= x)	/* int_sqrt() */
			r++;
		win = RWB_WINDOW_NSEC * 4 / r;
	}
	wbsim_timer_arm(q->sim, &q->wbt_timer, wbsim_sim_now(q->sim) + win);
}

static void blk_mq_get_request(struct wbsim_blk_queue *q, struct wbsim_bio *bio);

/* Let throttled submitters go while they fit (FIFO, as wake_up_all + retry). */
static void wbt_wake(struct wbsim_blk_queue *q)
{
	struct wbsim_bio *bio;

	while ((bio = wbsim_fifo_list_first(&q->wbt_wait)) &&
	       q->wbt_inflight < wbt_get_limit(q, bio->flags)) {
		wbsim_fifo_list_del_first(&q->wbt_wait, bio, bi_next);
		q->wbt_inflight++;
		bio->wbt_acct = 1;
		q->st.wbt_wait_ns += wbsim_sim_now(q->sim) - bio->submit_time;
		blk_mq_get_request(q, bio);
	}
}

/* __wbt_done(): a tracked request completed. */
static void wbt_done(struct wbsim_blk_queue *q)
{
	unsigned int inflight = --q->wbt_inflight;
	unsigned int limit;

	q->win_writes++;
	if (q->write_cache && !wb_recent_wait(q))
		limit = 0;
	else
		limit = q->wb_normal;
	/* don't wake anyone while above the normal limit */
	if (inflight && inflight >= limit)
		return;
	if (!wbsim_fifo_list_empty(&q->wbt_wait) &&
	    (!inflight || limit - inflight >= q->wb_background / 2))
		wbt_wake(q);
}

/* wb_timer_fn(): one 100 ms window is over. Writes only: no latency samples. */
static void wbt_timer_fn(wbsim_sim *sim, void *arg)
{
	struct wbsim_blk_queue *q = arg;
	gboolean changed = FALSE;

	if (q->win_writes || wb_recent_wait(q) || q->wbt_inflight) {
		/* LAT_UNKNOWN_WRITES: scale_up() */
		if (!q->scaled_max) {
			q->scale_step--;
			q->scaled_max = rq_depth_calc_max_depth(q);
			q->unknown_cnt = 0;
			changed = TRUE;
		}
	} else if (++q->unknown_cnt >= RWB_UNKNOWN_BUMP) {
		/* LAT_UNKNOWN: drift back towards step 0 */
		if (q->scale_step > 0) {
			if (!q->scaled_max) {
				q->scale_step--;
				q->scaled_max = rq_depth_calc_max_depth(q);
				changed = TRUE;
			}
		} else if (q->scale_step < 0 && q->max_depth > 1) {
			q->scale_step++;
			q->scaled_max = FALSE;
			rq_depth_calc_max_depth(q);
			changed = TRUE;
		}
		q->unknown_cnt = changed ? 0 : q->unknown_cnt;
	}
	q->win_writes = 0;
	if (changed) {
		calc_wb_limits(q);
		wbt_wake(q);
	}
	if (q->scale_step > 0 || q->wbt_inflight)
		wbt_arm_timer(q);
}

static void wbt_wake_fn(wbsim_sim *sim, void *arg)
{
	wbt_wake(arg);
}

void wbsim_blk_queue_note_bdp_sleep(struct wbsim_blk_queue *q)
{
	q->bdp_slept = TRUE;
	q->last_bdp_sleep = wbsim_sim_now(q->sim);
	/* waiters resume in their own event, not inside the caller's */
	if (!wbsim_fifo_list_empty(&q->wbt_wait))
		wbsim_timer_arm(q->sim, &q->wbt_wake_timer, q->last_bdp_sleep);
}

unsigned int wbsim_blk_queue_wbt_limit(const struct wbsim_blk_queue *q,
				       unsigned int flags)
{
	return wbt_tracks(q, flags) ? wbt_get_limit(q, flags) : 0;
}

struct wbsim_blk_queue *wbsim_blk_queue_new(struct wbsim_device *dev,
					    enum wbsim_blk_sched sched,
					    unsigned int nr_requests,
					    uint32_t max_sectors)
{
	struct wbsim_blk_queue *q = g_new0(struct wbsim_blk_queue, 1);
	g_autofree char *irq_name = g_strdup_printf("irq/%s", dev->name);

	q->dev = dev;
	q->sim = dev->sim;
	q->cpus = dev->cpus;
	q->costs = dev->costs;
	q->sched = sched;
	q->sync_copy = !!(dev->ops->flags & WBSIM_DEVICE_SYNC_COPY);
	q->stacked = !!(dev->ops->flags & WBSIM_DEVICE_STACKED);
	q->nr_requests = MAX(nr_requests, 1u);
	/* dd_depth_updated(): async_depth = max(1, 3 * nr_requests / 4) */
	q->async_depth = sched == WBSIM_SCHED_MQ_DEADLINE ?
			 MAX(1u, 3 * q->nr_requests / 4) : q->nr_requests;
	q->max_sectors = MAX(max_sectors, PAGE_SECTORS);
	q->hw_depth = dev->hw_queue_depth;
	g_queue_init(&q->fifo);
	wbsim_freelist_init(&q->rqs, sizeof(struct wbsim_request));
	wbsim_freelist_init(&q->pieces, sizeof(struct wbsim_bio));
	if (sched == WBSIM_SCHED_MQ_DEADLINE) {
		q->sort = g_sequence_new(NULL);
		q->rqhash = g_hash_table_new(g_int64_hash, g_int64_equal);
	}
	wbsim_task_init(&q->irq, irq_name, WBSIM_TASK_IRQ);
	q->nr_vectors = q->stacked || q->sync_copy ? 0 : dev->nr_hw_queues;
	q->irq.pid = wbsim_sim_alloc_pid(q->sim);
	q->created = q->last_change = wbsim_sim_now(q->sim);

	/* wbt_init(): on by default for blk-mq queues; stacked md has none */
	q->wbt_enabled = dev->wbt && !q->sync_copy && !q->stacked;
	q->write_cache = dev->write_cache;
	/*
	 * blk_queue_depth(): the SCSI device depth if set, else nr_requests,
	 * which Linux counts per hardware queue
	 */
	if (dev->hctx_depth)
		q->wbt_queue_depth = MIN(dev->hctx_depth, q->nr_requests);
	else
		q->wbt_queue_depth = dev->rotational ? q->hw_depth : q->nr_requests;
	rq_depth_calc_max_depth(q);
	calc_wb_limits(q);
	wbsim_timer_init(&q->wbt_timer, wbt_timer_fn, q);
	wbsim_timer_init(&q->wbt_wake_timer, wbt_wake_fn, q);
	return q;
}

void wbsim_blk_queue_free(struct wbsim_blk_queue *q)
{
	if (!q)
		return;
	wbsim_freelist_clear(&q->rqs, NULL, NULL);
	wbsim_freelist_clear(&q->pieces, NULL, NULL);
	wbsim_timer_cancel(q->sim, &q->wbt_timer);
	wbsim_timer_cancel(q->sim, &q->wbt_wake_timer);
	if (q->sort)
		g_sequence_free(q->sort);
	if (q->rqhash)
		g_hash_table_destroy(q->rqhash);
	wbsim_task_clear(&q->irq);
	g_free(q);
}

/* ------------------------------------------------------------------------ */
/* Requests and tags                                                        */

static struct wbsim_request *rq_alloc(struct wbsim_blk_queue *q,
				      struct wbsim_bio *bio)
{
	struct wbsim_request *rq = wbsim_freelist_alloc(&q->rqs);

	rq->q = q;
	rq->sector = bio->sector;
	rq->nr_sectors = bio->nr_sectors;
	rq->flags = bio->flags;
	rq->bio = rq->biotail = bio;
	bio->bi_next = NULL;
	rq->seq = ++q->seq;
	rq->alloc_time = wbsim_sim_now(q->sim);
	rq->fifo_link.data = rq;
	rq->wbt_tracked = bio->wbt_acct;
	rq->nr_segments = (unsigned int)bio_segments(bio);
	rq->cpu = bio->submitter ? bio->submitter->last_cpu : 0;
	account_time(q);
	q->tags_used++;
	return rq;
}

static void rq_free(struct wbsim_blk_queue *q, struct wbsim_request *rq)
{
	if (rq->wbt_tracked)
		wbt_done(q);
	account_time(q);
	q->tags_used--;
	wbsim_freelist_free(&q->rqs, rq);
}

/* A tag for @bio? Async writes under mq-deadline see only async_depth tags. */
static gboolean tag_available(struct wbsim_blk_queue *q, unsigned int flags)
{
	unsigned int limit = (flags & WBSIM_REQ_SYNC) ? q->nr_requests
						      : q->async_depth;

	return q->tags_used < limit;
}

#define MERGE_FLAGS (WBSIM_REQ_SYNC | WBSIM_REQ_FUA)

static gboolean can_back_merge(struct wbsim_blk_queue *q,
			       const struct wbsim_request *rq,
			       const struct wbsim_bio *bio)
{
	return rq->sector + rq->nr_sectors == bio->sector &&
	       ((rq->flags ^ bio->flags) & MERGE_FLAGS) == 0 &&
	       (uint64_t)rq->nr_sectors + bio->nr_sectors <= q->max_sectors &&
	       rq->nr_segments + bio_segments(bio) <= BLK_MAX_SEGMENTS;
}

static void rq_append_bio(struct wbsim_request *rq, struct wbsim_bio *bio)
{
	bio->bi_next = NULL;
	rq->biotail->bi_next = bio;
	rq->biotail = bio;
	rq->nr_sectors += bio->nr_sectors;
	rq->nr_segments += (unsigned int)bio_segments(bio);
}

/* ------------------------------------------------------------------------ */
/* Schedulers                                                               */

static gint dd_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct wbsim_request *ra = a, *rb = b;

	if (ra->sector != rb->sector)
		return ra->sector < rb->sector ? -1 : 1;
	if (ra->seq != rb->seq)
		return ra->seq < rb->seq ? -1 : 1;
	return 0;
}

static uint64_t *rq_end_key(struct wbsim_request *rq)
{
	/* the hash key lives in the request: driver_u64 is unused until dispatch */
	rq->driver_u64 = rq->sector + rq->nr_sectors;
	return (uint64_t *)&rq->driver_u64;
}

/* elv insert: dd_insert_request() / none's dispatch list */
static void sched_insert(struct wbsim_blk_queue *q, struct wbsim_request *rq)
{
	q->nr_queued++;
	if (q->sched == WBSIM_SCHED_NONE) {
		g_queue_push_tail_link(&q->fifo, &rq->fifo_link);
		return;
	}
	rq->fifo_time = wbsim_sim_now(q->sim) + DD_WRITE_EXPIRE;
	g_queue_push_tail_link(&q->fifo, &rq->fifo_link);
	rq->sort_iter = g_sequence_insert_sorted(q->sort, rq, dd_cmp, NULL);
	g_hash_table_replace(q->rqhash, rq_end_key(rq), rq);
}

static void dd_remove(struct wbsim_blk_queue *q, struct wbsim_request *rq)
{
	g_queue_unlink(&q->fifo, &rq->fifo_link);
	g_sequence_remove(rq->sort_iter);
	rq->sort_iter = NULL;
	if (g_hash_table_lookup(q->rqhash, &rq->driver_u64) == rq)
		g_hash_table_remove(q->rqhash, &rq->driver_u64);
}

/*
 * dd_bio_merge() - back-merge @bio into a queued request that ends where it
 * starts (the elevator's rqhash lookup, elv_merge()). Front merges are left
 * out: writeback submits in ascending order.
 */
static gboolean dd_bio_merge(struct wbsim_blk_queue *q, struct wbsim_bio *bio)
{
	struct wbsim_request *rq;
	uint64_t key = bio->sector;

	if (q->sched != WBSIM_SCHED_MQ_DEADLINE)
		return FALSE;
	rq = g_hash_table_lookup(q->rqhash, &key);
	if (!rq || !can_back_merge(q, rq, bio))
		return FALSE;
	g_hash_table_remove(q->rqhash, &key);
	rq_append_bio(rq, bio);
	g_hash_table_replace(q->rqhash, rq_end_key(rq), rq);
	return TRUE;
}

/* First queued request at or after latest_pos in sector order. */
static struct wbsim_request *dd_from_pos(struct wbsim_blk_queue *q)
{
	struct wbsim_request key = { .sector = q->latest_pos, .seq = 0 };
	GSequenceIter *it = g_sequence_search(q->sort, &key, dd_cmp, NULL);

	if (g_sequence_iter_is_end(it))
		return NULL;
	return g_sequence_get(it);
}

/*
 * dd_dispatch_request() - writes only: continue the current batch in
 * ascending sector order for up to fifo_batch requests; a new batch starts
 * at the FIFO head if it has expired or nothing lies ahead, otherwise
 * continues ahead. Left out: reads, starvation counters, priorities.
 */
static struct wbsim_request *dd_dispatch_request(struct wbsim_blk_queue *q)
{
	struct wbsim_request *next, *rq;
	struct wbsim_request *oldest;

	if (g_queue_is_empty(&q->fifo))
		return NULL;
	next = dd_from_pos(q);
	if (next && q->batching < DD_FIFO_BATCH) {
		rq = next;
	} else {
		oldest = g_queue_peek_head(&q->fifo);
		if (!next || oldest->fifo_time <= wbsim_sim_now(q->sim))
			rq = oldest;
		else
			rq = next;
		q->batching = 0;
	}
	q->batching++;
	dd_remove(q, rq);
	q->latest_pos = rq->sector + rq->nr_sectors;
	return rq;
}

static struct wbsim_request *sched_dispatch(struct wbsim_blk_queue *q)
{
	struct wbsim_request *rq;

	if (q->sched == WBSIM_SCHED_NONE) {
		GList *l = g_queue_pop_head_link(&q->fifo);

		rq = l ? l->data : NULL;
	} else {
		rq = dd_dispatch_request(q);
	}
	if (rq)
		q->nr_queued--;
	return rq;
}

/* blk_mq_run_hw_queue(): hand requests to the device while it has room. */
static void blk_run_queue(struct wbsim_blk_queue *q)
{
	struct wbsim_request *rq;

	if (q->dispatching)
		return;
	q->dispatching = TRUE;
	while (q->in_device < q->hw_depth && (rq = sched_dispatch(q))) {
		account_time(q);
		q->in_device++;
		if (q->in_device > q->st.max_queue_depth)
			q->st.max_queue_depth = q->in_device;
		rq->dispatch_time = wbsim_sim_now(q->sim);
		rq->driver_data = NULL;
		rq->driver_next = NULL;
		rq->driver_time = 0;
		rq->driver_u64 = 0;
		q->dev->ops->queue_rq(q->dev, rq);
	}
	q->dispatching = FALSE;
}

/* ------------------------------------------------------------------------ */
/* Plugging                                                                 */

void wbsim_blk_start_plug(struct wbsim_blk_queue *q, struct wbsim_plug *plug)
{
	wbsim_fifo_list_init(&plug->rqs);
	plug->nr = 0;
	plug->q = q;
}

/* blk_mq_flush_plug_list(): send the plugged requests to the scheduler. */
static void flush_plug(struct wbsim_blk_queue *q, struct wbsim_plug *plug)
{
	struct wbsim_request *rq;

	plug->nr = 0;
	while ((rq = wbsim_fifo_list_first(&plug->rqs))) {
		wbsim_fifo_list_del_first(&plug->rqs, rq, next);
		sched_insert(q, rq);
	}
	blk_run_queue(q);
}

static void plug_add(struct wbsim_blk_queue *q, struct wbsim_plug *plug,
		     struct wbsim_request *rq)
{
	if (plug->nr >= PLUG_MAX_REQUESTS)
		flush_plug(q, plug);
	wbsim_fifo_list_add_tail(&plug->rqs, rq, next);
	plug->nr++;
}

void wbsim_blk_finish_plug(struct wbsim_blk_queue *q, wbsim_task *submitter,
			   struct wbsim_plug *plug, wbsim_event_fn done, void *arg)
{
	if (!wbsim_fifo_list_empty(&plug->rqs))
		flush_plug(q, plug);
	if (done)
		done(q->sim, arg);
}

/* ------------------------------------------------------------------------ */
/* Submission                                                               */

/* A bio got its request: put it under the plug or into the scheduler. */
static void bio_got_request(struct wbsim_blk_queue *q, struct wbsim_bio *bio,
			    struct wbsim_request *rq)
{
	if (bio->plug) {
		plug_add(q, bio->plug, rq);
	} else {
		sched_insert(q, rq);
		blk_run_queue(q);
	}
}

static void call_submitted(struct wbsim_blk_queue *q, struct wbsim_bio *bio)
{
	wbsim_event_fn fn = bio->submitted;
	void *arg = bio->submitted_arg;

	bio->submitted = NULL;
	if (fn)
		fn(q->sim, arg);
}

/* Get a tag for @bio, or sleep for one (blk_mq_get_new_requests()). */
static void blk_mq_get_request(struct wbsim_blk_queue *q, struct wbsim_bio *bio)
{
	struct wbsim_plug *plug = bio->plug;
	struct wbsim_request *rq;

	if (wbsim_fifo_list_empty(&q->wait) && tag_available(q, bio->flags)) {
		rq = rq_alloc(q, bio);
		bio_got_request(q, bio, rq);
		call_submitted(q, bio);
		return;
	}
	/*
	 * No tag: the submitter sleeps in blk_mq_get_tag(); going to sleep
	 * flushes its plug (so its own plugged requests can complete).
	 */
	if (plug && !wbsim_fifo_list_empty(&plug->rqs))
		flush_plug(q, plug);
	q->st.tag_waits++;
	bio->submit_time = wbsim_sim_now(q->sim);
	wbsim_fifo_list_add_tail(&q->wait, bio, bi_next);
}

static void blk_mq_submit_bio(struct wbsim_blk_queue *q, struct wbsim_bio *bio);

/* A piece of a split bio ended: the bio ends with its last piece. */
static void split_piece_end(wbsim_sim *sim, void *arg)
{
	struct wbsim_bio *piece = arg;
	struct wbsim_bio *parent = piece->split_parent;

	wbsim_freelist_free(&piece->q->pieces, piece);
	if (--parent->split_remaining == 0)
		parent->end_io(sim, parent->private);
}

/* A piece got its request: the next piece goes on, the last one returns
 * the whole bio's submission to its submitter. */
static void split_piece_submitted(wbsim_sim *sim, void *arg)
{
	struct wbsim_bio *piece = arg;
	struct wbsim_bio *next = piece->bi_next_piece;

	(void)sim;
	if (next) {
		blk_mq_submit_bio(next->q, next);
		return;
	}
	call_submitted(piece->q, piece->split_parent);
}

/*
 * bio_split_to_limits(): a bio of more than BLK_MAX_SEGMENTS segments
 * goes on as pieces of at most that many, in order, each a bio of its
 * own through the plug, the merges, blk-wbt and the tags (the kernel
 * submits the first piece and resubmits the rest). Returns the first
 * piece, or @bio itself when it fits.
 */
static struct wbsim_bio *bio_split_to_limits(struct wbsim_blk_queue *q, struct wbsim_bio *bio)
{
	uint64_t segs = bio_segments(bio), per_seg_sectors, left, sector;
	uint32_t vecs_done = 0;
	struct wbsim_bio *first = NULL, *prev = NULL;

	if ((segs <= BLK_MAX_SEGMENTS && bio->nr_sectors <= q->max_sectors) || bio->split_parent)
		return bio;
	/* sectors per segment; a piece is at most max_sectors too
	 * (get_max_io_size()) */
	per_seg_sectors = MAX(bio->nr_sectors / segs, PAGE_SECTORS);
	left = bio->nr_sectors;
	sector = bio->sector;
	bio->split_remaining = 0;
	while (left) {
		struct wbsim_bio *piece = wbsim_freelist_alloc(&q->pieces);
		uint64_t n = MIN(left, MIN(BLK_MAX_SEGMENTS * per_seg_sectors, q->max_sectors));

		piece->sector = sector;
		piece->nr_sectors = (uint32_t)n;
		piece->flags = bio->flags;
		piece->end_io = split_piece_end;
		piece->private = piece;
		piece->q = q;
		piece->submitter = bio->submitter;
		piece->plug = bio->plug;
		piece->submit_time = bio->submit_time;
		piece->submitted = split_piece_submitted;
		piece->submitted_arg = piece;
		piece->split_parent = bio;
		piece->folio_pages = bio->folio_pages;
		if (bio->vecs_set) {
			/* the folios' completions shared out in proportion: the
			 * pieces' counts add up to the bio's */
			uint64_t done = bio->nr_sectors - left + n;
			uint32_t upto = (uint32_t)(done * bio->nr_vecs / bio->nr_sectors);

			piece->vecs_set = true;
			piece->nr_vecs = upto - vecs_done;
			vecs_done = upto;
		}
		if (prev)
			prev->bi_next_piece = piece;
		else
			first = piece;
		prev = piece;
		bio->split_remaining++;
		sector += n;
		left -= n;
	}
	return first;
}

/* blk_mq_submit_bio(): after the submitter's CPU burst. */
static void blk_mq_submit_bio(struct wbsim_blk_queue *q, struct wbsim_bio *bio)
{
	struct wbsim_plug *plug;
	struct wbsim_request *last;

	bio = bio_split_to_limits(q, bio);
	plug = bio->plug;
	last = plug ? wbsim_fifo_list_last(&plug->rqs) : NULL;
	bio->wbt_acct = 0;
	if (last && can_back_merge(q, last, bio)) {
		rq_append_bio(last, bio);
		q->st.merges++;
		call_submitted(q, bio);
		return;
	}
	if (dd_bio_merge(q, bio)) {
		q->st.merges++;
		call_submitted(q, bio);
		return;
	}
	if (wbt_tracks(q, bio->flags)) {
		/* rq_qos_throttle() -> wbt_wait(): FIFO behind earlier sleepers */
		if (!wbsim_timer_pending(&q->wbt_timer))
			wbt_arm_timer(q);
		if (!wbsim_fifo_list_empty(&q->wbt_wait) ||
		    q->wbt_inflight >= wbt_get_limit(q, bio->flags)) {
			if (plug && !wbsim_fifo_list_empty(&plug->rqs))
				flush_plug(q, plug);
			q->st.wbt_waits++;
			bio->submit_time = wbsim_sim_now(q->sim);
			wbsim_fifo_list_add_tail(&q->wbt_wait, bio, bi_next);
			return;
		}
		q->wbt_inflight++;
		bio->wbt_acct = 1;
	}
	blk_mq_get_request(q, bio);
}

/* Hand freed tags to waiting submitters, in FIFO order. */
static void wake_tag_waiters(struct wbsim_blk_queue *q)
{
	struct wbsim_bio *bio;

	while ((bio = wbsim_fifo_list_first(&q->wait)) && tag_available(q, bio->flags)) {
		struct wbsim_request *rq;

		wbsim_fifo_list_del_first(&q->wait, bio, bi_next);
		q->st.tag_wait_ns += wbsim_sim_now(q->sim) - bio->submit_time;
		rq = rq_alloc(q, bio);
		bio_got_request(q, bio, rq);
		call_submitted(q, bio);
	}
}

/* PMEM: the copy has run on the submitter's CPU; complete inline. */
static void sync_copy_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_bio *bio = arg;
	struct wbsim_blk_queue *q = bio->q;
	wbsim_event_fn submitted = bio->submitted;
	void *submitted_arg = bio->submitted_arg;
	wbsim_time_t lat = wbsim_sim_now(sim) - bio->submit_time;

	account_time(q);
	q->in_device--;
	q->st.requests++;
	q->st.bytes += (uint64_t)bio->nr_sectors << WBSIM_SECTOR_SHIFT;
	q->st.total_latency_ns += lat;
	if (lat > q->st.max_latency_ns)
		q->st.max_latency_ns = lat;
	/* pmem_submit_bio() ends the bio in the submitter's context */
	bio->end_io(sim, bio->private);
	if (submitted)
		submitted(sim, submitted_arg);
}

static void submit_cpu_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_bio *bio = arg;
	struct wbsim_blk_queue *q = bio->q;

	if (q->sync_copy) {
		uint64_t bytes = (uint64_t)bio->nr_sectors << WBSIM_SECTOR_SHIFT;
		wbsim_time_t t = q->dev->ops->copy_time(q->dev, bytes);

		/* the inline bio_endio costs its per-page work here too */
		t += bio_vecs(bio) * q->costs->blk_complete_page_ns;
		account_time(q);
		q->in_device++;
		if (q->in_device > q->st.max_queue_depth)
			q->st.max_queue_depth = q->in_device;
		bio->submit_time = wbsim_sim_now(sim);
		wbsim_cpus_run(q->cpus, bio->submitter, t, sync_copy_done, bio);
		return;
	}
	blk_mq_submit_bio(q, bio);
}

void wbsim_submit_bio(struct wbsim_blk_queue *q, wbsim_task *submitter,
		      struct wbsim_plug *plug, struct wbsim_bio *bio,
		      wbsim_event_fn submitted, void *arg)
{
	wbsim_time_t cost;

	g_return_if_fail(q && submitter && bio && bio->end_io && bio->nr_sectors);
	bio->bi_next = NULL;
	bio->q = q;
	bio->submitter = submitter;
	bio->plug = q->sync_copy ? NULL : plug;
	bio->submitted = submitted;
	bio->submitted_arg = arg;
	bio->submit_time = wbsim_sim_now(q->sim);
	q->st.bios++;
	/* submit_bio() work is paid per bio, whether it merges or not */
	cost = q->costs->blk_submit_rq_ns +
	       bio_pages(bio->nr_sectors) * q->costs->blk_submit_page_ns;
	wbsim_cpus_run(q->cpus, submitter, cost, submit_cpu_done, bio);
}

void wbsim_blk_submit_bio_nocost(struct wbsim_blk_queue *q, struct wbsim_bio *bio)
{
	bio->bi_next = NULL;
	bio->q = q;
	bio->submitter = NULL;
	bio->plug = NULL;
	bio->submitted = NULL;
	bio->submitted_arg = NULL;
	bio->submit_time = wbsim_sim_now(q->sim);
	q->st.bios++;
	blk_mq_submit_bio(q, bio);
}

/* ------------------------------------------------------------------------ */
/* Completion                                                               */

/* blk_mq_end_request(): end every bio, release the tag. */
static void blk_mq_end_request(struct wbsim_blk_queue *q, struct wbsim_request *rq)
{
	struct wbsim_bio *bio = rq->bio;

	while (bio) {
		struct wbsim_bio *next = bio->bi_next;

		bio->bi_next = NULL;
		bio->end_io(q->sim, bio->private);
		bio = next;
	}
	rq_free(q, rq);
	wake_tag_waiters(q);
}

static void irq_finish(struct wbsim_blk_queue *q)
{
	struct wbsim_request *rq = q->irq_cur;

	q->irq_cur = NULL;
	blk_mq_end_request(q, rq);
}

/* The request's completion, and per bvec the end of writeback of its
 * folio (blk_complete_page_ns: a 4 KiB folio's, measured per page of
 * order-0 folios; a large folio ends in one folio_end_writeback()). */
static wbsim_time_t complete_cost(const struct wbsim_blk_queue *q,
				  const struct wbsim_request *rq)
{
	uint64_t vecs = 0, paged = 0;

	for (const struct wbsim_bio *bio = rq->bio; bio; bio = bio->bi_next) {
		if (bio->vecs_set)
			vecs += bio->nr_vecs;
		else
			paged += bio->nr_sectors;
	}
	vecs += bio_pages((uint32_t)paged);
	return q->costs->blk_complete_rq_ns + vecs * q->costs->blk_complete_page_ns;
}

static void irq_done(wbsim_sim *sim, void *arg);

/* Run the next completion on the IRQ task (inline when it costs nothing). */
static void irq_next(struct wbsim_blk_queue *q)
{
	struct wbsim_request *rq;
	wbsim_time_t cost;

	while (!q->irq_cur && (rq = wbsim_fifo_list_first(&q->done))) {
		wbsim_fifo_list_del_first(&q->done, rq, next);
		q->irq_cur = rq;
		cost = q->stacked ? 0 : complete_cost(q, rq);
		if (cost == 0) {
			irq_finish(q);
			continue;
		}
		wbsim_cpus_run(q->cpus, &q->irq, cost, irq_done, q);
	}
}

static void irq_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_blk_queue *q = arg;

	irq_finish(q);
	irq_next(q);
}

/*
 * blk-mq's map of CPUs to queues (blk_mq_map_queues: the CPUs spread evenly,
 * in order, over the queues) and the vector of each queue interrupting the
 * first CPU of its mask: the CPU where the completion of a request submitted
 * on @cpu runs.
 */
static unsigned int irq_cpu_of(const struct wbsim_blk_queue *q, unsigned int cpu)
{
	unsigned int nr_cpus = wbsim_cpus_count(q->cpus);
	unsigned int n = MIN(q->nr_vectors, nr_cpus);
	unsigned int per = nr_cpus / n, big = (nr_cpus % n) * (per + 1);

	cpu %= nr_cpus;
	/* the first nr_cpus % n queues serve one CPU more */
	if (cpu < big)
		return cpu - cpu % (per + 1);
	return big + (cpu - big) / per * per;
}

static void hardirq_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_request *rq = arg;

	(void)sim;
	blk_mq_end_request(rq->q, rq);
}

void wbsim_blk_queue_end_request(struct wbsim_blk_queue *q,
				 struct wbsim_request *rq)
{
	wbsim_time_t lat = wbsim_sim_now(q->sim) - rq->dispatch_time;

	account_time(q);
	q->in_device--;
	q->st.requests++;
	q->st.bytes += (uint64_t)rq->nr_sectors << WBSIM_SECTOR_SHIFT;
	q->st.total_latency_ns += lat;
	if (lat > q->st.max_latency_ns)
		q->st.max_latency_ns = lat;
	rq->next = NULL;
	if (q->nr_vectors) {
		/* nvme_irq() on the CPU the request's queue interrupts */
		wbsim_time_t end = wbsim_cpus_irq(q->cpus, irq_cpu_of(q, rq->cpu), &q->irq,
						  complete_cost(q, rq));

		wbsim_sim_schedule_at(q->sim, end, hardirq_done, rq);
		blk_run_queue(q);
		return;
	}
	wbsim_fifo_list_add_tail(&q->done, rq, next);
	irq_next(q);
	blk_run_queue(q);
}

/* ------------------------------------------------------------------------ */
/* Statistics                                                               */

void wbsim_blk_queue_get_stats(struct wbsim_blk_queue *q,
			       struct wbsim_blk_stats *stats)
{
	account_time(q);
	*stats = q->st;
	stats->elapsed_ns = wbsim_sim_now(q->sim) - q->created;
	if (stats->elapsed_ns) {
		stats->avg_queue_depth = q->area_device / (double)stats->elapsed_ns;
		stats->avg_queued = q->area_tags / (double)stats->elapsed_ns;
		stats->utilisation = (double)stats->busy_ns /
				     (double)stats->elapsed_ns;
	}
	if (q->dev->ops->get_stats)
		q->dev->ops->get_stats(q->dev, stats);
}

gboolean wbsim_blk_queue_check(const struct wbsim_blk_queue *q, char **why)
{
	if (q->tags_used > q->nr_requests)
		*why = g_strdup_printf("%u requests hold tags, nr_requests is %u",
				       q->tags_used, q->nr_requests);
	else if (q->in_device > q->hw_depth)
		*why = g_strdup_printf("%u requests in the device, its queue depth is %u",
				       q->in_device, q->hw_depth);
	else if (!q->sync_copy && q->in_device > q->tags_used)
		/* (PMEM copies without a tag: only queued devices are checked) */
		*why = g_strdup_printf("%u requests in the device but only %u tags used",
				       q->in_device, q->tags_used);
	else
		return TRUE;
	return FALSE;
}

unsigned int wbsim_blk_queue_in_flight(const struct wbsim_blk_queue *q)
{
	return q->tags_used;
}

unsigned int wbsim_blk_queue_nr_requests(const struct wbsim_blk_queue *q)
{
	return q->nr_requests;
}

uint32_t wbsim_blk_queue_max_sectors(const struct wbsim_blk_queue *q)
{
	return q->max_sectors;
}

wbsim_task *wbsim_blk_queue_irq_task(struct wbsim_blk_queue *q)
{
	return &q->irq;
}
