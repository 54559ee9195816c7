/* SPDX-License-Identifier: MIT */
/*
 * fio/fio-value.h - fio's typed values: sizes with kb_base, times,
 * substitutions (${VAR}, $ncpus, ...) and the arithmetic evaluator.
 *
 * Every parser returns FALSE and sets *why to a newly allocated sentence
 * saying what was expected; the caller adds file, line and option.
 */
#ifndef WBSIM_FIO_FIO_VALUE_H
#define WBSIM_FIO_FIO_VALUE_H

#include <stdint.h>
#include <glib.h>
#include "defs/fio.h"

/**
 * enum wbsim_fio_expr_mode - how numbers inside an expression are read
 * @WBSIM_FIO_EXPR_BYTES: k/m/g/t/p (optional b) are powers of 1024 and
 *	KiB/MiB/... powers of 1000, whatever kb_base says (fio's
 *	exp/expression-parser.l rule for parenthesised values)
 * @WBSIM_FIO_EXPR_TIME: us/usec, ms/msec, s, m, h, d; a bare number is
 *	microseconds; the result is microseconds
 * @WBSIM_FIO_EXPR_PLAIN: integers only, as bc(1) computes them after
 *	keyword substitution (integer division truncates)
 */
enum wbsim_fio_expr_mode {
	WBSIM_FIO_EXPR_BYTES,
	WBSIM_FIO_EXPR_TIME,
	WBSIM_FIO_EXPR_PLAIN,
};

/**
 * wbsim_fio_eval() - evaluate an integer expression
 * @expr: the text: + - * / % ^ (power, right-associative), unary +/-,
 *	  parentheses, decimal or 0x hex numbers with @mode's suffixes
 * @mode: enum wbsim_fio_expr_mode
 * @out: the value
 * @why: on failure, what went wrong (overflow, division by zero, syntax)
 *
 * All arithmetic is 64-bit signed; an overflow is an error, never a wrap.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_fio_eval(const char *expr, enum wbsim_fio_expr_mode mode,
			int64_t *out, char **why);

/**
 * wbsim_fio_parse_size() - a size or integer with fio's suffixes
 * @s: the text: "(expr)", or decimal/0x-hex digits then an optional
 *     suffix k, kb, kib, m, ..., p (any case), b, or "%" if @percent
 *     is not NULL
 * @kb_base: 1024 (k = 1024, KiB = 1000: fio's inverted compatibility
 *	     mode) or 1000 (k = 1000, KiB = 1024)
 * @allow_negative: accept a leading '-' (nice=-5)
 * @out: the value in bytes (or the plain number)
 * @percent: if not NULL, "N%" is accepted: *@percent is set TRUE and
 *	     *@out is N
 * @why: on failure, what was expected
 *
 * Return: TRUE on success.
 */
gboolean wbsim_fio_parse_size(const char *s, unsigned int kb_base,
			      gboolean allow_negative, int64_t *out,
			      gboolean *percent, char **why);

/**
 * wbsim_fio_parse_time() - a time with fio's suffixes, in microseconds
 * @s: "(expr)" or digits with an optional suffix d, h, m, s, ms/msec,
 *     us/usec (any case)
 * @is_seconds: a number without suffix is seconds (runtime=) instead of
 *		microseconds (thinktime=)
 * @out_us: the time in microseconds
 * @why: on failure, what was expected
 *
 * Return: TRUE on success.
 */
gboolean wbsim_fio_parse_time(const char *s, gboolean is_seconds,
			      uint64_t *out_us, char **why);

/**
 * wbsim_fio_parse_uint() - fio's check_int(): decimal or 0x hex, no suffix
 * @s: the text
 * @out: the value
 * @why: on failure, what was expected
 *
 * Return: TRUE on success.
 */
gboolean wbsim_fio_parse_uint(const char *s, uint64_t *out, char **why);

/**
 * wbsim_fio_subst_env() - replace every ${VAR} by the environment value
 * @value: the text
 *
 * An unset variable becomes the empty string, as in fio.
 *
 * Return: a new string.
 */
char *wbsim_fio_subst_env(const char *value);

/**
 * wbsim_fio_subst_keywords() - replace $pagesize, $mb_memory and $ncpus
 * @value: the text
 * @env: the simulated machine
 * @replaced: set TRUE if any keyword was replaced
 *
 * Return: a new string.
 */
char *wbsim_fio_subst_keywords(const char *value,
			       const struct wbsim_fio_env *env,
			       gboolean *replaced);

#endif /* WBSIM_FIO_FIO_VALUE_H */
