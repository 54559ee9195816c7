// SPDX-License-Identifier: MIT
/*
 * lab/e8-small-writes: the program of experiment E8, run on the real kernel
 * by lab/run-kernel (a scenario's [scenario] lab_program).
 *
 * E8 (/work/shared/workloads/README.md): "A program writes 2 GiB, 256 MiB at
 * a time, then starts 15 threads that each do 50,000 writes of 50 bytes."
 *
 *   1. One file is written from offset 0 to --size with write() calls of
 *      --chunk bytes (2 GiB in 256 MiB calls), no fsync, no fadvise
 *      (--large write, E8). Issue 36's variants take one cause away each:
 *      --large write-sync fsyncs it after (the small writes find it cached
 *      and clean), --large fallocate preallocates it and writes nothing
 *      (no folio in the cache); --chunk 4k gives it 4 KiB folios.
 *   2. Then --threads threads start together (a barrier), each with its own
 *      descriptor of the SAME file, and each does --writes pwrite() calls of
 *      --bs bytes at uniformly random offsets that are multiples of --bs
 *      below --size (fio's randwrite with blockalign = bs and norandommap,
 *      which is how the scenario's fio jobs describe this program to the
 *      simulator).
 *
 * Why one shared file at random offsets: the experiment reports how the
 * small writes fare when "a dirtied large folio is accounted as wholly
 * dirty" against "only the blocks actually dirtied". That difference exists
 * only if the small writes land in the large folios the 2 GiB write made,
 * after writeback has cleaned some of them; threads appending to files of
 * their own would dirty a few fresh folios each and show no difference.
 * Spread over the whole file, nearly every small write that finds a clean
 * folio re-dirties a whole 2 MiB folio under whole-folio accounting.
 *
 * Output (stdout, one JSON object): the large write's bytes and seconds,
 * each thread's seconds from the barrier to its last write, its CPU time
 * and context switches over its writes (getrusage(RUSAGE_THREAD)) and its
 * time runnable but waiting for a CPU (run_delay, /proc/thread-self/schedstat;
 * -1 without it: its seconds less its CPU less that were asleep), the
 * small phase's seconds from the barrier to the last thread's end, and the
 * pages dirtied and written meanwhile (/proc/vmstat, machine-wide), and the
 * write requests and bytes the file's block device received meanwhile
 * (/sys/dev/block/MAJ:MIN/stat: what writeback sent, whatever the page
 * cache's accounting counts; -1 where the file is on no block device). Times are
 * CLOCK_MONOTONIC. Each thread's random generator is seeded with --seed and
 * its index, so a run repeats the same offsets.
 *
 * Build: cc -O2 -pthread -o e8-small-writes e8-small-writes.c
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What the file holds before the small writes (--large). */
enum large_mode {
	LARGE_WRITE,		/* written in --chunk writes, left dirty (E8) */
	LARGE_WRITE_SYNC,	/* written, then fsync(): cached and clean */
	LARGE_FALLOCATE,	/* preallocated with fallocate(), never written */
};

static const char *const large_mode_names[] = { "write", "write-sync", "fallocate" };

struct options {
	const char *file;
	enum large_mode large;
	uint64_t size;
	uint64_t chunk;
	unsigned int threads;
	uint64_t writes;
	uint64_t bs;
	uint64_t seed;
};

struct thread {
	pthread_t id;
	unsigned int index;
	const struct options *opt;
	pthread_barrier_t *start;
	double t0;
	double seconds;
	uint64_t bytes;
	int error;
	/* the thread's own CPU time and context switches over its writes
	 * (getrusage(RUSAGE_THREAD) after the barrier and after the last write) */
	double cpu_s;
	long nvcsw, nivcsw;
	double run_delay_s;	/* runnable, waiting for a CPU; -1: unknown */
};

/* The calling thread's run_delay (the scheduler's time it spent on a run
 * queue waiting for a CPU) in seconds, or -1 without schedstat. */
static double thread_run_delay_s(void)
{
	unsigned long long oncpu, delay;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", &oncpu, &delay);
	fclose(f);
	return n == 2 ? delay / 1e9 : -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "e8-small-writes: %s%s%s\n", msg, arg ? ": " : "",
		arg ? arg : "");
	fprintf(stderr,
		"usage: e8-small-writes [--size 2g] [--chunk 256m] [--threads 15]\n"
		"       [--writes 50000] [--bs 50] [--seed 1]\n"
		"       [--large write|write-sync|fallocate] FILE\n");
	exit(2);
}

/* A size with an optional k, m or g suffix (powers of 1024). */
static uint64_t parse_size(const char *name, const char *text)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text)
		usage_error(name, "expected a size such as 50, 256m or 2g");
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end || v == 0)
		usage_error(name, "expected a positive size such as 50, 256m or 2g");
	return v;
}

/* splitmix64: a small, well-mixed generator, one state per thread */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int write_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

static double rusage_cpu_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

/* One counter of /proc/vmstat (nr_dirtied, nr_written), or -1. */
static long long vmstat_counter(const char *name)
{
	char key[64];
	long long v;
	FILE *f = fopen("/proc/vmstat", "r");
	long long found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2) {
		if (!strcmp(key, name)) {
			found = v;
			break;
		}
	}
	fclose(f);
	return found;
}

/* The write requests and 512-byte sectors the block device @dev has
 * received (Documentation/block/stat.rst fields 5 and 7), or -1s. */
static void device_writes(dev_t dev, long long *ios, long long *sectors)
{
	char path[64];
	unsigned long long f[7];
	FILE *fp;

	*ios = *sectors = -1;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", major(dev), minor(dev));
	fp = fopen(path, "r");
	if (!fp)
		return;
	if (fscanf(fp, "%llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3],
		   &f[4], &f[5], &f[6]) == 7) {
		*ios = (long long)f[4];
		*sectors = (long long)f[6];
	}
	fclose(fp);
}

static void *small_writer(void *arg)
{
	struct thread *t = arg;
	const struct options *o = t->opt;
	uint64_t slots = o->size / o->bs;
	uint64_t state = o->seed * 1000003ULL + t->index;
	char buf[4096];
	int fd;

	memset(buf, 'a' + (int)(t->index % 26), sizeof(buf));
	fd = open(o->file, O_WRONLY);
	if (fd < 0)
		t->error = errno;
	struct rusage ru0, ru1;
	double delay0;

	pthread_barrier_wait(t->start);
	if (fd < 0)
		return NULL;
	getrusage(RUSAGE_THREAD, &ru0);
	delay0 = thread_run_delay_s();
	for (uint64_t i = 0; i < o->writes; i++) {
		off_t off = (off_t)((next_random(&state) % slots) * o->bs);
		int err = write_all(fd, buf, o->bs, off);

		if (err) {
			t->error = -err;
			break;
		}
		t->bytes += o->bs;
	}
	t->seconds = now() - t->t0;
	getrusage(RUSAGE_THREAD, &ru1);
	t->run_delay_s = delay0 < 0 ? -1 : thread_run_delay_s() - delay0;
	t->cpu_s = rusage_cpu_s(&ru1) - rusage_cpu_s(&ru0);
	t->nvcsw = ru1.ru_nvcsw - ru0.ru_nvcsw;
	t->nivcsw = ru1.ru_nivcsw - ru0.ru_nivcsw;
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "writes", required_argument, NULL, 'w' },
		{ "bs", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 'r' },
		{ "large", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { NULL, LARGE_WRITE, 2ULL << 30, 256ULL << 20, 15, 50000, 50, 1 };
	struct thread *threads;
	pthread_barrier_t start;
	double t_large, large_s, t_small, small_s;
	long long dirtied0, written0, dirtied1, written1;
	long long ios0 = -1, sectors0 = -1, ios1 = -1, sectors1 = -1;
	struct stat st;
	char *buf;
	int fd, c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.size = parse_size("--size", optarg); break;
		case 'c': o.chunk = parse_size("--chunk", optarg); break;
		case 't': o.threads = (unsigned int)parse_size("--threads", optarg); break;
		case 'w': o.writes = parse_size("--writes", optarg); break;
		case 'b': o.bs = parse_size("--bs", optarg); break;
		case 'r': o.seed = parse_size("--seed", optarg); break;
		case 'l':
			if (!strcmp(optarg, "write"))
				o.large = LARGE_WRITE;
			else if (!strcmp(optarg, "write-sync"))
				o.large = LARGE_WRITE_SYNC;
			else if (!strcmp(optarg, "fallocate"))
				o.large = LARGE_FALLOCATE;
			else
				usage_error("--large: expected write, write-sync or fallocate", optarg);
			break;
		default: usage_error("unknown option", NULL);
		}
	}
	if (optind != argc - 1)
		usage_error("expected one FILE", NULL);
	o.file = argv[optind];
	if (o.bs > 4096 || o.bs > o.size)
		usage_error("--bs", "at most 4096 and at most --size");
	if (o.threads > 1024)
		usage_error("--threads", "at most 1024");

	/* 1. the large write */
	buf = malloc(o.chunk);
	if (!buf) {
		fprintf(stderr, "e8-small-writes: no memory for a %" PRIu64 "-byte buffer\n",
			o.chunk);
		return 1;
	}
	memset(buf, 'x', o.chunk);	/* touched before the clock starts */
	fd = open(o.file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "e8-small-writes: %s: %s\n", o.file, strerror(errno));
		return 1;
	}
	t_large = now();
	if (o.large == LARGE_FALLOCATE) {
		int err = posix_fallocate(fd, 0, (off_t)o.size);

		if (err) {
			fprintf(stderr, "e8-small-writes: %s: fallocate: %s\n", o.file,
				strerror(err));
			return 1;
		}
	}
	for (uint64_t off = 0; o.large != LARGE_FALLOCATE && off < o.size; off += o.chunk) {
		uint64_t len = o.size - off < o.chunk ? o.size - off : o.chunk;
		int err = write_all(fd, buf, len, (off_t)off);

		if (err) {
			fprintf(stderr, "e8-small-writes: %s: write at %" PRIu64 ": %s\n",
				o.file, off, strerror(-err));
			return 1;
		}
	}
	if (o.large == LARGE_WRITE_SYNC && fsync(fd)) {
		fprintf(stderr, "e8-small-writes: %s: fsync: %s\n", o.file, strerror(errno));
		return 1;
	}
	large_s = now() - t_large;
	close(fd);
	free(buf);

	/* 2. the small writes, all threads released together */
	threads = calloc(o.threads, sizeof(*threads));
	if (!threads || pthread_barrier_init(&start, NULL, o.threads + 1)) {
		fprintf(stderr, "e8-small-writes: cannot set up %u threads\n", o.threads);
		return 1;
	}
	for (unsigned int i = 0; i < o.threads; i++) {
		threads[i].index = i;
		threads[i].opt = &o;
		threads[i].start = &start;
		if (pthread_create(&threads[i].id, NULL, small_writer, &threads[i])) {
			fprintf(stderr, "e8-small-writes: cannot start thread %u\n", i);
			return 1;
		}
	}
	if (stat(o.file, &st) == 0)
		device_writes(st.st_dev, &ios0, &sectors0);
	dirtied0 = vmstat_counter("nr_dirtied");
	written0 = vmstat_counter("nr_written");
	t_small = now();
	for (unsigned int i = 0; i < o.threads; i++)
		threads[i].t0 = t_small;
	pthread_barrier_wait(&start);
	for (unsigned int i = 0; i < o.threads; i++)
		pthread_join(threads[i].id, NULL);
	small_s = now() - t_small;
	dirtied1 = vmstat_counter("nr_dirtied");
	written1 = vmstat_counter("nr_written");
	if (ios0 >= 0)
		device_writes(st.st_dev, &ios1, &sectors1);

	for (unsigned int i = 0; i < o.threads; i++) {
		if (threads[i].error) {
			fprintf(stderr, "e8-small-writes: thread %u: %s: %s\n", i,
				o.file, strerror(threads[i].error));
			return 1;
		}
	}
	printf("{\"program\": \"e8-small-writes\", \"file\": \"%s\",\n", o.file);
	printf(" \"large\": {\"mode\": \"%s\", \"bytes\": %" PRIu64 ", \"chunk\": %" PRIu64
	       ", \"seconds\": %.6f},\n", large_mode_names[o.large],
	       o.large == LARGE_FALLOCATE ? 0 : o.size, o.chunk, large_s);
	printf(" \"small\": {\"threads\": %u, \"writes\": %" PRIu64 ", \"bs\": %" PRIu64
	       ", \"seconds\": %.6f,\n  \"thread_seconds\": [", o.threads, o.writes,
	       o.bs, small_s);
	for (unsigned int i = 0; i < o.threads; i++)
		printf("%s%.6f", i ? ", " : "", threads[i].seconds);
	printf("],\n  \"thread_bytes\": [");
	for (unsigned int i = 0; i < o.threads; i++)
		printf("%s%" PRIu64, i ? ", " : "", threads[i].bytes);
	printf("],\n  \"thread_cpu_s\": [");
	for (unsigned int i = 0; i < o.threads; i++)
		printf("%s%.6f", i ? ", " : "", threads[i].cpu_s);
	printf("],\n  \"thread_nvcsw\": [");
	for (unsigned int i = 0; i < o.threads; i++)
		printf("%s%ld", i ? ", " : "", threads[i].nvcsw);
	printf("],\n  \"thread_nivcsw\": [");
	for (unsigned int i = 0; i < o.threads; i++)
		printf("%s%ld", i ? ", " : "", threads[i].nivcsw);
	printf("],\n  \"thread_run_delay_s\": [");
	for (unsigned int i = 0; i < o.threads; i++)
		printf("%s%.6f", i ? ", " : "", threads[i].run_delay_s);
	printf("],\n  \"pages_dirtied\": %lld, \"pages_written\": %lld,\n",
	       dirtied0 < 0 || dirtied1 < 0 ? -1 : dirtied1 - dirtied0,
	       written0 < 0 || written1 < 0 ? -1 : written1 - written0);
	printf("  \"device_write_ios\": %lld, \"device_write_bytes\": %lld}}\n",
	       ios0 < 0 || ios1 < 0 ? -1 : ios1 - ios0,
	       sectors0 < 0 || sectors1 < 0 ? -1 : (sectors1 - sectors0) * 512);
	free(threads);
	return 0;
}
