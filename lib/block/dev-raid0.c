/* SPDX-License-Identifier: MIT */
/*
 * block/dev-raid0.c - md RAID0: N member devices of one preset striped in
 * chunks. A request is split at chunk boundaries; the parts go to the
 * members' own request queues (with their schedulers and tags) at once, and
 * the request completes when its last part does.    (kernel: drivers/md/raid0.c)
 *
 *   chunk c = sector / chunk_sectors,  member = c % N,
 *   member sector = (c / N) * chunk_sectors + sector % chunk_sectors
 *
 * md is bio-based: the submitter pays the block-layer submission cost once,
 * on the RAID device; the members' queues pay the completion costs. Left
 * out: members of different sizes (zones), the member queues' plugging.
 */
#include <string.h>

#include <wbsim/error.h>
#include "block/blk.h"

struct raid0_io {
	GList link;			/* in raid0.live */
	struct wbsim_device *dev;
	struct wbsim_request *rq;
	unsigned int remaining;
	unsigned int nr_parts;
	struct wbsim_bio parts[];
};

struct raid0 {
	char *member;
	uint64_t members;
	uint64_t chunk_size;
	struct wbsim_device **devs;
	uint64_t chunk_sectors;
	GQueue live;			/* raid0_io in flight */
};

static const struct wbsim_param raid0_params[] = {
	{ "member", WBSIM_PARAM_STRING, offsetof(struct raid0, member),
	  NULL, "preset", 0, 0,
	  "preset of the member devices" },
	{ "members", WBSIM_PARAM_UINT, offsetof(struct raid0, members),
	  "2", "devices", 2, 256,
	  "number of member devices" },
	{ "chunk_size", WBSIM_PARAM_SIZE, offsetof(struct raid0, chunk_size),
	  "512k", NULL, 4096, 1e9,
	  "stripe chunk (mdadm's default 512 KiB)" },
	{ .name = NULL },
};

static gboolean raid0_init(struct wbsim_device *dev, GError **error)
{
	struct raid0 *d = wbsim_device_priv(dev);
	uint64_t member_cap = UINT64_MAX;
	unsigned int depth = 0;
	gboolean rotational = FALSE;

	if (d->chunk_size % 4096) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "chunk_size %" G_GUINT64_FORMAT ": expected a multiple "
			    "of 4096 bytes", d->chunk_size);
		return FALSE;
	}
	d->chunk_sectors = d->chunk_size >> WBSIM_SECTOR_SHIFT;
	d->devs = g_new0(struct wbsim_device *, d->members);
	for (uint64_t i = 0; i < d->members; i++) {
		struct wbsim_device *m = wbsim_device_new_from_preset(
			wbsim_device_sim(dev), wbsim_device_cpus(dev),
			wbsim_device_costs(dev), d->member, NULL, 0, error);

		if (!m) {
			g_prefix_error(error, "member %" G_GUINT64_FORMAT ": ", i);
			goto fail;
		}
		d->devs[i] = m;
		if (m->ops->flags & WBSIM_DEVICE_SYNC_COPY) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNSUPPORTED,
				    "member preset '%s' is model %s: expected a "
				    "device with a request queue", d->member,
				    m->ops->name);
			goto fail;
		}
		member_cap = MIN(member_cap, wbsim_device_capacity(m));
		rotational |= wbsim_device_rotational(m);
	}
	/* as many requests in flight as the members' queues hold together */
	depth = 0;
	for (uint64_t i = 0; i < d->members; i++)
		depth += wbsim_blk_queue_nr_requests(wbsim_device_queue(d->devs[i]));
	member_cap -= member_cap % d->chunk_sectors;
	wbsim_device_set_limits(dev, member_cap * d->members, depth, rotational);
	return TRUE;
fail:
	for (uint64_t i = 0; i < d->members; i++)
		wbsim_device_free(d->devs[i]);
	g_clear_pointer(&d->devs, g_free);
	return FALSE;
}

static void raid0_exit(struct wbsim_device *dev)
{
	struct raid0 *d = wbsim_device_priv(dev);
	GList *l;

	while ((l = g_queue_pop_head_link(&d->live)))
		g_free(l->data);

	for (uint64_t i = 0; d->devs && i < d->members; i++)
		wbsim_device_free(d->devs[i]);
	g_free(d->devs);
}

static void raid0_part_done(wbsim_sim *sim, void *arg)
{
	struct raid0_io *io = arg;

	struct raid0 *d = wbsim_device_priv(io->dev);

	if (--io->remaining)
		return;
	g_queue_unlink(&d->live, &io->link);
	wbsim_device_end_request(io->dev, io->rq);
	g_free(io);
}

static void raid0_queue_rq(struct wbsim_device *dev, struct wbsim_request *rq)
{
	struct raid0 *d = wbsim_device_priv(dev);
	uint64_t first = rq->sector / d->chunk_sectors;
	uint64_t last = (rq->sector + rq->nr_sectors - 1) / d->chunk_sectors;
	unsigned int n = (unsigned int)(last - first + 1);
	struct raid0_io *io = g_malloc0(sizeof(*io) + n * sizeof(struct wbsim_bio));
	uint64_t sector = rq->sector, end = rq->sector + rq->nr_sectors;

	io->link.data = io;
	g_queue_push_tail_link(&d->live, &io->link);
	io->dev = dev;
	io->rq = rq;
	io->nr_parts = n;
	io->remaining = n;
	for (unsigned int i = 0; i < n; i++) {
		uint64_t c = sector / d->chunk_sectors;
		uint64_t off = sector % d->chunk_sectors;
		uint64_t len = MIN(d->chunk_sectors - off, end - sector);
		struct wbsim_bio *b = &io->parts[i];

		b->sector = (c / d->members) * d->chunk_sectors + off;
		b->nr_sectors = (uint32_t)len;
		b->flags = rq->flags;
		/* the part carries the request's memory: page-cache folios
		 * stay one segment each on the member's queue */
		b->folio_pages = rq->bio ? rq->bio->folio_pages : 0;
		b->end_io = raid0_part_done;
		b->private = io;
		sector += len;
	}
	/* submit after building: a part may complete synchronously */
	for (unsigned int i = 0; i < n; i++) {
		uint64_t c = (rq->sector / d->chunk_sectors) + i;

		wbsim_blk_submit_bio_nocost(
			wbsim_device_queue(d->devs[c % d->members]), &io->parts[i]);
	}
}

static void raid0_get_stats(struct wbsim_device *dev, struct wbsim_blk_stats *st)
{
	struct raid0 *d = wbsim_device_priv(dev);

	for (uint64_t i = 0; i < d->members; i++) {
		struct wbsim_blk_stats ms;

		wbsim_blk_queue_get_stats(wbsim_device_queue(d->devs[i]), &ms);
		st->seeks += ms.seeks;
		st->seek_ns += ms.seek_ns;
		st->rotation_ns += ms.rotation_ns;
	}
}

const struct wbsim_device_ops wbsim_raid0_ops = {
	.name = "raid0",
	.version = WBSIM_DEVICE_OPS_VERSION,
	.flags = WBSIM_DEVICE_STACKED,
	.help = "md RAID0 striping over members of one preset",
	.params = raid0_params,
	.priv_size = sizeof(struct raid0),
	.default_scheduler = "none",
	.init = raid0_init,
	.queue_rq = raid0_queue_rq,
	.get_stats = raid0_get_stats,
	.exit = raid0_exit,
};
