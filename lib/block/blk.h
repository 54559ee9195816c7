/* SPDX-License-Identifier: MIT */
/*
 * block/blk.h - private interfaces of lib/block: value parsing with units,
 * the queue's life cycle, the device structure, and the built-in models.
 */
#ifndef WBSIM_BLOCK_BLK_H
#define WBSIM_BLOCK_BLK_H

#include <wbsim/block.h>
#include <wbsim/device.h>

#include "core/param.h"

/*
 * wbsim_blk_xfer_ns() - ceil(@bytes * 1e9 / @rate): the time to move @bytes
 * at @rate bytes per second, exact in integers.
 */
static inline wbsim_time_t wbsim_blk_xfer_ns(uint64_t bytes, uint64_t rate)
{
	__extension__ typedef unsigned __int128 u128;

	return (wbsim_time_t)(((u128)bytes * WBSIM_NSEC_PER_SEC + rate - 1) / rate);
}

/* --- the device ---------------------------------------------------------- */

struct wbsim_device {
	const struct wbsim_device_ops *ops;
	char *name;
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	const struct wbsim_cpu_costs *costs;
	void *priv;
	/* where each parameter came from, in table order (NULL = default) */
	char **model_src;
	/* common parameters */
	char *scheduler;
	uint64_t nr_requests;
	uint64_t max_sectors_kb;
	gboolean wbt;
	char *common_src[4];
	gboolean write_cache;		/* set by the model: volatile cache */
	unsigned int hctx_depth;	/* per hardware queue, if several (nvme) */
	unsigned int nr_hw_queues;	/* queues with a vector each; 0: one completion task */
	/* limits set by the model */
	uint64_t capacity;
	unsigned int hw_queue_depth;
	gboolean rotational;
	struct wbsim_blk_queue *queue;
};

/* --- blk-core.c ----------------------------------------------------------- */

enum wbsim_blk_sched {
	WBSIM_SCHED_NONE,
	WBSIM_SCHED_MQ_DEADLINE,
};

struct wbsim_blk_queue *wbsim_blk_queue_new(struct wbsim_device *dev,
					    enum wbsim_blk_sched sched,
					    unsigned int nr_requests,
					    uint32_t max_sectors);
void wbsim_blk_queue_free(struct wbsim_blk_queue *q);
/* The queue's nr_requests: the requests it holds (tags, or the scheduler's). */
unsigned int wbsim_blk_queue_nr_requests(const struct wbsim_blk_queue *q);
/* --check: the queue's depths within their bounds; else FALSE and *@why. */
gboolean wbsim_blk_queue_check(const struct wbsim_blk_queue *q, char **why);
/*
 * wbsim_blk_submit_bio_nocost() - submit @bio with no submitter: no CPU
 * cost, no plug, no submitted callback (a stacked device's member I/O)
 */
void wbsim_blk_submit_bio_nocost(struct wbsim_blk_queue *q, struct wbsim_bio *bio);
/* wbsim_blk_queue_wbt_limit() - blk-wbt's current limit for @flags (0: not tracked) */
unsigned int wbsim_blk_queue_wbt_limit(const struct wbsim_blk_queue *q,
				       unsigned int flags);
void wbsim_blk_queue_end_request(struct wbsim_blk_queue *q,
				 struct wbsim_request *rq);

/* --- built-in models -------------------------------------------------------- */

extern const struct wbsim_device_ops wbsim_ideal_ops;
extern const struct wbsim_device_ops wbsim_pmem_ops;
extern const struct wbsim_device_ops wbsim_nvme_ops;
extern const struct wbsim_device_ops wbsim_hdd_ops;
extern const struct wbsim_device_ops wbsim_raid0_ops;
extern const struct wbsim_device_ops wbsim_loop_ops;

/* hdd.c: exposed for tests: the fitted seek curve, distance in cylinders */
struct wbsim_hdd;
wbsim_time_t wbsim_hdd_seek_time(const struct wbsim_hdd *hdd, uint64_t distance);

#endif /* WBSIM_BLOCK_BLK_H */
