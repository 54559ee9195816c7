/* SPDX-License-Identifier: MIT */
/*
 * bench-scenario - the headline workload of the parallel-writeback series
 * (12 jobs of 4 KiB random buffered writes, 450 MiB each, 60 simulated
 * seconds; shared/workloads/pr-randwrite-12jobs.fio) on the ideal device at
 * 1 GiB/s, 12 CPUs, 16 GiB, one writeback context. Prints wall time, events
 * per second, simulated seconds per wall second and peak memory (max RSS).
 *
 * Usage: bench-scenario [CONTEXTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <wbsim/scenario.h>
#include "workload/run.h"

static const char scenario[] =
	"[scenario]\n"
	"description = bench: headline workload on the ideal device at 1 GiB/s\n"
	"[machine]\ncpus = 12\nmemory = 16G\n"
	"[device]\npreset = ideal\nbandwidth = 1GiB/s\n"
	"[filesystem]\ntype = ideal\n"
	"[fio:global]\n"
	"directory=/mnt\nbs=4k\niodepth=1024\nrw=randwrite\nioengine=io_uring\n"
	"time_based=1\nruntime=60\nsize=450M\ndirect=0\ngroup_reporting\n"
	"[fio:test]\nnumjobs=12\n";

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	char set[64];
	const char *overrides[2] = { NULL, NULL };
	GError *error = NULL;
	struct wbsim_scenario *scn;
	struct wbsim_run_result *r;
	struct rusage ru;
	double t0, t1;

	if (argc > 1) {
		snprintf(set, sizeof(set), "writeback.contexts=%s", argv[1]);
		overrides[0] = set;
	}
	scn = wbsim_scenario_load_string(scenario, "bench-scenario", ".", overrides, &error);
	if (!scn) {
		fprintf(stderr, "bench-scenario: %s\n", error->message);
		return 2;
	}
	t0 = wall_seconds();
	r = wbsim_run_scenario(scn, NULL, &error);
	t1 = wall_seconds();
	if (!r) {
		fprintf(stderr, "bench-scenario: %s\n", error->message);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("simulated:            %.3f s\n", r->sim_ns / 1e9);
	printf("wall:                 %.3f s\n", t1 - t0);
	printf("events:               %llu (%.2f M/s)\n", (unsigned long long)r->events,
	       r->events / (t1 - t0) / 1e6);
	printf("simulated s / wall s: %.1f\n", r->sim_ns / 1e9 / (t1 - t0));
	printf("written:              %.1f MiB\n", r->nr_written * 4096.0 / 1048576);
	printf("peak memory (maxrss): %.1f MiB\n", ru.ru_maxrss / 1024.0);
	wbsim_run_result_free(r);
	wbsim_scenario_free(scn);
	return 0;
}
