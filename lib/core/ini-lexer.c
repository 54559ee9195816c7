/* SPDX-License-Identifier: MIT */
/*
 * ini-lexer.c - the line lexer shared by the fio job-file parser and the
 * scenario loader. Generic: no key has a meaning here, except the optional
 * recognition of fio's "include <file>" directive line.
 *
 * Line rules follow fio's init.c/parse.c: blank and comment lines are
 * skipped; every line is cut at its first ';' and then its first '#'; a
 * "[name]" line opens a section; anything else is "key[=value]".
 */
#include <string.h>

#include <wbsim/error.h>
#include "core/read-file.h"
#include "core/ini-lexer.h"

/* fio's strip_blank_end() treats blanks and control characters alike. */
static gboolean ini_is_blank(char c)
{
	return g_ascii_isspace(c) || g_ascii_iscntrl(c);
}

char *wbsim_ini_strip_line(char *line)
{
	char *p;
	size_t n;

	p = strchr(line, ';');
	if (p)
		*p = '\0';
	p = strchr(line, '#');
	if (p)
		*p = '\0';
	n = strlen(line);
	while (n > 0 && ini_is_blank(line[n - 1]))
		line[--n] = '\0';
	while (*line && ini_is_blank(*line))
		line++;
	return line;
}

void wbsim_ini_entry_free(gpointer data)
{
	struct wbsim_ini_entry *e = data;

	g_free(e->key);
	g_free(e->value);
	g_free(e);
}

struct wbsim_ini_section *wbsim_ini_section_new(const char *name, const char *file,
					       unsigned int line)
{
	struct wbsim_ini_section *s = g_new0(struct wbsim_ini_section, 1);

	s->name = g_strdup(name);
	s->file = file;
	s->line = line;
	s->entries = g_ptr_array_new_with_free_func(wbsim_ini_entry_free);
	return s;
}

void wbsim_ini_section_free(gpointer data)
{
	struct wbsim_ini_section *s = data;

	g_free(s->name);
	g_ptr_array_unref(s->entries);
	g_free(s);
}

void wbsim_ini_doc_free(struct wbsim_ini_doc *doc)
{
	if (!doc)
		return;
	g_ptr_array_unref(doc->sections);
	g_free(doc->file);
	g_free(doc);
}

static struct wbsim_ini_section *ini_section_new(struct wbsim_ini_doc *doc,
						 const char *name,
						 unsigned int line)
{
	struct wbsim_ini_section *s = wbsim_ini_section_new(name, doc->file, line);

	g_ptr_array_add(doc->sections, s);
	return s;
}

/* "include" followed by a blank: fio's include directive. */
static gboolean ini_is_include(const char *p)
{
	return strncmp(p, "include", 7) == 0 && (p[7] == ' ' || p[7] == '\t');
}

/*
 * Lex one cleaned, non-empty line @p into @doc. @cur is the open section
 * (NULL before the first header).
 */
static gboolean ini_lex_line(struct wbsim_ini_doc *doc, char *p,
			     unsigned int lineno, unsigned int flags,
			     struct wbsim_ini_section **cur, GError **error)
{
	struct wbsim_ini_entry *e;
	char *eq;

	if (p[0] == '[') {
		size_t n = strlen(p);
		char *name;

		if (flags & WBSIM_INI_NO_SECTIONS) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: section header '%s' in a file that may not have sections (no new sections in included files)",
				    doc->file, lineno, p);
			return FALSE;
		}
		if (n < 3 || p[n - 1] != ']') {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: malformed section header '%s': expected '[name]'",
				    doc->file, lineno, p);
			return FALSE;
		}
		p[n - 1] = '\0';
		name = g_strstrip(p + 1);
		if (!*name || strlen(name) > 255) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: section name '%s' must have 1 to 255 characters",
				    doc->file, lineno, name);
			return FALSE;
		}
		*cur = ini_section_new(doc, name, lineno);
		return TRUE;
	}

	if (!*cur && (flags & WBSIM_INI_OPEN_START))
		*cur = ini_section_new(doc, NULL, lineno);
	if (!*cur) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s:%u: option <%s> outside of [] job section",
			    doc->file, lineno, p);
		return FALSE;
	}

	e = g_new0(struct wbsim_ini_entry, 1);
	e->file = doc->file;
	e->line = lineno;
	if ((flags & WBSIM_INI_INCLUDE) && ini_is_include(p)) {
		e->key = g_strdup("include");
		e->value = g_strdup(g_strstrip(p + 7));
	} else {
		eq = strchr(p, '=');
		if (eq) {
			*eq = '\0';
			e->value = g_strdup(g_strstrip(eq + 1));
		}
		e->key = g_strdup(g_strstrip(p));
	}
	if (!*e->key) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s:%u: empty key before '=': expected 'key=value' or 'key'",
			    doc->file, lineno);
		wbsim_ini_entry_free(e);
		return FALSE;
	}
	g_ptr_array_add((*cur)->entries, e);
	return TRUE;
}

gboolean wbsim_ini_lex(const char *buf, gssize len, const char *file,
		       unsigned int flags, struct wbsim_ini_doc **out,
		       GError **error)
{
	struct wbsim_ini_doc *doc;
	struct wbsim_ini_section *cur = NULL;
	unsigned int lineno = 0;
	const char *p, *end;

	g_return_val_if_fail(buf != NULL || len == 0, FALSE);
	g_return_val_if_fail(out != NULL, FALSE);

	if (len < 0)
		len = strlen(buf);
	doc = g_new0(struct wbsim_ini_doc, 1);
	doc->file = g_strdup(file ? file : "<string>");
	doc->sections = g_ptr_array_new_with_free_func(wbsim_ini_section_free);
	if (flags & WBSIM_INI_NO_SECTIONS)
		cur = ini_section_new(doc, NULL, 1);

	p = buf;
	end = buf + len;
	/* an editor's byte order mark would glue itself to the first key or header */
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s:1: a byte order mark (U+FEFF) starts the file: expected UTF-8 text without one",
			    doc->file);
		goto fail;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;
		char *line, *s;

		lineno++;
		if (le - p >= WBSIM_INI_LINE_MAX) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: line longer than %d characters",
				    doc->file, lineno, WBSIM_INI_LINE_MAX - 1);
			goto fail;
		}
		if (memchr(p, '\0', le - p)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: NUL byte in a text line", doc->file,
				    lineno);
			goto fail;
		}
		line = g_strndup(p, le - p);
		s = wbsim_ini_strip_line(line);
		if (*s && !ini_lex_line(doc, s, lineno, flags, &cur, error)) {
			g_free(line);
			goto fail;
		}
		g_free(line);
		p = nl ? nl + 1 : end;
	}
	*out = doc;
	return TRUE;

fail:
	wbsim_ini_doc_free(doc);
	return FALSE;
}

gboolean wbsim_ini_lex_file(const char *path, unsigned int flags,
			    struct wbsim_ini_doc **out, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	gsize len;

	if (!wbsim_read_file(path, WBSIM_TEXT_FILE_MAX, &text, &len, &local)) {
		wbsim_read_file_error(error, path, local);
		return FALSE;
	}
	return wbsim_ini_lex(text, len, path, flags, out, error);
}
