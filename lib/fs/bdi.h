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

/*
 * wbsim_bdi_check() - the invariants of the bdi against its inodes and the
 * vm's counters (--check): each inode's writeback count equals its pages
 * under writeback, a dirty inode is on a list of its own wb, a fixed
 * affinity keeps it on its context, no wb counter went below zero, and the
 * pages dirty and under writeback add up to NR_FILE_DIRTY and NR_WRITEBACK
 * both over the inodes and over the wbs. @all_wbs: every wb of wb_list
 * (cgroup writeback in use), else the contexts' own; @deep: the per-memcg
 * and per-wb counters against the pages too (wbsim_cgwb_check(), which
 * walks every page). Return: FALSE with WBSIM_ERROR_SIMULATION saying the
 * first violation.
 */
gboolean wbsim_bdi_check(struct wbsim_bdi *bdi, bool all_wbs, bool deep, GError **error);

/* Inodes of the bdi's filesystem. */
struct wbsim_inode *wbsim_inode_new(struct wbsim_bdi *bdi, struct wbsim_fs_inode *fs_inode,
				    const char *name, unsigned int folio_pages,
				    bool per_block_accounting);
void wbsim_inode_free(struct wbsim_inode *inode);

#endif
