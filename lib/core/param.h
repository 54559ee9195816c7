/* SPDX-License-Identifier: MIT */
/*
 * core/param.h - the one grammar of values with units (param.c): sizes,
 * rates, times, counts, percentages, centiseconds, booleans, numbers,
 * names from a list, file names and strings (enum wbsim_param_type), for
 * every scenario section, --set, --sweep, the device presets, the
 * filesystem options and the CPU cost table.
 */
#ifndef WBSIM_CORE_PARAM_H
#define WBSIM_CORE_PARAM_H

#include <wbsim/param.h>

/*
 * The unit parsers (the grammar: param.c and scenarios/README.md "Units").
 * Each stores the value in base units (bytes, bytes/s, ns) and returns
 * TRUE, or returns FALSE with *@why set to the reason ("value does not fit
 * in 64 bits", "a fraction (...)") or to "" when the text is simply not of
 * the kind; wbsim_param_explain() makes the message of either.
 */
gboolean wbsim_param_parse_size(const char *text, uint64_t *out, const char **why);
gboolean wbsim_param_parse_rate(const char *text, uint64_t *out, const char **why);
gboolean wbsim_param_parse_time(const char *text, uint64_t *out, const char **why);
gboolean wbsim_param_parse_count(const char *text, uint64_t *out, const char **why);
gboolean wbsim_param_parse_bool(const char *text, gboolean *out, const char **why);
/* 0..100, optionally followed by '%'; *@why is "" on failure. */
gboolean wbsim_param_parse_percent(const char *text, uint64_t *out, const char **why);

/* "a size in bytes (suffixes k, m, g, t, p are powers of 1024)", ... */
const char *wbsim_param_expected(enum wbsim_param_type type);
/* "WHY: expected ..." or "expected ..." (a new string). */
char *wbsim_param_explain(enum wbsim_param_type type, const char *why);

/*
 * wbsim_param_parse_value() - parse @text as a @type value into @out (a
 * uint64_t, gboolean, double or char * per the type); on failure *@why as
 * above.
 */
gboolean wbsim_param_parse_value(enum wbsim_param_type type, const char *text,
				 void *out, const char **why);
/*
 * wbsim_param_parse() - wbsim_param_parse_value() with the message of
 * wbsim_param_explain() as a GError (for values inside a line, such as the
 * time of an [events] line).
 */
gboolean wbsim_param_parse(enum wbsim_param_type type, const char *text,
			   void *out, GError **error);
/*
 * wbsim_param_parse_row() - parse @text for row @p into @field (at
 * @p->offset of the struct the table fills): the words of @p->names, the
 * kind, the range (0 too with WBSIM_PARAM_ZERO_OR_RANGE); a PATH relative
 * to @base_dir (NULL: as written). On failure the message is the reason
 * only, for the caller to prefix with where and what: "[WHY: ]expected
 * DESCRIPTION[ (did you mean NAME?)]". @field is left as it was.
 */
gboolean wbsim_param_parse_row(const struct wbsim_param *p, const char *text,
			       const char *base_dir, void *field, GError **error);
/*
 * wbsim_param_format_canonical() - the value at @field of row @p as a
 * scenario line writes it, the shortest exact form ("16g", "100ms",
 * "true", "cpus"); it parses back to the same value.
 */
char *wbsim_param_format_canonical(const struct wbsim_param *p, const void *field);
/* Text of a size with the largest exact binary suffix ("16g", "1280k"). */
char *wbsim_format_size(uint64_t bytes);
/* Text of a time in ns with the largest exact unit ("100ms", "30s", "0"). */
char *wbsim_format_time(uint64_t ns);
/*
 * wbsim_closest_name() - the name in @names (NULL-terminated) nearest to
 * @word by edit distance, if near enough to suggest ("did you mean"),
 * else NULL.
 */
const char *wbsim_closest_name(const char *word, const char *const *names);
/*
 * wbsim_param_value_error() - the one message of a bad value, for the
 * scenario's keys and a model's rows alike:
 * "FILE:LINE: OWNER KEY = TEXT: REASON", @owner "[SECTION]" for a
 * scenario key or "device model nvme:", "filesystem xfs:", "[costs]",
 * "parameter table:" for a model's row; @file NULL: no location, @line 0:
 * the file alone ("override: "); @reason wbsim_param_parse_row()'s
 * "[WHY: ]expected ...".
 */
void wbsim_param_value_error(GError **error, gint code, const char *file,
			     unsigned int line, const char *owner, const char *key,
			     const char *text, const char *reason);
/*
 * wbsim_param_apply() - parse @text (NULL: "") for table row @p and store
 * it in @base at @p->offset: wbsim_param_parse_row(), and "auto" where
 * the row's default is "auto". Messages are wbsim_param_value_error()'s
 * (@owner such as "device model nvme:", "filesystem xfs:" or "[costs]").
 */
gboolean wbsim_param_apply(const struct wbsim_param *p, void *base,
			   const char *text, const char *owner,
			   const char *file, unsigned int line, GError **error);
/* wbsim_param_find() - the row of @table called @key, or NULL. */
const struct wbsim_param *wbsim_param_find(const struct wbsim_param *table,
					   const char *key);
/* wbsim_param_append_names() - the keys of @table onto @out, ", "-separated,
 * but its cost rows (WBSIM_PARAM_COST: a scenario's [costs] sets them). */
void wbsim_param_append_names(GString *out, const struct wbsim_param *table);
/*
 * wbsim_param_set_unknown_key() - the one message of a key no table has:
 * "FILE:LINE: OWNER unknown key 'KEY': expected one of NAMES".
 */
void wbsim_param_set_unknown_key(GError **error, const char *owner,
				 const char *key, const char *names,
				 const char *file, unsigned int line);
/*
 * A key renamed: [@section] @old is called @now, in [@moved_to] when that
 * is not NULL (a key that changed section), for the reason @why gives.
 */
struct wbsim_param_renamed {
	const char *section;
	const char *old;
	const char *now;
	const char *moved_to;
	const char *why;
};
/* wbsim_param_renamed_keys() - the table of renamed keys, its length in *@n. */
const struct wbsim_param_renamed *wbsim_param_renamed_keys(size_t *n);
/*
 * wbsim_param_renamed() - the name a key of [@section] ("costs", "device")
 * carries now if @key is an old name (the table in param.c), else NULL.
 * wbsim_param_renamed_entry() - its row of the table, or NULL.
 * wbsim_param_check_renamed() - TRUE if @key is no old name; else FALSE
 * with wbsim_param_value_error()'s message (@owner as there): "FILE:LINE:
 * OWNER KEY = TEXT: the key was renamed to NEW (WHY): expected NEW =
 * TEXT", or for a key that changed section "...: the key moved to
 * [SECTION] as NEW (WHY): expected [SECTION] NEW = TEXT".
 */
const char *wbsim_param_renamed(const char *section, const char *key);
const struct wbsim_param_renamed *wbsim_param_renamed_entry(const char *section,
							    const char *key);
gboolean wbsim_param_check_renamed(GError **error, const char *section,
				   const char *owner, const char *key,
				   const char *text, const char *file,
				   unsigned int line);
/*
 * wbsim_param_set() - set @key of @table in @base from @text:
 * wbsim_param_apply() on its row, or the unknown-key message.
 */
gboolean wbsim_param_set(const struct wbsim_param *table, void *base,
			 const char *key, const char *text, const char *owner,
			 const char *file, unsigned int line, GError **error);
/* wbsim_param_apply_defaults() - every row's default (rows without one: kept). */
gboolean wbsim_param_apply_defaults(const struct wbsim_param *table, void *base,
				    const char *owner, GError **error);
/* wbsim_param_field_size() - the size of the field a @type row fills. */
size_t wbsim_param_field_size(enum wbsim_param_type type);
/* wbsim_param_is_text() - whether a @type field is a char * it owns. */
gboolean wbsim_param_is_text(enum wbsim_param_type type);
/* wbsim_param_needs_row() - whether a @type value is parsed by its row only. */
gboolean wbsim_param_needs_row(enum wbsim_param_type type);
/* wbsim_param_free_field() - free what row @p's field in @base owns, zero it. */
void wbsim_param_free_field(const struct wbsim_param *p, void *base);
/* wbsim_param_get_uint() - row @p's value in @base as an integer (bool: 0/1). */
uint64_t wbsim_param_get_uint(const struct wbsim_param *p, const void *base);
/* wbsim_param_unit() - @p->unit, or the unit of its type; NULL if neither. */
const char *wbsim_param_unit(const struct wbsim_param *p);
/* wbsim_param_as_double() - the value at @field as a double (ranges). */
double wbsim_param_as_double(enum wbsim_param_type type, const void *field);
/* wbsim_param_format_value() - the value at @field as text, with its unit. */
char *wbsim_param_format_value(enum wbsim_param_type type, const void *field);
/*
 * wbsim_param_describe() - what row @p takes, with its range and words,
 * for messages and the key reference: "a size in bytes (...) from 64m to
 * 64t", "an integer from 1 to 4096, or one of: cpus, auto", "one of:
 * inode, none".
 */
char *wbsim_param_describe(const struct wbsim_param *p);
/**
 * enum wbsim_param_table_rules - what a registry asks of its models' tables
 * beyond the shape every table has
 * @WBSIM_PARAM_RULE_DEFAULTS: every row has a default (no required rows)
 * @WBSIM_PARAM_RULE_NUMBERS: no text rows (STRING, NAME, PATH): the
 *	struct holds numbers only
 */
enum wbsim_param_table_rules {
	WBSIM_PARAM_RULE_DEFAULTS = 1u << 0,
	WBSIM_PARAM_RULE_NUMBERS = 1u << 1,
};

/**
 * wbsim_param_table_check_as() - the one check of a parameter table
 * @table: the rows, ending with a NULL name
 * @struct_size: the size of the struct the table fills
 * @rules: enum wbsim_param_table_rules
 * @owner: the start of the message ("parameter table:", "device model
 *	'NAME': parameter table:")
 * @error: WBSIM_ERROR_INVALID_ARGUMENT "OWNER row N: KEY: ..." naming the
 *	first bad row and its fault (wbsim_param_table_check() lists them),
 *	or a fault of @rules
 *
 * wbsim_param_table_check() is this with no rules; the registries
 * (core/registry.h) run it on each model they are given.
 * Return: TRUE, or FALSE with @error set.
 */
gboolean wbsim_param_table_check_as(const struct wbsim_param *table, size_t struct_size,
				    unsigned int rules, const char *owner, GError **error);

/* wbsim_param_where() - "FILE:LINE: " or "FILE: " or "" for messages. */
char *wbsim_param_where(const char *file, unsigned int line);

#endif
