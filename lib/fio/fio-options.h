/* SPDX-License-Identifier: MIT */
/*
 * fio/fio-options.h - the one table of fio's job options.
 *
 * Each entry gives fio's name, alias, value type, default and flags, plus
 * what wbsim does with it (enum wbsim_fio_disposition) and, for the options
 * the simulator uses, which job field it sets (enum wbsim_fio_key). The
 * same table drives parsing, defaults, "Did you mean" and --parse-only.
 */
#ifndef WBSIM_FIO_FIO_OPTIONS_H
#define WBSIM_FIO_FIO_OPTIONS_H

#include <stdint.h>
#include <glib.h>

/**
 * enum wbsim_fio_opt_type - fio's option types (parse.h FIO_OPT_*)
 * @WBSIM_FIO_T_STR_STORE: free string
 * @WBSIM_FIO_T_STR: one of @posval (longest prefix match, the rest after
 *	':' is a postfix), or any string if there is no posval; may be bare
 * @WBSIM_FIO_T_STR_SET: a flag; bare, or an integer
 * @WBSIM_FIO_T_BOOL: an integer, non-zero is true; never bare
 * @WBSIM_FIO_T_INT: integer with size suffixes (fio reads numjobs=1k as 1024)
 * @WBSIM_FIO_T_ULL: 64-bit integer with size suffixes
 * @WBSIM_FIO_T_STR_VAL: 64-bit size
 * @WBSIM_FIO_T_STR_VAL_ZONE: 64-bit size, or N%
 * @WBSIM_FIO_T_STR_VAL_TIME: a time
 * @WBSIM_FIO_T_RANGE: "lo-hi" or "lo:hi" sizes, swapped if lo > hi
 * @WBSIM_FIO_T_FLOAT_LIST: ':'-separated decimal numbers
 * @WBSIM_FIO_T_STR_MULTI: ','-separated posvals, optional ":N"
 * @WBSIM_FIO_T_STR_ULL: a structured string (bssplit=4k/50:8k/50)
 * @WBSIM_FIO_T_DEPRECATED: accepted and ignored, fio says so
 */
enum wbsim_fio_opt_type {
	WBSIM_FIO_T_STR_STORE,
	WBSIM_FIO_T_STR,
	WBSIM_FIO_T_STR_SET,
	WBSIM_FIO_T_BOOL,
	WBSIM_FIO_T_INT,
	WBSIM_FIO_T_ULL,
	WBSIM_FIO_T_STR_VAL,
	WBSIM_FIO_T_STR_VAL_ZONE,
	WBSIM_FIO_T_STR_VAL_TIME,
	WBSIM_FIO_T_RANGE,
	WBSIM_FIO_T_FLOAT_LIST,
	WBSIM_FIO_T_STR_MULTI,
	WBSIM_FIO_T_STR_ULL,
	WBSIM_FIO_T_DEPRECATED,
};

/**
 * enum wbsim_fio_disposition - what wbsim does with an option
 * @WBSIM_FIO_MODELLED: the simulator uses the value
 * @WBSIM_FIO_REPORTING_ONLY: accepted, changes nothing wbsim simulates or
 *	prints (buffer contents, clocks, error handling for errors that never
 *	happen, names)
 * @WBSIM_FIO_WARN: accepted with a warning: fio uses it, its effect on
 *	writeback is nil or small, or it changes fio's output in a way the
 *	report does not apply; wbsim ignores it (quietly at fio's default)
 * @WBSIM_FIO_REFUSE: refused with WBSIM_ERROR_UNSUPPORTED: it changes what
 *	is written or when, and wbsim does not model it
 */
enum wbsim_fio_disposition {
	WBSIM_FIO_MODELLED,
	WBSIM_FIO_REPORTING_ONLY,
	WBSIM_FIO_WARN,
	WBSIM_FIO_REFUSE,
};

/* Flags of struct wbsim_fio_optdesc. */
enum {
	WBSIM_FIO_F_DDIR = 1 << 0,	/* per direction: read,write,trim */
	WBSIM_FIO_F_HIGH = 1 << 1,	/* STR_VAL(_TIME) taking "lo-hi" */
	WBSIM_FIO_F_TIME = 1 << 2,	/* INT/ULL read as a time (us) */
	WBSIM_FIO_F_SECONDS = 1 << 3,	/* time without suffix is seconds */
	WBSIM_FIO_F_SIGNED = 1 << 4,	/* may be negative (nice=-5) */
	WBSIM_FIO_F_ZERO_OK = 1 << 5,	/* 0 disables it: no warning/refusal */
	WBSIM_FIO_F_CMDLINE = 1 << 6,	/* fio command-line option, accepted */
};

/** enum wbsim_fio_key - the job field an option sets */
enum wbsim_fio_key {
	WBSIM_FIO_K_NONE,
	WBSIM_FIO_K_NAME,
	WBSIM_FIO_K_DESCRIPTION,
	WBSIM_FIO_K_WAIT_FOR,
	WBSIM_FIO_K_FILENAME,
	WBSIM_FIO_K_DIRECTORY,
	WBSIM_FIO_K_FILENAME_FORMAT,
	WBSIM_FIO_K_RW,
	WBSIM_FIO_K_IOENGINE,
	WBSIM_FIO_K_IODEPTH,
	WBSIM_FIO_K_SIZE,
	WBSIM_FIO_K_IO_SIZE,
	WBSIM_FIO_K_FILESIZE,
	WBSIM_FIO_K_OFFSET,
	WBSIM_FIO_K_OFFSET_INCREMENT,
	WBSIM_FIO_K_NUMBER_IOS,
	WBSIM_FIO_K_BS,
	WBSIM_FIO_K_BSRANGE,
	WBSIM_FIO_K_RANDREPEAT,
	WBSIM_FIO_K_RANDSEED,
	WBSIM_FIO_K_NORANDOMMAP,
	WBSIM_FIO_K_RANDOM_GENERATOR,
	WBSIM_FIO_K_ALLRANDREPEAT,
	WBSIM_FIO_K_NRFILES,
	WBSIM_FIO_K_FILE_SERVICE_TYPE,
	WBSIM_FIO_K_FALLOCATE,
	WBSIM_FIO_K_FSYNC,
	WBSIM_FIO_K_FDATASYNC,
	WBSIM_FIO_K_DIRECT,
	WBSIM_FIO_K_BUFFERED,
	WBSIM_FIO_K_OVERWRITE,
	WBSIM_FIO_K_LOOPS,
	WBSIM_FIO_K_NUMJOBS,
	WBSIM_FIO_K_STARTDELAY,
	WBSIM_FIO_K_RUNTIME,
	WBSIM_FIO_K_TIME_BASED,
	WBSIM_FIO_K_RAMP_TIME,
	WBSIM_FIO_K_RWMIXREAD,
	WBSIM_FIO_K_RWMIXWRITE,
	WBSIM_FIO_K_THINKTIME,
	WBSIM_FIO_K_THINKTIME_BLOCKS,
	WBSIM_FIO_K_RATE,
	WBSIM_FIO_K_RATE_IOPS,
	WBSIM_FIO_K_INVALIDATE,
	WBSIM_FIO_K_CREATE_SERIALIZE,
	WBSIM_FIO_K_CREATE_FSYNC,
	WBSIM_FIO_K_CREATE_ON_OPEN,
	WBSIM_FIO_K_END_FSYNC,
	WBSIM_FIO_K_FSYNC_ON_CLOSE,
	WBSIM_FIO_K_END_SYNCFS,
	WBSIM_FIO_K_UNLINK,
	WBSIM_FIO_K_UNLINK_EACH_LOOP,
	WBSIM_FIO_K_EXITALL,
	WBSIM_FIO_K_STONEWALL,
	WBSIM_FIO_K_NEW_GROUP,
	WBSIM_FIO_K_GROUP_REPORTING,
	WBSIM_FIO_K_KB_BASE,
	WBSIM_FIO_K_FILE_APPEND,
	WBSIM_FIO_K_CGROUP,
	WBSIM_FIO_K_CGROUP_NODELETE,
	WBSIM_FIO_K_WRITE_BW_LOG,
	WBSIM_FIO_K_WRITE_LAT_LOG,
	WBSIM_FIO_K_WRITE_IOPS_LOG,
	WBSIM_FIO_K_LOG_AVG_MSEC,
	WBSIM_FIO_K_PER_JOB_LOGS,
	WBSIM_FIO_K_LOG_OFFSET,
	WBSIM_FIO_K_LOG_PRIO,
	WBSIM_FIO_K_LOG_WINDOW_VALUE,
	WBSIM_FIO_K_BWAVGTIME,
	WBSIM_FIO_K_IOPSAVGTIME,
	WBSIM_FIO_K_THREAD,
};

/**
 * struct wbsim_fio_optdesc - one fio option
 * @name: fio's name
 * @alias: fio's alias, or NULL
 * @type: enum wbsim_fio_opt_type
 * @disp: enum wbsim_fio_disposition
 * @flags: WBSIM_FIO_F_*
 * @prio: fio's sort priority (higher is applied first)
 * @key: the job field it sets
 * @def: fio's default as text, or NULL
 * @posval: '|'-separated possible values of STR/STR_MULTI options
 * @ok: for WARN/REFUSE STR options, '|'-separated values that are harmless
 *	(the option then counts as reporting only)
 * @minval: smallest value (0 = no check unless @maxval)
 * @maxval: largest value (0 = no check)
 * @why: for WARN/REFUSE, why wbsim does not model it
 * @engines: for an ioengine option, the ','-separated engines owning it;
 *	     NULL for a core option
 */
struct wbsim_fio_optdesc {
	const char *name;
	const char *alias;
	enum wbsim_fio_opt_type type;
	enum wbsim_fio_disposition disp;
	unsigned int flags;
	int prio;
	enum wbsim_fio_key key;
	const char *def;
	const char *posval;
	const char *ok;
	int64_t minval, maxval;
	const char *why;
	const char *engines;
};

/**
 * wbsim_fio_options() - the core option table
 * @n: set to the number of entries
 *
 * Return: the table.
 */
const struct wbsim_fio_optdesc *wbsim_fio_options(guint *n);

/**
 * wbsim_fio_option_find() - look a core option up by name or alias
 * @name: exact, case-sensitive, as fio's o_match()
 *
 * Return: the entry, or NULL.
 */
const struct wbsim_fio_optdesc *wbsim_fio_option_find(const char *name);

/**
 * wbsim_fio_engine_option_find() - look an ioengine option up
 * @engine: the job's ioengine
 * @name: the option name
 *
 * Return: the entry if @engine owns an option @name, else NULL.
 */
const struct wbsim_fio_optdesc *wbsim_fio_engine_option_find(const char *engine,
							     const char *name);

/**
 * wbsim_fio_option_closest() - fio's "Did you mean" candidate
 * @name: an unknown option name
 *
 * Return: the nearest core option name if it is close enough (the same
 * rule as fio's string_distance_ok()), else NULL.
 */
const char *wbsim_fio_option_closest(const char *name);

/**
 * enum wbsim_fio_engine_kind - what wbsim makes of an ioengine
 * @WBSIM_FIO_ENGINE_UNKNOWN: fio has no such engine
 * @WBSIM_FIO_ENGINE_MODELLED: buffered or direct file writes through
 *	write(2)-like calls (sync, psync, libaio, io_uring, ...)
 * @WBSIM_FIO_ENGINE_REFUSED: an engine fio has whose I/O wbsim does not
 *	model (network, mmap, devices, special file operations)
 */
enum wbsim_fio_engine_kind {
	WBSIM_FIO_ENGINE_UNKNOWN,
	WBSIM_FIO_ENGINE_MODELLED,
	WBSIM_FIO_ENGINE_REFUSED,
};

/* What a modelled engine does with a job's writes. */
enum wbsim_fio_engine_flags {
	/* up to iodepth writes in flight (direct I/O); else one at a time */
	WBSIM_FIO_ENGINE_ASYNC = 1u << 0,
	/* buffered writes through io_uring: the fio thread submits, an io-wq
	 * worker runs a write that cannot go without blocking (fio/job.c) */
	WBSIM_FIO_ENGINE_IO_URING = 1u << 1,
};

/**
 * struct wbsim_fio_engine - one ioengine of fio
 * @name: as ioengine= names it
 * @why: why wbsim does not model it, NULL when it does
 * @flags: enum wbsim_fio_engine_flags, for a modelled engine
 */
struct wbsim_fio_engine {
	const char *name;
	const char *why;
	unsigned int flags;
};

/* The engine @engine (NULL: none), or NULL: not one fio has. */
const struct wbsim_fio_engine *wbsim_fio_engine_find(const char *engine);

/* The modelled engines' names: "sync, psync, ... or posixaio" (g_free()). */
char *wbsim_fio_engines_modelled(void);

/**
 * wbsim_fio_engine_lookup() - classify an ioengine name
 * @engine: the value of ioengine=
 * @why: for a refused engine, set to a static reason
 *
 * Return: the classification.
 */
enum wbsim_fio_engine_kind wbsim_fio_engine_lookup(const char *engine,
						   const char **why);

#endif /* WBSIM_FIO_FIO_OPTIONS_H */
