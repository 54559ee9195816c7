/* SPDX-License-Identifier: MIT */
/*
 * tests/block/harness.h - request generators for the block tests: each slot
 * is a task with one bio in flight that submits the next one when the last
 * completes, so the number of slots is the queue depth the device sees.
 */
#ifndef WBSIM_TESTS_BLOCK_HARNESS_H
#define WBSIM_TESTS_BLOCK_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include <wbsim/wbsim.h>
#include "block/blk.h"
#include "core/cpu-costs.h"
#include "core/sim.h"

struct gen;

struct slot {
	wbsim_task task;
	struct wbsim_bio bio;
	struct gen *g;
	uint64_t next;		/* per-slot stream: next sector */
};

enum gen_mode {
	GEN_SEQ,		/* all slots share one sequential stream */
	GEN_SEQ_PER_SLOT,	/* each slot its own stream from slot_start[i] */
	GEN_RANDOM,		/* uniform, aligned to the block size */
};

struct gen {
	wbsim_sim *sim;
	struct wbsim_blk_queue *q;
	enum gen_mode mode;
	uint32_t bs;			/* sectors per bio */
	uint64_t start, span;		/* region, sectors */
	uint64_t next;
	unsigned int flags;		/* bio flags; direct I/O by default */
	wbsim_time_t warmup, stop;
	uint64_t bytes, ios;		/* completed inside [warmup, stop) */
	unsigned int nr;
	struct slot *slots;
};

static void gen_issue(struct slot *s);

static void gen_end_io(wbsim_sim *sim, void *arg)
{
	struct slot *s = arg;
	struct gen *g = s->g;
	wbsim_time_t now = wbsim_sim_now(sim);

	if (now >= g->warmup && now < g->stop) {
		g->bytes += (uint64_t)s->bio.nr_sectors << WBSIM_SECTOR_SHIFT;
		g->ios++;
	}
	if (now < g->stop)
		gen_issue(s);
}

static void gen_issue(struct slot *s)
{
	struct gen *g = s->g;
	uint64_t sector;

	switch (g->mode) {
	case GEN_SEQ:
		sector = g->next;
		g->next += g->bs;
		if (g->next + g->bs > g->start + g->span)
			g->next = g->start;
		break;
	case GEN_SEQ_PER_SLOT:
		sector = s->next;
		s->next += g->bs;
		break;
	default:
		sector = g->start + wbsim_rng_below(wbsim_sim_rng(g->sim),
						    g->span / g->bs) * g->bs;
		break;
	}
	memset(&s->bio, 0, sizeof(s->bio));
	s->bio.sector = sector;
	s->bio.nr_sectors = g->bs;
	s->bio.flags = g->flags;
	s->bio.end_io = gen_end_io;
	s->bio.private = s;
	wbsim_submit_bio(g->q, &s->task, NULL, &s->bio, NULL, NULL);
}

static inline void gen_init(struct gen *g, wbsim_sim *sim, struct wbsim_blk_queue *q,
			    enum gen_mode mode, unsigned int nr, uint32_t bs_bytes,
			    uint64_t start, uint64_t span)
{
	memset(g, 0, sizeof(*g));
	g->sim = sim;
	g->q = q;
	g->mode = mode;
	g->bs = bs_bytes >> WBSIM_SECTOR_SHIFT;
	g->start = g->next = start;
	g->span = span;
	g->nr = nr;
	/* direct I/O (fio direct=1): blk-wbt does not throttle it */
	g->flags = WBSIM_REQ_SYNC | WBSIM_REQ_IDLE;
	g->slots = g_new0(struct slot, nr);
	for (unsigned int i = 0; i < nr; i++) {
		char name[32];

		snprintf(name, sizeof(name), "gen/%u", i);
		wbsim_task_init(&g->slots[i].task, name, WBSIM_TASK_OTHER);
		g->slots[i].g = g;
		g->slots[i].next = start + i * (span / nr);
	}
}

/* Run from now to @stop, counting completions after @warmup; return B/s. */
static inline double gen_run(struct gen *g, wbsim_time_t warmup, wbsim_time_t stop)
{
	g->warmup = warmup;
	g->stop = stop;
	for (unsigned int i = 0; i < g->nr; i++)
		gen_issue(&g->slots[i]);
	wbsim_sim_run_until(g->sim, stop);
	return (double)g->bytes * 1e9 / (double)(stop - warmup);
}

static inline void gen_clear(struct gen *g)
{
	for (unsigned int i = 0; i < g->nr; i++)
		wbsim_task_clear(&g->slots[i].task);
	g_free(g->slots);
}

/* A CPU cost table with every cost zero (memcpy as the default). */
static inline struct wbsim_cpu_costs zero_costs(void)
{
	struct wbsim_cpu_costs c = { 0 };

	c.memcpy_bandwidth = wbsim_cpu_costs_default()->memcpy_bandwidth;
	return c;
}

/* Point the preset search path at the source tree. */
static inline void use_source_presets(void)
{
	const char *root = g_getenv("WBSIM_SOURCE_ROOT");

	if (root) {
		g_autofree char *dir = g_build_filename(root, "lib", "block",
							"presets", NULL);
		g_setenv("WBSIM_PRESET_PATH", dir, TRUE);
	}
}

#endif
