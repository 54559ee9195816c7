/* SPDX-License-Identifier: MIT */
/*
 * wbsim/device.h - storage device models behind a table of hooks, in the
 * style of fio's ioengine_ops: a model has a name, a version, flags, an
 * option table of parameters (units, defaults, ranges) and hooks. Models are
 * registered by name; the built-ins (ideal, pmem, nvme, hdd, raid0) use the
 * same registry.
 *
 * This header is what a model needs: the ops table, its parameter table
 * type, the registry and the helpers of its hooks (wbsim/block.h has the
 * request queue_rq receives). The library makes the devices a scenario
 * names and runs the block layer in front of them; a program does not
 * make a device itself.
 *
 * A preset is a data file NAME.ini with a [device] section naming a model
 * ("model = nvme") and setting its parameters, each with a comment citing
 * its source. Presets are searched in $WBSIM_PRESET_PATH (':'-separated),
 * then the source tree's lib/block/presets (in-tree runs), then
 * $datadir/wbsim/presets. A scenario names a preset and may override any
 * parameter.
 *
 * Parameters every device has, besides its model's:
 *   scheduler      none | mq-deadline           (default: the model's)
 *   nr_requests    tags of the request queue    (0: as the kernel: the
 *                  hardware depth, twice it capped at 256 with mq-deadline)
 *   max_sectors_kb largest request in KiB       (default 1280, the kernel's
 *                  BLK_DEF_MAX_SECTORS_CAP)
 *   wbt            blk-wbt on (1, default) or off (0)
 *
 * Thread safety (every function of this header unless it says otherwise):
 * a device and its model run inside one simulation, in the
 * thread that runs it; the registry functions take a lock and are safe
 * from any thread (register before the runs that use a model).
 */
#ifndef WBSIM_DEVICE_H
#define WBSIM_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>
#include <wbsim/block.h>
#include <wbsim/cpu-costs.h>
#include <wbsim/param.h>

WBSIM_BEGIN_DECLS

struct wbsim_device;

/**
 * enum wbsim_device_flags - what kind of device a model is
 * @WBSIM_DEVICE_ROTATIONAL: a spinning disk (queue/rotational = 1); the
 *	default scheduler is mq-deadline
 * @WBSIM_DEVICE_SYNC_COPY: bio-based, no request queue: the submitter's CPU
 *	copies the data (PMEM in block mode); the model provides copy_time
 * @WBSIM_DEVICE_STACKED: built on member devices (md RAID): the members'
 *	queues pay the completion costs, the device's own queue none
 * @WBSIM_DEVICE_RAM_BACKED: its medium is the machine's own RAM (PMEM
 *	emulated on DRAM, memmap=S!O): its capacity is taken out of
 *	[machine] memory, reserved at boot
 */
enum wbsim_device_flags {
	WBSIM_DEVICE_ROTATIONAL = 1u << 0,
	WBSIM_DEVICE_SYNC_COPY = 1u << 1,
	WBSIM_DEVICE_STACKED = 1u << 2,
	WBSIM_DEVICE_RAM_BACKED = 1u << 3,
};

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
 */
enum wbsim_param_flags {
	WBSIM_PARAM_REPEATABLE = 1u << 0,
	WBSIM_PARAM_NO_STORE = 1u << 1,
	WBSIM_PARAM_NO_DUMP = 1u << 2,
	WBSIM_PARAM_ZERO_OR_RANGE = 1u << 3,
};

/* 3: struct wbsim_param gained @section, @flags, @names and @names_fn */
#define WBSIM_DEVICE_OPS_VERSION 3

/**
 * struct wbsim_device_ops - a device model
 * @name: registry name ("nvme")
 * @version: WBSIM_DEVICE_OPS_VERSION
 * @flags: enum wbsim_device_flags
 * @help: one line describing the model
 * @params: option table
 * @priv_size: size of the private struct the parameters are parsed into
 *	(wbsim_device_priv())
 * @default_scheduler: "none" or "mq-deadline"
 * @init: mandatory: check the parsed parameters, set up the model and call
 *	wbsim_device_set_limits(); return FALSE with @error set on a bad
 *	combination
 * @queue_rq: mandatory unless SYNC_COPY: take @rq (the block layer never
 *	exceeds the hardware depth); call wbsim_device_end_request() when done
 * @copy_time: mandatory for SYNC_COPY: the time the submitter's CPU spends
 *	copying @bytes starting now (may reserve shared bandwidth)
 * @get_stats: optional: add model statistics (seeks) to @stats
 * @exit: optional: free what @init allocated (not the private struct)
 */
struct wbsim_device_ops {
	const char *name;
	unsigned int version;
	unsigned int flags;
	const char *help;
	const struct wbsim_param *params;
	size_t priv_size;
	const char *default_scheduler;
	gboolean (*init)(struct wbsim_device *dev, GError **error);
	void (*queue_rq)(struct wbsim_device *dev, struct wbsim_request *rq);
	wbsim_time_t (*copy_time)(struct wbsim_device *dev, uint64_t bytes);
	void (*get_stats)(struct wbsim_device *dev, struct wbsim_blk_stats *stats);
	void (*exit)(struct wbsim_device *dev);
};

/**
 * wbsim_device_register() - add a model to the registry
 * @ops: the model; must stay valid for the life of the process
 * @error: WBSIM_ERROR_INVALID_ARGUMENT naming the missing hook, a wrong
 *	version, the first bad row of @ops->params ("device model 'NAME':
 *	parameter table: row N: KEY: ...", the faults
 *	wbsim_param_table_check() finds, with @ops->priv_size as the struct's
 *	size) or a name already registered
 *
 * Thread safety: safe from any thread.
 * Return: TRUE on success.
 */
WBSIM_API gboolean wbsim_device_register(const struct wbsim_device_ops *ops,
					 GError **error);

/** wbsim_device_find_ops() - a registered model by name, or NULL. */
WBSIM_API const struct wbsim_device_ops *wbsim_device_find_ops(const char *name);

/** wbsim_device_name() - the preset name, or the model name. */
WBSIM_API const char *wbsim_device_name(const struct wbsim_device *dev);

/* --- for device models ------------------------------------------------- */

/** wbsim_device_priv() - the model's private struct (parameters parsed in). */
WBSIM_API void *wbsim_device_priv(struct wbsim_device *dev);
WBSIM_API wbsim_sim *wbsim_device_sim(struct wbsim_device *dev);
WBSIM_API wbsim_cpus *wbsim_device_cpus(struct wbsim_device *dev);
WBSIM_API const struct wbsim_cpu_costs *wbsim_device_costs(struct wbsim_device *dev);

/**
 * wbsim_device_set_limits() - called by a model's init
 * @dev: the device
 * @capacity_sectors: size in 512-byte sectors
 * @hw_queue_depth: requests the device accepts at once (>= 1)
 * @rotational: TRUE for a spinning disk
 */
WBSIM_API void wbsim_device_set_limits(struct wbsim_device *dev,
				       uint64_t capacity_sectors,
				       unsigned int hw_queue_depth,
				       gboolean rotational);

/**
 * wbsim_device_set_write_cache() - called by a model's init when the device
 * has a volatile write cache (the kernel's QUEUE_FLAG_WC; blk-wbt wakes
 * throttled writers later on such devices)
 */
WBSIM_API void wbsim_device_set_write_cache(struct wbsim_device *dev,
					    gboolean volatile_cache);

/**
 * wbsim_device_set_hw_queues() - called by a model's init when the device has
 * @nr_queues hardware queues, each with its own interrupt vector (NVMe's
 * queue pairs with MSI-X): blk-mq spreads the CPUs over them, and a
 * request's completion interrupt runs on the first CPU of its submitter's
 * queue (with a queue per CPU, the submitting CPU), preempting whatever
 * runs there. A model that does not call it completes on one task that
 * takes any free CPU.
 */
WBSIM_API void wbsim_device_set_hw_queues(struct wbsim_device *dev, unsigned int nr_queues);

/**
 * wbsim_device_end_request() - the device has finished @rq; the block layer
 * runs the completion (IRQ CPU cost, end_io of its bios, tag release)
 */
WBSIM_API void wbsim_device_end_request(struct wbsim_device *dev,
					struct wbsim_request *rq);

WBSIM_END_DECLS

#endif /* WBSIM_DEVICE_H */
