/* SPDX-License-Identifier: MIT */
/*
 * test-report.c - the text, JSON and CSV reports and fio's number
 * formatting, on a hand-built run result whose figures are known:
 *
 *   job A and its clone A (group 0, group_reporting): 8 MiB in 2048 writes
 *	each, runtimes 81.9 ms and 80 ms, latencies 302 us
 *   job C (group 1, no group_reporting): 8 MiB in 2048 writes in 81.5 ms
 *	(fio's real "98.8MiB/s (104MB/s)(8192KiB/81msec)" case), half the
 *	writes at 302 us and half at 1 ms, two fsyncs (848 us, 1886 us)
 *   its file at the end: 3 extents, FIEMAP records of 1, 1, 2 and 8 blocks;
 *	25 background and 1 periodic writeback_start
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <wbsim/version.h>
#include "report/report.h"
#include "defs/fio.h"
#include "fio/fio-io-u.h"

#define MIB (UINT64_C(1) << 20)
#define MS UINT64_C(1000000)

struct fixture {
	struct wbsim_run_result *r;
	struct wbsim_fio_job *fio[3];
};

static struct wbsim_fio_option *opt(const char *name, const char *value)
{
	struct wbsim_fio_option *o = g_new0(struct wbsim_fio_option, 1);

	o->name = g_strdup(name);
	o->value = g_strdup(value);
	o->file = "test.fio";
	return o;
}

static void opt_free(gpointer p)
{
	struct wbsim_fio_option *o = p;

	g_free(o->name);
	g_free(o->value);
	g_free(o);
}

static struct wbsim_fio_job *fio_job(const char *name, unsigned int group, gboolean gr)
{
	struct wbsim_fio_job *f = g_new0(struct wbsim_fio_job, 1);

	f->name = g_strdup(name);
	f->group_id = group;
	f->group_reporting = gr;
	f->kb_base = 1024;
	f->iodepth = 1;
	f->rw = WBSIM_FIO_WRITE;
	f->ioengine = g_strdup("psync");
	for (int d = 0; d < WBSIM_FIO_DDIR_NR; d++)
		f->bs[d] = 4096;
	f->options = g_ptr_array_new_with_free_func(opt_free);
	g_ptr_array_add(f->options, opt("rw", "write"));
	g_ptr_array_add(f->options, opt("bs", "4k"));
	g_ptr_array_add(f->options, opt("size", "8m"));
	g_ptr_array_add(f->options, opt("end_fsync", NULL));
	g_ptr_array_add(f->options, opt("bs", "4096"));	/* repeated: last wins */
	return f;
}

static void fio_job_free(struct wbsim_fio_job *f)
{
	g_free(f->name);
	g_free(f->ioengine);
	g_ptr_array_unref(f->options);
	g_free(f);
}

static struct wbsim_job_result *job(struct wbsim_run_result *r, const struct wbsim_fio_job *f,
				    wbsim_time_t runtime_ns, const uint64_t *bw, unsigned int nbw)
{
	struct wbsim_job_result *j = g_new0(struct wbsim_job_result, 1);
	struct wbsim_fio_io_u u;

	/* fio's depth counters of its 2048 writes, as the job would count them */
	wbsim_fio_io_u_init(&u, f);
	for (unsigned int i = 0; i < 2048; i++)
		wbsim_fio_io_u_write(&u);
	wbsim_fio_io_u_drain(&u);
	j->depths = u.stat;
	j->name = g_strdup(f->name);
	j->fio = f;
	j->pid = 101 + r->jobs->len;	/* the machine's pid space: 101, 102, 103 */
	j->io_bytes = 8 * MIB;
	j->total_ios = 2048;
	j->runtime_ns = runtime_ns;
	j->bw_samples = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	g_array_append_vals(j->bw_samples, bw, nbw);
	g_ptr_array_add(r->jobs, j);
	return j;
}

static int setup(void **state)
{
	static const uint64_t bw_a0[] = { 100000, 102000 }, bw_a1[] = { 99000, 101000 };
	static const uint64_t bw_c[] = { 100000, 101000 };
	struct fixture *fx = g_new0(struct fixture, 1);
	struct wbsim_run_result *r = wbsim_run_result_new();
	struct wbsim_job_result *j;
	struct wbsim_wb_result *w;
	struct wbsim_lock_result *l;
	struct wbsim_extent_result *e;
	static const double series[] = { 0.5, 100, 20, 1.0, 2048.5, 1e20 };

	fx->r = r;
	fx->fio[0] = fio_job("A", 0, TRUE);
	fx->fio[1] = fio_job("A", 0, TRUE);
	fx->fio[2] = fio_job("C", 1, FALSE);
	fx->fio[1]->clone = 1;
	fx->fio[2]->thread = TRUE;
	fx->fio[2]->rw = WBSIM_FIO_RANDWRITE;
	fx->fio[2]->bs[WBSIM_FIO_DDIR_READ] = 16384;
	fx->fio[2]->ioengine[0] = 'v';	/* vsync */

	r->scenario = g_strdup("test.ini");
	r->description = g_strdup("two groups\nof jobs");
	r->seed = 42;
	r->cpus = 4;
	r->memory = 16ull << 30;
	r->device = g_strdup("nvme");
	r->fs_type = g_strdup("xfs");
	r->nr_contexts = 1;
	r->affinity = g_strdup("none");
	r->sim_ns = 1500 * MS;
	r->events = 123456;
	r->wall_s = 1.25;
	r->nr_dirtied = 6144;
	r->nr_written = 6144;
	r->bg_thresh = 1000;
	r->thresh = 2000;

	j = job(r, fx->fio[0], 81900000, bw_a0, 2);
	for (unsigned int i = 0; i < 2048; i++)
		wbsim_lat_hist_add(&j->clat, 302000);
	j->cpu_ns = 20 * MS;
	j->lock_wait_ns = 7 * MS;
	j->pauses = 3;
	j->paused_ns = 12 * MS;
	j->max_pause_ns = 8 * MS;
	j->pause_hist[2] = 2;
	j->pause_hist[4] = 1;
	j = job(r, fx->fio[1], 80 * MS, bw_a1, 2);
	for (unsigned int i = 0; i < 2048; i++)
		wbsim_lat_hist_add(&j->clat, 302000);
	j->cpu_ns = 20 * MS;
	j = job(r, fx->fio[2], 81500000, bw_c, 2);
	for (unsigned int i = 0; i < 1024; i++) {
		wbsim_lat_hist_add(&j->clat, 302000);
		wbsim_lat_hist_add(&j->clat, 1000000);
	}
	j->laid_out_files = 2;
	j->laid_out_bytes = 16 * MIB + 5;
	wbsim_lat_hist_add(&j->sync_lat, 848000);
	wbsim_lat_hist_add(&j->sync_lat, 1886000);
	j->cpu_ns = 40500000;
	j->start_ns = 5 * MS;

	w = g_new0(struct wbsim_wb_result, 1);
	w->flusher = g_strdup("kworker/u8:0-flush-259:0");
	w->flusher_pid = 100;
	w->pages_written = 6000;
	w->pages_completed = 6144;
	w->avg_write_bandwidth = 25600;
	w->dirty_ratelimit = 12800;
	w->cpu_ns = 3 * MS;
	g_ptr_array_add(r->wbs, w);

	l = g_new0(struct wbsim_lock_result, 1);
	l->name = g_strdup("wb->list_lock");
	l->acquisitions = 100;
	l->contended = 5;
	l->wait_ns = 2 * MS;
	l->max_wait_ns = MS;
	g_ptr_array_add(r->locks, l);
	l = g_new0(struct wbsim_lock_result, 1);
	l->name = g_strdup("quiet_lock");
	l->acquisitions = 7;
	g_ptr_array_add(r->locks, l);

	e = g_new0(struct wbsim_extent_result, 1);
	e->moment = g_strdup("end");
	e->path = g_strdup("/mnt/C.0.0");
	e->filefrag = 3;
	e->nextents = 4;
	e->line = g_strdup("/mnt/C.0.0: 3 extents found");
	{
		/* four FIEMAP records (two physically contiguous): 1 1 2 8 */
		static const uint64_t blocks[] = { 8, 1, 2, 1 };
		g_autoptr(GArray) b = g_array_new(FALSE, FALSE, sizeof(uint64_t));

		g_array_append_vals(b, blocks, G_N_ELEMENTS(blocks));
		wbsim_extent_lengths_set(e, b);
	}
	g_ptr_array_add(r->extents, e);
	r->writeback_starts[WB_REASON_BACKGROUND] = 25;
	r->writeback_starts[WB_REASON_PERIODIC] = 1;
	g_ptr_array_add(r->warnings, g_strdup("test.fio:3: option verify is not modelled"));

	r->device_stats.bytes = 24 * MIB;
	r->device_stats.requests = 96;
	r->device_stats.merges = 10;
	r->device_stats.elapsed_ns = 1500 * MS;
	r->device_stats.utilisation = 0.5;
	r->device_stats.avg_queued = 2.0;
	r->device_stats.total_latency_ns = 300 * MS;
	r->cpu_by_kind[WBSIM_TASK_DIRTIER] = 80500000;
	r->cpu_by_kind[WBSIM_TASK_FLUSHER] = 3 * MS;

	g_ptr_array_add(r->series.columns, g_strdup("time_s"));
	g_ptr_array_add(r->series.columns, g_strdup("dirty_pages"));
	g_ptr_array_add(r->series.columns, g_strdup("writeback_pages"));
	g_array_append_vals(r->series.values, series, G_N_ELEMENTS(series));

	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	wbsim_run_result_free(fx->r);
	for (unsigned int i = 0; i < G_N_ELEMENTS(fx->fio); i++)
		fio_job_free(fx->fio[i]);
	g_free(fx);
	return 0;
}

/* ------------------------------------------------------------------------ */

static void check_pair(uint64_t v, unsigned int kb_base, enum wbsim_n2s_unit unit,
		       const char *want)
{
	g_autofree char *got = wbsim_fio_num_pair(v, kb_base, unit);

	if (strcmp(got, want) != 0)
		fail_msg("%" G_GUINT64_FORMAT ": got \"%s\", want \"%s\"", v, got, want);
}

/* fio's num2str() on the examples of conventions.md and around the unit edges */
static void test_num2str(void **state)
{
	static const struct { uint64_t v; const char *bps, *bytes; } t[] = {
		{ 104857600, "100MiB/s (105MB/s)", "100MiB (105MB)" },
		{ 8388608, "8192KiB/s (8389kB/s)", "8192KiB (8389kB)" },
		{ 103563061, "98.8MiB/s (104MB/s)", "98.8MiB (104MB)" },
		{ 0, "0B/s (0B/s)", "0B (0B)" },
		{ 1, "1B/s (1B/s)", "1B (1B)" },
		{ 999, "999B/s (999B/s)", "999B (999B)" },
		{ 1023, "1023B/s (1023B/s)", "1023B (1023B)" },
		{ 9999, "9999B/s (9999B/s)", "9999B (9999B)" },
		{ 10000, "9.77KiB/s (10.0kB/s)", "9.77KiB (10.0kB)" },
		/* 9.999 KiB rounds up to "10.00" and carries: fio's five digits */
		{ 10239, "10.00KiB/s (10.2kB/s)", "10.00KiB (10.2kB)" },
		{ 10240, "10.0KiB/s (10.2kB/s)", "10.0KiB (10.2kB)" },
		{ 102400, "100KiB/s (102kB/s)", "100KiB (102kB)" },
		{ 511999, "500KiB/s (512kB/s)", "500KiB (512kB)" },
		{ 1048575, "1024KiB/s (1049kB/s)", "1024KiB (1049kB)" },
		{ 1048576, "1024KiB/s (1049kB/s)", "1024KiB (1049kB)" },
		{ 16777216, "16.0MiB/s (16.8MB/s)", "16.0MiB (16.8MB)" },
		{ 99999999, "95.4MiB/s (100.0MB/s)", "95.4MiB (100.0MB)" },
		{ 1000000000, "954MiB/s (1000MB/s)", "954MiB (1000MB)" },
		{ 1073741824, "1024MiB/s (1074MB/s)", "1024MiB (1074MB)" },
		{ 1099511627776, "1024GiB/s (1100GB/s)", "1024GiB (1100GB)" },
	};
	g_autofree char *iops = wbsim_num2str(25283, 4, FALSE, WBSIM_N2S_NONE);
	g_autofree char *lat = wbsim_num2str(1234567, 6, FALSE, WBSIM_N2S_NONE);
	g_autofree char *bits = wbsim_num2str(1000, 4, FALSE, WBSIM_N2S_BITPERSEC);
	g_autofree char *kb1000 = wbsim_fio_num_pair(103563061, 1000, WBSIM_N2S_BYTEPERSEC);

	for (unsigned int i = 0; i < G_N_ELEMENTS(t); i++) {
		check_pair(t[i].v, 1024, WBSIM_N2S_BYTEPERSEC, t[i].bps);
		check_pair(t[i].v, 1024, WBSIM_N2S_BYTE, t[i].bytes);
	}
	assert_string_equal(iops, "25.3k");
	assert_string_equal(lat, "1234.6k");
	assert_string_equal(bits, "8000bit/s");
	/* kb_base=1000 swaps the pair */
	assert_string_equal(kb1000, "104MB/s (98.8MiB/s)");
}

static gboolean contains(const GString *s, const char *want)
{
	if (strstr(s->str, want))
		return TRUE;
	print_error("missing:\n%s\nin:\n%s\n", want, s->str);
	return FALSE;
}

/* The job, write and group lines of fio's normal output, exactly. */
static void test_text_fio_lines(void **state)
{
	struct fixture *fx = *state;
	g_autoptr(GString) s = wbsim_report_text(fx->r, FALSE);

	/* fio's preamble: a line per job ("..." for its clones), the version,
	 * the tasks, the files laid out (fio init.c, backend.c, filesetup.c) */
	assert_true(g_str_has_prefix(s->str,
		"A: (g=0): rw=write, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\n"
		"...\n"
		"C: (g=1): rw=randwrite, bs=(R) 16.0KiB-16.0KiB, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=vsync, iodepth=1\n"
		"fio-3.33 (wbsim " WBSIM_VERSION_STRING ")\n"
		"Starting 1 thread and 2 processes\n"
		"C: Laying out IO files (2 files / total 16MiB)\n"
		"\n"
		"A: (groupid=0"));
	/* the grouped entry: two jobs summed, runtime the longer (81.9 -> 81 ms) */
	assert_true(contains(s, "\nA: (groupid=0, jobs=2): err= 0: pid=101: simulated\n"
				"  write: IOPS=50.6k, BW=198MiB/s (207MB/s)(16.0MiB/81msec)\n"));
	assert_true(contains(s, "\nC: (groupid=1, jobs=1): err= 0: pid=103: simulated\n"
				"  write: IOPS=25.3k, BW=98.8MiB/s (104MB/s)(8192KiB/81msec)\n"));
	assert_true(contains(s, "\nRun status group 0 (all jobs):\n"
				"  WRITE: bw=198MiB/s (207MB/s), 198MiB/s-198MiB/s (207MB/s-207MB/s), "
				"io=16.0MiB (16.8MB), run=81-81msec\n"));
	/* fio's own line for this case (conventions.md, verified with fio 3.42) */
	assert_true(contains(s, "\nRun status group 1 (all jobs):\n"
				"  WRITE: bw=98.8MiB/s (104MB/s), 98.8MiB/s-98.8MiB/s (104MB/s-104MB/s), "
				"io=8192KiB (8389kB), run=81-81msec\n"));
	/* one entry per job without group_reporting, one for the group */
	assert_null(strstr(strstr(s->str, "\nC: (groupid") + 1, "\nC: (groupid"));
	assert_null(strstr(strstr(s->str, "\nA: (groupid") + 1, "\nA: (groupid"));
	assert_true(contains(s, "\nDisk stats (read/write):\n"
				"  nvme: ios=0/96, merge=0/10, ticks=0/300, "
				"in_queue=3000, util=50.00%\n"));
}

/* Latency, percentile, bandwidth and sync lines of job C. */
static void test_text_latencies(void **state)
{
	struct fixture *fx = *state;
	g_autoptr(GString) s = wbsim_report_text(fx->r, FALSE);
	const char *c = strstr(s->str, "\nC: ");
	g_autoptr(GString) cs = g_string_new(c);

	assert_non_null(c);
	/* 302000 and 1000000 ns fall in buckets standing for 301056 and 1003520 */
	assert_true(contains(cs, "(8192KiB/81msec)\n"
		"    clat (usec): min=302, max=1000, avg=651.00, stdev=349.09\n"
		"     lat (usec): min=302, max=1000, avg=651.00, stdev=349.09\n"
		"    clat percentiles (usec):\n"
		"     |  1.00th=[  302],  5.00th=[  302], 10.00th=[  302], 20.00th=[  302],\n"
		"     | 30.00th=[  302], 40.00th=[  302], 50.00th=[  302], 60.00th=[ 1004],\n"
		"     | 70.00th=[ 1004], 80.00th=[ 1004], 90.00th=[ 1004], 95.00th=[ 1004],\n"
		"     | 99.00th=[ 1004], 99.50th=[ 1004], 99.90th=[ 1004], 99.95th=[ 1004],\n"
		"     | 99.99th=[ 1004]\n"
		"   bw (  KiB/s): min=100000, max=101000, per=99.37%, avg=100500.00, stdev=707.11, samples=2\n"
		"   iops        : min=25000, max=25250, avg=25125.00, stdev=176.78, samples=2\n"
		"  lat (usec)   : 500=50.00%\n"
		"  lat (msec)   : 2=50.00%\n"
		"  fsync/fdatasync/sync_file_range/syncfs:\n"
		"    sync (usec): min=848, max=1886, avg=1367.00, stdev=733.98\n"
		"    sync percentiles (usec):\n"
		"     |  1.00th=[  848],  5.00th=[  848], 10.00th=[  848], 20.00th=[  848],\n"));
	assert_true(contains(cs, "  cpu          : usr=0.00%, sys=50.00%, ctx=0, majf=0, minf=0\n"
		"  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%\n"
		"     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     issued rwts: total=0,2048,0,2 short=0,0,0,0 dropped=0,0,0,0\n"
		"     latency   : target=0.00ns, window=0.00ns, percentile=100.00%, depth=1\n"));

	/* the group entry: bw statistics summed term by term (fio's group sum) */
	assert_true(contains(s, "   bw (  KiB/s): min=199000, max=203000, per=99.37%, "
				"avg=201000.00, stdev=1154.70, samples=4\n"
				"   iops        : min=49750, max=50750, avg=50250.00, "
				"stdev=288.68, samples=4\n"));
	/* all 4096 writes of A at 302 us, below 1 ms; no sync block */
	assert_true(contains(s, "    clat percentiles (usec):\n"
				"     |  1.00th=[  302],"));
	assert_true(contains(s, "  lat (usec)   : 500=100.00%\n  cpu          : usr=0.00%, sys=24.84%"));
}

/* The wbsim section, and the wall clock only on request. */
static void test_text_wbsim_section(void **state)
{
	struct fixture *fx = *state;
	g_autoptr(GString) a = wbsim_report_text(fx->r, FALSE);
	g_autoptr(GString) b = wbsim_report_text(fx->r, FALSE);
	g_autoptr(GString) w = wbsim_report_text(fx->r, TRUE);
	const char *sec = strstr(a->str, "\nwbsim: ");

	assert_string_equal(a->str, b->str);
	assert_non_null(sec);
	/* after everything fio prints */
	assert_true(sec > strstr(a->str, "Disk stats"));
	assert_null(strstr(a->str, "wall"));
	assert_true(contains(w, ", events=123456, wall time=1.250s\n"));
	assert_true(contains(a, "\n  scenario: test.ini: two groups of jobs\n"));
	assert_true(contains(a, "  run: seed=42, simulated time=1.500000s, events=123456\n"));
	assert_true(contains(a, "  machine: cpus=4, memory=16.0GiB, device=nvme, fs=xfs, "
				"contexts=1, affinity=none\n"));
	assert_true(contains(a, "  job 0 (A): pauses=3, paused=12.000ms, max pause=8.000ms, "
				"cpu=20.000ms, cpu wait=0.000ms, lock wait=7.000ms, invalidates=0\n"
				"    pause histogram: <1ms=0, <2ms=0, <4ms=2, <8ms=0, <16ms=1, "
				"<32ms=0, <64ms=0, <128ms=0, <256ms=0, <512ms=0, >=512ms=0\n"
				"  job 1 (A): pauses=0,"));
	assert_true(contains(a, "  wb 0 (kworker/u8:0-flush-259:0): pages written=6000, completed=6144, "
				"avg_write_bandwidth=102400KB/s, dirty_ratelimit=51200KB/s"));
	/* the report's pids are the trace's: the flusher's and each job's */
	assert_true(contains(a, "    flusher: pid=100, cpu=3.000ms, cpu wait=0.000ms"));
	assert_true(contains(a, "CPU time by task kind: dirtier=80.500ms, flusher=3.000ms, "
				"irq=0.000ms, other=0.000ms\n"));
	assert_true(contains(a, "lock contention:\n  wb->list_lock: acquisitions=100, "
				"contended=5, wait=2.000ms, max wait=1.000ms, hold=0.000ms\n"));
	assert_null(strstr(a->str, "quiet_lock"));
	/* the median of 1 1 2 8: the mean of the two middle ones */
	assert_true(contains(a, "extents:\n  [end] /mnt/C.0.0: 3 extents found (nextents=4, "
				"median length=1.5 blocks)\n"));
	/* after the contexts, the reasons that occurred */
	assert_true(contains(a, "    flusher: pid=100, cpu=3.000ms, cpu wait=0.000ms, lock wait=0.000ms\n"
				"  writeback starts (writeback_start): background=25, periodic=1\n"));
	assert_true(contains(a, "warnings:\n  test.fio:3: option verify is not modelled\n"));
	/* no seeks on this device: no seek line */
	assert_null(strstr(a->str, "seeks="));
}

static void check_keys(JsonObject *o, const char *const *want, unsigned int n)
{
	g_autoptr(GList) members = json_object_get_members(o);
	unsigned int i = 0;

	for (GList *m = members; m; m = m->next, i++) {
		if (i >= n)
			fail_msg("extra key \"%s\"", (const char *)m->data);
		if (strcmp(m->data, want[i]) != 0)
			fail_msg("key %u: got \"%s\", want \"%s\"", i, (const char *)m->data, want[i]);
	}
	assert_int_equal(i, n);
}

static JsonNode *parse(const char *text)
{
	g_autoptr(JsonParser) p = json_parser_new();
	g_autoptr(GError) error = NULL;

	if (!json_parser_load_from_data(p, text, -1, &error))
		fail_msg("JSON does not parse: %s", error->message);
	return json_node_copy(json_parser_get_root(p));
}

/* fio's key order at every level, and the figures. */
static void test_json(void **state)
{
	static const char *const top[] = {
		"fio version", "timestamp", "timestamp_ms", "time",
		"jobs", "disk_util", "wbsim",
	};
	static const char *const jkeys[] = {
		"jobname", "groupid", "error", "eta", "elapsed", "job options",
		"read", "write", "trim", "sync", "job_runtime", "usr_cpu", "sys_cpu", "ctx",
		"majf", "minf", "iodepth_level", "iodepth_submit", "iodepth_complete",
		"latency_ns", "latency_us", "latency_ms", "latency_depth", "latency_target",
		"latency_percentile", "latency_window",
	};
	static const char *const dkeys[] = {
		"io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios",
		"short_ios", "drop_ios", "slat_ns", "clat_ns", "lat_ns", "bw_min", "bw_max",
		"bw_agg", "bw_mean", "bw_dev", "bw_samples", "iops_min", "iops_max",
		"iops_mean", "iops_stddev", "iops_samples",
	};
	static const char *const latkeys[] = { "min", "max", "mean", "stddev", "N", "percentile" };
	static const char *const pkeys[] = {
		"1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000",
		"50.000000", "60.000000", "70.000000", "80.000000", "90.000000", "95.000000",
		"99.000000", "99.500000", "99.900000", "99.950000", "99.990000",
	};
	/* end_fsync, bare, left out as fio leaves bare keys out */
	static const char *const optkeys[] = { "rw", "bs", "size" };
	static const char *const mskeys[] = {
		"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
	};
	struct fixture *fx = *state;
	g_autofree char *text = wbsim_report_json(fx->r, FALSE);
	g_autofree char *again = wbsim_report_json(fx->r, FALSE);
	g_autofree char *wall = wbsim_report_json(fx->r, TRUE);
	g_autoptr(JsonNode) root = parse(text);
	g_autoptr(JsonNode) wroot = parse(wall);
	JsonObject *o = json_node_get_object(root), *job, *wr, *rd, *clat, *pct, *sync, *ws;
	JsonArray *jobs;

	assert_string_equal(text, again);
	check_keys(o, top, G_N_ELEMENTS(top));
	assert_string_equal(json_object_get_string_member(o, "fio version"),
			    "fio-3.33 (wbsim " WBSIM_VERSION_STRING ")");
	assert_int_equal(json_object_get_int_member(o, "timestamp"), 0);
	assert_string_equal(json_object_get_string_member(o, "time"), "simulated");
	jobs = json_object_get_array_member(o, "jobs");
	assert_int_equal(json_array_get_length(jobs), 2);

	/* the group entry */
	job = json_array_get_object_element(jobs, 0);
	check_keys(job, jkeys, G_N_ELEMENTS(jkeys));
	assert_string_equal(json_object_get_string_member(job, "jobname"), "A");
	wr = json_object_get_object_member(job, "write");
	check_keys(wr, dkeys, G_N_ELEMENTS(dkeys));
	assert_int_equal(json_object_get_int_member(wr, "io_bytes"), 16 * MIB);
	assert_int_equal(json_object_get_int_member(wr, "runtime"), 81);
	assert_int_equal(json_object_get_int_member(wr, "total_ios"), 4096);
	assert_int_equal(json_object_get_int_member(wr, "bw_bytes"), 207126123);
	assert_int_equal(json_object_get_int_member(wr, "bw_min"), 199000);
	assert_int_equal(json_object_get_int_member(wr, "bw_samples"), 4);
	assert_int_equal(json_object_get_int_member(job, "job_runtime"), 81 + 80);
	/* no fsync in this group: a sync object without percentiles */
	sync = json_object_get_object_member(job, "sync");
	assert_int_equal(json_object_get_int_member(sync, "total_ios"), 0);
	assert_false(json_object_has_member(json_object_get_object_member(sync, "lat_ns"),
					    "percentile"));

	/* job C */
	job = json_array_get_object_element(jobs, 1);
	check_keys(job, jkeys, G_N_ELEMENTS(jkeys));
	assert_string_equal(json_object_get_string_member(job, "jobname"), "C");
	assert_int_equal(json_object_get_int_member(job, "groupid"), 1);
	assert_int_equal(json_object_get_int_member(job, "elapsed"), 2);
	check_keys(json_object_get_object_member(job, "job options"), optkeys, G_N_ELEMENTS(optkeys));
	assert_string_equal(json_object_get_string_member(
		json_object_get_object_member(job, "job options"), "bs"), "4096");

	wr = json_object_get_object_member(job, "write");
	assert_int_equal(json_object_get_int_member(wr, "io_bytes"), 8 * MIB);
	assert_int_equal(json_object_get_int_member(wr, "io_kbytes"), 8192);
	assert_int_equal(json_object_get_int_member(wr, "bw_bytes"), 103563061);
	/* bw = bw_bytes / 1024, KiB/s */
	assert_int_equal(json_object_get_int_member(wr, "bw"), 103563061 / 1024);
	assert_float_equal(json_object_get_double_member(wr, "iops"), 2048000.0 / 81, 1e-9);
	assert_int_equal(json_object_get_int_member(wr, "runtime"), 81);
	assert_float_equal(json_object_get_double_member(wr, "bw_agg"),
			   100500 * 100.0 / (103563061 / 1024.0), 1e-9);
	assert_float_equal(json_object_get_double_member(wr, "bw_dev"), 707.10678118654755, 1e-9);
	assert_int_equal(json_object_get_int_member(wr, "iops_max"), 25250);
	clat = json_object_get_object_member(wr, "clat_ns");
	check_keys(clat, latkeys, G_N_ELEMENTS(latkeys));
	assert_int_equal(json_object_get_int_member(clat, "min"), 302000);
	assert_int_equal(json_object_get_int_member(clat, "max"), 1000000);
	assert_int_equal(json_object_get_int_member(clat, "N"), 2048);
	assert_float_equal(json_object_get_double_member(clat, "mean"), 651000.0, 1e-6);
	pct = json_object_get_object_member(clat, "percentile");
	check_keys(pct, pkeys, G_N_ELEMENTS(pkeys));
	assert_int_equal(json_object_get_int_member(pct, "50.000000"), 301056);
	assert_int_equal(json_object_get_int_member(pct, "60.000000"), 1003520);
	/* fio gives lat_ns and slat_ns no percentiles by default */
	assert_false(json_object_has_member(json_object_get_object_member(wr, "lat_ns"), "percentile"));
	assert_int_equal(json_object_get_int_member(json_object_get_object_member(wr, "slat_ns"), "N"), 0);

	/* read and trim: present and zero-filled, without percentiles */
	rd = json_object_get_object_member(job, "read");
	check_keys(rd, dkeys, G_N_ELEMENTS(dkeys));
	assert_int_equal(json_object_get_int_member(rd, "io_bytes"), 0);
	assert_float_equal(json_object_get_double_member(rd, "iops"), 0.0, 0.0);
	assert_false(json_object_has_member(json_object_get_object_member(rd, "clat_ns"), "percentile"));
	check_keys(json_object_get_object_member(job, "trim"), dkeys, G_N_ELEMENTS(dkeys));

	sync = json_object_get_object_member(job, "sync");
	assert_int_equal(json_object_get_int_member(sync, "total_ios"), 2);
	assert_int_equal(json_object_get_int_member(json_object_get_object_member(sync, "lat_ns"), "max"),
			 1886000);
	assert_true(json_object_has_member(json_object_get_object_member(sync, "lat_ns"), "percentile"));

	assert_float_equal(json_object_get_double_member(job, "sys_cpu"), 50.0, 1e-9);
	check_keys(json_object_get_object_member(job, "latency_ms"), mskeys, G_N_ELEMENTS(mskeys));
	assert_float_equal(json_object_get_double_member(
		json_object_get_object_member(job, "latency_ms"), "2"), 50.0, 1e-9);
	assert_float_equal(json_object_get_double_member(
		json_object_get_object_member(job, "latency_us"), "500"), 50.0, 1e-9);
	assert_float_equal(json_object_get_double_member(
		json_object_get_object_member(job, "iodepth_submit"), "4"), 100.0, 0.0);

	/* the wbsim object; wall time only on request */
	ws = json_object_get_object_member(o, "wbsim");
	assert_string_equal(json_object_get_string_member(ws, "version"), WBSIM_VERSION_STRING);
	assert_int_equal(json_object_get_int_member(ws, "sim_ns"), 1500 * MS);
	assert_int_equal(json_array_get_length(json_object_get_array_member(ws, "jobs")), 3);
	/* a job's wait for locks (i_rwsem, the filesystem's write lock) */
	assert_int_equal(json_object_get_int_member(json_array_get_object_element(
		json_object_get_array_member(ws, "jobs"), 0), "lock_wait_ns"), 7 * MS);
	assert_int_equal(json_array_get_length(json_object_get_array_member(ws, "locks")), 2);
	assert_false(json_object_has_member(ws, "wall_s"));
	{
		/* every reason the kernel names, in WB_WORK_REASON's order */
		static const char *const reasons[] = {
			"background", "vmscan", "sync", "periodic", "laptop_timer",
			"fs_free_space", "forker_thread", "foreign_flush",
		};
		static const char *const ekeys[] = {
			"moment", "path", "filefrag", "nextents", "line", "median_length",
			"length_log2_histogram", "lengths",
		};
		static const char *const hkeys[] = { "1", "2", "4", "8" };
		static const char *const lkeys[] = { "1", "2", "8" };
		JsonObject *st = json_object_get_object_member(ws, "writeback_starts");
		JsonObject *ext = json_array_get_object_element(
			json_object_get_array_member(ws, "extents"), 0);
		JsonObject *h = json_object_get_object_member(ext, "length_log2_histogram");
		JsonObject *len = json_object_get_object_member(ext, "lengths");

		check_keys(st, reasons, G_N_ELEMENTS(reasons));
		assert_int_equal(json_object_get_int_member(st, "background"), 25);
		assert_int_equal(json_object_get_int_member(st, "periodic"), 1);
		assert_int_equal(json_object_get_int_member(st, "sync"), 0);
		check_keys(ext, ekeys, G_N_ELEMENTS(ekeys));
		assert_float_equal(json_object_get_double_member(ext, "median_length"), 1.5, 0.0);
		/* 1 1 | 2 | - | 8: buckets 2^k .. 2^(k+1) - 1 up to the last one used */
		check_keys(h, hkeys, G_N_ELEMENTS(hkeys));
		assert_int_equal(json_object_get_int_member(h, "1"), 2);
		assert_int_equal(json_object_get_int_member(h, "2"), 1);
		assert_int_equal(json_object_get_int_member(h, "4"), 0);
		assert_int_equal(json_object_get_int_member(h, "8"), 1);
		check_keys(len, lkeys, G_N_ELEMENTS(lkeys));
		assert_int_equal(json_object_get_int_member(len, "1"), 2);
		assert_int_equal(json_object_get_int_member(len, "2"), 1);
		assert_int_equal(json_object_get_int_member(len, "8"), 1);
	}
	assert_float_equal(json_object_get_double_member(
		json_object_get_object_member(json_node_get_object(wroot), "wbsim"), "wall_s"), 1.25, 0.0);
}

/* "global options": one entry per name, first position, last value. */
static void test_json_global_options(void **state)
{
	static const char *const gkeys[] = { "bs", "ioengine" };
	struct fixture *fx = *state;
	g_autoptr(GPtrArray) g = g_ptr_array_new_with_free_func(opt_free);
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonObject *go;

	g_ptr_array_add(g, opt("bs", "8k"));
	g_ptr_array_add(g, opt("ioengine", "psync"));
	g_ptr_array_add(g, opt("group_reporting", NULL));	/* bare: left out, as fio */
	g_ptr_array_add(g, opt("bs", "16k"));
	fx->r->fio_global_options = g;
	text = wbsim_report_json_full(fx->r, FALSE, FALSE);
	root = parse(text);
	go = json_object_get_object_member(json_node_get_object(root), "global options");
	check_keys(go, gkeys, G_N_ELEMENTS(gkeys));
	assert_string_equal(json_object_get_string_member(go, "bs"), "16k");

	/* bare keys only: fio 3.33 writes the object, empty */
	g_ptr_array_set_size(g, 0);
	g_ptr_array_add(g, opt("group_reporting", NULL));
	g_ptr_array_add(g, opt("description", ""));
	g_free(text);
	text = wbsim_report_json_full(fx->r, FALSE, FALSE);
	json_node_unref(root);
	root = parse(text);
	go = json_object_get_object_member(json_node_get_object(root), "global options");
	assert_non_null(go);
	assert_int_equal(json_object_get_size(go), 0);
	/* no option: no object; none given: the same */
	g_ptr_array_set_size(g, 0);
	g_free(text);
	text = wbsim_report_json_full(fx->r, FALSE, FALSE);
	assert_null(strstr(text, "global options"));
	fx->r->fio_global_options = NULL;
	g_free(text);
	text = wbsim_report_json(fx->r, FALSE);
	assert_null(strstr(text, "global options"));
}

/*
 * IO depths, submit and complete as fio 3.33 prints them for the lab's
 * real E1 run (lab/studies/conversions/e1-xfs/run1/fio.json: io_uring at
 * iodepth=1024, 2 jobs in one group, 1416880 writes): every bucket the
 * ramp to 1024 touched at fio's floor of 0.1%, the rest at >=64; each
 * write submitted alone; one reap per write but for the drain of 1023.
 */
static void test_iodepths(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(GString) t = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonObject *job, *level, *submit, *complete;
	static const char *const low[] = { "1", "2", "4", "8", "16", "32" };

	for (unsigned int k = 0; k < 2; k++) {
		struct wbsim_job_result *j = fx->r->jobs->pdata[k];
		struct wbsim_fio_io_u u;

		fx->fio[k]->iodepth = 1024;
		g_free(fx->fio[k]->ioengine);
		fx->fio[k]->ioengine = g_strdup("io_uring");
		wbsim_fio_io_u_init(&u, fx->fio[k]);
		for (unsigned int i = 0; i < 708440; i++)
			wbsim_fio_io_u_write(&u);
		wbsim_fio_io_u_drain(&u);
		j->depths = u.stat;
	}
	text = wbsim_report_json(fx->r, FALSE);
	root = parse(text);
	job = json_array_get_object_element(
		json_object_get_array_member(json_node_get_object(root), "jobs"), 0);
	level = json_object_get_object_member(job, "iodepth_level");
	submit = json_object_get_object_member(job, "iodepth_submit");
	complete = json_object_get_object_member(job, "iodepth_complete");
	/* fio prints %f: six decimals */
	for (unsigned int i = 0; i < G_N_ELEMENTS(low); i++)
		assert_float_equal(json_object_get_double_member(level, low[i]), 0.1, 5e-7);
	assert_float_equal(json_object_get_double_member(level, ">=64"), 99.991107, 5e-7);
	assert_float_equal(json_object_get_double_member(submit, "4"), 100.0, 5e-7);
	assert_float_equal(json_object_get_double_member(submit, ">=64"), 0.0, 0.0);
	assert_float_equal(json_object_get_double_member(complete, "4"), 99.999859, 5e-7);
	assert_float_equal(json_object_get_double_member(complete, ">=64"), 0.1, 5e-7);
	assert_float_equal(json_object_get_double_member(complete, "0"), 0.0, 0.0);

	t = wbsim_report_text(fx->r, FALSE);
	assert_non_null(strstr(t->str,
		"  IO depths    : 1=0.1%, 2=0.1%, 4=0.1%, 8=0.1%, 16=0.1%, 32=0.1%, >=64=100.0%\n"
		"     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.1%\n"));
}

/* json+: the non-empty buckets beside the percentiles, as fio writes them. */
static void test_json_plus(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *plain = wbsim_report_json(fx->r, FALSE);
	g_autofree char *text = wbsim_report_json_full(fx->r, TRUE, FALSE);
	g_autoptr(JsonNode) root = parse(text);
	JsonObject *job = json_array_get_object_element(
		json_object_get_array_member(json_node_get_object(root), "jobs"), 1);
	JsonObject *wr = json_object_get_object_member(job, "write");
	JsonObject *bins = json_object_get_object_member(
		json_object_get_object_member(wr, "clat_ns"), "bins");
	JsonObject *sbins = json_object_get_object_member(json_object_get_object_member(
		json_object_get_object_member(job, "sync"), "lat_ns"), "bins");
	static const char *const keys[] = { "301056", "1003520" };

	assert_null(strstr(plain, "\"bins\""));
	check_keys(bins, keys, G_N_ELEMENTS(keys));
	assert_int_equal(json_object_get_int_member(bins, "301056"), 1024);
	assert_int_equal(json_object_get_int_member(bins, "1003520"), 1024);
	assert_int_equal(json_object_get_size(sbins), 2);
	/* no bins where fio prints no percentiles */
	assert_false(json_object_has_member(json_object_get_object_member(wr, "lat_ns"), "bins"));
	assert_false(json_object_has_member(json_object_get_object_member(
		json_object_get_object_member(job, "read"), "clat_ns"), "bins"));
}

/* With cgroups: the worst lag of a paced job, and the cgroup writeback
 * part (per wb, per memcg, switches) in the text and the JSON; without
 * them, neither. */
static void test_cgroups(void **state)
{
	struct fixture *fx = *state;
	struct wbsim_run_result *r = fx->r;
	struct wbsim_cgwb_result *w = g_new0(struct wbsim_cgwb_result, 1);
	struct wbsim_memcg_result *m = g_new0(struct wbsim_memcg_result, 1);
	g_autoptr(GString) plain = wbsim_report_text(r, FALSE);
	g_autofree char *plain_json = wbsim_report_json(r, FALSE);
	g_autoptr(GString) t = NULL;
	g_autofree char *json = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonObject *wb, *cg, *o;

	assert_null(strstr(plain->str, "cgroup writeback"));
	assert_null(strstr(plain->str, "rate schedule"));
	assert_null(strstr(plain_json, "cgroup_writeback"));

	fx->fio[2]->rate[WBSIM_FIO_DDIR_WRITE] = 250 * MIB;
	((struct wbsim_job_result *)r->jobs->pdata[2])->max_lag_ns = 2459317000ull;
	r->cgroups = true;
	r->isw_done = 1000;
	r->isw_skipped = 3;
	r->tot_write_bandwidth = 64000;
	w->ctx = 0;
	w->memcg = g_strdup("/e7/a");
	w->cgroup_ino = 3;
	w->dying = true;
	w->dirty = 200;
	w->writeback = 16;
	w->avg_write_bandwidth = 25600;
	w->pages_written = 5000;
	w->switched_out = 1000;
	w->foreign_works = 14;
	g_ptr_array_add(r->cgwbs, w);
	m->path = g_strdup("/e7/b");
	m->ino = 4;
	m->online = true;
	m->nr_file_dirty = 300;
	m->nr_file = 9000;
	m->frn_flushes = 46;
	m->frn_flush_failures = 40;
	g_ptr_array_add(r->memcgs, m);

	t = wbsim_report_text(r, FALSE);
	assert_true(contains(t, "  job 2 (C): pauses=0, paused=0.000ms, max pause=0.000ms, "
				"cpu=40.500ms, cpu wait=0.000ms, lock wait=0.000ms, invalidates=0\n"
				"    rate schedule: worst lag=2459.317ms\n"));
	assert_true(contains(t, "cgroup writeback (dying_wb = unreachable): inode switches=1000, "
				"skipped=3, bdi write bandwidth=256000KB/s\n"
				"  wb ctx 0 memcg /e7/a (ino 3) (dying): dirty=200, writeback=16, "
				"bandwidth=102400KB/s, pages written=5000, switched in=0, out=1000, "
				"foreign works=14\n"
				"  memcg /e7/b (ino 4): dirty=300, writeback=0, file=9000, foreign flushes=46, "
				"failed=40\nblock device:\n"));

	r->dying_wb_reachable = true;
	json = wbsim_report_json(r, FALSE);
	root = parse(json);
	wb = json_object_get_object_member(json_node_get_object(root), "wbsim");
	assert_int_equal(json_object_get_int_member(json_array_get_object_element(
		json_object_get_array_member(wb, "jobs"), 2), "max_lag_ns"), 2459317000ll);
	cg = json_object_get_object_member(wb, "cgroup_writeback");
	assert_non_null(cg);
	assert_string_equal(json_object_get_string_member(cg, "dying_wb"), "reachable");
	assert_int_equal(json_object_get_int_member(cg, "inode_switches"), 1000);
	assert_int_equal(json_object_get_int_member(cg, "inode_switches_skipped"), 3);
	assert_int_equal(json_object_get_int_member(cg, "tot_write_bandwidth_kib_s"), 256000);
	o = json_array_get_object_element(json_object_get_array_member(cg, "wbs"), 0);
	assert_string_equal(json_object_get_string_member(o, "memcg"), "/e7/a");
	assert_int_equal(json_object_get_int_member(o, "cgroup_ino"), 3);
	assert_true(json_object_get_boolean_member(o, "dying"));
	assert_int_equal(json_object_get_int_member(o, "foreign_works"), 14);
	assert_int_equal(json_object_get_int_member(o, "switched_out"), 1000);
	o = json_array_get_object_element(json_object_get_array_member(cg, "memcgs"), 0);
	assert_string_equal(json_object_get_string_member(o, "path"), "/e7/b");
	assert_int_equal(json_object_get_int_member(o, "cgroup_ino"), 4);
	assert_int_equal(json_object_get_int_member(o, "foreign_flushes"), 46);
	assert_int_equal(json_object_get_int_member(o, "foreign_flush_failures"), 40);
}

static void test_csv(void **state)
{
	struct fixture *fx = *state;
	g_autoptr(GString) s = wbsim_report_csv(fx->r);

	assert_string_equal(s->str,
			    "time_s,dirty_pages,writeback_pages\n"
			    "0.5,100,20\n"
			    "1,2048.5,1e+20\n");
}

/* A file's record lengths: counted by length, the median exactly, the
 * power-of-two buckets. */
/* RFC 4180 in the header: a name with a comma, a double quote or a line
 * end is quoted, its quotes doubled; the others are written as they are. */
static void test_csv_head_quoting(void **state)
{
	const char *const cols[] = { "time_s", "memcg:/a,b_dirty_pages", "q\"x", "l\nf", "plain" };
	GString *s = g_string_new(NULL);

	(void)state;
	wbsim_report_csv_head(s, cols, G_N_ELEMENTS(cols));
	assert_string_equal(s->str, "time_s,\"memcg:/a,b_dirty_pages\",\"q\"\"x\",\"l\nf\",plain\n");
	g_string_free(s, TRUE);
}

static void test_extent_lengths(void **state)
{
	static const uint64_t odd[] = { 7, 1, 7, 7, 3 }, even[] = { 100, 3, 100, 3 };
	static const uint64_t big[] = { UINT64_C(1) << 40, 1 };
	struct wbsim_extent_result e = { 0 };
	g_autoptr(GArray) b = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	uint64_t hist[64];

	(void)state;
	/* no records (an empty file): median 0, no bucket */
	assert_true(wbsim_extent_median_length(&e) == 0);
	assert_int_equal(wbsim_extent_log2_histogram(&e, hist), 0);
	wbsim_extent_lengths_set(&e, b);
	assert_int_equal(e.lengths->len, 0);
	assert_true(wbsim_extent_median_length(&e) == 0);

	g_array_append_vals(b, odd, G_N_ELEMENTS(odd));
	wbsim_extent_lengths_set(&e, b);
	assert_int_equal(e.lengths->len, 3);
	assert_int_equal(g_array_index(e.lengths, struct wbsim_extent_length, 2).blocks, 7);
	assert_int_equal(g_array_index(e.lengths, struct wbsim_extent_length, 2).count, 3);
	assert_true(wbsim_extent_median_length(&e) == 7);	/* 1 3 7 7 7 */
	assert_int_equal(wbsim_extent_log2_histogram(&e, hist), 3);
	assert_int_equal(hist[0], 1);
	assert_int_equal(hist[1], 1);
	assert_int_equal(hist[2], 3);

	g_array_set_size(b, 0);
	g_array_append_vals(b, even, G_N_ELEMENTS(even));
	wbsim_extent_lengths_set(&e, b);	/* replaces the lengths */
	assert_true(wbsim_extent_median_length(&e) == 51.5);	/* 3 3 | 100 100 */

	g_array_set_size(b, 0);
	g_array_append_vals(b, big, G_N_ELEMENTS(big));
	wbsim_extent_lengths_set(&e, b);
	assert_int_equal(wbsim_extent_log2_histogram(&e, hist), 41);
	assert_int_equal(hist[40], 1);
	assert_int_equal(hist[0], 1);
	assert_true(wbsim_extent_median_length(&e) == ((double)(UINT64_C(1) << 40) + 1) / 2);
	g_array_unref(e.lengths);
}

/* An empty result reports without crashing, and frees. */
static void test_empty_result(void **state)
{
	struct wbsim_run_result *r = wbsim_run_result_new();
	g_autoptr(GString) t = wbsim_report_text(r, TRUE);
	g_autofree char *j = wbsim_report_json(r, TRUE);
	g_autoptr(GString) c = wbsim_report_csv(r);
	g_autoptr(JsonNode) root = parse(j);

	assert_true(g_str_has_prefix(t->str, "\nwbsim: "));
	assert_true(contains(t, "  writeback starts (writeback_start): none\n"));
	assert_int_equal(json_array_get_length(json_object_get_array_member(
		json_node_get_object(root), "jobs")), 0);
	assert_false(json_object_has_member(json_node_get_object(root), "disk_util"));
	assert_string_equal(c->str, "\n");
	wbsim_run_result_free(r);
	wbsim_run_result_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num2str),
		cmocka_unit_test_setup_teardown(test_text_fio_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_latencies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_wbsim_section, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_global_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iodepths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_plus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroups, setup, teardown),
		cmocka_unit_test(test_csv_head_quoting),
		cmocka_unit_test(test_extent_lengths),
		cmocka_unit_test(test_empty_result),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
