/* SPDX-License-Identifier: MIT */
/*
 * test-fio-values.c - fio's value syntax: size suffixes under kb_base,
 * times, the arithmetic evaluator, ${VAR} and keyword substitution, and
 * the edit distance behind "Did you mean".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "core/edit-distance.h"
#include "fio/fio-value.h"
#include "fio/fio-options.h"

static int64_t size_ok(const char *s, unsigned int kb_base)
{
	char *why = NULL;
	int64_t v = -1;

	if (!wbsim_fio_parse_size(s, kb_base, FALSE, &v, NULL, &why))
		fail_msg("'%s' failed: %s", s, why);
	return v;
}

static char *size_err(const char *s)
{
	char *why = NULL;
	int64_t v;

	assert_false(wbsim_fio_parse_size(s, 1024, FALSE, &v, NULL, &why));
	assert_non_null(why);
	return why;
}

static void test_sizes(void **state)
{
	int64_t v;
	gboolean pct;
	char *why = NULL;

	/* kb_base=1024: k is 1024 and the IEC KiB is 1000 (fio's inversion) */
	assert_int_equal(size_ok("4k", 1024), 4096);
	assert_int_equal(size_ok("4K", 1024), 4096);
	assert_int_equal(size_ok("4kb", 1024), 4096);
	assert_int_equal(size_ok("4KB", 1024), 4096);
	assert_int_equal(size_ok("4KiB", 1024), 4000);
	assert_int_equal(size_ok("450M", 1024), 471859200);
	assert_int_equal(size_ok("1g", 1024), 1073741824);
	assert_int_equal(size_ok("1G", 1024), 1073741824);
	assert_int_equal(size_ok("10G", 1024), 10737418240LL);
	assert_int_equal(size_ok("2t", 1024), 2199023255552LL);
	assert_int_equal(size_ok("1p", 1024), 1125899906842624LL);
	assert_int_equal(size_ok("1MiB", 1024), 1000000);
	/* kb_base=1000: prefixes mean what they say */
	assert_int_equal(size_ok("4k", 1000), 4000);
	assert_int_equal(size_ok("4KiB", 1000), 4096);
	assert_int_equal(size_ok("1gib", 1000), 1073741824);
	/* plain, b, hex */
	assert_int_equal(size_ok("4096", 1024), 4096);
	assert_int_equal(size_ok("512b", 1024), 512);
	assert_int_equal(size_ok("0x1000", 1024), 4096);
	assert_int_equal(size_ok("0x10k", 1024), 16384);
	/* parenthesised: k = 1024, KiB = 1000 whatever kb_base says */
	assert_int_equal(size_ok("(1+2)*1g", 1000), 3221225472LL);
	assert_int_equal(size_ok("(4KiB)", 1000), 4000);
	assert_int_equal(size_ok("(2^10)*4k", 1024), 4194304);

	/* percentages */
	assert_true(wbsim_fio_parse_size("20%", 1024, FALSE, &v, &pct, &why));
	assert_true(pct);
	assert_int_equal(v, 20);
	g_free(size_err("20%"));	/* not allowed without a percent slot */
	assert_false(wbsim_fio_parse_size("120%", 1024, FALSE, &v, &pct, &why));
	assert_non_null(strstr(why, "at most 100%"));
	g_clear_pointer(&why, g_free);

	/* signed only where allowed */
	assert_true(wbsim_fio_parse_size("-5", 1024, TRUE, &v, NULL, &why));
	assert_int_equal(v, -5);

	why = size_err("4kq");
	assert_non_null(strstr(why, "unknown suffix 'kq'"));
	g_free(why);
	why = size_err("1.5g");
	assert_non_null(strstr(why, "expected an integer"));
	g_free(why);
	why = size_err("");
	assert_non_null(strstr(why, "empty value"));
	g_free(why);
	why = size_err("-5");
	g_free(why);
	why = size_err("16p*1k");
	g_free(why);
	why = size_err("9999999999999999999");
	assert_non_null(strstr(why, "64 bits"));
	g_free(why);
	why = size_err("16384p");
	assert_non_null(strstr(why, "overflows"));
	g_free(why);
}

static void test_times(void **state)
{
	uint64_t us;
	char *why = NULL;

	assert_true(wbsim_fio_parse_time("60", TRUE, &us, &why));
	assert_int_equal(us, 60000000);
	assert_true(wbsim_fio_parse_time("60", FALSE, &us, &why));
	assert_int_equal(us, 60);
	assert_true(wbsim_fio_parse_time("2m", TRUE, &us, &why));
	assert_int_equal(us, 120000000);
	assert_true(wbsim_fio_parse_time("1h", FALSE, &us, &why));
	assert_int_equal(us, 3600000000ULL);
	assert_true(wbsim_fio_parse_time("1d", TRUE, &us, &why));
	assert_int_equal(us, 86400000000ULL);
	assert_true(wbsim_fio_parse_time("10s", FALSE, &us, &why));
	assert_int_equal(us, 10000000);
	assert_true(wbsim_fio_parse_time("250ms", TRUE, &us, &why));
	assert_int_equal(us, 250000);
	assert_true(wbsim_fio_parse_time("3msec", TRUE, &us, &why));
	assert_int_equal(us, 3000);
	assert_true(wbsim_fio_parse_time("7us", TRUE, &us, &why));
	assert_int_equal(us, 7);
	assert_true(wbsim_fio_parse_time("7USEC", TRUE, &us, &why));
	assert_int_equal(us, 7);
	/* parenthesised times: bare numbers are microseconds */
	assert_true(wbsim_fio_parse_time("(2*3)", TRUE, &us, &why));
	assert_int_equal(us, 6);
	assert_true(wbsim_fio_parse_time("(1s+500ms)", TRUE, &us, &why));
	assert_int_equal(us, 1500000);

	assert_false(wbsim_fio_parse_time("5x", TRUE, &us, &why));
	assert_non_null(strstr(why, "unknown time suffix 'x'"));
	g_clear_pointer(&why, g_free);
	assert_false(wbsim_fio_parse_time("", TRUE, &us, &why));
	g_clear_pointer(&why, g_free);
}

static int64_t eval_ok(const char *s, enum wbsim_fio_expr_mode mode)
{
	char *why = NULL;
	int64_t v = 0;

	if (!wbsim_fio_eval(s, mode, &v, &why))
		fail_msg("'%s' failed: %s", s, why);
	return v;
}

static char *eval_err(const char *s)
{
	char *why = NULL;
	int64_t v;

	assert_false(wbsim_fio_eval(s, WBSIM_FIO_EXPR_PLAIN, &v, &why));
	assert_non_null(why);
	return why;
}

static void test_eval(void **state)
{
	const enum wbsim_fio_expr_mode P = WBSIM_FIO_EXPR_PLAIN;
	char *why;

	assert_int_equal(eval_ok("1+2*3", P), 7);
	assert_int_equal(eval_ok("(1+2)*3", P), 9);
	assert_int_equal(eval_ok("10-4-3", P), 3);		/* left-assoc */
	assert_int_equal(eval_ok("100/10/5", P), 2);
	assert_int_equal(eval_ok("7/2", P), 3);			/* bc truncates */
	assert_int_equal(eval_ok("-7/2", P), -3);
	assert_int_equal(eval_ok("17%5", P), 2);
	assert_int_equal(eval_ok("2^3^2", P), 512);		/* right-assoc */
	assert_int_equal(eval_ok("2*3^2", P), 18);
	assert_int_equal(eval_ok("-2^2", P), 4);		/* unary binds tighter */
	assert_int_equal(eval_ok(" 12 * 2 ", P), 24);
	assert_int_equal(eval_ok("0x10+1", P), 17);
	assert_int_equal(eval_ok("2^62+(2^62-1)", P), INT64_MAX);
	assert_int_equal(eval_ok("1k+1", WBSIM_FIO_EXPR_BYTES), 1025);
	assert_int_equal(eval_ok("1m/4k", WBSIM_FIO_EXPR_BYTES), 256);
	assert_int_equal(eval_ok("1MiB", WBSIM_FIO_EXPR_BYTES), 1000000);
	assert_int_equal(eval_ok("1h-1m", WBSIM_FIO_EXPR_TIME), 3540000000LL);

	why = eval_err("2^63");
	assert_non_null(strstr(why, "overflows"));
	g_free(why);
	why = eval_err("4611686018427387904*2");
	assert_non_null(strstr(why, "overflows"));
	g_free(why);
	why = eval_err("9223372036854775807+1");
	assert_non_null(strstr(why, "overflows"));
	g_free(why);
	why = eval_err("-9223372036854775807-2");
	assert_non_null(strstr(why, "overflows"));
	g_free(why);
	why = eval_err("1/0");
	assert_string_equal(why, "division by zero");
	g_free(why);
	why = eval_err("1%0");
	assert_string_equal(why, "division by zero");
	g_free(why);
	why = eval_err("2^-1");
	assert_non_null(strstr(why, "negative exponent"));
	g_free(why);
	why = eval_err("(1+2");
	assert_non_null(strstr(why, "missing ')'"));
	g_free(why);
	why = eval_err("1+");
	assert_non_null(strstr(why, "expected a number"));
	g_free(why);
	why = eval_err("2 3");
	assert_non_null(strstr(why, "unexpected '3'"));
	g_free(why);
	why = eval_err("4k*2");		/* bc knows no suffixes */
	assert_non_null(strstr(why, "unexpected 'k'"));
	g_free(why);
	why = eval_err("1.5*2");
	assert_non_null(strstr(why, "fractional"));
	g_free(why);
}

static void test_uint(void **state)
{
	uint64_t v;
	char *why = NULL;

	assert_true(wbsim_fio_parse_uint("1", &v, &why));
	assert_int_equal(v, 1);
	assert_true(wbsim_fio_parse_uint("0x1f", &v, &why));
	assert_int_equal(v, 31);
	assert_false(wbsim_fio_parse_uint("yes", &v, &why));
	assert_string_equal(why, "expected an integer (decimal or 0x hex)");
	g_clear_pointer(&why, g_free);
	assert_false(wbsim_fio_parse_uint("1k", &v, &why));
	g_clear_pointer(&why, g_free);
	assert_false(wbsim_fio_parse_uint("-1", &v, &why));
	g_clear_pointer(&why, g_free);
}

static void test_subst(void **state)
{
	const struct wbsim_fio_env env = { .ncpus = 12, .mb_memory = 16384,
					   .pagesize = 4096 };
	gboolean replaced;
	char *s;

	g_setenv("WBSIM_TEST_BS", "64k", TRUE);
	g_unsetenv("WBSIM_TEST_UNSET");
	s = wbsim_fio_subst_env("bs${WBSIM_TEST_BS}-${WBSIM_TEST_UNSET}x${}y${open");
	/* as fio: "${}" names the empty variable and vanishes; "${open" stays */
	assert_string_equal(s, "bs64k-xy${open");
	g_free(s);

	s = wbsim_fio_subst_keywords("$ncpus*2", &env, &replaced);
	assert_true(replaced);
	assert_string_equal(s, "12*2");
	g_free(s);
	s = wbsim_fio_subst_keywords("$mb_memory/$pagesize+$ncpus$ncpus", &env,
				     &replaced);
	assert_string_equal(s, "16384/4096+1212");
	g_free(s);
	s = wbsim_fio_subst_keywords("4k", &env, &replaced);
	assert_false(replaced);
	assert_string_equal(s, "4k");
	g_free(s);
}

static void test_distance(void **state)
{
	/* fio's string_distance(): Levenshtein, a swap costs two edits */
	assert_int_equal(wbsim_edit_distance("group_reportin", "group_reporting", false), 1);
	assert_int_equal(wbsim_edit_distance("runtmie", "runtime", false), 2);
	assert_string_equal(wbsim_fio_option_closest("group_reportin"), "group_reporting");
	assert_string_equal(wbsim_fio_option_closest("end_fsnc"), "end_fsync");
	assert_string_equal(wbsim_fio_option_closest("runtme"), "runtime");
	assert_null(wbsim_fio_option_closest("zzzzzzzzzzzzzzzzzzzzzz"));
}

static void test_table(void **state)
{
	const struct wbsim_fio_optdesc *t;
	const char *why;
	guint n, i, j;

	t = wbsim_fio_options(&n);
	assert_true(n >= 240);
	/* names and aliases are unique across the table */
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			assert_string_not_equal(t[i].name, t[j].name);
			if (t[j].alias)
				assert_string_not_equal(t[i].name, t[j].alias);
			if (t[i].alias)
				assert_string_not_equal(t[i].alias, t[j].name);
		}
		/* every warned or refused option says why */
		if (t[i].disp == WBSIM_FIO_WARN || t[i].disp == WBSIM_FIO_REFUSE)
			assert_non_null(t[i].why);
	}
	assert_ptr_equal(wbsim_fio_option_find("blocksize"), wbsim_fio_option_find("bs"));
	assert_ptr_equal(wbsim_fio_option_find("readwrite"), wbsim_fio_option_find("rw"));
	assert_ptr_equal(wbsim_fio_option_find("wait_for_previous"),
			 wbsim_fio_option_find("stonewall"));
	assert_null(wbsim_fio_option_find("BS"));	/* case-sensitive, as fio */
	assert_int_equal(wbsim_fio_option_find("kb_base")->prio, 1);
	assert_int_equal(wbsim_fio_option_find("filename")->prio, -1);
	assert_non_null(wbsim_fio_engine_option_find("io_uring", "sqthread_poll"));
	assert_null(wbsim_fio_engine_option_find("psync", "sqthread_poll"));
	assert_int_equal(wbsim_fio_engine_lookup("io_uring", &why), WBSIM_FIO_ENGINE_MODELLED);
	assert_int_equal(wbsim_fio_engine_lookup("net", &why), WBSIM_FIO_ENGINE_REFUSED);
	assert_non_null(why);
	assert_int_equal(wbsim_fio_engine_lookup("external:/x.so", &why), WBSIM_FIO_ENGINE_REFUSED);
	assert_int_equal(wbsim_fio_engine_lookup("nosuch", &why), WBSIM_FIO_ENGINE_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_subst),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
