/* SPDX-License-Identifier: MIT */
/*
 * block/dev-hdd.c - a rotating disk: seek time against distance, the
 * platter's angular position, zoned transfer rate, NCQ reordering and an
 * optional volatile write cache.
 *
 * Geometry. Linear density is constant, so a track holds bytes in
 * proportion to its radius x = r / r_outer, and transfers at
 * outer_rate * x; the innermost track is at R = inner_rate / outer_rate.
 * Cylinders are spread evenly in radius, so their number follows from the
 * capacity:  cylinders = capacity / (heads * outer_rate * rev * (1 + R) / 2).
 * LBAs run from the outer edge inwards, track after track (all heads of a
 * cylinder, then the next cylinder). The share f of the LBAs outside
 * radius x is (1 - x^2) / (1 - R^2), so an LBA sits at
 *   x(f) = sqrt(1 - f (1 - R^2)),
 *   T(f) = (1 - x) / (1 - R) * cylinders * heads   (a continuous track index),
 * on cylinder floor(T / heads), at angle frac(T) of a revolution. Moving
 * dT tracks takes dT revolutions: sequential transfer runs at the zone's
 * rate and leaves the head exactly where the next sector starts.
 *
 * Seek time for a distance of d cylinders (Ruemmler and Wilkes, "An
 * introduction to disk drive modeling", IEEE Computer 27(3), 1994): a
 * square-root regime for short seeks (acceleration-limited) and a linear one
 * for long seeks (coast at top speed):
 *   t(d) = t1 + (tk - t1) sqrt((d - 1) / (dk - 1))       1 <= d <= dk
 *   t(d) = tk + (tf - tk) (d - dk) / (D - dk)            dk < d <= D
 * with t1 = track_to_track, tf = full_stroke, D = cylinders - 1,
 * dk = seek_knee * D, and tk solved so that the average over all seek
 * pairs, weighted (D + 1 - d) as in datasheets, equals average_seek.
 *
 * Service: positioning = seek + rotational wait until the target sector
 * comes under the head; then transfer. The disk picks among its queued
 * commands the one with the shortest positioning time (SPTF, as NCQ
 * firmware does) unless the oldest has waited ncq_max_age. With the write
 * cache on, a write (not FUA) completes once it crossed the interface into
 * the cache; the cache is destaged in SPTF order among its oldest
 * reorder_window entries; a full cache makes writes wait.
 *
 * A request that starts where the last transfer ended needs no seek (track
 * and cylinder skew hide the switches): only the rotation since then.
 *
 * Left out: head-switch and settle differences between reads and writes,
 * defect remapping, read look-ahead, SMR.
 */
#include <math.h>
#include <string.h>

#include <wbsim/error.h>
#include "block/blk.h"
#include "core/fifo-list.h"

struct hdd_job {
	uint64_t sector;
	uint32_t nr_sectors;
	struct wbsim_request *rq;	/* NULL: a cached write, already acknowledged */
	wbsim_time_t arrival;
	/* hdd_track() of @sector and its cylinder, computed once on arrival:
	 * a cached write is weighed in up to reorder_window picks */
	double track;
	uint64_t cyl;
	struct hdd_job *next;
};

struct wbsim_hdd {
	uint64_t capacity;
	uint64_t rpm;
	uint64_t heads;
	uint64_t outer_rate;
	uint64_t inner_rate;
	uint64_t track_to_track;
	uint64_t average_seek;
	uint64_t full_stroke;
	double seek_knee;
	uint64_t queue_depth;
	uint64_t command_overhead;
	uint64_t interface_rate;
	gboolean write_cache;
	uint64_t cache_size;
	uint64_t reorder_window;
	uint64_t ncq_max_age;

	/* derived */
	wbsim_time_t rev_ns;
	double ratio;			/* R = inner / outer radius */
	uint64_t cylinders;
	double knee_d;			/* dk in cylinders */
	double tk;			/* seek time at the knee, ns */

	/* state */
	struct wbsim_device *dev;
	uint64_t head_cyl;
	uint64_t last_end;		/* sector after the last transfer */
	double last_end_angle;		/* where that sector is on the platter */
	gboolean busy;
	struct hdd_job *jobs;		/* media queue in arrival order */
	struct hdd_job **jobs_tail;	/* where the next arrival is linked */
	unsigned int nr_jobs;
	unsigned int nr_commands;	/* of them, jobs with a request (not cached) */
	struct hdd_job *cur;
	struct hdd_job *free_jobs;
	GPtrArray *all_jobs;
	uint64_t cache_used;
	WBSIM_FIFO_LIST(struct wbsim_request) cwait;	/* waiting for cache room */
	wbsim_time_t iface_free;

	/* statistics */
	uint64_t seeks;
	wbsim_time_t seek_ns, rotation_ns;
};

#define P(f) offsetof(struct wbsim_hdd, f)
static const struct wbsim_param hdd_params[] = {
	{ "capacity", WBSIM_PARAM_SIZE, P(capacity), NULL, NULL, 1e6, 1e18, "user capacity" },
	{ "rpm", WBSIM_PARAM_UINT, P(rpm), "7200", "rpm", 1000, 30000, "spindle speed" },
	{ "heads", WBSIM_PARAM_UINT, P(heads), NULL, "surfaces", 1, 64, "recording surfaces" },
	{ "outer_rate", WBSIM_PARAM_RATE, P(outer_rate), NULL, NULL, 1e6, 1e10,
	  "media transfer rate at the outer edge" },
	{ "inner_rate", WBSIM_PARAM_RATE, P(inner_rate), NULL, NULL, 1e6, 1e10,
	  "media transfer rate at the inner edge" },
	{ "track_to_track", WBSIM_PARAM_TIME, P(track_to_track), NULL, NULL, 1e3, 1e8,
	  "single-cylinder seek (write, with settling)" },
	{ "average_seek", WBSIM_PARAM_TIME, P(average_seek), NULL, NULL, 1e3, 1e9,
	  "average seek (write, with settling)" },
	{ "full_stroke", WBSIM_PARAM_TIME, P(full_stroke), NULL, NULL, 1e3, 1e9,
	  "full-stroke seek (write)" },
	{ "seek_knee", WBSIM_PARAM_DOUBLE, P(seek_knee),
	  "0.2", "fraction", 0.01, 0.9,
	  "share of the stroke where short (square-root) seeks end" },
	{ "queue_depth", WBSIM_PARAM_UINT, P(queue_depth), "32", "commands", 1, 32,
	  "NCQ depth (1: no command queueing)" },
	{ "command_overhead", WBSIM_PARAM_TIME, P(command_overhead),
	  "100us", NULL, 0, 1e8,
	  "controller time per command, overlapped with media work" },
	{ "interface_rate", WBSIM_PARAM_RATE, P(interface_rate),
	  "600000000/s", NULL, 1e6, 1e11,
	  "host interface payload rate (SATA 6 Gb/s)" },
	{ "write_cache", WBSIM_PARAM_BOOL, P(write_cache), "1", NULL, 0, 0,
	  "volatile write cache enabled" },
	{ "cache_size", WBSIM_PARAM_SIZE, P(cache_size), "32m", NULL, 4096, 1e11,
	  "write cache size" },
	{ "reorder_window", WBSIM_PARAM_UINT, P(reorder_window),
	  "64", "writes", 1, 65536,
	  "oldest cached writes considered when destaging" },
	{ "ncq_max_age", WBSIM_PARAM_TIME, P(ncq_max_age), "1s", NULL, 1e6, 1e12,
	  "a command waiting this long is served next" },
	{ .name = NULL },
};
#undef P

/* ------------------------------------------------------------------------ */
/* Seek curve and geometry                                                  */

static double seek_curve(const struct wbsim_hdd *h, double d, double tk)
{
	double t1 = (double)h->track_to_track, tf = (double)h->full_stroke;
	double dmax = (double)(h->cylinders - 1);

	if (d <= 0)
		return 0;
	if (d <= h->knee_d)
		return t1 + (tk - t1) * sqrt((d - 1) / (h->knee_d - 1));
	return tk + (tf - tk) * (d - h->knee_d) / (dmax - h->knee_d);
}

/* Datasheet average: sum over d of (D + 1 - d) t(d) / sum of (D + 1 - d). */
static double seek_average(const struct wbsim_hdd *h, double tk)
{
	const int steps = 20000;
	double dmax = (double)(h->cylinders - 1);
	double num = 0, den = 0;

	/* midpoint rule over d in [1, D]: the weight is linear, t is smooth */
	for (int i = 0; i < steps; i++) {
		double d = 1 + (dmax - 1) * (i + 0.5) / steps;
		double w = dmax + 1 - d;

		num += w * seek_curve(h, d, tk);
		den += w;
	}
	return num / den;
}

wbsim_time_t wbsim_hdd_seek_time(const struct wbsim_hdd *h, uint64_t distance)
{
	return (wbsim_time_t)llround(seek_curve(h, (double)distance, h->tk));
}

/* The continuous track index of @sector (see the top comment). */
static double hdd_track(const struct wbsim_hdd *h, uint64_t sector)
{
	double f = (double)sector / (double)(h->capacity >> WBSIM_SECTOR_SHIFT);
	double x = sqrt(1 - f * (1 - h->ratio * h->ratio));

	return (1 - x) / (1 - h->ratio) * (double)(h->cylinders * h->heads);
}

static uint64_t track_cyl(const struct wbsim_hdd *h, double t)
{
	uint64_t c = (uint64_t)(t / (double)h->heads);

	return MIN(c, h->cylinders - 1);
}

/* Fraction of a revolution the platter has turned at @t. */
static double platter_angle(const struct wbsim_hdd *h, wbsim_time_t t)
{
	return (double)(t % h->rev_ns) / (double)h->rev_ns;
}

/* Rotational wait (ns) from @t until angle @theta is under the head. */
static wbsim_time_t rot_wait(const struct wbsim_hdd *h, wbsim_time_t t, double theta)
{
	double w = theta - platter_angle(h, t);

	w -= floor(w);
	/* rounding to whole ns must not turn "just there" into a revolution */
	if (w * (double)h->rev_ns > (double)h->rev_ns - 2.0)
		w = 0;
	return (wbsim_time_t)llround(w * (double)h->rev_ns);
}

/* Positioning time of @job from the head's state at @t. */
static wbsim_time_t positioning(const struct wbsim_hdd *h, const struct hdd_job *job,
				wbsim_time_t t, wbsim_time_t *seek_out)
{
	double tr;

	/* continuing where the head stopped: skew hides track switches */
	if (job->sector == h->last_end) {
		if (seek_out)
			*seek_out = 0;
		return rot_wait(h, t, h->last_end_angle);
	}
	tr = job->track;
	uint64_t cyl = job->cyl;
	uint64_t d = cyl > h->head_cyl ? cyl - h->head_cyl : h->head_cyl - cyl;
	wbsim_time_t seek = wbsim_hdd_seek_time(h, d);

	if (seek_out)
		*seek_out = seek;
	return seek + rot_wait(h, t + seek, tr - floor(tr));
}

static gboolean hdd_init(struct wbsim_device *dev, GError **error)
{
	struct wbsim_hdd *h = wbsim_device_priv(dev);
	double rev_s, lo, hi;

	if (h->inner_rate >= h->outer_rate) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "inner_rate %" G_GUINT64_FORMAT " B/s: expected less "
			    "than outer_rate %" G_GUINT64_FORMAT " B/s",
			    h->inner_rate, h->outer_rate);
		return FALSE;
	}
	if (!(h->track_to_track < h->average_seek &&
	      h->average_seek < h->full_stroke)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "seek times: expected track_to_track < average_seek "
			    "< full_stroke");
		return FALSE;
	}
	h->dev = dev;
	h->last_end = UINT64_MAX;
	h->jobs_tail = &h->jobs;
	h->rev_ns = 60 * WBSIM_NSEC_PER_SEC / h->rpm;
	rev_s = (double)h->rev_ns / 1e9;
	h->ratio = (double)h->inner_rate / (double)h->outer_rate;
	h->cylinders = (uint64_t)llround((double)h->capacity /
		((double)h->heads * (double)h->outer_rate * rev_s *
		 (1 + h->ratio) / 2));
	if (h->cylinders < 100) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "capacity, heads and rates give %" G_GUINT64_FORMAT
			    " cylinders: expected at least 100", h->cylinders);
		return FALSE;
	}
	h->knee_d = MAX(2.0, h->seek_knee * (double)(h->cylinders - 1));
	/* the average is linear in tk: solve avg(tk) = average_seek */
	lo = seek_average(h, 0);
	hi = seek_average(h, 1e6);
	h->tk = ((double)h->average_seek - lo) / ((hi - lo) / 1e6);
	if (!(h->tk > (double)h->track_to_track && h->tk < (double)h->full_stroke)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "seek_knee %g: the seek curve through track_to_track, "
			    "average_seek and full_stroke needs a knee time of "
			    "%.0f ns: expected between track_to_track and "
			    "full_stroke (try another seek_knee)", h->seek_knee, h->tk);
		return FALSE;
	}
	h->all_jobs = g_ptr_array_new_with_free_func(g_free);
	wbsim_device_set_write_cache(dev, h->write_cache);
	wbsim_device_set_limits(dev, h->capacity >> WBSIM_SECTOR_SHIFT,
				(unsigned int)h->queue_depth, TRUE);
	return TRUE;
}

static void hdd_exit(struct wbsim_device *dev)
{
	struct wbsim_hdd *h = wbsim_device_priv(dev);

	if (h->all_jobs)
		g_ptr_array_free(h->all_jobs, TRUE);
}

/* ------------------------------------------------------------------------ */
/* The mechanism                                                            */

static struct hdd_job *job_alloc(struct wbsim_hdd *h)
{
	struct hdd_job *j = h->free_jobs;

	if (j) {
		h->free_jobs = j->next;
	} else {
		j = g_new(struct hdd_job, 1);
		g_ptr_array_add(h->all_jobs, j);
	}
	memset(j, 0, sizeof(*j));
	return j;
}

static void hdd_kick(struct wbsim_hdd *h);
static void hdd_cache_admit(struct wbsim_hdd *h);

static void hdd_job_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_hdd *h = arg;
	struct hdd_job *j = h->cur;

	h->cur = NULL;
	h->busy = FALSE;
	h->head_cyl = track_cyl(h, hdd_track(h, j->sector + j->nr_sectors - 1));
	h->last_end = j->sector + j->nr_sectors;
	h->last_end_angle = platter_angle(h, wbsim_sim_now(sim));
	if (j->rq) {
		wbsim_device_end_request(h->dev, j->rq);
	} else {
		h->cache_used -= (uint64_t)j->nr_sectors << WBSIM_SECTOR_SHIFT;
		hdd_cache_admit(h);
	}
	j->next = h->free_jobs;
	h->free_jobs = j;
	hdd_kick(h);
}

/*
 * Pick the next job: the oldest queued command if it waited ncq_max_age,
 * else the shortest positioning time among the first reorder_window jobs
 * (all of them when only commands, at most queue_depth, are queued).
 * Cached writes have no age limit: nobody waits for them.
 */
static struct hdd_job *hdd_pick(struct wbsim_hdd *h, wbsim_time_t now)
{
	struct hdd_job *best = NULL, **bestp = NULL, **pp = &h->jobs;
	wbsim_time_t best_t = 0;
	uint64_t n = 0;
	uint64_t window = h->write_cache ? MAX(h->reorder_window, h->queue_depth)
					 : h->queue_depth;

	if (!h->jobs)
		return NULL;
	/* the oldest command (cached writes are not commands): looked for
	 * only when there is one, past every cached write before it */
	for (pp = &h->jobs; h->nr_commands && !(*pp)->rq; pp = &(*pp)->next)
		;
	if (h->nr_commands && now - (*pp)->arrival >= h->ncq_max_age) {
		bestp = pp;
	} else {
		pp = &h->jobs;
		for (; *pp && n < window; pp = &(*pp)->next, n++) {
			wbsim_time_t t = positioning(h, *pp, now, NULL);

			if (!best || t < best_t) {
				best = *pp;
				best_t = t;
				bestp = pp;
			}
		}
	}
	best = *bestp;
	*bestp = best->next;
	if (h->jobs_tail == &best->next)
		h->jobs_tail = bestp;
	best->next = NULL;
	h->nr_jobs--;
	if (best->rq)
		h->nr_commands--;
	return best;
}

static void hdd_kick(struct wbsim_hdd *h)
{
	wbsim_sim *sim = wbsim_device_sim(h->dev);
	wbsim_time_t now = wbsim_sim_now(sim);
	struct hdd_job *j;
	wbsim_time_t seek, pos, xfer;
	double t0, t1;

	if (h->busy || !(j = hdd_pick(h, now)))
		return;
	pos = positioning(h, j, now, &seek);
	/* transfer: dT tracks take dT revolutions (the zone's rate) */
	t0 = j->track;
	t1 = hdd_track(h, j->sector + j->nr_sectors);
	xfer = (wbsim_time_t)llround((t1 - t0) * (double)h->rev_ns);
	if (seek)
		h->seeks++;
	h->seek_ns += seek;
	h->rotation_ns += pos - seek;
	h->busy = TRUE;
	h->cur = j;
	wbsim_sim_schedule_at(sim, now + pos + xfer, hdd_job_done, h);
}

static void hdd_add_job(struct wbsim_hdd *h, uint64_t sector, uint32_t nr,
			struct wbsim_request *rq)
{
	struct hdd_job *j = job_alloc(h);

	j->sector = sector;
	j->nr_sectors = nr;
	j->rq = rq;
	j->arrival = wbsim_sim_now(wbsim_device_sim(h->dev));
	j->track = hdd_track(h, sector);
	j->cyl = track_cyl(h, j->track);
	*h->jobs_tail = j;
	h->jobs_tail = &j->next;
	h->nr_jobs++;
	if (rq)
		h->nr_commands++;
	hdd_kick(h);
}

/* The command has been decoded: queue it for the mechanism or the cache. */
static void hdd_command(wbsim_sim *sim, void *arg)
{
	struct wbsim_request *rq = arg;
	struct wbsim_hdd *h = wbsim_device_priv(rq->driver_data);

	if (h->write_cache && !(rq->flags & WBSIM_REQ_FUA)) {
		wbsim_fifo_list_add_tail(&h->cwait, rq, driver_next);
		hdd_cache_admit(h);
		return;
	}
	hdd_add_job(h, rq->sector, rq->nr_sectors, rq);
}

static void hdd_cached_ack(wbsim_sim *sim, void *arg)
{
	struct wbsim_request *rq = arg;

	wbsim_device_end_request(rq->driver_data, rq);
}

/* Move writes into the cache while it has room; acknowledge them. */
static void hdd_cache_admit(struct wbsim_hdd *h)
{
	wbsim_sim *sim = wbsim_device_sim(h->dev);
	struct wbsim_request *rq;

	while ((rq = wbsim_fifo_list_first(&h->cwait))) {
		uint64_t bytes = (uint64_t)rq->nr_sectors << WBSIM_SECTOR_SHIFT;

		if (h->cache_used + bytes > h->cache_size && h->cache_used)
			break;
		wbsim_fifo_list_del_first(&h->cwait, rq, driver_next);
		h->cache_used += bytes;
		h->iface_free = MAX(wbsim_sim_now(sim), h->iface_free) +
				wbsim_blk_xfer_ns(bytes, h->interface_rate);
		wbsim_sim_schedule_at(sim, h->iface_free, hdd_cached_ack, rq);
		hdd_add_job(h, rq->sector, rq->nr_sectors, NULL);
	}
}

static void hdd_queue_rq(struct wbsim_device *dev, struct wbsim_request *rq)
{
	struct wbsim_hdd *h = wbsim_device_priv(dev);

	rq->driver_data = dev;
	wbsim_sim_schedule_after(wbsim_device_sim(dev), h->command_overhead,
				 hdd_command, rq);
}

static void hdd_get_stats(struct wbsim_device *dev, struct wbsim_blk_stats *st)
{
	struct wbsim_hdd *h = wbsim_device_priv(dev);

	st->seeks += h->seeks;
	st->seek_ns += h->seek_ns;
	st->rotation_ns += h->rotation_ns;
}

const struct wbsim_device_ops wbsim_hdd_ops = {
	.name = "hdd",
	.version = WBSIM_DEVICE_OPS_VERSION,
	.flags = WBSIM_DEVICE_ROTATIONAL,
	.help = "rotating disk: seek curve, rotation, zones, NCQ, write cache",
	.params = hdd_params,
	.priv_size = sizeof(struct wbsim_hdd),
	.default_scheduler = "mq-deadline",
	.init = hdd_init,
	.queue_rq = hdd_queue_rq,
	.get_stats = hdd_get_stats,
	.exit = hdd_exit,
};
