/* SPDX-License-Identifier: MIT */
/*
 * bench-scenario - the headline workload of the parallel-writeback series
 * (12 jobs of 4 KiB random buffered writes, 450 MiB each, 60 simulated
 * seconds; shared/workloads/pr-randwrite-12jobs.fio) on the ideal device at
 * 1 GiB/s, 12 CPUs, 16 GiB, one writeback context. Prints wall time, events
 * per second, simulated seconds per wall second and peak memory (max RSS).
 *
 * "bench-scenario e1" runs the eight E1 scenarios (PMEM and NVMe, XFS and
 * ext4, base and parallel; scenarios/e1-*.ini, 60 simulated seconds each),
 * each in a child process of its own so that its peak RSS is its own, and
 * prints one line per scenario: simulated seconds per wall second (issue
 * 19: at least 20) and per CPU second of the run (user + system: less
 * disturbed when the machine is shared), events, events per simulated
 * second and peak RSS. Wall figures are only as quiet as the machine: the
 * load average at the start is printed with them.
 *
 * "bench-scenario sizes" runs E1 NVMe XFS base (12 jobs of random 4 KiB
 * buffered writes) twice, with files of 450 MiB and of 4 GiB, for the same
 * simulated time (issue 19: the cost per simulated second within 20%
 * whatever the file size: no walk linear in a file's extents or pages),
 * and prints the same line for each, then the ratio of their CPU seconds
 * per simulated second, per write, per page written back and per event.
 * The work a write brings differs with the file size (in a 4 GiB file
 * nearly every random write is an extent of its own, allocated, written
 * back in a bio of its own and converted: more events a write), so the
 * cost per event is the one that shows a walk linear in the state.
 *
 * Usage: bench-scenario [CONTEXTS]
 *        bench-scenario e1 [SCENARIO_DIR [TIME_LIMIT]]
 *	  (SCENARIO_DIR defaults to the source tree's scenarios/, TIME_LIMIT
 *	  to 60s; a scenario name instead of "e1" runs that one only)
 *        bench-scenario sizes [SCENARIO_DIR [TIME_LIMIT]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wbsim/scenario.h>
#include "run/run.h"

#ifndef BENCH_SCENARIO_DIR
#define BENCH_SCENARIO_DIR "scenarios"
#endif

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

static const char *const e1_names[] = {
	"e1-pmem-xfs-base", "e1-pmem-xfs-parallel",
	"e1-pmem-ext4-base", "e1-pmem-ext4-parallel",
	"e1-nvme-xfs-base", "e1-nvme-xfs-parallel",
	"e1-nvme-ext4-base", "e1-nvme-ext4-parallel",
};

/* E1 NVMe XFS base (scenarios/e1-nvme-xfs-base.ini) with files of %s */
static const char sizes_scenario[] =
	"[scenario]\n"
	"description = bench: E1 nvme xfs base with files of %s\n"
	"include = presets/e1-server.inc\n"
	"[device]\npreset = samsung-pm1733-3.84t\n"
	"[filesystem]\ntype = xfs\nagcount = 4\n"
	"[writeback]\ncontexts = 1\naffinity = inode\n"
	"[fio:global]\n"
	"directory=/mnt\nbs=4k\niodepth=1024\nrw=randwrite\nioengine=io_uring\n"
	"time_based=1\nruntime=3600\nsize=%s\ndirect=0\ngroup_reporting\n"
	"[fio:test]\nnumjobs=12\n";

/* The file sizes "bench-scenario sizes" compares. */
static const char *const sizes[] = { "450M", "4G" };
/* CPU seconds per simulated second, per write, per page written, per event */
#define SIZES_PER 4

/*
 * In a child: run @dir/@name.ini (or, @size set, sizes_scenario with
 * files of @size, its includes from @dir) for @limit, print its line;
 * exit status. @cpu_per_write: where the child's CPU seconds per write
 * go (a pipe to the parent), or -1.
 */
static int bench_one(const char *dir, const char *name, const char *size, const char *limit,
		     int cpu_per_write)
{
	g_autofree char *path = g_strdup_printf("%s/%s.ini", dir, name);
	g_autofree char *set = g_strdup_printf("run.time_limit=%s", limit);
	const char *overrides[] = { set, NULL };
	GError *error = NULL;
	struct wbsim_scenario *scn;
	struct wbsim_run_result *r;
	struct rusage ru;
	double t0, t1, sim_s, cpu0, cpu;

	if (size) {
		g_autofree char *text = g_strdup_printf(sizes_scenario, size, size);

		scn = wbsim_scenario_load_string(text, name, dir, overrides, &error);
	} else {
		scn = wbsim_scenario_load(path, overrides, &error);
	}
	if (!scn) {
		fprintf(stderr, "bench-scenario: %s\n", error->message);
		return 2;
	}
	getrusage(RUSAGE_SELF, &ru);
	cpu0 = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
	t0 = wall_seconds();
	r = wbsim_run_scenario(scn, NULL, &error);
	t1 = wall_seconds();
	if (!r) {
		fprintf(stderr, "bench-scenario: %s: %s\n", name, error->message);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6 - cpu0;
	sim_s = r->sim_ns / 1e9;
	printf("%-24s %6.1f %7.2f %7.2f %8.2f %8.2f %9.2f %10.3f %8.1f\n", name, sim_s,
	       t1 - t0, cpu, sim_s / (t1 - t0), sim_s / cpu, r->events / 1e6,
	       r->events / sim_s / 1e6, ru.ru_maxrss / 1024.0);
	fflush(stdout);
	if (cpu_per_write >= 0) {
		double per[SIZES_PER] = { cpu / sim_s, 0, 0, 0 };
		uint64_t writes = 0;

		for (unsigned int i = 0; i < r->jobs->len; i++)
			writes += ((const struct wbsim_job_result *)r->jobs->pdata[i])->total_ios;
		per[1] = writes ? cpu / writes : 0;
		per[2] = r->nr_written ? cpu / r->nr_written : 0;
		per[3] = r->events ? cpu / r->events : 0;
		if (write(cpu_per_write, per, sizeof(per)) != sizeof(per))
			perror("bench-scenario: write");
	}
	wbsim_run_result_free(r);
	wbsim_scenario_free(scn);
	return 0;
}

/* Fork a child for bench_one(); FALSE when it failed. */
static gboolean bench_child(const char *dir, const char *name, const char *size,
			    const char *limit, int cpu_per_write)
{
	pid_t pid = fork();
	int st;

	if (pid < 0) {
		perror("bench-scenario: fork");
		return FALSE;
	}
	if (pid == 0)
		_exit(bench_one(dir, name, size, limit, cpu_per_write));
	return waitpid(pid, &st, 0) >= 0 && WIFEXITED(st) && !WEXITSTATUS(st);
}

static void print_header(void)
{
	double load[3];

	if (getloadavg(load, 3) == 3)
		printf("# load average at start: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
	printf("%-24s %6s %7s %7s %8s %8s %9s %10s %8s\n", "# scenario", "sim_s", "wall_s",
	       "cpu_s", "sim/wall", "sim/cpu", "events_M", "M_ev/sim_s", "rss_MiB");
	fflush(stdout);
}

/* "sizes": the same workload on files of 450 MiB and 4 GiB. */
static int bench_sizes(int argc, char **argv)
{
	const char *dir = argc > 2 ? argv[2] : BENCH_SCENARIO_DIR;
	const char *limit = argc > 3 ? argv[3] : "60s";
	double per[G_N_ELEMENTS(sizes)][SIZES_PER];
	int fd[2];

	if (pipe(fd) < 0) {
		perror("bench-scenario: pipe");
		return 1;
	}
	print_header();
	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
		g_autofree char *name = g_strdup_printf("e1-nvme-xfs-base-%s", sizes[i]);

		if (!bench_child(dir, name, sizes[i], limit, fd[1]) ||
		    read(fd[0], per[i], sizeof(per[i])) != sizeof(per[i])) {
			close(fd[0]);
			close(fd[1]);
			return 1;
		}
	}
	close(fd[0]);
	close(fd[1]);
	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++)
		printf("# files of %-4s: %.3f CPU s per simulated s, %.0f CPU ns per write, "
		       "%.0f per page written, %.0f per event\n",
		       sizes[i], per[i][0], per[i][1] * 1e9, per[i][2] * 1e9, per[i][3] * 1e9);
	printf("# %s / %s: %.2f per simulated s, %.2f per write, %.2f per page written, "
	       "%.2f per event (goal: within 1.20)\n",
	       sizes[1], sizes[0], per[1][0] / per[0][0], per[1][1] / per[0][1],
	       per[1][2] / per[0][2], per[1][3] / per[0][3]);
	return 0;
}

static int bench_e1(int argc, char **argv)
{
	const char *dir = argc > 2 ? argv[2] : BENCH_SCENARIO_DIR;
	const char *limit = argc > 3 ? argv[3] : "60s";
	const char *const *names = e1_names;
	size_t n = G_N_ELEMENTS(e1_names);
	const char *one[1];
	int status = 0;

	if (strcmp(argv[1], "e1") != 0) {
		one[0] = argv[1];
		names = one;
		n = 1;
	}
	print_header();
	for (size_t i = 0; i < n; i++)
		if (!bench_child(dir, names[i], NULL, limit, -1))
			status = 1;
	return status;
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

	if (argc > 1 && strcmp(argv[1], "sizes") == 0)
		return bench_sizes(argc, argv);
	if (argc > 1 && (argv[1][0] < '0' || argv[1][0] > '9'))
		return bench_e1(argc, argv);
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
