/* SPDX-License-Identifier: MIT */
/*
 * test-bad-input.c - runs sim-writeback on every tests/bad-input/NAME.ini
 * (with the arguments listed one per line in NAME.args, if present, before
 * the file name) from inside tests/bad-input, and checks that it exits
 * with status 2, prints nothing on stdout, and prints exactly
 * NAME.expected on stderr.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <glib.h>

struct bad_case {
	char *name;
	char *dir;
	char *program;
};

static void run_case(void **state)
{
	struct bad_case *c = *state;
	g_autofree char *ini = g_strconcat(c->name, ".ini", NULL);
	g_autofree char *args_path = g_strdup_printf("%s/%s.args", c->dir, c->name);
	g_autofree char *exp_path = g_strdup_printf("%s/%s.expected", c->dir, c->name);
	g_autofree char *args_text = NULL, *expected = NULL;
	g_autofree char *out = NULL, *err = NULL;
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_auto(GStrv) extra = NULL;
	g_auto(GStrv) envp = NULL;
	g_autoptr(GError) e = NULL;
	int status = 0;

	g_ptr_array_add(argv, c->program);
	if (g_file_get_contents(args_path, &args_text, NULL, NULL)) {
		extra = g_strsplit(g_strchomp(args_text), "\n", -1);
		for (size_t i = 0; extra[i]; i++)
			g_ptr_array_add(argv, extra[i]);
	}
	g_ptr_array_add(argv, ini);
	g_ptr_array_add(argv, NULL);

	if (!g_file_get_contents(exp_path, &expected, NULL, &e))
		fail_msg("%s: %s", c->name, e->message);
	/* untranslated system messages, whatever the caller's locale */
	envp = g_environ_setenv(g_get_environ(), "LC_ALL", "C", TRUE);
	if (!g_spawn_sync(c->dir, (char **)argv->pdata, envp, 0, NULL, NULL,
			  &out, &err, &status, &e))
		fail_msg("%s: %s", c->name, e->message);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 2)
		fail_msg("%s: exit status %d, expected 2 (stderr: %s)", c->name,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, err);
	if (*out)
		fail_msg("%s: unexpected output on stdout: %s", c->name, out);
	if (strcmp(err, expected) != 0)
		fail_msg("%s: stderr differs\n  expected: %s  found:    %s",
			 c->name, expected, err);
}

static int cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *src = g_getenv("WBSIM_SOURCE_ROOT");
	const char *build = g_getenv("WBSIM_BUILD_ROOT");
	g_autofree char *dir = NULL, *program = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	struct CMUnitTest *tests;
	struct bad_case *cases;
	const char *entry;
	GDir *d;
	int rc;

	if (!src || !build) {
		fprintf(stderr, "WBSIM_SOURCE_ROOT and WBSIM_BUILD_ROOT must be set\n");
		return 1;
	}
	dir = g_build_filename(src, "tests", "bad-input", NULL);
	program = g_build_filename(build, "sim", "sim-writeback", NULL);
	d = g_dir_open(dir, 0, NULL);
	if (!d) {
		fprintf(stderr, "cannot open %s\n", dir);
		return 1;
	}
	while ((entry = g_dir_read_name(d)))
		if (g_str_has_suffix(entry, ".ini"))
			g_ptr_array_add(names, g_strndup(entry, strlen(entry) - 4));
	g_dir_close(d);
	/* readdir order is the filesystem's: sort for a stable report */
	g_ptr_array_sort(names, cmp_names);
	if (names->len < 40) {
		fprintf(stderr, "only %u cases in %s\n", names->len, dir);
		return 1;
	}

	tests = g_new0(struct CMUnitTest, names->len);
	cases = g_new0(struct bad_case, names->len);
	for (guint i = 0; i < names->len; i++) {
		cases[i].name = names->pdata[i];
		cases[i].dir = dir;
		cases[i].program = program;
		tests[i].name = cases[i].name;
		tests[i].test_func = run_case;
		tests[i].initial_state = &cases[i];
	}
	rc = _cmocka_run_group_tests("bad-input", tests, names->len, NULL, NULL);
	g_free(tests);
	g_free(cases);
	return rc;
}
