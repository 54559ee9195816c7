/* SPDX-License-Identifier: MIT */
/*
 * wbsim/param.h - parameter tables: the one grammar of sizes, rates, times,
 * counts and booleans (scenarios/README.md, "Units") that the library
 * parses a device model's parameters, a filesystem model's options and the
 * CPU costs with, for a model's own checks and tests.
 *
 * A table is an array of struct wbsim_param rows ending with a row whose
 * name is NULL; each row names a key, its type and unit, the offset of the
 * field it fills in the model's struct, a default, a range and a line of
 * help. The registries (wbsim_device_register(), wbsim_fs_register()) parse
 * a scenario's settings into a model's struct through its table; a model
 * never parses a setting itself. These functions let a model check its
 * table and fill its struct the same way outside a simulation, in its own
 * tests:
 *
 *   struct my_params p = { 0 };
 *
 *   wbsim_param_table_check(my_params_table, sizeof(p), &error);
 *   wbsim_param_table_defaults(my_params_table, &p, &error);
 *   wbsim_param_table_set(my_params_table, &p, "latency", "20us", &error);
 *   ...
 *   wbsim_param_table_clear(my_params_table, &p);
 *
 * The row (struct wbsim_param, enum wbsim_param_type, WBSIM_PARAM_AUTO) is
 * declared in wbsim/device.h, with the device ops it first served; this
 * header only uses it through pointers.
 *
 * Thread safety: every function only reads the table and writes @base;
 * calls on different structs may run at once.
 */
#ifndef WBSIM_PARAM_H
#define WBSIM_PARAM_H

#include <stddef.h>
#include <glib.h>
#include <wbsim/macros.h>

WBSIM_BEGIN_DECLS

struct wbsim_param;

/**
 * wbsim_param_table_check() - whether a table is one the registries accept
 * and the key reference can list
 * @table: the rows, ending with a NULL name
 * @struct_size: the size of the struct the table fills
 * @error: WBSIM_ERROR_INVALID_ARGUMENT "parameter table: row N: KEY: ..."
 *	naming the first bad row and its fault: a key twice, a field outside
 *	@struct_size, no line of help, a minimum above the maximum, or a
 *	default that does not parse with the row's own grammar or lies
 *	outside its range (a row without a default is a required one)
 *
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_param_table_check(const struct wbsim_param *table,
					   size_t struct_size, GError **error);

/**
 * wbsim_param_table_defaults() - set every row that has a default
 * @table: the rows
 * @base: the struct the table fills; rows without a default keep their
 *	value
 * @error: as wbsim_param_table_set() (a default that does not parse)
 *
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_param_table_defaults(const struct wbsim_param *table, void *base,
					      GError **error);

/**
 * wbsim_param_table_set() - set one key from its text, as a scenario line
 * "key = value" sets it
 * @table: the rows
 * @base: the struct the table fills
 * @key: the row's key
 * @value: the text, in the row's grammar: a size ("4k", "1m": powers of
 *	1024), a time with its unit ("20us", "5s"), a rate ("200m/s"), a
 *	count, a boolean (0/1, true/false, yes/no, on/off), a number, a
 *	string, or "auto" where the row's default is "auto"
 * @error: WBSIM_ERROR_UNKNOWN_KEY "parameter table: unknown key 'KEY':
 *	expected one of KEYS"; WBSIM_ERROR_INVALID_VALUE "parameter table:
 *	KEY = TEXT: [WHY: ]expected ..." (what the row takes, with its range:
 *	the frame of a bad scenario value, "FILE:LINE: [SECTION] KEY = TEXT:
 *	...")
 *
 * A string row's old value is freed (wbsim_param_table_clear() frees the
 * last).
 * Return: TRUE, or FALSE with @error set and the field unchanged.
 */
WBSIM_API gboolean wbsim_param_table_set(const struct wbsim_param *table, void *base,
					 const char *key, const char *value, GError **error);

/**
 * wbsim_param_table_clear() - free the strings the table's string rows
 * hold in @base and set them to NULL (other fields are left as they are)
 * @table: the rows
 * @base: the struct the table fills
 */
WBSIM_API void wbsim_param_table_clear(const struct wbsim_param *table, void *base);

WBSIM_END_DECLS

#endif /* WBSIM_PARAM_H */
