/* SPDX-License-Identifier: MIT */
/*
 * bench-hiccup - how often, and for how long, a CPU of this machine stops
 * running a busy task (issues 35 and 40): one thread pinned to each CPU
 * spins on the monotonic clock for a while and records every gap between
 * two reads longer than a threshold. A gap is time the thread did not run:
 * an interrupt (the tick, an IPI), a kernel thread that took the CPU, or,
 * on a virtual machine, the host running something else on the vCPU's
 * physical CPU (what the guest's steal time counts and
 * vcpu_is_preempted() reports: a task spinning on a lock whose owner's
 * vCPU is preempted stops spinning and sleeps).
 *
 *   bench-hiccup [SECONDS]        (default 5)
 *
 * Per CPU: the gaps a second, their total, the median and the largest,
 * a histogram, and the CPU's steal time from /proc/stat over the same
 * period (USER_HZ ticks: 10 ms at the usual 100). Run it on an otherwise
 * idle machine: another task on a CPU shows up as gaps there. Wall-clock
 * time is measured here on purpose: this program reports the host.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define THRESHOLD_NS 3000	/* a gap: longer than any two clock reads */
#define MAX_GAPS 2000000

static const long long bucket_ns[] = { 3000, 10000, 30000, 100000, 300000, 1000000 };
#define NR_BUCKETS (sizeof(bucket_ns) / sizeof(bucket_ns[0]))

struct spinner {
	int cpu;
	double seconds;
	long long *gaps;
	long nr;
	long long total_ns;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void *spin(void *arg)
{
	struct spinner *s = arg;
	cpu_set_t set;
	long long start, last, end;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		perror("bench-hiccup: sched_setaffinity");
		exit(2);
	}
	start = last = now_ns();
	end = start + (long long)(s->seconds * 1e9);
	while (last < end) {
		long long t = now_ns();

		if (t - last > THRESHOLD_NS && s->nr < MAX_GAPS) {
			s->gaps[s->nr++] = t - last;
			s->total_ns += t - last;
		}
		last = t;
	}
	return NULL;
}

/* The steal ticks of each CPU from /proc/stat (the 9th figure of its
 * cpuN line), into @steal[ncpu]; 0 where unreadable. */
static void read_steal(long ncpu, long long *steal)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512];

	memset(steal, 0, (size_t)ncpu * sizeof(*steal));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int cpu;
		long long v[8];

		if (sscanf(line, "cpu%d %lld %lld %lld %lld %lld %lld %lld %lld", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9 && cpu >= 0 && cpu < ncpu)
			steal[cpu] = v[7];
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long hz = sysconf(_SC_CLK_TCK);
	double seconds = 5;
	struct spinner *s;
	pthread_t *t;
	long long *steal0, *steal1;

	if (argc == 2) {
		char *end;

		seconds = strtod(argv[1], &end);
		if (*end || seconds <= 0 || seconds > 600) {
			fprintf(stderr, "%s: SECONDS must be a number in (0, 600], got '%s'\n",
				argv[0], argv[1]);
			return 2;
		}
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [SECONDS]\n", argv[0]);
		return 2;
	}
	s = calloc((size_t)ncpu, sizeof(*s));
	t = calloc((size_t)ncpu, sizeof(*t));
	steal0 = calloc((size_t)ncpu, sizeof(*steal0));
	steal1 = calloc((size_t)ncpu, sizeof(*steal1));
	if (!s || !t || !steal0 || !steal1) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 2;
	}
	read_steal(ncpu, steal0);
	for (long c = 0; c < ncpu; c++) {
		s[c].cpu = (int)c;
		s[c].seconds = seconds;
		s[c].gaps = calloc(MAX_GAPS, sizeof(long long));
		if (!s[c].gaps || pthread_create(&t[c], NULL, spin, &s[c]) != 0) {
			fprintf(stderr, "%s: cannot start a thread\n", argv[0]);
			return 2;
		}
	}
	for (long c = 0; c < ncpu; c++)
		pthread_join(t[c], NULL);
	read_steal(ncpu, steal1);
	for (long c = 0; c < ncpu; c++) {
		long n[NR_BUCKETS] = { 0 };

		qsort(s[c].gaps, (size_t)s[c].nr, sizeof(long long), cmp_ll);
		for (long i = 0; i < s[c].nr; i++)
			for (size_t b = NR_BUCKETS; b-- > 0;)
				if (s[c].gaps[i] >= bucket_ns[b]) {
					n[b]++;
					break;
				}
		printf("hiccups_per_s %.1f\t(CPU %ld: gaps over %d ns in %.1f s of spinning)\n",
		       s[c].nr / seconds, c, THRESHOLD_NS, seconds);
		printf("hiccup_ms_per_s %.3f\t(CPU %ld: their total a second)\n",
		       s[c].total_ns / 1e6 / seconds, c);
		printf("hiccup_median_ns %lld\t(CPU %ld)\n",
		       s[c].nr ? s[c].gaps[s[c].nr / 2] : 0, c);
		printf("hiccup_max_ns %lld\t(CPU %ld)\n", s[c].nr ? s[c].gaps[s[c].nr - 1] : 0, c);
		for (size_t b = 0; b < NR_BUCKETS; b++)
			printf("hiccups_from_ns %lld %ld\t(CPU %ld: gaps from %lld ns%s)\n", bucket_ns[b],
			       n[b], c, bucket_ns[b], b + 1 < NR_BUCKETS ? "" : " up");
		printf("steal_ms_per_s %.3f\t(CPU %ld: /proc/stat steal, %lld ticks of 1/%ld s)\n",
		       (steal1[c] - steal0[c]) * 1000.0 / hz / seconds, c, steal1[c] - steal0[c], hz);
		free(s[c].gaps);
	}
	free(s);
	free(t);
	free(steal0);
	free(steal1);
	return 0;
}
