/* SPDX-License-Identifier: MIT */
/*
 * bench-memlat - the latency of one dependent load against the size of the
 * memory it falls in, on this machine: a pointer chase through a random
 * cyclic permutation of cache lines over 16 KiB .. 1 GiB, so that each
 * load's address comes from the previous load and the hardware prefetcher
 * cannot guess it. Where the curve rises names the cache sizes; its top is
 * what a kernel write pays for each structure it touches that no longer is
 * in any cache (the host profile's cache_miss_ns, lib/core/cpu-costs.c).
 *
 * The buffer is backed by transparent huge pages where the kernel gives
 * them (madvise(MADV_HUGEPAGE)), as the kernel's direct map is mapped with
 * large pages: the figure is a cache miss, not a TLB miss.
 *
 * Wall-clock time is measured here on purpose: this program reports the
 * host's speed; it never feeds a simulation directly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* xorshift64*: the permutation only needs to defeat the prefetcher. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

/* Link the @n lines of @buf into one random cycle (Sattolo's shuffle). */
static void link_cycle(char *buf, size_t n, size_t *order)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = rng_next() % i;
		size_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % n] * LINE;
}

/* Nanoseconds per load, best of three passes of @loads loads. */
static double chase(char *buf, size_t loads)
{
	void **p = (void **)buf;
	double best = 0;

	for (size_t i = 0; i < loads; i++)	/* warm: bring the set in */
		p = *p;
	for (int pass = 0; pass < 3; pass++) {
		double t0 = now_ns();

		for (size_t i = 0; i < loads; i++)
			p = *p;
		double ns = (now_ns() - t0) / loads;

		if (pass == 0 || ns < best)
			best = ns;
	}
	if (p == NULL)	/* never: keeps the chain live */
		puts("");
	return best;
}

int main(int argc, char **argv)
{
	size_t max = (size_t)1 << 30;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--quick") != 0)) {
		fprintf(stderr, "usage: bench-memlat [--quick]\n");
		return 2;
	}
	if (argc == 2)
		max = (size_t)64 << 20;

	char *buf = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t *order = malloc(max / LINE * sizeof(*order));

	if (buf == MAP_FAILED || !order) {
		fprintf(stderr, "bench-memlat: cannot allocate %zu MiB\n", max >> 20);
		return 1;
	}
	madvise(buf, max, MADV_HUGEPAGE);
	memset(buf, 1, max);

	printf("# bench-memlat: dependent loads through a random cycle of 64-byte lines\n");
	printf("# %12s %10s\n", "set_bytes", "ns_per_load");
	for (size_t set = 16 << 10; set <= max; set *= 2) {
		size_t n = set / LINE;
		size_t loads = n * 4 < (8u << 20) ? (8u << 20) : n * 4;

		link_cycle(buf, n, order);
		printf("%14zu %10.2f\n", set, chase(buf, loads));
		fflush(stdout);
	}
	free(order);
	munmap(buf, max);
	return 0;
}
