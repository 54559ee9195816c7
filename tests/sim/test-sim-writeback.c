/* SPDX-License-Identifier: MIT */
/*
 * test-sim-writeback.c - the sim-writeback program as users run it: exit
 * statuses, --version, usage errors, --parse-only, --dump-config against a
 * golden file, the dump's round trip, overrides, JSON output, determinism.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <wbsim/wbsim.h>
#include "core/host-profile.h"
#include "../report/trace-dat-read.h"

struct run_result {
	int status;
	char *out;
	char *err;
};

static void run_result_clear(struct run_result *r)
{
	g_free(r->out);
	g_free(r->err);
}

static const char *src_root(void)
{
	const char *s = g_getenv("WBSIM_SOURCE_ROOT");

	assert_non_null(s);
	return s;
}

/* Run sim-writeback with the NULL-terminated arguments, in @cwd. */
static struct run_result run_in(const char *cwd, const char *arg, ...)
{
	const char *build = g_getenv("WBSIM_BUILD_ROOT");
	g_autofree char *program = NULL;
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) e = NULL;
	struct run_result r = { 0 };
	int wait_status = 0;
	va_list ap;

	assert_non_null(build);
	program = g_build_filename(build, "sim", "sim-writeback", NULL);
	g_ptr_array_add(argv, program);
	va_start(ap, arg);
	for (const char *a = arg; a; a = va_arg(ap, const char *))
		g_ptr_array_add(argv, (char *)a);
	va_end(ap);
	g_ptr_array_add(argv, NULL);
	if (!g_spawn_sync(cwd, (char **)argv->pdata, NULL, 0, NULL, NULL,
			  &r.out, &r.err, &wait_status, &e))
		fail_msg("spawn: %s", e->message);
	assert_true(WIFEXITED(wait_status));
	r.status = WEXITSTATUS(wait_status);
	return r;
}

#define run(...) run_in(src_root(), __VA_ARGS__, NULL)

static char *read_source_file(const char *rel)
{
	g_autofree char *path = g_build_filename(src_root(), rel, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		fail_msg("cannot read %s", path);
	return text;
}

static void test_version(void **state)
{
	struct run_result r = run("--version");
	g_autofree char *want = g_strdup_printf("sim-writeback %s\nlibwbsim %s\n",
						WBSIM_VERSION_STRING,
						wbsim_version_string());

	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, want);
	assert_string_equal(r.err, "");
	run_result_clear(&r);
}

/*
 * --list-keys: every registered filesystem's options and every device
 * model's parameters, each under its model's heading, with its default,
 * as the tables have them; and --help names the option.
 */
static void test_list_keys(void **state)
{
	struct run_result r = run("--list-keys");
	g_auto(GStrv) filesystems = wbsim_fs_names();
	struct run_result help;

	(void)state;
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "| `[vm]` | `dirty_ratio` |"));
	for (size_t i = 0; filesystems[i]; i++) {
		const struct wbsim_fs_ops *ops = wbsim_fs_lookup(filesystems[i]);
		g_autofree char *heading = g_strdup_printf("#### `[filesystem] type = %s`\n",
							   ops->name);
		const char *table = strstr(r.out, heading);
		const char *next;
		size_t n = 0;

		if (!table)
			fail_msg("--list-keys has no table for filesystem %s", ops->name);
		table += strlen(heading);
		next = strstr(table, "\n#### ");
		for (const struct wbsim_param *p = ops->options; p && p->name; p++, n++) {
			g_autofree char *row = NULL, *def = NULL;
			const char *at;

			if (p->flags & WBSIM_PARAM_COST) {
				/* a cost: in [costs] as FS.KEY, the host profile's default */
				g_autofree char *key = g_strdup_printf("%s.%s", ops->name, p->name);
				const struct wbsim_ini_entry *e = wbsim_host_profile_lookup(key);

				assert_non_null(e);
				row = g_strdup_printf("| `[costs]` | `%s` | ", key);
				def = g_strdup_printf(" | `%s` | ", e->value);
				at = strstr(r.out, row);
				if (!at || !strstr(at, def) || strchr(at, '\n') < strstr(at, def))
					fail_msg("--list-keys: [costs] %s missing or not at %s", key,
						 e->value);
				continue;
			}
			row = g_strdup_printf("| `[filesystem]` | `%s` | ", p->name);
			def = g_strdup_printf(" | `%s` | ", p->def);
			at = strstr(table, row);

			if (!at || (next && at > next))
				fail_msg("--list-keys: filesystem %s lacks %s", ops->name,
					 p->name);
			if (!strstr(at, def) || strchr(at, '\n') < strstr(at, def))
				fail_msg("--list-keys: %s %s: default %s not on its row",
					 ops->name, p->name, p->def);
		}
		assert_true(n > 0);
	}
	{
		const struct wbsim_device_ops *nvme = wbsim_device_find_ops("nvme");

		assert_non_null(strstr(r.out, "#### `[device] model = nvme`"));
		for (const struct wbsim_param *p = nvme->params; p->name; p++) {
			g_autofree char *row = g_strdup_printf("| `[device]` | `%s` | ", p->name);

			assert_non_null(strstr(r.out, row));
		}
		/* a required parameter says so; a count names its unit */
		assert_non_null(strstr(r.out, "| `[device]` | `channels` | an integer "
				       "from 1 to 1024; unit: channels | `(required)` |"));
		/* a bound in the form a scenario writes it */
		assert_non_null(strstr(r.out, "| `[device]` | `write_latency` | a time with a "
				       "unit (ns, us, ms, s, m, h) from 0 to 1000s; unit: ns |"));
	}
	run_result_clear(&r);
	help = run("--help");
	assert_non_null(strstr(help.out, "--list-keys"));
	run_result_clear(&help);
}

static void test_help(void **state)
{
	struct run_result r = run("--help");

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "SCENARIO.ini\n"));
	assert_null(strstr(r.out, "SCENARIO.ini SCENARIO.ini"));
	assert_non_null(strstr(r.out, "--dump-config"));
	assert_non_null(strstr(r.out, "--parse-only"));
	/* the hidden documentation generator stays hidden */
	assert_null(strstr(r.out, "--dump-keys-markdown"));
	run_result_clear(&r);

	/* the program sets the user's locale: a UTF-8 one gets GLib's
	 * ellipsis (C.UTF-8: in every Debian libc), the numbers of a report
	 * stay in the C locale */
	g_setenv("LC_ALL", "C.UTF-8", TRUE);
	r = run("--help");
	g_unsetenv("LC_ALL");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\n  sim-writeback [OPTION\u2026] SCENARIO.ini\n"));
	run_result_clear(&r);
}

static void test_usage_errors(void **state)
{
	struct run_result r = run("--parse-only");

	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "sim-writeback: no scenario file given: expected one SCENARIO.ini (try --help)\n");
	run_result_clear(&r);

	r = run("scenarios/validate-minimal.ini", "extra.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "sim-writeback: extra.ini: expected one scenario file, found a second argument\n");
	run_result_clear(&r);

	r = run("--seed", "x1", "scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "sim-writeback: --seed x1: expected an integer from 0 to 18446744073709551615\n");
	run_result_clear(&r);

	/* neither a file nor a bundled scenario (tests/sim/test-by-name.c) */
	r = run("no-such-scenario.ini");
	assert_int_equal(r.status, 2);
	assert_true(g_str_has_prefix(r.err, "sim-writeback: no scenario no-such-scenario.ini: no such file, and no no-such-scenario.ini in "));
	run_result_clear(&r);
	/* a path is read as given */
	r = run("./no-such-scenario.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "sim-writeback: ./no-such-scenario.ini: cannot read: no such file\n");
	run_result_clear(&r);
}

static void test_parse_only(void **state)
{
	struct run_result r = run("--parse-only", "scenarios/validate-minimal.ini");

	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "");
	run_result_clear(&r);

	r = run("--parse-only", "tests/sim/data/with-fio-file.ini");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	run_result_clear(&r);
}

/*
 * --series and --trace write through the path (issue 21): a symlink stays a
 * symlink, a device stays a device; an unwritable target is refused before
 * the run; one file given for two outputs is refused.
 */
static void test_outputs_through_path(void **state)
{
	g_autofree char *tmpdir = g_dir_make_tmp("wbsim-out-XXXXXX", NULL);
	g_autofree char *link = g_build_filename(tmpdir, "link.csv", NULL);
	g_autofree char *target = g_build_filename(tmpdir, "target.csv", NULL);
	g_autofree char *same = g_build_filename(tmpdir, "same.csv", NULL);
	g_autofree char *want = NULL, *text = NULL;
	struct run_result r;
	struct stat st;

	(void)state;
	assert_non_null(tmpdir);
	assert_int_equal(symlink("target.csv", link), 0);
	r = run("--set", "run.time_limit=100ms", "--series", link,
		"scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_true(g_file_get_contents(target, &text, NULL, NULL));
	assert_true(g_str_has_prefix(text, "time_s,dirty_pages,"));
	run_result_clear(&r);

	/* a device is written, not replaced by a regular file */
	r = run("--set", "run.time_limit=100ms", "--series", "/dev/null", "--trace", "/dev/null",
		"scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	run_result_clear(&r);
	r = run("--set", "run.time_limit=100ms", "--series", "/dev/full",
		"scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "sim-writeback: --series /dev/full: No space left on device\n");
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	run_result_clear(&r);

	/* refused before the run: nothing on standard output */
	r = run("--series", "/nonexistent-dir/s.csv", "scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "sim-writeback: --series /nonexistent-dir/s.csv: No such file or directory\n");
	run_result_clear(&r);
	r = run("--trace", tmpdir, "scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	run_result_clear(&r);

	r = run("--series", same, "--trace", same, "scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	want = g_strdup_printf("sim-writeback: --series %s and --trace %s: the same file: expected two files (one would overwrite the other)\n", same, same);
	assert_string_equal(r.err, want);
	run_result_clear(&r);

	g_unlink(link);
	g_unlink(target);
	g_unlink(same);
	g_rmdir(tmpdir);
}

/* Run in @dir with @args, expect exit status 2 and exactly @want on stderr. */
static void expect_refusal_in(const char *dir, const char *want, const char *a1, const char *a2,
			      const char *a3, const char *a4, const char *a5)
{
	struct run_result r = run_in(dir, a1, a2, a3, a4, a5, NULL);

	if (r.status != 2 || strcmp(r.err, want) != 0)
		fail_msg("exit status %d, stderr:\n  %s  expected:\n  %s", r.status, r.err, want);
	assert_string_equal(r.out, "");
	run_result_clear(&r);
}

/*
 * Issue 39, item 3: one file named twice among the outputs (--output,
 * --series, --trace, --results, the jobs' fio logs) is refused before
 * either writes it, by identity: "./x" and "x", a symlinked directory, a
 * symlink, a hard link; and a results file named as --output is not
 * truncated. /dev/null may be named twice.
 */
static void test_outputs_same_file(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-same-XXXXXX", NULL);
	g_autofree char *ini = g_build_filename(dir, "logs.ini", NULL);
	g_autofree char *sub = g_build_filename(dir, "d", NULL);
	g_autofree char *lnk = g_build_filename(dir, "l", NULL);
	g_autofree char *res = g_build_filename(dir, "r.jsonl", NULL);
	g_autofree char *z = g_build_filename(dir, "z", NULL);
	g_autofree char *zz = g_build_filename(dir, "zz", NULL);
	g_autofree char *zs = g_build_filename(dir, "zs", NULL);
	g_autofree char *scn = g_build_filename(src_root(), "scenarios", "validate-minimal.ini", NULL);
	g_autofree char *before = NULL, *after = NULL, *cmd = NULL;
	struct run_result r;

	(void)state;
	assert_true(g_file_set_contents(ini,
		"[scenario]\ndescription = logs\n\n"
		"[fio:global]\nioengine=psync\nbs=4k\nrw=write\n\n"
		"[fio:a]\nsize=1m\nwrite_bw_log=a\n", -1, NULL));
	assert_int_equal(g_mkdir(sub, 0755), 0);
	assert_int_equal(symlink("d", lnk), 0);
	assert_true(g_file_set_contents(z, "z\n", -1, NULL));
	assert_int_equal(link(z, zz), 0);
	assert_int_equal(symlink("z", zs), 0);

	/* files not yet made: "./x" and "x", a symlinked directory */
	expect_refusal_in(dir, "sim-writeback: --output x and --results ./x: the same file: "
			  "expected two files (one would overwrite the other)\n",
			  "--output", "x", "--results", "./x", scn);
	expect_refusal_in(dir, "sim-writeback: --series d/y and --trace l/y: the same file: "
			  "expected two files (one would overwrite the other)\n",
			  "--series", "d/y", "--trace", "l/y", scn);
	{
		g_autofree char *y = g_build_filename(sub, "y", NULL);

		assert_false(g_file_test(y, G_FILE_TEST_EXISTS));
	}
	/* a symlink to a file not yet made */
	{
		g_autofree char *dang = g_build_filename(dir, "dang", NULL);

		assert_int_equal(symlink("d/new", dang), 0);
		expect_refusal_in(dir, "sim-writeback: --output dang and --trace l/new: the same file: "
				  "expected two files (one would overwrite the other)\n",
				  "--output", "dang", "--trace", "l/new", scn);
	}
	/* existing files: a hard link, a symlink */
	expect_refusal_in(dir, "sim-writeback: --series z and --trace zz: the same file: "
			  "expected two files (one would overwrite the other)\n",
			  "--series", "z", "--trace", "zz", scn);
	expect_refusal_in(dir, "sim-writeback: --output zs and --trace z: the same file: "
			  "expected two files (one would overwrite the other)\n",
			  "--output", "zs", "--trace", "z", scn);
	after = NULL;
	assert_true(g_file_get_contents(z, &after, NULL, NULL));
	assert_string_equal(after, "z\n");
	g_clear_pointer(&after, g_free);

	/* a results file named by --output too is left whole */
	r = run_in(dir, "--set", "run.time_limit=10ms", "--results", "r.jsonl", scn, NULL);
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	assert_true(g_file_get_contents(res, &before, NULL, NULL));
	expect_refusal_in(dir, "sim-writeback: --output ./r.jsonl and --results r.jsonl: the same file: "
			  "expected two files (one would overwrite the other)\n",
			  "--output", "./r.jsonl", "--results", "r.jsonl", scn);
	assert_true(g_file_get_contents(res, &after, NULL, NULL));
	assert_string_equal(after, before);

	/* a job's fio log as --output, --trace or --series: its job file, line and key */
	expect_refusal_in(dir, "sim-writeback: logs.ini:11: job 'a': write_bw_log=a: the log a_bw.1.log "
			  "and --output a_bw.1.log: the same file: expected two files (one would "
			  "overwrite the other)\n", "--output", "a_bw.1.log", "logs.ini", NULL, NULL);
	expect_refusal_in(dir, "sim-writeback: logs.ini:11: job 'a': write_bw_log=a: the log a_bw.1.log "
			  "and --trace ./a_bw.1.log: the same file: expected two files (one would "
			  "overwrite the other)\n", "--trace", "./a_bw.1.log", "logs.ini", NULL, NULL);
	expect_refusal_in(dir, "sim-writeback: logs.ini:11: job 'a': write_bw_log=a: the log a_bw.1.log "
			  "and --series a_bw.1.log: the same file: expected two files (one would "
			  "overwrite the other)\n", "--series", "a_bw.1.log", "logs.ini", NULL, NULL);

	/* a device is no file of one output: /dev/null twice runs */
	r = run_in(dir, "--output", "/dev/null", "--trace", "/dev/null", "logs.ini", NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	run_result_clear(&r);

	cmd = g_strdup_printf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void collect_scenarios(const char *rel, GPtrArray *out);

/* Issue 39: every bundled scenario's --dump-config loads back to the very
 * same dump. */
static void test_dump_round_trip_every_scenario(void **state)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *dir = g_dir_make_tmp("wbsim-dump-XXXXXX", NULL);
	g_autofree char *copy = g_build_filename(dir, "dump.ini", NULL);

	(void)state;
	collect_scenarios("scenarios", all);
	assert_true(all->len >= 40);
	for (guint i = 0; i < all->len; i++) {
		struct run_result a = run("--dump-config", all->pdata[i]);
		struct run_result b;

		if (a.status != 0)
			fail_msg("%s: --dump-config: %s", (char *)all->pdata[i], a.err);
		assert_true(g_file_set_contents(copy, a.out, -1, NULL));
		b = run("--dump-config", copy);
		if (b.status != 0 || strcmp(a.out, b.out) != 0)
			fail_msg("%s: its dump does not load back to itself: %s",
				 (char *)all->pdata[i], b.err);
		run_result_clear(&a);
		run_result_clear(&b);
	}
	g_unlink(copy);
	g_rmdir(dir);
}

/* --dump-config --parse-only: checked, then dumped (it printed nothing) */
/*
 * --explain-costs: the cost of a write on the scenario's machine, a --set
 * line shown as its source; a scenario that does not load, a bad key, a
 * sweep and another action are refused with status 2.
 */
static void test_explain_costs(void **state)
{
	struct run_result ok = run("--explain-costs", "--set", "costs.copy_page_ns=2us",
				   "scenarios/validate-minimal.ini");
	struct run_result missing = run("--explain-costs", "scenarios/no-such.ini");
	struct run_result bad = run("--explain-costs", "--set", "costs.copy_pag_ns=1us",
				    "scenarios/validate-minimal.ini");
	struct run_result sweep = run("--explain-costs", "--sweep", "costs.copy_page_ns=1us,2us",
				      "scenarios/validate-minimal.ini");
	struct run_result both = run("--explain-costs", "--dump-config",
				     "scenarios/validate-minimal.ini");

	(void)state;
	assert_int_equal(ok.status, 0);
	assert_string_equal(ok.err, "");
	assert_true(g_str_has_prefix(ok.out, "CPU cost of a write on the machine of "
				     "scenarios/validate-minimal.ini ("));
	assert_non_null(strstr(ok.out, "\n  copy_page_ns                 2000 ns x 1      =   2000.0 ns  "));
	assert_non_null(strstr(ok.out, "set by an override (--set costs.copy_page_ns)\n"));
	assert_non_null(strstr(ok.out, "\nCPU-bound bandwidth of one CPU"));
	assert_int_equal(missing.status, 2);
	assert_string_equal(missing.err, "sim-writeback: scenarios/no-such.ini: cannot read: no such file\n");
	assert_int_equal(bad.status, 2);
	assert_true(g_str_has_prefix(bad.err, "sim-writeback: --set: [costs] unknown key 'copy_pag_ns': expected one of copy_page_ns, "));
	assert_int_equal(sweep.status, 2);
	assert_string_equal(sweep.err, "sim-writeback: --explain-costs: one machine, not a sweep (explain a point with --set)\n");
	assert_int_equal(both.status, 2);
	assert_string_equal(both.err, "sim-writeback: --explain-costs: not with --dump-config: one of them at a time\n");
	assert_string_equal(both.out, "");
	run_result_clear(&ok);
	run_result_clear(&missing);
	run_result_clear(&bad);
	run_result_clear(&sweep);
	run_result_clear(&both);
}

static void test_dump_parse_only(void **state)
{
	struct run_result a = run("--dump-config", "scenarios/validate-minimal.ini");
	struct run_result b = run("--dump-config", "--parse-only", "scenarios/validate-minimal.ini");

	(void)state;
	assert_int_equal(b.status, 0);
	assert_string_equal(b.out, a.out);
	run_result_clear(&a);
	run_result_clear(&b);
}

/* --dump-config of validate-minimal.ini equals the golden file exactly. */
static void test_dump_golden(void **state)
{
	g_autofree char *golden = read_source_file("tests/sim/validate-minimal.dump");
	struct run_result r = run("--dump-config", "scenarios/validate-minimal.ini");

	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out, golden);
	run_result_clear(&r);
}

/* Dump, load the dump, dump again: the same text. */
static void assert_round_trip(const char *scenario)
{
	struct run_result r1 = run("--dump-config", scenario);
	g_autofree char *tmpdir = NULL, *path = NULL;
	struct run_result r2;

	assert_int_equal(r1.status, 0);
	tmpdir = g_dir_make_tmp("wbsim-dump-XXXXXX", NULL);
	assert_non_null(tmpdir);
	path = g_build_filename(tmpdir, "dump.ini", NULL);
	assert_true(g_file_set_contents(path, r1.out, -1, NULL));
	r2 = run("--dump-config", path);
	assert_int_equal(r2.status, 0);
	assert_string_equal(r2.err, "");
	assert_string_equal(r2.out, r1.out);
	g_unlink(path);
	g_rmdir(tmpdir);
	run_result_clear(&r1);
	run_result_clear(&r2);
}

static void test_dump_round_trip(void **state)
{
	assert_round_trip("scenarios/validate-minimal.ini");
	assert_round_trip("tests/sim/data/with-fio-file.ini");
}

/* A job file is inlined, the include flattened, the clones summarised. */
static void test_dump_fio_file(void **state)
{
	struct run_result r = run("--dump-config", "tests/sim/data/with-fio-file.ini");

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "[machine]\ncpus = 12\n"));
	assert_non_null(strstr(r.out, "[device]\npreset = ideal\nbandwidth = 2000000000B/s\n"));
	/* dirty_bytes alone zeroes dirty_ratio, and the dump says so */
	assert_non_null(strstr(r.out, "dirty_ratio = 0\ndirty_bytes = 3276m\n"));
	assert_non_null(strstr(r.out, "contexts = cpus\n"));
	assert_non_null(strstr(r.out, "[events]\nat = 30s syncfs\nat = 61s umount\n"));
	assert_non_null(strstr(r.out,
		"# fio workload: 12 jobs after numjobs expansion\n"
		"#   test.0-11: group=0 rw=randwrite bs=4k size=450m nrfiles=1 iodepth=1024 ioengine=io_uring direct=0 time_based runtime=1m\n"));
	assert_non_null(strstr(r.out, "\n[fio:global]\ndirectory=/mnt\n"));
	assert_non_null(strstr(r.out, "\n[fio:test]\nnumjobs=12\n"));
	assert_null(strstr(r.out, "include"));
	assert_null(strstr(r.out, "[workload]"));
	run_result_clear(&r);
}

/* A run prints fio's report for the job, then the wbsim section. */
static void test_run_reports(void **state)
{
	struct run_result r = run("--no-wall-time", "scenarios/validate-minimal.ini");

	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	/* fio's preamble, as fio 3.33 prints it for this job */
	assert_true(g_str_has_prefix(r.out,
		"writer: (g=0): rw=write, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
		"ioengine=psync, iodepth=1\nfio-3.33 (wbsim " WBSIM_VERSION_STRING ")\n"
		"Starting 1 process\nwriter: Laying out IO file (1 file / 64MiB)\n\n"
		"writer: (groupid=0, jobs=1): err= 0: pid="));
	assert_non_null(strstr(r.out, "\n  write: IOPS="));
	assert_non_null(strstr(r.out, "\nRun status group 0 (all jobs):\n  WRITE: bw="));
	/* 64 MiB written, as size=64m asks */
	assert_non_null(strstr(r.out, ", io=64.0MiB (67.1MB), run="));
	assert_non_null(strstr(r.out, "\nwbsim: simulated writeback figures (not fio output)\n"));
	assert_null(strstr(r.out, "wall time"));
	run_result_clear(&r);

	r = run("--series", "/nonexistent-dir/s.csv", "scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_true(g_str_has_prefix(r.err, "sim-writeback: --series /nonexistent-dir/s.csv: "));
	run_result_clear(&r);
}

/* @text's lines, split in place: a NULL-terminated array of pointers into
 * @text (free the array only). In one pass: g_strsplit()'s strstr() per
 * line reads the rest of a trace of megabytes each time under ASan. */
static char **split_lines_in_place(char *text, gsize len)
{
	GPtrArray *lines = g_ptr_array_new();

	for (char *l = text, *end = text + len, *nl; l < end; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(end - l));
		if (!nl)
			nl = end;
		*nl = '\0';
		g_ptr_array_add(lines, l);
	}
	g_ptr_array_add(lines, NULL);
	return (char **)g_ptr_array_free(lines, FALSE);
}

/*
 * Task and cgroup identities in an E7 trace: one pid space (a pid names one
 * task, the report's job pid is the trace's fio pid), kernel task names,
 * bdi_dirty_ratelimit in the dirtier's context, cgroup_ino= per cgroup as
 * the report lists them.
 */
static void test_trace_identities(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-trace-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "t.txt", NULL);
	g_autofree char *trace = NULL;
	g_autofree char **lines = NULL;
	gsize len;
	g_autoptr(GHashTable) comm_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	struct run_result r = run("--no-wall-time", "--set", "run.time_limit=12s", "--trace", path,
				  "scenarios/e7-dying-cgroup-reachable.ini");
	unsigned int ratelimit_lines = 0;

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\n\nold: (groupid=0, jobs=1): err= 0: pid=102: simulated\n"));
	assert_non_null(strstr(r.out, "\nnew: (groupid=0, jobs=1): err= 0: pid=103: simulated\n"));
	assert_non_null(strstr(r.out, "  wb 0 (kworker/u24:0-flush-259:0): "));
	assert_non_null(strstr(r.out, "    flusher: pid=101, cpu="));
	assert_non_null(strstr(r.out, "  wb ctx 0 memcg /e7/a (ino 3) (dying): "));
	assert_non_null(strstr(r.out, "  memcg /e7/b (ino 4): "));
	assert_true(g_file_get_contents(path, &trace, &len, NULL));
	assert_non_null(strstr(trace, " cgroup_ino=3\n"));
	assert_non_null(strstr(trace, " cgroup_ino=4\n"));
	assert_null(strstr(trace, "cgroup_ino=1\n"));
	lines = split_lines_in_place(trace, len);
	for (char **pl = lines; *pl; pl++) {
		const char *l = *pl;
		g_autofree char *task = NULL;
		char *dash;
		const char *seen;

		if (!*l || *l == '#')
			continue;
		task = g_strndup(l, 24);
		g_strstrip(task);
		dash = strrchr(task, '-');
		assert_non_null(dash);
		*dash = '\0';
		/* one comm per pid, in the whole run */
		seen = g_hash_table_lookup(comm_of, dash + 1);
		if (seen)
			assert_string_equal(seen, task);
		else
			g_hash_table_insert(comm_of, g_strdup(dash + 1), g_strdup(task));
		if (strstr(l, ": bdi_dirty_ratelimit: ")) {
			assert_string_equal(task, "fio");
			ratelimit_lines++;
		}
		assert_null(strstr(l, "<idle>"));
	}
	assert_true(ratelimit_lines > 0);
	assert_string_equal(g_hash_table_lookup(comm_of, "102"), "fio");
	assert_string_equal(g_hash_table_lookup(comm_of, "103"), "fio");
	assert_string_equal(g_hash_table_lookup(comm_of, "116"), "kworker/u24:1");
	g_unlink(path);
	g_rmdir(dir);
	run_result_clear(&r);
}

/*
 * --series: the header row first (no comment line: pandas.read_csv and
 * spreadsheets read it without options), one row per sample, and a run
 * stopped on a sample tick (time_limit=1s, 100 ms samples) does not repeat
 * its last row: 0, 0.1, ..., 1 s.
 */
static void test_series_csv(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-series-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "s.csv", NULL);
	g_autofree char *csv = NULL;
	g_auto(GStrv) lines = NULL;
	struct run_result r = run("--no-wall-time", "--set", "run.time_limit=1s", "--series", path,
				  "scenarios/e1-nvme-xfs-base.ini");

	assert_int_equal(r.status, 0);
	assert_true(g_file_get_contents(path, &csv, NULL, NULL));
	assert_true(g_str_has_prefix(csv, "time_s,dirty_pages,writeback_pages,bg_thresh_pages,thresh_pages,setpoint_pages,limit_pages,"
					  "wb0_dirty_pages,wb0_written_pages,wb0_avg_write_bw_kib_s,"
					  "wb0_dirty_ratelimit_kib_s,job0_bytes,job0_paused_ms,"));
	lines = g_strsplit(csv, "\n", -1);
	/* header, 11 samples, and the empty string after the last newline */
	assert_int_equal(g_strv_length(lines), 13);
	assert_true(g_str_has_prefix(lines[1], "0,"));
	assert_true(g_str_has_prefix(lines[10], "0.9,"));
	assert_true(g_str_has_prefix(lines[11], "1,"));
	assert_string_equal(lines[12], "");
	g_unlink(path);
	g_rmdir(dir);
	run_result_clear(&r);
}

/*
 * --output-format=json+: clat_ns "bins" as fio writes them, which fio's
 * tools/fio_jsonplus_clat2csv (Debian: fio) turns into one row per bin; a
 * sweep refuses json+ rather than drop the bins.
 */
static void test_json_plus(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-jsonplus-XXXXXX", NULL);
	g_autofree char *json = g_build_filename(dir, "out.json", NULL);
	g_autofree char *csv = g_build_filename(dir, "clat.csv", NULL);
	g_autofree char *csv0 = g_build_filename(dir, "clat_job0.csv", NULL);
	g_autofree char *tool = g_find_program_in_path("fio_jsonplus_clat2csv");
	g_autofree char *text = NULL;
	struct run_result r = run("--no-wall-time", "--output-format=json+", "-o", json,
				  "scenarios/validate-minimal.ini");

	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	assert_true(g_file_get_contents(json, &text, NULL, NULL));
	/* validate-minimal: 16384 writes of 4 KiB, every clat in one bin */
	assert_non_null(strstr(text, "\"bins\" : {\n"));
	g_clear_pointer(&text, g_free);
	r = run("--output-format=json+", "--sweep", "writeback.contexts=1,2",
		"scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "sim-writeback: --output-format json+: for one run "
				   "(a sweep writes its points as json)\n");
	run_result_clear(&r);
	if (!tool) {
		print_message("fio_jsonplus_clat2csv not found (Debian package fio): "
			      "its reading of json+ not tested\n");
	} else {
		const char *argv[] = { tool, json, csv, NULL };
		g_auto(GStrv) lines = NULL;
		g_autoptr(GError) e = NULL;
		int st = 0;

		assert_true(g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
					 NULL, NULL, NULL, NULL, &st, &e));
		assert_true(g_spawn_check_wait_status(st, NULL));
		assert_true(g_file_get_contents(csv0, &text, NULL, NULL));
		lines = g_strsplit(text, "\n", -1);
		assert_true(g_str_has_prefix(lines[0], "nsec, read_slat_ns_count,"));
		assert_non_null(strstr(lines[0], " write_clat_ns_count, write_clat_ns_cumulative,"));
		/* one bin: its value, then 16384 writes, cumulative 16384, 100% */
		assert_non_null(lines[1]);
		assert_non_null(strstr(lines[1], ", 16384, 16384, 1.0, "));
		assert_true(lines[2] == NULL || *lines[2] == '\0');
		g_unlink(csv0);
	}
	g_unlink(json);
	g_rmdir(dir);
}

/* The rows of a log file, split at ", " (fio's separator). */
static GPtrArray *read_log(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);

	if (!g_file_get_contents(path, &text, NULL, NULL))
		fail_msg("%s was not written", name);
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] && *lines[i]; i++)
		g_ptr_array_add(rows, g_strsplit(lines[i], ", ", -1));
	/* the last line ends with a newline */
	assert_true(!*text || g_str_has_suffix(text, "\n"));
	return rows;
}

static guint64 col(GPtrArray *rows, guint i, guint c)
{
	char **r = rows->pdata[i];

	assert_true(c < g_strv_length(r));
	return g_ascii_strtoull(r[c], NULL, 10);
}

/* Run a program of fio's (Debian: fio) in @dir; FALSE if it is absent. */
static gboolean run_fio_tool(const char *dir, const char *const *argv)
{
	g_autofree char *tool = g_find_program_in_path(argv[0]);
	g_autoptr(GPtrArray) a = g_ptr_array_new();
	g_autoptr(GError) e = NULL;
	int st = 0;

	if (!tool) {
		print_message("%s not found (Debian package fio): its reading of the logs not tested\n",
			      argv[0]);
		return FALSE;
	}
	g_ptr_array_add(a, tool);
	for (guint i = 1; argv[i]; i++)
		g_ptr_array_add(a, (char *)argv[i]);
	g_ptr_array_add(a, NULL);
	assert_true(g_spawn_sync(dir, (char **)a->pdata, NULL,
				 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
				 NULL, NULL, NULL, NULL, &st, &e));
	assert_true(g_spawn_check_wait_status(st, NULL));
	return TRUE;
}

/*
 * fio's write_bw_log, write_lat_log and write_iops_log: fio 3.33's file
 * names and rows (a row per write, or per log_avg_msec window), written in
 * the current directory, read by fio's fio_generate_plots and fio2gnuplot.
 * (fiologparser.py: test_fio_logs_like_fio.)
 */
static void test_fio_logs(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-logs-XXXXXX", NULL);
	g_autofree char *ini = g_build_filename(dir, "logs.ini", NULL);
	g_autoptr(GPtrArray) bw = NULL, clat = NULL, lat = NULL, slat = NULL, iops = NULL;
	g_autoptr(GPtrArray) wbw = NULL, shared = NULL;
	struct run_result r;
	guint drops = 0;

	assert_true(g_file_set_contents(ini,
		"[scenario]\ndescription = fio logs\n\n"
		"[fio:global]\nioengine=psync\nbs=4k\nrw=write\n\n"
		"[fio:a]\nsize=8m\nwrite_bw_log=a\nwrite_lat_log=a\nwrite_iops_log=a\n\n"
		"[fio:b]\nsize=8m\nrate=4m\nwrite_bw_log\nlog_avg_msec=100\nlog_offset=1\n\n"
		"[fio:c]\nsize=1m\nwrite_iops_log=s\nper_job_logs=0\nnumjobs=2\n", -1, NULL));
	r = run_in(dir, "--no-wall-time", "logs.ini", NULL);
	assert_int_equal(r.status, 0);
	/* a job logged per I/O: its report's bandwidth samples differ from fio's */
	assert_non_null(strstr(r.out, "logs.ini:9: job 'a': write_bw_log without log_avg_msec"));
	assert_null(strstr(r.out, "are not written"));
	run_result_clear(&r);
	/* a sweep's points would write the same files */
	r = run_in(dir, "--sweep", "writeback.contexts=1,2", "logs.ini", NULL);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "sim-writeback: logs.ini:9: job 'a': write_bw_log: fio's logs are files "
				   "of one run: not with a sweep (run a point alone with --set)\n");
	run_result_clear(&r);

	/* a row per write: time, value, direction 1, block size, priority */
	bw = read_log(dir, "a_bw.1.log");
	clat = read_log(dir, "a_clat.1.log");
	lat = read_log(dir, "a_lat.1.log");
	iops = read_log(dir, "a_iops.1.log");
	slat = read_log(dir, "a_slat.1.log");	/* not measured: empty, as fio's psync */
	assert_int_equal(slat->len, 0);
	assert_int_equal(bw->len, 2048);
	assert_int_equal(clat->len, 2048);
	assert_int_equal(lat->len, 2048);
	assert_int_equal(iops->len, 2048);
	for (guint i = 0; i < bw->len; i++) {
		assert_int_equal(g_strv_length(bw->pdata[i]), 5);
		assert_int_equal(col(bw, i, 2), 1);
		assert_int_equal(col(bw, i, 3), 4096);
		assert_int_equal(col(bw, i, 4), 0);
		assert_true(col(clat, i, 1) > 0);
		/* fio add_bw_sample(): bytes * 10^6 / clat in ns */
		assert_int_equal(col(bw, i, 1), 4096 * 1000000ull / col(clat, i, 1));
		assert_int_equal(col(lat, i, 1), col(clat, i, 1));
		assert_int_equal(col(iops, i, 1), 1);
		assert_int_equal(col(iops, i, 0), col(clat, i, 0));
		if (i)
			assert_true(col(clat, i, 0) >= col(clat, i - 1, 0));
	}
	/* windowed: 100 ms periods of a 4 MiB/s job over 2 s, KiB/s, block
	 * size and offset (log_offset=1: a sixth column) 0 */
	wbw = read_log(dir, "b_bw.2.log");
	assert_int_equal(wbw->len, 20);
	for (guint i = 0; i < wbw->len; i++) {
		assert_int_equal(g_strv_length(wbw->pdata[i]), 6);
		assert_int_equal(col(wbw, i, 0), 100 * (i + 1));
		assert_in_range(col(wbw, i, 1), 4000, 4200);
		assert_int_equal(col(wbw, i, 3), 0);
		assert_int_equal(col(wbw, i, 4), 0);
	}
	/* per_job_logs=0: both clones' rows in one file, one after the other */
	shared = read_log(dir, "s_iops.log");
	assert_int_equal(shared->len, 2 * 256);
	for (guint i = 1; i < shared->len; i++)
		drops += col(shared, i, 0) < col(shared, i - 1, 0);
	assert_true(drops <= 1);

	/* fio's tools read them */
	{
		const char *gen[] = { "fio_generate_plots", "t", NULL };
		const char *f2g[] = { "fio2gnuplot", "-p", "a_bw.*.log", "-k", "-d", "out", NULL };
		g_autofree char *gnuplot = g_find_program_in_path("gnuplot");

		if (gnuplot && run_fio_tool(dir, gen)) {
			g_autofree char *svg = g_build_filename(dir, "t-bw.svg", NULL);
			g_autofree char *text = NULL;

			assert_true(g_file_get_contents(svg, &text, NULL, NULL));
			assert_non_null(strstr(text, "<svg"));
			assert_non_null(strstr(text, "Queue depth a.1"));	/* the job's line */
		}
		if (run_fio_tool(dir, f2g)) {
			g_autofree char *glob = g_build_filename(dir, "out", "a_bw..global", NULL);
			g_autofree char *text = NULL;

			guint64 lo = G_MAXUINT64, hi = 0;
			g_autofree char *want = NULL;

			for (guint i = 0; i < bw->len; i++) {
				lo = MIN(lo, col(bw, i, 1));
				hi = MAX(hi, col(bw, i, 1));
			}
			want = g_strdup_printf("min=%" G_GUINT64_FORMAT ".00\nmax=%" G_GUINT64_FORMAT ".00\n",
					       lo, hi);
			assert_true(g_file_get_contents(glob, &text, NULL, NULL));
			assert_non_null(strstr(text, want));
		}
	}
	{
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);

		assert_int_equal(system(cmd), 0);
	}
}

/* g_spawn's child set-up: at most 256 open files, as "ulimit -n 256" */
static void limit_open_files(gpointer data)
{
	struct rlimit r = { 256, 256 };

	(void)data;
	setrlimit(RLIMIT_NOFILE, &r);
}

/*
 * Issue 39, item 2: 400 jobs with three logs each (2,000 files: lat, slat
 * and clat for write_lat_log), and 100 more sharing per_job_logs=0 logs,
 * run under a limit of 256 open files and write every log whole: no log
 * holds a descriptor for the run (each piece of rows is appended with its
 * file opened for that piece, as fio opens a log only to write it).
 */
static void test_fio_logs_many_jobs(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-logs-many-XXXXXX", NULL);
	g_autofree char *ini = g_build_filename(dir, "many.ini", NULL);
	g_autofree char *prog = g_build_filename(g_getenv("WBSIM_BUILD_ROOT"), "sim",
						 "sim-writeback", NULL);
	const char *argv[] = { prog, "--no-wall-time", "many.ini", NULL };
	static const char *const types[] = { "bw", "lat", "clat", "slat", "iops" };
	g_autofree char *out = NULL, *err = NULL;
	g_autoptr(GError) e = NULL;
	int st = 0;

	(void)state;
	assert_true(g_file_set_contents(ini,
		"[machine]\ncpus = 4\n\n"
		"[fio:global]\nioengine=psync\nrw=write\nbs=4k\nsize=16k\n"
		"write_bw_log=j\nwrite_lat_log=j\nwrite_iops_log=j\n\n"
		"[fio:j]\nnumjobs=400\n\n"
		"[fio:s]\nnumjobs=100\nper_job_logs=0\nwrite_bw_log=s\nwrite_lat_log=s\n"
		"write_iops_log=s\n", -1, NULL));
	if (!g_spawn_sync(dir, (char **)argv, NULL, 0, limit_open_files, NULL, &out, &err, &st, &e))
		fail_msg("spawn: %s", e->message);
	if (!g_spawn_check_wait_status(st, NULL))
		fail_msg("sim-writeback under 256 open files: %s", err);
	assert_non_null(strstr(out, "j: (groupid=0, jobs=1)"));
	for (unsigned int j = 1; j <= 400; j++) {
		for (size_t t = 0; t < G_N_ELEMENTS(types); t++) {
			g_autofree char *name = g_strdup_printf("j_%s.%u.log", types[t], j);
			g_autoptr(GPtrArray) rows = read_log(dir, name);

			/* a row per 4 KiB write; slat is not measured (empty) */
			assert_int_equal(rows->len, strcmp(types[t], "slat") ? 4 : 0);
		}
	}
	for (size_t t = 0; t < G_N_ELEMENTS(types); t++) {
		g_autofree char *name = g_strdup_printf("s_%s.log", types[t]);
		g_autoptr(GPtrArray) rows = read_log(dir, name);

		assert_int_equal(rows->len, strcmp(types[t], "slat") ? 400 : 0);
	}
	{
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);

		assert_int_equal(system(cmd), 0);
	}
}

/* Spawn @argv in @dir: exit status, standard output and error. */
static int spawn_in(const char *dir, const char *const *argv, char **out, char **err)
{
	g_autoptr(GError) e = NULL;
	int st = 0;

	if (!g_spawn_sync(dir, (char **)argv, NULL, 0, NULL, NULL, out, err, &st, &e))
		fail_msg("spawn %s: %s", argv[0], e->message);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* @rows, first four columns only, to @dir/@name. */
static void write_four_columns(const char *dir, const char *name, GPtrArray *rows)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < rows->len; i++) {
		char **r = rows->pdata[i];

		g_string_append_printf(s, "%s, %s, %s, %s\n", r[0], r[1], r[2], r[3]);
	}
	assert_true(g_file_set_contents(path, s->str, (gssize)s->len, NULL));
}

/* The last non-empty line of @text. */
static char *last_line(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	guint n = g_strv_length(lines);

	while (n && !*lines[n - 1])
		n--;
	return g_strdup(n ? lines[n - 1] : "");
}

/*
 * The same fio job run by real fio and simulated: the logs have the same
 * files, rows and columns (time, value, direction, block size, priority),
 * and fio's fiologparser.py treats them alike. Debian's fiologparser.py
 * (fio 3.33, /usr/share/doc/fio) unpacks each row into exactly four
 * columns, "(time, value, foo, bar) = line.rsplit(', ')", written before
 * fio's logs gained the priority column: it stops with "ValueError: too
 * many values to unpack (expected 4)" on every fio 3.33 log, real or
 * simulated (and its -A mode indexes a list with a float under Python 3).
 * What it was written for, the first four columns, it reads: its sums
 * (-s) and time-weighted average, from both logs.
 */
static void test_fio_logs_like_fio(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-fio-real-XXXXXX", NULL);
	g_autofree char *ini = g_build_filename(dir, "sim.ini", NULL);
	g_autofree char *file = g_build_filename(dir, "f", NULL);
	g_autofree char *fio = g_find_program_in_path("fio");
	g_autofree char *python = g_find_program_in_path("python3");
	const char *gz = "/usr/share/doc/fio/fiologparser.py.gz";
	const char *kinds[] = { "bw", "clat", "lat", "slat" };
	struct run_result r;

	assert_true(g_file_set_contents(ini,
		"[scenario]\ndescription = one fio job, logged\n\n"
		"[fio:a]\nioengine=psync\nbs=4k\nrw=write\nsize=16m\n"
		"write_bw_log=sim\nwrite_lat_log=sim\n", -1, NULL));
	r = run_in(dir, "--no-wall-time", "sim.ini", NULL);
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	if (!fio) {
		print_message("fio not found (Debian package fio): logs not compared with real fio's\n");
		goto out;
	}
	{
		g_autofree char *fname = g_strdup_printf("--filename=%s", file);
		/* 16 MiB: a few ms, so that fiologparser.py's sums span time */
		const char *argv[] = { fio, "--name=a", fname, "--size=16m", "--bs=4k", "--rw=write",
				       "--ioengine=psync", "--write_bw_log=real", "--write_lat_log=real",
				       NULL };
		g_autofree char *out = NULL, *err = NULL;

		assert_int_equal(spawn_in(dir, argv, &out, &err), 0);
	}
	for (guint k = 0; k < G_N_ELEMENTS(kinds); k++) {
		g_autofree char *rn = g_strdup_printf("real_%s.1.log", kinds[k]);
		g_autofree char *sn = g_strdup_printf("sim_%s.1.log", kinds[k]);
		g_autoptr(GPtrArray) real = read_log(dir, rn), sim = read_log(dir, sn);

		assert_int_equal(sim->len, real->len);
		for (guint i = 0; i < real->len; i++) {
			assert_int_equal(g_strv_length(sim->pdata[i]), g_strv_length(real->pdata[i]));
			for (guint c = 2; c < g_strv_length(real->pdata[i]); c++)
				assert_string_equal(((char **)sim->pdata[i])[c], ((char **)real->pdata[i])[c]);
		}
		if (k == 0) {
			write_four_columns(dir, "real4.log", real);
			write_four_columns(dir, "sim4.log", sim);
		}
	}
	if (!python || !g_file_test(gz, G_FILE_TEST_EXISTS)) {
		print_message("%s or python3 not found: fiologparser.py not run\n", gz);
		goto out;
	}
	{
		const char *gunzip[] = { "/bin/sh", "-c", "gzip -dc \"$0\" > fiologparser.py", gz, NULL };
		g_autofree char *o = NULL, *e = NULL;

		assert_int_equal(spawn_in(dir, gunzip, &o, &e), 0);
	}
	{	/* the whole logs: alike, whether it reads them or not */
		const char *a_real[] = { python, "fiologparser.py", "real_bw.1.log", NULL };
		const char *a_sim[] = { python, "fiologparser.py", "sim_bw.1.log", NULL };
		g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
		g_autofree char *l1 = NULL, *l2 = NULL;
		int s1 = spawn_in(dir, a_real, &o1, &e1), s2 = spawn_in(dir, a_sim, &o2, &e2);

		assert_int_equal(s2, s1);
		l1 = last_line(e1);
		l2 = last_line(e2);
		assert_string_equal(l2, l1);
		if (s1)
			print_message("fiologparser.py on fio's own log: %s\n", l1);
	}
	for (int m = 0; m < 2; m++) {	/* four columns: -s, the default */
		const char *logs[] = { "real4.log", "sim4.log" };

		for (guint i = 0; i < G_N_ELEMENTS(logs); i++) {
			const char *argv[] = { python, "fiologparser.py", m ? logs[i] : "-s",
					       m ? NULL : logs[i], NULL };
			g_autofree char *o = NULL, *e = NULL, *l = NULL;
			const char *v;

			assert_int_equal(spawn_in(dir, argv, &o, &e), 0);
			l = last_line(o);
			v = m ? l : strstr(l, ", ");	/* -s: "END_MS, SUM" */
			assert_non_null(v);
			assert_true(g_ascii_strtod(m ? v : v + 2, NULL) > 0);
		}
	}
out:
	{
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);

		assert_int_equal(system(cmd), 0);
	}
}

/* The JSON type of a value node: "string", "int", "double", "bool", "null". */
static const char *json_value_type(JsonNode *node)
{
	if (JSON_NODE_HOLDS_NULL(node))
		return "null";
	switch (json_node_get_value_type(node)) {
	case G_TYPE_INT64:
		return "int";
	case G_TYPE_DOUBLE:
		return "double";
	case G_TYPE_BOOLEAN:
		return "bool";
	default:
		return "string";
	}
}

/*
 * Every key path of @node with its type, depth first in the printed order,
 * into @out: ".jobs[0].write.clat_ns.percentile.50.000000 int",
 * ".jobs[0].write clat_ns object". The top-level "wbsim" object (the
 * simulator's own) is left out; a "bins" object's keys are bucket values,
 * so they count as one path ".bins.*".
 */
static void json_key_paths(JsonNode *node, const char *path, GPtrArray *out)
{
	if (JSON_NODE_HOLDS_OBJECT(node)) {
		JsonObject *o = json_node_get_object(node);
		g_autoptr(GList) members = json_object_get_members(o);
		gboolean bins = g_str_has_suffix(path, ".bins");

		for (GList *m = members; m; m = m->next) {
			g_autofree char *p = NULL;
			JsonNode *v;

			if (!*path && strcmp(m->data, "wbsim") == 0)
				continue;
			if (bins && m != members)
				continue;
			p = g_strdup_printf("%s.%s", path, bins ? "*" : (const char *)m->data);
			v = json_object_get_member(o, m->data);
			g_ptr_array_add(out, g_strdup_printf("%s %s", p,
				JSON_NODE_HOLDS_OBJECT(v) ? "object" :
				JSON_NODE_HOLDS_ARRAY(v) ? "array" : json_value_type(v)));
			json_key_paths(v, p, out);
		}
	} else if (JSON_NODE_HOLDS_ARRAY(node)) {
		JsonArray *a = json_node_get_array(node);

		for (guint i = 0; i < json_array_get_length(a); i++) {
			g_autofree char *p = g_strdup_printf("%s[%u]", path, i);

			json_key_paths(json_array_get_element(a, i), p, out);
		}
	}
}

/* The key paths of the JSON text @text (fail if it does not parse). */
static GPtrArray *json_text_key_paths(const char *text, const char *what)
{
	g_autoptr(JsonParser) p = json_parser_new();
	g_autoptr(GError) e = NULL;
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);

	if (!json_parser_load_from_data(p, text, -1, &e))
		fail_msg("%s: JSON does not parse: %s", what, e->message);
	json_key_paths(json_parser_get_root(p), "", paths);
	return paths;
}

static gboolean paths_have(GPtrArray *paths, const char *path)
{
	for (guint i = 0; i < paths->len; i++)
		if (strcmp(paths->pdata[i], path) == 0)
			return TRUE;
	return FALSE;
}

/* Drop every path of @paths that starts with @prefix. */
static void paths_drop(GPtrArray *paths, const char *prefix)
{
	for (guint i = paths->len; i-- > 0;)
		if (g_str_has_prefix(paths->pdata[i], prefix))
			g_ptr_array_remove_index(paths, i);
}

/*
 * The simulated fio job's JSON and fio 3.33's for the same job file: the
 * same key paths of the same types in the same order, outside "wbsim".
 * Fail with every key one has and the other lacks (a type that differs
 * shows as both), or the first one out of order.
 */
static void assert_same_key_paths(GPtrArray *real, GPtrArray *sim, const char *what)
{
	g_autoptr(GString) diff = g_string_new(NULL);

	for (guint i = 0; i < real->len; i++)
		if (!paths_have(sim, real->pdata[i]))
			g_string_append_printf(diff, "  missing %s\n", (char *)real->pdata[i]);
	for (guint i = 0; i < sim->len; i++)
		if (!paths_have(real, sim->pdata[i]))
			g_string_append_printf(diff, "  extra   %s\n", (char *)sim->pdata[i]);
	if (diff->len)
		fail_msg("%s: the simulated JSON's keys differ from fio's:\n%s", what, diff->str);
	assert_int_equal(sim->len, real->len);
	for (guint i = 0; i < real->len; i++)
		if (strcmp(sim->pdata[i], real->pdata[i]) != 0)
			fail_msg("%s: key %u is %s, fio has %s there", what, i,
				 (char *)sim->pdata[i], (char *)real->pdata[i]);
}

/*
 * fio's iodepth_level, iodepth_submit and iodepth_complete of every job
 * entry in @real_text and @sim_text: the same values (fio prints six
 * decimals). They follow from fio's loop, not from timing, for a job that
 * issues the same writes in both runs.
 */
static void assert_same_depths(const char *real_text, const char *sim_text, const char *what)
{
	static const char *const keys[] = { "iodepth_level", "iodepth_submit", "iodepth_complete" };
	g_autoptr(JsonParser) pr = json_parser_new();
	g_autoptr(JsonParser) ps = json_parser_new();
	JsonArray *rj, *sj;

	assert_true(json_parser_load_from_data(pr, real_text, -1, NULL));
	assert_true(json_parser_load_from_data(ps, sim_text, -1, NULL));
	rj = json_object_get_array_member(json_node_get_object(json_parser_get_root(pr)), "jobs");
	sj = json_object_get_array_member(json_node_get_object(json_parser_get_root(ps)), "jobs");
	assert_int_equal(json_array_get_length(sj), json_array_get_length(rj));
	for (guint i = 0; i < json_array_get_length(rj); i++)
		for (guint k = 0; k < G_N_ELEMENTS(keys); k++) {
			JsonObject *r = json_object_get_object_member(
				json_array_get_object_element(rj, i), keys[k]);
			JsonObject *m = json_object_get_object_member(
				json_array_get_object_element(sj, i), keys[k]);
			g_autoptr(GList) names = json_object_get_members(r);

			for (GList *n = names; n; n = n->next) {
				double want = json_object_get_double_member(r, n->data);
				double got = json_object_get_double_member(m, n->data);

				if (fabs(want - got) > 5e-7)
					fail_msg("%s: job %u %s \"%s\" is %f, fio's %f", what, i,
						 keys[k], (char *)n->data, got, want);
			}
		}
}

/*
 * Compare fio's JSON @real_text with sim-writeback's of the same job file
 * (job.fio in @dir) in @format: key paths, and with @depths the I/O depth
 * figures. "disk_util" is compared only when fio wrote it (not for a file
 * on tmpfs or in some containers). fio's reads (rw=randrw, rw=rw,
 * verify=) are not simulated, so their latency objects have no samples
 * and no "percentile" (nor json+ "bins"): those paths of fio's "read" are
 * left out when @reads, and nothing else.
 */
static void compare_with_fio(const char *dir, const char *format, const char *real_text,
			     gboolean reads, gboolean depths, const char *what)
{
	g_autoptr(GPtrArray) real = json_text_key_paths(real_text, what);
	g_autoptr(GPtrArray) sim = NULL;
	struct run_result r = run_in(dir, "--no-wall-time", format, "sim.ini", NULL);

	if (r.status)
		fail_msg("%s: sim-writeback exited %d: %s", what, r.status, r.err);
	sim = json_text_key_paths(r.out, what);
	if (depths)
		assert_same_depths(real_text, r.out, what);
	run_result_clear(&r);
	if (!paths_have(real, ".disk_util array"))
		paths_drop(sim, ".disk_util");
	if (reads) {
		for (guint i = real->len; i-- > 0;) {
			const char *p = real->pdata[i];

			if (strstr(p, ".read.") && (strstr(p, "_ns.percentile") || strstr(p, "_ns.bins")))
				g_ptr_array_remove_index(real, i);
		}
	}
	assert_same_key_paths(real, sim, what);
}

/*
 * fio's JSON and json+ key layout against real fio 3.33 runs of the same
 * job files. Values differ (a simulated machine, a real one); the keys,
 * their types, nesting and order do not, so a reader of fio 3.33's JSON
 * finds every key it knows and nothing more outside "wbsim".
 * - Debian's fio-examples that the simulator runs, made small
 *   (tests/sim/data/fio-examples, with fio's output recorded by its
 *   record.sh: this part needs no fio).
 * - With fio installed, live: a buffered psync writer, a libaio direct
 *   writer, a time-based random writer with fsync, two jobs with
 *   group_reporting and end_fsync (each with a [global] section), a job
 *   with a description and no [global].
 */
static void test_json_keys_like_fio(void **state)
{
	/* the examples recorded (README.md there): whether the job reads,
	 * whether it issues the same writes simulated (not time_based) */
	static const struct {
		const char *name;
		gboolean reads, same_ios;
	} examples[] = {
		{ "basic-verify", TRUE, FALSE }, { "cross-stripe-verify", TRUE, FALSE },
		{ "dedupe-global", FALSE, TRUE }, { "fio-rand-RW", TRUE, FALSE },
		{ "fio-rand-write", FALSE, FALSE }, { "fio-seq-RW", TRUE, FALSE },
		{ "fio-seq-write", FALSE, FALSE }, { "fsx", TRUE, FALSE },
		{ "ssd-steadystate", FALSE, TRUE },
	};
	static const struct {
		const char *name;
		const char *job;
	} jobs[] = {
		{ "psync buffered", "[a]\nrw=write\nbs=4k\nsize=4m\nioengine=psync\n" },
		{ "libaio direct",
		  "[b]\nrw=randwrite\nbs=64k\nsize=4m\nioengine=libaio\niodepth=4\ndirect=1\n" },
		{ "time-based random",
		  "[c]\nrw=randwrite\nbs=4k\nsize=8m\nioengine=psync\ntime_based=1\nruntime=1\n"
		  "fsync=32\n" },
		{ "numjobs, group_reporting",
		  "[g]\nrw=write\nbs=4k\nsize=2m\nioengine=psync\nnumjobs=2\nend_fsync=1\n" },
		{ "description", "[d]\nrw=write\nbs=4k\nsize=2m\nioengine=psync\ndescription=a job\n" },
	};
	static const struct {
		const char *option, *suffix;
	} formats[] = { { "--output-format=json", "json" }, { "--output-format=json+", "plus.json" } };
	g_autofree char *fio = g_find_program_in_path("fio");
	g_autofree char *dir = NULL, *data = NULL, *jobfile = NULL, *ini = NULL, *cmd = NULL;

	(void)state;
	dir = g_dir_make_tmp("wbsim-fio-json-XXXXXX", NULL);
	assert_non_null(dir);
	data = g_build_filename(dir, "data", NULL);
	jobfile = g_build_filename(dir, "job.fio", NULL);
	ini = g_build_filename(dir, "sim.ini", NULL);
	cmd = g_strdup_printf("rm -rf '%s'", dir);
	assert_int_equal(g_mkdir(data, 0755), 0);
	assert_true(g_file_set_contents(ini,
		"[scenario]\ndescription = one fio job file, keys against fio's\n\n"
		"[workload]\nfio = job.fio\n", -1, NULL));

	for (guint j = 0; j < G_N_ELEMENTS(examples); j++) {
		g_autofree char *rel = g_strdup_printf("tests/sim/data/fio-examples/%s.fio",
						       examples[j].name);
		g_autofree char *text = read_source_file(rel);

		assert_true(g_file_set_contents(jobfile, text, -1, NULL));
		for (guint f = 0; f < G_N_ELEMENTS(formats); f++) {
			g_autofree char *rec = g_strdup_printf("tests/sim/data/fio-examples/%s.%s",
							       examples[j].name, formats[f].suffix);
			g_autofree char *real = read_source_file(rec);

			compare_with_fio(dir, formats[f].option, real, examples[j].reads,
					 examples[j].same_ios, rec);
		}
	}

	if (!fio) {
		print_message("fio not found (Debian package fio): no live comparison\n");
		assert_int_equal(system(cmd), 0);
		return;
	}
	for (guint j = 0; j < G_N_ELEMENTS(jobs); j++) {
		/* a [global] section before the job, but for the last job */
		gboolean global = j + 1 < G_N_ELEMENTS(jobs);
		g_autofree char *text = global ?
			g_strdup_printf("[global]\ndirectory=%s\n%s\n%s", data,
					g_str_has_prefix(jobs[j].name, "numjobs") ?
					"group_reporting\n" : "", jobs[j].job) :
			g_strdup_printf("%sdirectory=%s\n", jobs[j].job, data);

		assert_true(g_file_set_contents(jobfile, text, -1, NULL));
		for (guint f = 0; f < G_N_ELEMENTS(formats); f++) {
			const char *argv[] = { fio, formats[f].option, "job.fio", NULL };
			g_autofree char *out = NULL, *err = NULL;
			g_autofree char *what = g_strdup_printf("%s, %s", jobs[j].name,
								formats[f].option);
			int st = spawn_in(dir, argv, &out, &err);

			if (st)
				fail_msg("%s: fio exited %d: %s", what, st, err);
			/* the time-based job writes for a time, not a count */
			compare_with_fio(dir, formats[f].option, out, FALSE,
					 !strstr(jobs[j].job, "time_based"), what);
		}
	}
	assert_int_equal(system(cmd), 0);
}

/*
 * description= as fio 3.33 prints it: a "Description  : [...]" line under
 * the job's header in the text report and "desc" in its JSON object, taken
 * from the group's first job (here set in [global]); absent when unset.
 */
static void test_description(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-desc-XXXXXX", NULL);
	g_autofree char *jobfile = g_build_filename(dir, "job.fio", NULL);
	g_autofree char *ini = g_build_filename(dir, "sim.ini", NULL);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);
	struct run_result text, json, plain;

	(void)state;
	assert_true(g_file_set_contents(ini, "[workload]\nfio = job.fio\n", -1, NULL));
	assert_true(g_file_set_contents(jobfile,
		"[global]\ndescription=two writers, one group\n"
		"[w]\nrw=write\nbs=64k\nsize=1m\nnumjobs=2\ngroup_reporting\n", -1, NULL));
	text = run_in(dir, "--no-wall-time", "sim.ini", NULL);
	json = run_in(dir, "--no-wall-time", "--output-format=json", "sim.ini", NULL);
	assert_int_equal(text.status, 0);
	assert_int_equal(json.status, 0);
	assert_non_null(strstr(text.out, ": simulated\n  Description  : [two writers, one group]\n"));
	assert_non_null(strstr(json.out, "\"latency_window\" : 0,\n      \"desc\" : \"two writers, one group\"\n    }"));
	assert_true(g_file_set_contents(jobfile, "[w]\nrw=write\nbs=64k\nsize=1m\n", -1, NULL));
	plain = run_in(dir, "--no-wall-time", "--output-format=json", "sim.ini", NULL);
	assert_int_equal(plain.status, 0);
	assert_null(strstr(plain.out, "\"desc\""));
	run_result_clear(&text);
	run_result_clear(&json);
	run_result_clear(&plain);
	assert_int_equal(system(cmd), 0);
}

/*
 * A single run's progress line (percentage, simulated time, bandwidth,
 * wall-clock ETA): on standard error, on a terminal or with --progress,
 * never in the report; off a terminal without --progress, nothing.
 */
static void test_progress(void **state)
{
	struct run_result quiet = run("--no-wall-time", "--set", "run.time_limit=3s",
				      "scenarios/e1-pmem-xfs-base.ini");
	struct run_result shown = run("--no-wall-time", "--progress", "--set", "run.time_limit=3s",
				      "scenarios/e1-pmem-xfs-base.ini");
	g_autofree char *script = g_find_program_in_path("script");

	assert_int_equal(quiet.status, 0);
	assert_int_equal(shown.status, 0);
	assert_string_equal(quiet.err, "");
	assert_string_equal(shown.out, quiet.out);
	/* the first line at once: nothing run yet, no ETA */
	assert_true(g_str_has_prefix(shown.err, "\r\033[KJobs: 0: [0.0%][sim=0.0s][w=0B/s][eta --]"));
	/* and the line is cleared at the end */
	assert_true(g_str_has_suffix(shown.err, "\r\033[K"));
	run_result_clear(&quiet);
	run_result_clear(&shown);
	if (!script) {
		print_message("script (util-linux) not found: the terminal case not tested\n");
		return;
	}
	{
		/* on a pseudo-terminal (script's), without --progress */
		g_autofree char *dir = g_dir_make_tmp("wbsim-progress-XXXXXX", NULL);
		g_autofree char *log = g_build_filename(dir, "typescript", NULL);
		g_autofree char *out = g_build_filename(dir, "out.txt", NULL);
		g_autofree char *prog = g_build_filename(g_getenv("WBSIM_BUILD_ROOT"), "sim", "sim-writeback", NULL);
		g_autofree char *cmd = g_strdup_printf("%s --no-wall-time --set run.time_limit=3s "
						       "scenarios/e1-pmem-xfs-base.ini > %s", prog, out);
		const char *argv[] = { script, "-qec", cmd, log, NULL };
		g_autofree char *text = NULL, *report = NULL;
		g_autoptr(GError) e = NULL;
		int st = 0;

		assert_true(g_spawn_sync(src_root(), (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL |
					 G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &st, &e));
		assert_true(g_spawn_check_wait_status(st, NULL));
		assert_true(g_file_get_contents(log, &text, NULL, NULL));
		/* the first line is drawn at once; later ones every 250 ms of
		 * wall time, which a fast machine may not reach */
		assert_non_null(strstr(text, "\r\033[KJobs: 0: [0.0%][sim=0.0s][w=0B/s][eta --]"));
		assert_true(g_file_get_contents(out, &report, NULL, NULL));
		assert_null(strstr(report, "Jobs: "));
		g_unlink(log);
		g_unlink(out);
		g_rmdir(dir);
	}
}


/* The events of an ftrace text file, counted by name. */
static GHashTable *trace_event_counts(const char *path)
{
	GHashTable *n = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autofree char *text = NULL;
	g_autofree char **lines = NULL;
	gsize len;

	assert_true(g_file_get_contents(path, &text, &len, NULL));
	lines = split_lines_in_place(text, len);
	for (char **l = lines; *l; l++) {
		const char *s = strstr(*l, ": ");

		if (**l == '#' || !s)
			continue;
		s += 2;
		g_autofree char *ev = g_strndup(s, strcspn(s, ":"));
		gpointer old = g_hash_table_lookup(n, ev);

		g_hash_table_replace(n, g_steal_pointer(&ev), GUINT_TO_POINTER(GPOINTER_TO_UINT(old) + 1));
	}
	return n;
}

/* --trace-events selects tracepoints as trace-cmd record -e does. */
static void test_trace_events(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-trace-events-XXXXXX", NULL);
	g_autofree char *all = g_build_filename(dir, "all.txt", NULL);
	g_autofree char *some = g_build_filename(dir, "some.txt", NULL);
	g_autoptr(GHashTable) na = NULL, ns = NULL;
	struct run_result r = run("--no-wall-time", "--set", "run.time_limit=2s", "--trace", all,
				  "scenarios/e1-pmem-xfs-base.ini");

	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	r = run("--no-wall-time", "--set", "run.time_limit=2s", "--trace", some, "--trace-events",
		"writeback:writeback_st*,balance_dirty_pages", "scenarios/e1-pmem-xfs-base.ini");
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	na = trace_event_counts(all);
	ns = trace_event_counts(some);
	/* the selected events, every one of them, and no other */
	assert_true(GPOINTER_TO_UINT(g_hash_table_lookup(na, "balance_dirty_pages")) > 0);
	assert_true(g_hash_table_size(na) > 2);
	assert_int_equal(GPOINTER_TO_UINT(g_hash_table_lookup(ns, "balance_dirty_pages")),
			 GPOINTER_TO_UINT(g_hash_table_lookup(na, "balance_dirty_pages")));
	assert_int_equal(GPOINTER_TO_UINT(g_hash_table_lookup(ns, "writeback_start")),
			 GPOINTER_TO_UINT(g_hash_table_lookup(na, "writeback_start")));
	/* writeback_st* is not writeback_written, which each pass traces too */
	assert_true(GPOINTER_TO_UINT(g_hash_table_lookup(na, "writeback_written")) > 0);
	assert_null(g_hash_table_lookup(ns, "writeback_written"));
	g_hash_table_remove(ns, "balance_dirty_pages");
	g_hash_table_remove(ns, "writeback_start");
	assert_int_equal(g_hash_table_size(ns), 0);

	r = run("--trace", some, "--trace-events", "sched", "scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_true(g_str_has_prefix(r.err, "sim-writeback: --trace-events sched: 'sched' matches no "
					    "tracepoint: expected writeback, writeback:EVENT or EVENT"));
	run_result_clear(&r);
	r = run("--trace-events", "writeback", "scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "sim-writeback: --trace-events writeback: selects what --trace FILE "
				   "writes: expected --trace too\n");
	run_result_clear(&r);
	g_unlink(all);
	g_unlink(some);
	g_rmdir(dir);
}

/* The first line of @event in the text trace @lines, or NULL. */
static const char *first_event_line(char **lines, const char *event)
{
	g_autofree char *key = g_strdup_printf(": %s: ", event);

	for (char **l = lines; *l; l++)
		if (**l != '#' && strstr(*l, key))
			return *l;
	return NULL;
}


/* Assert the first line of each of @want's events ("EVENT", "LINE" pairs). */
static void assert_first_lines(const char *path, const char *const *want)
{
	g_autofree char *text = NULL;
	g_autofree char **lines = NULL;
	gsize len;

	assert_true(g_file_get_contents(path, &text, &len, NULL));
	lines = split_lines_in_place(text, len);
	for (const char *const *w = want; *w; w += 2) {
		const char *got = first_event_line(lines, w[0]);

		if (!got)
			fail_msg("no %s line in %s", w[0], path);
		assert_string_equal(got, w[1]);
	}
}

/* One writer of 32 MiB over a 4 MiB background threshold, and a sync. */
static const char trace_inodes_scenario[] =
	"[machine]\ncpus = 2\nmemory = 1g\n"
	"[vm]\ndirty_background_bytes = 4m\n"
	"[run]\ntime_limit = 3s\n"
	"[events]\nat = 1s sync\n"
	"[fio:w]\nfilename=/mnt/f\nrw=write\nbs=64k\nsize=32m\nrate=16m\n";

/*
 * Issue 38: the kernel's whole writeback trace. Each event the model has a
 * counterpart for, the first time it appears in a small run, with its exact
 * text: the per-inode events of one writer (its folios dirtied, the inode
 * put on b_dirty, its slices, the pages each wb_do_writeback() wrote), and
 * in E7 with io control disabled (two cgroups dirtying the same files,
 * their wbs replaced at 9 s) the cgroup events and the flusher finding an
 * inode another wb writes (requeue, wait); the
 * latency flags of the locks the kernel holds ("...1." wb->list_lock,
 * "d..1." the page cache's xa_lock_irqsave()); ftrace's header with the
 * count of lines and the machine's CPUs.
 */
static void test_trace_whole_writeback(void **state)
{
	static const char *const inode_events[] = {
		"writeback_dirty_folio",
			"             fio-102     [000] d..1.     0.000000: writeback_dirty_folio: bdi 259:0: ino=3 index=0",
		"writeback_mark_inode_dirty",
			"             fio-102     [000] .....     0.000000: writeback_mark_inode_dirty: bdi 259:0: ino=3 state= flags=I_DIRTY_PAGES",
		"writeback_dirty_inode_enqueue",
			"             fio-102     [000] .....     0.000000: writeback_dirty_inode_enqueue: dev 259,0 ino 3 dirtied 4294667296 state I_DIRTY_PAGES mode 0100644",
		"writeback_single_inode_start",
			"    kworker/u4:0-101     [000] .....     0.253927: writeback_single_inode_start: bdi 259:0: ino=3 state=I_DIRTY_PAGES|I_SYNC|I_SYNC_QUEUED dirtied_when=4294667296 age=0 index=0 to_write=4096 wrote=0 cgroup_ino=1",
		"writeback_single_inode",
			"    kworker/u4:0-101     [000] .....     0.256801: writeback_single_inode: bdi 259:0: ino=3 state=I_SYNC|I_SYNC_QUEUED dirtied_when=4294667296 age=0 index=0 to_write=4096 wrote=1056 cgroup_ino=1",
		"writeback_pages_written",
			"    kworker/u4:0-101     [000] .....     0.256801: writeback_pages_written: 1056",
		"writeback_queue_io",
			"    kworker/u4:0-101     [000] ...1.     0.253927: writeback_queue_io: bdi 259:0: older=4294667549 age=0 enqueue=1 reason=background cgroup_ino=1",
		"writeback_wake_background",
			"             fio-102     [000] .....     0.253927: writeback_wake_background: bdi 259:0: cgroup_ino=1",
		"writeback_queue",
			"    kworker/u4:0-101     [000] .....     1.000000: writeback_queue: bdi 259:0: sb_dev 0:0 nr_pages=9223372036854775807 sync_mode=1 kupdate=0 range_cyclic=0 background=0 reason=sync cgroup_ino=1",
		NULL
	};
	static const char *const cgroup_events[] = {
		"track_foreign_dirty",
			"             fio-103     [001] d..1.     0.000009: track_foreign_dirty: bdi 259:0[1]: ino=130 memcg_id=3 cgroup_ino=3 page_cgroup_ino=4",
		"inode_foreign_history",
			"   kworker/u24:3-130     [001] .....     9.234037: inode_foreign_history: bdi 259:0: ino=3389 cgroup_ino=3 history=0x1",
		"inode_switch_wbs_queue",
			"   kworker/u24:1-116     [001] .....     9.184000: inode_switch_wbs_queue: bdi 259:0: old_cgroup_ino=3 new_cgroup_ino=3 count=1",
		"inode_switch_wbs",
			"     kworker/0:1-104     [002] d..4.     9.194002: inode_switch_wbs: bdi 259:0: ino=3389 old_cgroup_ino=3 new_cgroup_ino=3",
		"flush_foreign",
			"             fio-103     [002] .....     3.904280: flush_foreign: bdi 259:0: cgroup_ino=4 frn_bdi_id=1 frn_memcg_id=3",
		"writeback_sb_inodes_requeue",
			"   kworker/u24:3-130     [003] ...1.     9.395645: writeback_sb_inodes_requeue: bdi 259:0: ino=2572 state=I_DIRTY_PAGES|I_SYNC|I_SYNC_QUEUED dirtied_when=4294671656 age=5 cgroup_ino=3",
		"writeback_wait",
			"   kworker/u24:3-130     [003] ...1.     9.395645: writeback_wait: bdi 259:0: sb_dev 0:0 nr_pages=9223372036854775807 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=3",
		"bdi_dirty_ratelimit",
			"             fio-102     [001] ...1.     2.136272: bdi_dirty_ratelimit: bdi 259:0: write_bw=102400 awrite_bw=102400 dirty_rate=512088 dirty_ratelimit=102400 task_ratelimit=51204 balanced_dirty_ratelimit=10236 cgroup_ino=3",
		NULL
	};
	g_autofree char *dir = g_dir_make_tmp("wbsim-trace-whole-XXXXXX", NULL);
	g_autofree char *ini = g_build_filename(dir, "inodes.ini", NULL);
	g_autofree char *txt = g_build_filename(dir, "t.txt", NULL);
	g_autofree char *cg = g_build_filename(dir, "cg.txt", NULL);
	g_autofree char *text = NULL, *head = NULL;
	gsize len;
	guint n = 0;
	struct run_result r;

	(void)state;
	assert_true(g_file_set_contents(ini, trace_inodes_scenario, -1, NULL));
	r = run("--no-wall-time", "--trace", txt, ini);
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	assert_first_lines(txt, inode_events);
	/* the header counts the lines: ftrace's entries-in-buffer/entries-written */
	assert_true(g_file_get_contents(txt, &text, &len, NULL));
	for (const char *l = text, *end = text + len, *nl; l < end; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(end - l));
		if (!nl)
			nl = end;
		n += nl > l && *l != '#';
	}
	head = g_strdup_printf("# tracer: nop\n#\n# entries-in-buffer/entries-written: %u/%u   #P:2\n#\n"
			       "#                                _-----=> irqs-off/BH-disabled\n", n, n);
	assert_true(g_str_has_prefix(text, head));

	r = run("--no-wall-time", "--set", "run.time_limit=10s", "--trace", cg,
		"--trace-events",
		"track_foreign_dirty,inode_*,flush_foreign,writeback_wait,writeback_sb_inodes_requeue,"
		"bdi_dirty_ratelimit", "scenarios/e7-io-disable-noswitch.ini");
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	assert_first_lines(cg, cgroup_events);
	g_unlink(ini);
	g_unlink(txt);
	g_unlink(cg);
	g_rmdir(dir);
}

/* One CPU writing into a small page cache: hundreds of trace pages in
 * 100 ms (each page it dirties is two events: writeback_dirty_folio and
 * writeback_mark_inode_dirty). */
static const char trace_pages_scenario[] =
	"[machine]\ncpus = 1\nmemory = 1g\n\n"
	"[filesystem]\ntype = xfs\n\n"
	"[run]\ntime_limit = 100ms\n\n"
	"[fio:w]\nioengine=psync\nrw=write\nbs=4k\nsize=4g\n";

/*
 * The report's writeback starts by reason are the trace's writeback_start
 * events by reason: a writer of 16 MiB/s for 4 s over a background
 * threshold of 16 MiB (background), a sync(2) while it writes (its
 * start-all pass and its WB_SYNC_ALL work: sync) and the flusher's
 * periodic wakeup 5 s after its last run, with pages still dirty
 * (periodic: the run goes on to 6 s after the writer); counted whether
 * traced or not (the same JSON without --trace).
 */
static void test_writeback_starts(void **state)
{
	static const char scenario[] =
		"[machine]\ncpus = 2\nmemory = 1g\n"
		"[vm]\ndirty_background_bytes = 16m\n"
		"[fio:w]\nfilename=/mnt/f\nrw=randwrite\nbs=4k\nsize=64m\nrate=16m\n"
		"fallocate=none\n"
		"[events]\nat = 100ms sync\n"
		"[measure]\nextents = after-jobs+6s\n";
	static const char *const reasons[] = {
		"background", "vmscan", "sync", "periodic", "laptop_timer", "fs_free_space",
		"forker_thread", "foreign_flush",
	};
	g_autofree char *dir = g_dir_make_tmp("wbsim-wb-starts-XXXXXX", NULL);
	g_autofree char *ini = g_build_filename(dir, "starts.ini", NULL);
	g_autofree char *trace = g_build_filename(dir, "trace.txt", NULL);
	g_autoptr(JsonParser) p = json_parser_new();
	g_autoptr(GHashTable) by_reason = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
								NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	struct run_result r;
	JsonObject *starts;
	guint64 total = 0, traced = 0;

	(void)state;
	assert_true(g_file_set_contents(ini, scenario, -1, NULL));
	r = run("--no-wall-time", "--output-format=json", "--trace", trace, ini);
	assert_int_equal(r.status, 0);
	assert_true(json_parser_load_from_data(p, r.out, -1, NULL));
	starts = json_object_get_object_member(
		json_object_get_object_member(json_node_get_object(json_parser_get_root(p)),
					      "wbsim"), "writeback_starts");
	assert_int_equal(json_object_get_size(starts), G_N_ELEMENTS(reasons));
	/* the writeback_start lines by their reason= */
	assert_true(g_file_get_contents(trace, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		const char *why = strstr(*l, " reason=");
		gpointer old;

		if (!strstr(*l, ": writeback_start: "))
			continue;
		assert_non_null(why);
		why += strlen(" reason=");
		g_autofree char *reason = g_strndup(why, strcspn(why, " "));

		old = g_hash_table_lookup(by_reason, reason);
		g_hash_table_replace(by_reason, g_steal_pointer(&reason),
				     GUINT_TO_POINTER(GPOINTER_TO_UINT(old) + 1));
		traced++;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(reasons); i++) {
		guint64 n = (guint64)json_object_get_int_member(starts, reasons[i]);

		assert_int_equal(n, GPOINTER_TO_UINT(g_hash_table_lookup(by_reason, reasons[i])));
		total += n;
	}
	assert_int_equal(total, traced);
	assert_true(json_object_get_int_member(starts, "background") > 0);
	assert_true(json_object_get_int_member(starts, "sync") >= 2);
	assert_true(json_object_get_int_member(starts, "periodic") > 0);
	/* the same counts without a trace */
	run_result_clear(&r);
	r = run("--no-wall-time", "--output-format=json", ini);
	assert_int_equal(r.status, 0);
	{
		g_autoptr(JsonParser) q = json_parser_new();
		JsonObject *again;

		assert_true(json_parser_load_from_data(q, r.out, -1, NULL));
		again = json_object_get_object_member(
			json_object_get_object_member(json_node_get_object(json_parser_get_root(q)),
						      "wbsim"), "writeback_starts");
		for (size_t i = 0; i < G_N_ELEMENTS(reasons); i++)
			assert_int_equal(json_object_get_int_member(again, reasons[i]),
					 json_object_get_int_member(starts, reasons[i]));
	}
	run_result_clear(&r);
	g_unlink(trace);
	g_unlink(ini);
	g_rmdir(dir);
}

/*
 * Trace lines per CPU, in order, as "comm pid [flags] secs.usecs event:
 * fields": the text trace's columns, or trace-cmd report -t's (@ns:
 * nanosecond time stamps, rounded to microseconds as ftrace's text prints
 * them: ns2usecs() adds 500 ns); the latency flags with @flags (trace-cmd
 * report prints them only with -l, which cuts the task's name). What a
 * reader of trace.dat cannot compute as the kernel's text does is masked
 * ("?"): the inode states, whose flag values the format files do not give
 * (the kernel's enum), and the ages, which read jiffies.
 */
static GHashTable *trace_lines_per_cpu(const char *text, gboolean ns, gboolean flags)
{
	g_autoptr(GRegex) state_rx = g_regex_new("(state[= ]|flags=)[^ ]*", 0, 0, NULL);
	g_autoptr(GRegex) age_rx = g_regex_new(" age=[0-9]+", 0, 0, NULL);
	g_autoptr(GRegex) rx = g_regex_new("^\\s*(.+)-(\\d+)\\s+\\[(\\d+)\\]\\s+(?:(\\S{5})\\s+)?"
					   "(\\d+)\\.(\\d+):\\s+(\\w+):\\s+(.*)$", 0, 0, NULL);
	g_autofree char *copy = g_strdup(text);
	g_autofree char **lines = split_lines_in_place(copy, strlen(copy));
	GHashTable *per_cpu = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						    (GDestroyNotify)g_ptr_array_unref);

	for (char **l = lines; *l; l++) {
		g_autoptr(GMatchInfo) m = NULL;
		g_auto(GStrv) f = NULL;
		g_autofree char *fields = NULL;
		GPtrArray *a;
		guint64 secs, frac;

		if (!g_regex_match(rx, *l, 0, &m))
			continue;
		f = g_match_info_fetch_all(m);
		secs = g_ascii_strtoull(f[5], NULL, 10);
		frac = g_ascii_strtoull(f[6], NULL, 10);
		if (ns) {
			guint64 us;

			assert_int_equal(strlen(f[6]), 9);
			us = (secs * 1000000000 + frac + 500) / 1000;
			secs = us / 1000000;
			frac = us % 1000000;
		}
		a = g_hash_table_lookup(per_cpu, f[3]);
		if (!a) {
			a = g_ptr_array_new_with_free_func(g_free);
			g_hash_table_insert(per_cpu, g_strdup(f[3]), a);
		}
		fields = g_strdup(g_strstrip(f[8]));
		if (g_str_has_prefix(f[7], "writeback_single_inode") ||
		    !strcmp(f[7], "writeback_sb_inodes_requeue") ||
		    !strcmp(f[7], "writeback_mark_inode_dirty") ||
		    !strcmp(f[7], "writeback_dirty_inode_enqueue")) {
			g_autofree char *no_state = g_regex_replace(state_rx, fields, -1, 0, "\\1?",
								    0, NULL);

			g_free(fields);
			fields = g_regex_replace_literal(age_rx, no_state, -1, 0, " age=?", 0, NULL);
		}
		g_ptr_array_add(a, g_strdup_printf("%s %s %s%s%" G_GUINT64_FORMAT ".%06"
						   G_GUINT64_FORMAT " %s: %s",
						   g_strstrip(f[1]), f[2], flags ? f[4] : "",
						   flags ? " " : "", secs, frac, f[7], fields));
	}
	return per_cpu;
}

/*
 * --trace FILE.dat: trace-cmd's trace.dat, which trace-cmd report reads
 * into the same events, tasks, CPUs, time stamps and fields as the text
 * trace of the same run. E7 over 12 s has records of both sizes
 * (balance_dirty_pages: more than 112 bytes, its length in array[0]),
 * gaps longer than a 27-bit time delta, and several cgroups and tasks.
 */
/* The suffix is read in any case: t.DAT is a trace.dat too (issue 39). */
static void test_trace_dat_upper_case(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-trace-DAT-XXXXXX", NULL);
	g_autofree char *dat = g_build_filename(dir, "t.DAT", NULL);
	g_autofree char *bin = NULL;
	const char magic[] = "\x17\x08\x44tracing6";
	gsize len = 0;
	struct run_result r = run("--no-wall-time", "--set", "run.time_limit=1s", "--trace", dat,
				  "scenarios/validate-minimal.ini");

	(void)state;
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	assert_true(g_file_get_contents(dat, &bin, &len, NULL));
	assert_true(len > sizeof(magic) && memcmp(bin, magic, sizeof(magic)) == 0);
	g_unlink(dat);
	g_rmdir(dir);
}

static void test_trace_dat(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-trace-dat-XXXXXX", NULL);
	g_autofree char *txt = g_build_filename(dir, "t.txt", NULL);
	g_autofree char *dat = g_build_filename(dir, "trace.dat", NULL);
	g_autofree char *tool = g_find_program_in_path("trace-cmd");
	g_autofree char *text = NULL, *bin = NULL, *report = NULL, *errs = NULL;
	g_autoptr(GHashTable) want = NULL, got = NULL;
	g_autoptr(GError) e = NULL;
	const char magic[] = "\x17\x08\x44tracing6";
	gsize len = 0;
	GHashTableIter it;
	gpointer cpu, lines;
	guint n = 0, bdp = 0;
	int st = 0;
	struct run_result r = run("--no-wall-time", "--set", "run.time_limit=12s", "--trace", txt,
				  "scenarios/e7-dying-cgroup-reachable.ini");

	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	r = run("--no-wall-time", "--set", "run.time_limit=12s", "--trace", dat,
		"scenarios/e7-dying-cgroup-reachable.ini");
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	assert_true(g_file_get_contents(dat, &bin, &len, NULL));
	assert_true(len > sizeof(magic) && memcmp(bin, magic, sizeof(magic)) == 0);	/* "6\0" */
	assert_int_equal(len % 4096, 0);
	if (!tool) {
		print_message("trace-cmd not found (Debian package trace-cmd): trace.dat not read back\n");
		goto out;
	}
	{
		const char *argv[] = { tool, "report", "-t", dat, NULL };

		assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL, &report, &errs,
					 &st, &e));
	}
	assert_true(g_spawn_check_wait_status(st, NULL));
	assert_string_equal(errs, "");
	assert_true(g_str_has_prefix(report, "cpus=12\n"));	/* the machine's, [machine] cpus */
	assert_true(g_file_get_contents(txt, &text, NULL, NULL));
	want = trace_lines_per_cpu(text, FALSE, FALSE);
	got = trace_lines_per_cpu(report, TRUE, FALSE);
	assert_int_equal(g_hash_table_size(got), g_hash_table_size(want));
	g_hash_table_iter_init(&it, want);
	while (g_hash_table_iter_next(&it, &cpu, &lines)) {
		GPtrArray *w = lines, *g = g_hash_table_lookup(got, cpu);

		assert_non_null(g);
		assert_int_equal(g->len, w->len);
		for (guint i = 0; i < w->len; i++) {
			assert_string_equal(g->pdata[i], w->pdata[i]);
			bdp += strstr(w->pdata[i], " balance_dirty_pages: bdi ") != NULL;
		}
		n += w->len;
	}
	assert_true(n > 7000);
	assert_true(bdp > 0);
out:
	g_unlink(txt);
	g_unlink(dat);
	g_rmdir(dir);
}

/*
 * --trace FILE.dat of a run whose one CPU fills hundreds of ring-buffer
 * pages (many times the sixteen it holds in memory before they go to the
 * spool), read back by the tests' own reader (tests/report/trace-dat-read.c):
 * every event of the text trace of the same run, with its task, pid, time
 * and name, on its CPU and in its order (issue 39, item 1).
 */
static void test_trace_dat_many_pages(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-trace-dat-pages-XXXXXX", NULL);
	g_autofree char *ini = g_build_filename(dir, "one.ini", NULL);
	g_autofree char *txt = g_build_filename(dir, "t.txt", NULL);
	g_autofree char *dat = g_build_filename(dir, "t.dat", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GHashTable) want = NULL;
	g_autoptr(GArray) ev = NULL;
	g_autoptr(GError) e = NULL;
	GPtrArray *lines;
	struct tdr_file f;
	struct run_result r;
	guint pages = 0;

	(void)state;
	assert_true(g_file_set_contents(ini, trace_pages_scenario, -1, NULL));
	r = run_in(dir, "--no-wall-time", "--trace", "t.txt", "one.ini", NULL);
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	r = run_in(dir, "--no-wall-time", "--trace", "t.dat", "one.ini", NULL);
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	assert_true(g_file_get_contents(txt, &text, NULL, NULL));
	want = trace_lines_per_cpu(text, FALSE, TRUE);
	assert_int_equal(g_hash_table_size(want), 1);
	lines = g_hash_table_lookup(want, "000");
	assert_non_null(lines);

	if (!tdr_open(dat, &f, &e))
		fail_msg("%s", e->message);
	assert_int_equal(f.nr_cpus, 1);
	ev = tdr_events(&f, 0, &pages, &e);
	if (!ev)
		fail_msg("%s", e->message);
	assert_true(pages > 200);
	assert_int_equal(ev->len, lines->len);
	for (guint i = 0; i < ev->len; i++) {
		const struct tdr_event *t = &g_array_index(ev, struct tdr_event, i);
		const char *comm = g_hash_table_lookup(f.comms, GINT_TO_POINTER(t->pid));
		const char *name = g_hash_table_lookup(f.event_names, GUINT_TO_POINTER(t->type));
		/* ftrace's ns2usecs(): rounded to the microsecond */
		guint64 us = (t->ts + 500) / 1000;
		/* the latency flags of the entry: irqs off, preempt depth */
		char flags[6] = { t->data[2] & 1 ? 'd' : '.', '.', '.',
				  t->data[3] ? "0123456789abcdef"[t->data[3] & 0xf] : '.', '.', '\0' };
		g_autofree char *got = g_strdup_printf("%s %d %s %" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT
						       " %s: ", comm ? comm : "<idle>", t->pid, flags,
						       us / 1000000, us % 1000000, name ? name : "?");

		if (!g_str_has_prefix(lines->pdata[i], got))
			fail_msg("event %u: '%s' in trace.dat, '%s' in the text", i, got,
				 (const char *)lines->pdata[i]);
	}
	tdr_close(&f);
	g_unlink(ini);
	g_unlink(txt);
	g_unlink(dat);
	assert_int_equal(g_rmdir(dir), 0);	/* nothing else left: the spool is gone */
}

/* The event names of the format files in trace.dat @bin ("name: EVENT\nID: "). */
static GPtrArray *dat_format_names(const char *bin, gsize len)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *p = bin, *end = bin + len;

	while ((p = memmem(p, (size_t)(end - p), "name: ", 6)) != NULL) {
		const char *nl = memchr(p + 6, '\n', (size_t)(end - p - 6));

		if (nl && end - nl > 4 && memcmp(nl, "\nID: ", 5) == 0)
			g_ptr_array_add(names, g_strndup(p + 6, (gsize)(nl - p - 6)));
		p += 6;
	}
	return names;
}

/*
 * --trace-events with --trace FILE.dat: the file stores the format files
 * of the selected events only, as trace-cmd record -e does (all 22
 * without the option), and trace-cmd report -E lists just those
 * ("writeback:EVENT" lines).
 */
static void test_trace_dat_selected_events(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-trace-dat-ev-XXXXXX", NULL);
	g_autofree char *all = g_build_filename(dir, "all.dat", NULL);
	g_autofree char *sel = g_build_filename(dir, "sel.dat", NULL);
	g_autofree char *tool = g_find_program_in_path("trace-cmd");
	g_autofree char *bin = NULL;
	g_autoptr(GPtrArray) names = NULL;
	gsize len = 0;
	struct run_result r = run("--no-wall-time", "--trace", all,
				  "scenarios/validate-minimal.ini");

	(void)state;
	assert_int_equal(r.status, 0);
	run_result_clear(&r);
	r = run("--no-wall-time", "--trace", sel, "--trace-events",
		"balance_dirty_pages,writeback:bdi_dirty_ratelimit",
		"scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 0);
	run_result_clear(&r);

	assert_true(g_file_get_contents(all, &bin, &len, NULL));
	names = dat_format_names(bin, len);
	assert_int_equal(names->len, 22);
	g_clear_pointer(&names, g_ptr_array_unref);
	g_clear_pointer(&bin, g_free);

	assert_true(g_file_get_contents(sel, &bin, &len, NULL));
	names = dat_format_names(bin, len);
	assert_int_equal(names->len, 2);	/* in wbsim's event order, not the list's */
	assert_string_equal(names->pdata[0], "bdi_dirty_ratelimit");
	assert_string_equal(names->pdata[1], "balance_dirty_pages");
	{	/* the system's event count before them */
		const char sys[] = "writeback";
		const char *p = memmem(bin, len, sys, sizeof(sys));
		uint32_t n;

		assert_non_null(p);
		memcpy(&n, p + sizeof(sys), sizeof(n));
		assert_int_equal(n, 2);
	}
	if (!tool) {
		print_message("trace-cmd not found (Debian package trace-cmd): trace-cmd report -E not run\n");
		goto out;
	}
	{
		const char *argv[] = { tool, "report", "-E", sel, NULL };
		g_autofree char *out = NULL, *err = NULL;
		g_autoptr(GError) e = NULL;
		g_auto(GStrv) lines = NULL;
		guint n = 0;
		int st = 0;

		assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL, &out, &err,
					 &st, &e));
		assert_true(g_spawn_check_wait_status(st, NULL));
		lines = g_strsplit(out, "\n", -1);
		for (guint i = 0; lines[i]; i++) {
			if (!*lines[i])
				continue;
			assert_true(strcmp(lines[i], "writeback:balance_dirty_pages") == 0 ||
				    strcmp(lines[i], "writeback:bdi_dirty_ratelimit") == 0);
			n++;
		}
		assert_int_equal(n, 2);
	}
out:
	g_unlink(all);
	g_unlink(sel);
	g_rmdir(dir);
}

/* --output-format=json: fio's layout, which fio's own tools can index. */
static void test_json_output(void **state)
{
	struct run_result r = run("--output-format=json", "scenarios/validate-minimal.ini");
	g_autoptr(JsonParser) p = json_parser_new();
	JsonObject *o, *job, *write;
	JsonArray *jobs;

	assert_int_equal(r.status, 0);
	assert_true(json_parser_load_from_data(p, r.out, -1, NULL));
	o = json_node_get_object(json_parser_get_root(p));
	assert_true(g_str_has_prefix(json_object_get_string_member(o, "fio version"), "fio-3.33 (wbsim "));
	jobs = json_object_get_array_member(o, "jobs");
	assert_int_equal(json_array_get_length(jobs), 1);
	job = json_array_get_object_element(jobs, 0);
	assert_string_equal(json_object_get_string_member(job, "jobname"), "writer");
	write = json_object_get_object_member(job, "write");
	assert_int_equal(json_object_get_int_member(write, "io_bytes"), 64 * 1024 * 1024);
	assert_true(json_object_has_member(job, "read"));
	assert_true(json_object_has_member(job, "trim"));
	assert_true(json_object_has_member(o, "wbsim"));
	/* wbsim's own rates: KiB/s, named so (as the series' _kib_s columns);
	 * fio's keys stay fio's ("bw": KiB/s, "bw_bytes": B/s) */
	assert_null(strstr(r.out, "_kbps\""));
	assert_int_equal(json_object_get_int_member(write, "bw"),
			 json_object_get_int_member(write, "bw_bytes") / 1024);
	{
		JsonObject *ctx = json_array_get_object_element(
			json_object_get_array_member(json_object_get_object_member(o, "wbsim"),
						     "contexts"), 0);
		gint64 bw = json_object_get_int_member(ctx, "avg_write_bandwidth_kib_s");

		assert_true(bw > 0 && bw % 4 == 0);	/* pages/s * 4 KiB */
		assert_true(json_object_get_int_member(ctx, "dirty_ratelimit_kib_s") > 0);
		/* validate-minimal: [machine] memory = 16G, the default */
		assert_int_equal(json_object_get_int_member(json_object_get_object_member(o, "wbsim"),
							    "memory_bytes"), 16ll << 30);
	}
	run_result_clear(&r);
}

static void test_overrides(void **state)
{
	struct run_result r = run("--dump-config", "--set", "machine.cpus=12",
				  "--set", "run.seed=7", "--seed", "9",
				  "--set", "device.latency=1ms",
				  "scenarios/validate-minimal.ini");

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\ncpus = 12\n"));
	/* --seed wins over --set run.seed */
	assert_non_null(strstr(r.out, "\nseed = 9\n"));
	assert_non_null(strstr(r.out, "\nlatency = 1000000ns\n"));
	run_result_clear(&r);

	r = run("--set", "device.latency=1", "scenarios/validate-minimal.ini");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	/* the device layer's message, prefixed with where the value came from */
	assert_true(g_str_has_prefix(r.err, "sim-writeback: --set: "));
	assert_non_null(strstr(r.err, "latency = 1: "));
	run_result_clear(&r);
}

/* Collect every *.ini below @dir (relative to the source root), sorted. */
static void collect_scenarios(const char *rel, GPtrArray *out)
{
	g_autofree char *dir = g_build_filename(src_root(), rel, NULL);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	assert_non_null(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *sub = g_build_filename(rel, name, NULL);
		g_autofree char *full = g_build_filename(src_root(), sub, NULL);

		if (g_file_test(full, G_FILE_TEST_IS_DIR))
			collect_scenarios(sub, out);
		else if (g_str_has_suffix(name, ".ini"))
			g_ptr_array_add(out, g_steal_pointer(&sub));
	}
	g_dir_close(d);
}

/*
 * Every shipped scenario (scenarios/ ** / *.ini) loads, and its dump loads
 * back to the same dump: they double as tests.
 */
static void test_shipped_scenarios_parse(void **state)
{
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);

	collect_scenarios("scenarios", files);
	assert_true(files->len >= 1);
	for (guint i = 0; i < files->len; i++) {
		const char *f = files->pdata[i];
		struct run_result r = run("--parse-only", f);

		if (r.status != 0 || *r.err)
			fail_msg("%s: exit %d: %s", f, r.status, r.err);
		run_result_clear(&r);
		assert_round_trip(f);
	}
}

static void test_deterministic(void **state)
{
	/* small, so the suite stays quick; random offsets come from the seed */
	struct run_result a = run("--no-wall-time", "tests/sim/data/small-random.ini");
	struct run_result b = run("--no-wall-time", "tests/sim/data/small-random.ini");

	assert_int_equal(a.status, 0);
	assert_non_null(strstr(a.out, "a: (groupid=0"));
	assert_string_equal(a.out, b.out);
	run_result_clear(&a);
	run_result_clear(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_trace_identities),
		cmocka_unit_test(test_series_csv),
		cmocka_unit_test(test_json_plus),
		cmocka_unit_test(test_fio_logs),
		cmocka_unit_test(test_fio_logs_like_fio),
		cmocka_unit_test(test_fio_logs_many_jobs),
		cmocka_unit_test(test_json_keys_like_fio),
		cmocka_unit_test(test_description),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_trace_events),
		cmocka_unit_test(test_trace_whole_writeback),
		cmocka_unit_test(test_writeback_starts),
		cmocka_unit_test(test_trace_dat),
		cmocka_unit_test(test_trace_dat_upper_case),
		cmocka_unit_test(test_dump_round_trip_every_scenario),
		cmocka_unit_test(test_trace_dat_selected_events),
		cmocka_unit_test(test_trace_dat_many_pages),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_list_keys),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_parse_only),
		cmocka_unit_test(test_dump_golden),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_dump_fio_file),
		cmocka_unit_test(test_run_reports),
		cmocka_unit_test(test_json_output),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_outputs_through_path),
		cmocka_unit_test(test_outputs_same_file),
		cmocka_unit_test(test_dump_parse_only),
		cmocka_unit_test(test_explain_costs),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_shipped_scenarios_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
