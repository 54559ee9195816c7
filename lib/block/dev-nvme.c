/* SPDX-License-Identifier: MIT */
/*
 * block/dev-nvme.c - a flash SSD behind NVMe (or UFS): hardware queues, a
 * controller with a per-command cost, a host link, a power-loss-protected
 * write buffer, and a NAND back end of channels x dies.
 *
 * A write request goes:
 *   1. wait (FIFO) until the write buffer has room for it;
 *   2. controller:  t0 = max(now, ctrl_free) + command_overhead
 *   3. host link:   t1 = max(t0, link_free) + bytes / link_bandwidth
 *   4. completes at t1 + write_latency (acknowledged from the buffer);
 *   5. back end: the data is cut into program_unit pieces, each given to the
 *      die that frees first; a die programs a piece in
 *        units * piece / seq_write_bandwidth
 *      (units = channels * dies_per_channel, so all dies busy give exactly
 *      seq_write_bandwidth), plus, for the first piece of a random request,
 *        units * (1 / random_write_iops - 4096 / seq_write_bandwidth),
 *      the mapping-table and garbage-collection work of a write that does
 *      not continue a stream; with all dies busy 4 KiB random writes run at
 *      exactly random_write_iops. A piece's buffer space is freed when it
 *      is programmed.
 * A request is sequential if it starts where one of the last 8 streams
 * ended. IOPS grow with the number of requests in flight (latency-bound)
 * until the back end saturates and the buffer fills.
 *
 * Left out: reads, garbage collection as its own process (its steady-state
 * cost is in the random overhead), SLC caching, thermal throttling.
 */
#include <wbsim/error.h>
#include "block/blk.h"
#include "core/fifo-list.h"
#include "core/event-fifo.h"
#include "core/freelist.h"

#define NVME_STREAMS 8

struct nvme_release {
	struct wbsim_device *dev;
	uint64_t bytes;
};

struct nvme {
	uint64_t capacity;
	uint64_t hw_queues;
	uint64_t queue_depth;
	uint64_t channels;
	uint64_t dies_per_channel;
	uint64_t seq_write_bandwidth;
	uint64_t random_write_iops;
	uint64_t write_latency;
	uint64_t command_overhead;
	uint64_t link_bandwidth;
	uint64_t write_buffer;
	uint64_t program_unit;
	gboolean volatile_cache;

	unsigned int units;
	wbsim_time_t *unit_free;
	/* the units as a binary min-heap on (unit_free, index): the root is
	 * the die that frees first, the lowest-numbered one on a tie */
	unsigned int *unit_heap;
	wbsim_time_t random_extra;	/* per unit, first piece of a random write */
	wbsim_time_t ctrl_free, link_free;
	uint64_t buf_used;
	WBSIM_FIFO_LIST(struct wbsim_request) wait;
	uint64_t streams[NVME_STREAMS];
	unsigned int stream_next;
	struct wbsim_freelist rels;	/* struct nvme_release */
	/* pending releases per unit and completions: each in time order (a
	 * unit programs one piece after another; the link and the latency
	 * complete requests in the order they started) */
	struct wbsim_event_fifo *unit_releases;
	struct wbsim_event_fifo completions;
};

#define P(f) offsetof(struct nvme, f)
static const struct wbsim_param nvme_params[] = {
	{ "capacity", WBSIM_PARAM_SIZE, P(capacity), NULL, NULL, 4096, 1e18, "user capacity" },
	{ "hw_queues", WBSIM_PARAM_UINT, P(hw_queues), "1", "queues", 1, 65536,
	  "I/O queue pairs (one per CPU up to this many)" },
	{ "queue_depth", WBSIM_PARAM_UINT, P(queue_depth), "1023", "commands", 1, 65536,
	  "usable entries per queue (Linux io_queue_depth 1024 minus one)" },
	{ "channels", WBSIM_PARAM_UINT, P(channels), NULL, "channels", 1, 1024,
	  "NAND channels" },
	{ "dies_per_channel", WBSIM_PARAM_UINT, P(dies_per_channel),
	  NULL, "dies", 1, 1024,
	  "NAND dies on each channel" },
	{ "seq_write_bandwidth", WBSIM_PARAM_RATE, P(seq_write_bandwidth),
	  NULL, NULL, 1, 1e15,
	  "sustained sequential write" },
	{ "random_write_iops", WBSIM_PARAM_UINT, P(random_write_iops),
	  NULL, "IOPS", 1, 1e9,
	  "sustained 4 KiB random writes per second" },
	{ "write_latency", WBSIM_PARAM_TIME, P(write_latency), NULL, NULL, 0, 1e12,
	  "from data in the buffer to completion" },
	{ "command_overhead", WBSIM_PARAM_TIME, P(command_overhead), NULL, NULL, 0, 1e9,
	  "controller time per command (serial)" },
	{ "link_bandwidth", WBSIM_PARAM_RATE, P(link_bandwidth), NULL, NULL, 1, 1e15,
	  "host link payload bandwidth (PCIe, UniPro)" },
	{ "write_buffer", WBSIM_PARAM_SIZE, P(write_buffer), NULL, NULL, 4096, 1e12,
	  "power-loss-protected write buffer" },
	{ "program_unit", WBSIM_PARAM_SIZE, P(program_unit), "64k", NULL, 512, 1e9,
	  "bytes one die programs at once" },
	{ "volatile_cache", WBSIM_PARAM_BOOL, P(volatile_cache), "0", NULL, 0, 0,
	  "the buffer is volatile (no power-loss protection): NVMe VWC" },
	{ .name = NULL },
};
#undef P

static gboolean nvme_init(struct wbsim_device *dev, GError **error)
{
	struct nvme *d = wbsim_device_priv(dev);
	double per_iop = 1e9 / (double)d->random_write_iops;
	double per_4k = 4096e9 / (double)d->seq_write_bandwidth;
	unsigned int queues;

	if (per_iop < per_4k) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "random_write_iops %" G_GUINT64_FORMAT " x 4 KiB exceeds "
			    "seq_write_bandwidth %" G_GUINT64_FORMAT " B/s: expected "
			    "random 4 KiB writes no faster than sequential ones",
			    d->random_write_iops, d->seq_write_bandwidth);
		return FALSE;
	}
	d->units = (unsigned int)(d->channels * d->dies_per_channel);
	d->unit_free = g_new0(wbsim_time_t, d->units);
	/* all free at 0: in index order, the array is a heap */
	d->unit_heap = g_new(unsigned int, d->units);
	d->unit_releases = g_new(struct wbsim_event_fifo, d->units);
	for (unsigned int i = 0; i < d->units; i++)
		wbsim_event_fifo_init(&d->unit_releases[i], wbsim_device_sim(dev));
	wbsim_event_fifo_init(&d->completions, wbsim_device_sim(dev));
	for (unsigned int i = 0; i < d->units; i++)
		d->unit_heap[i] = i;
	d->random_extra = (wbsim_time_t)((per_iop - per_4k) * d->units + 0.5);
	wbsim_freelist_init(&d->rels, sizeof(struct nvme_release));
	for (unsigned int i = 0; i < NVME_STREAMS; i++)
		d->streams[i] = UINT64_MAX;
	/* one queue pair per CPU, up to the device's number (nvme_setup_io_queues) */
	queues = (unsigned int)MIN(d->hw_queues,
				   (uint64_t)wbsim_cpus_count(wbsim_device_cpus(dev)));
	wbsim_device_set_write_cache(dev, d->volatile_cache);
	/* Linux's tags and nr_requests are per queue pair */
	dev->hctx_depth = (unsigned int)d->queue_depth;
	/* each queue pair has its MSI-X vector, affine to the queue's CPUs */
	wbsim_device_set_hw_queues(dev, queues);
	wbsim_device_set_limits(dev, d->capacity >> WBSIM_SECTOR_SHIFT,
				(unsigned int)MIN(d->queue_depth * queues, 1u << 20),
				FALSE);
	return TRUE;
}

static void nvme_exit(struct wbsim_device *dev)
{
	struct nvme *d = wbsim_device_priv(dev);

	g_free(d->unit_free);
	g_free(d->unit_heap);
	for (unsigned int i = 0; d->unit_releases && i < d->units; i++)
		wbsim_event_fifo_clear(&d->unit_releases[i]);
	g_free(d->unit_releases);
	wbsim_event_fifo_clear(&d->completions);
	wbsim_freelist_clear(&d->rels, NULL, NULL);
}

static void nvme_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_request *rq = arg;

	wbsim_device_end_request(rq->driver_data, rq);
}

static void nvme_admit(struct wbsim_device *dev);

static void nvme_release(wbsim_sim *sim, void *arg)
{
	struct nvme_release *rel = arg;
	struct wbsim_device *dev = rel->dev;
	struct nvme *d = wbsim_device_priv(dev);

	d->buf_used -= rel->bytes;
	wbsim_freelist_free(&d->rels, rel);
	nvme_admit(dev);
}

/* Is @rq a continuation of a recent stream? Updates the stream table. */
static gboolean nvme_sequential(struct nvme *d, const struct wbsim_request *rq)
{
	uint64_t end = rq->sector + rq->nr_sectors;

	for (unsigned int i = 0; i < NVME_STREAMS; i++) {
		if (d->streams[i] == rq->sector) {
			d->streams[i] = end;
			return TRUE;
		}
	}
	d->streams[d->stream_next] = end;
	d->stream_next = (d->stream_next + 1) % NVME_STREAMS;
	return FALSE;
}

static gboolean unit_before(const struct nvme *d, unsigned int a, unsigned int b)
{
	return d->unit_free[a] < d->unit_free[b] ||
	       (d->unit_free[a] == d->unit_free[b] && a < b);
}

/* The root unit's free time grew: move it down to its place. */
static void unit_heap_root_later(struct nvme *d)
{
	unsigned int *h = d->unit_heap, n = d->units, i = 0, u = h[0];

	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && unit_before(d, h[c + 1], h[c]))
			c++;
		if (!unit_before(d, h[c], u))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = u;
}

static void nvme_start(struct wbsim_device *dev, struct wbsim_request *rq)
{
	struct nvme *d = wbsim_device_priv(dev);
	wbsim_sim *sim = wbsim_device_sim(dev);
	uint64_t bytes = (uint64_t)rq->nr_sectors << WBSIM_SECTOR_SHIFT;
	gboolean random = !nvme_sequential(d, rq);
	wbsim_time_t t0, t1;
	struct nvme_release *rel;

	t0 = MAX(wbsim_sim_now(sim), d->ctrl_free) + d->command_overhead;
	d->ctrl_free = t0;
	t1 = MAX(t0, d->link_free) + wbsim_blk_xfer_ns(bytes, d->link_bandwidth);
	d->link_free = t1;
	d->buf_used += bytes;
	wbsim_event_fifo_schedule_at(&d->completions, t1 + d->write_latency, nvme_done, rq);

	for (uint64_t off = 0; off < bytes;) {
		uint64_t piece = MIN(d->program_unit, bytes - off);
		unsigned int u = d->unit_heap[0];	/* the die that frees first */
		wbsim_time_t start, dur;

		start = MAX(t1, d->unit_free[u]);
		dur = d->units * wbsim_blk_xfer_ns(piece, d->seq_write_bandwidth);
		if (off == 0 && random)
			dur += d->random_extra;
		d->unit_free[u] = start + dur;
		unit_heap_root_later(d);
		/* the piece's buffer space is free once it is programmed */
		rel = wbsim_freelist_alloc(&d->rels);
		rel->dev = dev;
		rel->bytes = piece;
		wbsim_event_fifo_schedule_at(&d->unit_releases[u], start + dur, nvme_release, rel);
		off += piece;
	}
}

/* Start waiting requests, in order, while the write buffer has room. */
static void nvme_admit(struct wbsim_device *dev)
{
	struct nvme *d = wbsim_device_priv(dev);
	struct wbsim_request *rq;

	while ((rq = wbsim_fifo_list_first(&d->wait))) {
		uint64_t bytes = (uint64_t)rq->nr_sectors << WBSIM_SECTOR_SHIFT;

		/* an oversized request goes alone into an empty buffer */
		if (d->buf_used + bytes > d->write_buffer && d->buf_used)
			break;
		wbsim_fifo_list_del_first(&d->wait, rq, driver_next);
		nvme_start(dev, rq);
	}
}

static void nvme_queue_rq(struct wbsim_device *dev, struct wbsim_request *rq)
{
	struct nvme *d = wbsim_device_priv(dev);

	rq->driver_data = dev;
	wbsim_fifo_list_add_tail(&d->wait, rq, driver_next);
	nvme_admit(dev);
}

const struct wbsim_device_ops wbsim_nvme_ops = {
	.name = "nvme",
	.version = WBSIM_DEVICE_OPS_VERSION,
	.help = "flash SSD: controller, link, write buffer, channels x dies",
	.params = nvme_params,
	.priv_size = sizeof(struct nvme),
	.default_scheduler = "none",
	.init = nvme_init,
	.queue_rq = nvme_queue_rq,
	.exit = nvme_exit,
};
