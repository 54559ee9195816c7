/* SPDX-License-Identifier: MIT */
/*
 * test-spool.c - core/spool.h: streams kept in one unlinked temporary file
 * come back whole and in order, interleaved as they were written; a drained
 * stream is empty and its space given back; a directory where no file can
 * be made is an error naming it; the file leaves nothing behind (issue 39,
 * item 1: what a run writes at its end waits on disk, not in memory).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <wbsim/error.h>
#include "core/spool.h"

#define STREAMS 5

/* wbsim_spool_read_fn: the chunks appended to a GString, '\0' checked */
static gboolean collect(const void *data, size_t n, void *arg)
{
	assert_int_equal(((const char *)data)[n], '\0');
	g_string_append_len(arg, data, (gssize)n);
	return TRUE;
}

static gboolean stop_at_first(const void *data, size_t n, void *arg)
{
	(void)data;
	(void)n;
	(*(int *)arg)++;
	return FALSE;
}

/* The files in @dir. */
static guint entries(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	guint n = 0;

	assert_non_null(d);
	while (g_dir_read_name(d))
		n++;
	return n;
}

static void test_streams_in_order(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-spool-XXXXXX", NULL);
	g_autoptr(GError) e = NULL;
	struct wbsim_spool *sp = wbsim_spool_new(dir, &e);
	struct wbsim_spool_chain c[STREAMS] = { { 0 } };
	GString *want[STREAMS];
	g_autoptr(GRand) rng = g_rand_new_with_seed(39);
	int stops = 0;

	(void)state;
	assert_non_null(sp);
	assert_string_equal(wbsim_spool_dir(sp), dir);
	assert_int_equal(entries(dir), 0);	/* unlinked at once */
	for (int s = 0; s < STREAMS; s++)
		want[s] = g_string_new(NULL);
	/* chunks of 0 to 70,000 bytes, the streams interleaved at random */
	for (int i = 0; i < 600; i++) {
		int s = g_rand_int_range(rng, 0, STREAMS);
		size_t n = (size_t)g_rand_int_range(rng, 0, i % 50 ? 3000 : 70000);
		g_autofree char *chunk = g_malloc(n + 1);

		for (size_t k = 0; k < n; k++)
			chunk[k] = (char)('a' + (i + k) % 26);
		assert_true(wbsim_spool_append(sp, &c[s], chunk, n));
		g_string_append_len(want[s], chunk, (gssize)n);
		assert_int_equal(c[s].bytes, want[s]->len);
	}
	assert_int_equal(wbsim_spool_errno(sp), 0);
	for (int s = 0; s < STREAMS; s++) {
		g_autoptr(GString) got = g_string_new(NULL);

		assert_true(want[s]->len > 0);
		/* read twice: reading keeps the stream */
		for (int pass = 0; pass < 2; pass++) {
			g_string_truncate(got, 0);
			assert_int_equal(wbsim_spool_read(sp, &c[s], collect, got), 0);
			assert_int_equal(got->len, want[s]->len);
			assert_memory_equal(got->str, want[s]->str, got->len);
		}
		assert_int_equal(wbsim_spool_read(sp, &c[s], stop_at_first, &stops), -1);
		/* drained: read once more, then empty */
		g_string_truncate(got, 0);
		assert_int_equal(wbsim_spool_drain(sp, &c[s], collect, got), 0);
		assert_memory_equal(got->str, want[s]->str, got->len);
		assert_int_equal(c[s].bytes, 0);
		assert_int_equal(c[s].first, 0);
		g_string_truncate(got, 0);
		assert_int_equal(wbsim_spool_read(sp, &c[s], collect, got), 0);
		assert_int_equal(got->len, 0);
		/* a drained stream takes chunks again */
		assert_true(wbsim_spool_append(sp, &c[s], "again", 5));
		assert_int_equal(wbsim_spool_read(sp, &c[s], collect, got), 0);
		assert_string_equal(got->str, "again");
		g_string_free(want[s], TRUE);
	}
	assert_int_equal(stops, STREAMS);
	wbsim_spool_free(sp);
	assert_int_equal(entries(dir), 0);
	assert_int_equal(g_rmdir(dir), 0);
}

/* No directory: an error naming it, before anything is written. */
static void test_no_directory(void **state)
{
	g_autoptr(GError) e = NULL;

	(void)state;
	assert_null(wbsim_spool_new("/nonexistent-dir/x", &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_IO));
	assert_string_equal(e->message, "/nonexistent-dir/x: cannot make a temporary file there: "
			    "No such file or directory: expected a directory where files can be made");
}

/*
 * A write that fails (here the process's file size limit, as a full disk
 * would): the spool keeps its errno and takes nothing more, and the chain
 * holds every chunk before the failed one, whole.
 */
static void test_write_fails(void **state)
{
	g_autoptr(GError) e = NULL;
	g_autoptr(GString) got = g_string_new(NULL);
	g_autoptr(GString) want = g_string_new(NULL);
	struct wbsim_spool_chain c = { 0 };
	struct rlimit old, lim;
	struct wbsim_spool *sp;
	static char chunk[10000];
	int i;

	(void)state;
	memset(chunk, 'x', sizeof(chunk));
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_IGN);		/* EFBIG instead of the signal */
	sp = wbsim_spool_new(NULL, &e);
	assert_non_null(sp);
	lim = old;
	lim.rlim_cur = 1 << 20;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < 1000 && wbsim_spool_append(sp, &c, chunk, sizeof(chunk)); i++)
		g_string_append_len(want, chunk, sizeof(chunk));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_true(i > 50 && i < 1000);
	assert_int_equal(wbsim_spool_errno(sp), EFBIG);
	assert_false(wbsim_spool_append(sp, &c, "more", 4));
	assert_int_equal(c.bytes, want->len);
	assert_int_equal(wbsim_spool_read(sp, &c, collect, got), 0);
	assert_int_equal(got->len, want->len);
	assert_memory_equal(got->str, want->str, got->len);
	wbsim_spool_free(sp);
	signal(SIGXFSZ, SIG_DFL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streams_in_order),
		cmocka_unit_test(test_no_directory),
		cmocka_unit_test(test_write_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
