/* SPDX-License-Identifier: MIT */
/*
 * test-interrupt.c - SIGINT and SIGTERM to a running sim-writeback (issue
 * 38): the run stops at the simulated time reached, exits with fio's
 * status for it (128), says so on standard error with that time, and every
 * output is whole: the JSON report parses and has its jobs, the series'
 * last row has every column, trace.dat opens in trace-cmd (when
 * installed), the text trace ends with a whole line. A second signal ends
 * the program at once; a sweep starts no further point.
 *
 * The signal is sent once the series file has rows (the run is under way),
 * not after a blind sleep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "../sweep/sweep-prog.h"
#include "../report/trace-dat-read.h"

/* fio's exit status after SIGINT/SIGTERM (backend.c: sig_int(), exit_value = 128) */
#define FIO_EXIT_INTERRUPTED 128

/* One simulated hour of buffered writes: minutes of wall time, far more
 * than a test waits. */
static const char long_scenario[] =
	"[machine]\ncpus = 4\nmemory = 4g\n"
	"[device]\npreset = samsung-pm1733-3.84t\n"
	"[filesystem]\ntype = xfs\n"
	"[run]\ntime_limit = 1h\nseries_interval = 100ms\n"
	"[fio:global]\nioengine=psync\ntime_based\nruntime=1h\n"
	"[fio:w]\nrw=write\nbs=4k\nsize=256m\n";

/* The tracepoints the runs write: not the ones per folio dirtied
 * (writeback_dirty_folio, writeback_mark_inode_dirty), which in an hour of
 * writes at memory speed make gigabytes before the series' first rows. */
#define TRACED "global_dirty_state,balance_dirty_pages,writeback_start,writeback_written"

/*
 * Start sim-writeback with @args (NULL-terminated) in @dir, its standard
 * output and error in @dir/stdout and @dir/stderr; SIGINT and SIGTERM at
 * their default actions whatever the test runner's.
 */
static pid_t start(const char *dir, const char *const *args)
{
	g_autofree char *prog = built_program("sim-writeback");
	g_autofree char *out = g_build_filename(dir, "stdout", NULL);
	g_autofree char *err = g_build_filename(dir, "stderr", NULL);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	pid_t pid;

	g_ptr_array_add(argv, prog);
	for (size_t i = 0; args[i]; i++)
		g_ptr_array_add(argv, (char *)args[i]);
	g_ptr_array_add(argv, NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || chdir(dir) != 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execv(prog, (char **)argv->pdata);
		_exit(127);
	}
	return pid;
}

/* The number of '\n' in @path (0 when it does not exist yet). */
static size_t file_lines(const char *path)
{
	g_autofree char *text = NULL;

	return g_file_get_contents(path, &text, NULL, NULL) ? count_lines(text) : 0;
}

/*
 * Wait (at most five minutes: a sanitizer build on a busy machine takes
 * over one to write its first rows) until @path has @lines lines: the run
 * is under way. Fails if @pid ended first.
 */
static void wait_for_lines(pid_t pid, const char *path, size_t lines)
{
	for (int i = 0; i < 30000; i++) {
		int st;

		if (file_lines(path) >= lines)
			return;
		if (waitpid(pid, &st, WNOHANG) == pid)
			fail_msg("sim-writeback ended (status 0x%x) before %s had %zu lines", st, path,
				 lines);
		g_usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("%s: not %zu lines within five minutes", path, lines);
}

/* Wait for @pid; its raw wait status. */
static int reap(pid_t pid)
{
	int st = 0;

	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	return st;
}

static char *read_in(const char *dir, const char *name, gsize *len)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, len, NULL))
		fail_msg("cannot read %s", path);
	return text;
}

/* Fields of a CSV line without quoting (the series has none). */
static guint csv_fields(const char *line, size_t len)
{
	guint n = 1;

	for (size_t i = 0; i < len; i++)
		n += line[i] == ',';
	return n;
}

/*
 * The series CSV: whole lines only, the last with as many fields as the
 * header, of time @t_s (the stop). Return: its rows.
 */
static size_t assert_series_whole(const char *dir, double t_s)
{
	gsize len = 0;
	g_autofree char *csv = read_in(dir, "s.csv", &len);
	g_auto(GStrv) lines = NULL;
	guint n, head;

	assert_true(len > 0);
	assert_int_equal(csv[len - 1], '\n');
	csv[len - 1] = '\0';
	lines = g_strsplit(csv, "\n", -1);
	n = g_strv_length(lines);
	assert_true(n >= 3);
	assert_true(g_str_has_prefix(lines[0], "time_s,"));
	head = csv_fields(lines[0], strlen(lines[0]));
	for (guint i = 1; i < n; i++)
		assert_int_equal(csv_fields(lines[i], strlen(lines[i])), head);
	/* the last row is the state at the stop */
	assert_true(fabs(g_ascii_strtod(lines[n - 1], NULL) - t_s) < 1e-6);
	return n - 1;
}

/* "... interrupted at T s of simulated time ..." in @err: T. */
static double stop_time(const char *err, int sig, const char *name)
{
	g_autofree char *want = g_strdup_printf("sim-writeback: terminating on signal %d (%s): "
						"the run was interrupted at ", sig, name);
	const char *p = strstr(err, want);
	char *end = NULL;
	double t;

	if (!p)
		fail_msg("standard error does not say '%s': '%s'", want, err);
	t = g_ascii_strtod(p + strlen(want), &end);
	assert_true(end && g_str_has_prefix(end, " s of simulated time; the report and the output "
						 "files hold the time simulated so far\n"));
	assert_true(t > 0 && t < 3600);
	return t;
}

/* The trace.dat's last event time, from trace-cmd report (when installed). */
static void assert_trace_dat_opens(const char *dir, double t_s)
{
	gsize len = 0;
	g_autofree char *bin = read_in(dir, "t.dat", &len);
	g_autofree char *tool = g_find_program_in_path("trace-cmd");
	g_autofree char *dat = g_build_filename(dir, "t.dat", NULL);
	g_autofree char *report = NULL, *errs = NULL;
	g_autoptr(GError) e = NULL;
	g_auto(GStrv) lines = NULL;
	const char magic[] = "\x17\x08\x44tracing6";	/* and its '\0' */
	const char *last, *colon;
	guint n;
	int st = 0;

	assert_true(len > 4096);
	assert_memory_equal(bin, magic, sizeof(magic));
	assert_int_equal(len % 4096, 0);	/* whole ring-buffer pages */
	{	/* the tests' own reader: every page and event whole, in order */
		struct tdr_file f;
		guint total = 0;

		if (!tdr_open(dat, &f, &e))
			fail_msg("%s", e->message);
		assert_int_equal(f.nr_cpus, 4);
		for (unsigned int c = 0; c < f.nr_cpus; c++) {
			g_autoptr(GArray) ev = tdr_events(&f, c, NULL, &e);

			if (!ev)
				fail_msg("CPU %u: %s", c, e->message);
			for (guint i = 0; i < ev->len; i++)
				assert_true(g_array_index(ev, struct tdr_event, i).ts <=
					    (uint64_t)(t_s * 1e9 + 0.5));
			total += ev->len;
		}
		assert_true(total > 100);
		tdr_close(&f);
	}
	if (!tool) {
		print_message("trace-cmd not found (Debian package trace-cmd): trace.dat not read back\n");
		return;
	}
	{
		const char *argv[] = { tool, "report", dat, NULL };

		assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL, &report, &errs,
					 &st, &e));
	}
	assert_true(g_spawn_check_wait_status(st, NULL));
	assert_string_equal(errs, "");
	assert_true(g_str_has_prefix(report, "cpus=4\n"));
	g_strchomp(report);
	lines = g_strsplit(report, "\n", -1);
	n = g_strv_length(lines);
	assert_true(n > 100);
	/* "  fio-102   [000]   257.860306: global_dirty_state: ..." */
	last = strstr(lines[n - 1], "] ");
	assert_non_null(last);
	colon = strchr(last, ':');
	assert_non_null(colon);
	assert_true(g_ascii_strtod(last + 2, NULL) <= t_s + 1e-6);
	assert_true(g_ascii_strtod(last + 2, NULL) > 0);
}

/* The JSON report parses, has its job with I/O, and its note of the stop. */
static void assert_json_whole(const char *dir, double t_s)
{
	g_autofree char *path = g_build_filename(dir, "o.json", NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) e = NULL;
	g_autofree char *note = g_strdup_printf("the run was interrupted at %.9f s of simulated time: "
						"these are the results of the time simulated so far",
						t_s);
	JsonObject *root, *job, *write, *wbsim;
	JsonArray *jobs, *warnings;
	gboolean said = FALSE;

	if (!json_parser_load_from_file(parser, path, &e))
		fail_msg("%s: %s", path, e->message);
	root = json_node_get_object(json_parser_get_root(parser));
	assert_non_null(root);
	jobs = json_object_get_array_member(root, "jobs");
	assert_non_null(jobs);
	assert_int_equal(json_array_get_length(jobs), 1);
	job = json_array_get_object_element(jobs, 0);
	assert_string_equal(json_object_get_string_member(job, "jobname"), "w");
	write = json_object_get_object_member(job, "write");
	assert_true(json_object_get_int_member(write, "io_bytes") > 0);
	wbsim = json_object_get_object_member(root, "wbsim");
	assert_non_null(wbsim);
	warnings = json_object_get_array_member(wbsim, "warnings");
	assert_non_null(warnings);
	for (guint i = 0; i < json_array_get_length(warnings); i++)
		said |= strcmp(json_array_get_string_element(warnings, i), note) == 0;
	if (!said)
		fail_msg("the JSON's warnings do not say '%s'", note);
}

static char *make_dir_with_scenario(void)
{
	char *dir = g_dir_make_tmp("wbsim-interrupt-XXXXXX", NULL);
	g_autofree char *ini = g_build_filename(dir, "long.ini", NULL);

	assert_non_null(dir);
	assert_true(g_file_set_contents(ini, long_scenario, -1, NULL));
	return dir;
}

/*
 * Start sim-writeback in @dir with @args, wait until @watched has two
 * lines, send it @sig and wait for it: it must exit with fio's status for
 * an interrupted run. Returns its standard error (g_free()).
 */
static char *interrupt_run(const char *dir, const char *const *args, const char *watched,
			   int sig)
{
	pid_t pid = start(dir, args);
	char *err;
	int st;

	wait_for_lines(pid, watched, 2);
	assert_int_equal(kill(pid, sig), 0);
	st = reap(pid);
	err = read_in(dir, "stderr", NULL);
	if (!WIFEXITED(st))
		fail_msg("sim-writeback did not exit (status 0x%x); stderr: %s", st, err);
	assert_int_equal(WEXITSTATUS(st), FIO_EXIT_INTERRUPTED);
	return err;
}

/* SIGINT: JSON to -o, --series, --trace t.dat: all whole; status 128. */
static void test_sigint_outputs(void **state)
{
	g_autofree char *dir = make_dir_with_scenario();
	g_autofree char *series = g_build_filename(dir, "s.csv", NULL);
	g_autofree char *err = NULL, *out = NULL;
	const char *args[] = { "--no-wall-time", "--output-format=json", "-o", "o.json",
			       "--series", "s.csv", "--trace", "t.dat", "--trace-events", TRACED,
			       "long.ini", NULL };
	double t;

	(void)state;
	err = interrupt_run(dir, args, series, SIGINT);
	t = stop_time(err, SIGINT, "SIGINT");
	out = read_in(dir, "stdout", NULL);
	assert_string_equal(out, "");		/* the report went to -o */
	assert_json_whole(dir, t);
	assert_true(assert_series_whole(dir, t) > 10);
	assert_trace_dat_opens(dir, t);
	tmpdir_remove(g_steal_pointer(&dir));
}

/* SIGTERM: the text report on standard output, the text trace: whole. */
static void test_sigterm_text(void **state)
{
	g_autofree char *dir = make_dir_with_scenario();
	g_autofree char *series = g_build_filename(dir, "s.csv", NULL);
	g_autofree char *err = NULL, *out = NULL, *trace = NULL, *note = NULL;
	const char *args[] = { "--no-wall-time", "--series", "s.csv", "--trace", "t.txt",
			       "--trace-events", TRACED,
			       "long.ini", NULL };
	gsize len = 0;
	double t;

	(void)state;
	err = interrupt_run(dir, args, series, SIGTERM);
	t = stop_time(err, SIGTERM, "SIGTERM");
	/* fio's report of the partial run, and the note of the stop */
	out = read_in(dir, "stdout", NULL);
	assert_non_null(strstr(out, "w: (groupid=0, jobs=1): err= 0: pid="));
	assert_non_null(strstr(out, "Run status group 0 (all jobs):"));
	note = g_strdup_printf("  the run was interrupted at %.9f s of simulated time: "
			       "these are the results of the time simulated so far\n", t);
	assert_non_null(strstr(out, note));
	assert_true(assert_series_whole(dir, t) > 10);
	/* the text trace: whole lines, the last one of the stop's time at most */
	trace = read_in(dir, "t.txt", &len);
	assert_true(g_str_has_prefix(trace, "# tracer: nop\n"));
	assert_true(len > 0 && trace[len - 1] == '\n');
	{
		const char *last;

		trace[len - 1] = '\0';
		last = strrchr(trace, '\n') + 1;
		/* "  fio-102   [000] .....   257.860306: EVENT: fields" */
		assert_non_null(strstr(last, "] "));
		assert_non_null(strstr(last, ": "));
		assert_true(g_ascii_strtod(strstr(last, "] ") + 2, NULL) <= t + 1e-6);
	}
	tmpdir_remove(g_steal_pointer(&dir));
}

/*
 * A second signal ends the program at once: stopped, sent SIGINT then
 * SIGTERM, continued, it takes SIGINT first (the lower number), whose
 * handler gives both signals their default action back; SIGTERM, pending,
 * then kills it.
 */
static void test_second_signal(void **state)
{
	g_autofree char *dir = make_dir_with_scenario();
	g_autofree char *series = g_build_filename(dir, "s.csv", NULL);
	const char *args[] = { "--series", "s.csv", "-o", "o.txt", "long.ini", NULL };
	pid_t pid;
	int st;

	(void)state;
	pid = start(dir, args);
	wait_for_lines(pid, series, 2);
	assert_int_equal(kill(pid, SIGSTOP), 0);
	assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
	assert_true(WIFSTOPPED(st));
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(kill(pid, SIGCONT), 0);
	st = reap(pid);
	if (!WIFSIGNALED(st))
		fail_msg("sim-writeback was not killed by the second signal (status 0x%x)", st);
	assert_int_equal(WTERMSIG(st), SIGTERM);
	tmpdir_remove(g_steal_pointer(&dir));
}

/*
 * A sweep starts no further point: the point under way runs to its end and
 * is written, the CSV has the points done, standard error says how many.
 */
static void test_sweep(void **state)
{
	g_autofree char *dir = make_dir_with_scenario();
	g_autofree char *csv_path = g_build_filename(dir, "o.csv", NULL);
	g_autofree char *err = NULL, *csv = NULL, *want = NULL;
	const char *args[] = { "--jobs", "1", "--no-wall-time", "--set", "run.time_limit=40s",
			       "--sweep", "vm.dirty_ratio=10..40:2", "-o", "o.csv", "long.ini",
			       NULL };
	gsize len = 0;
	size_t rows;

	(void)state;
	/* two lines of o.csv: the header, the first point */
	err = interrupt_run(dir, args, csv_path, SIGINT);
	csv = read_in(dir, "o.csv", &len);
	assert_true(len > 0 && csv[len - 1] == '\n');
	rows = file_lines(csv_path) - 1;
	assert_true(rows >= 1 && rows < 16);
	want = g_strdup_printf("sim-writeback: terminating on signal 2 (SIGINT): the sweep stopped "
			       "after %zu of 16 points (the points under way ran to their end; no "
			       "further point was started)\n", rows);
	assert_string_equal(err, want);
	tmpdir_remove(g_steal_pointer(&dir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigint_outputs),
		cmocka_unit_test(test_sigterm_text),
		cmocka_unit_test(test_second_signal),
		cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
