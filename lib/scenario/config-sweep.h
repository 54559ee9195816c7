/* SPDX-License-Identifier: MIT */
/*
 * scenario/config-sweep.h - the [sweep] lines of a scenario, read and
 * checked at load (scenario/config-sweep.c); the runner's sweeps
 * (run/sweep.h) expand them into points.
 */
#ifndef WBSIM_SCENARIO_CONFIG_SWEEP_H
#define WBSIM_SCENARIO_CONFIG_SWEEP_H

#include <glib.h>

struct wbsim_config;

/* No sweep may have more points than this (a typo like 1..100000000). */
#define WBSIM_SWEEP_MAX_POINTS 10000

/**
 * struct wbsim_sweep_axis - one swept key
 * @name: "section.key" as written
 * @section: the section
 * @key: the key
 * @text: the VALUES as written
 * @values: the values (char *), in order
 * @file: where the sweep was given: a file, or "wbsim_sweep_opts.sweeps"
 * @line: the line in @file (0 for an item of wbsim_sweep_opts.sweeps)
 * @base_dir: directory a file-name value is relative to (NULL: as given)
 */
struct wbsim_sweep_axis {
	char *name;
	char *section;
	char *key;
	char *text;
	GPtrArray *values;
	char *file;
	unsigned int line;
	char *base_dir;
};

/**
 * wbsim_sweep_axis_new() - the axis of "@name = @text"
 * @name: "section.key"
 * @text: VALUES
 * @file: where it is given (a file, or "wbsim_sweep_opts.sweeps")
 * @line: the line in @file (0: none)
 * @base_dir: directory a file-name value is relative to (NULL: as given)
 * @error: the reason only, for the caller to place
 *
 * Return: a new axis (wbsim_sweep_axis_free()), or NULL with @error set.
 */
struct wbsim_sweep_axis *wbsim_sweep_axis_new(const char *name, const char *text,
					      const char *file, unsigned int line,
					      const char *base_dir, GError **error);

/* @s is a non-empty run of decimal digits fitting in 64 bits (*@out). */
gboolean wbsim_sweep_range_number(const char *s, guint64 *out);

/* Free an axis (a GDestroyNotify). */
void wbsim_sweep_axis_free(gpointer axis);

/**
 * wbsim_sweep_parse_values() - expand a VALUES text
 * @text: "1..12", "1..12:2", "1,2,4,8", "xfs,ext4", "1..4,8,cpus"
 * @ranges: whether FIRST..LAST items are ranges (FALSE for text and
 *	file-name keys, whose values may contain "..")
 * @out: the values are appended (char *, g_free)
 * @error: WBSIM_ERROR_INVALID_VALUE whose message is the reason only
 *	("range 5..1 is empty: expected FIRST <= LAST")
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_parse_values(const char *text, gboolean ranges,
				  GPtrArray *out, GError **error);

/**
 * wbsim_sweep_add_line() - a [sweep] line of a scenario file (the loader's
 * part: called by wbsim_config_set_value() for section "sweep")
 * @cfg: the configuration being loaded
 * @name: the line's key, "section.key"
 * @value: the line's value (VALUES), or NULL when the line has none
 * @file: the file
 * @line: the line
 * @instance: the loaded file (a key may be swept once per file; a later
 *	file replaces an earlier file's sweep of the key, where it stood)
 * @base_dir: the file's directory
 * @error: "FILE:LINE: [sweep] KEY = VALUES: reason"
 *
 * Checks that KEY names a scenario key holding one value, and that VALUES
 * parses; the values themselves are checked point by point.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_add_line(struct wbsim_config *cfg, const char *name,
			      const char *value, const char *file,
			      unsigned int line, unsigned int instance,
			      const char *base_dir, GError **error);

#endif /* WBSIM_SCENARIO_CONFIG_SWEEP_H */
