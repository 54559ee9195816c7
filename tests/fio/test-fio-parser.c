/* SPDX-License-Identifier: MIT */
/*
 * test-fio-parser.c - the fio job-file grammar: [global] inheritance,
 * repeated sections, include, option sorting, per-direction values,
 * numjobs clones, reporting groups, substitutions and defaults.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include "fio-test-util.h"
#include "fio/fio-parser.h"

#define KB 1024ULL
#define SEC 1000000000ULL

static void test_defaults(void **state)
{
	struct wbsim_fio_file *f = fio_load("[w]\nrw=write\n");
	struct wbsim_fio_job *j = fio_job(f, 0);
	int d;

	assert_int_equal(f->jobs->len, 1);
	assert_string_equal(j->name, "w");
	assert_string_equal(j->section, "w");
	assert_string_equal(j->file, "t.fio");
	assert_int_equal(j->line, 1);
	assert_int_equal(j->rw, WBSIM_FIO_WRITE);
	for (d = 0; d < WBSIM_FIO_DDIR_NR; d++) {
		assert_int_equal(j->bs[d], 4096);
		assert_int_equal(j->bsrange_min[d], 0);
		assert_int_equal(j->rate[d], 0);
	}
	assert_int_equal(j->iodepth, 1);
	assert_string_equal(j->ioengine, "psync");
	assert_int_equal(j->nrfiles, 1);
	assert_int_equal(j->numjobs, 1);
	assert_int_equal(j->loops, 1);
	assert_true(j->invalidate);
	assert_true(j->randrepeat);
	assert_int_equal(j->randseed, 0x89);
	assert_false(j->randseed_set);
	assert_int_equal(j->random_generator, WBSIM_FIO_RAND_TAUSWORTHE);
	assert_int_equal(j->fallocate, WBSIM_FIO_FALLOCATE_NATIVE);
	assert_int_equal(j->kb_base, 1024);
	assert_string_equal(j->filename_format, "$jobname.$jobnum.$filenum");
	assert_string_equal(j->file_service_type, "roundrobin");
	assert_true(j->create_serialize);
	assert_true(j->create_fsync);
	assert_false(j->create_on_open);
	assert_false(j->direct);
	assert_false(j->time_based);
	assert_int_equal(j->runtime_ns, 0);
	assert_int_equal(j->size, 0);
	assert_int_equal(j->rwmix_read, 50);
	assert_int_equal(j->thinktime_blocks, 1);
	assert_null(j->directory);
	assert_null(j->filename);
	assert_int_equal(j->options->len, 1);
	assert_int_equal(f->warnings->len, 0);
	wbsim_fio_file_free(f);
}

static void test_globals(void **state)
{
	struct wbsim_fio_file *f = fio_load(
		"; several globals apply to the jobs below them\n"
		"[global]\n"
		"rw=write\n"
		"bs=8k\n"
		"name=ignored\n"
		"[a]\n"
		"[global-second]\n"		/* 6-character prefix match */
		"bs=16k\n"
		"iodepth=4\n"
		"[b]\n"
		"[b]\n"
		"blocksize=32k\n"
		"name=renamed\n");
	const struct wbsim_fio_option *o;

	assert_int_equal(f->jobs->len, 3);
	assert_string_equal(fio_job(f, 0)->name, "a");
	assert_int_equal(fio_job(f, 0)->bs[1], 8 * KB);
	assert_int_equal(fio_job(f, 0)->iodepth, 1);
	assert_string_equal(fio_job(f, 1)->name, "b");
	assert_int_equal(fio_job(f, 1)->bs[1], 16 * KB);
	assert_int_equal(fio_job(f, 1)->iodepth, 4);
	assert_int_equal(fio_job(f, 1)->line, 10);
	/* a repeated name is a second job; a job's own name= renames it */
	assert_string_equal(fio_job(f, 2)->section, "b");
	assert_string_equal(fio_job(f, 2)->name, "renamed");
	assert_int_equal(fio_job(f, 2)->bs[0], 32 * KB);
	assert_int_equal(fio_job(f, 2)->line, 11);
	/* global options: all of them, in order, duplicates kept */
	assert_int_equal(f->global_options->len, 5);
	o = g_ptr_array_index(f->global_options, 1);
	assert_string_equal(o->name, "bs");
	assert_string_equal(o->value, "8k");
	assert_int_equal(o->line, 4);
	o = g_ptr_array_index(f->global_options, 3);
	assert_string_equal(o->value, "16k");
	/* job options: its own only, canonical name, value as typed */
	assert_int_equal(fio_job(f, 0)->options->len, 0);
	assert_int_equal(fio_job(f, 2)->options->len, 2);
	o = g_ptr_array_index(fio_job(f, 2)->options, 0);
	assert_string_equal(o->name, "bs");
	assert_string_equal(o->value, "32k");
	assert_int_equal(o->line, 12);
	wbsim_fio_file_free(f);
}

static void test_block_sizes(void **state)
{
	struct wbsim_fio_file *f = fio_load(
		"[global]\nrw=write\n"
		"[a]\nbs=4k-16k\n"
		"[b]\nbs=8k,32k\n"
		"[c]\nbs=,8k\n"
		"[d]\nbs=1k,2k,3k\n"
		"[g]\nbs=4k:8k\n"
		"[h]\nbs=64k,\n");

	/* bs=4k-16k is read 4k, write and trim 16k, as fio 3.x reads it */
	assert_int_equal(fio_job(f, 0)->bs[0], 4 * KB);
	assert_int_equal(fio_job(f, 0)->bs[1], 16 * KB);
	assert_int_equal(fio_job(f, 0)->bs[2], 16 * KB);
	assert_int_equal(fio_job(f, 0)->bsrange_min[1], 0);
	assert_true(fio_warned(f, "t.fio:4: bs=4k-16k sets the read block size"));
	assert_true(fio_warned(f, "bsrange=4k-16k"));
	assert_int_equal(fio_job(f, 1)->bs[0], 8 * KB);
	assert_int_equal(fio_job(f, 1)->bs[1], 32 * KB);
	assert_int_equal(fio_job(f, 1)->bs[2], 32 * KB);
	assert_int_equal(fio_job(f, 2)->bs[0], 4096);
	assert_int_equal(fio_job(f, 2)->bs[1], 8 * KB);
	assert_int_equal(fio_job(f, 2)->bs[2], 8 * KB);
	assert_int_equal(fio_job(f, 3)->bs[0], 1 * KB);
	assert_int_equal(fio_job(f, 3)->bs[1], 2 * KB);
	assert_int_equal(fio_job(f, 3)->bs[2], 3 * KB);
	/* bsrange= is refused (issue 21: it was parsed and never used) */
	assert_int_equal(fio_job(f, 4)->bs[0], 4 * KB);
	assert_int_equal(fio_job(f, 4)->bs[1], 8 * KB);
	/* a trailing comma is dropped */
	assert_int_equal(fio_job(f, 5)->bs[0], 64 * KB);
	assert_int_equal(fio_job(f, 5)->bs[2], 64 * KB);
	assert_false(fio_warned(f, "bs=8k,32k"));
	wbsim_fio_file_free(f);
}

static void test_kb_base_order(void **state)
{
	struct wbsim_fio_file *f = fio_load(
		"[global]\nrw=write\n"
		"[a]\nsize=4KiB\nbs=4k\nkb_base=1000\n"	/* kb_base sorts first */
		"[b]\nsize=4KiB\n"
		"[global]\nbs=4k\n"
		"[c]\nkb_base=1000\n"			/* does not re-read bs */
		"[global]\nkb_base=1000\n"
		"[d]\nbs=4k\nsize=1m\n");

	assert_int_equal(fio_job(f, 0)->kb_base, 1000);
	assert_int_equal(fio_job(f, 0)->size, 4096);
	assert_int_equal(fio_job(f, 0)->bs[1], 4000);
	assert_int_equal(fio_job(f, 1)->size, 4000);
	assert_int_equal(fio_job(f, 2)->bs[1], 4096);
	assert_int_equal(fio_job(f, 3)->bs[1], 4000);
	assert_int_equal(fio_job(f, 3)->size, 1000000);
	wbsim_fio_file_free(f);
}

static void test_values(void **state)
{
	struct wbsim_fio_file *f = fio_load(
		"[global]\nrw=randwrite\n"
		"[a]\nsize=20m\noffset=50m\nruntime=1m\nthinktime=0\n"
		"startdelay=5-5\nramp_time=0\ntime_based\ngroup_reporting\n"
		"buffered=0\nfallocate=0\nrate=,500k\nrate_iops=0\n"
		"randseed=0x1234\nfilesize=1m-1m\nio_limit=8g\n"
		"[b]\nrw=write:112k\nsize=0x100000\n"
		"time_based=0\nfallocate=1\ndirect=1\nbuffered=1\n"
		"rwmixwrite=30\nrandom_generator=lfsr\nfilesize=64k\n"
		"[c]\nrw=randrw\nfallocate=keep\nend_fsync=1\nfsync_on_close=1\n"
		"fsync=32\nfdatasync=8\nnorandommap\nrandrepeat=0\ninvalidate=0\n"
		"nrfiles=12\ncreate_on_open=1\noverwrite=0\nloops=3\nunlink=0\n"
		"offset_increment=1g\nnumber_ios=1000\n");
	struct wbsim_fio_job *a, *b, *c;

	a = fio_job(f, 0);
	b = fio_job(f, 1);
	c = fio_job(f, 2);
	assert_int_equal(a->rw, WBSIM_FIO_RANDWRITE);
	assert_int_equal(a->rw_modifier, 0);
	assert_false(a->size_is_percent);
	assert_int_equal(a->size, 20 * KB * KB);
	assert_int_equal(a->offset, 50 * KB * KB);
	assert_int_equal(a->runtime_ns, 60 * SEC);
	assert_int_equal(a->startdelay_ns, 5 * SEC);
	assert_int_equal(a->startdelay_max_ns, 5 * SEC);
	assert_true(a->time_based);
	assert_true(a->group_reporting);
	assert_true(a->direct);
	assert_int_equal(a->fallocate, WBSIM_FIO_FALLOCATE_NONE);
	assert_int_equal(a->rate[0], 0);
	assert_int_equal(a->rate[1], 500 * KB);
	assert_int_equal(a->rate[2], 500 * KB);
	assert_int_equal(a->randseed, 0x1234);
	assert_true(a->randseed_set);
	assert_int_equal(a->filesize_min, 1 * KB * KB);
	assert_int_equal(a->filesize_max, 1 * KB * KB);
	assert_int_equal(a->io_size, 8 * KB * KB * KB);

	assert_int_equal(b->rw, WBSIM_FIO_WRITE);
	assert_int_equal(b->rw_modifier, 112 * KB);
	assert_int_equal(b->size, 1 * KB * KB);
	assert_false(b->size_is_percent);
	assert_false(b->time_based);
	assert_int_equal(b->fallocate, WBSIM_FIO_FALLOCATE_POSIX);
	assert_false(b->direct);	/* buffered=1 after direct=1: file order */
	assert_int_equal(b->rwmix_read, 70);
	/* a sequential job draws no offsets: lfsr is harmless there */
	assert_int_equal(b->random_generator, WBSIM_FIO_RAND_LFSR);
	assert_true(b->random_generator_set);
	assert_false(a->random_generator_set);
	assert_int_equal(b->filesize_min, 64 * KB);
	assert_int_equal(b->filesize_max, 64 * KB);

	assert_int_equal(c->rw, WBSIM_FIO_RANDRW);
	assert_true(fio_warned(f, "job 'c': rw=randrw: only the write share (50%) is simulated"));
	/* the reads' draws are missing between the writes' */
	assert_true(fio_warned(f, "nor their draws"));
	assert_int_equal(c->fallocate, WBSIM_FIO_FALLOCATE_KEEP);
	assert_true(c->end_fsync);
	assert_true(c->fsync_on_close);
	assert_int_equal(c->fsync, 32);
	assert_int_equal(c->fdatasync, 8);
	assert_true(c->norandommap);
	assert_false(c->invalidate);
	assert_int_equal(c->nrfiles, 12);
	assert_true(c->create_on_open);
	assert_false(c->overwrite);
	assert_int_equal(c->loops, 3);
	assert_false(c->unlink);
	assert_int_equal(c->offset_increment, KB * KB * KB);
	assert_int_equal(c->number_ios, 1000);
	wbsim_fio_file_free(f);
}

/*
 * Issue 21, cause 5: options that were parsed as modelled and then never
 * used are refused (or, harmless at their default, accepted).
 */
static void test_unused_options_refused(void **state)
{
	static const char *const cases[][2] = {
		{ "unlink=1", "'unlink' is not modelled" },
		{ "thinktime=10ms", "fio option 'thinktime' is not modelled by wbsim (think time between I/Os is not modelled)" },
		{ "end_syncfs=1", "'end_syncfs' is not modelled" },
		{ "exitall", "'exitall' is not modelled" },
		{ "wait_for=x", "'wait_for' is not modelled" },
		{ "overwrite=1", "'overwrite' is not modelled" },
		{ "unlink_each_loop=1", "'unlink_each_loop' is not modelled" },
		{ "rate_iops=100", "'rate_iops' is not modelled" },
		{ "bsrange=4k-16k", "'bsrange' is not modelled" },
		{ "file_service_type=random", "'file_service_type' is not modelled" },
		{ "file_service_type=roundrobin:4", "'file_service_type' is not modelled" },
		{ "size=50%", "size as a percentage of the file or device is not modelled" },
		{ "offset=10%", "offset as a percentage of the file or device is not modelled" },
		{ "filesize=1m-4m", "a range of file sizes (a random size per file) is not modelled" },
		{ "startdelay=1-5", "a range of start delays (a random delay) is not modelled" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf("[w]\nrw=write\nsize=1m\n%s\n", cases[i][0]);

		fio_fails(text, WBSIM_ERROR_UNSUPPORTED, cases[i][1], TRUE);
	}
	fio_fails("[w]\nrw=randwrite:8\nsize=1m\n", WBSIM_ERROR_UNSUPPORTED,
		  "rw=randwrite:8: a new random offset every 8 I/Os is not modelled", TRUE);
	fio_fails("[w]\nrw=randwrite\nsize=1m\nrandom_generator=lfsr\n", WBSIM_ERROR_UNSUPPORTED,
		  "t.fio:4: fio option 'random_generator' is not modelled by wbsim (job 'w': rw=randwrite would draw its offsets from fio's LFSR",
		  TRUE);
	fio_fails("[w]\nrw=write:1000\nsize=1m\n", WBSIM_ERROR_UNSUPPORTED,
		  "rw=write:1000: a skip that is not a whole number of bs=4096 blocks is not modelled", TRUE);
}

static void test_clones_and_groups(void **state)
{
	struct wbsim_fio_file *f = fio_load(
		"[global]\nrw=write\n"
		"[a]\nstonewall\nnumjobs=3\n"	/* first job: no new group */
		"[b]\n"
		"[c]\nstonewall\nnumjobs=2\n"
		"[d]\nnew_group\n"
		"[e]\nwait_for_previous\n");
	static const struct {
		const char *name;
		unsigned int clone, group;
		gboolean stonewall;
		unsigned int thread;	/* fio makes a's clone 2 before clone 1 */
	} want[] = {
		{ "a", 0, 0, TRUE, 1 }, { "a", 1, 0, FALSE, 3 }, { "a", 2, 0, FALSE, 2 },
		{ "b", 0, 0, FALSE, 4 },
		{ "c", 0, 1, TRUE, 5 }, { "c", 1, 1, FALSE, 6 },
		{ "d", 0, 2, FALSE, 7 },
		{ "e", 0, 3, TRUE, 8 },
	};
	guint i;

	assert_int_equal(f->jobs->len, G_N_ELEMENTS(want));
	for (i = 0; i < G_N_ELEMENTS(want); i++) {
		struct wbsim_fio_job *j = fio_job(f, i);

		assert_string_equal(j->name, want[i].name);
		assert_int_equal(j->clone, want[i].clone);
		assert_int_equal(j->thread_number, want[i].thread);
		assert_int_equal(j->group_id, want[i].group);
		assert_int_equal(j->stonewall, want[i].stonewall);
	}
	assert_int_equal(fio_job(f, 2)->numjobs, 3);
	assert_true(fio_job(f, 6)->new_group);
	/* clones carry the job's own option record */
	assert_int_equal(fio_job(f, 1)->options->len, 2);
	wbsim_fio_file_free(f);
}

static void test_substitutions(void **state)
{
	struct wbsim_fio_file *f;
	const struct wbsim_fio_option *o;

	g_setenv("WBSIM_T_SIZE", "1g", TRUE);
	g_unsetenv("WBSIM_T_UNSET");
	f = fio_load("[w]\nrw=write\nnumjobs=$ncpus*2\nsize=${WBSIM_T_SIZE}\n"
		     "directory=/mnt/$ncpus/${WBSIM_T_UNSET}x\n"
		     "iodepth=$mb_memory/$pagesize\nbs=$pagesize\n"
		     "nrfiles=($ncpus+4)/2\n");
	assert_int_equal(f->jobs->len, 24);
	assert_int_equal(fio_job(f, 23)->clone, 23);
	assert_int_equal(fio_job(f, 0)->size, KB * KB * KB);
	/* keywords in strings are replaced, without arithmetic */
	assert_string_equal(fio_job(f, 0)->directory, "/mnt/12/x");
	assert_int_equal(fio_job(f, 0)->iodepth, 4);
	assert_int_equal(fio_job(f, 0)->bs[1], 4096);
	assert_int_equal(fio_job(f, 0)->nrfiles, 8);
	o = g_ptr_array_index(fio_job(f, 0)->options, 1);
	assert_string_equal(o->name, "numjobs");
	assert_string_equal(o->value, "$ncpus*2");	/* as typed */
	wbsim_fio_file_free(f);
}

/*
 * Options that change fio's output which the report does not apply warn
 * when set to anything but fio's default; at the default they stay quiet.
 */
static void test_report_options_warn(void **state)
{
	struct wbsim_fio_file *f = fio_load(
		"[w]\nrw=write\nclat_percentiles=1\nsignificant_figures=4\nstats=1\n"
		"disk_util=1\nlat_percentiles=0\ngtod_reduce=0\nunified_rw_reporting=none\n"
		"unit_base=8\npercentile_list=1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99\n"
		"[x]\nrw=write\npercentile_list=50:99\nclat_percentiles=0\nlat_percentiles=1\n"
		"significant_figures=6\nunified_rw_reporting=mixed\nunit_base=1\nwrite_iolog=x.log\n"
		"continue_on_error=all\nrate_min=0\nrate_min=1m\nrate_iops_min=10\n");

	(void)state;
	assert_int_equal(f->warnings->len, 10);
	assert_true(fio_warned(f, "t.fio:14: option percentile_list is not modelled: the report prints fio's default completion-latency percentiles (clat_percentiles=1, percentile_list of fio's 17 entries)"));
	assert_true(fio_warned(f, "t.fio:15: option clat_percentiles is not modelled: the report prints fio's default"));
	assert_true(fio_warned(f, "t.fio:16: option lat_percentiles is not modelled"));
	assert_true(fio_warned(f, "t.fio:17: option significant_figures is not modelled: the report prints numbers with fio's default 4 significant figures"));
	assert_true(fio_warned(f, "t.fio:18: option unified_rw_reporting is not modelled: the report prints reads and writes separately"));
	assert_true(fio_warned(f, "t.fio:19: option unit_base is not modelled: the report prints bandwidth in bytes"));
	assert_true(fio_warned(f, "t.fio:20: option write_iolog is not modelled: the I/O log file"));
	assert_true(fio_warned(f, "t.fio:21: option continue_on_error is not modelled: no I/O errors are simulated"));
	/* rate_min=0 is fio's default (no minimum): no warning for line 22 */
	assert_true(fio_warned(f, "t.fio:23: option rate_min is not modelled: fio ends the job with an error when its rate falls below this minimum"));
	assert_true(fio_warned(f, "t.fio:24: option rate_iops_min is not modelled: fio ends the job"));
	wbsim_fio_file_free(f);
}

static void test_warnings(void **state)
{
	struct wbsim_fio_file *f = fio_load(
		"[w]\nrw=write\nioengine=io_uring\nsqthread_poll\nverify=md5\n"
		"verify=0\nzonesize=0\nsync=none\nthread\nwrite_bw_log\n"
		"description=x\nrwmixcycle=3\n");
	struct wbsim_fio_job *j = fio_job(f, 0);

	assert_int_equal(f->warnings->len, 3);
	assert_string_equal(g_ptr_array_index(f->warnings, 0),
			    "t.fio:5: option verify is not modelled: verification reads data back and checks it; reads are not modelled");
	assert_string_equal(g_ptr_array_index(f->warnings, 1),
			    "t.fio:12: option rwmixcycle is deprecated in fio and ignored");
	assert_string_equal(g_ptr_array_index(f->warnings, 2),
			    "t.fio:4: option sqthread_poll is not modelled: the submission polling thread is not modelled");
	assert_string_equal(j->ioengine, "io_uring");
	assert_string_equal(j->description, "x");	/* printed by the report */
	assert_int_equal(j->options->len, 11);
	wbsim_fio_file_free(f);
}

/* fio's log options: the bare key names the log after the job; what
 * wbsim does not write is a warning naming the line */
static void test_log_options(void **state)
{
	struct wbsim_fio_file *f = fio_load(
		"[w]\nrw=write\nwrite_bw_log\nwrite_lat_log=l\nlog_avg_msec=100\n"
		"log_offset=1\nlog_max_value=1\nper_job_logs=0\nbwavgtime=200\n"
		"write_hist_log=h\nlog_unix_epoch=1\nlog_hist_msec=0\n"
		"[v]\nrw=write\nlog_window_value=both\n");
	struct wbsim_fio_job *j = fio_job(f, 0), *v = fio_job(f, 1);

	assert_string_equal(j->write_bw_log, "");
	assert_string_equal(j->write_lat_log, "l");
	assert_null(j->write_iops_log);
	assert_int_equal(j->log_avg_msec, 100);
	assert_true(j->log_offset);
	assert_true(j->log_max);
	assert_false(j->log_prio);
	assert_false(j->per_job_logs);
	assert_int_equal(j->bwavgtime, 200);
	assert_int_equal(j->iopsavgtime, 0);
	assert_true(v->per_job_logs);
	assert_false(v->log_max);
	assert_null(v->write_bw_log);
	assert_int_equal(f->warnings->len, 3);
	assert_string_equal(g_ptr_array_index(f->warnings, 0),
			    "t.fio:10: option write_hist_log is not modelled: completion latency histogram logs (write_hist_log) are not written");
	assert_string_equal(g_ptr_array_index(f->warnings, 1),
			    "t.fio:11: option log_unix_epoch is not modelled: simulated time has no wall-clock epoch: log times count from the job's start");
	assert_string_equal(g_ptr_array_index(f->warnings, 2),
			    "t.fio:15: option log_window_value=both is not modelled: fio 3.33's logs have one value column; the window's average is written");
	wbsim_fio_file_free(f);
}

static char *write_file(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	char *sub = g_path_get_dirname(path);

	g_mkdir_with_parents(sub, 0700);
	g_free(sub);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static void test_include(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-fio-XXXXXX", NULL);
	g_autofree char *main_fio = NULL, *inc = NULL, *loop = NULL, *sec = NULL;
	g_autofree char *f2 = NULL, *inc_b = NULL;
	struct wbsim_fio_file *f = NULL;
	struct wbsim_fio_job *j;
	const struct wbsim_fio_option *o;
	GError *err = NULL;
	const char *two[3];

	assert_non_null(dir);
	main_fio = write_file(dir, "main.fio",
			      "[global]\ninclude inc/common.fio\n[w]\nbs=8k\ninclude inc/common.fio\n");
	inc = write_file(dir, "inc/common.fio",
			 "; included: no sections\nrw=write\ninclude more.fio\n");
	inc_b = write_file(dir, "inc/more.fio", "iodepth=16\n");
	assert_true(wbsim_fio_parse_file(main_fio, &test_env_e1, &f, &err));
	assert_null(err);
	j = fio_job(f, 0);
	assert_int_equal(j->rw, WBSIM_FIO_WRITE);
	assert_int_equal(j->iodepth, 16);
	assert_int_equal(j->bs[1], 8 * KB);
	assert_int_equal(j->options->len, 3);
	o = g_ptr_array_index(j->options, 2);
	assert_string_equal(o->name, "iodepth");
	assert_string_equal(o->file, inc_b);
	assert_int_equal(o->line, 1);
	assert_int_equal(f->global_options->len, 2);
	assert_int_equal(f->files->len, 3);
	wbsim_fio_file_free(f);

	/* circular includes are detected */
	loop = write_file(dir, "loop.fio", "[w]\nrw=write\ninclude a.fio\n");
	g_free(write_file(dir, "a.fio", "include b.fio\n"));
	g_free(write_file(dir, "b.fio", "bs=4k\ninclude a.fio\n"));
	assert_false(wbsim_fio_parse_file(loop, &test_env_e1, &f, &err));
	assert_true(g_error_matches(err, WBSIM_ERROR, WBSIM_ERROR_PARSE));
	assert_non_null(strstr(err->message, "b.fio:2: circular include of"));
	g_clear_error(&err);
	g_free(write_file(dir, "self.fio", "[w]\ninclude self.fio\n"));
	g_free(loop);
	loop = g_build_filename(dir, "self.fio", NULL);
	assert_false(wbsim_fio_parse_file(loop, &test_env_e1, &f, &err));
	assert_non_null(strstr(err->message, "self.fio:2: circular include"));
	g_clear_error(&err);

	/* no sections in included files; missing includes name the line */
	sec = write_file(dir, "sec.fio", "[w]\nrw=write\ninclude withsec.fio\ninclude nosuch.fio\n");
	g_free(write_file(dir, "withsec.fio", "bs=4k\n[x]\n"));
	assert_false(wbsim_fio_parse_file(sec, &test_env_e1, &f, &err));
	assert_true(g_error_matches(err, WBSIM_ERROR, WBSIM_ERROR_PARSE));
	assert_non_null(strstr(err->message, "sec.fio:3: include withsec.fio: "));
	assert_non_null(strstr(err->message, "withsec.fio:2: section header '[x]'"));
	g_clear_error(&err);
	g_free(write_file(dir, "withsec.fio", "bs=4k\n"));
	assert_false(wbsim_fio_parse_file(sec, &test_env_e1, &f, &err));
	assert_true(g_error_matches(err, WBSIM_ERROR, WBSIM_ERROR_IO));
	assert_non_null(strstr(err->message, "sec.fio:4: include nosuch.fio: "));
	g_clear_error(&err);

	/* several files: an implicit stonewall before each file's first job */
	f2 = write_file(dir, "second.fio", "[x]\nrw=write\n[y]\nrw=write\n");
	two[0] = main_fio;
	two[1] = f2;
	two[2] = NULL;
	assert_true(wbsim_fio_parse_files(two, &test_env_e1, &f, &err));
	assert_int_equal(f->jobs->len, 3);
	assert_false(fio_job(f, 0)->stonewall);
	assert_true(fio_job(f, 1)->stonewall);
	assert_int_equal(fio_job(f, 1)->group_id, 1);
	assert_false(fio_job(f, 2)->stonewall);
	assert_int_equal(fio_job(f, 2)->group_id, 1);
	assert_string_equal(fio_job(f, 1)->file, f2);
	/* [global] options carry over to later files, as fio's def_thread */
	assert_int_equal(fio_job(f, 2)->iodepth, 16);
	wbsim_fio_file_free(f);

	g_free(write_file(dir, "rel.fio", "[w]\nrw=write\ninclude inc/more.fio\n"));
	{
		g_autofree char *text = NULL;
		g_autofree char *rel = g_build_filename(dir, "rel.fio", NULL);

		assert_true(g_file_get_contents(rel, &text, NULL, NULL));
		assert_true(wbsim_fio_parse_string(text, -1, "rel", dir,
						   &test_env_e1, &f, &err));
		assert_int_equal(fio_job(f, 0)->iodepth, 16);
		wbsim_fio_file_free(f);
	}
	/* the temporary files are left for the OS to clean; remove the dir tree */
	{
		const char *names[] = { "inc/common.fio", "inc/more.fio", "inc", "main.fio",
					"loop.fio", "a.fio", "b.fio", "self.fio", "sec.fio",
					"withsec.fio", "second.fio", "rel.fio" };
		guint i;

		for (i = 0; i < G_N_ELEMENTS(names); i++) {
			g_autofree char *p = g_build_filename(dir, names[i], NULL);

			g_remove(p);
		}
		g_rmdir(dir);
	}
}

static void test_sections_api(void **state)
{
	struct wbsim_ini_doc *doc = NULL;
	struct wbsim_fio_file *f = wbsim_fio_file_new();
	GError *err = NULL;

	/* the scenario loader's path: lexed sections, fed in two calls */
	assert_true(wbsim_ini_lex("[global]\nrw=write\n[j1]\nsize=1m\n", -1,
				  "scenario.ini", WBSIM_INI_INCLUDE, &doc, &err));
	assert_true(wbsim_fio_parse_sections(f, doc->sections, NULL,
					     &test_env_e1, FALSE, &err));
	assert_true(wbsim_fio_parse_sections(f, doc->sections, NULL,
					     &test_env_e1, TRUE, &err));
	wbsim_ini_doc_free(doc);
	assert_int_equal(f->jobs->len, 2);
	assert_string_equal(fio_job(f, 1)->file, "scenario.ini");
	assert_int_equal(fio_job(f, 1)->line, 3);
	assert_true(fio_job(f, 1)->stonewall);
	assert_int_equal(fio_job(f, 1)->group_id, 1);
	assert_int_equal(fio_job(f, 0)->size, KB * KB);
	assert_string_equal(wbsim_fio_rw_name(WBSIM_FIO_RANDTRIMWRITE), "randtrimwrite");
	assert_true(wbsim_fio_rw_writes(WBSIM_FIO_RW));
	assert_false(wbsim_fio_rw_writes(WBSIM_FIO_RANDREAD));
	wbsim_fio_file_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_globals),
		cmocka_unit_test(test_block_sizes),
		cmocka_unit_test(test_kb_base_order),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_unused_options_refused),
		cmocka_unit_test(test_clones_and_groups),
		cmocka_unit_test(test_substitutions),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_report_options_warn),
		cmocka_unit_test(test_log_options),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_sections_api),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
