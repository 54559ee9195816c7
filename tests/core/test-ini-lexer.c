/* SPDX-License-Identifier: MIT */
/*
 * test-ini-lexer.c - the INI line lexer shared by the fio job-file parser
 * and the scenario loader: sections, entries, comments, CRLF, errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <wbsim/error.h>
#include "core/ini-lexer.h"

static struct wbsim_ini_section *sec(struct wbsim_ini_doc *d, guint i)
{
	assert_true(i < d->sections->len);
	return g_ptr_array_index(d->sections, i);
}

static struct wbsim_ini_entry *ent(struct wbsim_ini_section *s, guint i)
{
	assert_true(i < s->entries->len);
	return g_ptr_array_index(s->entries, i);
}

static void test_basic(void **state)
{
	const char *text =
		"; leading comment\n"
		"# hash comment\n"
		"\n"
		"[global]\n"
		"bs=4k\n"
		"  size = 1g ; trailing comment\n"
		"time_based\n"
		"\tname = a b # hash tail\n"
		"[w]\r\n"
		"rw=write\r\n"
		"x=;all comment\n"
		"[w]\n"
		"[ spaced ] ; c\n"
		"k=v";
	struct wbsim_ini_doc *d = NULL;
	GError *err = NULL;

	assert_true(wbsim_ini_lex(text, -1, "t.fio", 0, &d, &err));
	assert_null(err);
	assert_string_equal(d->file, "t.fio");
	assert_int_equal(d->sections->len, 4);
	assert_string_equal(sec(d, 0)->name, "global");
	assert_int_equal(sec(d, 0)->line, 4);
	assert_string_equal(sec(d, 0)->file, "t.fio");
	assert_int_equal(sec(d, 0)->entries->len, 4);
	assert_string_equal(ent(sec(d, 0), 0)->key, "bs");
	assert_string_equal(ent(sec(d, 0), 0)->value, "4k");
	assert_int_equal(ent(sec(d, 0), 0)->line, 5);
	assert_string_equal(ent(sec(d, 0), 1)->key, "size");
	assert_string_equal(ent(sec(d, 0), 1)->value, "1g");
	assert_string_equal(ent(sec(d, 0), 2)->key, "time_based");
	assert_null(ent(sec(d, 0), 2)->value);
	assert_string_equal(ent(sec(d, 0), 3)->key, "name");
	assert_string_equal(ent(sec(d, 0), 3)->value, "a b");
	assert_int_equal(ent(sec(d, 0), 3)->line, 8);
	/* repeated [w] kept apart, in order; CRLF stripped */
	assert_string_equal(sec(d, 1)->name, "w");
	assert_int_equal(sec(d, 1)->line, 9);
	assert_int_equal(sec(d, 1)->entries->len, 2);
	assert_string_equal(ent(sec(d, 1), 0)->value, "write");
	assert_string_equal(ent(sec(d, 1), 1)->key, "x");
	assert_string_equal(ent(sec(d, 1), 1)->value, "");
	assert_string_equal(sec(d, 2)->name, "w");
	assert_int_equal(sec(d, 2)->entries->len, 0);
	assert_string_equal(sec(d, 3)->name, "spaced");
	assert_string_equal(ent(sec(d, 3), 0)->value, "v");
	assert_int_equal(ent(sec(d, 3), 0)->line, 14);
	wbsim_ini_doc_free(d);
}

static void test_include(void **state)
{
	const char *text = "[j]\ninclude  other.fio \ninclude=x\nincluded=1\n";
	struct wbsim_ini_doc *d = NULL;

	assert_true(wbsim_ini_lex(text, -1, "t", WBSIM_INI_INCLUDE, &d, NULL));
	assert_int_equal(sec(d, 0)->entries->len, 3);
	assert_string_equal(ent(sec(d, 0), 0)->key, "include");
	assert_string_equal(ent(sec(d, 0), 0)->value, "other.fio");
	assert_string_equal(ent(sec(d, 0), 1)->key, "include");
	assert_string_equal(ent(sec(d, 0), 1)->value, "x");
	assert_string_equal(ent(sec(d, 0), 2)->key, "included");
	wbsim_ini_doc_free(d);

	/* without the flag the directive is a key with blanks in it */
	assert_true(wbsim_ini_lex(text, -1, "t", 0, &d, NULL));
	assert_string_equal(ent(sec(d, 0), 0)->key, "include  other.fio");
	assert_null(ent(sec(d, 0), 0)->value);
	wbsim_ini_doc_free(d);
}

static void test_fragment(void **state)
{
	struct wbsim_ini_doc *d = NULL;
	GError *err = NULL;

	assert_true(wbsim_ini_lex("; inc\nbs=8k\nstonewall\n", -1, "inc.fio",
				  WBSIM_INI_NO_SECTIONS, &d, &err));
	assert_int_equal(d->sections->len, 1);
	assert_null(sec(d, 0)->name);
	assert_int_equal(sec(d, 0)->entries->len, 2);
	assert_int_equal(ent(sec(d, 0), 1)->line, 3);
	wbsim_ini_doc_free(d);

	assert_false(wbsim_ini_lex("bs=8k\n[x]\n", -1, "inc.fio",
				   WBSIM_INI_NO_SECTIONS, &d, &err));
	assert_true(g_error_matches(err, WBSIM_ERROR, WBSIM_ERROR_PARSE));
	assert_non_null(strstr(err->message, "inc.fio:2:"));
	assert_non_null(strstr(err->message, "no new sections in included files"));
	g_clear_error(&err);
}

static void test_errors(void **state)
{
	struct wbsim_ini_doc *d = NULL;
	GError *err = NULL;
	char *big;

	assert_false(wbsim_ini_lex("; c\n\nsize=1m\n[w]\n", -1, "a.fio", 0, &d,
				   &err));
	assert_true(g_error_matches(err, WBSIM_ERROR, WBSIM_ERROR_PARSE));
	assert_string_equal(err->message,
			    "a.fio:3: option <size=1m> outside of [] job section");
	g_clear_error(&err);

	assert_false(wbsim_ini_lex("[w\n", -1, "b.fio", 0, &d, &err));
	assert_string_equal(err->message,
			    "b.fio:1: malformed section header '[w': expected '[name]'");
	g_clear_error(&err);

	assert_false(wbsim_ini_lex("[ ]\n", -1, "b.fio", 0, &d, &err));
	assert_non_null(strstr(err->message, "b.fio:1: section name"));
	g_clear_error(&err);

	assert_false(wbsim_ini_lex("[w]\n = 3\n", -1, "c.fio", 0, &d, &err));
	assert_non_null(strstr(err->message, "c.fio:2: empty key"));
	g_clear_error(&err);

	assert_false(wbsim_ini_lex("[w]\na\0b\n", 8, "d.fio", 0, &d, &err));
	assert_non_null(strstr(err->message, "d.fio:2: NUL byte"));
	g_clear_error(&err);

	big = g_malloc(WBSIM_INI_LINE_MAX + 10);
	memset(big, 'x', WBSIM_INI_LINE_MAX + 9);
	big[WBSIM_INI_LINE_MAX + 9] = '\0';
	memcpy(big, "[w]\n", 4);
	assert_false(wbsim_ini_lex(big, -1, "e.fio", 0, &d, &err));
	assert_non_null(strstr(err->message, "e.fio:2: line longer"));
	g_clear_error(&err);
	g_free(big);

	assert_false(wbsim_ini_lex_file("/nonexistent/x.ini", 0, &d, &err));
	assert_true(g_error_matches(err, WBSIM_ERROR, WBSIM_ERROR_IO));
	assert_non_null(strstr(err->message, "/nonexistent/x.ini"));
	g_clear_error(&err);
}

static void test_strip(void **state)
{
	char a[] = "  a=b;c#d  ";
	char b[] = "x # y ; z";
	char c[] = "\t\r\n";

	assert_string_equal(wbsim_ini_strip_line(a), "a=b");
	/* cut at the first ';' first, then at the first '#' */
	assert_string_equal(wbsim_ini_strip_line(b), "x");
	assert_string_equal(wbsim_ini_strip_line(c), "");
}

/* A section built outside a document, as the scenario's inline fio jobs
 * are: its fields, and its entries freed with it. */
static void test_section_new(void **state)
{
	struct wbsim_ini_doc *doc = NULL;
	struct wbsim_ini_section *s;
	struct wbsim_ini_entry *e;
	GPtrArray *all;

	(void)state;
	assert_true(wbsim_ini_lex("[fio:a]\nbs=4k\n", -1, "s.ini", 0, &doc, NULL));
	all = g_ptr_array_new_with_free_func(wbsim_ini_section_free);
	s = wbsim_ini_section_new(sec(doc, 0)->name + 4, sec(doc, 0)->file,
				  sec(doc, 0)->line);
	g_ptr_array_add(all, s);
	assert_string_equal(s->name, "a");
	assert_ptr_equal(s->file, doc->file);
	assert_int_equal(s->line, 1);
	assert_int_equal(s->entries->len, 0);
	e = g_new0(struct wbsim_ini_entry, 1);
	e->key = g_strdup(ent(sec(doc, 0), 0)->key);
	e->value = g_strdup(ent(sec(doc, 0), 0)->value);
	e->file = s->file;
	e->line = 2;
	g_ptr_array_add(s->entries, e);
	assert_string_equal(ent(s, 0)->key, "bs");
	assert_string_equal(ent(s, 0)->value, "4k");
	s = wbsim_ini_section_new(NULL, NULL, 0);
	assert_null(s->name);
	wbsim_ini_section_free(s);
	/* the copies go with their array, the document after them */
	g_ptr_array_unref(all);
	wbsim_ini_doc_free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_fragment),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_strip),
		cmocka_unit_test(test_section_new),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
