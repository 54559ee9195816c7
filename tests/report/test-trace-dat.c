/* SPDX-License-Identifier: MIT */
/*
 * test-trace-dat.c - report/trace-dat.h on records whose every byte is
 * known: written over hundreds of ring-buffer pages per CPU (many times
 * the pages a CPU holds in memory before they go to the spool), with short
 * and long records, equal times and gaps that need a time extend, and read
 * back by tests/report/trace-dat-read.c: every record present, on its CPU,
 * in order, at its time, byte for byte; the pid -> comm table; the same
 * file when written twice; with many CPUs (one page each in memory) too.
 * (Issue 39, item 1: trace.dat is no longer built in memory.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <wbsim/error.h>
#include "report/trace-dat.h"
#include "report/trace-format.h"
#include "trace-dat-read.h"

/* A record: the trace entry, a sequence number, then known bytes. */
struct rec {
	struct wbsim_trace_entry ent;
	uint32_t seq;
	guint8 body[200];
};

struct added {
	unsigned int cpu;
	uint64_t ts;
	size_t size;
	uint32_t seq;
};

static size_t make_rec(struct rec *r, uint32_t seq, unsigned int pid, size_t size)
{
	memset(r, 0, sizeof(*r));
	r->ent.type = (uint16_t)(1 + seq % 9);
	r->ent.pid = (int32_t)pid;
	r->seq = seq;
	for (size_t i = 0; i < sizeof(r->body); i++)
		r->body[i] = (guint8)(seq * 7 + i);
	return size;
}

/*
 * Add @n records on @cpus CPUs of a machine of @nr_cpus, write the file,
 * read it back and compare. Return the fewest pages a CPU with records
 * had.
 */
static guint round_trip(unsigned int nr_cpus, const unsigned int *cpus, unsigned int ncpus,
			unsigned int n)
{
	g_autofree char *dir = g_dir_make_tmp("wbsim-trace-dat-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "t.dat", NULL);
	g_autofree char *path2 = g_build_filename(dir, "t2.dat", NULL);
	g_autofree char *bin1 = NULL, *bin2 = NULL;
	g_autoptr(GError) e = NULL;
	g_autoptr(GRand) rng = g_rand_new_with_seed(39 + nr_cpus);
	g_autoptr(GArray) added = g_array_new(FALSE, FALSE, sizeof(struct added));
	uint64_t *now = g_new0(uint64_t, nr_cpus);
	struct wbsim_trace_dat *dat = wbsim_trace_dat_new(nr_cpus, 250, dir, &e);
	struct tdr_file f;
	guint fewest = G_MAXUINT;
	gsize len1 = 0, len2 = 0;
	FILE *out;

	assert_non_null(dat);
	for (uint32_t seq = 0; seq < n; seq++) {
		unsigned int cpu = cpus[g_rand_int_range(rng, 0, (gint32)ncpus)];
		int kind = g_rand_int_range(rng, 0, 100);
		struct rec r;
		/* short records (type_len 1..28), long ones (type_len 0) */
		size_t size = make_rec(&r, seq, 100 + cpu, kind < 20 ? 60 + seq % 150 : 8 + seq % 13);
		struct added a;

		/* equal times, small steps, and gaps beyond a 27-bit delta */
		now[cpu] += kind < 10 ? 0 : kind < 97 ? (uint64_t)g_rand_int_range(rng, 1, 100000)
						     : (UINT64_C(1) << 27) * (uint64_t)(kind - 95) + 12345;
		a = (struct added){ cpu, now[cpu], size, seq };
		g_array_append_val(added, a);
		wbsim_trace_dat_add(dat, now[cpu], cpu, 100 + cpu, cpu % 2 ? "fio" : "kworker/u8:1",
				    &r, size);
	}
	/* written twice: the same bytes (writing only reads) */
	out = fopen(path, "w");
	assert_non_null(out);
	assert_true(wbsim_trace_dat_write(dat, out, path, nr_cpus, NULL, &e));
	assert_int_equal(fclose(out), 0);
	out = fopen(path2, "w");
	assert_non_null(out);
	assert_true(wbsim_trace_dat_write(dat, out, path2, nr_cpus, NULL, &e));
	assert_int_equal(fclose(out), 0);
	wbsim_trace_dat_free(dat);
	assert_true(g_file_get_contents(path, &bin1, &len1, NULL));
	assert_true(g_file_get_contents(path2, &bin2, &len2, NULL));
	assert_int_equal(len1, len2);
	assert_memory_equal(bin1, bin2, len1);

	if (!tdr_open(path, &f, &e))
		fail_msg("%s", e->message);
	assert_int_equal(f.nr_cpus, nr_cpus);
	assert_int_equal(f.page_size, WBSIM_TRACE_DAT_PAGE_SIZE);
	assert_int_equal(g_hash_table_size(f.event_names), WBSIM_TRACE_NR_EVENTS);
	for (unsigned int c = 0; c < nr_cpus; c++) {
		guint pages = 0, k = 0;
		g_autoptr(GArray) ev = tdr_events(&f, c, &pages, &e);

		if (!ev)
			fail_msg("CPU %u: %s", c, e->message);
		for (guint i = 0; i < added->len; i++) {
			const struct added *a = &g_array_index(added, struct added, i);
			const struct tdr_event *t;
			struct rec r;

			if (a->cpu != c)
				continue;
			assert_true(k < ev->len);
			t = &g_array_index(ev, struct tdr_event, k++);
			make_rec(&r, a->seq, 100 + c, a->size);
			assert_int_equal(t->ts, a->ts);
			assert_int_equal(t->size, (a->size + 3) & ~(size_t)3);
			assert_memory_equal(t->data, &r, a->size);
			assert_int_equal(t->pid, 100 + c);
		}
		assert_int_equal(k, ev->len);	/* nothing more */
		if (k)
			fewest = MIN(fewest, pages);
		else
			assert_int_equal(pages, 0);
		if (k) {
			const char *comm = g_hash_table_lookup(f.comms, GUINT_TO_POINTER(100 + c));

			assert_non_null(comm);
			assert_string_equal(comm, c % 2 ? "fio" : "kworker/u8:1");
		}
	}
	tdr_close(&f);
	g_free(now);
	g_unlink(path);
	g_unlink(path2);
	assert_int_equal(g_rmdir(dir), 0);	/* the spool left nothing */
	return fewest;
}

/* Three CPUs of four, sixteen pages each in memory: hundreds of pages. */
static void test_many_pages(void **state)
{
	static const unsigned int cpus[] = { 0, 1, 3 };

	(void)state;
	assert_true(round_trip(4, cpus, G_N_ELEMENTS(cpus), 150000) > 300);
}

/* 400 CPUs: one page each in memory, every other one to the spool. */
static void test_many_cpus(void **state)
{
	static const unsigned int cpus[] = { 0, 7, 200, 399 };

	(void)state;
	assert_true(round_trip(400, cpus, G_N_ELEMENTS(cpus), 40000) > 40);
}

/* An empty trace: the header, every CPU empty. */
static void test_empty(void **state)
{
	(void)state;
	assert_int_equal(round_trip(2, NULL, 0, 0), G_MAXUINT);
}

/* No temporary file where asked: an error naming the directory. */
static void test_no_spool(void **state)
{
	g_autoptr(GError) e = NULL;

	(void)state;
	assert_null(wbsim_trace_dat_new(1, 250, "/nonexistent-dir", &e));
	assert_true(g_error_matches(e, WBSIM_ERROR, WBSIM_ERROR_IO));
	assert_string_equal(e->message, "trace.dat: its pages wait until the end in a temporary "
			    "file: /nonexistent-dir: cannot make a temporary file there: No such "
			    "file or directory: expected a directory where files can be made");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_pages),
		cmocka_unit_test(test_many_cpus),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_no_spool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
