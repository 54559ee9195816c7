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
 * declared here, the one layout every table uses: a device model's
 * (wbsim/device.h), a filesystem model's options (wbsim/fs.h), the CPU
 * costs and the scenario keys.
 *
 * Thread safety: every function only reads the table and writes @base;
 * calls on different structs may run at once.
 */
#ifndef WBSIM_PARAM_H
#define WBSIM_PARAM_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>

WBSIM_BEGIN_DECLS

/**
 * enum wbsim_param_type - the type and unit of a parameter, in the one
 * grammar of every scenario section (scenarios/README.md, "Units")
 * @WBSIM_PARAM_UINT: an unsigned integer (uint64_t), no unit
 * @WBSIM_PARAM_BOOL: 0/1, true/false, yes/no, on/off (gboolean)
 * @WBSIM_PARAM_SIZE: bytes (uint64_t); suffixes k, m, g, t, p, optionally
 *	with b, any case: powers of 1024 (fio's with kb_base=1024); no
 *	suffix: bytes; KiB-style IEC suffixes are refused
 * @WBSIM_PARAM_TIME: nanoseconds (uint64_t); units ns, us, ms, s, m, h, d;
 *	no unit is an error (but for 0)
 * @WBSIM_PARAM_RATE: bytes per second (uint64_t); a size, optionally
 *	followed by "/s"
 * @WBSIM_PARAM_DOUBLE: a number (double)
 * @WBSIM_PARAM_STRING: text (char *, owned by the struct the table fills)
 * @WBSIM_PARAM_PERCENT: a whole percentage 0..100, optionally followed by
 *	'%' (uint64_t), as the kernel's *_ratio sysctls
 * @WBSIM_PARAM_CENTISECS: a whole number of 1/100 s (uint64_t), as the
 *	kernel's *_centisecs sysctls keep them
 * @WBSIM_PARAM_ENUM: one of the row's @names (unsigned int: its index)
 * @WBSIM_PARAM_NAME: one of the names the row's @names_fn returns at the
 *	time (char *: the name; a registry's, such as the affinity policies)
 * @WBSIM_PARAM_PATH: a file name, relative to the directory of the file
 *	that sets it (char *: the resolved name)
 */
enum wbsim_param_type {
	WBSIM_PARAM_UINT,
	WBSIM_PARAM_BOOL,
	WBSIM_PARAM_SIZE,
	WBSIM_PARAM_TIME,
	WBSIM_PARAM_RATE,
	WBSIM_PARAM_DOUBLE,
	WBSIM_PARAM_STRING,
	WBSIM_PARAM_PERCENT,
	WBSIM_PARAM_CENTISECS,
	WBSIM_PARAM_ENUM,
	WBSIM_PARAM_NAME,
	WBSIM_PARAM_PATH,
};

/**
 * struct wbsim_param - one entry of a parameter table: a device model's
 * option table, a filesystem model's options (struct wbsim_fs_ops), the
 * CPU cost table (lib/core/cpu-costs.c), the scenario keys
 * (lib/scenario/config.c); set through one lookup, parser and range check
 * (lib/core/param.c)
 * @name: the key
 * @type: type and unit
 * @offset: offsetof() the field in the struct the table fills (a model's
 *	private struct)
 * @def: default value as text (parsed like a setting); NULL: required (a
 *	device model's) or set elsewhere (the CPU costs); "auto": the value
 *	may also be "auto", stored as WBSIM_PARAM_AUTO, for the model to
 *	compute
 * @unit: what a count counts ("blocks", "requests"); NULL: the unit of
 *	@type (bytes, ns, bytes/s); "": none shown
 * @min: smallest accepted value in base units
 * @max: largest accepted value in base units; 0: no upper limit (and
 *	@min 0 too: no range check)
 * @help: one line: what it is
 * @section: the scenario section of a scenario key ("vm"); NULL in a
 *	model's table (the section is the model's)
 * @flags: enum wbsim_param_flags
 * @names: for ENUM, the names (NULL-terminated); for a number, words also
 *	accepted, stored as WBSIM_PARAM_SPECIAL(index) ("cpus", "auto")
 * @names_fn: for NAME, the names valid now (a new NULL-terminated array:
 *	g_strfreev() it)
 *
 * The table ends with an entry whose @name is NULL. A model's rows may be
 * written positionally up to @help: the members after it stay zero.
 */
struct wbsim_param {
	const char *name;
	enum wbsim_param_type type;
	size_t offset;
	const char *def;
	const char *unit;
	double min, max;
	const char *help;
	const char *section;
	unsigned int flags;
	const char *const *names;
	char **(*names_fn)(void);
};

/** WBSIM_PARAM_AUTO - stored for "auto" (a uint64_t row whose default is "auto"). */
#define WBSIM_PARAM_AUTO UINT64_MAX

/** WBSIM_PARAM_SPECIAL() - what the @i-th of a number row's @names stores. */
#define WBSIM_PARAM_SPECIAL(i) (UINT64_MAX - (uint64_t)(i))

/**
 * enum wbsim_param_flags - properties of a row (struct wbsim_param @flags)
 * @WBSIM_PARAM_REPEATABLE: the key may appear several times in a section;
 *	its lines are kept by the loader, not stored at @offset (and it
 *	cannot be swept)
 * @WBSIM_PARAM_NO_STORE: the row has no field (the loader handles it:
 *	[scenario] include, [events] at, [measure] extents)
 * @WBSIM_PARAM_NO_DUMP: not printed by --dump-config
 * @WBSIM_PARAM_ZERO_OR_RANGE: 0 is accepted besides @min..@max (0 =
 *	unset, as vm.dirty_bytes)
 * @WBSIM_PARAM_COST: a filesystem model's CPU cost, a figure of the host
 *	rather than of the filesystem: its value comes from the host profile
 *	as "FS.KEY" (a scenario's [costs] section, else the built-in
 *	profile), and @def only where the built-in profile has no such key
 *	(a model a program registered); a scenario's [filesystem] refuses it
 */
enum wbsim_param_flags {
	WBSIM_PARAM_REPEATABLE = 1u << 0,
	WBSIM_PARAM_NO_STORE = 1u << 1,
	WBSIM_PARAM_NO_DUMP = 1u << 2,
	WBSIM_PARAM_ZERO_OR_RANGE = 1u << 3,
	WBSIM_PARAM_COST = 1u << 4,
};


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
