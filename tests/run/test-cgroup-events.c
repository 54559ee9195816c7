/* SPDX-License-Identifier: MIT */
/*
 * test-cgroup-events.c - the workload side of cgroup writeback (issue 7):
 * the [events] cgroup actions (their arguments, load-time and run-time
 * errors, ordering at 0 s, a container torn down), fio's cgroup= and
 * file_append=, and the lag of a paced job behind fio's rate schedule on
 * the ideal device and filesystem, where the costs are known.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <wbsim/scenario.h>
#include <wbsim/error.h>
#include <wbsim/cpu-costs.h>
#include "scenario/config-private.h"
#include "run/run.h"
#include "run/events.h"
#include "core/cpu-costs.h"

/* The scenarios a test loaded: results point into their fio jobs. */
static GPtrArray *loaded;

static struct wbsim_scenario *load(const char *text, GError **error)
{
	struct wbsim_scenario *scn = wbsim_scenario_load_string(text, "test.ini", ".", NULL,
								error);

	if (scn)
		g_ptr_array_add(loaded, scn);
	return scn;
}

/* Load @text (the test fails if it does not load) and run it under
 * --check: the results, or NULL with @e set. */
static struct wbsim_run_result *run_checked(const char *text, GError **e)
{
	struct wbsim_scenario *scn = load(text, e);
	struct wbsim_run_options opts = { .check = TRUE };

	if (!scn)
		fail_msg("load: %s", (*e)->message);
	return wbsim_run_scenario(scn, &opts, e);
}

/* Load and run @text under --check; the test fails if either fails. */
static struct wbsim_run_result *run_ok(const char *text)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_run_result *r = run_checked(text, &e);

	if (!r)
		fail_msg("run: %s", e->message);
	return r;
}

/* Load @text (it must load) and run it: the run must fail with @message. */
static void run_fails(const char *text, const char *message)
{
	g_autoptr(GError) e = NULL;

	assert_null(run_checked(text, &e));
	assert_non_null(e);
	assert_string_equal(e->message, message);
}

static void load_fails(const char *text, const char *message)
{
	g_autoptr(GError) e = NULL;

	assert_null(load(text, &e));
	assert_non_null(e);
	assert_string_equal(e->message, message);
}

static const struct wbsim_memcg_result *memcg_of(const struct wbsim_run_result *r,
						 const char *path)
{
	const struct wbsim_memcg_result *m = wbsim_run_result_memcg(r, path);

	if (!m)
		fail_msg("no memcg %s in the results", path);
	return m;
}

static int series_col(const struct wbsim_run_result *r, const char *name)
{
	for (guint i = 0; i < r->series.columns->len; i++)
		if (strcmp(r->series.columns->pdata[i], name) == 0)
			return (int)i;
	return -1;
}

/* The arguments of the cgroup action @action, parsed by its row of the
 * events table, into @cg (wbsim_cgroup_event_clear() frees them). */
static gboolean parse_cgroup_event(const char *action, const char *args,
				   struct wbsim_cgroup_event *cg, GError **error)
{
	const struct wbsim_event_action *a = wbsim_event_action_lookup(action);
	void *parsed = NULL;

	assert_non_null(a);
	assert_true(a->flags & WBSIM_EVENT_CGROUP);
	if (!a->parse(args, &parsed, error))
		return FALSE;
	*cg = *(struct wbsim_cgroup_event *)parsed;
	g_free(parsed);
	return TRUE;
}

/* ------------------------------------------------------------------------ */

static void test_parse_arguments(void **state)
{
	struct wbsim_cgroup_event cg;
	g_autoptr(GError) e = NULL;

	(void)state;
	assert_true(parse_cgroup_event("cgroup-create", "/e7 memory.max=4G  memory.high=3g",
				       &cg, NULL));
	assert_string_equal(cg.path, "/e7");
	assert_null(cg.job);
	assert_true(cg.set_max && cg.set_high);
	assert_int_equal(cg.max_bytes, UINT64_C(4) << 30);
	assert_int_equal(cg.high_bytes, UINT64_C(3) << 30);
	wbsim_cgroup_event_clear(&cg);

	/* no limit given: both stay "max" */
	assert_true(parse_cgroup_event("cgroup-create", "/e7/a", &cg, NULL));
	assert_false(cg.set_max || cg.set_high);
	assert_int_equal(cg.max_bytes, UINT64_MAX);
	wbsim_cgroup_event_clear(&cg);

	assert_true(parse_cgroup_event("cgroup-set", "/e7 memory.high=max", &cg, NULL));
	assert_true(cg.set_high);
	assert_false(cg.set_max);
	assert_int_equal(cg.high_bytes, UINT64_MAX);
	wbsim_cgroup_event_clear(&cg);

	assert_true(parse_cgroup_event("cgroup-move", "old /e7/a", &cg, NULL));
	assert_string_equal(cg.job, "old");
	assert_string_equal(cg.path, "/e7/a");
	wbsim_cgroup_event_clear(&cg);
	/* a task may move back to the root */
	assert_true(parse_cgroup_event("cgroup-move", "old /", &cg, NULL));
	assert_string_equal(cg.path, "/");
	wbsim_cgroup_event_clear(&cg);

	assert_false(parse_cgroup_event("cgroup-remove", "/e7//a", &cg, &e));
	assert_string_equal(e->message, "cgroup path '/e7//a': expected non-empty names other "
			    "than . and .. between the slashes");
	g_clear_error(&e);
	assert_false(parse_cgroup_event("cgroup-create", "/e7 memory.max=1k", &cg, &e));
	assert_string_equal(e->message, "memory.max=1k: expected max or a size of at least one page (4k)");
	g_clear_error(&e);
	assert_false(parse_cgroup_event("cgroup-create", "/e7 a b c", &cg, &e));
	assert_string_equal(e->message, "too many words: expected at most 3");
	g_clear_error(&e);
	assert_false(parse_cgroup_event("cgroup-io-disable", "/", &cg, &e));
	assert_string_equal(e->message, "cgroup path '/': expected a cgroup below the root (the root "
			    "cgroup cannot be created, removed or limited)");
}

static void test_load_errors(void **state)
{
	(void)state;
	/* the line, the event and what was expected */
	load_fails("[events]\nat = 1s cgroup-create\n[fio:w]\nrw=write\nsize=1m\n",
		   "test.ini:2: [events] at = 1s cgroup-create: action cgroup-create needs a cgroup "
		   "path such as /e7/a, then optionally memory.max=SIZE|max and memory.high=SIZE|max");
	load_fails("[events]\nat = 1s cgroup-set /a memory.max=lots\n[fio:w]\nrw=write\nsize=1m\n",
		   "test.ini:2: [events] at = 1s cgroup-set /a memory.max=lots: action cgroup-set "
		   "'/a memory.max=lots': memory.max=lots: expected max or a size in bytes (suffixes "
		   "k, m, g, t, p are powers of 1024)");
	/* cgroup-move names a job of the workload (all its clones move) */
	load_fails("[events]\nat = 0s cgroup-create /g\nat = 2s cgroup-move x /g\n"
		   "[fio:w]\nrw=write\nsize=1m\nnumjobs=2\n[fio:v]\nrw=write\nsize=1m\n",
		   "test.ini:3: [events] at = 2s cgroup-move x /g: no fio job is named 'x': "
		   "expected one of: w, v");
}

/* fio's cgroup= is checked when the job is set up, i.e. at run time. */
/* refused when the scenario is loaded (issue 21: it was at run time) */
static void test_fio_cgroup_bad_name(void **state)
{
	g_autoptr(GError) e = NULL;

	(void)state;
	assert_null(load("[fio:w]\nrw=write\nsize=1m\ncgroup=a//b\n", &e));
	assert_string_equal(e->message,
			    "test.ini:1: job 'w': cgroup=a//b: expected a cgroup name such as e7/a (names "
			    "without blanks, '.' or '..' between single slashes)");
}

static void test_runtime_errors(void **state)
{
	(void)state;
	run_fails("[events]\nat = 0s cgroup-create /g\nat = 10ms cgroup-remove /h\n"
		  "[fio:w]\nrw=write\nsize=1m\n",
		  "test.ini:3: [events] at = 10ms cgroup-remove /h: no cgroup /h exists at that time");
	run_fails("[events]\nat = 0s cgroup-create /g\nat = 1ms cgroup-create /g\n"
		  "[fio:w]\nrw=write\nsize=1m\n",
		  "test.ini:3: [events] at = 1ms cgroup-create /g: cgroup /g exists already");
}

/* rmdir of a cgroup with a child is refused (EBUSY): the run fails at the
 * event's line. */
static void test_remove_busy(void **state)
{
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn;
	struct wbsim_run_options opts = { .check = TRUE };

	(void)state;
	scn = load("[events]\nat = 0s cgroup-create /g/h\nat = 5ms cgroup-remove /g\n"
		   "[fio:w]\nrw=write\nsize=1m\n", &e);
	assert_non_null(scn);
	assert_null(wbsim_run_scenario(scn, &opts, &e));
	assert_true(g_str_has_prefix(e->message, "test.ini:3: [events] at = 5ms cgroup-remove /g: "));
}

/* Events at 0 s act before the jobs' first write: every page the job
 * dirties is charged to the cgroup it was moved into. */
static void test_events_at_zero_first(void **state)
{
	struct wbsim_run_result *r;

	(void)state;
	r = run_ok("[events]\nat = 0s cgroup-create /g memory.max=1g\nat = 0s cgroup-move w /g\n"
		   "[fio:w]\nrw=write\nsize=1m\ninvalidate=0\n");
	assert_true(r->cgroups);
	assert_int_equal(memcg_of(r, "/g")->nr_file, 256);
	assert_int_equal(memcg_of(r, "/")->nr_file, 256);	/* hierarchical */
	assert_true(memcg_of(r, "/g")->online);
	/* the series has the columns of /g, fixed at the start */
	assert_true(series_col(r, "memcg:/g:dirty_pages") > 0);
	assert_true(series_col(r, "memcg:/g:dying_wb_dirty_pages") > 0);
	assert_true(series_col(r, "bdi_write_bw_kib_s") > 0);
	wbsim_run_result_free(r);
}

/* A container torn down: its time-based job ends at the event, as if its
 * runtime ended; the cgroup is then removed. */
static void test_remove_stops_jobs(void **state)
{
	struct wbsim_run_result *r;
	const struct wbsim_job_result *old, *other;

	(void)state;
	r = run_ok("[run]\ntime_limit = 2s\n"
		   "[events]\nat = 0s cgroup-create /c\nat = 0s cgroup-move old /c\n"
		   "at = 500ms cgroup-remove /c\n"
		   "[fio:global]\nrw=write\nsize=64m\nbs=64k\nrate=16m\ntime_based\nruntime=2s\n"
		   "invalidate=0\n[fio:old]\n[fio:other]\n");
	old = r->jobs->pdata[0];
	other = r->jobs->pdata[1];
	assert_string_equal(old->name, "old");
	/* 16 MiB/s for 500 ms, then stopped after the write in progress */
	assert_true(old->io_bytes >= 8 * 1024 * 1024 && old->io_bytes <= 8 * 1024 * 1024 + 65536);
	assert_true(old->runtime_ns <= 500000000 + 1000000);
	assert_int_equal(other->io_bytes, 32 * 1024 * 1024);
	assert_false(memcg_of(r, "/c")->online);
	wbsim_run_result_free(r);
}

/* fio's cgroup=: created at job start, removed at its end unless
 * cgroup_nodelete=1; clones share it, the last one out removes it. */
static void test_fio_cgroup_option(void **state)
{
	struct wbsim_run_result *r;

	(void)state;
	r = run_ok("[fio:w]\nrw=write\nsize=1m\ninvalidate=0\ncgroup=grp/sub\nnumjobs=2\n"
		   "filename_format=$jobname.$jobnum\n"
		   "[fio:k]\nrw=write\nsize=1m\ninvalidate=0\ncgroup=keep\ncgroup_nodelete=1\n");
	assert_int_equal(memcg_of(r, "/grp/sub")->nr_file, 512);
	assert_false(memcg_of(r, "/grp/sub")->online);
	assert_true(memcg_of(r, "/grp")->online);	/* fio removes only its own */
	assert_int_equal(memcg_of(r, "/keep")->nr_file, 256);
	assert_true(memcg_of(r, "/keep")->online);
	wbsim_run_result_free(r);
}

/* An io_uring job on XFS at an iodepth above 1 writes in two lanes (the
 * fio thread inline, its io-wq worker for the punted writes): both are in
 * the job's cgroup, so every page it dirties is charged there. */
static void test_fio_cgroup_two_lanes(void **state)
{
	struct wbsim_run_result *r;

	(void)state;
	r = run_ok("[machine]\ncpus = 2\n[filesystem]\ntype = xfs\n"
		   "[fio:u]\nrw=randwrite\nsize=4m\nioengine=io_uring\niodepth=16\n"
		   "invalidate=0\ncgroup=u\ncgroup_nodelete=1\n");
	assert_int_equal(memcg_of(r, "/u")->nr_file, 1024);
	assert_int_equal(memcg_of(r, "/")->nr_file, 1024);	/* hierarchical */
	wbsim_run_result_free(r);
}

/* file_append=1: two jobs appending to one file write new pages each
 * (512 dirtied); without it they write the same 1 MiB (256). */
static void test_file_append(void **state)
{
	struct wbsim_run_result *r;
	const char *text = "[fio:global]\nrw=write\nsize=1m\nfilename=shared\ninvalidate=0\n%s"
			   "[fio:a]\n[fio:b]\n";
	g_autofree char *append = g_strdup_printf(text, "file_append=1\n");
	g_autofree char *plain = g_strdup_printf(text, "");

	(void)state;
	r = run_ok(append);
	assert_int_equal(r->nr_dirtied, 512);
	wbsim_run_result_free(r);
	r = run_ok(plain);
	assert_int_equal(r->nr_dirtied, 256);
	wbsim_run_result_free(r);
}

/*
 * Issue 21, cause 4: a run without a time limit that would not end (1 MiB
 * on a device of 1 B/s) stops after WBSIM_RUN_MAX_SAMPLES samples, said
 * as asked, instead of growing for ever.
 */
static void test_endless_run_bounded(void **state)
{
	(void)state;
	run_fails("[device]\nbandwidth = 1/s\n[run]\nseries_interval = 1us\n"
		  "[fio:w]\nrw=write\nsize=1m\nend_fsync=1\n",
		  "the run reached 1 simulated seconds (1000000 samples of [run] series_interval = 1us) "
		  "without ending: expected a run that ends sooner (set [run] time_limit, or a longer series_interval)");
}

/*
 * Issue 21, cause 5: fio options that were parsed and never used, now
 * modelled as fio 3.33 does.
 */
static void test_fio_options_modelled(void **state)
{
	struct wbsim_run_result *r;

	(void)state;
	/* offset_increment: clone k writes at offset + k x 1m: new pages */
	r = run_ok("[fio:w]\nrw=write\nsize=1m\nfilename=shared\ninvalidate=0\nnumjobs=2\n"
		   "offset_increment=1m\n");
	assert_int_equal(r->nr_dirtied, 512);
	wbsim_run_result_free(r);
	/* rw=write:4k: a 4k hole after each 4k write: half the pages */
	r = run_ok("[fio:w]\nrw=write:4k\nsize=1m\n");
	assert_int_equal(r->nr_dirtied, 128);
	wbsim_run_result_free(r);
	/* filename=a:b:c: three files of 1m each (the extent count of each) */
	r = run_ok("[fio:w]\nrw=write\nsize=3m\nfilename=a:b:c\n");
	assert_int_equal(r->extents->len, 3);
	assert_int_equal(r->nr_dirtied, 768);
	wbsim_run_result_free(r);
	/* rw=randrw: only the write share of size is written */
	r = run_ok("[fio:w]\nrw=randrw\nrwmixread=75\nsize=4m\n");
	assert_int_equal(((struct wbsim_job_result *)r->jobs->pdata[0])->io_bytes, 1 << 20);
	wbsim_run_result_free(r);
	/* io_size larger than size: fio goes round the file again */
	r = run_ok("[fio:w]\nrw=write\nsize=1m\nio_size=3m\n");
	assert_int_equal(((struct wbsim_job_result *)r->jobs->pdata[0])->io_bytes, 3 << 20);
	wbsim_run_result_free(r);
}

/*
 * The lag behind the rate schedule, on the ideal device and filesystem:
 * a 4 KiB buffered write into a new page costs the task write_syscall +
 * sync_io (fio's psync engine: a pwrite() per write) + copy_page +
 * dirty_page + page_alloc + account_dirty ns of CPU and
 * nothing else (the ideal filesystem has no
 * write hook; far below the dirty limits no throttle pauses). Paced at
 * one write per ms, every write is issued on time: lag 0. Paced at one
 * write per 1000 ns, write k is issued at k * cost and due at k * 1000
 * ns, so the last of 100 writes is the latest: 99 * (cost - 1000) ns.
 */
static void test_lag(void **state)
{
	struct wbsim_cpu_costs c;
	struct wbsim_run_result *r;
	const struct wbsim_job_result *j;
	wbsim_time_t cost;
	int col;

	(void)state;
	wbsim_cpu_costs_init(&c);
	/* each write finds its page missing and makes it dirty */
	cost = c.write_syscall_ns + c.sync_io_ns + c.copy_page_ns + c.dirty_folio_ns + c.page_alloc_ns +
	       c.page_alloc_page_ns + c.account_dirty_ns;
	assert_true(cost > 1000);

	r = run_ok("[fio:w]\nrw=write\nbs=4k\nsize=400k\ninvalidate=0\nrate=4096000\n");
	j = r->jobs->pdata[0];
	assert_int_equal(j->total_ios, 100);
	assert_int_equal(j->max_lag_ns, 0);
	col = series_col(r, "job0_lag_ms");
	assert_true(col > 0);
	assert_int_equal(series_col(r, "memcg:/:dirty_pages"), -1);	/* no cgroups */
	wbsim_run_result_free(r);

	r = run_ok("[fio:w]\nrw=write\nbs=4k\nsize=400k\ninvalidate=0\nrate=4096000000\n");
	j = r->jobs->pdata[0];
	assert_int_equal(j->total_ios, 100);
	assert_int_equal(j->max_lag_ns, 99 * (cost - 1000));
	wbsim_run_result_free(r);

	/* no rate=: no lag and no lag column */
	r = run_ok("[fio:w]\nrw=write\nbs=4k\nsize=400k\ninvalidate=0\n");
	assert_int_equal(((const struct wbsim_job_result *)r->jobs->pdata[0])->max_lag_ns, 0);
	assert_int_equal(series_col(r, "job0_lag_ms"), -1);
	wbsim_run_result_free(r);
}

/* sync and syncfs reach the wbs of removed cgroups (the kernel walks
 * bdi->wb_list, where a killed wb stays until released): without the
 * syncfs, the pages of the removed cgroup stay dirty on its dying wb. */
static void test_syncfs_reaches_dying_wb(void **state)
{
	const char *text = "[events]\nat = 0s cgroup-create /g\nat = 0s cgroup-move w /g\n"
			   "at = 100ms cgroup-remove /g\n%s"
			   "[fio:w]\nrw=write\nsize=8m\ninvalidate=0\n";
	g_autofree char *with = g_strdup_printf(text, "at = 200ms syncfs\n");
	g_autofree char *without = g_strdup_printf(text, "");
	struct wbsim_run_result *r;
	const struct wbsim_cgwb_result *dying = NULL;

	(void)state;
	r = run_ok(without);
	assert_int_equal(r->nr_dirtied, 2048);
	assert_int_equal(r->nr_written, 0);
	for (guint i = 0; i < r->cgwbs->len; i++) {
		const struct wbsim_cgwb_result *w = r->cgwbs->pdata[i];

		if (strcmp(w->memcg, "/g") == 0)
			dying = w;
	}
	assert_non_null(dying);
	assert_true(dying->dying);
	assert_int_equal(dying->dirty, 2048);
	wbsim_run_result_free(r);

	r = run_ok(with);
	assert_int_equal(r->nr_written, 2048);
	assert_int_equal(memcg_of(r, "/")->nr_file_dirty, 0);
	wbsim_run_result_free(r);
}

static int setup(void **state)
{
	(void)state;
	loaded = g_ptr_array_new_with_free_func((GDestroyNotify)wbsim_scenario_free);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	g_ptr_array_unref(loaded);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_arguments),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_fio_cgroup_bad_name),
		cmocka_unit_test(test_runtime_errors),
		cmocka_unit_test(test_remove_busy),
		cmocka_unit_test(test_events_at_zero_first),
		cmocka_unit_test(test_remove_stops_jobs),
		cmocka_unit_test(test_fio_cgroup_option),
		cmocka_unit_test(test_fio_cgroup_two_lanes),
		cmocka_unit_test(test_file_append),
		cmocka_unit_test(test_fio_options_modelled),
		cmocka_unit_test(test_endless_run_bounded),
		cmocka_unit_test(test_lag),
		cmocka_unit_test(test_syncfs_reaches_dying_wb),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
