/* SPDX-License-Identifier: MIT */
/*
 * path-probe - how fast this host runs the kernel's buffered write path
 * now: lab/run-kernel runs it before and after each run, beside the copy
 * probe, because the host is a VM whose speed moves in phases that the
 * copy probe does not always see (2026-12-07: the same calibration
 * workload ran at 417 and 503 MiB/s a quarter of an hour apart, 735 the
 * evening before, with the copy probe within 7%; the kernel's page
 * allocation, writeback and io-wq hand-offs were slower, the copy not).
 *
 * On a tmpfs file (no filesystem, no device: the page cache alone) it
 * times, on one CPU, 4 KiB pwrite()s at shuffled offsets over 64 MiB into
 * pages not cached (allocation, memcg charge, LRU add, copy: shmem's
 * write_begin), the same writes again into the now cached pages, the
 * truncation that frees them, and getppid() (a system call's entry and
 * exit alone). Each figure is the best of five rounds (the least
 * disturbed), in ns a write, a page or a call; the output is one JSON
 * object.
 *
 * Wall-clock time is measured here on purpose: this program reports the
 * host's speed; it never feeds a simulation directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define PAGES 16384	/* 64 MiB */
#define ROUNDS 5
#define CALLS 200000

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

static int write_pages(int fd, const uint32_t *order, const char *buf)
{
	for (int i = 0; i < PAGES; i++)
		if (pwrite(fd, buf, PAGE, (off_t)order[i] * PAGE) != PAGE)
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/dev/shm";
	static uint32_t order[PAGES];
	static char buf[PAGE];
	char path[4096];
	double fresh = 1e18, cached = 1e18, trunc = 1e18, call = 1e18;
	uint64_t x = 0x2545f4914f6cdd1dull;
	cpu_set_t one;
	int fd;

	if (argc > 2) {
		fprintf(stderr, "usage: path-probe [TMPFS_DIR]\n");
		return 2;
	}
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);	/* best effort: CPU 0 */
	snprintf(path, sizeof(path), "%s/wbsim-path-probe.%d", dir, (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		fprintf(stderr, "path-probe: %s: %s\n", path, strerror(errno));
		return 1;
	}
	unlink(path);
	memset(buf, 0x5a, sizeof(buf));
	for (uint32_t i = 0; i < PAGES; i++)
		order[i] = i;
	for (uint32_t i = PAGES - 1; i > 0; i--) {	/* Fisher-Yates, xorshift */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint32_t j = (uint32_t)(x % (i + 1)), t = order[i];

		order[i] = order[j], order[j] = t;
	}
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns(), t1, t2, t3;

		if (write_pages(fd, order, buf))
			goto fail;
		t1 = now_ns();
		if (write_pages(fd, order, buf))
			goto fail;
		t2 = now_ns();
		if (ftruncate(fd, 0))
			goto fail;
		t3 = now_ns();
		fresh = min_d(fresh, (t1 - t0) / PAGES);
		cached = min_d(cached, (t2 - t1) / PAGES);
		trunc = min_d(trunc, (t3 - t2) / PAGES);
	}
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();

		for (int i = 0; i < CALLS; i++)
			syscall(SYS_getppid);
		call = min_d(call, (now_ns() - t0) / CALLS);
	}
	close(fd);
	printf("{\"write_new_ns\": %.0f, \"write_cached_ns\": %.0f, \"truncate_page_ns\": %.0f, "
	       "\"syscall_ns\": %.0f}\n", fresh, cached, trunc, call);
	return 0;
fail:
	fprintf(stderr, "path-probe: %s: %s\n", path, strerror(errno));
	close(fd);
	return 1;
}
