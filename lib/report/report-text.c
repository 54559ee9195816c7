/* SPDX-License-Identifier: MIT */
/*
 * report-text.c - fio's normal (human) output for a simulated run, then a
 * "wbsim:" section with what the model knows beyond fio.
 *
 * The fio part follows fio's layout line by line (stat.c, HOWTO
 * "Interpreting the output"): one block per entry (a job, or a group of
 * jobs with group_reporting), then "Run status group" lines, then "Disk
 * stats". The preamble is fio's (init.c add_job(), backend.c run_threads(),
 * filesetup.c setup_files()), with the simulator named after "fio-3.33".
 * The header's date is the fixed string "simulated". Left out: slat (not
 * measured by psync), per-priority lines and
 * steady-state lines. "lat" repeats clat: wbsim measures a write() call
 * from entry to return, which is both. CPU time is all counted as sys: a
 * buffered write spends its time in the kernel; ctx, majf and minf are not
 * modelled and print 0.
 *
 * Every floating-point number goes through g_ascii_formatd() so that the
 * text does not depend on the locale.
 */
#include <inttypes.h>
#include <math.h>
#include <glib.h>
#include "report/report.h"
#include "defs/fio.h"

#define PAGE_KIB 4	/* wbsim's page size, WBSIM_PAGE_SIZE, in KiB */

/* Append @v formatted with the printf-style @fmt ("%5.2f"), locale-free. */
static void add_d(GString *s, const char *fmt, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append(s, g_ascii_formatd(buf, sizeof(buf), fmt, v));
}

/* Append nanoseconds as milliseconds with 3 decimals: "12.345ms". */
static void add_ms(GString *s, wbsim_time_t ns)
{
	add_d(s, "%.3f", (double)ns / 1e6);
	g_string_append(s, "ms");
}

/*
 * fio's display_lat(): "    NAME (UNIT): min=, max=, avg=, stdev=" in
 * nsec, switching to usec or msec only when min, max and stdev are all
 * large enough.
 */
static void show_lat_line(GString *s, const char *name, const struct wbsim_lat_hist *h)
{
	uint64_t min = h->min, max = h->max;
	double mean = wbsim_lat_hist_mean(h), dev = wbsim_lat_hist_stddev(h);
	const char *unit = "(nsec)";
	g_autofree char *minp = NULL, *maxp = NULL;

	if (min > 2000000 && max > 99999999 && dev > 1000000.0) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1e6;
		dev /= 1e6;
		unit = "(msec)";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000;
		max /= 1000;
		mean /= 1e3;
		dev /= 1e3;
		unit = "(usec)";
	}
	minp = wbsim_num2str(min, 6, FALSE, WBSIM_N2S_NONE);
	maxp = wbsim_num2str(max, 6, FALSE, WBSIM_N2S_NONE);
	g_string_append_printf(s, "    %s %s: min=%s, max=%s, avg=", name, unit, minp, maxp);
	add_d(s, "%5.2f", mean);
	g_string_append(s, ", stdev=");
	add_d(s, "%5.2f", dev);
	g_string_append_c(s, '\n');
}

/*
 * fio's percentile block: the unit chosen from the smallest and largest
 * percentile values, values rounded up when scaled, as many entries per
 * line as fit in 80 columns.
 */
static void show_percentiles(GString *s, const char *pre, const struct wbsim_lat_hist *h)
{
	uint64_t ov[WBSIM_NR_PERCENTILES], minv = UINT64_MAX, maxv = 0, divisor;
	unsigned int scale, width, per_line;
	const char *unit;

	if (!h->n)
		return;
	for (unsigned int i = 0; i < WBSIM_NR_PERCENTILES; i++) {
		ov[i] = wbsim_lat_hist_percentile(h, wbsim_report_percentiles[i]);
		minv = MIN(minv, ov[i]);
		maxv = MAX(maxv, ov[i]);
	}
	if (minv > 2000000 && maxv > 99999999) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	} else {
		scale = 0;
		divisor = 1;
		unit = "nsec";
	}
	width = maxv / divisor ? (unsigned int)(log10((double)(maxv / divisor)) + 1) : 1;
	width = MAX(width, 5u);
	per_line = (80 - 7) / (2 + 10 + width);

	g_string_append_printf(s, "    %s percentiles (%s):\n     |", pre, unit);
	for (unsigned int j = 0; j < WBSIM_NR_PERCENTILES; j++) {
		gboolean last = j == WBSIM_NR_PERCENTILES - 1;
		uint64_t v = ov[j];

		if (j && j % per_line == 0)
			g_string_append(s, "     |");
		for (unsigned int k = 0; k < scale; k++)
			v = (v + 999) / 1000;
		g_string_append_c(s, ' ');
		add_d(s, "%5.2f", wbsim_report_percentiles[j]);
		g_string_append_printf(s, "th=[%*" PRIu64 "]%c", (int)width, v, last ? '\n' : ',');
		if (!last && j % per_line == per_line - 1)
			g_string_append_c(s, '\n');
	}
}

static void show_bw_iops(GString *s, const struct wbsim_report_ts *ts,
			 const struct wbsim_report_group *g)
{
	uint64_t min, max;
	double mean, dev;

	if (wbsim_rstat_calc(&ts->bw, &min, &max, &mean, &dev)) {
		double base = ts->kb_base == 1000 ? 1000.0 : 1024.0;
		const char *str = ts->kb_base == 1000 ? "kB" : "KiB";
		double per = wbsim_report_bw_per(g, mean);

		if (mean > base * base) {
			min = (uint64_t)(min / base);
			max = (uint64_t)(max / base);
			mean /= base;
			dev /= base;
			str = "MiB";
		}
		g_string_append_printf(s, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=",
				       str, min, max);
		add_d(s, "%3.2f", per);
		g_string_append(s, "%, avg=");
		add_d(s, "%5.2f", mean);
		g_string_append(s, ", stdev=");
		add_d(s, "%5.2f", dev);
		g_string_append_printf(s, ", samples=%" PRIu64 "\n", ts->bw.samples);
	}
	if (wbsim_rstat_calc(&ts->iops, &min, &max, &mean, &dev)) {
		g_string_append_printf(s, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=",
				       min, max);
		add_d(s, "%5.2f", mean);
		g_string_append(s, ", stdev=");
		add_d(s, "%5.2f", dev);
		g_string_append_printf(s, ", samples=%" PRIu64 "\n", ts->iops.samples);
	}
}

/* fio's show_lat(): the latency ranges with writes, five to a line. */
static void show_lat_ranges(GString *s, const double *pct, unsigned int nr, const char *unit)
{
	unsigned int on_line = 0;
	gboolean shown = FALSE;

	for (unsigned int i = 0; i < nr; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (on_line == 0 || on_line == 5) {
			if (shown)
				g_string_append_c(s, '\n');
			g_string_append_printf(s, "  lat (%s)   : ", unit);
			on_line = 0;
		} else {
			g_string_append(s, ", ");
		}
		shown = TRUE;
		g_string_append_printf(s, "%s=", wbsim_report_lat_labels[i]);
		add_d(s, "%3.2f", pct[i]);
		g_string_append_c(s, '%');
		on_line++;
	}
	if (shown)
		g_string_append_c(s, '\n');
}

static void show_dist_line(GString *s, const char *head, const char *const *labels,
			   const double *pct)
{
	g_string_append(s, head);
	for (unsigned int i = 0; i < WBSIM_FIO_IO_U_MAP_NR; i++) {
		g_string_append_printf(s, "%s%s=", i ? ", " : "", labels[i]);
		add_d(s, "%3.1f", pct[i]);
		g_string_append_c(s, '%');
	}
	g_string_append_c(s, '\n');
}

static void show_ts(GString *s, const struct wbsim_report_ts *ts,
		    const struct wbsim_report_group *g)
{
	static const char *const depth[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const submit[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	double sys = 0.0;

	if (!ts->io_bytes && !ts->total_ios)
		return;
	if (ts->error)
		g_string_append_printf(s, "%s: (groupid=%u, jobs=%u): err=%2d (func=io_u error, "
				       "error=%s): pid=%u: simulated\n", ts->first->name, ts->groupid,
				       ts->members, ts->error, g_strerror(ts->error), ts->first->pid);
	else
		g_string_append_printf(s, "%s: (groupid=%u, jobs=%u): err= 0: pid=%u: simulated\n",
				       ts->first->name, ts->groupid, ts->members, ts->first->pid);
	/* fio stat.c show_thread_status_normal(): the first job's description */
	if (ts->first->fio && ts->first->fio->description && *ts->first->fio->description)
		g_string_append_printf(s, "  Description  : [%.255s]\n", ts->first->fio->description);

	if (ts->io_bytes && ts->runtime_ms) {
		uint64_t bw = ts->io_bytes * 1000 / ts->runtime_ms;
		uint64_t iops = ts->total_ios * 1000 / ts->runtime_ms;
		gboolean i2p = ts->kb_base != 1000;
		g_autofree char *iops_p = wbsim_num2str(iops, 4, FALSE, WBSIM_N2S_NONE);
		g_autofree char *bw_p = wbsim_num2str(bw, 4, i2p, WBSIM_N2S_BYTEPERSEC);
		g_autofree char *bw_alt = wbsim_num2str(bw, 4, !i2p, WBSIM_N2S_BYTEPERSEC);
		g_autofree char *io_p = wbsim_num2str(ts->io_bytes, 4, i2p, WBSIM_N2S_BYTE);

		g_string_append_printf(s, "  write: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n",
				       iops_p, bw_p, bw_alt, io_p, ts->runtime_ms);
		if (ts->clat.n) {
			show_lat_line(s, "clat", &ts->clat);
			show_lat_line(s, " lat", &ts->clat);
			show_percentiles(s, "clat", &ts->clat);
		}
		show_bw_iops(s, ts, g);
	}

	show_lat_ranges(s, ts->lat_n, WBSIM_LAT_N_NR, "nsec");
	show_lat_ranges(s, ts->lat_u, WBSIM_LAT_U_NR, "usec");
	show_lat_ranges(s, ts->lat_m, WBSIM_LAT_M_NR, "msec");

	if (ts->sync_lat.n) {
		g_string_append(s, "  fsync/fdatasync/sync_file_range/syncfs:\n");
		show_lat_line(s, "sync", &ts->sync_lat);
		show_percentiles(s, "sync", &ts->sync_lat);
	}

	if (ts->total_run_ms)
		sys = (double)ts->cpu_ns / 1e6 * 100.0 / (double)ts->total_run_ms;
	g_string_append(s, "  cpu          : usr=0.00%, sys=");
	add_d(s, "%3.2f", sys);
	/* fio's ctx= (voluntary and involuntary switches, as getrusage()
	 * counts them) */
	g_string_append_printf(s, "%%, ctx=%" PRIu64 ", majf=0, minf=0\n", ts->ctx);

	/* fio's depth accounting (lib/fio/fio-io-u.c), as stat_calc_dist() shows it */
	show_dist_line(s, "  IO depths    : ", depth, ts->depth);
	show_dist_line(s, "     submit    : ", submit, ts->submit);
	show_dist_line(s, "     complete  : ", submit, ts->complete);
	/* fdatasyncs count as short reads, as fio 3.33 counts them
	 * (wbsim_report_ts.datasyncs) */
	g_string_append_printf(s, "     issued rwts: total=0,%" PRIu64 ",0,%" PRIu64
			       " short=%" PRIu64 ",0,0,0 dropped=0,0,0,0\n",
			       ts->total_ios, ts->sync_lat.n - ts->datasyncs, ts->datasyncs);
	g_string_append_printf(s, "     latency   : target=0.00ns, window=0.00ns, "
			       "percentile=100.00%%, depth=%u\n", ts->iodepth);
}

static void show_group(GString *s, const struct wbsim_report_group *g)
{
	g_autofree char *agg = NULL, *min = NULL, *max = NULL, *io = NULL;
	g_autofree char *agg_alt = NULL, *min_alt = NULL, *max_alt = NULL, *io_alt = NULL;
	gboolean i2p = g->kb_base != 1000;

	g_string_append_printf(s, "\nRun status group %u (all jobs):\n", g->groupid);
	if (!g->max_run)
		return;
	agg = wbsim_num2str(g->agg, 4, i2p, WBSIM_N2S_BYTEPERSEC);
	agg_alt = wbsim_num2str(g->agg, 4, !i2p, WBSIM_N2S_BYTEPERSEC);
	min = wbsim_num2str(g->min_bw, 4, i2p, WBSIM_N2S_BYTEPERSEC);
	min_alt = wbsim_num2str(g->min_bw, 4, !i2p, WBSIM_N2S_BYTEPERSEC);
	max = wbsim_num2str(g->max_bw, 4, i2p, WBSIM_N2S_BYTEPERSEC);
	max_alt = wbsim_num2str(g->max_bw, 4, !i2p, WBSIM_N2S_BYTEPERSEC);
	io = wbsim_num2str(g->iobytes, 4, i2p, WBSIM_N2S_BYTE);
	io_alt = wbsim_num2str(g->iobytes, 4, !i2p, WBSIM_N2S_BYTE);
	g_string_append_printf(s, "  WRITE: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), "
			       "run=%" PRIu64 "-%" PRIu64 "msec\n",
			       agg, agg_alt, min, max, min_alt, max_alt, io, io_alt,
			       g->min_run, g->max_run);
}

/* fio 3.33's "Disk stats" line (no sectors=: later fio's), from the simulated device's counters. */
static void show_disk(GString *s, const struct wbsim_run_result *r)
{
	const struct wbsim_blk_stats *d = &r->device_stats;
	double util = MIN(d->utilisation * 100.0, 100.0);
	uint64_t in_queue = (uint64_t)(d->avg_queued * ((double)d->elapsed_ns / 1e6));

	if (!d->elapsed_ns)
		return;
	g_string_append(s, "\nDisk stats (read/write):\n");
	g_string_append_printf(s, "  %s: ios=0/%" PRIu64
			       ", merge=0/%" PRIu64 ", ticks=0/%" PRIu64
			       ", in_queue=%" PRIu64 ", util=",
			       r->device ? r->device : "simdev", d->requests,
			       d->merges, d->total_latency_ns / 1000000, in_queue);
	add_d(s, "%3.2f", util);
	g_string_append(s, "%\n");
}

static void wbsim_section_jobs(GString *s, const struct wbsim_run_result *r)
{
	for (guint i = 0; i < r->jobs->len; i++) {
		const struct wbsim_job_result *j = r->jobs->pdata[i];

		g_string_append_printf(s, "  job %u (%s): pauses=%" PRIu64 ", paused=", i, j->name,
				       j->pauses);
		add_ms(s, j->paused_ns);
		g_string_append(s, ", max pause=");
		add_ms(s, j->max_pause_ns);
		g_string_append(s, ", cpu=");
		add_ms(s, j->cpu_ns);
		g_string_append(s, ", cpu wait=");
		add_ms(s, j->cpu_wait_ns);
		g_string_append(s, ", lock wait=");
		add_ms(s, j->lock_wait_ns);
		g_string_append_printf(s, ", invalidates=%" PRIu64 "\n", j->invalidates);
		if (j->uring_punts)
			g_string_append_printf(s, "    io_uring: %" PRIu64 " writes punted to io-wq "
					       "after -EAGAIN (%" PRIu64 " to update the timestamps), "
					       "%" PRIu64 " of them woke the idle worker\n",
					       j->uring_punts, j->uring_time_punts,
					       j->uring_worker_wakes);
		if (j->uring_threads) {
			g_string_append(s, "    io_uring threads: fio cpu=");
			add_ms(s, j->uring_fio_cpu_ns);
			g_string_append(s, j->uring_workers > 1 ? ", io-wq workers cpu="
							       : ", io-wq worker cpu=");
			add_ms(s, j->uring_worker_cpu_ns);
			if (j->uring_workers > 1)
				g_string_append_printf(s, " (%u workers; the free one woken %" PRIu64
						       " times for a write the file's hash kept from it)",
						       j->uring_workers, j->uring_spare_wakes);
			g_string_append(s, "\n");
		}
		/* paced jobs: how far behind fio's schedule a write was issued */
		if (j->fio && j->fio->rate[WBSIM_FIO_DDIR_WRITE]) {
			g_string_append(s, "    rate schedule: worst lag=");
			add_ms(s, j->max_lag_ns);
			g_string_append_c(s, '\n');
		}
		if (!j->pauses)
			continue;
		g_string_append(s, "    pause histogram:");
		for (unsigned int b = 0; b < WBSIM_PAUSE_BUCKETS; b++)
			g_string_append_printf(s, "%s %s=%" PRIu64, b ? "," : "",
					       wbsim_report_pause_labels[b], j->pause_hist[b]);
		g_string_append_c(s, '\n');
	}
}

static void wbsim_section_contexts(GString *s, const struct wbsim_run_result *r)
{
	for (guint i = 0; i < r->wbs->len; i++) {
		const struct wbsim_wb_result *w = r->wbs->pdata[i];

		g_string_append_printf(s, "  wb %u (%s): pages written=%" PRIu64
				       ", completed=%" PRIu64 ", avg_write_bandwidth=%" PRIu64
				       "KB/s, dirty_ratelimit=%" PRIu64 "KB/s, works=%" PRIu64
				       ", inode slices=%" PRIu64 "\n",
				       w->ctx, w->flusher ? w->flusher : "-", w->pages_written,
				       w->pages_completed, w->avg_write_bandwidth * PAGE_KIB,
				       w->dirty_ratelimit * PAGE_KIB, w->works, w->inode_slices);
		g_string_append_printf(s, "    flusher: pid=%u, cpu=", w->flusher_pid);
		add_ms(s, w->cpu_ns);
		g_string_append(s, ", cpu wait=");
		add_ms(s, w->cpu_wait_ns);
		g_string_append(s, ", lock wait=");
		add_ms(s, w->lock_wait_ns);
		if (w->irq_ns) {
			/* interrupts on its CPU (per-CPU completion vectors) */
			g_string_append(s, ", preempted by irq=");
			add_ms(s, w->irq_ns);
		}
		g_string_append_c(s, '\n');
	}
}

/* The writeback_start events by reason, the reasons that occurred. */
static void wbsim_section_writeback_starts(GString *s, const struct wbsim_run_result *r)
{
	unsigned int n = 0;

	g_string_append(s, "  writeback starts (writeback_start):");
	for (int i = 0; i < WB_REASON_MAX; i++)
		if (r->writeback_starts[i])
			g_string_append_printf(s, "%s %s=%" PRIu64, n++ ? "," : "",
					       wbsim_wb_reason_name((enum wbsim_wb_reason)i),
					       r->writeback_starts[i]);
	g_string_append(s, n ? "\n" : " none\n");
}

static void wbsim_section_cgroups(GString *s, const struct wbsim_run_result *r)
{
	g_string_append_printf(s, "cgroup writeback (dying_wb = %s): inode switches=%" PRIu64
			       ", skipped=%" PRIu64 ", bdi write bandwidth=%" PRIu64 "KB/s\n",
			       r->dying_wb_reachable ? "reachable" : "unreachable", r->isw_done,
			       r->isw_skipped, r->tot_write_bandwidth * PAGE_KIB);
	for (guint i = 0; i < r->cgwbs->len; i++) {
		const struct wbsim_cgwb_result *w = r->cgwbs->pdata[i];

		g_string_append_printf(s, "  wb ctx %u memcg %s (ino %lu)%s: dirty=%" PRIu64 ", writeback=%" PRIu64
				       ", bandwidth=%" PRIu64 "KB/s, pages written=%" PRIu64
				       ", switched in=%" PRIu64 ", out=%" PRIu64
				       ", foreign works=%" PRIu64 "\n",
				       w->ctx, w->memcg, w->cgroup_ino, w->dying ? " (dying)" : "", w->dirty,
				       w->writeback, w->avg_write_bandwidth * PAGE_KIB,
				       w->pages_written, w->switched_in, w->switched_out,
				       w->foreign_works);
	}
	for (guint i = 0; i < r->memcgs->len; i++) {
		const struct wbsim_memcg_result *m = r->memcgs->pdata[i];

		g_string_append_printf(s, "  memcg %s (ino %lu)%s: dirty=%" PRIu64 ", writeback=%" PRIu64
				       ", file=%" PRIu64 ", foreign flushes=%" PRIu64
				       ", failed=%" PRIu64 "\n",
				       m->path, m->ino, m->online ? "" : " (removed)", m->nr_file_dirty,
				       m->nr_writeback, m->nr_file, m->frn_flushes,
				       m->frn_flush_failures);
	}
}

static void wbsim_section_device(GString *s, const struct wbsim_run_result *r)
{
	const struct wbsim_blk_stats *d = &r->device_stats;

	g_string_append_printf(s, "  device %s: bytes=%" PRIu64 ", bios=%" PRIu64
			       ", requests=%" PRIu64 ", merges=%" PRIu64 ", queue depth avg=",
			       r->device ? r->device : "-", d->bytes, d->bios, d->requests,
			       d->merges);
	add_d(s, "%.2f", d->avg_queue_depth);
	g_string_append_printf(s, " max=%u, aqu-sz=", d->max_queue_depth);
	add_d(s, "%.2f", d->avg_queued);
	g_string_append(s, ", util=");
	add_d(s, "%.2f", d->utilisation * 100.0);
	g_string_append_printf(s, "%%, tag waits=%" PRIu64 " (", d->tag_waits);
	add_ms(s, d->tag_wait_ns);
	g_string_append(s, "), max latency=");
	add_ms(s, d->max_latency_ns);
	g_string_append_c(s, '\n');
	if (d->seeks || d->seek_ns || d->rotation_ns) {
		g_string_append_printf(s, "    seeks=%" PRIu64 ", seek time=", d->seeks);
		add_ms(s, d->seek_ns);
		g_string_append(s, ", rotation=");
		add_ms(s, d->rotation_ns);
		g_string_append_c(s, '\n');
	}
}

static void wbsim_section(GString *s, const struct wbsim_run_result *r, gboolean include_wall)
{
	g_autofree char *mem = wbsim_num2str(r->memory, 4, TRUE, WBSIM_N2S_BYTE);
	unsigned int nr_contended = 0;

	g_string_append(s, "\nwbsim: simulated writeback figures (not fio output)\n");
	g_string_append_printf(s, "  scenario: %s", r->scenario ? r->scenario : "-");
	if (r->description && *r->description) {
		g_string_append(s, ": ");
		/* one line: the description may span several */
		for (const char *p = r->description; *p; p++)
			g_string_append_c(s, *p == '\n' || *p == '\r' ? ' ' : *p);
	}
	g_string_append_c(s, '\n');
	g_string_append_printf(s, "  machine: cpus=%u, memory=%s, device=%s, fs=%s, "
			       "contexts=%u, affinity=%s\n",
			       r->cpus, mem, r->device ? r->device : "-",
			       r->fs_type ? r->fs_type : "-", r->nr_contexts,
			       r->affinity ? r->affinity : "-");
	g_string_append_printf(s, "  run: seed=%" PRIu64 ", simulated time=", r->seed);
	add_d(s, "%.6f", (double)r->sim_ns / 1e9);
	g_string_append_printf(s, "s, events=%" PRIu64, r->events);
	if (include_wall) {
		g_string_append(s, ", wall time=");
		add_d(s, "%.3f", r->wall_s);
		g_string_append_c(s, 's');
	}
	g_string_append_c(s, '\n');
	g_string_append_printf(s, "  pages: dirtied=%" PRIu64 ", written=%" PRIu64
			       ", bg_thresh=%" PRIu64 ", thresh=%" PRIu64 "\n",
			       r->nr_dirtied, r->nr_written, r->bg_thresh, r->thresh);

	g_string_append(s, "throttling (balance_dirty_pages) and CPU, per job:\n");
	wbsim_section_jobs(s, r);
	g_string_append(s, "writeback contexts:\n");
	wbsim_section_contexts(s, r);
	wbsim_section_writeback_starts(s, r);
	if (r->cgroups)
		wbsim_section_cgroups(s, r);
	g_string_append(s, "block device:\n");
	wbsim_section_device(s, r);

	g_string_append(s, "CPU time by task kind:");
	for (unsigned int k = 0; k < WBSIM_TASK_NR_KINDS; k++) {
		g_string_append_printf(s, "%s %s=", k ? "," : "", wbsim_report_task_kinds[k]);
		add_ms(s, r->cpu_by_kind[k]);
	}
	g_string_append_c(s, '\n');

	for (guint i = 0; i < r->locks->len; i++) {
		const struct wbsim_lock_result *l = r->locks->pdata[i];

		if (!l->contended && !l->wait_ns)
			continue;
		if (!nr_contended++)
			g_string_append(s, "lock contention:\n");
		g_string_append_printf(s, "  %s: acquisitions=%" PRIu64 ", contended=%" PRIu64
				       ", wait=", l->name, l->acquisitions, l->contended);
		add_ms(s, l->wait_ns);
		g_string_append(s, ", max wait=");
		add_ms(s, l->max_wait_ns);
		g_string_append(s, ", hold=");
		add_ms(s, l->hold_ns);
		g_string_append_c(s, '\n');
	}
	if (!nr_contended)
		g_string_append(s, "lock contention: none\n");

	if (r->extents->len)
		g_string_append(s, "extents:\n");
	for (guint i = 0; i < r->extents->len; i++) {
		const struct wbsim_extent_result *e = r->extents->pdata[i];

		double median = wbsim_extent_median_length(e);

		g_string_append_printf(s, "  [%s] %s (nextents=%" PRIu64 ", median length=",
				       e->moment, e->line ? e->line : e->path, e->nextents);
		/* a whole number of blocks, or one and a half */
		add_d(s, median == floor(median) ? "%.0f" : "%.1f", median);
		g_string_append_printf(s, " block%s)\n", median == 1 ? "" : "s");
	}

	if (r->ctx_changes)
		g_string_append_printf(s, "writeback context changes: %u, taking %.3fms in total, "
				       "writers blocked %.3fms in total\n", r->ctx_changes,
				       r->ctx_change_ns / 1e6, r->writers_blocked_ns / 1e6);
	if (r->warnings->len)
		g_string_append(s, "warnings:\n");
	for (guint i = 0; i < r->warnings->len; i++)
		g_string_append_printf(s, "  %s\n", (const char *)r->warnings->pdata[i]);
}

/* fio num2str() of a block size: "4096B", "16.0KiB" */
static void add_bs(GString *s, uint64_t bs, const struct wbsim_fio_job *fio)
{
	g_autofree char *t = wbsim_num2str(bs, 4, fio->kb_base != 1000, WBSIM_N2S_BYTE);

	g_string_append(s, t);
}

/* fio's lines before the jobs run: each job (clones as "..."), the
 * version, the number of processes and threads, the files laid out */
static void show_preamble(GString *s, const struct wbsim_run_result *r)
{
	static const char *const dir[] = { "R", "W", "T" };
	unsigned int threads = 0, procs = 0;

	for (guint i = 0; i < r->jobs->len; i++) {
		const struct wbsim_job_result *j = r->jobs->pdata[i];
		const struct wbsim_fio_job *fio = j->fio;

		if (!fio)
			continue;
		if (fio->thread)
			threads++;
		else
			procs++;
		if (fio->clone == 1)
			g_string_append(s, "...\n");
		if (fio->clone)
			continue;
		g_string_append_printf(s, "%s: (g=%u): rw=%s, bs=", fio->name, fio->group_id,
				       wbsim_fio_rw_name(fio->rw));
		for (int d = 0; d < WBSIM_FIO_DDIR_NR; d++) {
			g_string_append_printf(s, "%s(%s) ", d ? ", " : "", dir[d]);
			add_bs(s, fio->bsrange_min[d] ? fio->bsrange_min[d] : fio->bs[d], fio);
			g_string_append_c(s, '-');
			add_bs(s, fio->bsrange_max[d] ? fio->bsrange_max[d] : fio->bs[d], fio);
		}
		g_string_append_printf(s, ", ioengine=%s, iodepth=%u\n", fio->ioengine, fio->iodepth);
	}
	if (!threads && !procs)
		return;
	g_string_append(s, WBSIM_FIO_VERSION_STRING "\nStarting ");
	if (threads)
		g_string_append_printf(s, "%u thread%s", threads, threads > 1 ? "s" : "");
	if (threads && procs)
		g_string_append(s, " and ");
	if (procs)
		g_string_append_printf(s, "%u process%s", procs, procs > 1 ? "es" : "");
	g_string_append_c(s, '\n');
	for (guint i = 0; i < r->jobs->len; i++) {
		const struct wbsim_job_result *j = r->jobs->pdata[i];
		unsigned int n = j->laid_out_files;

		if (n)
			g_string_append_printf(s, "%s: Laying out IO file%s (%u file%s / %s%" PRIu64 "MiB)\n",
					       j->name, n > 1 ? "s" : "", n, n > 1 ? "s" : "",
					       n > 1 ? "total " : "", j->laid_out_bytes >> 20);
	}
	/* fio's blank line before the jobs' reports */
	g_string_append_c(s, '\n');
}

/**
 * wbsim_report_text() - fio's normal output, then the wbsim section
 * @r: the run
 * @include_wall: print the wall-clock time (FALSE for byte-identical output)
 *
 * Return: the text, to free with g_string_free().
 */
GString *wbsim_report_text(const struct wbsim_run_result *r, gboolean include_wall)
{
	struct wbsim_report_stats *st = wbsim_report_stats_new(r);
	GString *s = g_string_new(NULL);
	unsigned int max_group = 0;

	show_preamble(s, r);
	for (guint i = 0; i < st->ts->len; i++) {
		const struct wbsim_report_ts *ts = st->ts->pdata[i];

		show_ts(s, ts, wbsim_report_stats_group(st, ts->groupid));
	}
	/* fio prints every group from 0 to the highest */
	for (guint i = 0; i < st->groups->len; i++)
		max_group = MAX(max_group, ((struct wbsim_report_group *)st->groups->pdata[i])->groupid);
	for (unsigned int gid = 0; st->groups->len && gid <= max_group; gid++) {
		const struct wbsim_report_group *g = wbsim_report_stats_group(st, gid);
		struct wbsim_report_group empty = { .groupid = gid };

		show_group(s, g ? g : &empty);
	}
	show_disk(s, r);
	wbsim_section(s, r, include_wall);
	wbsim_report_stats_free(st);
	return s;
}
