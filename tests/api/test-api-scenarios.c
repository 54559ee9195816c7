/* SPDX-License-Identifier: MIT */
/*
 * test-api-scenarios.c - bundled scenarios by name, as a program outside
 * the tree uses them (shared library, public headers only):
 * wbsim_scenario_find() with its messages (folders searched, "did you
 * mean"), a folder that does not hide the bundled scenario, a FIFO
 * refused unopened, the listing read from each file's head with control
 * characters escaped, a device preset's "did you mean", the total
 * bandwidth of the result summary as fio's group line computes it, and the
 * library's words for its parameters in its messages.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <glib/gstdio.h>
#include <wbsim/wbsim.h>

static const char *src_root(void)
{
	const char *s = g_getenv("WBSIM_SOURCE_ROOT");

	assert_non_null(s);
	return s;
}

/* The folders searched, as the messages list them. */
static char *dirs_text(void)
{
	g_auto(GStrv) dirs = wbsim_scenario_dirs();

	return g_strjoinv(", ", dirs);
}

/* wbsim_scenario_find(@name) is the bundled validate-minimal.ini. */
static void expect_bundled(const char *name)
{
	g_autoptr(GError) e = NULL;
	g_autofree char *want = g_build_filename(src_root(), "scenarios",
						 "validate-minimal.ini", NULL);
	g_autofree char *path = wbsim_scenario_find(name, &e);

	if (!path)
		fail_msg("%s: %s", name, e->message);
	assert_string_equal(path, want);
}

/* A program in the build tree: the source's scenarios/, then the install's. */
static void test_dirs(void **state)
{
	g_auto(GStrv) dirs = NULL;
	g_autofree char *source = g_build_filename(src_root(), "scenarios", NULL);

	(void)state;
	g_unsetenv("WBSIM_SCENARIO_PATH");
	dirs = wbsim_scenario_dirs();
	assert_non_null(dirs[0]);
	assert_string_equal(dirs[0], source);
	assert_non_null(dirs[1]);
	assert_true(g_str_has_suffix(dirs[1], "/wbsim/scenarios"));
	assert_null(dirs[2]);
	g_strfreev(dirs);

	g_setenv("WBSIM_SCENARIO_PATH", "/a::/b", TRUE);
	dirs = wbsim_scenario_dirs();
	assert_string_equal(dirs[0], "/a");
	assert_string_equal(dirs[1], "/b");
	assert_string_equal(dirs[2], source);
	g_unsetenv("WBSIM_SCENARIO_PATH");
}

static void test_find(void **state)
{
	g_autoptr(GError) e = NULL;
	g_autofree char *dirs = NULL;
	g_autofree char *msg = NULL;
	char *path;

	(void)state;
	g_unsetenv("WBSIM_SCENARIO_PATH");
	dirs = dirs_text();
	expect_bundled("validate-minimal");
	expect_bundled("validate-minimal.ini");
	/* a path is what the caller named, found or not (the loader says) */
	path = wbsim_scenario_find("no/such.ini", &e);
	assert_string_equal(path, "no/such.ini");
	g_free(path);

	/* a mistyped name: the folders searched and the nearest name */
	assert_null(wbsim_scenario_find("e1-pmem-xfs-paralel", &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_MISSING));
	msg = g_strdup_printf("no scenario e1-pmem-xfs-paralel: no such file, and no "
			      "e1-pmem-xfs-paralel.ini in %s (did you mean e1-pmem-xfs-parallel?)",
			      dirs);
	assert_string_equal(e->message, msg);
	g_clear_error(&e);
	g_free(msg);
	/* nothing near: no suggestion */
	assert_null(wbsim_scenario_find("zzz.ini", &e));
	msg = g_strdup_printf("no scenario zzz.ini: no such file, and no zzz.ini in %s", dirs);
	assert_string_equal(e->message, msg);
	g_clear_error(&e);

	assert_null(wbsim_scenario_find("", &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
	assert_string_equal(e->message, "an empty scenario name: expected a scenario file or the name of a bundled scenario");
	g_clear_error(&e);
	assert_null(wbsim_scenario_find(NULL, &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT));
}

/*
 * A folder named like the scenario, in the current directory or in a
 * folder of $WBSIM_SCENARIO_PATH, does not hide the bundled one; a FIFO
 * there is refused with what it is, and never opened (that would block).
 */
static void test_not_regular(void **state)
{
	g_autoptr(GError) e = NULL;
	g_autofree char *tmp = g_dir_make_tmp("wbsim-find-XXXXXX", NULL);
	g_autofree char *cwd = g_get_current_dir();
	g_autofree char *folder = g_build_filename(tmp, "validate-minimal", NULL);
	g_autofree char *folder_ini = g_build_filename(tmp, "validate-minimal.ini", NULL);
	g_autofree char *fifo = g_build_filename(tmp, "piped.ini", NULL);
	g_autofree char *msg = NULL;

	(void)state;
	assert_non_null(tmp);
	assert_int_equal(g_mkdir(folder, 0755), 0);
	assert_int_equal(g_mkdir(folder_ini, 0755), 0);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(chdir(tmp), 0);
	g_setenv("WBSIM_SCENARIO_PATH", tmp, TRUE);

	expect_bundled("validate-minimal");
	expect_bundled("validate-minimal.ini");

	assert_null(wbsim_scenario_find("piped", &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_IO));
	msg = g_strdup_printf("%s: not a regular file (a FIFO): expected a scenario file", fifo);
	assert_string_equal(e->message, msg);
	g_clear_error(&e);

	g_unsetenv("WBSIM_SCENARIO_PATH");
	assert_int_equal(chdir(cwd), 0);
	g_unlink(fifo);
	g_rmdir(folder_ini);
	g_rmdir(folder);
	g_rmdir(tmp);
}

/*
 * The listing: a description's escape sequence and C0/C1 controls as
 * \xNN; a description past the first 64 KiB is not read; a file of 4 GiB
 * (sparse) is listed at once, its head read alone.
 */
static void test_list(void **state)
{
	g_autofree char *tmp = g_dir_make_tmp("wbsim-list-XXXXXX", NULL);
	g_autofree char *esc = g_build_filename(tmp, "esc.ini", NULL);
	g_autofree char *far = g_build_filename(tmp, "far.ini", NULL);
	g_autofree char *huge = g_build_filename(tmp, "huge.ini", NULL);
	g_autofree char *list = NULL, *line = NULL;
	g_autoptr(GString) padding = g_string_new("[scenario]\n");
	const char *head = "[scenario]\ndescription = 4 GiB, mostly holes\n";
	int fd;

	(void)state;
	assert_true(g_file_set_contents(esc,
		"; a hostile description\n[scenario]\n"
		"description = \x1b[31mred\x1b[0m, a bell\x07, CSI \xc2\x9b and a lone \x9b byte\r\n",
		-1, NULL));
	while (padding->len < 70000)
		g_string_append(padding, "; padding padding padding padding padding padding\n");
	g_string_append(padding, "description = too far to be read\n");
	assert_true(g_file_set_contents(far, padding->str, -1, NULL));
	fd = open(huge, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, head, strlen(head)), (int)strlen(head));
	assert_int_equal(ftruncate(fd, (off_t)4 << 30), 0);
	close(fd);
	g_setenv("WBSIM_SCENARIO_PATH", tmp, TRUE);

	list = wbsim_scenario_list();
	line = g_strdup_printf("%-46s %s\n", "esc",
			       "\\x1b[31mred\\x1b[0m, a bell\\x07, CSI \\x9b and a lone \\x9b byte");
	assert_non_null(strstr(list, line));
	g_free(line);
	line = g_strdup_printf("%-46s \n", "far");
	assert_non_null(strstr(list, line));
	g_free(line);
	line = g_strdup_printf("%-46s %s\n", "huge", "4 GiB, mostly holes");
	assert_non_null(strstr(list, line));
	/* the bundled ones too, after the search path's, sorted */
	assert_non_null(strstr(list, "\nvalidate-minimal "));
	assert_true(strstr(list, "esc ") < strstr(list, "\nvalidate-minimal "));

	g_unsetenv("WBSIM_SCENARIO_PATH");
	g_unlink(esc);
	g_unlink(far);
	g_unlink(huge);
	g_rmdir(tmp);
}

/* A bundled scenario by name; a mistyped or piped device preset. */
static void test_load_by_name(void **state)
{
	g_autoptr(GError) e = NULL;
	g_autofree char *path = wbsim_scenario_find("validate-minimal", &e);
	g_autofree char *tmp = g_dir_make_tmp("wbsim-preset-XXXXXX", NULL);
	g_autofree char *fifo = g_build_filename(tmp, "piped.ini", NULL);
	g_autofree char *msg = NULL;
	const char *typo[] = { "device.preset=pmem-dram-6", NULL };
	const char *piped[] = { "device.preset=piped", NULL };
	wbsim_scenario *scn;

	(void)state;
	assert_non_null(path);
	scn = wbsim_scenario_load(path, NULL, &e);
	assert_non_null(scn);
	wbsim_scenario_free(scn);

	assert_null(wbsim_scenario_load(path, typo, &e));
	assert_string_equal(e->message,
		"override: [device] preset = pmem-dram-6: no such device preset: expected the "
		"name of a file NAME.ini in $WBSIM_PRESET_PATH, lib/block/presets or the "
		"installed share/wbsim/presets, or a path to a preset file "
		"(did you mean pmem-dram-6g?)");
	g_clear_error(&e);

	assert_int_equal(mkfifo(fifo, 0644), 0);
	g_setenv("WBSIM_PRESET_PATH", tmp, TRUE);
	assert_null(wbsim_scenario_load(path, piped, &e));
	msg = g_strdup_printf("override: [device] preset = piped: %s: not a regular file "
			      "(a FIFO): expected a device preset file", fifo);
	assert_string_equal(e->message, msg);
	g_unsetenv("WBSIM_PRESET_PATH");
	g_unlink(fifo);
	g_rmdir(tmp);
}

/*
 * Issue 39 item 5: the library's messages name its own parameters, where
 * sim-writeback says --set and --sweep: "override: " and
 * "wbsim_sweep_opts.sweeps: " stand where a file's "FILE:LINE: " would.
 * And a file that is no device preset is named with the scenario line
 * that named it.
 */
static void test_parameter_words(void **state)
{
	g_autofree char *tmp = g_dir_make_tmp("wbsim-words-XXXXXX", NULL);
	g_autofree char *conf = g_build_filename(tmp, "not-a-preset.conf", NULL);
	g_autofree char *scn = g_build_filename(tmp, "s.ini", NULL);
	g_autofree char *text = NULL, *want = NULL, *set = NULL;
	g_autoptr(GError) e = NULL;
	const char *bad_cpus[] = { "machine.cpus=zero", NULL };
	const char *no_dot[] = { "cpus=2", NULL };
	const char *sweep_set[] = { "sweep.vm.dirty_ratio=10,20", NULL };
	const char *twice[] = { "vm.dirty_ratio=10,20", "vm.dirty_ratio=30", NULL };
	const char *bad_point[] = { "writeback.contexts=1,0", NULL };
	const char *preset_set[2] = { NULL, NULL };
	wbsim_sweep_opts o = { 0 };

	(void)state;
	assert_true(g_file_set_contents(conf, "root:x:0:0:root:/root:/bin/sh\n", -1, NULL));
	text = g_strdup_printf("[device]\npreset = %s\n[fio:w]\nrw=write\nsize=1m\n", conf);
	assert_true(g_file_set_contents(scn, text, -1, NULL));

	/* both: the scenario's [device] preset line, and the file read */
	assert_null(wbsim_scenario_load(scn, NULL, &e));
	want = g_strdup_printf("%s:2: [device] preset = %s: %s:1: not a device preset: a line "
			       "before any section: expected a [device] section of key = value "
			       "lines", scn, conf, conf);
	assert_string_equal(e->message, want);
	g_clear_error(&e);
	/* named by an override: the override, and the file read */
	g_free(want);
	set = g_strdup_printf("device.preset=%s", conf);
	preset_set[0] = set;
	assert_true(g_file_set_contents(scn, "[fio:w]\nrw=write\nsize=1m\n", -1, NULL));
	assert_null(wbsim_scenario_load(scn, preset_set, &e));
	want = g_strdup_printf("override: [device] preset = %s: %s:1: not a device preset: a "
			       "line before any section: expected a [device] section of key = "
			       "value lines", conf, conf);
	assert_string_equal(e->message, want);
	g_clear_error(&e);

	assert_null(wbsim_scenario_load(scn, bad_cpus, &e));
	assert_string_equal(e->message,
		"override: [machine] cpus = zero: expected an integer from 1 to 4096");
	g_clear_error(&e);
	assert_null(wbsim_scenario_load(scn, no_dot, &e));
	assert_string_equal(e->message, "override: 'cpus=2': expected SECTION.KEY=VALUE");
	g_clear_error(&e);
	assert_null(wbsim_scenario_load(scn, sweep_set, &e));
	assert_string_equal(e->message,
		"override: 'sweep.vm.dirty_ratio=10,20': a sweep is given with "
		"wbsim_sweep_opts.sweeps KEY=VALUES");
	g_clear_error(&e);

	o.sweeps = twice;
	assert_null(wbsim_sweep_load(scn, &o, &e));
	assert_string_equal(e->message,
		"wbsim_sweep_opts.sweeps: vm.dirty_ratio = 30: vm.dirty_ratio is swept already "
		"(wbsim_sweep_opts.sweeps vm.dirty_ratio=10,20): expected each key once (all its "
		"values in one wbsim_sweep_opts.sweeps item)");
	g_clear_error(&e);
	o.sweeps = bad_point;
	assert_null(wbsim_sweep_load(scn, &o, &e));
	assert_string_equal(e->message,
		"sweep point 2/2 (writeback.contexts=0): wbsim_sweep_opts.sweeps: [writeback] "
		"contexts = 0: expected an integer from 1 to 4096, or one of: cpus, auto");
	g_unlink(conf);
	g_unlink(scn);
	g_rmdir(tmp);
}

/*
 * The summary's total: fio's group line, bytes * 1000 / the longest
 * runtime in whole ms, over two jobs of different sizes.
 */
static void test_total_bw(void **state)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("two");
	g_autoptr(GError) e = NULL;
	g_autoptr(wbsim_scenario) scn = NULL;
	g_autoptr(wbsim_result) r = NULL;
	const struct wbsim_result_summary *s;
	const struct wbsim_result_job *job;
	uint64_t bytes = 0, max_ms = 0;

	(void)state;
	assert_true(wbsim_scenario_builder_set(b, "machine.cpus", "2", NULL));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "a", "rw=write\nbs=64k\nsize=8m\n", NULL));
	assert_true(wbsim_scenario_builder_add_fio_job(b, "b", "rw=write\nbs=64k\nsize=4m\n", NULL));
	scn = wbsim_scenario_builder_build(b, &e);
	assert_non_null(scn);
	r = wbsim_run(scn, NULL, &e);
	assert_non_null(r);
	for (unsigned int j = 0; (job = wbsim_result_job(r, j)); j++) {
		bytes += job->bytes;
		max_ms = MAX(max_ms, job->runtime_ns / 1000000);
	}
	s = wbsim_result_summary(r);
	assert_int_equal(bytes, 12 << 20);
	assert_true(max_ms > 0);
	assert_int_equal(s->total_bytes, bytes);
	assert_int_equal(s->total_bw_bytes_per_s, bytes * 1000 / max_ms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirs),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_load_by_name),
		cmocka_unit_test(test_total_bw),
		cmocka_unit_test(test_parameter_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
