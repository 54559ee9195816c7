/* SPDX-License-Identifier: MIT */
/*
 * test-param.c - the one unit grammar (core/param.c, scenarios/README.md
 * "Units"): exact values of sizes, rates, times and counts under every
 * suffix, and the reason given for each kind of bad value (overflow,
 * negative, fraction, IEC suffix, a time without a unit, garbage); the
 * kinds of the scenario keys (percent, centiseconds, names of a list or a
 * registry, file names, words of a number, zero besides a range), their
 * messages and printed forms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <wbsim/error.h>
#include "core/param.h"

#define KI ((uint64_t)1 << 10)
#define MI ((uint64_t)1 << 20)
#define GI ((uint64_t)1 << 30)
#define NS_PER_S UINT64_C(1000000000)

struct ok_case {
	const char *text;
	uint64_t value;
};

typedef gboolean (*parse_fn)(const char *text, uint64_t *out, const char **why);

static void assert_parses(parse_fn parse, const struct ok_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *why = "unset";
		uint64_t v = 12345;

		if (!parse(c[i].text, &v, &why))
			fail_msg("'%s' did not parse: %s", c[i].text, why);
		if (v != c[i].value)
			fail_msg("'%s' gave %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
				 c[i].text, v, c[i].value);
	}
}

/* @text is refused by @parse with reason @why ("" = simply not of the kind). */
static void assert_refused(parse_fn parse, const char *text, const char *why)
{
	const char *got = NULL;
	uint64_t v = 7;

	if (parse(text, &v, &got))
		fail_msg("'%s' parsed as %" G_GUINT64_FORMAT, text, v);
	assert_non_null(got);
	assert_string_equal(got, why);
	assert_true(v == 7);
}

static void test_size(void **state)
{
	/* fio with its default kb_base=1024: K = KB = kB = 1024, any case */
	static const struct ok_case ok[] = {
		{ "0", 0 }, { "512", 512 }, { "512b", 512 }, { "512B", 512 },
		{ "4k", 4 * KI }, { "4K", 4 * KI }, { "4kb", 4 * KI },
		{ "4KB", 4 * KI }, { "4kB", 4 * KI }, { "4Kb", 4 * KI },
		{ "16m", 16 * MI }, { "16MB", 16 * MI }, { "3g", 3 * GI },
		{ "2GB", 2 * GI }, { "1t", (uint64_t)1 << 40 },
		{ "1TB", (uint64_t)1 << 40 }, { "15p", (uint64_t)15 << 50 },
		{ "3840000000000", UINT64_C(3840000000000) },
		{ "18446744073709551615", UINT64_MAX },
		{ "18014398509481983k", UINT64_MAX - 1023 },
		{ "16383p", UINT64_C(16383) << 50 },
	};

	(void)state;
	assert_parses(wbsim_param_parse_size, ok, G_N_ELEMENTS(ok));
	assert_refused(wbsim_param_parse_size, "4KiB",
		       "an IEC suffix, which fio reads as a power of 1000 under its default kb_base=1024");
	assert_refused(wbsim_param_parse_size, "1GiB",
		       "an IEC suffix, which fio reads as a power of 1000 under its default kb_base=1024");
	/* 2^54 KiB = 2^64 bytes: one past the largest */
	assert_refused(wbsim_param_parse_size, "18014398509481984k",
		       "value does not fit in 64 bits");
	assert_refused(wbsim_param_parse_size, "16384p", "value does not fit in 64 bits");
	assert_refused(wbsim_param_parse_size, "18446744073709551616",
		       "value does not fit in 64 bits");
	assert_refused(wbsim_param_parse_size, "-1g", "a negative value");
	assert_refused(wbsim_param_parse_size, "1.5g",
		       "a fraction (write it in a smaller unit: 1536m, not 1.5g)");
	static const char *const garbage[] = {
		"", "k", "4x", "4kk", "4kib2", "g16", "4 k", " 4k", "4k ",
		"0x10", "+4k", "4ms", "4/s",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(garbage); i++)
		assert_refused(wbsim_param_parse_size, garbage[i], "");
}

static void test_rate(void **state)
{
	static const struct ok_case ok[] = {
		{ "0", 0 }, { "1000", 1000 }, { "1000/s", 1000 },
		{ "100B/s", 100 }, { "1k/s", KI }, { "1KB/s", KI },
		{ "1kB/s", KI }, { "500m", 500 * MI }, { "500MB/s", 500 * MI },
		{ "1g/s", GI }, { "1GB/S", GI },
		/* a datasheet's decimal 3800 MB/s, written in bytes */
		{ "3800000000/s", UINT64_C(3800000000) },
	};

	(void)state;
	assert_parses(wbsim_param_parse_rate, ok, G_N_ELEMENTS(ok));
	assert_refused(wbsim_param_parse_rate, "1MiB/s",
		       "an IEC suffix, which fio reads as a power of 1000 under its default kb_base=1024");
	assert_refused(wbsim_param_parse_rate, "20000000000p/s",
		       "value does not fit in 64 bits");
	assert_refused(wbsim_param_parse_rate, "-5m/s", "a negative value");
	assert_refused(wbsim_param_parse_rate, "2.5g/s",
		       "a fraction (write it in a smaller unit: 1536m, not 1.5g)");
	static const char *const garbage[] = {
		"", "/s", "1m/h", "1m/s/s", "1ms/s", "fast", "1m /s",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(garbage); i++)
		assert_refused(wbsim_param_parse_rate, garbage[i], "");
}

static void test_time(void **state)
{
	/* fio's us, ms, s, m (minutes), h, d, any case; and ns */
	static const struct ok_case ok[] = {
		{ "0", 0 }, { "0s", 0 }, { "7ns", 7 }, { "7nsec", 7 },
		{ "3us", 3000 }, { "3usec", 3000 }, { "3US", 3000 },
		{ "100ms", 100000000 }, { "2msec", 2000000 }, { "2MS", 2000000 },
		{ "30s", 30 * NS_PER_S }, { "30sec", 30 * NS_PER_S },
		{ "1S", NS_PER_S },
		{ "2m", 120 * NS_PER_S }, { "2min", 120 * NS_PER_S },
		{ "2M", 120 * NS_PER_S },
		{ "1h", 3600 * NS_PER_S }, { "1d", 86400 * NS_PER_S },
		{ "9500us", 9500000 },
		/* the largest: 2^64 - 1 ns is about 584 years */
		{ "5124095h", UINT64_C(5124095) * 3600 * NS_PER_S },
		{ "18446744073709551615ns", UINT64_MAX },
	};

	(void)state;
	assert_parses(wbsim_param_parse_time, ok, G_N_ELEMENTS(ok));
	/* fio's bare time is seconds or microseconds by option: refused */
	assert_refused(wbsim_param_parse_time, "10", "a number without a unit");
	assert_refused(wbsim_param_parse_time, "5125000h", "value does not fit in 64 bits");
	assert_refused(wbsim_param_parse_time, "18446744073709551616ns",
		       "value does not fit in 64 bits");
	assert_refused(wbsim_param_parse_time, "-1s", "a negative value");
	assert_refused(wbsim_param_parse_time, "9.5ms",
		       "a fraction (write it in a smaller unit: 9500us, not 9.5ms)");
	static const char *const garbage[] = {
		"", "s", "5x", "10 s", "1k", "1mb", "1hr", "ms5", "1s ",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(garbage); i++)
		assert_refused(wbsim_param_parse_time, garbage[i], "");
}

static void test_count(void **state)
{
	static const struct ok_case ok[] = {
		{ "0", 0 }, { "007", 7 }, { "58500", 58500 },
		{ "18446744073709551615", UINT64_MAX },
	};

	(void)state;
	assert_parses(wbsim_param_parse_count, ok, G_N_ELEMENTS(ok));
	assert_refused(wbsim_param_parse_count, "18446744073709551616",
		       "value does not fit in 64 bits");
	assert_refused(wbsim_param_parse_count, "-1", "a negative value");
	assert_refused(wbsim_param_parse_count, "1.5", "a fraction: expected a whole number");
	/* no suffixes, no hex, no octal reading of a leading 0 */
	static const char *const garbage[] = { "", "4k", "0x10", "12 ", "one" };
	for (size_t i = 0; i < G_N_ELEMENTS(garbage); i++)
		assert_refused(wbsim_param_parse_count, garbage[i], "");
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "1", "true", "TRUE", "yes", "on" };
	static const char *const no[] = { "0", "false", "No", "off" };
	const char *why;
	gboolean b;

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(yes); i++) {
		b = FALSE;
		assert_true(wbsim_param_parse_bool(yes[i], &b, &why));
		assert_true(b);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(no); i++) {
		b = TRUE;
		assert_true(wbsim_param_parse_bool(no[i], &b, &why));
		assert_false(b);
	}
	assert_false(wbsim_param_parse_bool("2", &b, &why));
	assert_string_equal(why, "");
}

/* The messages every section prints: the reason, then what was expected. */
static void test_explain(void **state)
{
	g_autofree char *plain = wbsim_param_explain(WBSIM_PARAM_TIME, "");
	g_autofree char *reason = wbsim_param_explain(WBSIM_PARAM_SIZE,
						      "a negative value");
	g_autofree char *rate = wbsim_param_explain(WBSIM_PARAM_RATE, NULL);

	(void)state;
	assert_string_equal(plain, "expected a time with a unit (ns, us, ms, s, m, h)");
	assert_string_equal(reason, "a negative value: expected a size in bytes "
			    "(suffixes k, m, g, t, p are powers of 1024)");
	assert_string_equal(rate, "expected a rate in bytes per second (a size, "
			    "optionally followed by /s: 500m/s)");
}

/* What a value prints as parses back to itself (wbsim_device_describe()). */
static void test_format_round_trip(void **state)
{
	static const enum wbsim_param_type types[] = {
		WBSIM_PARAM_SIZE, WBSIM_PARAM_TIME, WBSIM_PARAM_RATE, WBSIM_PARAM_UINT,
	};
	static const uint64_t values[] = { 0, 1, 4096, UINT64_C(3800000000), UINT64_MAX };

	(void)state;
	for (size_t t = 0; t < G_N_ELEMENTS(types); t++) {
		for (size_t i = 0; i < G_N_ELEMENTS(values); i++) {
			g_autofree char *text = wbsim_param_format_value(types[t], &values[i]);
			const char *why;
			uint64_t back = 1;

			assert_true(wbsim_param_parse_value(types[t], text, &back, &why));
			assert_true(back == values[i]);
		}
	}
}

/* A table with a row of every kind of bound, as the models write them. */
struct table_fields {
	uint64_t blocks;
	uint64_t journal;
	gboolean on;
	uint64_t delay;
};

static const struct wbsim_param table[] = {
	{ "blocks", WBSIM_PARAM_UINT, offsetof(struct table_fields, blocks), "16",
	  "blocks", 1, 0, "at least one block, no upper limit" },
	{ "journal", WBSIM_PARAM_SIZE, offsetof(struct table_fields, journal), "auto",
	  NULL, 4096, 1 << 30, "computed unless set" },
	{ "on", WBSIM_PARAM_BOOL, offsetof(struct table_fields, on), "1", NULL, 0, 0,
	  "a switch" },
	{ "delay", WBSIM_PARAM_TIME, offsetof(struct table_fields, delay), "2us",
	  NULL, 0, 0, "unbounded" },
	{ .name = NULL },
};

/* One lookup, one set of messages (file, line, owner, key, what was expected). */
static void test_table(void **state)
{
	struct table_fields f = { 0 };
	GError *error = NULL;

	(void)state;
	assert_true(wbsim_param_apply_defaults(table, &f, "test:", &error));
	assert_true(f.blocks == 16 && f.journal == WBSIM_PARAM_AUTO && f.on);
	assert_true(f.delay == 2000);
	assert_true(wbsim_param_set(table, &f, "journal", "64m", "test:", "t.ini", 3, &error));
	assert_true(f.journal == 64 * MI);
	assert_true(wbsim_param_set(table, &f, "on", "off", "test:", "t.ini", 4, &error));
	assert_false(f.on);
	assert_int_equal(wbsim_param_get_uint(wbsim_param_find(table, "blocks"), &f), 16);
	assert_int_equal(wbsim_param_get_uint(wbsim_param_find(table, "on"), &f), 0);

	assert_false(wbsim_param_set(table, &f, "blockz", "1", "test:", "t.ini", 5, &error));
	assert_int_equal(error->code, WBSIM_ERROR_UNKNOWN_KEY);
	assert_string_equal(error->message, "t.ini:5: test: unknown key 'blockz': "
			    "expected one of blocks, journal, on, delay");
	g_clear_error(&error);
	assert_false(wbsim_param_set(table, &f, "blocks", "0", "test:", "t.ini", 6, &error));
	assert_string_equal(error->message, "t.ini:6: test: blocks = 0: expected an integer "
			    "of at least 1");
	g_clear_error(&error);
	assert_false(wbsim_param_set(table, &f, "journal", "1m1", "test:", NULL, 0, &error));
	assert_string_equal(error->message, "test: journal = 1m1: expected a size in bytes "
			    "(suffixes k, m, g, t, p are powers of 1024) from 4k to 1g");
	g_clear_error(&error);
	assert_false(wbsim_param_set(table, &f, "journal", "2g", "test:", "t.ini", 7, &error));
	assert_string_equal(error->message, "t.ini:7: test: journal = 2g: expected a size in "
			    "bytes (suffixes k, m, g, t, p are powers of 1024) from 4k to 1g");
	g_clear_error(&error);
	/* "auto" only where the default is "auto" */
	assert_false(wbsim_param_set(table, &f, "blocks", "auto", "test:", NULL, 0, &error));
	assert_string_equal(error->message, "test: blocks = auto: expected an integer of "
			    "at least 1");
	g_clear_error(&error);
	/* a failed set leaves the field as it was */
	assert_true(f.blocks == 16 && f.journal == 64 * MI);
	assert_string_equal(wbsim_param_unit(&table[0]), "blocks");
	assert_string_equal(wbsim_param_unit(&table[1]), "bytes");
	assert_string_equal(wbsim_param_unit(&table[3]), "ns");
}

/* The kinds and row properties the scenario keys need. */
struct kinds_fields {
	uint64_t ratio;
	uint64_t expire;
	unsigned int mode;
	char *policy;
	char *file;
	uint64_t contexts;
	uint64_t bytes;
};

static const char *const mode_names[] = { "whole-folio", "per-block", NULL };
static const char *const context_words[] = { "cpus", "auto", NULL };

static char **policy_names(void)
{
	static const char *const names[] = { "inode", "none", NULL };

	return g_strdupv((char **)names);
}

#define KO(f) offsetof(struct kinds_fields, f)
static const struct wbsim_param kinds[] = {
	{ .section = "vm", .name = "ratio", .type = WBSIM_PARAM_PERCENT,
	  .offset = KO(ratio), .def = "20", .unit = "% of memory", .max = 100,
	  .help = "a percentage" },
	{ .section = "vm", .name = "expire", .type = WBSIM_PARAM_CENTISECS,
	  .offset = KO(expire), .def = "3000", .max = 100000000,
	  .help = "centiseconds" },
	{ .section = "writeback", .name = "mode", .type = WBSIM_PARAM_ENUM,
	  .offset = KO(mode), .def = "whole-folio", .names = mode_names,
	  .help = "a name of a fixed list" },
	{ .section = "writeback", .name = "policy", .type = WBSIM_PARAM_NAME,
	  .offset = KO(policy), .def = "inode", .names_fn = policy_names,
	  .help = "a name of a registry" },
	{ .section = "workload", .name = "file", .type = WBSIM_PARAM_PATH,
	  .offset = KO(file), .help = "a file name" },
	{ .section = "writeback", .name = "contexts", .type = WBSIM_PARAM_UINT,
	  .offset = KO(contexts), .def = "1", .min = 1, .max = 4096,
	  .names = context_words, .help = "a number or a word" },
	{ .section = "vm", .name = "bytes", .type = WBSIM_PARAM_SIZE,
	  .offset = KO(bytes), .def = "0", .min = 8 * 1024,
	  .flags = WBSIM_PARAM_ZERO_OR_RANGE, .help = "0 or at least 8k" },
	{ .name = NULL },
};

/* Set @key to @text in @f through the table, or fail the test. */
static void set_ok(struct kinds_fields *f, const char *key, const char *text)
{
	GError *error = NULL;

	if (!wbsim_param_set(kinds, f, key, text, "[test]", "k.ini", 1, &error))
		fail_msg("%s = %s: %s", key, text, error->message);
}

static void test_kinds_values(void **state)
{
	struct kinds_fields f = { 0 };
	const char *why = NULL;
	uint64_t v = 0;

	(void)state;
	assert_true(wbsim_param_apply_defaults(kinds, &f, "[test]", NULL));
	assert_true(f.ratio == 20 && f.expire == 3000 && f.mode == 0);
	assert_string_equal(f.policy, "inode");
	assert_null(f.file);
	assert_true(f.contexts == 1 && f.bytes == 0);

	/* percent: whole, 0..100, an optional '%' */
	set_ok(&f, "ratio", "0");
	assert_true(f.ratio == 0);
	set_ok(&f, "ratio", "100%");
	assert_true(f.ratio == 100);
	assert_true(wbsim_param_parse_percent("7%", &v, &why) && v == 7);
	assert_false(wbsim_param_parse_percent("7%%", &v, &why));
	assert_string_equal(why, "");
	/* centiseconds: a count of 1/100 s, no unit */
	set_ok(&f, "expire", "100000000");
	assert_true(f.expire == 100000000);
	/* an enum stores the index of its name */
	set_ok(&f, "mode", "per-block");
	assert_int_equal(f.mode, 1);
	/* a name of a registry stores the name */
	set_ok(&f, "policy", "none");
	assert_string_equal(f.policy, "none");
	/* words of a number row store WBSIM_PARAM_SPECIAL(index) */
	set_ok(&f, "contexts", "auto");
	assert_true(f.contexts == WBSIM_PARAM_SPECIAL(1));
	set_ok(&f, "contexts", "4096");
	assert_true(f.contexts == 4096);
	/* zero besides the range */
	set_ok(&f, "bytes", "8k");
	assert_true(f.bytes == 8192);
	set_ok(&f, "bytes", "0");
	assert_true(f.bytes == 0);

	/* a path is relative to the directory of the file that names it */
	assert_true(wbsim_param_parse_row(&kinds[4], "jobs/w.fio", "scenarios",
					  &f.file, NULL));
	assert_string_equal(f.file, "scenarios/jobs/w.fio");
	assert_true(wbsim_param_parse_row(&kinds[4], "/abs/w.fio", "scenarios",
					  &f.file, NULL));
	assert_string_equal(f.file, "/abs/w.fio");
	assert_true(wbsim_param_parse_row(&kinds[4], "w.fio", ".", &f.file, NULL));
	assert_string_equal(f.file, "w.fio");
	assert_true(wbsim_param_parse_row(&kinds[4], "w.fio", NULL, &f.file, NULL));
	assert_string_equal(f.file, "w.fio");
	for (const struct wbsim_param *p = kinds; p->name; p++)
		wbsim_param_free_field(p, &f);
	assert_null(f.policy);
	assert_null(f.file);
}

static void test_kinds_errors(void **state)
{
	static const struct {
		const char *key, *text, *expected;
	} bad[] = {
		{ "ratio", "101", "expected a percentage, an integer from 0 to 100" },
		{ "ratio", "2.5", "expected a percentage, an integer from 0 to 100" },
		{ "expire", "30s", "expected an integer number of centiseconds "
		  "(1/100 s) from 0 to 100000000" },
		{ "expire", "-1", "a negative value: expected an integer number of "
		  "centiseconds (1/100 s) from 0 to 100000000" },
		{ "mode", "per-blok", "expected one of: whole-folio, per-block "
		  "(did you mean per-block?)" },
		{ "policy", "random", "expected one of: inode, none" },
		{ "file", "", "expected a file name" },
		{ "contexts", "0", "expected an integer from 1 to 4096, or one of: cpus, auto" },
		{ "contexts", "autoo", "expected an integer from 1 to 4096, or one of: "
		  "cpus, auto (did you mean auto?)" },
		{ "bytes", "4k", "expected a size in bytes (suffixes k, m, g, t, p are "
		  "powers of 1024) equal to 0 or of at least 8k" },
	};
	struct kinds_fields f = { 0 };
	GError *error = NULL;

	(void)state;
	assert_true(wbsim_param_apply_defaults(kinds, &f, "[test]", NULL));
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		/* the message names file, line, key, value and what was expected,
		 * in the frame of a scenario key's (wbsim_param_value_error()) */
		g_autofree char *message = g_strdup_printf(
			"k.ini:9: [test] %s = %s: %s",
			bad[i].key, bad[i].text, bad[i].expected);

		assert_false(wbsim_param_set(kinds, &f, bad[i].key, bad[i].text,
					     "[test]", "k.ini", 9, &error));
		assert_int_equal(error->code, WBSIM_ERROR_INVALID_VALUE);
		assert_string_equal(error->message, message);
		g_clear_error(&error);
	}
	/* a failed set leaves every field as it was */
	assert_true(f.ratio == 20 && f.expire == 3000 && f.mode == 0 &&
		    f.contexts == 1 && f.bytes == 0);
	assert_string_equal(f.policy, "inode");
	assert_null(f.file);

	/* the reason alone, for a caller with its own frame */
	assert_false(wbsim_param_parse_row(&kinds[0], "x", NULL, &f.ratio, &error));
	assert_string_equal(error->message,
			    "expected a percentage, an integer from 0 to 100");
	g_clear_error(&error);
	for (const struct wbsim_param *p = kinds; p->name; p++)
		wbsim_param_free_field(p, &f);
}

/* The printed form of every kind parses back to the same value. */
static void test_kinds_canonical(void **state)
{
	static const char *const texts[][2] = {
		{ "ratio", "35" }, { "expire", "500" }, { "mode", "per-block" },
		{ "policy", "none" }, { "contexts", "cpus" }, { "contexts", "12" },
		{ "bytes", "0" }, { "bytes", "3276m" },
	};
	struct kinds_fields f = { 0 };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
		const struct wbsim_param *p = wbsim_param_find(kinds, texts[i][0]);
		g_autofree char *back = NULL;

		set_ok(&f, texts[i][0], texts[i][1]);
		back = wbsim_param_format_canonical(p, (char *)&f + p->offset);
		assert_string_equal(back, texts[i][1]);
	}
	for (const struct wbsim_param *p = kinds; p->name; p++)
		wbsim_param_free_field(p, &f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_kinds_values),
		cmocka_unit_test(test_kinds_errors),
		cmocka_unit_test(test_kinds_canonical),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
