/* SPDX-License-Identifier: MIT */
/*
 * bench-emap - the extent map's seek at the sizes the scenarios reach.
 *
 * Two shapes, each built by single-block writes at random into every
 * other block of its files (so no two extents merge, as a random 4 KiB
 * writer leaves them): "e2", 144 files of 4,096 extents (E2's 12 jobs of
 * 12 files, about 600k extents a point); "e1-4g", 12 files of 400,000
 * extents (E1 NVMe XFS base with 4 GiB files, 4.6 M extents). Then
 * random seeks, each into a file drawn at random, as the writers and the
 * flushers of those scenarios seek. Prints, for each shape, the
 * nanoseconds an insert (wbsim_emap_set) and a seek take, and the
 * resident memory. CPU-time figures, still best on a quiet machine; each
 * seek figure is the best of three passes.
 *
 * Usage: bench-emap [SEEKS]   (seeks per pass, default 4,000,000; a few
 *        thousand under valgrind --tool=cachegrind)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <glib.h>
#include <wbsim/sim.h>
#include "core/sim.h"
#include "fs/alloc/extent-map.h"

static long seeks = 4000000;

/* CPU time of this process: less disturbed than wall time by other
 * processes sharing the CPUs, though not by what they do to the caches. */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Resident set of this process now, in MiB (/proc/self/statm). */
static double rss_mib(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return (double)resident * 4096.0 / (1024.0 * 1024.0);
}

static void bench_shape(const char *name, unsigned int files, uint64_t extents)
{
	struct wbsim_emap *maps = g_new(struct wbsim_emap, files);
	uint64_t *order = g_new(uint64_t, extents);
	double rss0 = rss_mib(), t0, t_insert, best = 1e30;
	uint64_t found = 0;
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 19);
	t0 = cpu_seconds();
	for (unsigned int f = 0; f < files; f++) {
		wbsim_emap_init(&maps[f], 1u << 21, 1u << 21, 1u << 21);
		for (uint64_t i = 0; i < extents; i++)
			order[i] = i;
		for (uint64_t i = extents - 1; i > 0; i--) {
			uint64_t j = wbsim_rng_below(&rng, i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (uint64_t i = 0; i < extents; i++)
			wbsim_emap_set(&maps[f], 2 * order[i], 1, WBSIM_EXT_WRITTEN,
				       1000 + 7 * order[i]);
	}
	t_insert = cpu_seconds() - t0;
	for (int pass = 0; pass < 3; pass++) {
		t0 = cpu_seconds();
		for (long i = 0; i < seeks; i++) {
			unsigned int f = (unsigned int)wbsim_rng_below(&rng, files);
			struct wbsim_emap_cursor cur;
			struct wbsim_extent *e = wbsim_emap_seek(
				&maps[f], wbsim_rng_below(&rng, 2 * extents), &cur);

			found += e != NULL;
		}
		best = MIN(best, cpu_seconds() - t0);
	}
	printf("%-6s %4u files x %7" G_GUINT64_FORMAT " extents: insert %6.0f ns, "
	       "seek %6.1f ns, RSS %6.1f MiB (%" G_GUINT64_FORMAT " found)\n", name, files,
	       extents, t_insert * 1e9 / ((double)files * (double)extents),
	       best * 1e9 / (double)seeks, rss_mib() - rss0, found);
	for (unsigned int f = 0; f < files; f++)
		wbsim_emap_clear(&maps[f]);
	g_free(maps);
	g_free(order);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		seeks = MAX(1, atol(argv[1]));
	bench_shape("e2", 144, 4096);
	bench_shape("e1-4g", 12, 400000);
	return 0;
}
