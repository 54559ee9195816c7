/* SPDX-License-Identifier: MIT */
/*
 * block/blk.h - private interfaces of lib/block: value parsing with units,
 * the queue's life cycle, the device structure, and the built-in models.
 */
#ifndef WBSIM_BLOCK_BLK_H
#define WBSIM_BLOCK_BLK_H

#include <stdbool.h>
#include <wbsim/block.h>
#include <wbsim/device.h>

#include "core/fifo-list.h"
#include "core/param.h"
#include "defs/setting.h"

/*
 * wbsim_blk_xfer_ns() - ceil(@bytes * 1e9 / @rate): the time to move @bytes
 * at @rate bytes per second, exact in integers.
 */
static inline wbsim_time_t wbsim_blk_xfer_ns(uint64_t bytes, uint64_t rate)
{
	__extension__ typedef unsigned __int128 u128;

	return (wbsim_time_t)(((u128)bytes * WBSIM_NSEC_PER_SEC + rate - 1) / rate);
}

/* --- bios, plugs and the queue's entry points (wbsim/block.h's library side) */

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
	/* set by writeback of large folios: the bvecs whose completion ends
	 * writeback, one per folio (iomap_finish_ioend walks the bio's
	 * folios, folio_end_writeback() once each); unset: one per page */
	bool vecs_set;
	uint32_t nr_vecs;
	/* pages of each page-cache folio the bio carries (writeback), 0: the
	 * memory is contiguous (direct I/O from a user buffer): what makes its
	 * memory segments (blk-core.c bio_segments()) */
	uint32_t folio_pages;
	/* a piece of a bio the queue split at its segment limit: the bio it
	 * came from, whose end waits for all its pieces (bio_chain()) */
	struct wbsim_bio *split_parent;
	struct wbsim_bio *bi_next_piece;	/* the next piece to submit */
	unsigned int split_remaining;	/* in the parent: pieces not ended */
};

/**
 * struct wbsim_plug - a per-task plug (the kernel's struct blk_plug)
 *
 * Requests built under a plug are held back and merged with following
 * contiguous bios; wbsim_blk_finish_plug() (or a wait for a tag, or the
 * plug filling up) sends them to the scheduler. Private fields only.
 */
struct wbsim_plug {
	WBSIM_FIFO_LIST(struct wbsim_request) rqs;
	unsigned int nr;
	struct wbsim_blk_queue *q;
};

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

/* wbsim_device_model_names() - the registered models' names (g_strfreev()). */
char **wbsim_device_model_names(void);
/* wbsim_device_common_params() - the parameters every device has (scheduler, ...). */
const struct wbsim_param *wbsim_device_common_params(void);

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

/**
 * wbsim_blk_start_plug() - start plugging (the kernel's blk_start_plug())
 * @q: the queue the plugged bios go to
 * @plug: the plug, owned by the caller (one per submitting task)
 */
void wbsim_blk_start_plug(struct wbsim_blk_queue *q,
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
void wbsim_blk_finish_plug(struct wbsim_blk_queue *q,
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
void wbsim_submit_bio(struct wbsim_blk_queue *q,
		      wbsim_task *submitter, struct wbsim_plug *plug,
		      struct wbsim_bio *bio,
		      wbsim_event_fn submitted, void *arg);

/**
 * wbsim_blk_queue_get_stats() - read the statistics of @q at the current time
 * @q: the queue
 * @stats: filled in
 */
void wbsim_blk_queue_get_stats(struct wbsim_blk_queue *q,
			       struct wbsim_blk_stats *stats);

/**
 * wbsim_blk_queue_in_flight() - requests holding a tag (scheduler + device)
 */
unsigned int wbsim_blk_queue_in_flight(const struct wbsim_blk_queue *q);

/**
 * wbsim_blk_queue_max_sectors() - the largest request, in sectors
 * (max_sectors_kb * 2): the flusher splits its I/O at this size
 */
uint32_t wbsim_blk_queue_max_sectors(const struct wbsim_blk_queue *q);

/**
 * wbsim_blk_queue_note_bdp_sleep() - balance_dirty_pages() put a dirtier
 * to sleep on this device's bdi now (the kernel's bdi->last_bdp_sleep):
 * for the next second blk-wbt lets buffered writeback use its full depth
 * (wb_recent_wait())
 * @q: the queue
 */
void wbsim_blk_queue_note_bdp_sleep(struct wbsim_blk_queue *q);

/**
 * wbsim_blk_queue_irq_task() - the task that runs completions (its CPU
 * time is the completion cost)
 */
wbsim_task *wbsim_blk_queue_irq_task(struct wbsim_blk_queue *q);

/**
 * wbsim_device_new() - a device of model @model
 * @sim: the simulation
 * @cpus: the machine's CPUs (completions, PMEM copies run there)
 * @costs: the CPU cost table (kept by pointer: must outlive the device)
 * @model: registered model name
 * @settings: parameters, applied in order (a later one wins); may be NULL
 * @nr_settings: number of @settings
 * @error: WBSIM_ERROR_UNKNOWN_KEY for a key the model does not have,
 *	WBSIM_ERROR_INVALID_VALUE for a value of the wrong unit or range,
 *	WBSIM_ERROR_MISSING for an unknown model or a required parameter not
 *	given; messages name the file, line and key, the value found and what
 *	was expected
 *
 * Return: the device, or NULL.
 */
struct wbsim_device *wbsim_device_new(wbsim_sim *sim, wbsim_cpus *cpus,
				      const struct wbsim_cpu_costs *costs,
				      const char *model,
				      const struct wbsim_setting *settings,
				      size_t nr_settings, GError **error);

/**
 * wbsim_device_new_from_preset() - a device from a preset file, with overrides
 * @sim: the simulation
 * @cpus: the machine's CPUs
 * @costs: the CPU cost table
 * @preset: a preset name ("samsung-pm1733-3.84t") looked up in the search
 *	path, or a path containing '/' to a preset file
 * @overrides: settings applied after the preset's (may be NULL)
 * @nr_overrides: number of @overrides
 * @error: WBSIM_ERROR_MISSING if no preset of that name exists (the message
 *	lists the directories searched), WBSIM_ERROR_PARSE for a malformed
 *	preset, or as wbsim_device_new()
 *
 * Return: the device, or NULL.
 */
struct wbsim_device *
wbsim_device_new_from_preset(wbsim_sim *sim, wbsim_cpus *cpus,
			     const struct wbsim_cpu_costs *costs,
			     const char *preset,
			     const struct wbsim_setting *overrides,
			     size_t nr_overrides, GError **error);

/** wbsim_device_free() - free a device and its queue (NULL is fine). */
void wbsim_device_free(struct wbsim_device *dev);

/* typedef wbsim_device - the name g_autoptr(wbsim_device) needs */
typedef struct wbsim_device wbsim_device;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_device, wbsim_device_free)

/**
 * wbsim_device_find_preset() - the path of preset @name
 * @name: preset name (without .ini), or a path (it has a '/')
 * @error: WBSIM_ERROR_MISSING listing the directories searched, with the
 *	nearest preset name ("did you mean"); WBSIM_ERROR_IO for a FIFO or
 *	other file that is not a regular one in a preset folder
 *
 * Return: a newly allocated path, or NULL.
 */
char *wbsim_device_find_preset(const char *name, GError **error);

/*
 * wbsim_device_preset_names() - every preset found by name (NAME of each
 * NAME.ini in the preset folders), sorted (g_strfreev() them).
 */
char **wbsim_device_preset_names(void);

/** wbsim_device_queue() - the device's request queue. */
struct wbsim_blk_queue *wbsim_device_queue(struct wbsim_device *dev);
/** wbsim_device_ops() - the device's model. */
const struct wbsim_device_ops *wbsim_device_get_ops(const struct wbsim_device *dev);
/** wbsim_device_capacity() - capacity in 512-byte sectors. */
uint64_t wbsim_device_capacity(const struct wbsim_device *dev);
/** wbsim_device_rotational() - TRUE for a spinning disk (or an array of them). */
gboolean wbsim_device_rotational(const struct wbsim_device *dev);

/**
 * wbsim_device_describe() - every parameter with its effective value and
 * where it came from ("default", "FILE:LINE"), one "key = value ; source"
 * per line, in table order
 *
 * Return: a newly allocated string.
 */
char *wbsim_device_describe(const struct wbsim_device *dev);

#endif /* WBSIM_BLOCK_BLK_H */
