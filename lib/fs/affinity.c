/* SPDX-License-Identifier: MIT */
/*
 * affinity.c - which writeback context writes back an inode.
 *
 * inode: the parallel-writeback series binds an inode to context
 *	inode_number % nr_wb_ctx for its whole life, so one inode is never
 *	written back by two flushers and delayed allocation stays contiguous.
 * none: the earlier variant without affinity, where any flusher could
 *	write back any inode. Each time an inode goes clean -> dirty it joins
 *	the lists of a context drawn at random (from the simulation's seeded
 *	generator), and it is released again once clean, so over its life
 *	several flushers write it back while the work stays spread over all of
 *	them. (Assumption: the patch text of that variant was not available;
 *	the draw stands for "whichever flusher gets to it first". A rotation
 *	would alias with workloads that dirty files in a fixed order.)
 */
#include <string.h>
#include "fs/writeback.h"

static unsigned int inode_select(struct wbsim_bdi *bdi, const struct wbsim_inode *inode,
				 const wbsim_task *task, unsigned int nr_contexts)
{
	return (unsigned int)(inode->ino % nr_contexts);
}

static unsigned int none_select(struct wbsim_bdi *bdi, const struct wbsim_inode *inode,
				const wbsim_task *task, unsigned int nr_contexts)
{
	return (unsigned int)wbsim_rng_below(wbsim_sim_rng(bdi->sim), nr_contexts);
}

static const struct wbsim_affinity_ops affinity_inode = {
	.name = "inode",
	.select = inode_select,
	.fixed = true,
};

static const struct wbsim_affinity_ops affinity_none = {
	.name = "none",
	.select = none_select,
	.fixed = false,
};

static const struct wbsim_affinity_ops *const builtin[] = {
	&affinity_inode,
	&affinity_none,
};

const struct wbsim_affinity_ops *wbsim_affinity_lookup(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(builtin); i++)
		if (strcmp(builtin[i]->name, name) == 0)
			return builtin[i];
	return NULL;
}
