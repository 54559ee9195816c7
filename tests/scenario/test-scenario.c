/* SPDX-License-Identifier: MIT */
/*
 * test-scenario.c - the scenario loader: sections and keys from a file,
 * includes and their override order, circular includes, inline fio
 * sections (fio grammar, $ncpus from [machine]), the fio file form, the two
 * forms together, --set after the file, and exact error messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <wbsim/wbsim.h>
#include "scenario/config.h"
#include "defs/fio.h"

#define GIB ((uint64_t)1 << 30)

static char *tmpdir;

static int setup(void **state)
{
	tmpdir = g_dir_make_tmp("wbsim-scenario-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	const char *name;
	GDir *d = g_dir_open(tmpdir, 0, NULL);

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(tmpdir, name, NULL);

		g_unlink(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return 0;
}

/* Write @text to NAME in the temporary directory; return its path. */
static char *put(const char *name, const char *text)
{
	char *path = g_build_filename(tmpdir, name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

/* Load @text as a string scenario in tmpdir; expect failure with @message. */
static void assert_load_fails(const char *text, const char *message)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn;

	scn = wbsim_scenario_load_string(text, "s.ini", tmpdir, NULL, &e);
	assert_null(scn);
	assert_non_null(e);
	assert_string_equal(e->message, message);
}


static void test_keys_from_file(void **state)
{
	g_autofree char *path = put("keys.ini",
		"# comment\n"
		"[machine]\n"
		"cpus = 12   ; trailing comment\n"
		"memory=9g\n"
		"[vm]\n"
		"dirty_background_bytes = 1638m\n"
		"[writeback]\n"
		"contexts = auto\n"
		"affinity = none\n"
		"[run]\n"
		"seed = 42\n"
		"[measure]\n"
		"[events]\n"
		"at = 1s sync\n"
		"at = 500ms syncfs\n"
		"[fio:w]\nrw=write\nsize=1m\n");
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load(path, NULL, &e);
	const struct wbsim_config *cfg;
	const struct wbsim_config_event *ev;

	assert_null(e);
	assert_non_null(scn);
	cfg = wbsim_scenario_config(scn);
	assert_int_equal(cfg->cpus, 12);
	assert_true(cfg->memory == 9 * GIB);
	assert_int_equal(cfg->knobs.dirty_background_ratio, 0);
	assert_true(cfg->knobs.dirty_background_bytes == (uint64_t)1638 << 20);
	assert_int_equal(cfg->knobs.dirty_ratio, 20);
	assert_true(cfg->knobs.wb_contexts == WBSIM_CONTEXTS_AUTO);
	assert_int_equal(wbsim_config_nr_contexts(cfg, true), 1);
	assert_int_equal(wbsim_config_nr_contexts(cfg, false), 12);
	assert_string_equal(cfg->knobs.wb_affinity, "none");
	assert_int_equal(cfg->seed, 42);
	assert_int_equal(cfg->events->len, 2);
	ev = cfg->events->pdata[1];
	assert_true(ev->at == 500 * WBSIM_NSEC_PER_MSEC);
	assert_string_equal(ev->action, "syncfs");
	assert_string_equal(ev->file, path);
	assert_int_equal(ev->line, 15);
	assert_int_equal(wbsim_scenario_fio(scn)->jobs->len, 1);
	wbsim_scenario_free(scn);
}

/* Inline jobs use fio's grammar; $ncpus is the simulated machine's. */
static void test_inline_fio(void **state)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load_string(
		"[machine]\ncpus = 6\n"
		"[fio:global]\nrw=randwrite\nbs=8k\ntime_based\nruntime=10\n"
		"[fio:a]\nsize=4m\nnumjobs=$ncpus\n"
		"[fio:global]\nbs=16k\n"
		"[fio:a]\nsize=1m\ngroup_reporting\n",
		"inline.ini", tmpdir, NULL, &e);
	const struct wbsim_fio_file *fio;
	const struct wbsim_fio_job *j;

	assert_null(e);
	assert_non_null(scn);
	fio = wbsim_scenario_fio(scn);
	/* six clones of the first [a], then the second [a] */
	assert_int_equal(fio->jobs->len, 7);
	j = fio->jobs->pdata[0];
	assert_string_equal(j->name, "a");
	assert_int_equal(j->numjobs, 6);
	assert_true(j->time_based);
	assert_int_equal(j->bs[WBSIM_FIO_DDIR_WRITE], 8192);
	assert_true(j->size == 4 << 20);
	assert_string_equal(j->file, "inline.ini");
	assert_int_equal(j->line, 8);
	j = fio->jobs->pdata[6];
	assert_string_equal(j->name, "a");
	/* the second [fio:global] applies to the jobs below it */
	assert_int_equal(j->bs[WBSIM_FIO_DDIR_WRITE], 16384);
	assert_true(j->size == 1 << 20);
	wbsim_scenario_free(scn);
}

/* wbsim_scenario_workload(): the jobs after numjobs, [run] time_limit and
 * the longest runtime=, as resolved. */
static void test_workload_size(void **state)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario_workload w;
	struct wbsim_scenario *scn = wbsim_scenario_load_string(
		"[run]\ntime_limit = 90s\n"
		"[fio:a]\nrw=write\nsize=4m\nnumjobs=3\nruntime=10\n"
		"[fio:b]\nrw=write\nsize=4m\nruntime=2m\n",
		"size.ini", tmpdir, NULL, &e);

	(void)state;
	assert_null(e);
	assert_true(wbsim_scenario_workload(scn, &w, &e));
	assert_int_equal(w.nr_jobs, 4);
	assert_true(w.time_limit_ns == 90 * WBSIM_NSEC_PER_SEC);
	assert_true(w.runtime_ns == 120 * WBSIM_NSEC_PER_SEC);
	wbsim_scenario_free(scn);
	/* no time set anywhere: both 0 */
	scn = wbsim_scenario_load_string("[fio:a]\nrw=write\nsize=4m\n", "size0.ini", tmpdir, NULL,
					 &e);
	assert_null(e);
	assert_true(wbsim_scenario_workload(scn, &w, NULL));
	assert_int_equal(w.nr_jobs, 1);
	assert_true(w.time_limit_ns == 0 && w.runtime_ns == 0);
	wbsim_scenario_free(scn);
}

/* fio's messages for inline jobs point into the scenario file. */
static void test_inline_fio_errors(void **state)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load_string(
		"[machine]\ncpus = 2\n\n[fio:w]\nrw=write\nsize=1m\ngroup_reportin\n",
		"s.ini", tmpdir, NULL, &e);

	assert_null(scn);
	assert_non_null(e);
	assert_true(g_str_has_prefix(e->message, "s.ini:7: "));
	assert_non_null(strstr(e->message, "group_reportin"));
	assert_non_null(strstr(e->message, "group_reporting"));

	assert_load_fails("[fio:]\nrw=write\n",
		"s.ini:1: [fio:]: expected a job name after 'fio:' ([fio:global] or [fio:NAME])");
}

static void test_fio_file_form(void **state)
{
	g_autofree char *job = put("w.fio", "; job file\n[w]\nrw=write\nsize=2m\nnumjobs=$ncpus\n");
	g_autofree char *path = put("f.ini", "[machine]\ncpus = 3\n[workload]\nfio = w.fio\n");
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load(path, NULL, &e);
	const struct wbsim_fio_job *j;

	assert_null(e);
	assert_non_null(scn);
	/* resolved relative to the scenario file */
	assert_string_equal(wbsim_scenario_config(scn)->fio_file, job);
	assert_int_equal(wbsim_scenario_fio(scn)->jobs->len, 3);
	j = wbsim_scenario_fio(scn)->jobs->pdata[2];
	assert_int_equal(j->clone, 2);
	assert_string_equal(j->file, job);
	wbsim_scenario_free(scn);
}

static void test_workload_forms(void **state)
{
	g_autofree char *job = put("x.fio", "[w]\nrw=write\nsize=1m\n");

	assert_true(g_file_test(job, G_FILE_TEST_EXISTS));
	assert_load_fails("[workload]\nfio = x.fio\n[fio:w]\nrw=write\nsize=1m\n",
		"s.ini:2: [workload] fio = x.fio: the workload is also given inline ([fio:w] at s.ini:3): expected exactly one of the two forms");
	assert_load_fails("[machine]\ncpus = 2\n",
		"s.ini: no workload: expected [workload] fio = FILE or inline [fio:NAME] sections");
	{
		g_autofree char *msg = g_strdup_printf(
			"s.ini:2: [workload] fio = none.fio: cannot read %s/none.fio: no such file",
			tmpdir);

		assert_load_fails("[workload]\nfio = none.fio\n", msg);
	}
}

/* An include is read in place: later lines override it, it overrides earlier ones. */
static void test_include_order(void **state)
{
	g_autofree char *base = put("base.inc",
		"[machine]\ncpus = 8\nmemory = 4g\n"
		"[device]\nbandwidth = 3000000000/s\nqueue_depth = 8\n"
		"[events]\nat = 1s sync\n");
	g_autofree char *path = put("top.ini",
		"[machine]\nmemory = 2g\n"
		"[scenario]\ninclude = base.inc\n"
		"[machine]\ncpus = 2\n"
		"[device]\nqueue_depth = 16\n"
		"[events]\nat = 2s syncfs\n"
		"[fio:w]\nrw=write\nsize=1m\n");
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load(path, NULL, &e);
	const struct wbsim_config *cfg;
	const struct wbsim_config_override *o;

	assert_null(e);
	cfg = wbsim_scenario_config(scn);
	assert_int_equal(cfg->cpus, 2);		/* after the include */
	assert_true(cfg->memory == 4 * GIB);	/* the include overrode line 2 */
	assert_int_equal(cfg->device_params->len, 2);
	o = cfg->device_params->pdata[0];
	assert_string_equal(o->key, "bandwidth");
	assert_string_equal(o->file, base);
	assert_int_equal(o->line, 5);
	o = cfg->device_params->pdata[1];
	assert_string_equal(o->key, "queue_depth");
	assert_string_equal(o->value, "16");
	assert_string_equal(o->file, path);
	assert_int_equal(cfg->events->len, 2);
	wbsim_scenario_free(scn);
}

static void test_include_errors(void **state)
{
	g_autofree char *a = put("a.inc", "[scenario]\ninclude = b.inc\n");
	g_autofree char *b = put("b.inc", "[machine]\ncpus = 2\n[scenario]\ninclude = a.inc\n");
	g_autofree char *self = put("self.ini", "[scenario]\ninclude = self.ini\n");
	g_autofree char *msg = NULL;
	g_autoptr(GError) e = NULL;

	msg = g_strdup_printf("%s:4: [scenario] include = a.inc: circular include: %s -> %s -> %s",
			      b, a, b, a);
	assert_load_fails("[scenario]\ninclude = a.inc\n", msg);
	g_free(msg);

	assert_null(wbsim_scenario_load(self, NULL, &e));
	msg = g_strdup_printf("%s:2: [scenario] include = self.ini: circular include: %s -> %s",
			      self, self, self);
	assert_string_equal(e->message, msg);
	g_free(msg);

	msg = g_strdup_printf("s.ini:2: [scenario] include = gone.inc: cannot read %s/gone.inc: no such file",
			      tmpdir);
	assert_load_fails("[scenario]\ninclude = gone.inc\n", msg);
	assert_load_fails("[scenario]\ninclude\n",
		"s.ini:2: [scenario] include: no value: expected 'include = FILE'");
}

/* The same file may be included twice; its keys then repeat, which is fine. */
static void test_include_twice(void **state)
{
	g_autofree char *m = put("m.inc", "[machine]\ncpus = 5\n");
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn;

	assert_true(g_file_test(m, G_FILE_TEST_EXISTS));
	scn = wbsim_scenario_load_string(
		"[scenario]\ninclude = m.inc\ninclude = m.inc\n[fio:w]\nrw=write\nsize=1m\n",
		"s.ini", tmpdir, NULL, &e);

	assert_null(e);
	assert_int_equal(wbsim_scenario_config(scn)->cpus, 5);
	wbsim_scenario_free(scn);
}

static void test_load_errors(void **state)
{
	assert_load_fails("[machine]\ncpus = 4\ncpus = 4\n",
		"s.ini:3: [machine] cpus = 4: duplicate key (first set at line 2)");
	assert_load_fails("[device]\nbandwidth = 1000000000/s\n[device]\nbandwidth = 2000000000/s\n",
		"s.ini:4: [device] bandwidth = 2000000000/s: duplicate key (first set at line 2)");
	assert_load_fails("[machne]\n",
		"s.ini:1: [machne]: unknown section (did you mean [machine]?)");
	assert_load_fails("[foo]\n", "s.ini:1: [foo]: unknown section");
	assert_load_fails("[vm]\ndirty_ratio = 10\ndirty_bytes = 1g\n[fio:w]\nrw=write\nsize=1m\n",
		"s.ini:3: [vm] dirty_bytes = 1g: dirty_ratio = 10 is also set (s.ini:2): the kernel makes dirty_ratio and dirty_bytes exclusive; set only one of them");
	assert_load_fails("[machine]\nmemory = 18014398509481984k\n",
		"s.ini:2: [machine] memory = 18014398509481984k: value does not fit in 64 bits: expected a size in bytes (suffixes k, m, g, t, p are powers of 1024) from 64m to 64t");
	assert_load_fails("[machine]\ncpus = 4\n\xff\n",
		"s.ini:3: not a text file: expected UTF-8 text without NUL bytes");
	assert_load_fails("[device]\nlatency\n",
		"s.ini:2: [device] latency: no value: expected 'latency = VALUE'");
	{
		g_autoptr(GError) e = NULL;

		assert_null(wbsim_scenario_load_string(
			"[filesystem]\ntype = ext5\n[fio:w]\nrw=write\nsize=1m\n",
			"s.ini", tmpdir, NULL, &e));
		assert_true(g_str_has_prefix(e->message, "s.ini:2: "));
		assert_non_null(strstr(e->message, "'ext5'"));
	}
	{
		g_autoptr(GError) e = NULL;

		/* the filesystem layer's message, at the line of the parameter */
		assert_null(wbsim_scenario_load_string(
			"[filesystem]\ntype = ext4\njournal = ordered\n[fio:w]\nrw=write\nsize=1m\n",
			"s.ini", tmpdir, NULL, &e));
		assert_true(g_str_has_prefix(e->message, "s.ini:3: "));
		assert_non_null(strstr(e->message, "'journal'"));
	}
}

/* --set comes after the file and wins; its errors say --set. */
static void test_overrides_after_file(void **state)
{
	static const char *const sets[] = {
		"machine.cpus=7", "vm.dirty_ratio=5", "device.bandwidth=512000000/s", NULL,
	};
	static const char *const bad[] = { "vm.dirty_bytes=1g", NULL };
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load_string(
		"[machine]\ncpus = 2\n[fio:w]\nrw=write\nsize=1m\nnumjobs=$ncpus\n",
		"s.ini", tmpdir, sets, &e);
	const struct wbsim_config *cfg;

	assert_null(e);
	cfg = wbsim_scenario_config(scn);
	assert_int_equal(cfg->cpus, 7);
	assert_int_equal(cfg->knobs.dirty_ratio, 5);
	/* fio's $ncpus sees the overridden machine */
	assert_int_equal(wbsim_scenario_fio(scn)->jobs->len, 7);
	wbsim_scenario_free(scn);

	scn = wbsim_scenario_load_string("[vm]\ndirty_ratio = 10\n[fio:w]\nrw=write\nsize=1m\n",
					 "s.ini", tmpdir, bad, &e);
	assert_null(scn);
	assert_string_equal(e->message,
		"override: [vm] dirty_bytes = 1g: dirty_ratio = 10 is also set (s.ini:2): the kernel makes dirty_ratio and dirty_bytes exclusive; set only one of them");
}

/* fio "include FILE" lines in inline jobs are relative to the scenario. */
static void test_inline_fio_include(void **state)
{
	g_autofree char *frag = put("frag.fio", "rw=write\nsize=2m\n");
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn, *again;
	const struct wbsim_fio_job *j;
	g_autofree char *d1 = NULL, *d2 = NULL, *line = NULL;

	scn = wbsim_scenario_load_string("[fio:w]\ninclude frag.fio\nbs=8k\n",
					 "s.ini", tmpdir, NULL, &e);
	assert_null(e);
	j = wbsim_scenario_fio(scn)->jobs->pdata[0];
	assert_true(j->size == 2 << 20);
	assert_int_equal(j->bs[WBSIM_FIO_DDIR_WRITE], 8192);
	/* the dump names the fragment so that it loads from anywhere */
	d1 = wbsim_scenario_dump(scn);
	line = g_strdup_printf("\n[fio:w]\ninclude %s\nbs=8k\n", frag);
	assert_non_null(strstr(d1, line));
	again = wbsim_scenario_load_string(d1, "dump.ini", "/", NULL, &e);
	assert_null(e);
	d2 = wbsim_scenario_dump(again);
	assert_string_equal(d1, d2);
	wbsim_scenario_free(scn);
	wbsim_scenario_free(again);
}

/* $mb_memory is [machine] memory in MiB; inline jobs may come from an include. */
static void test_fio_keywords_and_included_jobs(void **state)
{
	g_autofree char *sub = g_build_filename(tmpdir, "jobs", NULL);
	g_autofree char *inc = NULL, *frag = NULL;
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn;
	const struct wbsim_fio_job *j;

	assert_int_equal(g_mkdir(sub, 0755), 0);
	inc = g_build_filename(sub, "w.inc", NULL);
	frag = g_build_filename(sub, "part.fio", NULL);
	assert_true(g_file_set_contents(inc,
		"[fio:w]\nrw=write\ninclude part.fio\nnumjobs=$mb_memory/512\n", -1, NULL));
	assert_true(g_file_set_contents(frag, "size=3m\n", -1, NULL));
	scn = wbsim_scenario_load_string(
		"[machine]\nmemory = 1g\n[scenario]\ninclude = jobs/w.inc\n",
		"s.ini", tmpdir, NULL, &e);
	if (!scn)
		fail_msg("%s", e->message);
	/* 1024 MiB / 512 = 2 clones; the fragment is found beside w.inc */
	assert_int_equal(wbsim_scenario_fio(scn)->jobs->len, 2);
	j = wbsim_scenario_fio(scn)->jobs->pdata[1];
	assert_true(j->size == 3 << 20);
	wbsim_scenario_free(scn);
	g_unlink(inc);
	g_unlink(frag);
	g_rmdir(sub);
}

/* $mb_memory is the RAM the kernel sees: [machine] memmap is outside it. */
static void test_mb_memory_without_memmap(void **state)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load_string(
		"[machine]\nmemory = 16g\nmemmap = 6g\n"
		"[fio:w]\nrw=write\nsize=1m\nnumjobs=$mb_memory/1024\n",
		"s.ini", tmpdir, NULL, &e);

	if (!scn)
		fail_msg("%s", e->message);
	/* 10240 MiB / 1024 = 10 clones */
	assert_int_equal(wbsim_scenario_fio(scn)->jobs->len, 10);
	wbsim_scenario_free(scn);
	assert_load_fails("[machine]\nmemory = 8g\nmemmap = 8g\n[fio:w]\nrw=write\nsize=1m\n",
			  "s.ini:3: [machine] memmap = 8g: expected a whole number of pages below "
			  "[machine] memory = 8589934592 bytes");
}

static void test_event_after_time_limit(void **state)
{
	assert_load_fails("[run]\ntime_limit = 1m\n[events]\nat = 30s sync\nat = 90s umount\n" "[fio:w]\nrw=write\nsize=1m\n",
		"s.ini:5: [events] at = 90s umount: after [run] time_limit = 1m: expected a time the run reaches");
}

/* The dump loads back to the same dump. */
static void test_dump_round_trip(void **state)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load_string(
		"[scenario]\ndescription = round trip\n"
		"[machine]\ncpus = 3\n[vm]\ndirty_bytes = 100m\n"
		"[device]\nlatency = 20us\n[events]\nat = 1m umount\n"
		"[fio:global]\nbs=4k\n[fio:w]\nrw=randwrite\nsize=8m\ntime_based\nruntime=5\n",
		"s.ini", tmpdir, NULL, &e);
	g_autofree char *d1 = NULL, *d2 = NULL;
	struct wbsim_scenario *again;

	assert_null(e);
	d1 = wbsim_scenario_dump(scn);
	again = wbsim_scenario_load_string(d1, "dump.ini", tmpdir, NULL, &e);
	assert_null(e);
	d2 = wbsim_scenario_dump(again);
	assert_string_equal(d1, d2);
	assert_non_null(strstr(d1, "\ndirty_ratio = 0\ndirty_bytes = 100m\n"));
	assert_non_null(strstr(d1, "\nlatency = 20000ns\n"));
	assert_non_null(strstr(d1, "\n[fio:w]\nrw=randwrite\nsize=8m\ntime_based\nruntime=5\n"));
	wbsim_scenario_free(scn);
	wbsim_scenario_free(again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_from_file),
		cmocka_unit_test(test_inline_fio),
		cmocka_unit_test(test_workload_size),
		cmocka_unit_test(test_inline_fio_errors),
		cmocka_unit_test(test_fio_file_form),
		cmocka_unit_test(test_workload_forms),
		cmocka_unit_test(test_include_order),
		cmocka_unit_test(test_include_errors),
		cmocka_unit_test(test_include_twice),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_overrides_after_file),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_inline_fio_include),
		cmocka_unit_test(test_event_after_time_limit),
		cmocka_unit_test(test_fio_keywords_and_included_jobs),
		cmocka_unit_test(test_mb_memory_without_memmap),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
