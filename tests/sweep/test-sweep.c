/* SPDX-License-Identifier: MIT */
/*
 * test-sweep.c - parameter sweeps: VALUES parsing (exact point lists and
 * error texts), [sweep] lines and --sweep options (product order,
 * replacement, error texts with file and line), point validation before
 * any run, every point equal to the scenario run alone with the point's
 * --set overrides (byte-identical JSON reports), parallel equal to serial,
 * and the sim-writeback command line (CSV, JSON Lines, --output, text);
 * Student's t quantiles against table values, mean / sd / 95% CI of fixed
 * samples, the --repeat seeds and figures against separate runs, and
 * --results: a sweep cut short (or killed) and resumed writes what an
 * uninterrupted sweep writes, and a file of another sweep is refused.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <wbsim/wbsim.h>
#include <wbsim/error.h>
#include "run/sweep.h"
#include "run/sweep-stats.h"
#include "run/run.h"
#include "report/report.h"
#include "sweep-prog.h"

static char *tmpdir;

static int setup(void **state)
{
	(void)state;
	tmpdir = g_dir_make_tmp("wbsim-sweep-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	tmpdir_remove(tmpdir);
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
	/* but a key an item swept already is refused, not replaced (issue 39);
	 * the library names its parameter, not sim-writeback's --sweep */
	assert_false(wbsim_sweep_add_option(sw, "writeback.contexts=1", &e));
	assert_string_equal(e->message,
		"wbsim_sweep_opts.sweeps: writeback.contexts = 1: writeback.contexts is swept already "
		"(wbsim_sweep_opts.sweeps writeback.contexts=4,cpus): expected each key once (all "
		"its values in one wbsim_sweep_opts.sweeps item)");
	g_clear_error(&e);
	assert_int_equal(wbsim_sweep_n_points(sw), 8);

	/* the product is bounded */
	assert_false(wbsim_sweep_add_option(sw, "run.seed=1..2000", &e));
	assert_string_equal(e->message,
		"wbsim_sweep_opts.sweeps: the sweep has more than 10000 points: expected at most 10000");
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
	assert_string_equal(e1->message, "wbsim_sweep_opts.sweeps: 'writeback.contexts': expected SECTION.KEY=VALUES");
	assert_false(wbsim_sweep_add_option(sw, "writeback.contexts=3..2", &e2));
	assert_string_equal(e2->message,
		"wbsim_sweep_opts.sweeps: writeback.contexts = 3..2: range 3..2 is empty: expected FIRST <= LAST");
	assert_false(wbsim_sweep_add_option(sw, "machine.cpu=1,2", &e3));
	assert_string_equal(e3->message,
		"wbsim_sweep_opts.sweeps: machine.cpu = 1,2: unknown key (did you mean machine.cpus?)");
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

	/* the same value from an item of wbsim_sweep_opts.sweeps */
	assert_true(wbsim_sweep_add_option(sw, "writeback.contexts=1,cpus,auto", NULL));
	assert_true(wbsim_sweep_add_option(sw, "writeback.affinity=inode,1", NULL));
	assert_false(wbsim_sweep_check(sw, path, NULL, NULL, &e2));
	assert_non_null(strstr(e2->message,
		"sweep point 2/12 (vm.dirty_ratio=10 writeback.contexts=1 writeback.affinity=1): wbsim_sweep_opts.sweeps: [writeback] affinity = 1: expected "));

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
		assert_int_equal(wbsim_scenario_config(point)->knobs.wb_contexts, p < 2 ? 1 : 2);
		assert_int_equal(wbsim_scenario_config(point)->knobs.dirty_ratio, p % 2 ? 30 : 10);
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

/* Run sim-writeback with the arguments (NULL-terminated). */
static struct prog prog_run(const char *arg, ...)
{
	struct prog r;
	va_list ap;

	va_start(ap, arg);
	r = prog_run_valist(g_getenv("WBSIM_SOURCE_ROOT"), arg, ap);
	va_end(ap);
	return r;
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
	p2 = strstr(t.out, "\n\n# sweep point 2/2: writeback.contexts=2\na: (g=0): rw=");
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

/* A scenario file @name: small.ini with a [sweep] of two lines. */
static char *put_swept_small(const char *name)
{
	g_autofree char *small = source_path("tests/sweep/data/small.ini");
	g_autofree char *text = g_strdup_printf(
		"[scenario]\ninclude = %s\n[sweep]\nwriteback.contexts = 1..12\nfilesystem.block_size = 4k\n",
		small);

	return put(name, text);
}

/* --dump-config keeps the [sweep] section, and the dump loads back. */
static void test_dump(void **state)
{
	g_autofree char *scn = put_swept_small("dump.ini");
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

/*
 * --dump-config prints the sweep the run makes: a --sweep option replaces
 * the scenario's line of its key where it stood, or comes after them.
 */
static void test_dump_sweep_option(void **state)
{
	g_autofree char *small = source_path("tests/sweep/data/small.ini");
	g_autofree char *scn = put_swept_small("dump-sweep.ini");
	struct prog d = prog_run("--dump-config", "--sweep", "writeback.contexts=3,5", "--sweep",
				 "vm.dirty_ratio=10..20:10", scn, NULL);
	struct prog none = prog_run("--dump-config", "--sweep", "writeback.contexts=2..3", small,
				    NULL);

	(void)state;
	assert_int_equal(d.status, 0);
	assert_non_null(strstr(d.out, "\n[sweep]\nwriteback.contexts = 3,5\nfilesystem.block_size = 4k\n"
				      "vm.dirty_ratio = 10..20:10\n"));
	assert_null(strstr(d.out, "1..12"));
	/* a scenario without [sweep] gets one */
	assert_int_equal(none.status, 0);
	assert_non_null(strstr(none.out, "\n[sweep]\nwriteback.contexts = 2..3\n"));
	prog_clear(&d);
	prog_clear(&none);
}

/* ------------------------------------------------------------------------ */
/* --repeat: seeds and statistics                                           */

/* Student's t, two-sided 95% (p = 0.975), against the printed tables. */
static void test_t_quantiles(void **state)
{
	static const struct { double df, t; } table[] = {
		{ 1, 12.706205 }, { 2, 4.302653 }, { 4, 2.776445 },
		{ 9, 2.262157 }, { 29, 2.045230 },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(table); i++) {
		double t = wbsim_student_t_quantile(0.975, table[i].df);

		if (fabs(t - table[i].t) > 1e-6)
			fail_msg("df %g: t %.8f, expected %.6f", table[i].df, t, table[i].t);
	}
	/* df = 1 is the Cauchy distribution: t = tan(pi (p - 1/2)), to the
	 * last bits of a double (the hand-written quantile was 2.3e-12 off) */
	assert_true(fabs(wbsim_student_t_quantile(0.975, 1) - tan(M_PI * 0.475)) < 1e-13);
	/* df = 2 has a closed form too: t = (2p - 1) sqrt(2 / (1 - (2p - 1)^2)) */
	assert_true(fabs(wbsim_student_t_quantile(0.975, 2) - 0.95 * sqrt(2 / (1 - 0.95 * 0.95))) < 1e-13);
	/* large df: the normal quantile 1.959964 */
	assert_true(fabs(wbsim_student_t_quantile(0.975, 1e7) - 1.959964) < 1e-6);
	/* other probabilities: t(0.95, 9) = 1.833113 (one-sided 95%) */
	assert_true(fabs(wbsim_student_t_quantile(0.95, 9) - 1.833113) < 1e-6);
}

/* Mean, sample standard deviation and CI half-width of fixed samples. */
static void test_stats(void **state)
{
	const double a[] = { 10, 12, 14 };
	const double b[] = { 1, 2, 3, 4, 5 };
	const double c[] = { 7, 7, 7, 7 };
	struct wbsim_stats s;

	(void)state;
	/* sd = 2 exactly; half-width t(2) * 2 / sqrt(3) */
	wbsim_stats_compute(a, 3, &s);
	assert_true(fabs(s.mean - 12.0) < 1e-12);
	assert_true(fabs(s.sd - 2.0) < 1e-12);
	assert_true(fabs(s.ci95 - 4.302653 * 2.0 / sqrt(3.0)) < 1e-5);
	assert_true(fabs(s.ci95 - 4.968275) < 1e-5);
	/* sd = sqrt(2.5); half-width t(4) * sqrt(2.5) / sqrt(5) = t(4) / sqrt(2) */
	wbsim_stats_compute(b, 5, &s);
	assert_true(fabs(s.mean - 3.0) < 1e-12);
	assert_true(fabs(s.sd - sqrt(2.5)) < 1e-12);
	assert_true(fabs(s.ci95 - 1.963243) < 1e-5);
	/* no spread, no interval */
	wbsim_stats_compute(c, 4, &s);
	assert_true(s.mean == 7.0 && s.sd == 0.0 && s.ci95 == 0.0);
}

/* The seed derivation: the point's own seed, then splitmix64(seed + k). */
static void test_seeds(void **state)
{
	(void)state;
	/* splitmix64's first output from state 0 (its reference code) */
	assert_true(wbsim_splitmix64(0) == 0xe220a8397b1dcdafULL);
	assert_true(wbsim_sweep_repeat_seed(42, 0) == 42);
	assert_true(wbsim_sweep_repeat_seed(42, 1) == wbsim_splitmix64(43));
	assert_true(wbsim_sweep_repeat_seed(42, 2) == wbsim_splitmix64(44));
	assert_true(wbsim_sweep_repeat_seed(42, 1) != wbsim_sweep_repeat_seed(43, 1));
}

/* Field @i of the one data row of a single run's CSV. */
static double csv_figure(const char *csv, guint i)
{
	g_auto(GStrv) rows = g_strsplit(csv, "\n", -1);
	g_auto(GStrv) f = NULL;

	assert_true(g_strv_length(rows) == 3);
	f = g_strsplit(rows[1], ",", -1);
	assert_true(i < g_strv_length(f));
	return g_ascii_strtod(f[i], NULL);
}

/* The worst max_lag_ns of the jobs of a JSON report, in ms, to 3 decimals. */
static double max_lag_ms(const char *json)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonObject *wbsim;
	JsonArray *jobs;
	gint64 lag = 0;
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	assert_true(json_parser_load_from_data(parser, json, -1, NULL));
	wbsim = json_object_get_object_member(json_node_get_object(json_parser_get_root(parser)),
					      "wbsim");
	jobs = json_object_get_array_member(wbsim, "jobs");
	assert_true(json_array_get_length(jobs) > 0);
	for (guint i = 0; i < json_array_get_length(jobs); i++)
		lag = MAX(lag, json_object_get_int_member(json_array_get_object_element(jobs, i),
							  "max_lag_ns"));
	return g_ascii_strtod(g_ascii_formatd(buf, sizeof(buf), "%.3f", (double)lag / 1e6), NULL);
}

static double member_double(JsonObject *o, const char *name)
{
	return json_object_get_double_member(o, name);
}

/*
 * --repeat 3: each point's seeds are the derived ones, and its figures are
 * those of the point run alone with each seed, summarised by mean, sd and
 * the Student-t half-width.
 */
static void test_program_repeat(void **state)
{
	struct prog r = prog_run("--no-wall-time", "--repeat", "3", "--output-format=json",
				 "--sweep", "writeback.contexts=1,2",
				 "tests/sweep/data/random.ini", NULL);
	struct prog csv = prog_run("--no-wall-time", "--repeat", "2",
				   "--sweep", "writeback.contexts=1",
				   "tests/sweep/data/random.ini", NULL);
	/* CSV columns of the figures of a single run (lag: from its JSON) */
	static const struct { const char *name; int column; } figs[] = {
		{ "write_bw_mib_s", 0 }, { "max_pause_ms", 2 }, { "max_lag_ms", -1 },
		{ "filefrag_extents", 6 },
	};
	g_auto(GStrv) lines = NULL;
	gboolean spread = FALSE;

	(void)state;
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	lines = g_strsplit(r.out, "\n", -1);
	assert_int_equal(g_strv_length(lines), 3);
	for (int p = 0; p < 2; p++) {
		g_autoptr(JsonParser) parser = json_parser_new();
		g_autofree char *ctx = g_strdup_printf("writeback.contexts=%d", p + 1);
		double x[G_N_ELEMENTS(figs)][3];
		JsonObject *o, *figures;
		JsonArray *seeds;

		assert_true(json_parser_load_from_data(parser, lines[p], -1, NULL));
		o = json_node_get_object(json_parser_get_root(parser));
		assert_int_equal(json_object_get_int_member(o, "sweep_point"), p + 1);
		assert_int_equal(json_object_get_int_member(o, "repeat"), 3);
		seeds = json_object_get_array_member(o, "seeds");
		assert_int_equal(json_array_get_length(seeds), 3);
		figures = json_object_get_object_member(o, "figures");
		for (guint k = 0; k < 3; k++) {
			/* [run] seed is 1 by default */
			uint64_t seed = wbsim_sweep_repeat_seed(1, k);
			g_autofree char *seed_text = g_strdup_printf("%" G_GUINT64_FORMAT, seed);
			struct prog alone, alone_json;

			assert_true((uint64_t)json_array_get_int_element(seeds, k) == seed);
			alone = prog_run("--no-wall-time", "--output-format=csv",
					 "--seed", seed_text, "--set", ctx,
					 "tests/sweep/data/random.ini", NULL);
			assert_int_equal(alone.status, 0);
			alone_json = prog_run("--no-wall-time", "--output-format=json",
					      "--seed", seed_text, "--set", ctx,
					      "tests/sweep/data/random.ini", NULL);
			assert_int_equal(alone_json.status, 0);
			for (size_t f = 0; f < G_N_ELEMENTS(figs); f++) {
				JsonObject *fo = json_object_get_object_member(figures, figs[f].name);
				JsonArray *values = json_object_get_array_member(fo, "values");

				x[f][k] = figs[f].column >= 0
					? csv_figure(alone.out, (guint)figs[f].column)
					: max_lag_ms(alone_json.out);
				/* both printed with three decimals */
				assert_true(fabs(json_array_get_double_element(values, k) - x[f][k]) < 1e-9);
			}
			prog_clear(&alone);
			prog_clear(&alone_json);
		}
		for (size_t f = 0; f < G_N_ELEMENTS(figs); f++) {
			JsonObject *fo = json_object_get_object_member(figures, figs[f].name);
			struct wbsim_stats st;

			wbsim_stats_compute(x[f], 3, &st);
			/* the program summarised unrounded values: within rounding */
			assert_true(fabs(member_double(fo, "mean") - st.mean) < 1e-3);
			assert_true(fabs(member_double(fo, "sd") - st.sd) < 2e-3);
			assert_true(fabs(member_double(fo, "ci95") - st.ci95) < 1e-2);
			assert_true(fabs(member_double(fo, "ci95") -
					 4.302653 * member_double(fo, "sd") / sqrt(3.0)) < 1e-2);
		}
		/* the seeds move random writes: the bandwidth and the lag spread */
		spread |= member_double(json_object_get_object_member(figures, "write_bw_mib_s"),
					"sd") > 0.0 &&
			  member_double(json_object_get_object_member(figures, "max_lag_ms"),
					"sd") > 0.0;
	}
	assert_true(spread);
	assert_int_equal(csv.status, 0);
	assert_true(g_str_has_prefix(csv.out,
		"writeback.contexts,repeat,write_bw_mib_s_mean,write_bw_mib_s_sd,write_bw_mib_s_ci95,"
		"max_pause_ms_mean,max_pause_ms_sd,max_pause_ms_ci95,"
		"max_lag_ms_mean,max_lag_ms_sd,max_lag_ms_ci95,"
		"filefrag_extents_mean,filefrag_extents_sd,filefrag_extents_ci95\n1,2,"));
	prog_clear(&r);
	prog_clear(&csv);
}

/* ------------------------------------------------------------------------ */
/* --results: resumable sweeps                                              */

/* sim-writeback on the random scenario's 6-point sweep, with @extra args. */
static struct prog sweep6(const char *results, const char *format,
			  const char *extra)
{
	g_autofree char *program = built_program("sim-writeback");
	g_autofree char *fmt = g_strdup_printf("--output-format=%s", format);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	g_ptr_array_add(argv, program);
	g_ptr_array_add(argv, "--no-wall-time");
	g_ptr_array_add(argv, fmt);
	g_ptr_array_add(argv, "--jobs");
	g_ptr_array_add(argv, "2");
	if (results) {
		g_ptr_array_add(argv, "--results");
		g_ptr_array_add(argv, (char *)results);
	}
	if (extra)
		g_ptr_array_add(argv, (char *)extra);
	g_ptr_array_add(argv, "--sweep");
	g_ptr_array_add(argv, "writeback.contexts=1..3");
	g_ptr_array_add(argv, "--sweep");
	g_ptr_array_add(argv, "vm.dirty_ratio=10,30");
	g_ptr_array_add(argv, "tests/sweep/data/random.ini");
	g_ptr_array_add(argv, NULL);
	return prog_spawn((const char *const *)argv->pdata);
}

/*
 * A sweep whose results file was cut in the middle of a line (a run killed
 * while writing it) resumes: the output equals an uninterrupted sweep's, and
 * the file ends with each point once.
 */
static void test_program_resume(void **state)
{
	static const char *const formats[] = { "csv", "json", "text" };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++) {
		g_autofree char *name = g_strdup_printf("resume-%s.jsonl", formats[i]);
		g_autofree char *res = g_build_filename(tmpdir, name, NULL);
		struct prog plain = sweep6(NULL, formats[i], NULL);
		struct prog full = sweep6(res, formats[i], NULL);
		struct prog resumed, again;
		g_autofree char *file_full = read_text(res);
		g_autofree char *file_resumed = NULL;

		assert_int_equal(plain.status, 0);
		assert_int_equal(full.status, 0);
		/* --results changes nothing in the output */
		assert_string_equal(full.out, plain.out);
		assert_int_equal(count_lines(file_full), 7);	/* the sweep, 6 points */
		assert_true(g_str_has_prefix(file_full, "{\"wbsim_sweep_results\":1,"));

		/* the sweep, two points, half a line */
		cut_results(res, 3);
		resumed = sweep6(res, formats[i], NULL);
		assert_int_equal(resumed.status, 0);
		assert_string_equal(resumed.err, "");
		assert_string_equal(resumed.out, plain.out);
		file_resumed = read_text(res);
		/* the half line is gone, the two points were not run again */
		assert_int_equal(count_lines(file_resumed), 7);
		assert_int_equal(strlen(file_resumed), strlen(file_full));

		/* a finished file: nothing runs, the same output */
		again = sweep6(res, formats[i], NULL);
		assert_int_equal(again.status, 0);
		assert_string_equal(again.out, plain.out);
		prog_clear(&plain);
		prog_clear(&full);
		prog_clear(&resumed);
		prog_clear(&again);
	}
}

/* A sweep killed (SIGKILL) while it runs resumes to the uninterrupted output. */
static void test_program_resume_killed(void **state)
{
	g_autofree char *res = g_build_filename(tmpdir, "killed.jsonl", NULL);
	g_autofree char *program = built_program("sim-writeback");
	const char *argv[] = {
		program, "--no-wall-time", "--jobs", "1", "--results", res,
		"--output", "/dev/null", "--sweep", "writeback.contexts=1..3",
		"--sweep", "vm.dirty_ratio=10,30", "tests/sweep/data/random.ini", NULL
	};
	struct prog plain = sweep6(NULL, "csv", NULL);
	struct prog resumed;
	g_autoptr(GError) e = NULL;
	gboolean exited = FALSE;
	GPid pid;
	int wait_status;

	(void)state;
	if (!g_spawn_async(g_getenv("WBSIM_SOURCE_ROOT"), (char **)argv, NULL,
			   G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
			   NULL, NULL, &pid, &e))
		fail_msg("spawn: %s", e->message);
	/* kill it once two points are in the file (or let it end) */
	for (;;) {
		g_autofree char *text = NULL;

		if (waitpid(pid, &wait_status, WNOHANG) == pid) {
			exited = TRUE;
			break;
		}
		if (g_file_get_contents(res, &text, NULL, NULL) && count_lines(text) >= 3)
			break;
		g_usleep(500);
	}
	if (!exited) {
		kill(pid, SIGKILL);
		assert_int_equal(waitpid(pid, &wait_status, 0), pid);
	}
	g_spawn_close_pid(pid);
	resumed = sweep6(res, "csv", NULL);
	assert_int_equal(resumed.status, 0);
	assert_string_equal(resumed.out, plain.out);
	prog_clear(&plain);
	prog_clear(&resumed);
}

/* A results file of another sweep, or not a results file, is refused. */
static void test_results_mismatch(void **state)
{
	g_autofree char *res = g_build_filename(tmpdir, "other.jsonl", NULL);
	g_autofree char *want_seed = NULL, *want_sweep = NULL, *want_line = NULL;
	g_autofree char *want_foreign = NULL, *want_format = NULL;
	g_autofree char *text = NULL, *bad = NULL;
	struct prog first = sweep6(res, "csv", NULL);
	struct prog seed = sweep6(res, "csv", "--seed=7");
	struct prog format = sweep6(res, "json", NULL);
	g_autofree char *program = built_program("sim-writeback");
	const char *argv[] = {
		program, "--results", res, "--sweep", "writeback.contexts=1,3",
		"--sweep", "vm.dirty_ratio=10,30", "tests/sweep/data/random.ini", NULL
	};
	struct prog sweep = prog_spawn(argv);
	struct prog line, foreign;

	(void)state;
	assert_int_equal(first.status, 0);
	assert_int_equal(seed.status, 2);
	assert_string_equal(seed.out, "");
	want_seed = g_strdup_printf("sim-writeback: --results %s: holds the results of another sweep: its seed is \"1\", this run's is \"7\" (give another file, or remove it to start again)\n", res);
	assert_string_equal(seed.err, want_seed);
	want_format = g_strdup_printf("sim-writeback: --results %s: holds the results of another sweep: its format is \"csv\", this run's is \"json\" (give another file, or remove it to start again)\n", res);
	assert_int_equal(format.status, 2);
	assert_string_equal(format.err, want_format);
	want_sweep = g_strdup_printf("sim-writeback: --results %s: holds the results of another sweep: its sweep is "
		"[{\"key\":\"writeback.contexts\",\"values\":[\"1\",\"2\",\"3\"]},{\"key\":\"vm.dirty_ratio\",\"values\":[\"10\",\"30\"]}], this run's is "
		"[{\"key\":\"writeback.contexts\",\"values\":[\"1\",\"3\"]},{\"key\":\"vm.dirty_ratio\",\"values\":[\"10\",\"30\"]}] (give another file, or remove it to start again)\n", res);
	assert_int_equal(sweep.status, 2);
	assert_string_equal(sweep.err, want_sweep);

	/* a damaged whole line is an error, not a point to run again */
	text = read_text(res);
	bad = g_strconcat(text, "{\"point\": 2, \"oops\": 1}\n", NULL);
	assert_true(g_file_set_contents(res, bad, -1, NULL));
	line = sweep6(res, "csv", NULL);
	assert_int_equal(line.status, 2);
	want_line = g_strdup_printf("sim-writeback: --results %s:8: not a point's result: expected {\"point\": N, \"sweep\": {...}, \"text\": \"...\"}\n", res);
	assert_string_equal(line.err, want_line);

	/* a point twice is an error, not the later one silently (issue 21) */
	{
		g_autofree char *dup = NULL, *want_dup = NULL;
		const char *l2 = strchr(text, '\n') + 1;
		const char *l3 = strchr(l2, '\n') + 1;
		unsigned int point = 0;
		struct prog twice;

		/* line 2 again: the first point to finish (--jobs 2: any) */
		assert_int_equal(sscanf(l2, "{\"point\":%u", &point), 1);
		dup = g_strdup_printf("%s%.*s", text, (int)(l3 - l2), l2);
		assert_true(g_file_set_contents(res, dup, -1, NULL));
		twice = sweep6(res, "csv", NULL);
		assert_int_equal(twice.status, 2);
		want_dup = g_strdup_printf("sim-writeback: --results %s:8: point %u again (first at line 2): expected each point once\n", res, point);
		assert_string_equal(twice.err, want_dup);
		prog_clear(&twice);
	}

	/* a file that is not a results file is left alone */
	assert_true(g_file_set_contents(res, "x,y\n1,2\n", -1, NULL));
	foreign = sweep6(res, "csv", NULL);
	assert_int_equal(foreign.status, 2);
	want_foreign = g_strdup_printf("sim-writeback: --results %s:1: not a wbsim sweep results file: expected a first line {\"wbsim_sweep_results\": ...} (give another file)\n", res);
	assert_string_equal(foreign.err, want_foreign);
	g_free(text);
	text = read_text(res);
	assert_string_equal(text, "x,y\n1,2\n");
	prog_clear(&first);
	prog_clear(&seed);
	prog_clear(&format);
	prog_clear(&sweep);
	prog_clear(&line);
	prog_clear(&foreign);
}

/*
 * Issue 39, item 3: one sweep at a time appends to a results file (a
 * second one tore lines): the file is locked (flock) while a sweep holds
 * it, and a second writer is refused before it reads or writes anything;
 * and --output naming the results file (which it would truncate) is
 * refused, the results left whole.
 */
static void test_results_lock(void **state)
{
	g_autofree char *res = g_build_filename(tmpdir, "locked.jsonl", NULL);
	g_autofree char *same = NULL, *want = NULL, *before = NULL, *after = NULL;
	g_autofree char *out_opt = NULL, *dot = NULL, *cwd = g_get_current_dir();
	struct prog first = sweep6(res, "csv", NULL);
	struct prog locked, output, resumed;
	int fd;

	(void)state;
	assert_int_equal(first.status, 0);
	before = read_text(res);

	/* another writer holds the lock: refused, the file untouched */
	fd = open(res, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	locked = sweep6(res, "csv", NULL);
	assert_int_equal(locked.status, 2);
	assert_string_equal(locked.out, "");
	want = g_strdup_printf("sim-writeback: another sim-writeback is appending to %s (pid unknown): "
			       "wait for it or name another results file\n", res);
	assert_string_equal(locked.err, want);
	after = read_text(res);
	assert_string_equal(after, before);
	close(fd);

	/* the lock gone, the same sweep resumes (every point done) */
	resumed = sweep6(res, "csv", NULL);
	assert_int_equal(resumed.status, 0);
	assert_string_equal(resumed.out, first.out);

	/* the same file with CRLF line ends and a UTF-8 BOM: the same sweep (issue 39, item 4) */
	{
		g_autoptr(GString) crlf = g_string_new("\xEF\xBB\xBF");
		struct prog again;

		for (const char *p = before; *p; p++) {
			if (*p == '\n')
				g_string_append_c(crlf, '\r');
			g_string_append_c(crlf, *p);
		}
		assert_true(g_file_set_contents(res, crlf->str, (gssize)crlf->len, NULL));
		again = sweep6(res, "csv", NULL);
		assert_int_equal(again.status, 0);
		assert_string_equal(again.err, "");
		assert_string_equal(again.out, first.out);
		g_free(after);
		after = read_text(res);
		assert_string_equal(after, crlf->str);	/* every point read back, none run */
		assert_true(g_file_set_contents(res, before, -1, NULL));
		prog_clear(&again);
	}

	/* --output naming the results file (through another name): refused */
	dot = g_build_filename(tmpdir, ".", "locked.jsonl", NULL);
	out_opt = g_strdup_printf("--output=%s", dot);
	output = sweep6(res, "csv", out_opt);
	assert_int_equal(output.status, 2);
	assert_string_equal(output.out, "");
	same = g_strdup_printf("sim-writeback: --output %s and --results %s: the same file: expected two "
			       "files (one would overwrite the other)\n", dot, res);
	assert_string_equal(output.err, same);
	g_free(after);
	after = read_text(res);
	assert_string_equal(after, before);
	prog_clear(&first);
	prog_clear(&locked);
	prog_clear(&resumed);
	prog_clear(&output);
}

/*
 * Two processes: a sweep appending to its results file holds it (stopped
 * with SIGSTOP while it does, the lock still held); a second sweep given
 * the same file is refused at once, and the first ends with every line
 * whole.
 */
static void test_results_lock_two_processes(void **state)
{
	g_autofree char *res = g_build_filename(tmpdir, "two.jsonl", NULL);
	g_autofree char *program = built_program("sim-writeback");
	g_autofree char *want = NULL, *text = NULL;
	const char *argv[] = {
		program, "--no-wall-time", "--jobs", "1", "--results", res,
		"--output", "/dev/null", "--sweep", "writeback.contexts=1..3",
		"--sweep", "vm.dirty_ratio=10,30", "tests/sweep/data/random.ini", NULL
	};
	g_autoptr(GError) e = NULL;
	gboolean stopped = FALSE;
	int wait_status = 0;
	GPid pid;

	(void)state;
	if (!g_spawn_async(g_getenv("WBSIM_SOURCE_ROOT"), (char **)argv, NULL,
			   G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
			   NULL, NULL, &pid, &e))
		fail_msg("spawn: %s", e->message);
	/* stop it once it holds the file (its first line is written under the lock) */
	for (;;) {
		g_autofree char *t = NULL;

		if (waitpid(pid, &wait_status, WNOHANG) == pid)
			break;		/* it ended first: nothing to hold */
		if (g_file_get_contents(res, &t, NULL, NULL) && count_lines(t) >= 1) {
			assert_int_equal(kill(pid, SIGSTOP), 0);
			assert_int_equal(waitpid(pid, &wait_status, WUNTRACED), pid);
			stopped = WIFSTOPPED(wait_status);
			break;
		}
		g_usleep(1000);
	}
	if (stopped) {
		struct prog second = sweep6(res, "csv", NULL);

		assert_int_equal(second.status, 2);
		assert_string_equal(second.out, "");
		want = g_strdup_printf("sim-writeback: another sim-writeback is appending to %s "
				       "(pid unknown): wait for it or name another results file\n", res);
		assert_string_equal(second.err, want);
		prog_clear(&second);
		assert_int_equal(kill(pid, SIGCONT), 0);
		assert_int_equal(waitpid(pid, &wait_status, 0), pid);
	}
	g_spawn_close_pid(pid);
	assert_true(WIFEXITED(wait_status));
	assert_int_equal(WEXITSTATUS(wait_status), 0);
	/* every line whole: the identity and six points */
	text = read_text(res);
	assert_int_equal(count_lines(text), 7);
	{
		g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

		for (guint i = 0; i < 7; i++) {
			g_autoptr(JsonNode) n = json_from_string(lines[i], NULL);

			assert_non_null(n);
		}
	}
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
		cmocka_unit_test(test_dump_sweep_option),
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_program_repeat),
		cmocka_unit_test(test_program_resume),
		cmocka_unit_test(test_program_resume_killed),
		cmocka_unit_test(test_results_mismatch),
		cmocka_unit_test(test_results_lock),
		cmocka_unit_test(test_results_lock_two_processes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
