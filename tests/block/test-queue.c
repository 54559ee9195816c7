/* SPDX-License-Identifier: MIT */
/*
 * test-queue - the request queue and the device registry: plug merging,
 * exact timing on the ideal device, tag waits, mq-deadline ordering, CPU
 * costs of completions, parameter and preset errors, the cost table setter.
 */
#include <string.h>

#include "tests/block/harness.h"
#include "block/blk.h"
#include "core/cpu-costs.h"
#include "core/sim.h"

struct env {
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	struct wbsim_cpu_costs costs;
	struct wbsim_device *dev;
	struct wbsim_blk_queue *q;
	wbsim_task task;
};

static void env_open(struct env *e, const char *model,
		     const struct wbsim_setting *set, size_t n)
{
	GError *error = NULL;

	memset(e, 0, sizeof(*e));
	e->sim = wbsim_sim_new(7);
	e->cpus = wbsim_cpus_new(e->sim, 2, NULL);
	e->costs = zero_costs();
	e->dev = wbsim_device_new(e->sim, e->cpus, &e->costs, model, set, n, &error);
	if (!e->dev)
		fail_msg("%s", error->message);
	e->q = wbsim_device_queue(e->dev);
	wbsim_task_init(&e->task, "submitter", WBSIM_TASK_FLUSHER);
}

static void env_close(struct env *e)
{
	wbsim_task_clear(&e->task);
	wbsim_device_free(e->dev);
	wbsim_cpus_free(e->cpus);
	wbsim_sim_free(e->sim);
}

static const struct wbsim_setting ideal_1g[] = {
	{ "bandwidth", "1000000000/s", "t", 1 },
	{ "latency", "100us", "t", 2 },
	{ "queue_depth", "32", "t", 3 },
};

/* ------------------------------------------------------------------------ */
/* A chain of bios submitted back to back by one task                       */

struct chain {
	struct env *e;
	struct wbsim_plug *plug;
	struct wbsim_bio *bios;
	unsigned int n, next;
	uint64_t sectors[64];
	wbsim_time_t submitted_at[64];
	wbsim_time_t ended_at[64];
	unsigned int order[64], nr_ended;
	uint32_t len;
	unsigned int flags;
	uint32_t folio_pages;	/* page-cache bios: pages a folio; 0: contiguous */
	gboolean finish_plug;
};

static struct chain *the_chain;

static void chain_ended(wbsim_sim *sim, void *arg)
{
	unsigned int i = GPOINTER_TO_UINT(arg);

	the_chain->ended_at[i] = wbsim_sim_now(sim);
	the_chain->order[the_chain->nr_ended++] = i;
}

static void chain_next(wbsim_sim *sim, void *arg)
{
	struct chain *c = arg;

	if (c->next > 0)
		c->submitted_at[c->next - 1] = wbsim_sim_now(sim);
	if (c->next < c->n) {
		struct wbsim_bio *b = &c->bios[c->next];

		memset(b, 0, sizeof(*b));
		b->sector = c->sectors[c->next];
		b->nr_sectors = c->len;
		b->flags = c->flags;
		b->folio_pages = c->folio_pages;
		b->end_io = chain_ended;
		b->private = GUINT_TO_POINTER(c->next);
		c->next++;
		wbsim_submit_bio(c->e->q, &c->e->task, c->plug, b, chain_next, c);
		return;
	}
	if (c->plug && c->finish_plug)
		wbsim_blk_finish_plug(c->e->q, &c->e->task, c->plug, NULL, NULL);
}

/* Submit @n bios of @len sectors at @sectors, one after another. */
static void chain_run(struct chain *c, struct env *e, struct wbsim_plug *plug,
		      unsigned int n, uint32_t len)
{
	c->e = e;
	c->plug = plug;
	c->n = n;
	c->next = 0;
	c->len = len;
	if (!c->flags)
		c->flags = WBSIM_REQ_SYNC | WBSIM_REQ_IDLE;	/* direct I/O */
	c->bios = g_new0(struct wbsim_bio, n);
	c->finish_plug = TRUE;
	the_chain = c;
	if (plug)
		wbsim_blk_start_plug(e->q, plug);
	chain_next(e->sim, c);
	wbsim_sim_run(e->sim);
	g_free(c->bios);
}

/* ------------------------------------------------------------------------ */

/* Contiguous bios under a plug become requests of at most max_sectors_kb. */
static void test_plug_merge(void **state)
{
	struct env e;
	struct chain c = { 0 };
	struct wbsim_plug plug;
	struct wbsim_blk_stats st;

	env_open(&e, "ideal", ideal_1g, 3);
	for (unsigned int i = 0; i < 60; i++)
		c.sectors[i] = i * 128;		/* 60 x 64 KiB, contiguous */
	chain_run(&c, &e, &plug, 60, 128);
	wbsim_blk_queue_get_stats(e.q, &st);
	/* 1280 KiB = 20 bios per request */
	assert_int_equal(st.bios, 60);
	assert_int_equal(st.requests, 3);
	assert_int_equal(st.merges, 57);
	assert_int_equal(st.bytes, 60 * 65536);
	env_close(&e);

	/* without a plug (scheduler none, free tags) nothing merges */
	env_open(&e, "ideal", ideal_1g, 3);
	memset(&c, 0, sizeof(c));
	for (unsigned int i = 0; i < 60; i++)
		c.sectors[i] = i * 128;
	chain_run(&c, &e, NULL, 60, 128);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.requests, 60);
	assert_int_equal(st.merges, 0);
	env_close(&e);

	/* a gap stops the merge */
	env_open(&e, "ideal", ideal_1g, 3);
	memset(&c, 0, sizeof(c));
	c.sectors[0] = 0;
	c.sectors[1] = 128;
	c.sectors[2] = 1000;
	c.sectors[3] = 1128;
	chain_run(&c, &e, &plug, 4, 128);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.requests, 2);
	assert_int_equal(st.merges, 2);
	env_close(&e);
}

/*
 * Page-cache bios carry one memory segment per 4 KiB folio (one per 64 KiB
 * of a large folio): a request holds at most 128 (BLK_MAX_SEGMENTS). A bio
 * of 256 pages is split into two requests and ends once, after both;
 * contiguous 16-page bios merge 8 to a request, not 20 (max_sectors_kb);
 * a bio of 2 MiB folios is 32 segments a folio and splits at max_sectors.
 */
static void test_segment_limit(void **state)
{
	struct env e;
	struct chain c = { 0 };
	struct wbsim_plug plug;
	struct wbsim_blk_stats st;

	env_open(&e, "ideal", ideal_1g, 3);
	c.folio_pages = 1;
	c.flags = WBSIM_REQ_BACKGROUND;
	c.sectors[0] = 0;
	chain_run(&c, &e, NULL, 1, 256 * 8);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.bios, 1);
	assert_int_equal(st.requests, 2);
	assert_int_equal(st.bytes, 256 * 4096);
	assert_int_equal(c.nr_ended, 1);
	/* the bio ended with its second piece: two 512 KiB requests one
	 * after the other on the ideal device, each 100 us + 512 KiB / 1 GB/s */
	assert_true(c.ended_at[0] >= 100000 + 524288);
	env_close(&e);

	env_open(&e, "ideal", ideal_1g, 3);
	memset(&c, 0, sizeof(c));
	c.folio_pages = 1;
	for (unsigned int i = 0; i < 60; i++)
		c.sectors[i] = i * 128;		/* 60 x 16 pages, contiguous */
	chain_run(&c, &e, &plug, 60, 128);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.requests, 8);	/* 7 x 8 bios and one of 4 */
	assert_int_equal(st.merges, 52);
	assert_int_equal(c.nr_ended, 60);
	env_close(&e);

	/* 2 MiB folios: 4 of them (8 MiB, 128 segments) split at 1280 KiB */
	env_open(&e, "ideal", ideal_1g, 3);
	memset(&c, 0, sizeof(c));
	c.folio_pages = 512;
	c.sectors[0] = 0;
	chain_run(&c, &e, NULL, 1, 4 * 512 * 8);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.requests, 7);	/* 6 x 1280 KiB and 512 KiB */
	assert_int_equal(st.bytes, 8 << 20);
	assert_int_equal(c.nr_ended, 1);
	env_close(&e);
}

/* The ideal device: exact latency and exact bandwidth. */
static void test_ideal_exact(void **state)
{
	struct env e;
	struct chain c = { 0 };
	struct gen g;
	struct wbsim_blk_stats st;

	env_open(&e, "ideal", ideal_1g, 3);
	c.sectors[0] = 0;
	chain_run(&c, &e, NULL, 1, 8);
	/* 100 us + 4096 B / 1 GB/s */
	assert_int_equal(c.ended_at[0], 100000 + 4096);
	env_close(&e);

	/* 1000 x 1 MiB with 32 in flight: the pipe never idles */
	env_open(&e, "ideal", ideal_1g, 3);
	gen_init(&g, e.sim, e.q, GEN_SEQ, 32, 1048576, 0, 1ull << 30);
	gen_run(&g, 0, 1000 * 1048576ull);
	wbsim_sim_run(e.sim);
	wbsim_blk_queue_get_stats(e.q, &st);
	/* completion k lands at k * 1048576 ns + 100 us: 999 before the stop */
	assert_int_equal(g.ios, 999);
	/* each of those issued one more: 32 + 999 in all, the last at */
	assert_int_equal(st.requests, 32 + 999);
	assert_int_equal(wbsim_sim_now(e.sim), (32 + 999) * 1048576ull + 100000);
	assert_int_equal(st.bytes, st.requests * 1048576ull);
	assert_int_equal(st.max_queue_depth, 32);
	gen_clear(&g);
	env_close(&e);
}

/* A full queue makes the submitter wait for a tag. */
static void test_tag_wait(void **state)
{
	const struct wbsim_setting set[] = {
		{ "bandwidth", "1000000000/s", "t", 1 },
		{ "latency", "100us", "t", 2 },
		{ "queue_depth", "2", "t", 3 },
		{ "nr_requests", "4", "t", 4 },
	};
	struct env e;
	struct chain c = { 0 };
	struct wbsim_blk_stats st;

	env_open(&e, "ideal", set, 4);
	for (unsigned int i = 0; i < 10; i++)
		c.sectors[i] = i * 1000;
	chain_run(&c, &e, NULL, 10, 8);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.tag_waits, 6);
	/* the first four find tags at once */
	assert_int_equal(c.submitted_at[3], 0);
	/* the fifth waits for the first completion */
	assert_int_equal(c.submitted_at[4], c.ended_at[0]);
	assert_int_equal(c.ended_at[0], 104096);
	env_close(&e);
}

/* mq-deadline dispatches in ascending sector order from the head position. */
static void test_deadline_order(void **state)
{
	const struct wbsim_setting set[] = {
		{ "queue_depth", "1", "t", 1 },
		{ "scheduler", "mq-deadline", "t", 2 },
		{ "nr_requests", "16", "t", 3 },
	};
	const struct wbsim_setting set_none[] = {
		{ "queue_depth", "1", "t", 1 },
	};
	const uint64_t sectors[5] = { 10, 50, 30, 20, 40 };
	struct env e;
	struct chain c = { 0 };

	env_open(&e, "ideal", set, 3);
	for (unsigned int i = 0; i < 5; i++)
		c.sectors[i] = sectors[i] * 1000;
	chain_run(&c, &e, NULL, 5, 8);
	/* indexes of 10, 20, 30, 40, 50 */
	assert_int_equal(c.order[0], 0);
	assert_int_equal(c.order[1], 3);
	assert_int_equal(c.order[2], 2);
	assert_int_equal(c.order[3], 4);
	assert_int_equal(c.order[4], 1);
	env_close(&e);

	env_open(&e, "ideal", set_none, 1);
	memset(&c, 0, sizeof(c));
	for (unsigned int i = 0; i < 5; i++)
		c.sectors[i] = sectors[i] * 1000;
	chain_run(&c, &e, NULL, 5, 8);
	for (unsigned int i = 0; i < 5; i++)
		assert_int_equal(c.order[i], i);
	env_close(&e);
}

/* Completions cost CPU on the queue's IRQ task, per request and per page. */
static void test_completion_cpu(void **state)
{
	struct env e;
	struct chain c = { 0 };

	env_open(&e, "ideal", ideal_1g, 3);
	wbsim_cpu_costs_init(&e.costs);
	for (unsigned int i = 0; i < 10; i++)
		c.sectors[i] = i * 1000;
	chain_run(&c, &e, NULL, 10, 64);	/* 32 KiB = 8 pages each */
	assert_int_equal(wbsim_blk_queue_irq_task(e.q)->cpu_ns,
			 10 * (e.costs.blk_complete_rq_ns +
			       8 * e.costs.blk_complete_page_ns));
	assert_int_equal(e.task.cpu_ns, 10 * (e.costs.blk_submit_rq_ns +
					      8 * e.costs.blk_submit_page_ns));
	assert_int_equal(wbsim_blk_queue_irq_task(e.q)->kind, WBSIM_TASK_IRQ);
	env_close(&e);
}

/* an NVMe model with @queues queue pairs (each with its vector) */
static void nvme_open(struct env *e, const char *queues)
{
	const struct wbsim_setting set[] = {
		{ "capacity", "1g", "t", 1 },
		{ "hw_queues", queues, "t", 2 },
		{ "channels", "1", "t", 3 },
		{ "dies_per_channel", "4", "t", 4 },
		{ "seq_write_bandwidth", "1GB/s", "t", 5 },
		{ "random_write_iops", "100000", "t", 6 },
		{ "write_latency", "20us", "t", 7 },
		{ "command_overhead", "1us", "t", 8 },
		{ "link_bandwidth", "4GB/s", "t", 9 },
		{ "write_buffer", "16m", "t", 10 },
	};

	env_open(e, "nvme", set, G_N_ELEMENTS(set));
	wbsim_cpu_costs_init(&e->costs);
}

static wbsim_time_t blocker_done_at;

static void blocker_done(wbsim_sim *sim, void *arg)
{
	(void)arg;
	blocker_done_at = wbsim_sim_now(sim);
}

/*
 * Per-CPU completion vectors (nvme_irq on the submitter's queue): a task
 * holds CPU 0 for 10 ms, so the submitter runs on CPU 1. With a queue per
 * CPU every completion interrupts CPU 1 (idle between submissions) and the
 * task on CPU 0 ends on time; with one queue for both CPUs its vector
 * interrupts CPU 0, and each completion stretches that task's burst by its
 * cost. Either way the interrupt time is the completions' cost, once.
 */
static void test_completion_on_submitting_cpu(void **state)
{
	static const char *const queues[] = { "2", "1" };

	for (unsigned int k = 0; k < 2; k++) {
		struct env e;
		struct chain c = { 0 };
		wbsim_task blocker;
		wbsim_time_t irq_total;

		nvme_open(&e, queues[k]);
		wbsim_task_init(&blocker, "blocker", WBSIM_TASK_DIRTIER);
		blocker_done_at = 0;
		wbsim_cpus_run(e.cpus, &blocker, 10 * WBSIM_NSEC_PER_MSEC, blocker_done, NULL);
		for (unsigned int i = 0; i < 10; i++)
			c.sectors[i] = i * 1000;
		chain_run(&c, &e, NULL, 10, 64);	/* 32 KiB = 8 pages each */
		irq_total = 10 * (e.costs.blk_complete_rq_ns + 8 * e.costs.blk_complete_page_ns);
		assert_int_equal(c.nr_ended, 10);
		assert_int_equal(e.task.last_cpu, 1);
		assert_int_equal(wbsim_blk_queue_irq_task(e.q)->cpu_ns, irq_total);
		assert_int_equal(e.task.irq_ns, 0);	/* idle when they came */
		if (k == 0) {
			assert_int_equal(wbsim_blk_queue_irq_task(e.q)->last_cpu, 1);
			assert_int_equal(blocker.irq_ns, 0);
			assert_int_equal(blocker_done_at, 10 * WBSIM_NSEC_PER_MSEC);
		} else {
			assert_int_equal(wbsim_blk_queue_irq_task(e.q)->last_cpu, 0);
			assert_int_equal(blocker.irq_ns, irq_total);
			assert_int_equal(blocker_done_at, 10 * WBSIM_NSEC_PER_MSEC + irq_total);
		}
		/* its own CPU time is the burst it asked for, not the interrupts' */
		assert_int_equal(blocker.cpu_ns, 10 * WBSIM_NSEC_PER_MSEC);
		assert_int_equal(wbsim_cpus_busy_ns(e.cpus),
				 blocker.cpu_ns + e.task.cpu_ns + irq_total);
		assert_int_equal(wbsim_cpus_busy(e.cpus), 0);
		wbsim_task_clear(&blocker);
		env_close(&e);
	}
}

/* blk-wbt: background writeback depth 4, doubling per 100 ms window. */
static void test_wbt_depth(void **state)
{
	const struct wbsim_setting set[] = {
		{ "bandwidth", "1000000000/s", "t", 1 },
		{ "latency", "10ms", "t", 2 },
		{ "queue_depth", "64", "t", 3 },
		{ "nr_requests", "64", "t", 4 },
	};
	struct env e;
	struct gen g;
	struct wbsim_blk_stats st;

	env_open(&e, "ideal", set, 4);
	/* direct I/O is not tracked */
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, WBSIM_REQ_SYNC | WBSIM_REQ_IDLE), 0);
	/* min(16, 64) = 16: normal 8, background 4 */
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, 0), 8);
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, WBSIM_REQ_BACKGROUND), 4);
	gen_init(&g, e.sim, e.q, GEN_SEQ, 64, 4096, 0, 1ull << 30);
	g.flags = WBSIM_REQ_BACKGROUND;
	g.warmup = 0;
	g.stop = 10 * WBSIM_NSEC_PER_SEC;
	for (unsigned int i = 0; i < g.nr; i++)
		gen_issue(&g.slots[i]);
	wbsim_sim_run_until(e.sim, 99 * WBSIM_NSEC_PER_MSEC);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.max_queue_depth, 4);
	assert_true(st.wbt_waits > 0);
	/* window 1: writes only -> scale up: depth 1 + 15 * 2 = 31 */
	wbsim_sim_run_until(e.sim, 199 * WBSIM_NSEC_PER_MSEC);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, WBSIM_REQ_BACKGROUND), 8);
	assert_int_equal(st.max_queue_depth, 8);
	/* window 2: 1 + 15 * 4 = 61, capped at 3/4 of 64 = 48: background 12 */
	wbsim_sim_run_until(e.sim, 299 * WBSIM_NSEC_PER_MSEC);
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, WBSIM_REQ_BACKGROUND), 12);
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, 0), 24);
	wbsim_sim_run_until(e.sim, 499 * WBSIM_NSEC_PER_MSEC);
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, WBSIM_REQ_BACKGROUND), 12);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.max_queue_depth, 12);
	/* a dirtier slept: full depth for one second */
	wbsim_blk_queue_note_bdp_sleep(e.q);
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, WBSIM_REQ_BACKGROUND), 48);
	wbsim_sim_run_until(e.sim, 599 * WBSIM_NSEC_PER_MSEC);
	wbsim_blk_queue_get_stats(e.q, &st);
	assert_int_equal(st.max_queue_depth, 48);
	wbsim_sim_run_until(e.sim, 1500 * WBSIM_NSEC_PER_MSEC);
	assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, WBSIM_REQ_BACKGROUND), 12);
	g.stop = 0;
	wbsim_sim_run(e.sim);
	gen_clear(&g);
	env_close(&e);

	/* wbt = 0 turns it off */
	{
		const struct wbsim_setting off[] = { { "wbt", "0", "t", 1 } };

		env_open(&e, "ideal", off, 1);
		assert_int_equal(wbsim_blk_queue_wbt_limit(e.q, WBSIM_REQ_BACKGROUND), 0);
		env_close(&e);
	}
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

static void test_bad_preset(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-block-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "bad.ini", NULL);
	g_autofree char *expect = NULL;
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	GError *error = NULL;
	struct wbsim_device *dev;
	const struct wbsim_setting ov[] = {
		{ "latency", "5 parsecs", "scenario.ini", 12 },
	};
	const struct wbsim_setting ov2[] = {
		{ "latensy", "5us", "scenario.ini", 13 },
	};

	assert_true(g_file_set_contents(path, "# a bad preset\n[device]\n"
		"model = ideal\nbandwidth = fast\n", -1, NULL));
	g_setenv("WBSIM_PRESET_PATH", dir, TRUE);
	dev = wbsim_device_new_from_preset(sim, cpus, NULL, "bad", NULL, 0, &error);
	assert_null(dev);
	assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
	expect = g_strdup_printf("%s:4: device model ideal: bandwidth = fast: expected "
				 "a rate in bytes per second (a size, optionally followed "
				 "by /s: 500m/s) from 1/s to 1000000000000000/s", path);
	assert_string_equal(error->message, expect);
	g_clear_error(&error);

	/* an override names the scenario's file and line */
	assert_true(g_file_set_contents(path, "[device]\nmodel = ideal\n", -1, NULL));
	dev = wbsim_device_new_from_preset(sim, cpus, NULL, "bad", ov, 1, &error);
	assert_null(dev);
	assert_string_equal(error->message,
		"scenario.ini:12: device model ideal: latency = 5 parsecs: expected "
		"a time with a unit (ns, us, ms, s, m, h) from 0 to 1000s");
	g_clear_error(&error);
	dev = wbsim_device_new_from_preset(sim, cpus, NULL, "bad", ov2, 1, &error);
	assert_null(dev);
	assert_int_equal(error->code, WBSIM_ERROR_UNKNOWN_KEY);
	assert_string_equal(error->message,
		"scenario.ini:13: device model ideal: unknown key 'latensy': "
		"expected one of bandwidth, latency, queue_depth, capacity, "
		"scheduler, nr_requests, max_sectors_kb, wbt");
	g_clear_error(&error);
	/* a scheduler the block layer does not have */
	{
		const struct wbsim_setting ov3[] = {
			{ "scheduler", "bfq", "scenario.ini", 14 },
		};

		dev = wbsim_device_new_from_preset(sim, cpus, NULL, "bad", ov3, 1, &error);
		assert_null(dev);
		assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
		assert_string_equal(error->message,
			"scenario.ini:14: device model ideal: scheduler = bfq: "
			"expected none or mq-deadline");
		g_clear_error(&error);
	}

	/* out of range */
	assert_true(g_file_set_contents(path, "[device]\nmodel = ideal\n"
		"queue_depth = 0\n", -1, NULL));
	dev = wbsim_device_new_from_preset(sim, cpus, NULL, "bad", NULL, 0, &error);
	assert_null(dev);
	g_free(expect);
	expect = g_strdup_printf("%s:3: device model ideal: queue_depth = 0: expected "
				 "an integer from 1 to 65536", path);
	assert_string_equal(error->message, expect);
	g_clear_error(&error);

	/* unknown preset: the message lists the search path */
	dev = wbsim_device_new_from_preset(sim, cpus, NULL, "nope", NULL, 0, &error);
	assert_null(dev);
	assert_int_equal(error->code, WBSIM_ERROR_MISSING);
	assert_true(g_str_has_prefix(error->message,
				     "unknown device preset 'nope': no nope.ini in "));
	assert_non_null(strstr(error->message, dir));
	g_clear_error(&error);

	/* a required parameter missing */
	dev = wbsim_device_new(sim, cpus, NULL, "nvme", NULL, 0, &error);
	assert_null(dev);
	assert_string_equal(error->message, "device nvme (model nvme): required "
			    "parameter 'capacity' (user capacity) is not set");
	g_clear_error(&error);

	g_remove(path);
	g_rmdir(dir);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

/* Every shipped preset loads, and describe() names each value's source. */
static void test_presets_load(void **state)
{
	const char *presets[] = {
		"ideal", "pmem-dram-6g", "samsung-pm1733-3.84t",
		"samsung-pm1733a-3.84t", "ufs-3.1-512g", "hdd-7200-sata",
		"raid0-2x-hdd-7200-sata",
	};
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 12, NULL);

	use_source_presets();
	for (size_t i = 0; i < G_N_ELEMENTS(presets); i++) {
		GError *error = NULL;
		struct wbsim_device *dev = wbsim_device_new_from_preset(
			sim, cpus, NULL, presets[i], NULL, 0, &error);
		g_autofree char *desc = NULL;

		if (!dev)
			fail_msg("%s: %s", presets[i], error->message);
		assert_string_equal(wbsim_device_name(dev), presets[i]);
		desc = wbsim_device_describe(dev);
		assert_non_null(strstr(desc, ".ini:"));
		wbsim_device_free(dev);
	}
	{
		struct wbsim_device *dev = wbsim_device_new_from_preset(
			sim, cpus, NULL, "samsung-pm1733-3.84t", NULL, 0, NULL);
		g_autofree char *desc = wbsim_device_describe(dev);

		assert_non_null(strstr(desc, "seq_write_bandwidth = 3800000000B/s ; "));
		assert_true(wbsim_device_capacity(dev) == 3840000000000ull / 512);
		assert_false(wbsim_device_rotational(dev));
		/* blk-wbt on one queue pair of 1023: min(16, 1023) -> 8 and 4 */
		assert_int_equal(wbsim_blk_queue_wbt_limit(wbsim_device_queue(dev), 0), 8);
		assert_int_equal(wbsim_blk_queue_wbt_limit(wbsim_device_queue(dev),
							   WBSIM_REQ_BACKGROUND), 4);
		/* one queue pair per CPU (12) of 1023 tags each */
		assert_int_equal(wbsim_device_get_ops(dev)->flags, 0);
		wbsim_device_free(dev);
		dev = wbsim_device_new_from_preset(sim, cpus, NULL,
						   "raid0-2x-hdd-7200-sata", NULL, 0, NULL);
		assert_true(wbsim_device_rotational(dev));
		wbsim_device_free(dev);
	}
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
}

static gboolean dummy_init(struct wbsim_device *dev, GError **error)
{
	wbsim_device_set_limits(dev, 1 << 20, 1, FALSE);
	return TRUE;
}

/* Registration checks the ops table. */
static void test_register(void **state)
{
	static const struct wbsim_device_ops no_queue = {
		.name = "test-noqueue", .version = WBSIM_DEVICE_OPS_VERSION,
		.init = dummy_init,
	};
	static const struct wbsim_device_ops old = {
		.name = "test-old", .version = 0, .init = dummy_init,
	};
	static const struct wbsim_device_ops dup = {
		.name = "nvme", .version = WBSIM_DEVICE_OPS_VERSION,
		.init = dummy_init, .queue_rq = wbsim_device_end_request,
	};
	GError *error = NULL;

	assert_false(wbsim_device_register(&no_queue, &error));
	assert_string_equal(error->message,
			    "device model 'test-noqueue': missing hook queue_rq");
	g_clear_error(&error);
	assert_false(wbsim_device_register(&old, &error));
	assert_string_equal(error->message,
			    "device model 'test-old': version 0, expected 3");
	g_clear_error(&error);
	assert_false(wbsim_device_register(&dup, &error));
	assert_string_equal(error->message,
			    "device model 'nvme' is already registered");
	g_clear_error(&error);
	assert_non_null(wbsim_device_find_ops("hdd"));
	assert_null(wbsim_device_find_ops("floppy"));
}

static void test_cpu_costs(void **state)
{
	struct wbsim_cpu_costs c;
	GError *error = NULL;

	wbsim_cpu_costs_init(&c);
	/* the built-in host profile's value */
	assert_int_equal(c.copy_page_ns, wbsim_cpu_costs_default()->copy_page_ns);
	assert_true(c.copy_page_ns > 0 && c.copy_page_ns != 2000);
	assert_true(wbsim_cpu_costs_set(&c, "copy_page_ns", "2us", "s.ini", 3, &error));
	assert_int_equal(c.copy_page_ns, 2000);
	assert_true(wbsim_cpu_costs_set(&c, "bio_build_ns", "750ns", NULL, 0, &error));
	assert_int_equal(c.bio_build_ns, 750);
	/* a bare number is no time (it was ns here alone) */
	assert_false(wbsim_cpu_costs_set(&c, "bio_build_ns", "750", "s.ini", 2, &error));
	assert_string_equal(error->message, "s.ini:2: [costs] bio_build_ns = 750: a number "
			    "without a unit: expected a time with a unit (ns, us, ms, s, m, h)");
	g_clear_error(&error);
	assert_int_equal(c.bio_build_ns, 750);
	assert_true(wbsim_cpu_costs_set(&c, "memcpy_bandwidth", "10000000000/s", NULL, 0,
					&error));
	assert_int_equal(c.memcpy_bandwidth, 10000000000ull);
	/* KB is 1024 here as in every other place (it was 1000 here) */
	assert_true(wbsim_cpu_costs_set(&c, "memcpy_bandwidth", "8GB/s", NULL, 0,
					&error));
	assert_int_equal(c.memcpy_bandwidth, 8ull << 30);
	assert_false(wbsim_cpu_costs_set(&c, "copy_pages_ns", "1us", "s.ini", 4,
					 &error));
	assert_int_equal(error->code, WBSIM_ERROR_UNKNOWN_KEY);
	assert_string_equal(error->message,
		"s.ini:4: [costs] unknown key 'copy_pages_ns': expected one of "
		"copy_page_ns, copy_touch_ns, dirty_folio_ns, write_syscall_ns, writepages_folio_ns, "
		"bio_build_ns, blk_submit_rq_ns, blk_submit_page_ns, "
		"blk_complete_rq_ns, blk_complete_page_ns, memcpy_bandwidth, uring_io_ns, "
		"uring_punt_ns, uring_queue_ns, sync_io_ns, balance_dirty_pages_ns, page_alloc_ns, page_alloc_page_ns, account_dirty_ns, "
		"invalidate_page_ns, rwsem_sleep_ns, rwsem_wake_ns, syscall_entry_ns, loop_request_ns, loop_page_copy_ns, loop_page_alloc_ns");
	g_clear_error(&error);
	assert_false(wbsim_cpu_costs_set(&c, "dirty_folio_ns", "fast", "s.ini", 5,
					 &error));
	assert_string_equal(error->message, "s.ini:5: [costs] dirty_folio_ns = fast: expected "
			    "a time with a unit (ns, us, ms, s, m, h)");
	g_clear_error(&error);
	assert_int_equal(c.dirty_folio_ns, wbsim_cpu_costs_default()->dirty_folio_ns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plug_merge),
		cmocka_unit_test(test_segment_limit),
		cmocka_unit_test(test_ideal_exact),
		cmocka_unit_test(test_tag_wait),
		cmocka_unit_test(test_deadline_order),
		cmocka_unit_test(test_completion_cpu),
		cmocka_unit_test(test_completion_on_submitting_cpu),
		cmocka_unit_test(test_wbt_depth),
		cmocka_unit_test(test_bad_preset),
		cmocka_unit_test(test_presets_load),
		cmocka_unit_test(test_register),
		cmocka_unit_test(test_cpu_costs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
