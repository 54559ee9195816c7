/* SPDX-License-Identifier: MIT */
/*
 * test-explain-costs.c - wbsim_scenario_explain_costs() (sim-writeback
 * --explain-costs) follows the model's charging code: in the simple case
 * (one job of 4 KiB sequential buffered writes, one CPU, lab-ram) the
 * explained sum of a write is the writer CPU per page the simulator
 * reports, within 2%; with the job's end_fsync writing the pages back in
 * the writer, the write and the writeback's submitting part together are
 * its CPU per page; under psync on XFS and io_uring on ext4 (punted), at
 * the host's speed and at half of it, with a [costs] line of the scenario,
 * whose value and line the explanation shows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <wbsim/wbsim.h>

#define MACHINE "[machine]\ncpus = 1\nmemory = 8g\nhz = 250\n"
#define DEVICE "[device]\npreset = lab-ram\ncapacity = 4g\n"

static const char *const PSYNC_XFS =
	MACHINE DEVICE
	"[filesystem]\ntype = xfs\n"
	"[fio:w]\ndirectory=/mnt\nbs=4k\nrw=write\nioengine=psync\nsize=128M\ndirect=0\n";

static const char *const URING_EXT4_SLOW =
	MACHINE
	"cpu_speed = 50\n"
	"[costs]\ncopy_page_ns = 1000ns\n"
	DEVICE
	"[filesystem]\ntype = ext4\n"
	"[fio:w]\ndirectory=/mnt\nbs=4k\nrw=write\nioengine=io_uring\niodepth=1\nsize=128M\ndirect=0\n";

static wbsim_scenario *load(const char *text, const char *extra)
{
	g_autofree char *all = g_strconcat(text, extra, NULL);
	g_autoptr(GError) error = NULL;
	wbsim_scenario *scn = wbsim_scenario_load_string(all, "t.ini", NULL, NULL, &error);

	if (!scn)
		fail_msg("%s", error->message);
	return scn;
}

/* The @nth (0-based) "  sum" line's figure on this machine's CPUs. */
static double explained_sum(const char *text, int nth)
{
	const char *l = text;

	for (int i = 0; i <= nth; i++) {
		l = strstr(l + 1, "\n  sum ");
		if (!l)
			fail_msg("no sum %d in:\n%s", nth, text);
	}
	{
		const char *eol = strchr(l + 1, '\n');
		const char *mine = strstr(l, "ns at the host's speed; ");

		if (mine && mine < eol)
			return g_ascii_strtod(mine + strlen("ns at the host's speed; "), NULL);
		return g_ascii_strtod(l + strlen("\n  sum "), NULL);
	}
}

/* The writer CPU per page dirtied the simulator reports for @scn. */
static double simulated_writer_ns(wbsim_scenario *scn)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(wbsim_result) r = wbsim_run(scn, NULL, &error);
	g_autofree char *report = NULL;
	const char *cpu;

	if (!r)
		fail_msg("%s", error->message);
	report = wbsim_result_report(r, WBSIM_FORMAT_TEXT, FALSE, &error);
	assert_non_null(report);
	cpu = strstr(report, "CPU time by task kind: dirtier=");
	assert_non_null(cpu);
	assert_true(wbsim_result_summary(r)->pages_dirtied > 0);
	return g_ascii_strtod(cpu + strlen("CPU time by task kind: dirtier="), NULL) * 1e6 /
	       (double)wbsim_result_summary(r)->pages_dirtied;
}

static void assert_close(double explained, double simulated, const char *what)
{
	if (!(explained > 0 && simulated > 0 &&
	      explained / simulated > 0.98 && explained / simulated < 1.02))
		fail_msg("%s: explained %.1f ns against %.1f simulated", what, explained, simulated);
}

static void check_agreement(const char *text, const char *what)
{
	wbsim_scenario *scn = load(text, "");
	wbsim_scenario *synced = load(text, "end_fsync=1\n");
	g_autoptr(GError) error = NULL;
	g_autofree char *ex = wbsim_scenario_explain_costs(scn, &error);
	g_autofree char *what_synced = g_strconcat(what, ", end_fsync=1", NULL);

	assert_non_null(ex);
	assert_close(explained_sum(ex, 0), simulated_writer_ns(scn), what);
	assert_close(explained_sum(ex, 0) + explained_sum(ex, 1), simulated_writer_ns(synced),
		     what_synced);
	wbsim_scenario_free(scn);
	wbsim_scenario_free(synced);
}

static void test_psync_xfs(void **state)
{
	(void)state;
	check_agreement(PSYNC_XFS, "psync, XFS");
}

static void test_uring_ext4_slow(void **state)
{
	(void)state;
	check_agreement(URING_EXT4_SLOW, "io_uring, ext4, cpu_speed 50");
}

/* The steps name their keys, values and sources; the engine's cost is the
 * engine's; the bandwidth bound is 4 KiB over the sum. */
static void test_steps(void **state)
{
	wbsim_scenario *x = load(PSYNC_XFS, "");
	wbsim_scenario *u = load(URING_EXT4_SLOW, "");
	g_autoptr(GError) error = NULL;
	g_autofree char *tx = wbsim_scenario_explain_costs(x, &error);
	g_autofree char *tu = wbsim_scenario_explain_costs(u, &error);
	g_autofree char *bound = NULL;

	(void)state;
	assert_non_null(tx);
	assert_non_null(tu);
	/* psync pays sync_io_ns, io_uring on ext4 uring_io_ns and a punt */
	assert_non_null(strstr(tx, "\n  sync_io_ns "));
	/* io_uring's cost is listed with those the sums do not charge */
	assert_true(strstr(tx, "\n  uring_io_ns ") > strstr(tx, "\nNot in these sums"));
	assert_non_null(strstr(tx, "\n  xfs.write_ns "));
	assert_non_null(strstr(tu, "\n  uring_io_ns "));
	assert_non_null(strstr(tu, "\n  uring_punt_ns "));
	assert_non_null(strstr(tu, "\n  ext4.write_ns "));
	/* the scenario's line, with its value; the profile's otherwise */
	assert_non_null(strstr(tu, "\n  copy_page_ns                 1000 ns x 1      =   1000.0 ns  "));
	assert_non_null(strstr(tu, "set by t.ini:7\n"));
	assert_non_null(strstr(tx, "built-in host profile lib/core/hosts/"));
	assert_non_null(strstr(tu, "cpu_speed = 50% of that host: every cost lasts cost x 2.00\n"));
	/* the loop device's worker is host CPU, rows of the cost table */
	assert_non_null(strstr(tx, "\nin the device's worker (lab-ram, model loop: host CPU"));
	assert_true(strstr(tx, "\n  loop_page_copy_ns ") < strstr(tx, "\nNot in these sums"));
	assert_true(strstr(tx, "\n  loop_request_ns ") < strstr(tx, "\nNot in these sums"));
	/* and its cost the sums leave out (the first write of a backing page) */
	assert_true(strstr(tx, "\n  loop_page_alloc_ns ") > strstr(tx, "\nNot in these sums"));
	/* no device model has CPU costs of its own */
	assert_null(strstr(tx, "device.worker_"));
	/* writes alone: 4096 B over the write's sum */
	bound = g_strdup_printf("writes alone (no writeback yet): %.0f MiB/s (%.1f ns a write)\n",
				4096.0 * 1e9 / explained_sum(tx, 0) / 1048576.0, explained_sum(tx, 0));
	assert_non_null(strstr(tx, bound));
	wbsim_scenario_free(x);
	wbsim_scenario_free(u);
}

/* A machine without a loop device has no loop worker's cost to list. */
static void test_no_loop_worker(void **state)
{
	g_autoptr(GString) text = g_string_new(PSYNC_XFS);
	wbsim_scenario *n;
	g_autoptr(GError) error = NULL;
	g_autofree char *tn = NULL;

	(void)state;
	g_string_replace(text, "preset = lab-ram", "preset = samsung-pm1733-3.84t", 1);
	n = load(text->str, "");
	tn = wbsim_scenario_explain_costs(n, &error);
	assert_non_null(tn);
	assert_null(strstr(tn, "device's worker"));
	assert_null(strstr(tn, "loop_"));
	assert_non_null(strstr(tn, "\n  blk_complete_rq_ns "));
	wbsim_scenario_free(n);
}

static void test_bad_args(void **state)
{
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_null(wbsim_scenario_explain_costs(NULL, &error));
	assert_true(g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_psync_xfs),
		cmocka_unit_test(test_uring_ext4_slow),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_no_loop_worker),
		cmocka_unit_test(test_bad_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
