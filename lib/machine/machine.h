/* SPDX-License-Identifier: MIT */
/*
 * machine/machine.h - the simulated machine a scenario runs on: CPUs, the
 * cost table, memory, one device with its filesystem and bdi, the files,
 * and the jobs.
 *
 * A folder of its own: the machine is built by lib/run and used by the
 * jobs of lib/fio, so neither includes the other's headers for it.
 */
#ifndef WBSIM_MACHINE_MACHINE_H
#define WBSIM_MACHINE_MACHINE_H

#include <wbsim/sim.h>
#include <wbsim/cpu-costs.h>
#include <wbsim/fs.h>
#include <wbsim/device.h>
#include "mm/vm.h"
#include "fs/writeback.h"

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

/* The inode for @path, created (with its parent directories) on first use. */
struct wbsim_inode *wbsim_machine_open(struct wbsim_machine *m, const char *path,
				       gboolean *created);

#endif
