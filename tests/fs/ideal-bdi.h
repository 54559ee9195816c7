/* SPDX-License-Identifier: MIT */
/*
 * ideal-bdi.h - a bdi over the ideal device and filesystem, for the tests
 * of the page-cache and writeback model below the workload (no fio job,
 * no flusher started by a scenario): the writeback that does happen works.
 */
#ifndef WBSIM_TESTS_FS_IDEAL_BDI_H
#define WBSIM_TESTS_FS_IDEAL_BDI_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/affinity.h>
#include <wbsim/device.h>
#include <wbsim/fs.h>
#include "fs/bdi.h"
#include "block/blk.h"
#include "core/cpu-costs.h"
#include "core/sim.h"
#include "fs/alloc/fs.h"

struct ideal_bdi {
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	struct wbsim_device *dev;
	wbsim_fs *fs;
	struct wbsim_cpu_costs costs;
	struct wbsim_vm vm;
	struct wbsim_bdi bdi;
};

/* A 16 GiB machine of @ncpus CPUs with a 1 GiB dirty limit, 30 s expiry
 * and 5 s periodic writeback; one writeback context, 1 MiB requests,
 * @dying_wb_reachable the cgroup writeback variant. */
static inline void ideal_bdi_open(struct ideal_bdi *ib, unsigned int ncpus,
				  bool dying_wb_reachable)
{
	struct wbsim_bdi_params bp = {
		.name = "259:0",
		.nr_wb_ctx = 1,
		.affinity = wbsim_affinity_lookup("inode"),
		.max_request_pages = 256,
		.memcgs = &ib->vm.memcgs,
		.dying_wb_reachable = dying_wb_reachable,
	};

	ib->sim = wbsim_sim_new(1);
	ib->cpus = wbsim_cpus_new(ib->sim, ncpus, NULL);
	wbsim_cpu_costs_init(&ib->costs);
	wbsim_vm_init(&ib->vm, ib->sim, 1000, ncpus, UINT64_C(16) << 30, UINT64_C(1) << 30);
	ib->vm.dirty_expire_ns = 30 * WBSIM_NSEC_PER_SEC;
	ib->vm.dirty_writeback_ns = 5 * WBSIM_NSEC_PER_SEC;
	ib->dev = wbsim_device_new(ib->sim, ib->cpus, &ib->costs, "ideal", NULL, 0, NULL);
	ib->fs = wbsim_fs_new("ideal", ib->sim, ib->cpus, UINT64_C(1) << 40, NULL, 0, NULL);
	assert_non_null(ib->dev);
	assert_non_null(ib->fs);
	wbsim_bdi_init(&ib->bdi, &ib->vm, ib->cpus, &ib->costs, wbsim_device_queue(ib->dev),
		       (struct wbsim_fs *)ib->fs, &bp);
}

/* The bdi's own state; its inodes are the caller's to free next. */
static inline void ideal_bdi_clear(struct ideal_bdi *ib)
{
	wbsim_bdi_clear(&ib->bdi);
}

/* The rest, once the inodes are freed. */
static inline void ideal_bdi_close(struct ideal_bdi *ib)
{
	wbsim_fs_free(ib->fs);
	wbsim_device_free(ib->dev);
	wbsim_vm_clear(&ib->vm);
	wbsim_cpus_free(ib->cpus);
	wbsim_sim_free(ib->sim);
}

#endif
