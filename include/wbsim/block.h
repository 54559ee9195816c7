/* SPDX-License-Identifier: MIT */
/*
 * wbsim/block.h - the block layer: bios, requests, the per-device request
 * queue with its tags, plugging, merging and schedulers (none,
 * mq-deadline), CPU costs of submission and completion, and per-device
 * statistics.                                    (kernel: block/blk-mq.c)
 *
 * Everything is callback-based on the event core (wbsim/sim.h): a submitter
 * is a wbsim_task; the block layer charges its CPU time through
 * wbsim_cpus_run() and calls it back when it may go on. Completions run on
 * the queue's completion task (kind WBSIM_TASK_IRQ), cost CPU time there,
 * and then call each bio's end_io.
 *
 * Life of a write:
 *   wbsim_submit_bio() --CPU (submit costs)--> plug merge / tag / sched insert
 *     --> dispatch to the device while it has room (its hardware depth)
 *     --> device completes --> IRQ task CPU (complete costs) --> bio end_io
 *     --> tag freed, a submitter waiting for a tag resumes.
 * PMEM (no request queue): wbsim_submit_bio() charges the submit costs and
 * then the copy itself on the submitter's CPU; end_io runs before submitted.
 *
 * Thread safety (every function of this header unless it says otherwise):
 * a request queue runs inside one simulation, in the thread
 * that runs it.
 */
#ifndef WBSIM_BLOCK_H
#define WBSIM_BLOCK_H

#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>

WBSIM_BEGIN_DECLS

#define WBSIM_SECTOR_SHIFT 9
#define WBSIM_SECTOR_SIZE 512u

/**
 * enum wbsim_req_flags - request flags (the kernel's REQ_* bits)
 * @WBSIM_REQ_SYNC: data integrity writeback (WB_SYNC_ALL) or O_SYNC
 * @WBSIM_REQ_BACKGROUND: background or kupdate writeback
 * @WBSIM_REQ_FUA: forced unit access: complete only when on stable media
 *	(bypasses a disk's volatile write cache)
 * @WBSIM_REQ_IDLE: with SYNC, a direct-IO write (not throttled by wbt)
 *
 * Only bios with equal SYNC and FUA bits merge.
 */
enum wbsim_req_flags {
	WBSIM_REQ_SYNC = 1u << 0,
	WBSIM_REQ_BACKGROUND = 1u << 1,
	WBSIM_REQ_FUA = 1u << 2,
	WBSIM_REQ_IDLE = 1u << 3,
};

struct wbsim_blk_queue;
struct wbsim_plug;
struct wbsim_request;

/**
 * struct wbsim_bio - one write request from the flusher or a direct-IO job
 * @sector: device offset in 512-byte sectors
 * @nr_sectors: length in sectors (> 0)
 * @flags: enum wbsim_req_flags
 * @end_io: called once, with @private, when every byte is on the device
 *	(or in its volatile write cache, unless FUA)
 * @private: argument of @end_io
 *
 * The caller owns the bio and must keep it alive until @end_io runs. The
 * remaining fields are private to the block layer.
 */
struct wbsim_bio {
	uint64_t sector;
	uint32_t nr_sectors;
	unsigned int flags;
	wbsim_event_fn end_io;
	void *private;
	/* private */
	struct wbsim_bio *bi_next;
	struct wbsim_blk_queue *q;
	wbsim_task *submitter;
	struct wbsim_plug *plug;
	wbsim_event_fn submitted;
	void *submitted_arg;
	wbsim_time_t submit_time;
	unsigned int wbt_acct;
};

/**
 * struct wbsim_request - a request: one or more contiguous bios, the unit
 * the device model sees (queue_rq hook in wbsim/device.h)
 * @sector: first sector
 * @nr_sectors: length in sectors
 * @flags: flags of its first bio
 * @dispatch_time: when it was handed to the device
 * @driver_data: free for the device model while it holds the request
 * @driver_next: free for the device model (a list link)
 * @driver_time: free for the device model
 * @driver_u64: free for the device model
 *
 * The remaining fields are private to the block layer.
 */
struct wbsim_request {
	uint64_t sector;
	uint32_t nr_sectors;
	unsigned int flags;
	wbsim_time_t dispatch_time;
	void *driver_data;
	struct wbsim_request *driver_next;
	wbsim_time_t driver_time;
	uint64_t driver_u64;
	/* private */
	struct wbsim_blk_queue *q;
	struct wbsim_bio *bio, *biotail;
	struct wbsim_request *next;	/* plug list, completion list */
	uint64_t seq;			/* creation order, sort tie-break */
	wbsim_time_t fifo_time;		/* mq-deadline write expiry */
	void *sort_iter;		/* mq-deadline sort list position */
	GList fifo_link;		/* mq-deadline FIFO link */
	wbsim_time_t alloc_time;
	unsigned int cpu;		/* the submitter's CPU (rq->mq_ctx->cpu) */
	unsigned int wbt_tracked : 1;
};

/**
 * struct wbsim_plug - a per-task plug (the kernel's struct blk_plug)
 *
 * Requests built under a plug are held back and merged with following
 * contiguous bios; wbsim_blk_finish_plug() (or a wait for a tag, or the
 * plug filling up) sends them to the scheduler. Private fields only.
 */
struct wbsim_plug {
	struct wbsim_request *head, *tail;
	unsigned int nr;
	struct wbsim_blk_queue *q;
};

/**
 * wbsim_blk_start_plug() - start plugging (the kernel's blk_start_plug())
 * @q: the queue the plugged bios go to
 * @plug: the plug, owned by the caller (one per submitting task)
 */
WBSIM_API void wbsim_blk_start_plug(struct wbsim_blk_queue *q,
				    struct wbsim_plug *plug);

/**
 * wbsim_blk_finish_plug() - flush a plug (the kernel's blk_finish_plug())
 * @q: the queue
 * @submitter: the task that owns the plug
 * @plug: the plug; it is empty and may be reused or dropped afterwards
 * @done: called when the submitter may go on; flushing costs no extra CPU
 *	(it was charged per request at submission), so @done is called before
 *	this function returns. May be NULL.
 * @arg: argument of @done
 */
WBSIM_API void wbsim_blk_finish_plug(struct wbsim_blk_queue *q,
				     wbsim_task *submitter,
				     struct wbsim_plug *plug,
				     wbsim_event_fn done, void *arg);

/**
 * wbsim_submit_bio() - submit a write (the kernel's submit_bio())
 * @q: the device's queue (wbsim_device_queue())
 * @submitter: the task submitting; its CPU pays the submission costs
 *	(blk_submit_rq_ns + blk_submit_page_ns per 4 KiB) through
 *	wbsim_cpus_run(), so it must have no other CPU request outstanding
 * @plug: the submitter's plug, or NULL. A bio that starts where the plug's
 *	last request ends (same SYNC/FUA bits, total within max_sectors_kb)
 *	merges into it (the kernel's blk_attempt_plug_merge())
 * @bio: the bio; sector and nr_sectors within the device, end_io set
 * @submitted: called when the submitter may go on: after its CPU burst if
 *	the bio merged or found a free tag; later if it had to wait for a tag
 *	(the queue is full: this paces a submitter faster than its device).
 *	For a PMEM device the copy runs on the submitter's CPU first, and
 *	@bio's end_io is called before @submitted.
 * @arg: argument of @submitted
 */
WBSIM_API void wbsim_submit_bio(struct wbsim_blk_queue *q,
				wbsim_task *submitter, struct wbsim_plug *plug,
				struct wbsim_bio *bio,
				wbsim_event_fn submitted, void *arg);

/**
 * struct wbsim_blk_stats - per-device statistics (like /proc/diskstats)
 * @bios: bios submitted
 * @bytes: bytes completed
 * @requests: requests completed (after merging)
 * @merges: bios merged into an existing request (plug or scheduler)
 * @tag_waits: submissions that had to wait for a free tag
 * @tag_wait_ns: total time submitters waited for tags
 * @wbt_waits: submissions blk-wbt made wait (queue depth throttling)
 * @wbt_wait_ns: total time submitters waited in blk-wbt
 * @avg_queue_depth: time-average of requests dispatched to the device and
 *	not yet completed
 * @max_queue_depth: maximum of the same
 * @avg_queued: time-average of requests holding a tag (scheduler + device),
 *	iostat's aqu-sz
 * @busy_ns: time with at least one request at the device
 * @elapsed_ns: time since the queue was created
 * @utilisation: @busy_ns / @elapsed_ns (iostat's %util / 100)
 * @total_latency_ns: sum over requests of dispatch-to-device-completion time
 * @max_latency_ns: the longest such time
 * @seeks: for disks: head movements to another cylinder
 * @seek_ns: for disks: total time spent seeking
 * @rotation_ns: for disks: total rotational wait
 */
struct wbsim_blk_stats {
	uint64_t bios;
	uint64_t bytes;
	uint64_t requests;
	uint64_t merges;
	uint64_t tag_waits;
	wbsim_time_t tag_wait_ns;
	uint64_t wbt_waits;
	wbsim_time_t wbt_wait_ns;
	double avg_queue_depth;
	unsigned int max_queue_depth;
	double avg_queued;
	wbsim_time_t busy_ns;
	wbsim_time_t elapsed_ns;
	double utilisation;
	wbsim_time_t total_latency_ns;
	wbsim_time_t max_latency_ns;
	uint64_t seeks;
	wbsim_time_t seek_ns;
	wbsim_time_t rotation_ns;
	/* CPU time of the device model's own tasks (a loop worker) */
	wbsim_time_t cpu_ns;
};

/**
 * wbsim_blk_queue_get_stats() - read the statistics of @q at the current time
 * @q: the queue
 * @stats: filled in
 */
WBSIM_API void wbsim_blk_queue_get_stats(struct wbsim_blk_queue *q,
					 struct wbsim_blk_stats *stats);

/**
 * wbsim_blk_queue_in_flight() - requests holding a tag (scheduler + device)
 */
WBSIM_API unsigned int wbsim_blk_queue_in_flight(const struct wbsim_blk_queue *q);

/**
 * wbsim_blk_queue_max_sectors() - the largest request, in sectors
 * (max_sectors_kb * 2): the flusher splits its I/O at this size
 */
WBSIM_API uint32_t wbsim_blk_queue_max_sectors(const struct wbsim_blk_queue *q);

/**
 * wbsim_blk_queue_note_bdp_sleep() - balance_dirty_pages() put a dirtier
 * to sleep on this device's bdi now (the kernel's bdi->last_bdp_sleep):
 * for the next second blk-wbt lets buffered writeback use its full depth
 * (wb_recent_wait())
 * @q: the queue
 */
WBSIM_API void wbsim_blk_queue_note_bdp_sleep(struct wbsim_blk_queue *q);

/**
 * wbsim_blk_queue_irq_task() - the task that runs completions (its CPU
 * time is the completion cost)
 */
WBSIM_API wbsim_task *wbsim_blk_queue_irq_task(struct wbsim_blk_queue *q);

WBSIM_END_DECLS

#endif /* WBSIM_BLOCK_H */
