/* SPDX-License-Identifier: MIT */
/*
 * report-json.c - fio's JSON output (--output-format=json) for a simulated
 * run, built with json-glib, plus a top-level "wbsim" object.
 *
 * Key order and units are fio's (stat.c show_thread_status_json,
 * add_ddir_status_json, add_ddir_lat_json): "fio version" (here
 * "fio-3.33 (wbsim <version>)": it starts with "fio-" and the version of
 * the fio whose output formats are written, Debian 12's fio 3.33, so a
 * parser that checks or splits fio's version string keeps working, and the
 * parenthesis marks simulated data), "timestamp"/"timestamp_ms" 0 and
 * "time" "simulated" (no wall clock),
 * "global options" (the job file's [global] options, as fio: only when
 * there are some), "jobs" (one entry per job, or per group of jobs with
 * group_reporting, as in the text report), "disk_util" for the simulated
 * device, then "wbsim" (the simulator's own figures, its "version" first).
 * Every key outside "wbsim" is one fio 3.33 writes for the same job, in its
 * order (tests/sim/test-sim-writeback.c test_json_keys_like_fio compares
 * them, with their types, with real fio runs of Debian's fio-examples and
 * of its own job files):
 * no "job_start", "latency_target_ns", "latency_window_us" or disk_util
 * "read_sectors"/"write_sectors", which only later fio versions write.
 * "read", "write" and "trim" are always present (read
 * and trim zero-filled: wbsim models writes), and "sync" carries the fsync
 * and fdatasync latencies, its "total_ios" only the fsyncs (fio 3.33's
 * count of fdatasyncs lands in "read"'s "short_ios": see
 * wbsim_report_ts.datasyncs). Percentiles appear, as in fio, only in latency objects with
 * samples; json+ adds fio's "bins" (bucket value in ns -> count) beside
 * them, what tools/fio_jsonplus_clat2csv reads. Latencies are in ns, bw in
 * KiB/s, runtime in ms.
 *
 * Differences from fio's printer that a JSON reader does not see: floats
 * are written by json-glib as "%.17g" (fio: "%f"), and a duplicate option
 * name is written once, at its first position with its last value.
 */
#include <json-glib/json-glib.h>
#include <wbsim/version.h>
#include "report/report.h"
#include "defs/fio.h"

/* "fio version": fio's prefix and the version of the formats written */

#define PAGE_KIB 4	/* wbsim's page size, WBSIM_PAGE_SIZE, in KiB */

static void set_int(JsonBuilder *b, const char *key, uint64_t v)
{
	json_builder_set_member_name(b, key);
	json_builder_add_int_value(b, (gint64)v);
}

static void set_dbl(JsonBuilder *b, const char *key, double v)
{
	json_builder_set_member_name(b, key);
	json_builder_add_double_value(b, v);
}

static void set_str(JsonBuilder *b, const char *key, const char *v)
{
	json_builder_set_member_name(b, key);
	json_builder_add_string_value(b, v ? v : "");
}

/*
 * An object of option name -> value as typed, as fio 3.33's
 * json_add_job_opts() writes it: none when no option was given; bare keys
 * (group_reporting, stonewall, time_based without "=") and empty values
 * are left out of it, as fio's JSON writer drops an empty string, so an
 * object of bare keys only is written empty.
 */
static void add_options(JsonBuilder *b, const char *key, const GPtrArray *opts)
{
	if (!opts || !opts->len)
		return;
	json_builder_set_member_name(b, key);
	json_builder_begin_object(b);
	for (guint i = 0; i < opts->len; i++) {
		const struct wbsim_fio_option *o = opts->pdata[i];

		/* json-glib keeps a repeated name at its first position */
		if (o->value && *o->value)
			set_str(b, o->name, o->value);
	}
	json_builder_end_object(b);
}

/*
 * fio's latency object: min, max, mean, stddev, N, and when asked and there
 * are samples, the percentiles and (json+) the non-empty buckets keyed by
 * the value each stands for.
 */
static void add_lat(JsonBuilder *b, const char *key, const struct wbsim_lat_hist *h,
		    gboolean percentiles, gboolean bins)
{
	static const struct wbsim_lat_hist empty;

	if (!h)
		h = &empty;
	json_builder_set_member_name(b, key);
	json_builder_begin_object(b);
	set_int(b, "min", h->n ? h->min : 0);
	set_int(b, "max", h->n ? h->max : 0);
	set_dbl(b, "mean", wbsim_lat_hist_mean(h));
	set_dbl(b, "stddev", wbsim_lat_hist_stddev(h));
	set_int(b, "N", h->n);
	if (percentiles && h->n) {
		json_builder_set_member_name(b, "percentile");
		json_builder_begin_object(b);
		for (unsigned int i = 0; i < WBSIM_NR_PERCENTILES; i++) {
			char name[G_ASCII_DTOSTR_BUF_SIZE];

			g_ascii_formatd(name, sizeof(name), "%f", wbsim_report_percentiles[i]);
			set_int(b, name, wbsim_lat_hist_percentile(h, wbsim_report_percentiles[i]));
		}
		json_builder_end_object(b);
	}
	if (percentiles && bins && h->n && h->bins) {
		json_builder_set_member_name(b, "bins");
		json_builder_begin_object(b);
		for (unsigned int i = 0; i < WBSIM_PLAT_NR; i++) {
			char name[24];

			if (!h->bins[i])
				continue;
			g_snprintf(name, sizeof(name), "%" G_GUINT64_FORMAT, wbsim_plat_idx_to_val(i));
			set_int(b, name, h->bins[i]);
		}
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

/* One direction; @ts NULL gives fio's zero-filled object. @short_ios is
 * fio's short count of the direction (see wbsim_report_ts.datasyncs). */
static void add_ddir(JsonBuilder *b, const char *key, const struct wbsim_report_ts *ts,
		     const struct wbsim_report_group *g, uint64_t short_ios, gboolean plus)
{
	static const struct wbsim_rstat none;
	const struct wbsim_rstat *bw = ts ? &ts->bw : &none, *iops = ts ? &ts->iops : &none;
	uint64_t io_bytes = ts ? ts->io_bytes : 0, runtime = ts ? ts->runtime_ms : 0;
	uint64_t total_ios = ts ? ts->total_ios : 0, bw_bytes = 0, min, max;
	double iops_v = 0.0, mean, dev, per;

	if (runtime) {
		bw_bytes = io_bytes * 1000 / runtime;
		iops_v = 1000.0 * (double)total_ios / (double)runtime;
	}
	json_builder_set_member_name(b, key);
	json_builder_begin_object(b);
	set_int(b, "io_bytes", io_bytes);
	set_int(b, "io_kbytes", io_bytes >> 10);
	set_int(b, "bw_bytes", bw_bytes);
	set_int(b, "bw", bw_bytes / 1024);
	set_dbl(b, "iops", iops_v);
	set_int(b, "runtime", runtime);
	set_int(b, "total_ios", total_ios);
	set_int(b, "short_ios", short_ios);
	set_int(b, "drop_ios", 0);
	add_lat(b, "slat_ns", NULL, FALSE, plus);
	add_lat(b, "clat_ns", ts ? &ts->clat : NULL, TRUE, plus);
	add_lat(b, "lat_ns", ts ? &ts->clat : NULL, FALSE, plus);

	if (wbsim_rstat_calc(bw, &min, &max, &mean, &dev)) {
		per = wbsim_report_bw_per(g, mean);
	} else {
		min = max = 0;
		per = mean = dev = 0.0;
	}
	set_int(b, "bw_min", min);
	set_int(b, "bw_max", max);
	set_dbl(b, "bw_agg", per);
	set_dbl(b, "bw_mean", mean);
	set_dbl(b, "bw_dev", dev);
	set_int(b, "bw_samples", bw->samples);

	if (!wbsim_rstat_calc(iops, &min, &max, &mean, &dev)) {
		min = max = 0;
		mean = dev = 0.0;
	}
	set_int(b, "iops_min", min);
	set_int(b, "iops_max", max);
	set_dbl(b, "iops_mean", mean);
	set_dbl(b, "iops_stddev", dev);
	set_int(b, "iops_samples", iops->samples);
	json_builder_end_object(b);
}

/* iodepth_level, or (@submit) iodepth_submit/_complete: fio's seven
 * buckets under fio's names (stat.c show_thread_status_json()) */
static void add_depths(JsonBuilder *b, const char *key, gboolean submit, const double *pct)
{
	static const char *const level[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const sub[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const char *const *names = submit ? sub : level;

	json_builder_set_member_name(b, key);
	json_builder_begin_object(b);
	for (unsigned int i = 0; i < WBSIM_FIO_IO_U_MAP_NR; i++)
		set_dbl(b, names[i], pct[i]);
	json_builder_end_object(b);
}

static void add_lat_ranges(JsonBuilder *b, const char *key, const double *pct, unsigned int nr)
{
	json_builder_set_member_name(b, key);
	json_builder_begin_object(b);
	for (unsigned int i = 0; i < nr; i++)
		set_dbl(b, wbsim_report_lat_labels[i], pct[i]);
	json_builder_end_object(b);
}

static void add_job(JsonBuilder *b, const struct wbsim_run_result *r,
		    const struct wbsim_report_ts *ts, const struct wbsim_report_group *g,
		    gboolean plus)
{
	double sys = 0.0;

	json_builder_begin_object(b);
	set_str(b, "jobname", ts->first->name);
	set_int(b, "groupid", ts->groupid);
	set_int(b, "error", ts->error);
	set_int(b, "eta", 0);
	/* elapsed: whole seconds of simulated time, rounded up */
	set_int(b, "elapsed", (r->sim_ns + 999999999) / 1000000000);
	if (ts->first->fio)
		add_options(b, "job options", ts->first->fio->options);

	add_ddir(b, "read", NULL, NULL, ts->datasyncs, plus);
	add_ddir(b, "write", ts, g, 0, plus);
	add_ddir(b, "trim", NULL, NULL, 0, plus);
	json_builder_set_member_name(b, "sync");
	json_builder_begin_object(b);
	/* fio's count of fsyncs; the latencies are of fdatasyncs too */
	set_int(b, "total_ios", ts->sync_lat.n - ts->datasyncs);
	add_lat(b, "lat_ns", &ts->sync_lat, TRUE, plus);
	json_builder_end_object(b);

	if (ts->total_run_ms)
		sys = (double)ts->cpu_ns / 1e6 * 100.0 / (double)ts->total_run_ms;
	set_int(b, "job_runtime", ts->total_run_ms);
	set_dbl(b, "usr_cpu", 0.0);
	set_dbl(b, "sys_cpu", sys);
	set_int(b, "ctx", ts->ctx);
	set_int(b, "majf", 0);
	set_int(b, "minf", 0);
	add_depths(b, "iodepth_level", FALSE, ts->depth);
	add_depths(b, "iodepth_submit", TRUE, ts->submit);
	add_depths(b, "iodepth_complete", TRUE, ts->complete);
	add_lat_ranges(b, "latency_ns", ts->lat_n, WBSIM_LAT_N_NR);
	add_lat_ranges(b, "latency_us", ts->lat_u, WBSIM_LAT_U_NR);
	add_lat_ranges(b, "latency_ms", ts->lat_m, WBSIM_LAT_M_NR);
	set_int(b, "latency_depth", ts->iodepth);
	set_int(b, "latency_target", 0);
	set_dbl(b, "latency_percentile", 100.0);
	set_int(b, "latency_window", 0);
	/* fio stat.c show_thread_status_json(): "desc" only when set */
	if (ts->first->fio && ts->first->fio->description && *ts->first->fio->description) {
		g_autofree char *desc = g_strndup(ts->first->fio->description, 255);

		set_str(b, "desc", desc);
	}
	json_builder_end_object(b);
}

static void add_disk_util(JsonBuilder *b, const struct wbsim_run_result *r)
{
	const struct wbsim_blk_stats *d = &r->device_stats;

	if (!d->elapsed_ns)
		return;
	json_builder_set_member_name(b, "disk_util");
	json_builder_begin_array(b);
	json_builder_begin_object(b);
	set_str(b, "name", r->device ? r->device : "simdev");
	set_int(b, "read_ios", 0);
	set_int(b, "write_ios", d->requests);
	set_int(b, "read_merges", 0);
	set_int(b, "write_merges", d->merges);
	set_int(b, "read_ticks", 0);
	set_int(b, "write_ticks", d->total_latency_ns / 1000000);
	set_int(b, "in_queue", (uint64_t)(d->avg_queued * ((double)d->elapsed_ns / 1e6)));
	set_dbl(b, "util", MIN(d->utilisation * 100.0, 100.0));
	json_builder_end_object(b);
	json_builder_end_array(b);
}

static void add_wbsim_jobs(JsonBuilder *b, const struct wbsim_run_result *r)
{
	json_builder_set_member_name(b, "jobs");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->jobs->len; i++) {
		const struct wbsim_job_result *j = r->jobs->pdata[i];

		json_builder_begin_object(b);
		set_str(b, "name", j->name);
		set_int(b, "pid", j->pid);
		set_int(b, "io_bytes", j->io_bytes);
		set_int(b, "total_ios", j->total_ios);
		set_int(b, "start_ns", j->start_ns);
		set_int(b, "runtime_ns", j->runtime_ns);
		set_int(b, "fsyncs", j->sync_lat.n);
		set_int(b, "pauses", j->pauses);
		set_int(b, "paused_ns", j->paused_ns);
		set_int(b, "max_pause_ns", j->max_pause_ns);
		json_builder_set_member_name(b, "pause_hist");
		json_builder_begin_object(b);
		for (unsigned int k = 0; k < WBSIM_PAUSE_BUCKETS; k++)
			set_int(b, wbsim_report_pause_labels[k], j->pause_hist[k]);
		json_builder_end_object(b);
		set_int(b, "cpu_ns", j->cpu_ns);
		set_int(b, "cpu_wait_ns", j->cpu_wait_ns);
		set_int(b, "lock_wait_ns", j->lock_wait_ns);
		set_int(b, "nvcsw", j->nvcsw);
		set_int(b, "nivcsw", j->nivcsw);
		set_int(b, "invalidates", j->invalidates);
		/* io_uring writes that failed inline with -EAGAIN (BDP_ASYNC,
		 * or the timestamps to update: uring_time_punts of them;
		 * uring_worker_wakes woke the idle io-wq worker) */
		if (j->uring_punts) {
			set_int(b, "uring_punts", j->uring_punts);
			set_int(b, "uring_time_punts", j->uring_time_punts);
			set_int(b, "uring_worker_wakes", j->uring_worker_wakes);
		}
		/* the two threads of an io_uring job, when the model runs two */
		if (j->uring_threads) {
			set_int(b, "uring_fio_cpu_ns", j->uring_fio_cpu_ns);
			set_int(b, "uring_worker_cpu_ns", j->uring_worker_cpu_ns);
			set_int(b, "uring_workers", j->uring_workers);
			set_int(b, "uring_spare_wakes", j->uring_spare_wakes);
		}
		set_int(b, "max_lag_ns", j->max_lag_ns);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void add_wbsim_contexts(JsonBuilder *b, const struct wbsim_run_result *r)
{
	json_builder_set_member_name(b, "contexts");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->wbs->len; i++) {
		const struct wbsim_wb_result *w = r->wbs->pdata[i];

		json_builder_begin_object(b);
		set_int(b, "ctx", w->ctx);
		set_str(b, "flusher", w->flusher);
		set_int(b, "flusher_pid", w->flusher_pid);
		set_int(b, "pages_written", w->pages_written);
		set_int(b, "pages_completed", w->pages_completed);
		set_int(b, "avg_write_bandwidth_kib_s", w->avg_write_bandwidth * PAGE_KIB);
		set_int(b, "dirty_ratelimit_kib_s", w->dirty_ratelimit * PAGE_KIB);
		set_int(b, "works", w->works);
		set_int(b, "inode_slices", w->inode_slices);
		set_int(b, "cpu_ns", w->cpu_ns);
		set_int(b, "cpu_wait_ns", w->cpu_wait_ns);
		set_int(b, "lock_wait_ns", w->lock_wait_ns);
		if (w->irq_ns)
			set_int(b, "irq_ns", w->irq_ns);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

/* "writeback_starts": the writeback_start events by reason, every reason
 * the kernel names, in its order (WB_WORK_REASON) */
static void add_wbsim_writeback_starts(JsonBuilder *b, const struct wbsim_run_result *r)
{
	json_builder_set_member_name(b, "writeback_starts");
	json_builder_begin_object(b);
	for (int i = 0; i < WB_REASON_MAX; i++)
		set_int(b, wbsim_wb_reason_name((enum wbsim_wb_reason)i), r->writeback_starts[i]);
	json_builder_end_object(b);
}

/* an extents entry's lengths: "median_length", "length_log2_histogram"
 * (bucket 2^k .. 2^(k+1) - 1 under the key 2^k, from 1 to the last
 * bucket in use) and "lengths" (length: records, by increasing length),
 * in filesystem blocks */
static void add_extent_lengths(JsonBuilder *b, const struct wbsim_extent_result *e)
{
	uint64_t hist[64];
	unsigned int used = wbsim_extent_log2_histogram(e, hist);
	char key[24];

	set_dbl(b, "median_length", wbsim_extent_median_length(e));
	json_builder_set_member_name(b, "length_log2_histogram");
	json_builder_begin_object(b);
	for (unsigned int k = 0; k < used; k++) {
		g_snprintf(key, sizeof(key), "%" G_GUINT64_FORMAT, (guint64)1 << k);
		set_int(b, key, hist[k]);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "lengths");
	json_builder_begin_object(b);
	for (guint i = 0; e->lengths && i < e->lengths->len; i++) {
		const struct wbsim_extent_length *l =
			&g_array_index(e->lengths, struct wbsim_extent_length, i);

		g_snprintf(key, sizeof(key), "%" G_GUINT64_FORMAT, l->blocks);
		set_int(b, key, l->count);
	}
	json_builder_end_object(b);
}

/* "cgroup_writeback": every wb (dying ones too), every memcg, switches. */
static void add_wbsim_cgroups(JsonBuilder *b, const struct wbsim_run_result *r)
{
	json_builder_set_member_name(b, "cgroup_writeback");
	json_builder_begin_object(b);
	set_str(b, "dying_wb", r->dying_wb_reachable ? "reachable" : "unreachable");
	set_int(b, "inode_switches", r->isw_done);
	set_int(b, "inode_switches_skipped", r->isw_skipped);
	set_int(b, "tot_write_bandwidth_kib_s", r->tot_write_bandwidth * PAGE_KIB);
	json_builder_set_member_name(b, "wbs");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->cgwbs->len; i++) {
		const struct wbsim_cgwb_result *w = r->cgwbs->pdata[i];

		json_builder_begin_object(b);
		set_int(b, "ctx", w->ctx);
		set_str(b, "memcg", w->memcg);
		set_int(b, "cgroup_ino", w->cgroup_ino);
		json_builder_set_member_name(b, "dying");
		json_builder_add_boolean_value(b, w->dying);
		set_int(b, "dirty", w->dirty);
		set_int(b, "writeback", w->writeback);
		set_int(b, "avg_write_bandwidth_kib_s", w->avg_write_bandwidth * PAGE_KIB);
		set_int(b, "pages_written", w->pages_written);
		set_int(b, "switched_in", w->switched_in);
		set_int(b, "switched_out", w->switched_out);
		set_int(b, "foreign_works", w->foreign_works);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "memcgs");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->memcgs->len; i++) {
		const struct wbsim_memcg_result *m = r->memcgs->pdata[i];

		json_builder_begin_object(b);
		set_str(b, "path", m->path);
		set_int(b, "cgroup_ino", m->ino);
		json_builder_set_member_name(b, "online");
		json_builder_add_boolean_value(b, m->online);
		set_int(b, "nr_file_dirty", m->nr_file_dirty);
		set_int(b, "nr_writeback", m->nr_writeback);
		set_int(b, "nr_file", m->nr_file);
		set_int(b, "foreign_flushes", m->frn_flushes);
		set_int(b, "foreign_flush_failures", m->frn_flush_failures);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

static void add_wbsim_device(JsonBuilder *b, const struct wbsim_run_result *r)
{
	const struct wbsim_blk_stats *d = &r->device_stats;

	json_builder_set_member_name(b, "device");
	json_builder_begin_object(b);
	set_str(b, "name", r->device);
	set_int(b, "bios", d->bios);
	set_int(b, "bytes", d->bytes);
	set_int(b, "requests", d->requests);
	set_int(b, "merges", d->merges);
	set_int(b, "tag_waits", d->tag_waits);
	set_int(b, "tag_wait_ns", d->tag_wait_ns);
	set_dbl(b, "avg_queue_depth", d->avg_queue_depth);
	set_int(b, "max_queue_depth", d->max_queue_depth);
	set_dbl(b, "avg_queued", d->avg_queued);
	set_int(b, "busy_ns", d->busy_ns);
	set_int(b, "elapsed_ns", d->elapsed_ns);
	set_dbl(b, "utilisation", d->utilisation);
	set_int(b, "total_latency_ns", d->total_latency_ns);
	set_int(b, "max_latency_ns", d->max_latency_ns);
	set_int(b, "seeks", d->seeks);
	set_int(b, "seek_ns", d->seek_ns);
	set_int(b, "rotation_ns", d->rotation_ns);
	json_builder_end_object(b);
}

static void add_wbsim(JsonBuilder *b, const struct wbsim_run_result *r, gboolean include_wall)
{
	json_builder_set_member_name(b, "wbsim");
	json_builder_begin_object(b);
	set_str(b, "version", WBSIM_VERSION_STRING);
	set_str(b, "scenario", r->scenario);
	set_str(b, "description", r->description);
	set_int(b, "seed", r->seed);
	set_int(b, "cpus", r->cpus);
	set_int(b, "memory_bytes", r->memory);
	set_str(b, "device_preset", r->device);
	set_str(b, "fs_type", r->fs_type);
	set_int(b, "nr_contexts", r->nr_contexts);
	set_str(b, "affinity", r->affinity);
	set_int(b, "sim_ns", r->sim_ns);
	set_int(b, "events", r->events);
	if (include_wall)
		set_dbl(b, "wall_s", r->wall_s);
	set_int(b, "nr_dirtied", r->nr_dirtied);
	set_int(b, "nr_written", r->nr_written);
	set_int(b, "bg_thresh", r->bg_thresh);
	set_int(b, "thresh", r->thresh);
	add_wbsim_jobs(b, r);
	add_wbsim_contexts(b, r);
	add_wbsim_writeback_starts(b, r);
	if (r->cgroups)
		add_wbsim_cgroups(b, r);
	add_wbsim_device(b, r);

	json_builder_set_member_name(b, "cpu_by_kind_ns");
	json_builder_begin_object(b);
	for (unsigned int k = 0; k < WBSIM_TASK_NR_KINDS; k++)
		set_int(b, wbsim_report_task_kinds[k], r->cpu_by_kind[k]);
	json_builder_end_object(b);

	json_builder_set_member_name(b, "locks");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->locks->len; i++) {
		const struct wbsim_lock_result *l = r->locks->pdata[i];

		json_builder_begin_object(b);
		set_str(b, "name", l->name);
		set_int(b, "acquisitions", l->acquisitions);
		set_int(b, "contended", l->contended);
		set_int(b, "hold_ns", l->hold_ns);
		set_int(b, "wait_ns", l->wait_ns);
		set_int(b, "max_wait_ns", l->max_wait_ns);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);

	json_builder_set_member_name(b, "extents");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->extents->len; i++) {
		const struct wbsim_extent_result *e = r->extents->pdata[i];

		json_builder_begin_object(b);
		set_str(b, "moment", e->moment);
		set_str(b, "path", e->path);
		set_int(b, "filefrag", e->filefrag);
		set_int(b, "nextents", e->nextents);
		set_str(b, "line", e->line);
		add_extent_lengths(b, e);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);

	json_builder_set_member_name(b, "context_changes");
	json_builder_begin_object(b);
	set_int(b, "count", r->ctx_changes);
	set_int(b, "duration_ns", r->ctx_change_ns);
	set_int(b, "writers_blocked_ns", r->writers_blocked_ns);
	json_builder_end_object(b);

	json_builder_set_member_name(b, "warnings");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->warnings->len; i++)
		json_builder_add_string_value(b, r->warnings->pdata[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/**
 * wbsim_report_json_full() - fio's JSON or JSON+ output
 * @r: the run (its fio_global_options: "global options")
 * @json_plus: fio's json+: add "bins" to the latency objects with percentiles
 * @include_wall: add "wbsim"."wall_s"
 *
 * Return: NUL-terminated JSON text ending in a newline, to free with g_free().
 */
char *wbsim_report_json_full(const struct wbsim_run_result *r, gboolean json_plus,
			     gboolean include_wall)
{
	struct wbsim_report_stats *st = wbsim_report_stats_new(r);
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *text = NULL;

	json_builder_begin_object(b);
	set_str(b, "fio version", WBSIM_FIO_VERSION_STRING);
	set_int(b, "timestamp", 0);
	set_int(b, "timestamp_ms", 0);
	set_str(b, "time", "simulated");
	add_options(b, "global options", r->fio_global_options);
	json_builder_set_member_name(b, "jobs");
	json_builder_begin_array(b);
	for (guint i = 0; i < st->ts->len; i++) {
		const struct wbsim_report_ts *ts = st->ts->pdata[i];

		add_job(b, r, ts, wbsim_report_stats_group(st, ts->groupid), json_plus);
	}
	json_builder_end_array(b);
	add_disk_util(b, r);
	add_wbsim(b, r, include_wall);
	json_builder_end_object(b);
	wbsim_report_stats_free(st);

	root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	json_generator_set_indent(gen, 2);
	text = json_generator_to_data(gen, NULL);
	return g_strconcat(text, "\n", NULL);
}

/**
 * wbsim_report_json() - fio's JSON output with a top-level "wbsim" object
 * @r: the run
 * @include_wall: add "wbsim"."wall_s"
 *
 * Return: NUL-terminated JSON text ending in a newline, to free with g_free().
 */
char *wbsim_report_json(const struct wbsim_run_result *r, gboolean include_wall)
{
	return wbsim_report_json_full(r, FALSE, include_wall);
}
