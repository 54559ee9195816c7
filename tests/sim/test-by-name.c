/* SPDX-License-Identifier: MIT */
/*
 * test-by-name.c - sim-writeback and the names it takes: a bundled
 * scenario by name (a folder of that name does not hide it, a FIFO in
 * $WBSIM_SCENARIO_PATH is refused by what it is, a mistyped name or
 * device preset gets "did you mean", exit status 2), --list-scenarios
 * with a hostile description escaped, --list-trace-events (what the bash
 * completion offers after --trace-events), and --help in groups with
 * examples.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <wbsim/wbsim.h>
#include "../sweep/sweep-prog.h"

/* sim-writeback with the NULL-terminated arguments, in the source root */
#define run(...) run_in(g_getenv("WBSIM_SOURCE_ROOT"), __VA_ARGS__, NULL)

static struct prog run_in(const char *cwd, const char *arg, ...)
{
	struct prog r;
	va_list ap;

	va_start(ap, arg);
	r = prog_run_valist(cwd, arg, ap);
	va_end(ap);
	return r;
}

/* The folders the program searches, as its messages list them. */
static char *dirs_text(void)
{
	g_auto(GStrv) dirs = wbsim_scenario_dirs();

	return g_strjoinv(", ", dirs);
}

static void test_mistyped(void **state)
{
	g_autofree char *dirs = NULL;
	g_autofree char *want = NULL;
	struct prog r;

	(void)state;
	g_unsetenv("WBSIM_SCENARIO_PATH");
	dirs = dirs_text();
	r = run("--parse-only", "e1-pmem-xfs-paralel");
	want = g_strdup_printf("sim-writeback: no scenario e1-pmem-xfs-paralel: no such file, "
			       "and no e1-pmem-xfs-paralel.ini in %s (did you mean "
			       "e1-pmem-xfs-parallel?)\n", dirs);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, want);
	prog_clear(&r);

	r = run("--parse-only", "--set", "device.preset=hdd-7200-sat", "validate-minimal");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err,
		"sim-writeback: --set: [device] preset = hdd-7200-sat: no such device preset: "
		"expected the name of a file NAME.ini in $WBSIM_PRESET_PATH, lib/block/presets "
		"or the installed share/wbsim/presets, or a path to a preset file "
		"(did you mean hdd-7200-sata?)\n");
	prog_clear(&r);
}

/*
 * A folder named like a bundled scenario, where the program runs or in
 * $WBSIM_SCENARIO_PATH, does not hide it; a FIFO there is named for what
 * it is (and not opened: the program would wait for a writer).
 */
static void test_not_regular(void **state)
{
	char *tmp = g_dir_make_tmp("wbsim-by-name-XXXXXX", NULL);
	g_autofree char *folder = g_build_filename(tmp, "validate-minimal", NULL);
	g_autofree char *folder_ini = g_build_filename(tmp, "validate-minimal.ini", NULL);
	g_autofree char *fifo = g_build_filename(tmp, "piped.ini", NULL);
	g_autofree char *want = NULL;
	struct prog r;

	(void)state;
	assert_int_equal(g_mkdir(folder, 0755), 0);
	assert_int_equal(g_mkdir(folder_ini, 0755), 0);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	g_setenv("WBSIM_SCENARIO_PATH", tmp, TRUE);

	r = run_in(tmp, "--parse-only", "validate-minimal", NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	prog_clear(&r);
	r = run_in(tmp, "--parse-only", "validate-minimal.ini", NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	prog_clear(&r);

	r = run("--parse-only", "piped");
	want = g_strdup_printf("sim-writeback: %s: not a regular file (a FIFO): "
			       "expected a scenario file\n", fifo);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, want);
	prog_clear(&r);

	g_unsetenv("WBSIM_SCENARIO_PATH");
	g_rmdir(folder);
	g_rmdir(folder_ini);
	tmpdir_remove(tmp);
}

/* A description holding an escape sequence is shown, not obeyed. */
static void test_list_escaped(void **state)
{
	char *tmp = g_dir_make_tmp("wbsim-by-name-XXXXXX", NULL);
	g_autofree char *file = g_build_filename(tmp, "evil.ini", NULL);
	g_autofree char *line = NULL;
	struct prog r;

	(void)state;
	assert_true(g_file_set_contents(file,
		"[scenario]\ndescription = \x1b]0;owned\x07title \x1b[2Jcleared\n", -1, NULL));
	g_setenv("WBSIM_SCENARIO_PATH", tmp, TRUE);
	r = run("--list-scenarios");
	g_unsetenv("WBSIM_SCENARIO_PATH");
	assert_int_equal(r.status, 0);
	line = g_strdup_printf("%-46s %s\n", "evil", "\\x1b]0;owned\\x07title \\x1b[2Jcleared");
	assert_non_null(strstr(r.out, line));
	assert_null(strchr(r.out, '\x1b'));
	assert_non_null(strstr(r.out, "\ne1-pmem-xfs-parallel "));
	prog_clear(&r);
	tmpdir_remove(tmp);
}

/* --list-trace-events: every tracepoint, one a line, as the library selects them. */
static void test_list_trace_events(void **state)
{
	g_autoptr(GError) e = NULL;
	g_auto(GStrv) names = wbsim_trace_events_select("writeback", &e);
	g_autofree char *joined = NULL, *want = NULL;
	struct prog r = run("--list-trace-events");

	(void)state;
	assert_non_null(names);
	joined = g_strjoinv("\n", names);
	want = g_strconcat(joined, "\n", NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, want);
	assert_non_null(strstr(r.out, "writeback_start\n"));
	assert_non_null(strstr(r.out, "balance_dirty_pages\n"));
	prog_clear(&r);
}

/* --help: the options in groups, in this order, then the exit status and examples. */
static void test_help_groups(void **state)
{
	static const char *const in_order[] = {
		"\nScenario options:\n", "  --set=SECTION.KEY=VALUE", "  --dump-config",
		"\nOutput options:\n", "  -o, --output=FILE", "  --trace-events=LIST",
		"\nSweep options:\n", "  --sweep=SECTION.KEY=VALUES", "  -j, --jobs=N",
		"\nInformation options:\n", "  -h, --help", "  -V, --version",
		"  --list-scenarios", "  --list-trace-events",
		"\nExit status: 0 on success, 2 for bad input or usage",
		"\nExamples:\n  $ sim-writeback e1-pmem-xfs-parallel\n",
	};
	struct prog r = run("--help");
	struct prog h = run("-h");
	const char *at;

	(void)state;
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	at = r.out;
	for (size_t i = 0; i < G_N_ELEMENTS(in_order); i++) {
		const char *found = strstr(at, in_order[i]);

		if (!found)
			fail_msg("--help: no '%s' after the previous item in:\n%s", in_order[i], r.out);
		at = found + strlen(in_order[i]);
	}
	/* no group hides behind --help-GROUP, none is left ungrouped */
	assert_null(strstr(r.out, "--help-all"));
	assert_null(strstr(r.out, "Application Options:"));
	assert_string_equal(h.out, r.out);
	prog_clear(&r);
	prog_clear(&h);

	r = run("--help-all");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "sim-writeback: Unknown option --help-all (try --help)\n");
	prog_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mistyped),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_list_escaped),
		cmocka_unit_test(test_list_trace_events),
		cmocka_unit_test(test_help_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
