/* SPDX-License-Identifier: MIT */
/*
 * test-devices - physics of the device models: disk seeks, rotation, zones
 * and NCQ; NVMe saturation; RAID0 striping; PMEM scaling with CPUs.
 * Each test drives a preset with the harness and checks a figure against
 * the preset's datasheet values.
 */
#include <math.h>
#include <string.h>

#include "tests/block/harness.h"
#include "block/blk.h"
#include "core/cpu-costs.h"
#include "core/sim.h"

#define MS WBSIM_NSEC_PER_MSEC
#define SEC WBSIM_NSEC_PER_SEC

struct rig {
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	struct wbsim_cpu_costs costs;
	struct wbsim_device *dev;
};

static void rig_open(struct rig *r, const char *preset, unsigned int nr_cpus,
		     const struct wbsim_setting *ov, size_t nr_ov)
{
	GError *error = NULL;

	use_source_presets();
	r->sim = wbsim_sim_new(42);
	r->cpus = wbsim_cpus_new(r->sim, nr_cpus, &error);
	assert_non_null(r->cpus);
	r->costs = zero_costs();
	r->dev = wbsim_device_new_from_preset(r->sim, r->cpus, &r->costs, preset,
					      ov, nr_ov, &error);
	if (!r->dev)
		fail_msg("%s", error->message);
}

static void rig_close(struct rig *r)
{
	wbsim_device_free(r->dev);
	wbsim_cpus_free(r->cpus);
	wbsim_sim_free(r->sim);
}

static const struct wbsim_setting no_cache[] = {
	{ "write_cache", "0", "test", 1 },
};

/* Throughput of @nr slots of @mode with @bs-byte bios on @preset. */
static double run_gen(const char *preset, const struct wbsim_setting *ov,
		      size_t nr_ov, enum gen_mode mode, unsigned int nr,
		      uint32_t bs, uint64_t start, uint64_t span,
		      wbsim_time_t warmup, wbsim_time_t stop, uint64_t *ios)
{
	struct rig r;
	struct gen g;
	double bw;

	rig_open(&r, preset, 4, ov, nr_ov);
	if (span == 0)
		span = wbsim_device_capacity(r.dev) - start;
	gen_init(&g, r.sim, wbsim_device_queue(r.dev), mode, nr, bs, start, span);
	bw = gen_run(&g, warmup, stop);
	if (ios)
		*ios = g.ios;
	gen_clear(&g);
	rig_close(&r);
	return bw;
}

/* ------------------------------------------------------------------------ */
/* HDD                                                                      */

/* The fitted seek curve passes through the datasheet's figures. */
static void test_hdd_seek_curve(void **state)
{
	struct rig r;
	const struct wbsim_hdd *h;
	uint64_t cyl;

	rig_open(&r, "hdd-7200-sata", 1, NULL, 0);
	h = wbsim_device_priv(r.dev);
	/* 1 TB / (4 heads * 140 MB/s * 8.333 ms * 1.5 / 2) */
	cyl = (uint64_t)llround(1000204886016.0 / (4 * 140e6 * (60.0 / 7200) * 0.75));
	assert_int_equal(wbsim_hdd_seek_time(h, 0), 0);
	assert_int_equal(wbsim_hdd_seek_time(h, 1), 1100000);
	assert_int_equal(wbsim_hdd_seek_time(h, cyl - 1), 22000000);
	/* square root regime: 4x the distance (from 1) is 2x the rise */
	{
		double t100 = (double)wbsim_hdd_seek_time(h, 101) - 1.1e6;
		double t400 = (double)wbsim_hdd_seek_time(h, 401) - 1.1e6;

		assert_true(fabs(t400 / t100 - 2.0) < 0.01);
	}
	rig_close(&r);
}

/* One sequential stream at the outer edge reaches the outer zone's rate. */
static void test_hdd_sequential_zone_rate(void **state)
{
	double bw = run_gen("hdd-7200-sata", no_cache, 1, GEN_SEQ, 4, 512 * 1024,
			    0, 0, 500 * MS, 4 * SEC, NULL);

	assert_true(bw > 140e6 * 0.95 && bw < 140e6 * 1.05);
	/* and at the inner edge, about half of it */
	{
		struct rig r;
		uint64_t cap;

		rig_open(&r, "hdd-7200-sata", 1, NULL, 0);
		cap = wbsim_device_capacity(r.dev);
		rig_close(&r);
		bw = run_gen("hdd-7200-sata", no_cache, 1, GEN_SEQ, 4, 512 * 1024,
			     cap - (1ull << 22), 1ull << 21, 500 * MS, 2 * SEC, NULL);
		assert_true(bw > 70e6 * 0.95 && bw < 70e6 * 1.10);
	}
}

/* Two streams far apart, interleaved, move clearly less than one. */
static void test_hdd_two_streams(void **state)
{
	double one = run_gen("hdd-7200-sata", no_cache, 1, GEN_SEQ, 2, 512 * 1024,
			     0, 0, 500 * MS, 4 * SEC, NULL);
	double two = run_gen("hdd-7200-sata", no_cache, 1, GEN_SEQ_PER_SLOT, 2,
			     512 * 1024, 0, 0, 500 * MS, 4 * SEC, NULL);

	assert_true(two < 0.6 * one);
}

/* Random 4 KiB at queue depth 1: 1 / (avg seek + half a turn + transfer). */
static void test_hdd_random_qd1(void **state)
{
	uint64_t ios;
	double expect = 1.0 / (9.5e-3 + 0.5 * 60.0 / 7200 + 4096 / 105e6);
	double iops;

	run_gen("hdd-7200-sata", no_cache, 1, GEN_RANDOM, 1, 4096, 0, 0,
		1 * SEC, 31 * SEC, &ios);
	iops = ios / 30.0;
	assert_true(fabs(iops / expect - 1) < 0.10);
}

/* NCQ at depth 32 raises random IOPS over depth 1. */
static void test_hdd_ncq(void **state)
{
	uint64_t io1, io32;

	run_gen("hdd-7200-sata", no_cache, 1, GEN_RANDOM, 1, 4096, 0, 0,
		1 * SEC, 11 * SEC, &io1);
	run_gen("hdd-7200-sata", no_cache, 1, GEN_RANDOM, 32, 4096, 0, 0,
		1 * SEC, 11 * SEC, &io32);
	assert_true(io32 > 2 * io1);
	/* without NCQ the same 32 requests gain nothing */
	{
		const struct wbsim_setting no_ncq[] = {
			{ "write_cache", "0", "test", 1 },
			{ "queue_depth", "1", "test", 2 },
			{ "scheduler", "none", "test", 3 },
		};
		uint64_t io_noncq;

		run_gen("hdd-7200-sata", no_ncq, 3, GEN_RANDOM, 32, 4096, 0, 0,
			1 * SEC, 11 * SEC, &io_noncq);
		assert_true(io_noncq < io1 * 1.15);
	}
}

/*
 * The write cache acknowledges at once and destages in positioning order:
 * random writes at depth 1 run far faster than with the cache off, and
 * FUA writes bypass it.
 */
static void test_hdd_write_cache(void **state)
{
	uint64_t off, on;

	run_gen("hdd-7200-sata", no_cache, 1, GEN_RANDOM, 1, 4096, 0, 0,
		5 * SEC, 25 * SEC, &off);
	run_gen("hdd-7200-sata", NULL, 0, GEN_RANDOM, 1, 4096, 0, 0,
		5 * SEC, 25 * SEC, &on);
	assert_true(on > 2 * off);
}

/* The same seed gives the same run, to the nanosecond. */
static void test_deterministic(void **state)
{
	struct wbsim_blk_stats st[2];

	for (int i = 0; i < 2; i++) {
		struct rig r;
		struct gen g;

		rig_open(&r, "raid0-2x-hdd-7200-sata", 2, NULL, 0);
		gen_init(&g, r.sim, wbsim_device_queue(r.dev), GEN_RANDOM, 8, 65536, 0,
			 wbsim_device_capacity(r.dev));
		gen_run(&g, 0, 3 * SEC);
		wbsim_blk_queue_get_stats(wbsim_device_queue(r.dev), &st[i]);
		gen_clear(&g);
		rig_close(&r);
	}
	assert_true(st[0].requests > 100);
	assert_int_equal(st[0].requests, st[1].requests);
	assert_int_equal(st[0].seek_ns, st[1].seek_ns);
	assert_int_equal(st[0].rotation_ns, st[1].rotation_ns);
	assert_int_equal(st[0].total_latency_ns, st[1].total_latency_ns);
}

/* Seek statistics count head movements. */
static void test_hdd_seek_stats(void **state)
{
	struct rig r;
	struct gen g;
	struct wbsim_blk_stats st;

	rig_open(&r, "hdd-7200-sata", 1, no_cache, 1);
	gen_init(&g, r.sim, wbsim_device_queue(r.dev), GEN_RANDOM, 1, 4096, 0,
		 wbsim_device_capacity(r.dev));
	gen_run(&g, 0, 2 * SEC);
	wbsim_blk_queue_get_stats(wbsim_device_queue(r.dev), &st);
	/* every random request but a rare same-cylinder one seeks */
	assert_true(st.seeks >= st.requests - 1 && st.seeks <= st.requests + 1);
	assert_true(st.seek_ns > st.requests * 6 * MS);
	assert_true(st.utilisation > 0.99);
	gen_clear(&g);
	rig_close(&r);
}

/* ------------------------------------------------------------------------ */
/* NVMe                                                                     */

static void test_nvme_random_saturates(void **state)
{
	const unsigned int depths[] = { 1, 2, 3, 256 };
	double iops[4];

	for (unsigned int i = 0; i < 4; i++) {
		uint64_t ios;

		run_gen("samsung-pm1733-3.84t", NULL, 0, GEN_RANDOM, depths[i], 4096,
			0, 0, 300 * MS, 1300 * MS, &ios);
		iops[i] = (double)ios;
	}
	/*
	 * latency-bound at low depth: one 4 KiB write takes 16.2 us (15 us
	 * latency, 0.6 us command, 0.6 us on the link), 62K IOPS, and two
	 * in flight twice that
	 */
	assert_true(fabs(iops[0] / (1e9 / (15000 + 600 + 586)) - 1) < 0.01);
	assert_true(iops[1] > 1.95 * iops[0]);
	/* then the back end saturates: the datasheet's 135K IOPS */
	assert_true(iops[2] > iops[1] && iops[2] <= 135000 * 1.01);
	assert_true(fabs(iops[3] / 135000 - 1) < 0.02);
}

static void test_nvme_sequential(void **state)
{
	double bw = run_gen("samsung-pm1733-3.84t", NULL, 0, GEN_SEQ, 32,
			    1024 * 1024, 0, 0, 300 * MS, 1300 * MS, NULL);

	assert_true(fabs(bw / 3800e6 - 1) < 0.03);
	bw = run_gen("ufs-3.1-512g", NULL, 0, GEN_SEQ, 32, 512 * 1024, 0, 0,
		     300 * MS, 1300 * MS, NULL);
	assert_true(fabs(bw / 1200e6 - 1) < 0.03);
}

/* ------------------------------------------------------------------------ */
/* RAID0                                                                    */

static void test_raid0_sequential(void **state)
{
	double one = run_gen("hdd-7200-sata", NULL, 0, GEN_SEQ, 8, 1024 * 1024,
			     0, 0, 1 * SEC, 4 * SEC, NULL);
	double two = run_gen("raid0-2x-hdd-7200-sata", NULL, 0, GEN_SEQ, 8,
			     1024 * 1024, 0, 0, 1 * SEC, 4 * SEC, NULL);

	assert_true(two > 1.85 * one && two < 2.1 * one);
}

static wbsim_time_t ended_at;

static void note_end(wbsim_sim *sim, void *arg)
{
	ended_at = wbsim_sim_now(sim);
}

/* A request across a chunk boundary completes when both parts have. */
static void test_raid0_chunk_boundary(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-block-XXXXXX", NULL);
	g_autofree char *member = g_build_filename(dir, "m.ini", NULL);
	g_autofree char *array = g_build_filename(dir, "a.ini", NULL);
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 1, NULL);
	struct wbsim_cpu_costs costs = zero_costs();
	struct wbsim_device *dev;
	struct wbsim_bio bio = { 0 };
	wbsim_task task;
	GError *error = NULL;

	assert_true(g_file_set_contents(member, "[device]\nmodel = ideal\n"
		"bandwidth = 1000000000/s\nlatency = 100us\n", -1, NULL));
	assert_true(g_file_set_contents(array, "[device]\nmodel = raid0\n"
		"member = m\nmembers = 2\nchunk_size = 64k\n", -1, NULL));
	g_setenv("WBSIM_PRESET_PATH", dir, TRUE);
	dev = wbsim_device_new_from_preset(sim, cpus, &costs, "a", NULL, 0, &error);
	assert_non_null(dev);
	wbsim_task_init(&task, "t", WBSIM_TASK_OTHER);
	/* 4 KiB at the end of chunk 0 (member 0), 60 KiB of chunk 1 (member 1) */
	bio.sector = 120;
	bio.nr_sectors = 128;
	bio.end_io = note_end;
	wbsim_submit_bio(wbsim_device_queue(dev), &task, NULL, &bio, NULL, NULL);
	wbsim_sim_run(sim);
	/* the longer part: 100 us + 61440 B at 1 GB/s */
	assert_int_equal(ended_at, 100000 + 61440);
	{
		struct wbsim_blk_stats st;

		wbsim_blk_queue_get_stats(wbsim_device_queue(dev), &st);
		assert_int_equal(st.requests, 1);
		assert_int_equal(st.bytes, 65536);
	}
	wbsim_task_clear(&task);
	wbsim_device_free(dev);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
	g_remove(member);
	g_remove(array);
	g_rmdir(dir);
}

/* ------------------------------------------------------------------------ */
/* PMEM                                                                     */

static double pmem_run(unsigned int tasks, const char *membw)
{
	const struct wbsim_setting ov[] = { { "memory_bandwidth", membw, "t", 1 } };
	struct rig r;
	struct gen g;
	double bw;

	use_source_presets();
	r.sim = wbsim_sim_new(1);
	r.cpus = wbsim_cpus_new(r.sim, 4, NULL);
	/* default costs: submission and per-page completion on the submitter */
	wbsim_cpu_costs_init(&r.costs);
	r.dev = wbsim_device_new_from_preset(r.sim, r.cpus, &r.costs,
					     "pmem-dram-6g", ov, 1, NULL);
	assert_non_null(r.dev);
	gen_init(&g, r.sim, wbsim_device_queue(r.dev), GEN_SEQ_PER_SLOT, tasks,
		 1024 * 1024, 0, wbsim_device_capacity(r.dev) / 2);
	bw = gen_run(&g, 10 * MS, 210 * MS);
	gen_clear(&g);
	rig_close(&r);
	return bw;
}

static void test_pmem_scaling(void **state)
{
	double t1 = pmem_run(1, "100000000000/s"), t2 = pmem_run(2, "100000000000/s");
	double t4 = pmem_run(4, "100000000000/s"), t8 = pmem_run(8, "100000000000/s");
	double capped = pmem_run(8, "5000000000/s");

	const struct wbsim_cpu_costs *c = wbsim_cpu_costs_default();
	/* one task: submit, copy at memcpy rate, end 256 pages, one after another */
	double per_bio = (double)(c->blk_submit_rq_ns + 256 * c->blk_submit_page_ns +
				  256 * c->blk_complete_page_ns) +
			 1048576e9 / (double)c->memcpy_bandwidth;

	assert_true(fabs(t1 / (1048576e9 / per_bio) - 1) < 0.02);
	assert_true(fabs(t2 / t1 - 2) < 0.05);
	assert_true(fabs(t4 / t1 - 4) < 0.2);
	/* 4 CPUs: more tasks than CPUs gain nothing */
	assert_true(fabs(t8 / t4 - 1) < 0.03);
	/* the shared memory bandwidth caps it (below what 4 CPUs copy) */
	assert_true(t4 > 5e9 * 1.2);
	assert_true(capped < 5e9 * 1.01 && capped > 5e9 * 0.9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdd_seek_curve),
		cmocka_unit_test(test_hdd_sequential_zone_rate),
		cmocka_unit_test(test_hdd_two_streams),
		cmocka_unit_test(test_hdd_random_qd1),
		cmocka_unit_test(test_hdd_ncq),
		cmocka_unit_test(test_hdd_seek_stats),
		cmocka_unit_test(test_hdd_write_cache),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_nvme_random_saturates),
		cmocka_unit_test(test_nvme_sequential),
		cmocka_unit_test(test_raid0_sequential),
		cmocka_unit_test(test_raid0_chunk_boundary),
		cmocka_unit_test(test_pmem_scaling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
