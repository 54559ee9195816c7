/* SPDX-License-Identifier: MIT */
/*
 * bench-memcpy - measure single-thread memcpy bandwidth on this machine, for
 * the CPU cost table (lib/core/cpu-costs.c): the time to copy one 4 KiB page
 * (a write() copying user data into the page cache; PMEM's copy of one page)
 * and the bandwidth of large copies, with memcpy and, as the kernel's PMEM
 * driver copies a bio (memcpy_flushcache: 8-byte non-temporal stores that
 * bypass the cache, no read of the destination), with non-temporal stores
 * (x86-64 only).
 *
 * Wall-clock time is measured here on purpose: this program reports the
 * host's speed; it never feeds a simulation directly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Keep the compiler from dropping the copies. */
static volatile unsigned char sink;

typedef void *(*copy_fn)(void *dst, const void *src, size_t len);

#if defined(__x86_64__)
/* The shape of the kernel's __memcpy_flushcache for aligned lengths: 8-byte
 * non-temporal stores (movnti), 64 bytes a loop, a store fence at the end. */
static void *copy_nontemporal(void *dst, const void *src, size_t len)
{
	long long *d = dst;
	const long long *s = src;

	for (size_t i = 0; i < len / 8; i += 8) {
		_mm_stream_si64(d + i, s[i]);
		_mm_stream_si64(d + i + 1, s[i + 1]);
		_mm_stream_si64(d + i + 2, s[i + 2]);
		_mm_stream_si64(d + i + 3, s[i + 3]);
		_mm_stream_si64(d + i + 4, s[i + 4]);
		_mm_stream_si64(d + i + 5, s[i + 5]);
		_mm_stream_si64(d + i + 6, s[i + 6]);
		_mm_stream_si64(d + i + 7, s[i + 7]);
	}
	_mm_sfence();
	return dst;
}
#endif

/*
 * bench() - copy @len bytes at a time, walking through @span bytes of
 * source and destination so that the footprint decides cache residency.
 */
static double bench(copy_fn copy, size_t len, size_t span, double min_s)
{
	unsigned char *src = aligned_alloc(4096, span);
	unsigned char *dst = aligned_alloc(4096, span);
	size_t off = 0, n = 0;
	double t0, t;

	if (!src || !dst) {
		fprintf(stderr, "bench-memcpy: out of memory\n");
		exit(1);
	}
	memset(src, 0x5a, span);
	memset(dst, 0xa5, span);
	t0 = now_s();
	do {
		for (int i = 0; i < 64; i++) {
			copy(dst + off, src + off, len);
			off += len;
			if (off + len > span)
				off = 0;
			n++;
		}
		t = now_s() - t0;
	} while (t < min_s);
	sink = dst[n % span];
	free(src);
	free(dst);
	return (double)n * len / t;
}

int main(void)
{
	const size_t mib = 1024 * 1024;
	struct {
		const char *what;
		copy_fn copy;
		size_t len, span;
	} cases[] = {
		{ "4 KiB copies, 256 KiB footprint (L2-hot)", memcpy, 4096, 256 * 1024 },
		{ "4 KiB copies, 256 MiB footprint (cold, page cache copy)", memcpy, 4096, 256 * mib },
		{ "1 MiB copies, 256 MiB footprint (large memcpy)", memcpy, mib, 256 * mib },
#if defined(__x86_64__)
		{ "1 MiB non-temporal copies, 256 MiB (PMEM bio copy)", copy_nontemporal, mib, 256 * mib },
#endif
	};

	printf("%-58s %10s %12s\n", "case", "MB/s", "ns/4KiB");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double best = 0;

		/* best of three: the machine is shared */
		for (int r = 0; r < 3; r++) {
			double bw = bench(cases[i].copy, cases[i].len, cases[i].span, 0.5);

			if (bw > best)
				best = bw;
		}
		printf("%-58s %10.0f %12.0f\n", cases[i].what, best / 1e6,
		       4096.0 / best * 1e9);
	}
	return 0;
}
