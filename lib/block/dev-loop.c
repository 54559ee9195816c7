/* SPDX-License-Identifier: MIT */
/*
 * block/dev-loop.c - a loop device over a file on tmpfs, as the kernel's
 * loop driver runs it without direct I/O: loop_queue_rq() hands each
 * request to the device's worker (loop_queue_work(); the root cgroup's
 * commands are one work item, so one kworker takes them in order), which
 * writes the request's pages into the backing file with vfs_iter_write()
 * (lo_write_simple()) and completes the request (blk_mq_complete_request()).
 *
 * The worker is a task on the simulated CPUs. A request costs it
 *
 *   loop_request_ns + pages * loop_page_copy_ns
 *     + new_pages * loop_page_alloc_ns,
 *
 * where new_pages are the 4 KiB pages of the backing file written for the
 * first time: tmpfs allocates, charges and LRU-adds a page for them
 * (shmem_write_begin() without a folio in the cache), and later writes
 * only copy. The model remembers which backing pages exist, so the first
 * pass of a filesystem over fresh space costs more than an overwrite, as
 * on the real device. The backing pages are shmem: not page cache that
 * writeback or the dirty limits see.
 *
 * The three costs are rows of the run's cost table (wbsim/cpu-costs.h),
 * not the device's parameters: the worker is kernel work on the host's
 * CPUs (vfs_iter_write into tmpfs), so they move with the host build and
 * its phases as the host profile's other rows do, scale with a machine's
 * cpu_speed, and lab/calibrate measures them with the rest.
 *
 * Left out: the backing file's memory taken from the machine (shmem grows
 * as the device is written; the lab's scenarios use absolute dirty limits,
 * which do not move with free memory), per-blkcg workers (cgroup v2 only),
 * discard.
 */
#include <wbsim/error.h>
#include "block/blk.h"
#include "core/fifo-list.h"

/* backing pages tracked in chunks of 2 MiB: 512 bits each */
#define LOOP_CHUNK_SHIFT	9
#define LOOP_CHUNK_WORDS	(1u << LOOP_CHUNK_SHIFT) / 64

struct loop {
	uint64_t capacity;
	uint64_t queue_depth;

	wbsim_task worker;
	WBSIM_FIFO_LIST(struct wbsim_request) queued;
	struct wbsim_request *cur;
	GHashTable *chunks;		/* chunk index -> uint64_t[WORDS] */
	uint64_t backing_pages;
};

static const struct wbsim_param loop_params[] = {
	{ "capacity", WBSIM_PARAM_SIZE, offsetof(struct loop, capacity),
	  "4g", NULL, 4096, 1ull << 50,
	  "size of the backing file" },
	{ "queue_depth", WBSIM_PARAM_UINT, offsetof(struct loop, queue_depth),
	  "128", "requests", 1, 65536,
	  "tags of the loop device (module parameter hw_queue_depth)" },
	{ .name = NULL },
};

static gboolean loop_init(struct wbsim_device *dev, GError **error)
{
	struct loop *d = wbsim_device_priv(dev);
	g_autofree char *name = g_strdup_printf("kworker/%s", wbsim_device_name(dev));

	(void)error;
	wbsim_task_init(&d->worker, name, WBSIM_TASK_OTHER);
	d->chunks = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
	wbsim_device_set_limits(dev, d->capacity >> WBSIM_SECTOR_SHIFT,
				(unsigned int)d->queue_depth, FALSE);
	return TRUE;
}

/* Marks the backing pages of [page, page + n) written; returns how many
 * were not before. One chunk lookup per 2 MiB of the range. */
static uint64_t loop_touch(struct loop *d, uint64_t page, uint64_t n)
{
	uint64_t fresh = 0, end = page + n;

	while (page < end) {
		int64_t chunk = (int64_t)(page >> LOOP_CHUNK_SHIFT);
		uint64_t chunk_end = MIN(end, (uint64_t)(chunk + 1) << LOOP_CHUNK_SHIFT);
		uint64_t *bits = g_hash_table_lookup(d->chunks, &chunk);

		if (!bits) {
			int64_t *key = g_new(int64_t, 1);

			*key = chunk;
			bits = g_new0(uint64_t, LOOP_CHUNK_WORDS);
			g_hash_table_insert(d->chunks, key, bits);
		}
		for (; page < chunk_end; page++) {
			unsigned int bit = page & ((1u << LOOP_CHUNK_SHIFT) - 1);

			if (!(bits[bit / 64] & (1ull << (bit % 64)))) {
				bits[bit / 64] |= 1ull << (bit % 64);
				fresh++;
			}
		}
	}
	d->backing_pages += fresh;
	return fresh;
}

static void loop_worker_next(struct wbsim_device *dev);

static void loop_worker_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_device *dev = arg;
	struct loop *d = wbsim_device_priv(dev);
	struct wbsim_request *rq = d->cur;

	(void)sim;
	d->cur = NULL;
	wbsim_device_end_request(dev, rq);
	loop_worker_next(dev);
}

/* loop_process_work(): the worker takes the queued commands in order */
static void loop_worker_next(struct wbsim_device *dev)
{
	struct loop *d = wbsim_device_priv(dev);
	const struct wbsim_cpu_costs *c = wbsim_device_costs(dev);
	struct wbsim_request *rq = wbsim_fifo_list_first(&d->queued);
	uint64_t bytes, first, pages, fresh;

	if (d->cur || !rq)
		return;
	wbsim_fifo_list_del_first(&d->queued, rq, driver_next);
	d->cur = rq;
	bytes = (uint64_t)rq->nr_sectors << WBSIM_SECTOR_SHIFT;
	first = (rq->sector << WBSIM_SECTOR_SHIFT) >> 12;
	pages = (((rq->sector << WBSIM_SECTOR_SHIFT) + bytes + 4095) >> 12) - first;
	fresh = loop_touch(d, first, pages);
	wbsim_cpus_run(wbsim_device_cpus(dev), &d->worker,
		       c->loop_request_ns + pages * c->loop_page_copy_ns +
		       fresh * c->loop_page_alloc_ns,
		       loop_worker_done, dev);
}

static void loop_queue_rq(struct wbsim_device *dev, struct wbsim_request *rq)
{
	struct loop *d = wbsim_device_priv(dev);

	wbsim_fifo_list_add_tail(&d->queued, rq, driver_next);
	loop_worker_next(dev);
}

static void loop_get_stats(struct wbsim_device *dev, struct wbsim_blk_stats *stats)
{
	struct loop *d = wbsim_device_priv(dev);

	stats->cpu_ns += d->worker.cpu_ns;
}

static void loop_exit(struct wbsim_device *dev)
{
	struct loop *d = wbsim_device_priv(dev);

	g_clear_pointer(&d->chunks, g_hash_table_destroy);
	wbsim_task_clear(&d->worker);
}

const struct wbsim_device_ops wbsim_loop_ops = {
	.name = "loop",
	.version = WBSIM_DEVICE_OPS_VERSION,
	.help = "loop device over a tmpfs file: one worker copies each request",
	.flags = WBSIM_DEVICE_HOST_WORKER,
	.params = loop_params,
	.priv_size = sizeof(struct loop),
	.default_scheduler = "none",
	.init = loop_init,
	.queue_rq = loop_queue_rq,
	.get_stats = loop_get_stats,
	.exit = loop_exit,
};
