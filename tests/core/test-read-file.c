/* SPDX-License-Identifier: MIT */
/*
 * test-read-file.c - wbsim_read_file(): regular files only, never a wait
 * on a FIFO, never more than the limit (issue 21, cause 3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include "core/read-file.h"

static char *tmpdir;

static int setup(void **state)
{
	(void)state;
	tmpdir = g_dir_make_tmp("wbsim-read-file-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	g_autoptr(GDir) d = g_dir_open(tmpdir, 0, NULL);
	const char *n;

	(void)state;
	while (d && (n = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(tmpdir, n, NULL);

		g_unlink(p);
	}
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return 0;
}

static void test_regular(void **state)
{
	g_autofree char *p = g_build_filename(tmpdir, "a.ini", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) e = NULL;
	gsize len = 0;

	(void)state;
	assert_true(g_file_set_contents(p, "[machine]\ncpus = 2\n", -1, NULL));
	assert_true(wbsim_read_file(p, 1024, &text, &len, &e));
	assert_int_equal(len, 19);
	assert_string_equal(text, "[machine]\ncpus = 2\n");
}

static void test_too_large(void **state)
{
	g_autofree char *p = g_build_filename(tmpdir, "big.ini", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) e = NULL;

	(void)state;
	assert_true(g_file_set_contents(p, "0123456789abcdef", -1, NULL));
	assert_false(wbsim_read_file(p, 10, &text, NULL, &e));
	assert_true(g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_FAILED));
	assert_string_equal(e->message, "16 bytes: expected a file of at most 10 bytes");
	assert_null(text);
}

static void test_fifo(void **state)
{
	g_autofree char *p = g_build_filename(tmpdir, "fifo", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) e = NULL;

	(void)state;
	assert_int_equal(mkfifo(p, 0600), 0);
	/* no writer: a blocking open would never return */
	assert_false(wbsim_read_file(p, 1024, &text, NULL, &e));
	assert_true(g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_INVAL));
	assert_string_equal(e->message, "not a regular file (a FIFO): expected a regular file");
}

static void test_device(void **state)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) e = NULL;

	(void)state;
	/* endless: g_file_get_contents() reads it until memory runs out */
	assert_false(wbsim_read_file("/dev/zero", 1024, &text, NULL, &e));
	assert_string_equal(e->message,
			    "not a regular file (a character device): expected a regular file");
}

static void test_directory(void **state)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) e = NULL;

	(void)state;
	assert_false(wbsim_read_file(tmpdir, 1024, &text, NULL, &e));
	assert_true(g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_ISDIR));
}

static void test_missing(void **state)
{
	g_autofree char *p = g_build_filename(tmpdir, "none.ini", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) e = NULL;

	(void)state;
	assert_false(wbsim_read_file(p, 1024, &text, NULL, &e));
	assert_true(g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_NOENT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
