/* SPDX-License-Identifier: MIT */
/*
 * test-sweep.c - parameter sweeps: VALUES parsing (exact point lists and
 * error texts), [sweep] lines and --sweep options (product order,
 * replacement, error texts with file and line), point validation before
 * any run, every point equal to the scenario run alone with the point's
 * --set overrides (byte-identical JSON reports), parallel equal to serial,
 * and the sim-writeback command line (CSV, JSON Lines, --output, text).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <wbsim/wbsim.h>
#include <wbsim/error.h>
#include "workload/sweep.h"
#include "workload/run.h"
#include "report/report.h"

static char *tmpdir;

static int setup(void **state)
{
	(void)state;
	tmpdir = g_dir_make_tmp("wbsim-sweep-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	g_autoptr(GDir) d = g_dir_open(tmpdir, 0, NULL);
	const char *name;

	(void)state;
	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(tmpdir, name, NULL);

		g_unlink(p);
	}
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return 0;
}

/* Write @text to @name in the temporary directory; return its path. */
static char *put(const char *name, const char *text)
{
	char *path = g_build_filename(tmpdir, name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static char *source_path(const char *rel)
{
	const char *root = g_getenv("WBSIM_SOURCE_ROOT");

	assert_non_null(root);
	return g_build_filename(root, rel, NULL);
}

/* ------------------------------------------------------------------------ */
/* VALUES                                                                   */

/* @text expands to exactly the values of @want (NULL-terminated, joined by '|'). */
static void assert_values(const char *text, gboolean ranges, const char *want)
{
	g_autoptr(GPtrArray) v = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) e = NULL;
	g_autofree char *got = NULL;

	if (!wbsim_sweep_parse_values(text, ranges, v, &e))
		fail_msg("'%s': %s", text, e->message);
	g_ptr_array_add(v, NULL);
	got = g_strjoinv("|", (char **)v->pdata);
	assert_string_equal(got, want);
}

static void assert_values_fail(const char *text, const char *message)
{
	g_autoptr(GPtrArray) v = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) e = NULL;

	assert_false(wbsim_sweep_parse_values(text, TRUE, v, &e));
	assert_non_null(e);
	assert_int_equal(e->code, WBSIM_ERROR_INVALID_VALUE);
	assert_string_equal(e->message, message);
}

static void test_values(void **state)
{
	(void)state;
	assert_values("1..12", TRUE, "1|2|3|4|5|6|7|8|9|10|11|12");
	assert_values("1..12:2", TRUE, "1|3|5|7|9|11");
	assert_values("0..10:5", TRUE, "0|5|10");
	assert_values("7..7", TRUE, "7");
	assert_values("1,2,4,8", TRUE, "1|2|4|8");
	assert_values("xfs,ext4", TRUE, "xfs|ext4");
	assert_values(" 1 , 2 ", TRUE, "1|2");
	assert_values("1..3,8,cpus", TRUE, "1|2|3|8|cpus");
	assert_values("64m,1g", TRUE, "64m|1g");
	/* text and file-name keys: ".." is part of the value */
	assert_values("../a.fio,b.fio", FALSE, "../a.fio|b.fio");
	assert_values("1..3", FALSE, "1..3");
}

static void test_value_errors(void **state)
{
	(void)state;
	assert_values_fail("5..1", "range 5..1 is empty: expected FIRST <= LAST");
	assert_values_fail("1..",
		"range 1.. has no LAST: expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers");
	assert_values_fail("..3",
		"range ..3 has no FIRST: expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers");
	assert_values_fail("1..5:",
		"range 1..5: has no STEP: expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers");
	assert_values_fail("a..c",
		"range a..c: 'a' is not an integer: expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers");
	assert_values_fail("1..4k",
		"range 1..4k: '4k' is not an integer: expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers");
	assert_values_fail("-1..3",
		"range -1..3: '-1' is not an integer: expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers");
	assert_values_fail("1..5:0", "range 1..5:0: step 0: expected a STEP of at least 1");
	assert_values_fail("0..20000",
		"range 0..20000 has 20001 values: expected at most 10000 points in a sweep");
	assert_values_fail("",
		"no values: expected a range FIRST..LAST[:STEP] or a list V1,V2,...");
	assert_values_fail("1,,2",
		"empty value in the list: expected V1,V2,... with no empty item");
}

/* ------------------------------------------------------------------------ */
/* [sweep] lines, --sweep, the product                                      */

/* The points' labels, joined by '|'. */
static char *labels(const struct wbsim_sweep *sw)
{
	GString *s = g_string_new(NULL);

	for (size_t p = 0; p < wbsim_sweep_n_points(sw); p++) {
		g_autofree char *l = wbsim_sweep_label(sw, p);

		g_string_append_printf(s, "%s%s", p ? "|" : "", l);
	}
	return g_string_free(s, FALSE);
}

static const char small_text[] =
	"[machine]\ncpus = 2\nmemory = 1g\n"
	"[fio:a]\nrw=write\nbs=64k\nsize=16m\n";

static struct wbsim_sweep *load_sweep(const char *name, const char *text,
				      char **path_out)
{
	g_autofree char *path = put(name, text);
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load(path, NULL, &e);
	struct wbsim_sweep *sw;

	if (!scn)
		fail_msg("%s", e->message);
	sw = wbsim_sweep_new(wbsim_scenario_config(scn), &e);
	wbsim_scenario_free(scn);
	if (!sw)
		fail_msg("%s", e->message);
	if (path_out)
		*path_out = g_steal_pointer(&path);
	return sw;
}

static void test_product(void **state)
{
	g_autofree char *text = g_strconcat(small_text,
		"[sweep]\nwriteback.contexts = 1..3\nvm.dirty_ratio = 10,20\n", NULL);
	struct wbsim_sweep *sw = load_sweep("product.ini", text, NULL);
	g_autoptr(GError) e = NULL;
	g_autofree char *l1 = NULL, *l2 = NULL, *l3 = NULL;

	(void)state;
	assert_int_equal(wbsim_sweep_n_axes(sw), 2);
	assert_int_equal(wbsim_sweep_n_points(sw), 6);
	/* the first key varies slowest */
	l1 = labels(sw);
	assert_string_equal(l1,
		"writeback.contexts=1 vm.dirty_ratio=10|writeback.contexts=1 vm.dirty_ratio=20|"
		"writeback.contexts=2 vm.dirty_ratio=10|writeback.contexts=2 vm.dirty_ratio=20|"
		"writeback.contexts=3 vm.dirty_ratio=10|writeback.contexts=3 vm.dirty_ratio=20");
	assert_string_equal(wbsim_sweep_value(sw, 5, 0), "3");
	assert_string_equal(wbsim_sweep_value(sw, 5, 1), "20");

	/* --sweep of a swept key replaces it where it stood */
	assert_true(wbsim_sweep_add_option(sw, "writeback.contexts=4,cpus", &e));
	l2 = labels(sw);
	assert_string_equal(l2,
		"writeback.contexts=4 vm.dirty_ratio=10|writeback.contexts=4 vm.dirty_ratio=20|"
		"writeback.contexts=cpus vm.dirty_ratio=10|writeback.contexts=cpus vm.dirty_ratio=20");
	/* a new key is the last axis (fastest) */
	assert_true(wbsim_sweep_add_option(sw, " filesystem.agcount = 2..4:2 ", &e));
	assert_int_equal(wbsim_sweep_n_points(sw), 8);
	l3 = wbsim_sweep_label(sw, 1);
	assert_string_equal(l3, "writeback.contexts=4 vm.dirty_ratio=10 filesystem.agcount=4");

	/* the product is bounded */
	assert_false(wbsim_sweep_add_option(sw, "run.seed=1..2000", &e));
	assert_string_equal(e->message,
		"--sweep: the sweep has more than 10000 points: expected at most 10000");
	wbsim_sweep_free(sw);
}

/* A later file's sweep of a key replaces the included file's, in place. */
static void test_include_order(void **state)
{
	g_autofree char *inc = put("base-sweep.inc",
		"[sweep]\nvm.dirty_ratio = 10,20\nwriteback.contexts = 1,2\n");
	g_autofree char *text = g_strconcat("[scenario]\ninclude = base-sweep.inc\n",
					    small_text, "[sweep]\nvm.dirty_ratio = 5\n", NULL);
	struct wbsim_sweep *sw = load_sweep("include-sweep.ini", text, NULL);
	g_autofree char *l = labels(sw);

	(void)state;
	(void)inc;
	assert_string_equal(l, "vm.dirty_ratio=5 writeback.contexts=1|vm.dirty_ratio=5 writeback.contexts=2");
	wbsim_sweep_free(sw);
}

/* @sweep_lines after the small scenario fails to load with @message. */
static void assert_line_fails(const char *sweep_lines, const char *message)
{
	g_autofree char *text = g_strconcat(small_text, "[sweep]\n", sweep_lines, NULL);
	g_autofree char *path = put("bad-sweep.ini", text);
	g_autofree char *want = g_strdup_printf(message, path);
	g_autoptr(GError) e = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load(path, NULL, &e);

	assert_null(scn);
	assert_non_null(e);
	assert_string_equal(e->message, want);
}

static void test_line_errors(void **state)
{
	(void)state;
	/* small_text has 7 lines, [sweep] is line 8 */
	assert_line_fails("writeback.contxts = 1..2\n",
		"%s:9: [sweep] writeback.contxts = 1..2: unknown key (did you mean writeback.contexts?)");
	assert_line_fails("writeback.contexts = 5..1\n",
		"%s:9: [sweep] writeback.contexts = 5..1: range 5..1 is empty: expected FIRST <= LAST");
	assert_line_fails("writeback.contexts = 1..\n",
		"%s:9: [sweep] writeback.contexts = 1..: range 1.. has no LAST: expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers");
	assert_line_fails("machine.cpus = a..d\n",
		"%s:9: [sweep] machine.cpus = a..d: range a..d: 'a' is not an integer: expected FIRST..LAST or FIRST..LAST:STEP with non-negative integers");
	assert_line_fails("vm.dirty_ratio = 10\nvm.dirty_ratio = 20\n",
		"%s:10: [sweep] vm.dirty_ratio = 20: duplicate key (first set at line 9)");
	assert_line_fails("contexts = 1,2\n",
		"%s:9: [sweep] contexts = 1,2: expected a key SECTION.KEY (e.g. writeback.contexts)");
	assert_line_fails("writebak.contexts = 1,2\n",
		"%s:9: [sweep] writebak.contexts = 1,2: unknown section [writebak] (did you mean [writeback]?)");
	assert_line_fails("scenario.include = a.ini,b.ini\n",
		"%s:9: [sweep] scenario.include = a.ini,b.ini: [scenario] include cannot be swept: expected a key that holds one value");
	assert_line_fails("events.at = 1s sync\n",
		"%s:9: [sweep] events.at = 1s sync: [events] at cannot be swept: expected a key that holds one value");
	assert_line_fails("writeback.contexts\n",
		"%s:9: [sweep] writeback.contexts: no value: expected 'SECTION.KEY = VALUES' (a range FIRST..LAST[:STEP] or a list V1,V2,...)");
}

static void test_option_errors(void **state)
{
	struct wbsim_sweep *sw = load_sweep("plain.ini", small_text, NULL);
	g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL;

	(void)state;
	assert_int_equal(wbsim_sweep_n_axes(sw), 0);
	assert_int_equal(wbsim_sweep_n_points(sw), 1);
	assert_false(wbsim_sweep_add_option(sw, "writeback.contexts", &e1));
	assert_string_equal(e1->message, "--sweep: 'writeback.contexts': expected SECTION.KEY=VALUES");
	assert_false(wbsim_sweep_add_option(sw, "writeback.contexts=3..2", &e2));
	assert_string_equal(e2->message,
		"--sweep: writeback.contexts = 3..2: range 3..2 is empty: expected FIRST <= LAST");
	assert_false(wbsim_sweep_add_option(sw, "machine.cpu=1,2", &e3));
	assert_string_equal(e3->message,
		"--sweep: machine.cpu = 1,2: unknown key (did you mean machine.cpus?)");
	assert_int_equal(wbsim_sweep_n_axes(sw), 0);
	wbsim_sweep_free(sw);
}

/* Every point is checked with the normal parsers before anything runs. */
static void test_point_validation(void **state)
{
	g_autofree char *text = g_strconcat(small_text,
		"[sweep]\nvm.dirty_ratio = 10,20\nwriteback.contexts = 2,0\n", NULL);
	g_autofree char *path = NULL;
	struct wbsim_sweep *sw = load_sweep("points.ini", text, &path);
	g_autoptr(GError) e = NULL, e2 = NULL, e3 = NULL;
	g_autofree char *want = NULL, *want3 = NULL;

	(void)state;
	assert_false(wbsim_sweep_check(sw, path, NULL, NULL, &e));
	want = g_strdup_printf("sweep point 2/4 (vm.dirty_ratio=10 writeback.contexts=0): %s:10: [writeback] contexts = 0: expected an integer from 1 to 4096, or one of: cpus, auto",
			       path);
	assert_string_equal(e->message, want);

	/* the same value from --sweep */
	assert_true(wbsim_sweep_add_option(sw, "writeback.contexts=1,cpus,auto", NULL));
	assert_true(wbsim_sweep_add_option(sw, "writeback.affinity=inode,1", NULL));
	assert_false(wbsim_sweep_check(sw, path, NULL, NULL, &e2));
	assert_non_null(strstr(e2->message,
		"sweep point 2/12 (vm.dirty_ratio=10 writeback.contexts=1 writeback.affinity=1): --sweep: [writeback] affinity = 1: expected "));

	/* a filesystem parameter is checked by the filesystem layer */
	wbsim_sweep_free(sw);
	g_free(text);
	text = g_strconcat(small_text, "[filesystem]\ntype = xfs\n[sweep]\nfilesystem.agcount = 4,0\n", NULL);
	g_free(path);
	path = NULL;
	sw = load_sweep("points-fs.ini", text, &path);
	assert_false(wbsim_sweep_check(sw, path, NULL, NULL, &e3));
	want3 = g_strdup_printf("sweep point 2/2 (filesystem.agcount=0): %s:11: ", path);
	assert_true(g_str_has_prefix(e3->message, want3));
	assert_non_null(strstr(e3->message, "agcount"));
	wbsim_sweep_free(sw);
}

/* ------------------------------------------------------------------------ */
/* Runs                                                                     */

/* JSON report of @scn, without wall time. */
static char *run_json(const struct wbsim_scenario *scn)
{
	struct wbsim_run_options opts = { .name = "small.ini" };
	g_autoptr(GError) e = NULL;
	struct wbsim_run_result *r = wbsim_run_scenario(scn, &opts, &e);
	char *json;

	if (!r)
		fail_msg("%s", e->message);
	json = wbsim_report_json(r, FALSE);
	wbsim_run_result_free(r);
	return json;
}

/* Each point's report equals the scenario run alone with --set. */
static void test_points_equal_single_runs(void **state)
{
	g_autofree char *path = source_path("tests/sweep/data/small.ini");
	struct wbsim_sweep *sw = load_sweep("unused.ini", small_text, NULL);
	g_autofree char *first = NULL;
	gboolean differ = FALSE;

	(void)state;
	assert_true(wbsim_sweep_add_option(sw, "writeback.contexts=1,2", NULL));
	assert_true(wbsim_sweep_add_option(sw, "vm.dirty_ratio=10,30", NULL));
	assert_int_equal(wbsim_sweep_n_points(sw), 4);
	assert_true(wbsim_sweep_check(sw, path, NULL, NULL, NULL));
	for (size_t p = 0; p < 4; p++) {
		g_autoptr(GError) e = NULL;
		g_autofree char *ctx = g_strdup_printf("writeback.contexts=%s",
						       wbsim_sweep_value(sw, p, 0));
		g_autofree char *ratio = g_strdup_printf("vm.dirty_ratio=%s",
							 wbsim_sweep_value(sw, p, 1));
		const char *sets[] = { ctx, ratio, NULL };
		struct wbsim_scenario *alone = wbsim_scenario_load(path, sets, &e);
		struct wbsim_scenario *point = wbsim_sweep_load_point(sw, p, path, NULL, &e);
		g_autofree char *a = NULL, *b = NULL;

		assert_non_null(alone);
		assert_non_null(point);
		assert_int_equal(wbsim_scenario_config(point)->wb_contexts, p < 2 ? 1 : 2);
		assert_int_equal(wbsim_scenario_config(point)->dirty_ratio, p % 2 ? 30 : 10);
		a = run_json(alone);
		b = run_json(point);
		assert_string_equal(a, b);
		if (!first)
			first = g_strdup(a);
		else
			differ |= strcmp(first, a) != 0;
		wbsim_scenario_free(alone);
		wbsim_scenario_free(point);
	}
	/* the swept keys change the runs */
	assert_true(differ);
	wbsim_sweep_free(sw);
}

static char *format_json(const struct wbsim_sweep *sw, size_t point,
			 const struct wbsim_run_result *r, void *arg)
{
	(void)arg;
	return wbsim_sweep_json_line(sw, point, r, FALSE);
}

static char *format_csv(const struct wbsim_sweep *sw, size_t point,
			const struct wbsim_run_result *r, void *arg)
{
	return wbsim_sweep_csv_row(sw, point, r, arg);
}

/* Appends each point's text and checks they come in point order. */
struct collect {
	GString *out;
	size_t next;
};

static gboolean collect_emit(size_t point, const char *text, void *arg,
			     GError **error)
{
	struct collect *c = arg;

	(void)error;
	assert_int_equal(point, c->next);
	c->next++;
	g_string_append(c->out, text);
	return TRUE;
}

static char *run_sweep(const struct wbsim_sweep *sw, const char *path,
		       unsigned int jobs, wbsim_sweep_format_fn format, void *arg)
{
	struct wbsim_run_options opts = { .name = "small.ini" };
	struct collect c = { g_string_new(NULL), 0 };
	g_autoptr(GError) e = NULL;

	if (!wbsim_sweep_run(sw, path, NULL, &opts, jobs, format, arg,
			     collect_emit, &c, &e))
		fail_msg("%s", e->message);
	assert_int_equal(c.next, wbsim_sweep_n_points(sw));
	return g_string_free(c.out, FALSE);
}

/* Threads give the bytes one thread gives. */
static void test_parallel_equals_serial(void **state)
{
	g_autofree char *path = source_path("tests/sweep/data/small.ini");
	struct wbsim_sweep *sw = load_sweep("unused.ini", small_text, NULL);
	g_autoptr(GArray) groups = NULL;
	g_autofree char *j1 = NULL, *j2 = NULL, *j3 = NULL, *c1 = NULL, *c2 = NULL;
	g_auto(GStrv) rows = NULL;

	(void)state;
	assert_true(wbsim_sweep_add_option(sw, "writeback.contexts=1,2", NULL));
	assert_true(wbsim_sweep_add_option(sw, "vm.dirty_background_ratio=5,10", NULL));
	assert_true(wbsim_sweep_check(sw, path, NULL, &groups, NULL));
	assert_int_equal(groups->len, 1);
	j1 = run_sweep(sw, path, 1, format_json, NULL);
	j2 = run_sweep(sw, path, 2, format_json, NULL);
	j3 = run_sweep(sw, path, 3, format_json, NULL);
	assert_string_equal(j1, j2);
	assert_string_equal(j1, j3);
	c1 = run_sweep(sw, path, 1, format_csv, groups);
	c2 = run_sweep(sw, path, 2, format_csv, groups);
	assert_string_equal(c1, c2);
	rows = g_strsplit(c1, "\n", -1);
	assert_int_equal(g_strv_length(rows), 5);	/* 4 rows and the final "" */
	assert_true(g_str_has_prefix(rows[0], "1,5,"));
	assert_true(g_str_has_prefix(rows[3], "2,10,"));
	wbsim_sweep_free(sw);
}

/* ------------------------------------------------------------------------ */
/* The program                                                              */

struct prog {
	int status;
	char *out;
	char *err;
};

static struct prog prog_run(const char *arg, ...)
{
	const char *build = g_getenv("WBSIM_BUILD_ROOT");
	g_autofree char *program = NULL;
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) e = NULL;
	struct prog r = { 0 };
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
	if (!g_spawn_sync(g_getenv("WBSIM_SOURCE_ROOT"), (char **)argv->pdata, NULL,
			  0, NULL, NULL, &r.out, &r.err, &wait_status, &e))
		fail_msg("spawn: %s", e->message);
	assert_true(WIFEXITED(wait_status));
	r.status = WEXITSTATUS(wait_status);
	return r;
}

static void prog_clear(struct prog *r)
{
	g_free(r->out);
	g_free(r->err);
}

/* Compact JSON of @text's root (or of its member @member). */
static char *compact(const char *text, const char *member)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonNode *node;

	if (!json_parser_load_from_data(parser, text, -1, NULL))
		fail_msg("not JSON: %.80s", text);
	node = json_parser_get_root(parser);
	if (member)
		node = json_object_get_member(json_node_get_object(node), member);
	assert_non_null(node);
	return json_to_string(node, FALSE);
}

/*
 * sim-writeback --sweep, JSON Lines at --jobs 2 into --output: each
 * line's report is the scenario run alone with the point's --set.
 */
static void test_program_json(void **state)
{
	g_autofree char *out = g_build_filename(tmpdir, "points.jsonl", NULL);
	g_autofree char *lines_text = NULL;
	g_auto(GStrv) lines = NULL;
	struct prog r;

	(void)state;
	r = prog_run("--no-wall-time", "--output-format=json", "--jobs", "2",
		     "--output", out, "--sweep", "writeback.contexts=1..2",
		     "--sweep", "vm.dirty_ratio=10,30", "tests/sweep/data/small.ini",
		     NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	prog_clear(&r);
	assert_true(g_file_get_contents(out, &lines_text, NULL, NULL));
	lines = g_strsplit(lines_text, "\n", -1);
	assert_int_equal(g_strv_length(lines), 5);
	assert_string_equal(lines[4], "");
	for (int p = 0; p < 4; p++) {
		g_autofree char *ctx = g_strdup_printf("writeback.contexts=%d", p / 2 + 1);
		g_autofree char *ratio = g_strdup_printf("vm.dirty_ratio=%d", p % 2 ? 30 : 10);
		g_autofree char *head = g_strdup_printf(
			"{\"sweep_point\":%d,\"sweep\":{\"writeback.contexts\":%d,\"vm.dirty_ratio\":%d},\"report\":{",
			p + 1, p / 2 + 1, p % 2 ? 30 : 10);
		g_autofree char *want = NULL, *got = NULL;
		struct prog alone = prog_run("--no-wall-time", "--output-format=json",
					     "--set", ctx, "--set", ratio,
					     "tests/sweep/data/small.ini", NULL);

		assert_true(g_str_has_prefix(lines[p], head));
		assert_int_equal(alone.status, 0);
		want = compact(alone.out, NULL);
		got = compact(lines[p], "report");
		assert_string_equal(got, want);
		prog_clear(&alone);
	}
}

/* A [sweep] section gives the points --sweep gives. */
static void test_program_section(void **state)
{
	g_autofree char *small = source_path("tests/sweep/data/small.ini");
	g_autofree char *text = g_strdup_printf(
		"[scenario]\ninclude = %s\n[writeback]\ncontexts = 7\n"
		"[sweep]\nwriteback.contexts = 1..2\nvm.dirty_ratio = 30\n", small);
	g_autofree char *scn = put("section.ini", text);
	struct prog a = prog_run("--no-wall-time", "--sweep", "vm.dirty_ratio=10,30",
				 scn, NULL);
	struct prog b = prog_run("--no-wall-time", "--sweep", "writeback.contexts=1,2",
				 "--sweep", "vm.dirty_ratio=10,30",
				 "tests/sweep/data/small.ini", NULL);

	(void)state;
	assert_int_equal(a.status, 0);
	assert_int_equal(b.status, 0);
	assert_true(g_str_has_prefix(a.out, "writeback.contexts,vm.dirty_ratio,"));
	assert_string_equal(a.out, b.out);
	prog_clear(&a);
	prog_clear(&b);
}

/* CSV by default for a sweep; --jobs 1 and 2 print the same bytes. */
static void test_program_csv(void **state)
{
	struct prog a = prog_run("--no-wall-time", "--jobs", "1",
				 "--sweep", "writeback.contexts=1,2",
				 "--sweep", "vm.dirty_ratio=10,30",
				 "tests/sweep/data/small.ini", NULL);
	struct prog b = prog_run("--no-wall-time", "--jobs", "2",
				 "--sweep", "writeback.contexts=1,2",
				 "--sweep", "vm.dirty_ratio=10,30",
				 "tests/sweep/data/small.ini", NULL);
	g_auto(GStrv) rows = NULL;

	(void)state;
	assert_int_equal(a.status, 0);
	assert_int_equal(b.status, 0);
	assert_string_equal(a.out, b.out);
	rows = g_strsplit(a.out, "\n", -1);
	assert_int_equal(g_strv_length(rows), 6);
	assert_string_equal(rows[0],
		"writeback.contexts,vm.dirty_ratio,write_bw_mib_s,pauses,max_pause_ms,"
		"pages_by_flushers,pages_by_tasks,device_util_pct,filefrag_extents,sim_time_s");
	for (int i = 1; i <= 4; i++) {
		g_auto(GStrv) f = g_strsplit(rows[i], ",", -1);
		double bw = g_ascii_strtod(f[2], NULL);

		assert_int_equal(g_strv_length(f), 10);
		/* the 1 GB/s ideal device bounds the writers once the cache is full */
		assert_true(bw > 500.0 && bw < 1500.0);
		assert_string_equal(f[9], "1.000000");	/* [run] time_limit = 1s */
		assert_string_equal(f[8], "2");		/* one extent per file */
	}
	prog_clear(&a);
	prog_clear(&b);
}

/* Text: one report per point after its header line; bad sweeps exit 2. */
static void test_program_text_and_errors(void **state)
{
	struct prog t = prog_run("--no-wall-time", "--output-format=text",
				 "--sweep", "writeback.contexts=1,2",
				 "tests/sweep/data/small.ini", NULL);
	struct prog bad = prog_run("--sweep", "writeback.contexts=0,1",
				   "tests/sweep/data/small.ini", NULL);
	struct prog series = prog_run("--sweep", "writeback.contexts=1,2", "--series",
				      "x.csv", "tests/sweep/data/small.ini", NULL);
	struct prog csv1 = prog_run("--no-wall-time", "--output-format=csv",
				    "tests/sweep/data/small.ini", NULL);
	const char *p1, *p2;

	(void)state;
	assert_int_equal(t.status, 0);
	assert_true(g_str_has_prefix(t.out, "# sweep point 1/2: writeback.contexts=1\n"));
	p1 = strstr(t.out, "a: (groupid=0");
	p2 = strstr(t.out, "\n\n# sweep point 2/2: writeback.contexts=2\na: (groupid=0");
	assert_non_null(p1);
	assert_non_null(p2);
	assert_true(p1 < p2);

	assert_int_equal(bad.status, 2);
	assert_string_equal(bad.out, "");	/* nothing ran */
	assert_string_equal(bad.err,
		"sim-writeback: sweep point 1/2 (writeback.contexts=0): --sweep: [writeback] contexts = 0: expected an integer from 1 to 4096, or one of: cpus, auto\n");
	assert_int_equal(series.status, 2);
	assert_string_equal(series.err,
		"sim-writeback: --series: one file per run: not with a sweep (run a point alone with --set)\n");
	/* one run as CSV: the header without swept columns and one row */
	assert_int_equal(csv1.status, 0);
	assert_true(g_str_has_prefix(csv1.out, "write_bw_mib_s,pauses,"));
	assert_int_equal(strlen(strchr(csv1.out, '\n') + 1) > 0, 1);
	prog_clear(&t);
	prog_clear(&bad);
	prog_clear(&series);
	prog_clear(&csv1);
}

/* --dump-config keeps the [sweep] section, and the dump loads back. */
static void test_dump(void **state)
{
	g_autofree char *small = source_path("tests/sweep/data/small.ini");
	g_autofree char *text = g_strdup_printf(
		"[scenario]\ninclude = %s\n[sweep]\nwriteback.contexts = 1..12\nfilesystem.block_size = 4k\n",
		small);
	g_autofree char *scn = put("dump.ini", text);
	g_autofree char *dump_path = NULL;
	struct prog d = prog_run("--dump-config", scn, NULL);
	struct prog d2;

	(void)state;
	assert_int_equal(d.status, 0);
	assert_non_null(strstr(d.out, "\n[sweep]\nwriteback.contexts = 1..12\nfilesystem.block_size = 4k\n"));
	dump_path = put("dumped.ini", d.out);
	d2 = prog_run("--dump-config", dump_path, NULL);
	assert_int_equal(d2.status, 0);
	assert_string_equal(d.out, d2.out);
	prog_clear(&d);
	prog_clear(&d2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_product),
		cmocka_unit_test(test_include_order),
		cmocka_unit_test(test_line_errors),
		cmocka_unit_test(test_option_errors),
		cmocka_unit_test(test_point_validation),
		cmocka_unit_test(test_points_equal_single_runs),
		cmocka_unit_test(test_parallel_equals_serial),
		cmocka_unit_test(test_program_json),
		cmocka_unit_test(test_program_section),
		cmocka_unit_test(test_program_csv),
		cmocka_unit_test(test_program_text_and_errors),
		cmocka_unit_test(test_dump),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
