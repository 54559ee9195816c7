/* SPDX-License-Identifier: MIT */
/*
 * block/dev-ideal.c - the ideal device, the reference: requests stream
 * through one pipe of fixed bandwidth in arrival order, and each completes a
 * fixed latency after its last byte went through.
 *
 *   start_i = max(arrival_i, end_{i-1});  end_i = start_i + bytes_i / bandwidth
 *   complete_i = end_i + latency
 *
 * So one request alone takes latency + bytes / bandwidth, and a deep enough
 * queue moves exactly bandwidth bytes per second.
 */
#include <wbsim/error.h>
#include "block/blk.h"

struct ideal {
	uint64_t bandwidth;
	uint64_t latency;
	uint64_t queue_depth;
	uint64_t capacity;
	wbsim_time_t pipe_free;
};

static const struct wbsim_param ideal_params[] = {
	{ "bandwidth", WBSIM_PARAM_RATE, offsetof(struct ideal, bandwidth),
	  "1000000000/s", NULL, 1, 1e15,
	  "transfer rate of the pipe" },
	{ "latency", WBSIM_PARAM_TIME, offsetof(struct ideal, latency),
	  "100us", NULL, 0, 1e12,
	  "time from the last byte to completion" },
	{ "queue_depth", WBSIM_PARAM_UINT, offsetof(struct ideal, queue_depth),
	  "32", "requests", 1, 65536,
	  "requests the device accepts at once" },
	{ "capacity", WBSIM_PARAM_SIZE, offsetof(struct ideal, capacity),
	  "1t", NULL, 4096, 1e18,
	  "size" },
	{ .name = NULL },
};

static gboolean ideal_init(struct wbsim_device *dev, GError **error)
{
	struct ideal *d = wbsim_device_priv(dev);

	wbsim_device_set_limits(dev, d->capacity >> WBSIM_SECTOR_SHIFT,
				(unsigned int)d->queue_depth, FALSE);
	return TRUE;
}

static void ideal_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_request *rq = arg;

	wbsim_device_end_request(rq->driver_data, rq);
}

static void ideal_queue_rq(struct wbsim_device *dev, struct wbsim_request *rq)
{
	struct ideal *d = wbsim_device_priv(dev);
	wbsim_sim *sim = wbsim_device_sim(dev);
	uint64_t bytes = (uint64_t)rq->nr_sectors << WBSIM_SECTOR_SHIFT;
	wbsim_time_t start = MAX(wbsim_sim_now(sim), d->pipe_free);

	d->pipe_free = start + wbsim_blk_xfer_ns(bytes, d->bandwidth);
	rq->driver_data = dev;
	wbsim_sim_schedule_at(sim, d->pipe_free + d->latency, ideal_done, rq);
}

const struct wbsim_device_ops wbsim_ideal_ops = {
	.name = "ideal",
	.version = WBSIM_DEVICE_OPS_VERSION,
	.help = "fixed bandwidth, fixed latency, a queue depth",
	.params = ideal_params,
	.priv_size = sizeof(struct ideal),
	.default_scheduler = "none",
	.init = ideal_init,
	.queue_rq = ideal_queue_rq,
};
