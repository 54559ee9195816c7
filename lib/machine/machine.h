/* SPDX-License-Identifier: MIT */
/*
 * machine/machine.h - the simulated machine a scenario runs on: CPUs, the
 * cost table, memory, one device with its filesystem and bdi, the files,
 * and the jobs.
 *
 * A room of its own (machine.c): lib/run builds the machine from a
 * description it fills from the scenario (struct wbsim_machine_spec), the
 * jobs of lib/fio call it through its door (machine/sys.h); the machine
 * reads no scenario and knows no job, so it calls neither room. The knobs
 * of its kernel, [vm] and [writeback], are its own too (machine/knobs.h).
 */
#ifndef WBSIM_MACHINE_MACHINE_H
#define WBSIM_MACHINE_MACHINE_H

#include <wbsim/sim.h>
#include <wbsim/cpu-costs.h>
#include <wbsim/fs.h>
#include <wbsim/device.h>
#include "mm/vm.h"
#include "fs/writeback.h"
#include "defs/setting.h"
#include "machine/knobs.h"

struct wbsim_job;

struct wbsim_machine {
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	struct wbsim_cpu_costs costs;
	struct wbsim_vm vm;
	struct wbsim_device *dev;
	wbsim_fs *fs;
	struct wbsim_bdi bdi;
	GHashTable *dirs;	/* path -> wbsim_fs_inode *, lookup only */
	GHashTable *files;	/* path -> struct wbsim_inode *, lookup only */
	GPtrArray *inodes;	/* struct wbsim_inode *, in creation order */
	GPtrArray *jobs;	/* struct wbsim_job *, in fio order */
	/* built only to check a scenario at load: jobs name no files */
	bool setup_only;
	unsigned int folio_pages;	/* 0: [writeback] folio_size = auto */
	bool per_block_accounting;	/* [writeback] dirty_accounting = per-block */
	GPtrArray *warnings;	/* char *: what the run could not model */
	bool cgroups;		/* cgroup writeback: [events] cgroup-* or fio cgroup= */
	/* the filesystem's flush on ENOSPC (xfs_flush_inodes) */
	struct wbsim_flush_inodes flush_inodes;
};

/*
 * "FILE:LINE: [SECTION] KEY = VALUE" of the line that set a key, for the
 * messages of wbsim_machine_build() (a new string).
 */
typedef char *(*wbsim_machine_where_fn)(const void *arg, const char *section,
					 const char *key);

/**
 * struct wbsim_machine_spec - what wbsim_machine_build() builds
 * @seed: the simulation's random seed
 * @cpus: CPUs online
 * @cpu_speed: percent of the host the costs were measured on
 * @idle_exit_latency: ns, see wbsim_cpus_set_idle_exit_latency()
 * @idle_poll_window: ns
 * @idle_poll_latency: ns
 * @idle_wake_cost: ns of the waker's CPU to wake a task onto an idle CPU
 * @idle_exit_cost: ns of the woken task's CPU on a CPU idle past the window
 * @idle_poll_cost: ns of the woken task's CPU on a CPU idle within it
 * @sched_autogroup: the jobs' tasks share one entity, wbsim_cpus_set_autogroup()
 * @hz: jiffies per second
 * @memory: bytes of RAM
 * @memmap: bytes of RAM reserved at boot for PMEM (0: a pmem device's own)
 * @costs: the CPU cost table, copied
 * @device_preset: the device preset's name
 * @dev_set: @n_dev overrides of the preset's parameters
 * @fs_type: the filesystem model's name
 * @fs_set: @n_fs settings of the filesystem (its costs, then its options)
 * @knobs: the kernel's knobs
 * @where: where a key was set, called with @where_arg
 */
struct wbsim_machine_spec {
	uint64_t seed;
	unsigned int cpus;
	unsigned int cpu_speed;
	uint64_t idle_exit_latency;
	uint64_t idle_poll_window;
	uint64_t idle_poll_latency;
	uint64_t idle_wake_cost;
	uint64_t idle_exit_cost;
	uint64_t idle_poll_cost;
	gboolean sched_autogroup;
	unsigned int hz;
	uint64_t memory;
	uint64_t memmap;
	const struct wbsim_cpu_costs *costs;
	const char *device_preset;
	const struct wbsim_setting *dev_set;
	size_t n_dev;
	const char *fs_type;
	const struct wbsim_setting *fs_set;
	size_t n_fs;
	const struct wbsim_machine_knobs *knobs;
	wbsim_machine_where_fn where;
	const void *where_arg;
};

/**
 * wbsim_machine_build() - build the machine @spec describes into @m
 * @m: zeroed, but for @m->setup_only
 * @spec: the machine
 * @error: a device, filesystem or memory that cannot be, naming the lines
 *	that chose it
 *
 * On failure too, wbsim_machine_clear() frees what was built.
 * Return: TRUE, or FALSE with @error set.
 */
gboolean wbsim_machine_build(struct wbsim_machine *m, const struct wbsim_machine_spec *spec,
			     GError **error);

/* wbsim_machine_clear() - free what @m holds (not @m), built or half built. */
void wbsim_machine_clear(struct wbsim_machine *m);

/* The inode for @path, created (with its parent directories) on first use. */
struct wbsim_inode *wbsim_machine_open(struct wbsim_machine *m, const char *path,
				       gboolean *created);
/*
 * wbsim_machine_fail() - a task met what the run cannot go on from (fio's
 * cgroup= that cannot be made): @error becomes the run's failure (the
 * first one stands) and the simulation stops.
 */
void wbsim_machine_fail(struct wbsim_machine *m, const GError *error);

#endif
