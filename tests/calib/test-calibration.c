/* SPDX-License-Identifier: MIT */
/*
 * test-calibration.c - the E1 calibration's mechanism and its report tool.
 *
 * The per-page writeback cost is fitted to E1 PMEM base on the premise
 * that its one writeback context is CPU-bound and that the fio threads'
 * fadvise(DONTNEED) writes the rest; the first test checks that premise
 * on a shortened run (it fails if the flusher idles, writes a page for
 * less than the cost table says, or if DONTNEED stops writing back). The
 * second runs wbsim-calibrate on shortened E1 runs and checks its table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib/gstdio.h>
#include <glib.h>
#include <wbsim/cpu-costs.h>
#include <wbsim/scenario.h>
#include "run/run.h"
#include "core/cpu-costs.h"

static char *source_path(const char *rel)
{
	const char *root = g_getenv("WBSIM_SOURCE_ROOT");

	return g_build_filename(root ? root : ".", rel, NULL);
}

static void e1_pmem_base_is_flusher_bound(void **state)
{
	g_autofree char *path = source_path("scenarios/e1-pmem-xfs-base.ini");
	/* long enough for fio's first pass over the files to end (about 13 s
	 * here), after which its fadvise(DONTNEED) writes back too */
	const char *const overrides[] = { "run.time_limit=16s", NULL };
	GError *error = NULL;
	struct wbsim_scenario *scn = wbsim_scenario_load(path, overrides, &error);
	struct wbsim_run_options opts = { 0 };
	struct wbsim_run_result *r;
	const struct wbsim_wb_result *wb;
	double busy, per_page, dontneed_share;

	(void)state;
	assert_non_null(scn);
	r = wbsim_run_scenario(scn, &opts, &error);
	assert_non_null(r);
	assert_int_equal(r->wbs->len, 1);
	wb = r->wbs->pdata[0];
	assert_true(wb->pages_written > 0);
	/* after the first second (the dirty pool filling) the flusher never
	 * idles: running, waiting for a CPU (twelve fio threads share the
	 * twelve CPUs with it) or for a writer's ILOCK more than 85% of the
	 * whole run */
	busy = (double)(wb->cpu_ns + wb->cpu_wait_ns + wb->lock_wait_ns) / (double)r->sim_ns;
	assert_true(busy > 0.85 && busy <= 1.0);
	/* no page is written back for less than the table's per-folio cost
	 * (E1's 4 KiB writes make 4 KiB folios) */
	per_page = (double)wb->cpu_ns / (double)wb->pages_written;
	assert_true(per_page >= (double)wbsim_cpu_costs_default()->writepages_folio_ns);
	/* the fio threads' DONTNEED writes a real share, not all of it */
	dontneed_share = 1.0 - (double)wb->pages_written / (double)r->nr_written;
	assert_true(dontneed_share > 0.05 && dontneed_share < 0.7);
	wbsim_run_result_free(r);
	wbsim_scenario_free(scn);
}

/*
 * The table of what bounds each E1 run: one row per scenario after the
 * header; CPUs busy within the machine's 12, the shares within 0-100%,
 * and "at published" equal to CPUs busy scaled by published/wbsim of the
 * first table (to the rounding of the printed CPUs busy).
 */
static void assert_bounds_table(const char *out)
{
	const char *t = strstr(out, "what bounds each E1 run");
	guint rows = 0;
	g_auto(GStrv) lines = NULL;

	assert_non_null(t);
	lines = g_strsplit(t, "\n", -1);
	for (char **l = lines; *l; l++) {
		char name[64], first[96];
		double busy, cpus, at, fb, du, fw, pub, sim;
		const char *row;

		if (sscanf(*l, "%63s %lf/%lf %lf %lf%% %lf%% %lf%%", name, &busy, &cpus, &at, &fb,
			   &du, &fw) != 7)
			continue;
		rows++;
		assert_true(cpus == 12 && busy > 0 && busy <= cpus + 0.05);
		assert_true(fb >= 0 && fb <= 100 && du >= 0 && du <= 100 && fw >= 0 && fw <= 100);
		/* the same scenario's row in the first table */
		g_snprintf(first, sizeof(first), "\n%s ", name);
		row = strstr(out, first);
		assert_non_null(row);
		assert_int_equal(sscanf(row + strlen(first), "%lf %lf", &pub, &sim), 2);
		assert_true(sim > 0);
		assert_true(fabs(at - busy * pub / sim) <= 0.06 * pub / sim + 0.051);
	}
	assert_int_equal(rows, 8);
}

static void calibrate_tool_prints_e1_table(void **state)
{
	const char *build = g_getenv("WBSIM_BUILD_ROOT");
	g_autofree char *tool = g_build_filename(build ? build : ".", "sim", "wbsim-calibrate",
						 NULL);
	g_autofree char *sim = g_build_filename(build ? build : ".", "sim", "sim-writeback",
						NULL);
	g_autofree char *dir = source_path("scenarios");
	const char *argv[] = { tool, sim, dir, "--e1-only", "-j", "2",
			       "--set", "run.time_limit=50ms", NULL };
	g_autofree char *out = NULL;
	g_autofree char *err = NULL;
	GError *error = NULL;
	int status = -1;
	static const char *const rows[] = {
		"e1-pmem-xfs-base", "e1-pmem-xfs-parallel", "e1-pmem-ext4-base",
		"e1-pmem-ext4-parallel", "e1-nvme-xfs-base", "e1-nvme-xfs-parallel",
		"e1-nvme-ext4-base", "e1-nvme-ext4-parallel", "pmem xfs", "nvme ext4",
	};

	(void)state;
	assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				 &err, &status, &error));
	if (!g_spawn_check_wait_status(status, NULL))
		fprintf(stderr, "wbsim-calibrate: %s\n%s\n", err, out);
	assert_true(g_spawn_check_wait_status(status, NULL));
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
		assert_non_null(strstr(out, rows[i]));
	/* the published base figure of PMEM XFS is printed beside wbsim's */
	assert_non_null(strstr(out, "e1-pmem-xfs-base                        544"));
	assert_non_null(strstr(out, "worst error:"));
	/* --e1-only: no withheld experiment is run */
	assert_null(strstr(out, "withheld"));
	assert_bounds_table(out);
}

/* Copy the files of @src named by @prefixes (and its presets) to @dst. */
static void copy_scenarios(const char *src, const char *dst, const char *const *prefixes)
{
	g_autoptr(GDir) d = g_dir_open(src, 0, NULL);
	g_autofree char *pdst = g_build_filename(dst, "presets", NULL);
	g_autofree char *psrc = g_build_filename(src, "presets", NULL);
	g_autoptr(GDir) pd = g_dir_open(psrc, 0, NULL);
	const char *f;

	assert_non_null(d);
	assert_non_null(pd);
	assert_int_equal(g_mkdir_with_parents(pdst, 0755), 0);
	while ((f = g_dir_read_name(d))) {
		gboolean want = g_str_has_suffix(f, ".fio");

		for (const char *const *p = prefixes; *p && !want; p++)
			want = g_str_has_prefix(f, *p) && g_str_has_suffix(f, ".ini");
		if (want) {
			g_autofree char *from = g_build_filename(src, f, NULL);
			g_autofree char *to = g_build_filename(dst, f, NULL);
			g_autofree char *text = NULL;
			gsize len;

			assert_true(g_file_get_contents(from, &text, &len, NULL));
			assert_true(g_file_set_contents(to, text, (gssize)len, NULL));
		}
	}
	while ((f = g_dir_read_name(pd))) {
		g_autofree char *from = g_build_filename(psrc, f, NULL);
		g_autofree char *to = g_build_filename(pdst, f, NULL);
		g_autofree char *text = NULL;
		gsize len;

		assert_true(g_file_get_contents(from, &text, &len, NULL));
		assert_true(g_file_set_contents(to, text, (gssize)len, NULL));
	}
}

/* Run wbsim-calibrate with @argv; it must succeed. Its output and errors. */
static void run_calibrate(const char *const *argv, char **out, char **err)
{
	GError *error = NULL;
	int status = -1;

	assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out,
				 err, &status, &error));
	if (!g_spawn_check_wait_status(status, NULL))
		fprintf(stderr, "wbsim-calibrate: %s\n%s\n", *err, *out);
	assert_true(g_spawn_check_wait_status(status, NULL));
}

/* The programs, and a new scenario directory with the bundled scenarios
 * a test names: what each run of wbsim-calibrate below works on. */
struct calib_dir {
	char *tool, *sim, *dir;
};

static void calib_dir_make(struct calib_dir *c, const char *const *prefixes)
{
	const char *build = g_getenv("WBSIM_BUILD_ROOT");
	g_autofree char *src = source_path("scenarios");

	c->tool = g_build_filename(build ? build : ".", "sim", "wbsim-calibrate", NULL);
	c->sim = g_build_filename(build ? build : ".", "sim", "sim-writeback", NULL);
	c->dir = g_dir_make_tmp("wbsim-calib-XXXXXX", NULL);
	assert_non_null(c->dir);
	copy_scenarios(src, c->dir, prefixes);
}

/* Remove the directory and free @c. */
static void calib_dir_remove(struct calib_dir *c)
{
	g_autofree char *rm = g_strdup_printf("rm -rf '%s'", c->dir);
	int status = -1;

	assert_true(g_spawn_command_line_sync(rm, NULL, NULL, &status, NULL));
	g_free(c->tool);
	g_free(c->sim);
	g_free(c->dir);
}

/* The withheld part: E8's figure is the run time of its jobs, the clones
 * of one job folded into one entry. */
static void calibrate_tool_prints_withheld_figures(void **state)
{
	static const char *const prefixes[] = { "e1-", "e8-", NULL };
	struct calib_dir c;
	g_autofree char *out = NULL;
	g_autofree char *err = NULL;
	const char *row;

	(void)state;
	calib_dir_make(&c, prefixes);
	{
		const char *argv[] = { c.tool, c.sim, c.dir, "-j", "2", "--set",
				       "run.time_limit=1500ms", NULL };

		run_calibrate(argv, &out, &err);
	}
	assert_non_null(strstr(out, "Predictions for withheld experiments"));
	row = strstr(out, "e8-xfs-large-folios-per-block");
	assert_non_null(row);
	assert_non_null(strstr(row, "write-2g "));
	assert_non_null(strstr(row, "small-writes x15 (max) "));
	assert_non_null(strstr(out, "e8-xfs-large-folios-whole-folio"));
	calib_dir_remove(&c);
}

/* The line of @out that starts with @name followed by a space, a copy. */
static char *row_of(const char *out, const char *name)
{
	g_auto(GStrv) lines = g_strsplit(out, "\n", -1);

	for (char **l = lines; *l; l++) {
		if (g_str_has_prefix(*l, name) && (*l)[strlen(name)] == ' ')
			return g_strdup(*l);
	}
	return NULL;
}

/*
 * A sweep runs as one process per point (E2: twelve numbers of contexts),
 * and the row the report prints from them is the one the whole sweep in
 * one process gives (--whole-sweeps), every point in order. The point of
 * one context simulates what e2-nvme-xfs-base does: it takes that run's
 * result, and the row is still the whole sweep's.
 */
static void calibrate_tool_splits_sweep_into_points(void **state)
{
	static const char *const prefixes[] = { "e1-", "e2-nvme-xfs-parallel", "e2-nvme-xfs-base",
						NULL };
	struct calib_dir c;
	g_autofree char *out = NULL, *err = NULL, *whole_out = NULL, *whole_err = NULL;
	g_autofree char *row = NULL, *whole_row = NULL;
	const char *p;

	(void)state;
	calib_dir_make(&c, prefixes);
	{
		const char *argv[] = { c.tool, c.sim, c.dir, "-j", "2", "--set",
				       "run.time_limit=20ms", NULL, NULL };

		run_calibrate(argv, &out, &err);
		argv[7] = "--whole-sweeps";
		run_calibrate(argv, &whole_out, &whole_err);
	}
	/* 8 E1 runs, the base and 11 points, each a process of its own */
	assert_non_null(strstr(out, "\n20 runs (and 1 the same as one of them), 2 at a time: "));
	assert_non_null(strstr(err, "\ne2-nvme-xfs-parallel[writeback.contexts=1]: the same "
				    "simulation as e2-nvme-xfs-base, its result\n"));
	assert_null(strstr(err, "] e2-nvme-xfs-parallel[writeback.contexts=1]: "));
	for (int k = 2; k <= 12; k++) {
		g_autofree char *name = g_strdup_printf(
			"] e2-nvme-xfs-parallel[writeback.contexts=%d]: ", k);

		assert_non_null(strstr(err, name));
	}
	assert_non_null(strstr(whole_out, "\n10 runs, 2 at a time: "));
	assert_non_null(strstr(whole_err, "] e2-nvme-xfs-parallel: "));
	row = row_of(out, "e2-nvme-xfs-parallel");
	whole_row = row_of(whole_out, "e2-nvme-xfs-parallel");
	assert_non_null(row);
	assert_non_null(whole_row);
	assert_string_equal(row, whole_row);
	/* the points in sweep order, 1 to 12 */
	p = strstr(row, "sweep (point:MiB/s) writeback.contexts=1:");
	assert_non_null(p);
	for (int k = 2; k <= 12; k++) {
		g_autofree char *pt = g_strdup_printf(" writeback.contexts=%d:", k);

		p = strstr(p, pt);
		assert_non_null(p);
	}
	calib_dir_remove(&c);
}

/*
 * Only a scenario run once gives its result to a point: a sweep that runs
 * whole (its [sweep] in an included file, which the tool does not split)
 * resolves, [sweep] aside, to its last point's scenario, but its
 * bandwidth is the largest of its points', so no point takes it.
 */
static void calibrate_tool_shares_no_whole_sweep(void **state)
{
	static const char *const prefixes[] = { "e1-", "e2-nvme-xfs-parallel", NULL };
	struct calib_dir c;
	g_autofree char *whole = NULL, *out = NULL, *err = NULL;

	(void)state;
	calib_dir_make(&c, prefixes);
	whole = g_build_filename(c.dir, "e2-nvme-xfs-whole.ini", NULL);
	assert_true(g_file_set_contents(whole, "[scenario]\ninclude = e2-nvme-xfs-parallel.ini\n",
					-1, NULL));
	{
		const char *argv[] = { c.tool, c.sim, c.dir, "-j", "2", "--set",
				       "run.time_limit=20ms", NULL };

		run_calibrate(argv, &out, &err);
	}
	/* it ran as one process: 8 E1 runs, 12 points, the whole sweep */
	assert_non_null(strstr(err, "] e2-nvme-xfs-whole: "));
	assert_non_null(strstr(out, "\n21 runs, 2 at a time: "));
	assert_null(strstr(err, "the same simulation as"));
	calib_dir_remove(&c);
}

/*
 * The pool: with one slot the runs end in the order they start, which
 * follows the costs of --costs FILE (costliest first); the file is
 * rewritten with every run's CPU time, and the report ends with the sum.
 */
static void calibrate_tool_runs_costliest_first(void **state)
{
	const char *build = g_getenv("WBSIM_BUILD_ROOT");
	g_autofree char *tool = g_build_filename(build ? build : ".", "sim", "wbsim-calibrate",
						 NULL);
	g_autofree char *sim = g_build_filename(build ? build : ".", "sim", "sim-writeback",
						NULL);
	g_autofree char *dir = source_path("scenarios");
	g_autofree char *costs = NULL;
	const char *argv[] = { tool, sim, dir, "--e1-only", "-j", "1", "--costs", NULL,
			       "--set", "run.time_limit=20ms", NULL };
	g_autofree char *out = NULL;
	g_autofree char *err = NULL;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GError *error = NULL;
	int status = -1, fd;

	(void)state;
	fd = g_file_open_tmp("wbsim-calib-costs-XXXXXX", &costs, NULL);
	assert_true(fd >= 0);
	close(fd);
	/* two known costs; the other six E1 runs are estimated from their
	 * simulated time and jobs, scaled by the known ones (the same
	 * workload: between the two) */
	assert_true(g_file_set_contents(costs, "e1-nvme-ext4-parallel 90.5\n"
					 "e1-pmem-xfs-base 0.5\nnot-a-cost-line\n", -1, NULL));
	argv[7] = costs;
	assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				 &err, &status, &error));
	if (!g_spawn_check_wait_status(status, NULL))
		fprintf(stderr, "wbsim-calibrate: %s\n%s\n", err, out);
	assert_true(g_spawn_check_wait_status(status, NULL));
	assert_true(g_str_has_prefix(err, "[1/8] e1-nvme-ext4-parallel: "));
	assert_non_null(strstr(err, "[8/8] e1-pmem-xfs-base: "));
	assert_non_null(strstr(out, "8 runs, 1 at a time: "));
	assert_non_null(strstr(out, " s CPU (user + system of the runs); costliest: "));
	/* rewritten: one line per run, sorted, this run's times */
	assert_true(g_file_get_contents(costs, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	assert_int_equal(g_strv_length(lines), 9);
	assert_true(g_str_has_prefix(lines[0], "e1-nvme-ext4-base "));
	for (guint i = 0; i < 8; i++) {
		const char *num = strchr(lines[i], ' ');

		assert_non_null(num);
		assert_true(g_ascii_strtod(num + 1, NULL) < 90);
	}
	assert_string_equal(lines[8], "");
	g_unlink(costs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(e1_pmem_base_is_flusher_bound),
		cmocka_unit_test(calibrate_tool_prints_e1_table),
		cmocka_unit_test(calibrate_tool_prints_withheld_figures),
		cmocka_unit_test(calibrate_tool_runs_costliest_first),
		cmocka_unit_test(calibrate_tool_splits_sweep_into_points),
		cmocka_unit_test(calibrate_tool_shares_no_whole_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
