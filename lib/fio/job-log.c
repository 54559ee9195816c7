/* SPDX-License-Identifier: MIT */
/*
 * job-log.c - fio's per-job I/O logs (write_bw_log, write_lat_log,
 * write_iops_log) in fio 3.33's names and rows, so fio's own tools
 * (fio_generate_plots, fio2gnuplot, fiologparser.py) read them.
 *
 * A row is "time, value, direction, block size, priority" (fio iolog.c
 * flush_samples()), with an offset column before the priority under
 * log_offset=1: time in ms since the job's start, direction 1 (write),
 * priority 0 (I/O priorities are not modelled; 0x0000 with log_prio=1).
 *
 * Without log_avg_msec every completed write is a row: its latency in ns,
 * its bandwidth bytes * 10^6 / clat_ns (fio add_bw_sample()), or 1 for
 * IOPS, with its size and offset. With log_avg_msec a window's mean
 * (rounded) or maximum is a row when a write completes after the window
 * ended, and the last window at the job's end (fio add_log_sample(),
 * finalize_logs()); bandwidth and IOPS are sampled every bw_avg_time
 * (iops_avg_time) ms as fio's main thread does, in KiB/s and I/O per
 * second over that period (fio __add_samples()), and fio keeps no partial
 * last period of those two. A windowed row has block size and offset 0.
 *
 * What wbsim measures: a buffered write's latency is its write() call
 * (slat is not measured: the slat log stays empty, as fio's with a
 * synchronous engine, and lat equals clat), a direct write's is from its
 * issue to its completion.
 */
#include <string.h>

#include "fio/job-log.h"
#include <wbsim/sim.h>

/* fio stat.c: a non-inline window closes this many ms early (not Windows) */
#define LOG_MSEC_SLACK 1
/* fio's data direction of a write */
#define DDIR_WRITE 1
/* fio's default bwavgtime and iopsavgtime, ms */
#define AVG_TIME_DEFAULT_MS 500
/* the rows of a log are handed over in pieces of about this size */
#define LOG_BUF_BYTES 65536

static const char *const log_type_name[WBSIM_IO_LOG_NR] = {
	[WBSIM_IO_LOG_LAT] = "lat", [WBSIM_IO_LOG_SLAT] = "slat",
	[WBSIM_IO_LOG_CLAT] = "clat", [WBSIM_IO_LOG_BW] = "bw",
	[WBSIM_IO_LOG_IOPS] = "iops",
};

/* A latency log: a sample per I/O, even with a window (fio inline_log()). */
static bool inline_log(enum wbsim_io_log_type t)
{
	return t == WBSIM_IO_LOG_LAT || t == WBSIM_IO_LOG_SLAT || t == WBSIM_IO_LOG_CLAT;
}

/* fio init.c: the averaging period of a log; for bw and iops logs
 * min(log_avg_msec, bwavgtime) when bwavgtime is set */
static unsigned int log_avg_msec(const struct wbsim_fio_job *fio, enum wbsim_io_log_type t)
{
	unsigned int set = t == WBSIM_IO_LOG_BW ? fio->bwavgtime :
			   t == WBSIM_IO_LOG_IOPS ? fio->iopsavgtime : 0;

	return set ? MIN(fio->log_avg_msec, set) : fio->log_avg_msec;
}

uint64_t wbsim_job_logs_bw_window_ns(const struct wbsim_fio_job *fio)
{
	unsigned int ms = fio->bwavgtime ? fio->bwavgtime : AVG_TIME_DEFAULT_MS;

	/* fio: a bandwidth log without bwavgtime sets bw_avg_time to its
	 * window (0, a sample per I/O, is reported by the caller) */
	if (fio->write_bw_log && !fio->bwavgtime && fio->log_avg_msec)
		ms = fio->log_avg_msec;
	return (uint64_t)ms * WBSIM_NSEC_PER_MSEC;
}

static const char *log_prefix(const struct wbsim_fio_job *fio, enum wbsim_io_log_type t)
{
	const char *p = t == WBSIM_IO_LOG_BW ? fio->write_bw_log :
			t == WBSIM_IO_LOG_IOPS ? fio->write_iops_log : fio->write_lat_log;

	/* fio make_log_name(): the job's name when the option has no value */
	return p && *p ? p : fio->name;
}

static void log_flush(struct wbsim_job_logs *l, struct wbsim_io_log *g)
{
	if (g->buf->len) {
		l->fn(l->arg, g->name, g->buf->str, !l->fio->per_job_logs);
		g_string_truncate(g->buf, 0);
	}
}

/* per_job_logs=0: the rows so far wait in the spool (a failure is the
 * spool's error, which the run reports) */
static void log_spool(struct wbsim_job_logs *l, struct wbsim_io_log *g)
{
	wbsim_spool_append(l->spool, &g->held, g->buf->str, g->buf->len);
	g_string_truncate(g->buf, 0);
}

/* wbsim_spool_read_fn: spooled rows to the sink */
struct log_drain {
	struct wbsim_job_logs *l;
	struct wbsim_io_log *g;
};

static gboolean log_unspool(const void *data, size_t n, void *arg)
{
	struct log_drain *d = arg;

	(void)n;
	d->l->fn(d->l->arg, d->g->name, data, !d->l->fio->per_job_logs);
	return TRUE;
}

/* fio flush_samples(): one row */
static void log_row(struct wbsim_job_logs *l, struct wbsim_io_log *g, uint64_t ms,
		    uint64_t val, uint64_t bs, uint64_t offset)
{
	const struct wbsim_fio_job *fio = l->fio;

	g_string_append_printf(g->buf, "%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ", %u, %"
			       G_GUINT64_FORMAT, ms, val, DDIR_WRITE, bs);
	if (fio->log_offset)
		g_string_append_printf(g->buf, ", %" G_GUINT64_FORMAT, offset);
	g_string_append(g->buf, fio->log_prio ? ", 0x0000\n" : ", 0\n");
	if (g->buf->len < LOG_BUF_BYTES)
		return;
	if (!l->hold)
		log_flush(l, g);
	else if (l->spool)
		log_spool(l, g);
}

/* fio __add_stat_to_log(): the window's row, if it had samples */
static void log_window_row(struct wbsim_job_logs *l, struct wbsim_io_log *g, uint64_t ms)
{
	if (g->samples)
		log_row(l, g, ms, l->fio->log_max ? g->max : (uint64_t)(g->mean + 0.50), 0, 0);
	g->samples = 0;
	g->mean = 0;
	g->max = 0;
}

/* fio add_log_sample(): a row, or a sample of the window */
static void log_sample(struct wbsim_job_logs *l, enum wbsim_io_log_type t, uint64_t ms,
		       uint64_t val, uint64_t bs, uint64_t offset)
{
	struct wbsim_io_log *g = l->log[t];
	uint64_t this_window;

	if (!g)
		return;
	if (!g->avg_msec) {
		log_row(l, g, ms, val, bs, offset);
		return;
	}
	/* fio add_stat_sample(): Welford's running mean */
	g->samples++;
	g->mean += ((double)val - g->mean) / (double)g->samples;
	g->max = MAX(g->max, val);
	if (ms < g->avg_last)
		return;
	this_window = ms - g->avg_last;
	if (this_window < g->avg_msec &&
	    (inline_log(t) || g->avg_msec - this_window > LOG_MSEC_SLACK))
		return;
	log_window_row(l, g, ms);
	g->avg_last = ms - ms % g->avg_msec;
}

static uint64_t elapsed_ms(const struct wbsim_job_logs *l, uint64_t now_ns)
{
	return now_ns > l->epoch ? (now_ns - l->epoch) / WBSIM_NSEC_PER_MSEC : 0;
}

/*
 * fio __add_samples(): the bandwidth (KiB/s) or IOPS of each sampling
 * period that ended by @now_ns, @count bytes or writes done by then; a
 * period without I/O has no row.
 */
static void log_ticks(struct wbsim_job_logs *l, enum wbsim_io_log_type t, uint64_t now_ns,
		      uint64_t count)
{
	uint64_t spent_ms;

	if (!l->tick_ns[t])
		return;
	spent_ms = l->tick_ns[t] / WBSIM_NSEC_PER_MSEC;
	while (now_ns >= l->next_tick[t]) {
		uint64_t delta = count - l->tick_count[t];

		if (delta) {
			uint64_t rate = t == WBSIM_IO_LOG_BW ? delta * 1000 / spent_ms / 1024 :
							       delta * 1000 / spent_ms;

			log_sample(l, t, elapsed_ms(l, l->next_tick[t]), rate, 0, 0);
		}
		l->tick_count[t] = count;
		l->next_tick[t] += l->tick_ns[t];
	}
}

bool wbsim_job_logs_init(struct wbsim_job_logs *l, const struct wbsim_fio_job *fio,
			 unsigned int thread_number, wbsim_io_log_fn fn, void *arg)
{
	bool any = false;

	memset(l, 0, sizeof(*l));
	l->fio = fio;
	l->fn = fn;
	l->arg = arg;
	l->hold = !fio->per_job_logs;
	for (int t = 0; t < WBSIM_IO_LOG_NR; t++) {
		const char *opt = t == WBSIM_IO_LOG_BW ? fio->write_bw_log :
				  t == WBSIM_IO_LOG_IOPS ? fio->write_iops_log : fio->write_lat_log;
		struct wbsim_io_log *g;

		if (!opt)
			continue;
		g = g_new0(struct wbsim_io_log, 1);
		/* fio gen_log_name() */
		if (fio->per_job_logs)
			g->name = g_strdup_printf("%s_%s.%u.log", log_prefix(fio, t),
						  log_type_name[t], thread_number);
		else
			g->name = g_strdup_printf("%s_%s.log", log_prefix(fio, t), log_type_name[t]);
		g->avg_msec = log_avg_msec(fio, t);
		g->buf = g_string_new(NULL);
		if (!inline_log(t) && g->avg_msec)
			l->tick_ns[t] = (uint64_t)g->avg_msec * WBSIM_NSEC_PER_MSEC;
		l->log[t] = g;
		any = true;
	}
	return any;
}

int wbsim_job_logs_open(struct wbsim_job_logs *l, wbsim_io_log_open_fn open_fn,
			enum wbsim_io_log_type *refused)
{
	for (int t = 0; t < WBSIM_IO_LOG_NR; t++) {
		struct wbsim_io_log *g = l->log[t];
		int e;

		if (!g)
			continue;
		if (open_fn && (e = open_fn(l->arg, g->name, !l->fio->per_job_logs)) != 0) {
			*refused = (enum wbsim_io_log_type)t;
			return e;
		}
		l->fn(l->arg, g->name, NULL, !l->fio->per_job_logs);
	}
	return 0;
}

const char *wbsim_job_logs_option(enum wbsim_io_log_type t)
{
	return t == WBSIM_IO_LOG_BW ? "write_bw_log" :
	       t == WBSIM_IO_LOG_IOPS ? "write_iops_log" : "write_lat_log";
}

void wbsim_job_logs_start(struct wbsim_job_logs *l, uint64_t now_ns)
{
	l->epoch = now_ns;
	for (int t = 0; t < WBSIM_IO_LOG_NR; t++)
		l->next_tick[t] = now_ns + l->tick_ns[t];
}

void wbsim_job_logs_io(struct wbsim_job_logs *l, uint64_t now_ns, uint64_t lat_ns,
		       uint64_t bytes, uint64_t offset, uint64_t bytes_before,
		       uint64_t ios_before)
{
	uint64_t ms;

	if (!l->fn)
		return;
	ms = elapsed_ms(l, now_ns);
	log_ticks(l, WBSIM_IO_LOG_BW, now_ns, bytes_before);
	log_ticks(l, WBSIM_IO_LOG_IOPS, now_ns, ios_before);
	log_sample(l, WBSIM_IO_LOG_CLAT, ms, lat_ns, bytes, offset);
	log_sample(l, WBSIM_IO_LOG_LAT, ms, lat_ns, bytes, offset);
	if (!l->tick_ns[WBSIM_IO_LOG_BW])
		log_sample(l, WBSIM_IO_LOG_BW, ms, lat_ns ? bytes * 1000000 / lat_ns : 0, bytes,
			   offset);
	if (!l->tick_ns[WBSIM_IO_LOG_IOPS])
		log_sample(l, WBSIM_IO_LOG_IOPS, ms, 1, bytes, offset);
}

void wbsim_job_logs_finish(struct wbsim_job_logs *l, uint64_t now_ns, uint64_t bytes,
			   uint64_t ios)
{
	uint64_t ms = elapsed_ms(l, now_ns);

	if (!l->fn)
		return;
	log_ticks(l, WBSIM_IO_LOG_BW, now_ns, bytes);
	log_ticks(l, WBSIM_IO_LOG_IOPS, now_ns, ios);
	for (int t = 0; t < WBSIM_IO_LOG_NR; t++) {
		struct wbsim_io_log *g = l->log[t];

		if (!g)
			continue;
		/* fio finalize_logs(): a latency log's last window; a sampled
		 * bw/iops log's partial period is never sampled */
		if (g->avg_msec && !l->tick_ns[t])
			log_window_row(l, g, ms);
		if (g->held.first) {	/* the spooled rows first, then the rest */
			struct log_drain d = { l, g };

			wbsim_spool_drain(l->spool, &g->held, log_unspool, &d);
		}
		log_flush(l, g);
	}
	l->fn = NULL;	/* finished: a second call does nothing */
}

void wbsim_job_logs_clear(struct wbsim_job_logs *l)
{
	for (int t = 0; t < WBSIM_IO_LOG_NR; t++) {
		if (!l->log[t])
			continue;
		g_free(l->log[t]->name);
		g_string_free(l->log[t]->buf, TRUE);
		g_free(l->log[t]);
		l->log[t] = NULL;
	}
}
