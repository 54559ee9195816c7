/* SPDX-License-Identifier: MIT */
/*
 * test-fio-random.c - the model's random offsets are fio's: for each job
 * file of tests/fio/data/randoffsets, the jobs' writes as the model draws
 * them (wbsim_job_next_block(), file after file, a new pass where a map is
 * full) equal fio 3.33's, recorded by regenerate.sh there: the first
 * writes one by one, all of them through a SHA-256 of their lines, and
 * the writes that extend their file (the running maxima), whose count and
 * places decide the extents a filesystem makes. The test reads the
 * recorded data; it never runs fio.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdio.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include "fio-test-util.h"
#include "core/sim.h"
#include "fio/fio-random.h"
#include "fio/job.h"

/* What regenerate.sh recorded for one job (one thread of fio's). */
struct ref_job {
	char *prefix;		/* its files' names up to the file number */
	uint64_t count;		/* its writes */
	char *sha256;		/* of all its "FILE 0xOFFSET\n" lines */
	GPtrArray *first;	/* char *: its first lines, "FILE 0xOFFSET" */
	GPtrArray *max;		/* char *: "FILE INDEX 0xOFFSET" per new maximum */
};

static void ref_job_free(gpointer data)
{
	struct ref_job *r = data;

	g_free(r->prefix);
	g_free(r->sha256);
	g_ptr_array_unref(r->first);
	g_ptr_array_unref(r->max);
	g_free(r);
}

static char *data_path(const char *name)
{
	const char *root = g_getenv("WBSIM_SOURCE_ROOT");

	assert_non_null(root);
	return g_build_filename(root, "tests", "fio", "data", "randoffsets", name, NULL);
}

/* The job whose files start with @prefix. */
static struct ref_job *ref_find(GPtrArray *refs, const char *prefix)
{
	for (guint i = 0; i < refs->len; i++) {
		struct ref_job *r = refs->pdata[i];

		if (strcmp(r->prefix, prefix) == 0)
			return r;
	}
	return NULL;
}

/* The job of a "FILE ..." line: FILE without its last ".N". */
static char *prefix_of(const char *line)
{
	const char *sp = strchr(line, ' ');
	g_autofree char *file = g_strndup(line, sp ? (gsize)(sp - line) : strlen(line));
	char *dot = strrchr(file, '.');

	if (dot)
		*dot = '\0';
	return g_strdup(file);
}

static GPtrArray *ref_load(const char *name, char **version)
{
	g_autofree char *path = data_path(name);
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) lines = NULL;
	GPtrArray *refs = g_ptr_array_new_with_free_func(ref_job_free);

	if (!g_file_get_contents(path, &text, NULL, &err))
		fail_msg("%s: %s (run tests/fio/data/randoffsets/regenerate.sh)", path,
			 err->message);
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (g_str_has_prefix(l, "fio ")) {
			*version = g_strdup(l + 4);
		} else if (g_str_has_prefix(l, "job ")) {
			g_auto(GStrv) w = g_strsplit(l, " ", -1);
			struct ref_job *r = g_new0(struct ref_job, 1);

			assert_int_equal(g_strv_length(w), 4);
			r->prefix = g_strdup(w[1]);
			r->count = g_ascii_strtoull(w[2], NULL, 10);
			r->sha256 = g_strdup(w[3]);
			r->first = g_ptr_array_new_with_free_func(g_free);
			r->max = g_ptr_array_new_with_free_func(g_free);
			g_ptr_array_add(refs, r);
		} else if (g_str_has_prefix(l, "io ") || g_str_has_prefix(l, "max ")) {
			gboolean io = l[0] == 'i';
			const char *rest = l + (io ? 3 : 4);
			g_autofree char *prefix = prefix_of(rest);
			struct ref_job *r = ref_find(refs, prefix);

			if (!r)
				fail_msg("%s:%u: no job line for %s", name, i + 1, prefix);
			g_ptr_array_add(io ? r->first : r->max, g_strdup(rest));
		}
	}
	assert_true(refs->len > 0);
	return refs;
}

/* The model's writes of one job, as the data records fio's. */
struct model_job {
	char *prefix;
	uint64_t count;
	GChecksum *sha;
	GPtrArray *first;
	GPtrArray *max;
	uint64_t *file_max;	/* per file: the highest offset + 1 so far */
};

/*
 * Draw @count blocks of @job as job.c's write loop asks for them: one
 * write per file in turn; a file whose pass is over starts a new one
 * (wbsim_job_pass_over()), unless the job ends there. Each write is also
 * checked against wbsim_job_peek_next_block(), asked just before.
 */
static void model_run(struct wbsim_job *job, uint64_t count, guint nfirst, struct model_job *out)
{
	const struct wbsim_fio_job *fio = job->fio;
	bool last_stops = !fio->time_based && fio->loops <= 1 && !fio->io_size;
	uint64_t n = 0;

	out->sha = g_checksum_new(G_CHECKSUM_SHA256);
	out->first = g_ptr_array_new_with_free_func(g_free);
	out->max = g_ptr_array_new_with_free_func(g_free);
	out->file_max = g_new0(uint64_t, job->nr_files);
	while (n < count) {
		struct wbsim_job_file *f = &job->files[job->cur_file];
		g_autofree char *base = g_path_get_basename(f->path);
		uint64_t peek = wbsim_job_peek_next_block(job, f);
		bool busy = peek != UINT64_MAX && (f->randmap[peek / 64] >> (peek % 64)) & 1;
		uint64_t b = wbsim_job_next_block(job, f);
		uint64_t off;
		char line[256];

		if (b == UINT64_MAX) {
			if (last_stops)
				break;
			wbsim_job_new_pass(job, f);
			continue;
		}
		/* the peek names the draw: the block, unless written already */
		if (peek != UINT64_MAX && !busy && peek != b)
			fail_msg("%s: peeked block %" PRIu64 ", drew %" PRIu64, base, peek, b);
		off = f->offset + b * job->bs;
		g_snprintf(line, sizeof(line), "%s 0x%" PRIx64, base, off);
		g_checksum_update(out->sha, (const guchar *)line, -1);
		g_checksum_update(out->sha, (const guchar *)"\n", 1);
		if (n < nfirst)
			g_ptr_array_add(out->first, g_strdup(line));
		if (off + 1 > out->file_max[job->cur_file]) {
			out->file_max[job->cur_file] = off + 1;
			g_ptr_array_add(out->max, g_strdup_printf("%s %" PRIu64 " 0x%" PRIx64,
								  base, n, off));
		}
		job->cur_file = (job->cur_file + 1) % job->nr_files;
		n++;
	}
	out->count = n;
}

static void model_job_clear(struct model_job *m)
{
	g_free(m->prefix);
	g_checksum_free(m->sha);
	g_ptr_array_unref(m->first);
	g_ptr_array_unref(m->max);
	g_free(m->file_max);
}

/* Every job of @name.fio drawn by the model equals fio's record of it. */
static void check_case(const char *name)
{
	g_autofree char *fio_name = g_strconcat(name, ".fio", NULL);
	g_autofree char *ref_name = g_strconcat(name, ".offsets", NULL);
	g_autofree char *fio_path = data_path(fio_name);
	g_autofree char *version = NULL;
	g_autoptr(GPtrArray) refs = ref_load(ref_name, &version);
	g_autoptr(GError) err = NULL;
	g_autoptr(wbsim_sim) sim = wbsim_sim_new(1);
	struct wbsim_machine m = { .sim = sim };
	struct wbsim_fio_file *file = NULL;

	/* the data is fio 3.33's, the release wbsim follows */
	assert_non_null(version);
	assert_string_equal(version, "fio-3.33");
	if (!wbsim_fio_parse_file(fio_path, &test_env_e1, &file, &err))
		fail_msg("%s", err->message);
	assert_int_equal(file->jobs->len, refs->len);
	for (guint j = 0; j < file->jobs->len; j++) {
		const struct wbsim_fio_job *fio = file->jobs->pdata[j];
		struct wbsim_job job;
		struct model_job got = { 0 };
		g_autofree char *path0 = NULL, *base0 = NULL, *prefix = NULL;
		const struct ref_job *ref;

		if (!wbsim_job_setup(&job, &m, fio, j, &err))
			fail_msg("%s: %s", name, err->message);
		path0 = g_strdup(job.files[0].path);
		base0 = g_path_get_basename(path0);
		prefix = prefix_of(base0);
		ref = ref_find(refs, prefix);
		if (!ref)
			fail_msg("%s: fio recorded no job writing %s", name, base0);
		model_run(&job, ref->count, ref->first->len, &got);
		/* the first writes one by one, for a readable failure */
		for (guint i = 0; i < ref->first->len; i++) {
			if (i >= got.first->len)
				fail_msg("%s: job %s: the model ends after %u writes, fio has %" PRIu64,
					 name, prefix, got.first->len, ref->count);
			if (strcmp(got.first->pdata[i], ref->first->pdata[i]) != 0)
				fail_msg("%s: job %s: write %u: model '%s', fio '%s'", name, prefix, i,
					 (char *)got.first->pdata[i], (char *)ref->first->pdata[i]);
		}
		if (got.count != ref->count)
			fail_msg("%s: job %s: the model ends after %" PRIu64 " writes, fio has %" PRIu64,
				 name, prefix, got.count, ref->count);
		/* then all of them */
		if (strcmp(g_checksum_get_string(got.sha), ref->sha256) != 0)
			fail_msg("%s: job %s: the model's %" PRIu64 " writes differ from fio's after the first %u",
				 name, prefix, ref->count, ref->first->len);
		/* the writes that extend their file: the same, at the same places */
		assert_int_equal(got.max->len, ref->max->len);
		for (guint i = 0; i < ref->max->len; i++)
			assert_string_equal(got.max->pdata[i], ref->max->pdata[i]);
		model_job_clear(&got);
		wbsim_job_clear(&job);
	}
	wbsim_fio_file_free(file);
}

static void test_randwrite_1g(void **state)
{
	(void)state;
	check_case("randwrite-1g");
}

/*
 * The record structure of bs=4k size=1g (the lab's random-write file):
 * the writes that extend the file, the running maxima of fio's sequence.
 * fio scales one sequence to the file's blocks, so that a 256 MiB, a 1 GiB
 * and a 2 GiB file have their first records at the same writes, a larger
 * file adding records where a smaller one had ties. Taken from the data
 * (the count included) and compared with the model's by check_case().
 */
static void test_running_maxima(void **state)
{
	static const char *const sizes[] = { "randwrite-256m", "randwrite-1g", "randwrite-2g" };
	GPtrArray *refs[G_N_ELEMENTS(sizes)];

	(void)state;
	for (guint s = 0; s < G_N_ELEMENTS(sizes); s++) {
		g_autofree char *name = g_strconcat(sizes[s], ".offsets", NULL);
		g_autofree char *v = NULL;

		refs[s] = ref_load(name, &v);
		check_case(sizes[s]);
	}
	for (guint s = 1; s < G_N_ELEMENTS(sizes); s++) {
		const struct ref_job *small = refs[s - 1]->pdata[0];
		const struct ref_job *large = refs[s]->pdata[0];

		assert_true(small->max->len > 1);
		assert_true(small->max->len <= large->max->len);
		for (guint i = 0; i < small->max->len; i++) {
			g_auto(GStrv) a = g_strsplit(small->max->pdata[i], " ", -1);
			g_auto(GStrv) b = g_strsplit(large->max->pdata[i], " ", -1);

			/* the same write of the sequence */
			assert_string_equal(a[1], b[1]);
		}
	}
	for (guint s = 0; s < G_N_ELEMENTS(sizes); s++)
		g_ptr_array_unref(refs[s]);
}

static void test_bs16k(void **state)
{
	(void)state;
	check_case("bs16k");
}

static void test_clones(void **state)
{
	(void)state;
	check_case("numjobs2");
	check_case("numjobs3");
	check_case("offset-increment");
}

static void test_sections(void **state)
{
	(void)state;
	check_case("sections");
}

static void test_seeds(void **state)
{
	(void)state;
	check_case("randseed");
	check_case("randseed-norepeat");
	check_case("allrandrepeat");
	check_case("tausworthe64");
}

static void test_norandommap(void **state)
{
	(void)state;
	check_case("norandommap");
}

static void test_nrfiles(void **state)
{
	(void)state;
	check_case("nrfiles2");
}

/* loops (reseeded, or not with randseed=), io_size= beyond the file, and a
 * time_based job going round its file */
static void test_passes(void **state)
{
	(void)state;
	check_case("loops");
	check_case("randseed-loops");
	check_case("loops-libaio");
	check_case("norandommap-loops");
	check_case("io-size");
	check_case("time-based");
}

/* The seed of a job's offsets, by fio's rules (init.c), and the switch to
 * the 64-bit generator (filesetup.c check_rand_gen_limits()). */
static void test_seed_derivation(void **state)
{
	struct wbsim_fio_job fio = { .randrepeat = TRUE, .randseed = 0x89, .thread_number = 3 };

	(void)state;
	/* randrepeat=1: 0xb1899bed x thread number */
	assert_true(wbsim_fio_offset_seed(&fio, 42) == UINT64_C(0xb1899bed) * 3);
	/* randseed=N: N x 0x9e370001^10 x thread number + 6, but not in the
	 * first clone while randrepeat=1: fio seeded it before randseed=
	 * cleared randrepeat */
	fio.randseed = 1234;
	fio.randseed_set = TRUE;
	assert_true(wbsim_fio_offset_seed(&fio, 42) == UINT64_C(0xb1899bed) * 3);
	assert_false(wbsim_fio_rand_repeatable(&fio));
	fio.clone = 1;
	{
		uint64_t want = 1234;

		for (int i = 0; i < 10; i++)
			want *= UINT64_C(0x9e370001);
		assert_true(wbsim_fio_offset_seed(&fio, 42) == want * 3 + 6);
	}
	/* allrandrepeat=1 wins over randseed= */
	fio.allrandrepeat = TRUE;
	assert_true(wbsim_fio_offset_seed(&fio, 42) == UINT64_C(0xb1899bed) * 3 + 6);
	/* randrepeat=0 alone: the system's entropy, here the simulation's seed */
	fio = (struct wbsim_fio_job){ .thread_number = 3 };
	assert_true(wbsim_fio_rand_from_entropy(&fio));
	assert_true(wbsim_fio_offset_seed(&fio, 42) == 42);
	/* more than 2^32 - 1 blocks: tausworthe64, unless asked for by name */
	assert_true(wbsim_fio_rand_switches_to_64(&fio, UINT64_C(1) << 32));
	assert_false(wbsim_fio_rand_switches_to_64(&fio, UINT32_MAX));
	fio.random_generator_set = TRUE;
	assert_false(wbsim_fio_rand_switches_to_64(&fio, UINT64_C(1) << 32));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_derivation),
		cmocka_unit_test(test_randwrite_1g),
		cmocka_unit_test(test_running_maxima),
		cmocka_unit_test(test_bs16k),
		cmocka_unit_test(test_clones),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_norandommap),
		cmocka_unit_test(test_nrfiles),
		cmocka_unit_test(test_passes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
