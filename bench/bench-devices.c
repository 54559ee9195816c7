/* SPDX-License-Identifier: MIT */
/*
 * bench-devices - every shipped device preset under a sequential stream
 * (1 MiB writes) and random 4 KiB writes at queue depth 1 and 32, printing
 * the simulated bandwidth and IOPS beside the preset's datasheet figures,
 * and the wall time the simulator took.
 *
 * The machine: 12 CPUs and the default CPU cost table (submission and
 * completion costs are charged). Wall time is measured only to report the
 * simulator's speed; it never enters a simulation.
 */
#include <stdio.h>
#include <string.h>

#include <wbsim/wbsim.h>
#include "block/blk.h"
#include "core/cpu-costs.h"
#include "core/sim.h"

struct slot {
	wbsim_task task;
	struct wbsim_bio bio;
	struct run *r;
	uint64_t next;
};

struct run {
	wbsim_sim *sim;
	struct wbsim_blk_queue *q;
	gboolean random;
	uint32_t bs;
	uint64_t span, next;
	wbsim_time_t warmup, stop;
	uint64_t bytes, ios;
};

static void issue(struct slot *s);

static void end_io(wbsim_sim *sim, void *arg)
{
	struct slot *s = arg;
	struct run *r = s->r;
	wbsim_time_t now = wbsim_sim_now(sim);

	if (now >= r->warmup && now < r->stop) {
		r->bytes += (uint64_t)r->bs << WBSIM_SECTOR_SHIFT;
		r->ios++;
	}
	if (now < r->stop)
		issue(s);
}

static void issue(struct slot *s)
{
	struct run *r = s->r;

	memset(&s->bio, 0, sizeof(s->bio));
	if (r->random) {
		s->bio.sector = wbsim_rng_below(wbsim_sim_rng(r->sim), r->span / r->bs) *
				r->bs;
	} else {
		s->bio.sector = r->next;
		r->next = (r->next + r->bs) % (r->span - r->bs);
	}
	s->bio.nr_sectors = r->bs;
	/* direct I/O, as fio direct=1: not throttled by blk-wbt */
	s->bio.flags = WBSIM_REQ_SYNC | WBSIM_REQ_IDLE;
	s->bio.end_io = end_io;
	s->bio.private = s;
	wbsim_submit_bio(r->q, &s->task, NULL, &s->bio, NULL, NULL);
}

struct result {
	double mbps, iops, wall_s;
	uint64_t events;
};

static gboolean measure(const char *preset, const struct wbsim_setting *ov,
			gboolean random, uint32_t bs, unsigned int depth,
			wbsim_time_t stop, struct result *res)
{
	struct wbsim_cpu_costs costs;
	GError *error = NULL;
	wbsim_sim *sim = wbsim_sim_new(1);
	wbsim_cpus *cpus = wbsim_cpus_new(sim, 12, &error);
	struct wbsim_device *dev;
	struct slot *slots;
	struct run r = { 0 };
	gint64 t0;

	wbsim_cpu_costs_init(&costs);
	dev = wbsim_device_new_from_preset(sim, cpus, &costs, preset, ov,
					   ov ? 1 : 0, &error);
	if (!dev) {
		fprintf(stderr, "bench-devices: %s\n", error->message);
		g_error_free(error);
		return FALSE;
	}
	r.sim = sim;
	r.q = wbsim_device_queue(dev);
	r.random = random;
	r.bs = bs >> WBSIM_SECTOR_SHIFT;
	r.span = wbsim_device_capacity(dev);
	r.warmup = stop / 5;
	r.stop = stop;
	slots = g_new0(struct slot, depth);
	t0 = g_get_monotonic_time();
	for (unsigned int i = 0; i < depth; i++) {
		wbsim_task_init(&slots[i].task, "bench", WBSIM_TASK_OTHER);
		slots[i].r = &r;
		issue(&slots[i]);
	}
	wbsim_sim_run_until(sim, stop);
	res->wall_s = (g_get_monotonic_time() - t0) / 1e6;
	res->events = wbsim_sim_events_processed(sim);
	res->mbps = (double)r.bytes / ((stop - r.warmup) / 1e9) / 1e6;
	res->iops = (double)r.ios / ((stop - r.warmup) / 1e9);
	for (unsigned int i = 0; i < depth; i++)
		wbsim_task_clear(&slots[i].task);
	g_free(slots);
	wbsim_device_free(dev);
	wbsim_cpus_free(cpus);
	wbsim_sim_free(sim);
	return TRUE;
}

int main(void)
{
	static const struct wbsim_setting no_wc = { "write_cache", "0", NULL, 0 };
	static const struct {
		const char *preset;
		const struct wbsim_setting *ov;
		const char *sheet_seq, *sheet_rand;
		wbsim_time_t stop;
	} presets[] = {
		{ "ideal", NULL, "1000", "-", 2 * WBSIM_NSEC_PER_SEC },
		{ "pmem-dram-6g", NULL, "-", "-", WBSIM_NSEC_PER_SEC / 2 },
		{ "samsung-pm1733-3.84t", NULL, "3800", "135000", 2 * WBSIM_NSEC_PER_SEC },
		{ "samsung-pm1733a-3.84t", NULL, "3800", "135000", 2 * WBSIM_NSEC_PER_SEC },
		{ "ufs-3.1-512g", NULL, "1200", "70000", 2 * WBSIM_NSEC_PER_SEC },
		{ "hdd-7200-sata", NULL, "140", "-", 20 * WBSIM_NSEC_PER_SEC },
		{ "hdd-7200-sata", &no_wc, "140", "73 (QD1)", 20 * WBSIM_NSEC_PER_SEC },
		{ "raid0-2x-hdd-7200-sata", NULL, "280", "-", 20 * WBSIM_NSEC_PER_SEC },
	};
	static const struct {
		const char *name;
		gboolean random;
		uint32_t bs;
		unsigned int depth;
	} loads[] = {
		{ "seq 1M QD32", FALSE, 1 << 20, 32 },
		{ "rand 4K QD1", TRUE, 4096, 1 },
		{ "rand 4K QD32", TRUE, 4096, 32 },
	};

	printf("%-30s %-13s %10s %10s %10s %10s %9s %8s\n", "preset", "load",
	       "sim MB/s", "sheet MB/s", "sim IOPS", "sheet IOPS", "events", "wall s");
	for (size_t p = 0; p < G_N_ELEMENTS(presets); p++) {
		for (size_t l = 0; l < G_N_ELEMENTS(loads); l++) {
			struct result res;

			g_autofree char *name = NULL;

			if (!measure(presets[p].preset, presets[p].ov, loads[l].random,
				     loads[l].bs, loads[l].depth, presets[p].stop, &res))
				return 1;
			name = presets[p].ov ? g_strdup_printf("%s %s=%s", presets[p].preset,
							       presets[p].ov->key,
							       presets[p].ov->value)
					     : g_strdup(presets[p].preset);
			printf("%-30s %-13s %10.1f %10s %10.0f %10s %9" G_GUINT64_FORMAT
			       " %8.3f\n", name, loads[l].name, res.mbps,
			       loads[l].random ? "" : presets[p].sheet_seq, res.iops,
			       loads[l].random ? presets[p].sheet_rand : "",
			       res.events, res.wall_s);
		}
	}
	return 0;
}
