/* SPDX-License-Identifier: MIT */
/*
 * wbsim/block.h - what a device model sees of the block layer: the request
 * its queue_rq hook receives (struct wbsim_request, the kernel's struct
 * request as a driver's ->queue_rq() gets it), the request flags, and the
 * per-device statistics its get_stats hook fills in.
 *                                                (kernel: block/blk-mq.c)
 *
 * The block layer itself (bios, plugging, merging, the schedulers none and
 * mq-deadline, tags, blk-wbt, the CPU costs of submission and completion)
 * is the library's: lib/block/blk-core.c. A write reaches a model so:
 *   submit_bio --CPU (submit costs)--> plug merge / tag / sched insert
 *     --> queue_rq(dev, rq) while the device has room (its hardware depth)
 *     --> the model calls wbsim_device_end_request() --> IRQ task CPU
 *     (complete costs) --> each bio's end_io --> tag freed.
 *
 * Thread safety: a request belongs to the simulation (and thread) of the
 * device it was queued to.
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
struct wbsim_bio;
struct wbsim_request;

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
	unsigned int nr_segments;	/* memory segments of its bios */
	unsigned int wbt_tracked : 1;
};

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

WBSIM_END_DECLS

#endif /* WBSIM_BLOCK_H */
