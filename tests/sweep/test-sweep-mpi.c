/* SPDX-License-Identifier: MIT */
/*
 * test-sweep-mpi.c - sim-writeback-mpi under `mpirun --oversubscribe`
 * (the path of mpirun is the first argument): its CSV, JSON Lines and text
 * equal the local sim-writeback sweep byte for byte (with --no-wall-time),
 * with 1 and 3 ranks, with --repeat, and when it resumes a results file cut
 * in the middle of a line; a bad point gives sim-writeback's message once,
 * from rank 0, and exit status 2.
 *
 * Open MPI refuses to run as root unless told: the environment variables
 * below are its documented way (CI runs as root).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sweep-prog.h"

static const char *mpirun;
static char *tmpdir;

static int setup(void **state)
{
	const char *asan = g_getenv("ASAN_OPTIONS");

	(void)state;
	g_setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", TRUE);
	g_setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", TRUE);
	/*
	 * Sanitizer build: Open MPI's own allocations in MPI_Init_thread() and
	 * MPI_Finalize() are suppressed (mpi-lsan.supp); the slow unwinder
	 * reaches those frames through Open MPI's code, the fast one does not.
	 */
	if (asan) {
		g_autofree char *opts = g_strconcat(asan, ":fast_unwind_on_malloc=0", NULL);
		g_autofree char *supp = g_build_filename(g_getenv("WBSIM_SOURCE_ROOT"),
							 "tests/sweep/mpi-lsan.supp", NULL);
		g_autofree char *lsan = g_strconcat("suppressions=", supp, NULL);

		g_setenv("ASAN_OPTIONS", opts, TRUE);
		g_setenv("LSAN_OPTIONS", lsan, TRUE);
	}
	tmpdir = g_dir_make_tmp("wbsim-sweep-mpi-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	tmpdir_remove(tmpdir);
	return 0;
}

/*
 * Run @args (NULL-terminated) with sim-writeback (@ranks 0) or with
 * sim-writeback-mpi on @ranks ranks.
 */
static struct prog run(int ranks, const char *const *args)
{
	g_autofree char *local = built_program("sim-writeback");
	g_autofree char *mpi = built_program("sim-writeback-mpi");
	g_autofree char *np = g_strdup_printf("%d", ranks);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	if (ranks) {
		g_ptr_array_add(argv, (char *)mpirun);
		g_ptr_array_add(argv, "--oversubscribe");
		g_ptr_array_add(argv, "-np");
		g_ptr_array_add(argv, np);
		g_ptr_array_add(argv, mpi);
	} else {
		g_ptr_array_add(argv, local);
	}
	for (size_t i = 0; args[i]; i++)
		g_ptr_array_add(argv, (char *)args[i]);
	g_ptr_array_add(argv, NULL);
	return prog_spawn((const char *const *)argv->pdata);
}

/*
 * The local sweep and the MPI sweep print the same bytes: on 3 ranks, and
 * on 1 too (rank 0 alone) if @one.
 */
static void assert_same(const char *const *args, gboolean one)
{
	struct prog local = run(0, args);

	assert_int_equal(local.status, 0);
	assert_true(strlen(local.out) > 0);
	for (int ranks = one ? 1 : 3; ranks <= 3; ranks += 2) {
		struct prog mpi = run(ranks, args);

		if (mpi.status != 0)
			fail_msg("%d ranks: status %d: %s", ranks, mpi.status, mpi.err);
		assert_string_equal(mpi.out, local.out);
		prog_clear(&mpi);
	}
	prog_clear(&local);
}

static void test_formats(void **state)
{
	static const char *const formats[] = {
		"--output-format=csv", "--output-format=json", "--output-format=text",
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++) {
		const char *args[] = {
			"--no-wall-time", formats[i], "--sweep", "writeback.contexts=1..3",
			"--sweep", "vm.dirty_ratio=10,30", "tests/sweep/data/random.ini", NULL
		};

		assert_same(args, i == 0);
	}
}

/* A [sweep] section, and --repeat's summaries. */
static void test_section_and_repeat(void **state)
{
	g_autofree char *random = g_build_filename(g_getenv("WBSIM_SOURCE_ROOT"),
						   "tests/sweep/data/random.ini", NULL);
	g_autofree char *text = g_strdup_printf(
		"[scenario]\ninclude = %s\n[sweep]\nwriteback.contexts = 1..4\n", random);
	g_autofree char *scn = g_build_filename(tmpdir, "section.ini", NULL);
	const char *section[] = { "--no-wall-time", scn, NULL };
	const char *repeat[] = {
		"--no-wall-time", "--repeat", "3", "--output-format=json",
		"--sweep", "writeback.contexts=1,2", "tests/sweep/data/random.ini", NULL
	};

	(void)state;
	assert_true(g_file_set_contents(scn, text, -1, NULL));
	assert_same(section, FALSE);
	assert_same(repeat, FALSE);
}

/* A results file cut in the middle of a line resumes under MPI. */
static void test_resume(void **state)
{
	g_autofree char *res = g_build_filename(tmpdir, "mpi.jsonl", NULL);
	const char *plain[] = {
		"--no-wall-time", "--sweep", "writeback.contexts=1..3",
		"--sweep", "vm.dirty_ratio=10,30", "tests/sweep/data/random.ini", NULL
	};
	const char *with_results[] = {
		"--no-wall-time", "--results", res, "--sweep", "writeback.contexts=1..3",
		"--sweep", "vm.dirty_ratio=10,30", "tests/sweep/data/random.ini", NULL
	};
	struct prog local = run(0, plain);
	struct prog first = run(3, with_results);
	struct prog resumed;
	g_autofree char *text = NULL;

	(void)state;
	assert_int_equal(local.status, 0);
	assert_int_equal(first.status, 0);
	assert_string_equal(first.out, local.out);
	text = read_text(res);
	assert_int_equal(count_lines(text), 7);
	cut_results(res, 4);
	resumed = run(3, with_results);
	assert_int_equal(resumed.status, 0);
	assert_string_equal(resumed.out, local.out);
	g_free(text);
	text = read_text(res);
	assert_int_equal(count_lines(text), 7);
	prog_clear(&local);
	prog_clear(&first);
	prog_clear(&resumed);
}

/* Bad input: sim-writeback's message, once, from rank 0; exit status 2. */
static void test_errors(void **state)
{
	const char *bad_point[] = {
		"--sweep", "writeback.contexts=0,1", "tests/sweep/data/random.ini", NULL
	};
	const char *bad_format[] = {
		"--output-format=xml", "--sweep", "writeback.contexts=1,2",
		"tests/sweep/data/random.ini", NULL
	};
	const char *const *cases[] = { bad_point, bad_format };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct prog local = run(0, cases[i]);
		struct prog mpi = run(3, cases[i]);
		const char *msg = local.err + strlen("sim-writeback: ");
		g_autofree char *want = g_strconcat("sim-writeback-mpi: ", msg, NULL);
		const char *first;

		assert_int_equal(local.status, 2);
		assert_true(g_str_has_prefix(local.err, "sim-writeback: "));
		assert_int_equal(mpi.status, 2);
		assert_string_equal(mpi.out, "");
		/* the message once: mpirun may add its own notice after it */
		first = strstr(mpi.err, want);
		if (!first)
			fail_msg("expected '%s' in '%s'", want, mpi.err);
		assert_null(strstr(first + strlen(want), msg));
		prog_clear(&local);
		prog_clear(&mpi);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_section_and_repeat),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_errors),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s MPIRUN\n", argv[0]);
		return 2;
	}
	mpirun = argv[1];
	return cmocka_run_group_tests(tests, setup, teardown);
}
