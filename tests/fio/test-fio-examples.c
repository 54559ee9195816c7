/* SPDX-License-Identifier: MIT */
/*
 * test-fio-examples.c - real job files: every example fio ships
 * (/usr/share/doc/fio/examples, Debian's fio-examples; .fio or .fio.gz)
 * either loads or is refused with a message naming the file, a line and an
 * option; the tally is printed and pinned. The five workloads of the
 * experiments (tests/fio/data, copies of shared/workloads) load with
 * the exact values the experiments need.
 *
 * Exits 77 (skip) only when the examples directory is missing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include <gio/gio.h>
#include "fio-test-util.h"
#include "fio/fio-options.h"

#define EXAMPLES_DIR "/usr/share/doc/fio/examples"
#define KB 1024ULL
#define SEC 1000000000ULL

/* The pinned tally for Debian 12's fio-examples 3.33. */
#define EXPECT_FILES 86
#define EXPECT_LOADED 9
#define EXPECT_REFUSED 77
#define EXPECT_JOBS 52		/* jobs of the loaded files, after numjobs */
#define EXPECT_WARNINGS 12

/* The refusals grouped by error kind and the option named. */
static const struct {
	const char *key;
	unsigned int n;
} expect_reasons[] = {
	{ "unsupported bsrange", 1 },
	{ "unsupported bssplit", 3 },
	{ "unsupported fill_device", 1 },
	{ "unsupported exitall", 2 },
	{ "unsupported flow", 2 },
	{ "unsupported ioengine", 47 },
	{ "unsupported latency_target", 1 },
	{ "unsupported random_distribution", 1 },
	{ "unsupported rate_iops", 2 },
	{ "unsupported rw", 9 },
	{ "unsupported ss_dur", 1 },
	{ "unsupported wait_for", 1 },
	{ "unsupported zonemode", 6 },
};

/* Read a file, gunzipping *.gz through GIO. */
static char *read_maybe_gz(const char *path, gsize *len)
{
	g_autoptr(GFile) file = g_file_new_for_path(path);
	g_autoptr(GInputStream) in = NULL;
	g_autoptr(GOutputStream) out = NULL;
	g_autoptr(GError) err = NULL;

	in = G_INPUT_STREAM(g_file_read(file, NULL, &err));
	if (!in)
		fail_msg("%s: %s", path, err->message);
	if (g_str_has_suffix(path, ".gz")) {
		g_autoptr(GZlibDecompressor) z =
			g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP);
		GInputStream *conv = g_converter_input_stream_new(in, G_CONVERTER(z));

		g_object_unref(in);
		in = conv;
	}
	out = g_memory_output_stream_new_resizable();
	if (g_output_stream_splice(out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
				   NULL, &err) < 0)
		fail_msg("%s: %s", path, err->message);
	/* the stream's data is not NUL-terminated: copy it into a string */
	*len = g_memory_output_stream_get_data_size(G_MEMORY_OUTPUT_STREAM(out));
	return g_strndup(g_memory_output_stream_get_data(G_MEMORY_OUTPUT_STREAM(out)),
			 *len);
}

static gint str_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The option a refusal names: 'opt' (unsupported), <opt...> (bad option),
 * "parsing opt=" (bad value) or "Option opt " (missing argument).
 */
static char *named_option(const char *msg)
{
	static const char *const pat[] = {
		"fio option '([^']+)'", "Bad option <([^=>]+)",
		"failed parsing ([^=]+)=", "Option ([^ ]+) requires",
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(pat); i++) {
		g_autoptr(GRegex) re = g_regex_new(pat[i], 0, 0, NULL);
		g_autoptr(GMatchInfo) mi = NULL;

		if (g_regex_match(re, msg, 0, &mi))
			return g_match_info_fetch(mi, 1);
	}
	return NULL;
}

static void test_fio_examples(void **state)
{
	g_autoptr(GDir) dir = g_dir_open(EXAMPLES_DIR, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) reasons =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GPtrArray) keys = NULL;
	unsigned int loaded = 0, refused = 0, jobs = 0, warnings = 0;
	const char *name;
	guint i;

	assert_non_null(dir);
	while ((name = g_dir_read_name(dir)))
		if (g_str_has_suffix(name, ".fio") || g_str_has_suffix(name, ".fio.gz"))
			g_ptr_array_add(names, g_strdup(name));
	g_ptr_array_sort(names, str_cmp);	/* readdir order is not stable */

	for (i = 0; i < names->len; i++) {
		g_autofree char *path = g_build_filename(EXAMPLES_DIR, names->pdata[i], NULL);
		g_autofree char *display = g_strdup(path);
		g_autofree char *text = NULL, *prefix = NULL, *opt = NULL, *key = NULL;
		struct wbsim_fio_file *f = NULL;
		GError *err = NULL;
		gsize len;

		if (g_str_has_suffix(display, ".gz"))
			display[strlen(display) - 3] = '\0';
		text = read_maybe_gz(path, &len);
		if (wbsim_fio_parse_string(text, len, display, EXAMPLES_DIR,
					   &test_env_e1, &f, &err)) {
			loaded++;
			jobs += f->jobs->len;
			warnings += f->warnings->len;
			printf("loaded  %s: %u jobs, %u warnings\n",
			       (char *)names->pdata[i], f->jobs->len, f->warnings->len);
			assert_true(f->jobs->len > 0);
			wbsim_fio_file_free(f);
			continue;
		}
		refused++;
		assert_true(err->domain == WBSIM_ERROR);
		/* "FILE:LINE: ..." with a line number > 0 ... */
		prefix = g_strdup_printf("%s:", display);
		assert_true(g_str_has_prefix(err->message, prefix));
		assert_true(g_ascii_isdigit(err->message[strlen(prefix)]));
		assert_true(atoi(err->message + strlen(prefix)) > 0);
		/* ... and an option fio knows, or the unknown one */
		opt = named_option(err->message);
		if (!opt)
			fail_msg("no option named in: %s", err->message);
		if (!strstr(text, opt))
			fail_msg("%s is not in the file: %s", opt, err->message);
		key = g_strdup_printf("%s %s",
				      err->code == WBSIM_ERROR_UNSUPPORTED ? "unsupported" :
				      err->code == WBSIM_ERROR_UNKNOWN_KEY ? "bad-option" :
				      err->code == WBSIM_ERROR_INVALID_VALUE ? "bad-value" : "other",
				      opt);
		g_hash_table_replace(reasons, g_strdup(key),
				     GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(reasons, key)) + 1));
		printf("refused %s: %s\n", (char *)names->pdata[i], err->message);
		g_error_free(err);
	}

	printf("tally: %u files, %u loaded (%u jobs, %u warnings), %u refused\n",
	       names->len, loaded, jobs, warnings, refused);
	keys = g_ptr_array_new();
	{
		g_autoptr(GList) l = g_hash_table_get_keys(reasons);
		GList *it;

		for (it = l; it; it = it->next)
			g_ptr_array_add(keys, it->data);
	}
	g_ptr_array_sort(keys, str_cmp);
	for (i = 0; i < keys->len; i++)
		printf("  refused %-32s %u\n", (char *)keys->pdata[i],
		       GPOINTER_TO_UINT(g_hash_table_lookup(reasons, keys->pdata[i])));

	assert_int_equal(names->len, EXPECT_FILES);
	assert_int_equal(loaded, EXPECT_LOADED);
	assert_int_equal(refused, EXPECT_REFUSED);
	assert_int_equal(jobs, EXPECT_JOBS);
	assert_int_equal(warnings, EXPECT_WARNINGS);
	assert_int_equal(keys->len, G_N_ELEMENTS(expect_reasons));
	for (i = 0; i < G_N_ELEMENTS(expect_reasons); i++)
		assert_int_equal(GPOINTER_TO_UINT(g_hash_table_lookup(reasons,
								       expect_reasons[i].key)),
				 expect_reasons[i].n);
}

static struct wbsim_fio_file *load_workload(const char *name)
{
	const char *root = g_getenv("WBSIM_SOURCE_ROOT");
	g_autofree char *path = NULL;
	struct wbsim_fio_file *f = NULL;
	GError *err = NULL;

	assert_non_null(root);
	path = g_build_filename(root, "tests", "fio", "data", name, NULL);
	if (!wbsim_fio_parse_file(path, &test_env_e1, &f, &err))
		fail_msg("%s", err->message);
	assert_int_equal(f->warnings->len, 0);
	return f;
}

/* Common to the E1/E4/E5 workloads: buffered 4k io_uring at QD 1024, 60 s. */
static void check_headline(struct wbsim_fio_job *j, enum wbsim_fio_rw rw)
{
	assert_string_equal(j->name, "test");
	assert_int_equal(j->rw, rw);
	assert_int_equal(j->bs[WBSIM_FIO_DDIR_WRITE], 4096);
	assert_int_equal(j->iodepth, 1024);
	assert_string_equal(j->ioengine, "io_uring");
	assert_true(j->time_based);
	assert_int_equal(j->runtime_ns, 60 * SEC);
	assert_int_equal(j->size, 450 * KB * KB);
	assert_false(j->direct);
	assert_true(j->group_reporting);
	assert_string_equal(j->directory, "/mnt");
	assert_null(j->filename);
	assert_int_equal(j->nrfiles, 1);
	assert_int_equal(j->fallocate, WBSIM_FIO_FALLOCATE_NATIVE);
	assert_false(j->create_on_open);
	assert_true(j->invalidate);
	assert_int_equal(j->group_id, 0);
}

static void test_workloads(void **state)
{
	struct wbsim_fio_file *f;
	guint i;

	f = load_workload("pr-randwrite-12jobs.fio");
	assert_int_equal(f->jobs->len, 12);
	for (i = 0; i < 12; i++) {
		check_headline(fio_job(f, i), WBSIM_FIO_RANDWRITE);
		assert_int_equal(fio_job(f, i)->clone, i);
		assert_int_equal(fio_job(f, i)->numjobs, 12);
	}
	wbsim_fio_file_free(f);

	f = load_workload("pr-seqwrite-12jobs.fio");
	assert_int_equal(f->jobs->len, 12);
	for (i = 0; i < 12; i++)
		check_headline(fio_job(f, i), WBSIM_FIO_WRITE);
	wbsim_fio_file_free(f);

	f = load_workload("f2fs-mobile-8jobs.fio");
	assert_int_equal(f->jobs->len, 8);
	for (i = 0; i < 8; i++) {
		check_headline(fio_job(f, i), WBSIM_FIO_RANDWRITE);
		assert_int_equal(fio_job(f, i)->numjobs, 8);
	}
	wbsim_fio_file_free(f);

	f = load_workload("frag-1g-randwrite.fio");
	assert_int_equal(f->jobs->len, 1);
	{
		struct wbsim_fio_job *j = fio_job(f, 0);

		assert_string_equal(j->name, "test");
		assert_string_equal(j->filename, "/mnt/testfile");
		assert_null(j->directory);
		assert_int_equal(j->bs[WBSIM_FIO_DDIR_WRITE], 4096);
		assert_int_equal(j->iodepth, 1024);
		assert_int_equal(j->rw, WBSIM_FIO_RANDWRITE);
		assert_string_equal(j->ioengine, "io_uring");
		assert_int_equal(j->fallocate, WBSIM_FIO_FALLOCATE_NONE);
		assert_int_equal(j->numjobs, 1);
		assert_int_equal(j->size, KB * KB * KB);
		assert_false(j->direct);
		assert_false(j->time_based);
		assert_int_equal(j->runtime_ns, 0);
		assert_true(j->group_reporting);
		assert_int_equal(j->options->len, 10);
	}
	wbsim_fio_file_free(f);

	f = load_workload("nrwb-sweep-12dirs.fio");
	assert_int_equal(f->jobs->len, 12);
	for (i = 0; i < 12; i++) {
		struct wbsim_fio_job *j = fio_job(f, i);
		g_autofree char *sec = g_strdup_printf("job%u", i + 1);
		g_autofree char *dir = g_strdup_printf("/mnt/dir%u", i + 1);

		/* name=test in [global] does not rename the jobs (fio get_new_job()) */
		assert_string_equal(j->name, sec);
		assert_string_equal(j->directory, dir);
		assert_int_equal(j->bs[WBSIM_FIO_DDIR_WRITE], 4096);
		assert_int_equal(j->iodepth, 1);
		assert_int_equal(j->rw, WBSIM_FIO_RANDWRITE);
		assert_string_equal(j->ioengine, "io_uring");
		assert_int_equal(j->nrfiles, 12);
		assert_int_equal(j->numjobs, 1);
		assert_int_equal(j->size, KB * KB * KB);
		assert_false(j->direct);
		assert_true(j->group_reporting);
		assert_true(j->create_on_open);
		assert_int_equal(j->fallocate, WBSIM_FIO_FALLOCATE_NATIVE);
		assert_false(j->time_based);
		assert_int_equal(j->group_id, 0);
		assert_int_equal(j->clone, 0);
		assert_int_equal(j->line, 16 + 2 * i);
	}
	assert_int_equal(f->global_options->len, 11);
	wbsim_fio_file_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_examples),
		cmocka_unit_test(test_workloads),
	};

	if (!g_file_test(EXAMPLES_DIR, G_FILE_TEST_IS_DIR)) {
		printf("skip: %s is missing (install fio-examples)\n", EXAMPLES_DIR);
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
