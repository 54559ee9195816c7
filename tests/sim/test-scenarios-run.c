/* SPDX-License-Identifier: MIT */
/*
 * test-scenarios-run.c - every shipped scenario (scenarios/ ** / *.ini)
 * runs, shortened to 600 simulated ms, under --check (the model's
 * invariants after every event), and its JSON result says the machine,
 * filesystem and number of writeback contexts its name promises.
 *
 * 600 ms keeps the whole test near 15 s of CPU time; the fastest dirtiers
 * (12 jobs on PMEM) reach the dirty limit within it, so throttling runs
 * too. E6's one file takes under 17 s to write on E1's machine (XFS
 * 16.20 s: its io_uring writes in two lanes, the fio thread and io-wq's
 * worker taking i_rwsem in turn), so E6 runs 18 s (cheap: one job) to
 * reach its first extent count.
 *
 * E7 runs just past its cgroup event (a container removed at 10 s, io
 * disabled at 5 s), and its report must carry the cgroup writeback part
 * with the kernel variant its name promises. The 500,000-file E7 scale
 * scenario runs without --check: the invariants walk every file after
 * every 256 events, which takes minutes there (its own figures are in
 * scenarios/README.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <json-glib/json-glib.h>
#include <wbsim/wbsim.h>
#include "scenario/config.h"
#include "defs/fio.h"

#define TIME_LIMIT "600ms"
#define TIME_LIMIT_NS G_GUINT64_CONSTANT(600000000)
#define E6_TIME_LIMIT "18s"
#define E6_TIME_LIMIT_NS G_GUINT64_CONSTANT(18000000000)
/* E9 changes the number of contexts at 4 s: run just past it */
#define E9_TIME_LIMIT "4100ms"
#define E9_TIME_LIMIT_NS G_GUINT64_CONSTANT(4100000000)
/* E7 test 1 removes a container at 10 s, test 2 disables io at 5 s */
#define E7_REMOVE_TIME_LIMIT "10500ms"
#define E7_REMOVE_TIME_LIMIT_NS G_GUINT64_CONSTANT(10500000000)
#define E7_IO_TIME_LIMIT "5500ms"
#define E7_IO_TIME_LIMIT_NS G_GUINT64_CONSTANT(5500000000)

static const char *src_root(void)
{
	const char *s = g_getenv("WBSIM_SOURCE_ROOT");

	assert_non_null(s);
	return s;
}

/* Every *.ini below @rel (relative to the source root), sorted. */
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
	g_ptr_array_sort(out, (GCompareFunc)g_strcmp0);
}

/* What a scenario's name promises (-1: the name says nothing). */
struct promise {
	int cpus;
	int contexts;
	const char *fs;
};

static struct promise promise_of(const char *base)
{
	struct promise p = { -1, -1, NULL };
	bool parallel = strstr(base, "-parallel") || g_str_has_prefix(base, "affinity-");

	if (!g_str_has_prefix(base, "e") && !g_str_has_prefix(base, "affinity-"))
		return p;
	p.cpus = g_str_has_prefix(base, "e3-") ? 1 : g_str_has_prefix(base, "e5-") ? 8 :
		 g_str_has_prefix(base, "e8-") ? 4 : 12;	/* E8 states no CPU count */
	if (strstr(base, "-base"))
		p.contexts = 1;
	else if (parallel)
		p.contexts = p.cpus;	/* E3: contexts = cpus = 1 */
	p.fs = strstr(base, "-xfs") ? "xfs" : strstr(base, "-ext4") ? "ext4" :
	       strstr(base, "-f2fs") ? "f2fs" : NULL;
	return p;
}

/* The checks on one run's JSON report (the "wbsim" member and "jobs"). */
static void check_report(const char *rel, const char *base, JsonObject *root,
			 struct promise p, uint64_t limit_ns)
{
	JsonObject *wb = json_object_get_object_member(root, "wbsim");
	JsonArray *jobs;
	uint64_t io = 0;

	assert_non_null(wb);
	/* the run stopped at the limit (or earlier, when the workload ended) */
	assert_true(json_object_get_int_member(wb, "sim_ns") > 0);
	assert_true((uint64_t)json_object_get_int_member(wb, "sim_ns") <= limit_ns);
	assert_true(json_object_get_int_member(wb, "nr_dirtied") > 0);
	jobs = json_object_get_array_member(root, "jobs");
	for (guint i = 0; i < json_array_get_length(jobs); i++) {
		JsonObject *w = json_object_get_object_member(
			json_array_get_object_element(jobs, i), "write");

		io += (uint64_t)json_object_get_int_member(w, "io_bytes");
	}
	if (io == 0)
		fail_msg("%s: no bytes written", rel);

	if (p.cpus > 0 && json_object_get_int_member(wb, "cpus") != p.cpus)
		fail_msg("%s: %" G_GINT64_FORMAT " CPUs, the name says %d", rel,
			 json_object_get_int_member(wb, "cpus"), p.cpus);
	if (p.contexts > 0 && json_object_get_int_member(wb, "nr_contexts") != p.contexts)
		fail_msg("%s: %" G_GINT64_FORMAT " contexts, expected %d", rel,
			 json_object_get_int_member(wb, "nr_contexts"), p.contexts);
	if (p.fs && strcmp(json_object_get_string_member(wb, "fs_type"), p.fs) != 0)
		fail_msg("%s: filesystem %s, the name says %s", rel,
			 json_object_get_string_member(wb, "fs_type"), p.fs);
	if (g_str_has_prefix(base, "affinity-"))
		assert_string_equal(json_object_get_string_member(wb, "affinity"),
				    strstr(base, "-none") ? "none" : "inode");
	if (g_str_has_prefix(base, "e7-")) {
		JsonObject *cg = json_object_get_object_member(wb, "cgroup_writeback");
		bool reachable = strstr(base, "-reachable") || strstr(base, "-switch");
		JsonArray *wjobs = json_object_get_array_member(wb, "jobs");

		assert_non_null(cg);
		assert_string_equal(json_object_get_string_member(cg, "dying_wb"),
				    reachable ? "reachable" : "unreachable");
		/* the root and the cgroups /e7, /e7/a, /e7/b */
		assert_true(json_array_get_length(json_object_get_array_member(cg, "memcgs")) >= 4);
		for (guint i = 0; i < json_array_get_length(wjobs); i++)
			assert_true(json_object_has_member(json_array_get_object_element(wjobs, i),
							   "max_lag_ns"));
	}
	if (g_str_has_prefix(base, "e6-")) {
		/* one 1 GiB file: fio exits within 18 s and filefrag counts at once, so the
		 * first moment is counted; 30 s later and remount are not reached */
		JsonArray *ext = json_object_get_array_member(wb, "extents");

		assert_int_equal(json_array_get_length(ext), 1);
		assert_string_equal(json_object_get_string_member(
			json_array_get_object_element(ext, 0), "moment"), "after-jobs");
		assert_true(json_array_get_length(
			json_object_get_array_member(wb, "warnings")) >= 2);
	}
}

/*
 * A sweep scenario prints one JSON line per point ({"sweep_point": N,
 * "sweep": {KEY: VALUE}, "report": {...}}): every point is checked, with
 * the contexts the point sets. Return: the number of points.
 */
static guint check_sweep_lines(const char *rel, const char *base, const char *out,
			       struct promise p, uint64_t limit_ns)
{
	g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
	guint points = 0;

	for (guint i = 0; lines[i]; i++) {
		g_autoptr(JsonParser) parser = json_parser_new();
		g_autoptr(GError) e = NULL;
		JsonObject *line, *sweep;
		struct promise pp = p;

		if (!*lines[i])
			continue;
		if (!json_parser_load_from_data(parser, lines[i], -1, &e))
			fail_msg("%s: line %u: JSON: %s", rel, i + 1, e->message);
		line = json_node_get_object(json_parser_get_root(parser));
		assert_int_equal(json_object_get_int_member(line, "sweep_point"), points + 1);
		sweep = json_object_get_object_member(line, "sweep");
		if (json_object_has_member(sweep, "writeback.contexts"))
			pp.contexts = (int)json_object_get_int_member(sweep, "writeback.contexts");
		check_report(rel, base, json_object_get_object_member(line, "report"), pp,
			     limit_ns);
		points++;
	}
	return points;
}

static void run_one(const char *rel)
{
	const char *build = g_getenv("WBSIM_BUILD_ROOT");
	g_autofree char *program = NULL, *out = NULL, *err = NULL, *text = NULL;
	g_autofree char *base = g_path_get_basename(rel);
	g_autofree char *full = g_build_filename(src_root(), rel, NULL);
	g_autoptr(GError) e = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	struct promise p = promise_of(base);
	bool e6 = g_str_has_prefix(base, "e6-");
	bool e9 = g_str_has_prefix(base, "e9-");
	bool e7rm = g_str_has_prefix(base, "e7-dying-");
	bool e7io = g_str_has_prefix(base, "e7-io-disable-");
	bool scale = strstr(base, "-500k-") != NULL;
	uint64_t limit_ns = e6 ? E6_TIME_LIMIT_NS : e9 ? E9_TIME_LIMIT_NS :
			    e7rm ? E7_REMOVE_TIME_LIMIT_NS : e7io ? E7_IO_TIME_LIMIT_NS : TIME_LIMIT_NS;
	const char *limit = e6 ? "run.time_limit=" E6_TIME_LIMIT :
			    e9 ? "run.time_limit=" E9_TIME_LIMIT :
			    e7rm ? "run.time_limit=" E7_REMOVE_TIME_LIMIT :
			    e7io ? "run.time_limit=" E7_IO_TIME_LIMIT : "run.time_limit=" TIME_LIMIT;
	int status = 0;

	assert_non_null(build);
	program = g_build_filename(build, "sim", "sim-writeback", NULL);
	{
		const char *argv[] = { program, "--check", "--no-wall-time",
				       "--output-format=json", "--set", limit, rel, NULL };

		/* the scale scenario: everything but --check */
		if (scale)
			argv[1] = "--no-wall-time";

		if (!g_spawn_sync(src_root(), (char **)argv, NULL, 0, NULL, NULL,
				  &out, &err, &status, &e))
			fail_msg("spawn: %s", e->message);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || *err)
		fail_msg("%s: status %d: %s", rel, status, err);
	if (json_parser_load_from_data(parser, out, -1, NULL) &&
	    json_object_has_member(json_node_get_object(json_parser_get_root(parser)),
				   "wbsim")) {
		check_report(rel, base, json_node_get_object(json_parser_get_root(parser)),
			     p, limit_ns);
		return;
	}
	/* not one report: the points of a [sweep], one JSON line each */
	assert_true(g_file_get_contents(full, &text, NULL, NULL));
	if (!strstr(text, "\n[sweep]"))
		fail_msg("%s: output is neither one JSON report nor sweep lines", rel);
	assert_true(check_sweep_lines(rel, base, out, p, limit_ns) >= 2);
}

static void test_every_scenario_runs(void **state)
{
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);

	(void)state;
	collect_scenarios("scenarios", files);
	/* E1 x8, E2 x2, E3 x8, E4 x10, E5 x2, E6 x4, affinity x2, minimal */
	assert_true(files->len >= 37);
	for (guint i = 0; i < files->len; i++)
		run_one(files->pdata[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_scenario_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
