/* SPDX-License-Identifier: MIT */
/*
 * block/dev-pmem.c - persistent memory in block mode (no DAX), as the
 * kernel's pmem driver: a bio-based device with no request queue; the
 * submitting task copies the data itself (pmem_submit_bio ->
 * pmem_do_write -> memcpy_flushcache) and ends the bio inline.
 *
 * One copy runs at the per-CPU memcpy bandwidth of the cost table. All
 * copies share the memory system's write bandwidth (memory_bandwidth): a
 * copy reserves its bytes on that shared channel in arrival order and lasts
 * as long as the slower of the two,
 *
 *   t = max(bytes / memcpy_bandwidth, channel_free' - now),
 *   channel_free' = max(now, channel_free) + bytes / memory_bandwidth,
 *
 * so one flusher moves at most what one CPU copies, more flushers move more
 * until the CPUs or the memory bandwidth run out.
 */
#include <wbsim/error.h>
#include "block/blk.h"

struct pmem {
	uint64_t capacity;
	uint64_t memory_bandwidth;
	wbsim_time_t channel_free;
};

static const struct wbsim_param pmem_params[] = {
	{ "capacity", WBSIM_PARAM_SIZE, offsetof(struct pmem, capacity),
	  "6g", NULL, 4096, 1e18,
	  "size of the pmem region" },
	{ "memory_bandwidth", WBSIM_PARAM_RATE, offsetof(struct pmem, memory_bandwidth),
	  "20000000000/s", NULL, 1, 1e15,
	  "memory write bandwidth shared by all copies" },
	{ .name = NULL },
};

static gboolean pmem_init(struct wbsim_device *dev, GError **error)
{
	struct pmem *d = wbsim_device_priv(dev);

	if (wbsim_device_costs(dev)->memcpy_bandwidth == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "memcpy_bandwidth of the CPU cost table is 0");
		return FALSE;
	}
	/* bio-based: no tags to wait for; a large depth stands for "none" */
	wbsim_device_set_limits(dev, d->capacity >> WBSIM_SECTOR_SHIFT, 65536,
				FALSE);
	return TRUE;
}

static wbsim_time_t pmem_copy_time(struct wbsim_device *dev, uint64_t bytes)
{
	struct pmem *d = wbsim_device_priv(dev);
	wbsim_time_t now = wbsim_sim_now(wbsim_device_sim(dev));
	wbsim_time_t cpu = wbsim_blk_xfer_ns(bytes, wbsim_device_costs(dev)->memcpy_bandwidth);

	d->channel_free = MAX(now, d->channel_free) +
			  wbsim_blk_xfer_ns(bytes, d->memory_bandwidth);
	return MAX(cpu, d->channel_free - now);
}

const struct wbsim_device_ops wbsim_pmem_ops = {
	.name = "pmem",
	.version = WBSIM_DEVICE_OPS_VERSION,
	.flags = WBSIM_DEVICE_SYNC_COPY | WBSIM_DEVICE_RAM_BACKED,
	.help = "persistent memory in block mode: the submitter's CPU copies",
	.params = pmem_params,
	.priv_size = sizeof(struct pmem),
	.default_scheduler = "none",
	.init = pmem_init,
	.copy_time = pmem_copy_time,
};
