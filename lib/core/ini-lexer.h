/* SPDX-License-Identifier: MIT */
/*
 * core/ini-lexer.h - a small line lexer for INI-like files (fio job files
 * and wbsim's scenario.ini).
 *
 * It turns a buffer into an ordered list of sections, each with an ordered
 * list of entries, and knows nothing about what the keys mean. Unlike
 * GKeyFile it keeps repeated sections apart and in order, accepts bare keys
 * (no '=') and ';' comments, and applies fio's comment rule: every line is
 * cut at its first ';' and then at its first '#', so a value never contains
 * either character (fio parse.c strip_blank_end()).
 */
#ifndef WBSIM_CORE_INI_LEXER_H
#define WBSIM_CORE_INI_LEXER_H

#include <glib.h>

/**
 * struct wbsim_ini_entry - one "key=value" or bare "key" line
 * @key: the key, blanks stripped; never NULL nor empty
 * @value: the value, blanks stripped (may be ""), or NULL for a bare key
 * @file: the file the line came from (owned by the document)
 * @line: 1-based line number in @file
 */
struct wbsim_ini_entry {
	char *key;
	char *value;
	const char *file;
	unsigned int line;
};

/**
 * struct wbsim_ini_section - one "[name]" header and the entries below it
 * @name: the text between the brackets, blanks stripped; NULL for the
 *        single section of a WBSIM_INI_NO_SECTIONS fragment
 * @file: the file of the header line (owned by the document)
 * @line: 1-based line number of the header (1 for a fragment)
 * @entries: struct wbsim_ini_entry *, in file order
 */
struct wbsim_ini_section {
	char *name;
	const char *file;
	unsigned int line;
	GPtrArray *entries;
};

/**
 * struct wbsim_ini_doc - a lexed buffer
 * @file: the display name of the buffer, as given to wbsim_ini_lex()
 * @sections: struct wbsim_ini_section *, in file order; repeated names are
 *            kept as separate sections
 */
struct wbsim_ini_doc {
	char *file;
	GPtrArray *sections;
};

/**
 * enum wbsim_ini_flags - lexer options
 * @WBSIM_INI_INCLUDE: a line "include <name>" (the word include followed by
 *	a blank, fio's include directive) becomes an entry with key "include"
 *	and the rest of the line as value; the caller resolves it
 * @WBSIM_INI_NO_SECTIONS: the buffer is a fragment to be pulled into a
 *	section (an included fio file): entries are legal before any header,
 *	they all go into one section with a NULL name, and a section header
 *	is an error
 * @WBSIM_INI_OPEN_START: entries before the first header are legal and go
 *	into a first section with a NULL name, for the caller to refuse in
 *	its own words (a device preset: any file may be named as one, and
 *	its first line is not to be quoted back in fio's)
 */
enum wbsim_ini_flags {
	WBSIM_INI_INCLUDE = 1 << 0,
	WBSIM_INI_NO_SECTIONS = 1 << 1,
	WBSIM_INI_OPEN_START = 1 << 2,
};

/* Longest line fio reads (OPT_LEN_MAX); longer lines are refused. */
#define WBSIM_INI_LINE_MAX 8192

/**
 * wbsim_ini_lex() - split a buffer into sections and entries
 * @buf: the text (need not be NUL-terminated)
 * @len: its length in bytes, or -1 if @buf is NUL-terminated
 * @file: display name used in entries and messages ("FILE:LINE: ...")
 * @flags: enum wbsim_ini_flags
 * @out: the new document, to free with wbsim_ini_doc_free()
 * @error: WBSIM_ERROR_PARSE for an entry before the first section, a
 *	   malformed section header, an empty key, a NUL byte or an overlong
 *	   line; the message names @file and the line
 *
 * Handles LF and CRLF line ends, leading and trailing blanks and control
 * characters, "key = value" with blanks around '=', and comment lines
 * starting with ';' or '#'.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_ini_lex(const char *buf, gssize len, const char *file,
		       unsigned int flags, struct wbsim_ini_doc **out,
		       GError **error);

/**
 * wbsim_ini_lex_file() - read a file and lex it with wbsim_ini_lex()
 * @path: the file; it is also the display name
 * @flags: enum wbsim_ini_flags
 * @out: the new document
 * @error: WBSIM_ERROR_IO if the file cannot be read, else as wbsim_ini_lex()
 *
 * Return: TRUE on success.
 */
gboolean wbsim_ini_lex_file(const char *path, unsigned int flags,
			    struct wbsim_ini_doc **out, GError **error);

/** wbsim_ini_doc_free() - free a document and everything in it (NULL is fine). */
void wbsim_ini_doc_free(struct wbsim_ini_doc *doc);

/**
 * wbsim_ini_section_new() - an empty section, outside any document
 * @name: the name (copied; NULL for a fragment's section)
 * @file: the file it came from (not copied: owned by a document that
 *	outlives the section)
 * @line: 1-based line of the header
 *
 * For a caller that builds sections of its own from lexed ones (the
 * scenario's inline [fio:NAME] jobs); its @entries array frees them with
 * wbsim_ini_entry_free().
 *
 * Return: the section, to free with wbsim_ini_section_free().
 */
struct wbsim_ini_section *wbsim_ini_section_new(const char *name, const char *file,
					       unsigned int line);

/* wbsim_ini_section_free() - free a section, its name and its entries (a
 * GDestroyNotify, for a GPtrArray of sections). */
void wbsim_ini_section_free(gpointer section);

/* wbsim_ini_entry_free() - free an entry, its key and its value (a
 * GDestroyNotify, for a GPtrArray of entries). */
void wbsim_ini_entry_free(gpointer entry);

/**
 * wbsim_ini_strip_line() - apply fio's line clean-up in place
 * @line: a NUL-terminated line, modified in place
 *
 * Cuts the line at the first ';', then at the first '#', then strips
 * trailing blanks and control characters.
 *
 * Return: @line advanced past its leading blanks.
 */
char *wbsim_ini_strip_line(char *line);

#endif /* WBSIM_CORE_INI_LEXER_H */
