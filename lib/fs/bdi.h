/* SPDX-License-Identifier: MIT */
/* fs/bdi.h - creating a backing device with its writeback contexts
 * (kernel: mm/backing-dev.c). */
#ifndef WBSIM_FS_BDI_H
#define WBSIM_FS_BDI_H

#include "fs/writeback.h"

struct wbsim_bdi_params {
	const char *name;		/* "259:0" */
	unsigned int nr_wb_ctx;
	const struct wbsim_affinity_ops *affinity;
	bool strictlimit;
	/* bdi_set_max_bytes(): 0 = none */
	uint64_t max_bytes;
	uint64_t max_request_pages;
	/* cgroup writeback: the machine's memcgs (NULL: cgroups off), and the
	 * kernel variant of [writeback] dying_wb */
	struct wbsim_memcg_tree *memcgs;
	bool dying_wb_reachable;
};

void wbsim_bdi_init(struct wbsim_bdi *bdi, struct wbsim_vm *vm, wbsim_cpus *cpus,
		    const struct wbsim_cpu_costs *costs, struct wbsim_blk_queue *queue,
		    struct wbsim_fs *fs, const struct wbsim_bdi_params *p);
void wbsim_bdi_clear(struct wbsim_bdi *bdi);

/* Inodes of the bdi's filesystem. */
struct wbsim_inode *wbsim_inode_new(struct wbsim_bdi *bdi, struct wbsim_fs_inode *fs_inode,
				    const char *name, unsigned int folio_pages,
				    bool per_block_accounting);
void wbsim_inode_free(struct wbsim_inode *inode);

#endif
