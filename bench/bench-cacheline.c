/* SPDX-License-Identifier: MIT */
/*
 * bench-cacheline - what two CPUs pay to share memory on this machine
 * (issue 40): the cost of moving one written cache line from the CPU that
 * wrote it last to another CPU that writes it, and the round trip of a
 * wake-up between two threads on different CPUs against the same CPU.
 *
 *   bench-cacheline [CPU_A CPU_B]        (default 0 1)
 *
 * Line transfer: two threads pinned to CPU_A and CPU_B take turns; at its
 * turn a thread writes one word in each of N lines (64-byte aligned, each
 * last written by the other thread), then hands the turn over through a
 * flag line. A round costs 2 x (N line transfers + the flag's hand-off);
 * the time per line is the slope of the round time over N (N = 1 and 33),
 * so the hand-off cancels.
 * Wake-up: a futex ping-pong (each thread sleeps in FUTEX_WAIT until the
 * other wakes it): its round trip on two CPUs and on one.
 * Wake-up latency after idle: a thread on CPU_A sleeps in FUTEX_WAIT, its
 * CPU idle; one on CPU_B spins for D, reads the clock and wakes it; the
 * woken thread reads the clock when it runs again. The median of the
 * differences, for idle periods D from 0 to 20 ms: what a task woken onto
 * an idle CPU waits before it runs there (the wake-up IPI, the CPU's exit
 * from idle; on a virtual machine, the halted vCPU's return).
 * The waker's own cost of such a wake-up: the same rounds time the
 * waker's FUTEX_WAKE call, less the median of a FUTEX_WAKE that wakes
 * nobody (the system call and the futex hash lookup): try_to_wake_up()
 * with the IPI it sends to the idle CPU (on a virtual machine, the exit
 * the IPI's write to the APIC takes). What io_wq_enqueue() pays to wake
 * an idle io-wq worker, say.
 * The woken side's own cost: the sleeper's thread CPU time
 * (CLOCK_THREAD_CPUTIME_ID, the scheduler's sum_exec_runtime that
 * /proc/PID/schedstat reports) from its going to sleep to its running
 * again, less a pair of clock reads: its FUTEX_WAIT, the schedule() out and
 * the switch back in. What an io-wq worker woken for nothing pays before
 * it sleeps again.
 *
 * Each figure is the smallest of seven trials (the least disturbed by
 * other work: run it on an idle machine all the same). Wall-clock time is
 * measured here on purpose: this program reports the host's speed; it
 * never feeds a simulation directly.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LINE 64
#define MAX_LINES 33
#define TRIALS 7

struct line {
	_Alignas(LINE) volatile uint64_t word;
	char pad[LINE - sizeof(uint64_t)];
};

static struct line lines[MAX_LINES];
static _Alignas(LINE) atomic_int turn;
static _Alignas(LINE) atomic_int futex_word;

struct player {
	int cpu;
	int me;			/* 0 or 1: whose turn it is to write */
	unsigned int nr_lines;
	unsigned long rounds;
	int use_futex;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static long futex(atomic_int *addr, int op, int val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

static void *play(void *arg)
{
	struct player *p = arg;

	if (pin(p->cpu) != 0) {
		perror("bench-cacheline: sched_setaffinity");
		exit(2);
	}
	for (unsigned long r = 0; r < p->rounds; r++) {
		if (p->use_futex) {
			while (atomic_load(&futex_word) != p->me)
				futex(&futex_word, FUTEX_WAIT_PRIVATE, !p->me);
			atomic_store(&futex_word, !p->me);
			futex(&futex_word, FUTEX_WAKE_PRIVATE, 1);
			continue;
		}
		while (atomic_load_explicit(&turn, memory_order_acquire) != p->me)
			;
		for (unsigned int i = 0; i < p->nr_lines; i++)
			lines[i].word++;
		atomic_store_explicit(&turn, !p->me, memory_order_release);
	}
	return NULL;
}

/* Seconds per round of @rounds rounds between threads on @a and @b. */
static double rounds_s(int a, int b, unsigned int nr_lines, unsigned long rounds, int use_futex)
{
	struct player pa = { a, 0, nr_lines, rounds, use_futex };
	struct player pb = { b, 1, nr_lines, rounds, use_futex };
	pthread_t ta, tb;
	double t0, t1;

	atomic_store(&turn, 0);
	atomic_store(&futex_word, 0);
	t0 = now_s();
	if (pthread_create(&ta, NULL, play, &pa) != 0 || pthread_create(&tb, NULL, play, &pb) != 0) {
		fprintf(stderr, "bench-cacheline: cannot start threads\n");
		exit(2);
	}
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	t1 = now_s();
	return (t1 - t0) / rounds;
}

static atomic_int sleeper_word;
static _Alignas(LINE) atomic_llong woke_ns;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct sleeper {
	int cpu;
	int rounds;
	long long *latency;	/* per round: run again - woken */
	long long *cpu_ns;	/* per round: thread CPU from sleep to run again */
};

static long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *sleep_loop(void *arg)
{
	struct sleeper *s = arg;

	if (pin(s->cpu) != 0) {
		perror("bench-cacheline: sched_setaffinity");
		exit(2);
	}
	for (int r = 0; r < s->rounds; r++) {
		long long cpu0 = thread_cpu_ns();

		while (atomic_load(&sleeper_word) == 0)
			futex(&sleeper_word, FUTEX_WAIT_PRIVATE, 0);
		s->latency[r] = now_ns() - atomic_load(&woke_ns);
		s->cpu_ns[r] = thread_cpu_ns() - cpu0;
		atomic_store(&sleeper_word, 0);
	}
	return NULL;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Median ns from the wake-up of a thread sleeping on @a, idle for
 * @idle_ns, to its running again; the waker runs on @b. *@waker_ns: the
 * median of the waker's FUTEX_WAKE calls; *@wakee_ns: the median of the
 * sleeper's thread CPU per round. */
static long long wake_latency(int a, int b, long long idle_ns, int rounds, long long *waker_ns,
			      long long *wakee_ns)
{
	long long *lat = calloc((size_t)rounds, sizeof(*lat));
	long long *call = calloc((size_t)rounds, sizeof(*call));
	long long *cpu = calloc((size_t)rounds, sizeof(*cpu));
	struct sleeper s = { a, rounds, lat, cpu };
	pthread_t t;
	long long median;

	if (!lat || !call || !cpu || pin(b) != 0) {
		fprintf(stderr, "bench-cacheline: cannot set up the wake-up latency run\n");
		exit(2);
	}
	atomic_store(&sleeper_word, 0);
	if (pthread_create(&t, NULL, sleep_loop, &s) != 0) {
		fprintf(stderr, "bench-cacheline: cannot start a thread\n");
		exit(2);
	}
	for (int r = 0; r < rounds; r++) {
		long long until;

		/* the sleeper is back asleep (its word reset) before the idle
		 * period starts */
		while (atomic_load(&sleeper_word) != 0)
			;
		until = now_ns() + 20000 + idle_ns;	/* 20 us to reach FUTEX_WAIT */
		while (now_ns() < until)
			;
		atomic_store(&woke_ns, now_ns());
		atomic_store(&sleeper_word, 1);
		futex(&sleeper_word, FUTEX_WAKE_PRIVATE, 1);
		call[r] = now_ns() - atomic_load(&woke_ns);
	}
	pthread_join(t, NULL);
	qsort(lat, (size_t)rounds, sizeof(*lat), cmp_ll);
	qsort(call, (size_t)rounds, sizeof(*call), cmp_ll);
	qsort(cpu, (size_t)rounds, sizeof(*cpu), cmp_ll);
	median = lat[rounds / 2];
	*waker_ns = call[rounds / 2];
	*wakee_ns = cpu[rounds / 2];
	free(lat);
	free(call);
	free(cpu);
	return median;
}

/* Median ns of two back-to-back reads of the thread's CPU clock. */
static long long thread_clock_pair(int rounds)
{
	long long *d = calloc((size_t)rounds, sizeof(*d));
	long long median;

	if (!d) {
		fprintf(stderr, "bench-cacheline: out of memory\n");
		exit(2);
	}
	for (int r = 0; r < rounds; r++) {
		long long t0 = thread_cpu_ns();

		d[r] = thread_cpu_ns() - t0;
	}
	qsort(d, (size_t)rounds, sizeof(*d), cmp_ll);
	median = d[rounds / 2];
	free(d);
	return median;
}

/* Median ns of a FUTEX_WAKE that finds no waiter, on CPU @b. */
static long long futex_wake_nobody(int b, int rounds)
{
	static _Alignas(LINE) atomic_int nobody;
	long long *call = calloc((size_t)rounds, sizeof(*call));
	long long median;

	if (!call || pin(b) != 0) {
		fprintf(stderr, "bench-cacheline: cannot set up the empty wake-up run\n");
		exit(2);
	}
	for (int r = 0; r < rounds; r++) {
		long long t0 = now_ns();

		futex(&nobody, FUTEX_WAKE_PRIVATE, 1);
		call[r] = now_ns() - t0;
	}
	qsort(call, (size_t)rounds, sizeof(*call), cmp_ll);
	median = call[rounds / 2];
	free(call);
	return median;
}

static double best(int a, int b, unsigned int nr_lines, unsigned long rounds, int use_futex)
{
	double min = 1e9;

	for (int t = 0; t < TRIALS; t++) {
		double s = rounds_s(a, b, nr_lines, rounds, use_futex);

		if (s < min)
			min = s;
	}
	return min;
}

int main(int argc, char **argv)
{
	int a = 0, b = 1;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double r1, rn, transfer, wake2, wake1;

	if (argc == 3) {
		a = atoi(argv[1]);
		b = atoi(argv[2]);
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [CPU_A CPU_B]\n", argv[0]);
		return 2;
	}
	if (ncpu < 2 || a == b || a < 0 || b < 0 || a >= ncpu || b >= ncpu) {
		fprintf(stderr, "%s: needs two different online CPUs (this machine has %ld)\n",
			argv[0], ncpu);
		return 2;
	}
	r1 = best(a, b, 1, 200000, 0);
	rn = best(a, b, MAX_LINES, 100000, 0);
	transfer = (rn - r1) / (2.0 * (MAX_LINES - 1));
	wake2 = best(a, b, 0, 20000, 1);
	wake1 = best(a, a, 0, 20000, 1);
	printf("cacheline_transfer_ns %.1f\t(CPU %d <-> %d: round of 1 line %.1f ns, of %d lines %.1f ns; slope / 2)\n",
	       transfer * 1e9, a, b, r1 * 1e9, MAX_LINES, rn * 1e9);
	printf("handoff_ns %.1f\t(the flag line's hand-off each way: round of 1 line / 2 less one transfer)\n",
	       (r1 / 2.0 - transfer) * 1e9);
	printf("futex_wake_round_trip_ns %.0f\t(CPU %d <-> %d)\n", wake2 * 1e9, a, b);
	printf("futex_wake_round_trip_ns %.0f\t(both on CPU %d)\n", wake1 * 1e9, a);
	printf("remote_wakeup_extra_ns %.0f\t(per wake-up: (two CPUs - one CPU) / 2)\n",
	       (wake2 - wake1) / 2.0 * 1e9);
	{
		static const long long idle_us[] = { 0, 10, 50, 100, 120, 140, 160, 180, 200,
						     500, 1000, 5000, 20000 };

		long long nobody = futex_wake_nobody(b, 2000);
		long long clock_pair = thread_clock_pair(2000);

		printf("futex_wake_nobody_ns %lld\t(CPU %d: FUTEX_WAKE of a word nobody waits on, median of 2000)\n",
		       nobody, b);
		for (size_t i = 0; i < sizeof(idle_us) / sizeof(idle_us[0]); i++) {
			int rounds = idle_us[i] >= 5000 ? 40 : 200;
			long long waker, wakee, latency;

			/* the sleeper reaches FUTEX_WAIT within the first 20 us */
			latency = wake_latency(a, b, idle_us[i] * 1000, rounds, &waker, &wakee);
			printf("idle_wakeup_ns %lld\t(CPU %d idle %lld us, woken from CPU %d: median of %d)\n",
			       latency, a, idle_us[i] + 20, b, rounds);
			printf("wakeup_waker_ns %lld\t(CPU %d idle %lld us: the waker's FUTEX_WAKE on CPU %d, median of %d, less futex_wake_nobody_ns)\n",
			       waker - nobody, a, idle_us[i] + 20, b, rounds);
			printf("wakeup_wakee_ns %lld\t(CPU %d idle %lld us: the sleeper's thread CPU from FUTEX_WAIT to running again, median of %d, less a clock pair of %lld)\n",
			       wakee - clock_pair, a, idle_us[i] + 20, rounds, clock_pair);
		}
	}
	return 0;
}
