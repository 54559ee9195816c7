/* SPDX-License-Identifier: MIT */
/*
 * wbsim/device.h - storage device models behind a table of hooks, in the
 * style of fio's ioengine_ops: a model has a name, a version, flags, an
 * option table of parameters (units, defaults, ranges) and hooks. Models are
 * registered by name; the built-ins (ideal, pmem, nvme, hdd, raid0) use the
 * same registry.
 *
 * This header is what a model needs: the ops table, the registry and the
 * helpers of its hooks (wbsim/param.h has the parameter table's row,
 * wbsim/block.h the request queue_rq receives). The library makes the devices a scenario
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
 * @WBSIM_DEVICE_HOST_WORKER: a kernel worker of the host writes each
 *	request into a backing file (the loop driver without direct I/O),
 *	at the cost table's loop_request_ns and loop_page_*_ns
 */
enum wbsim_device_flags {
	WBSIM_DEVICE_ROTATIONAL = 1u << 0,
	WBSIM_DEVICE_SYNC_COPY = 1u << 1,
	WBSIM_DEVICE_STACKED = 1u << 2,
	WBSIM_DEVICE_RAM_BACKED = 1u << 3,
	WBSIM_DEVICE_HOST_WORKER = 1u << 4,
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
