/* SPDX-License-Identifier: MIT */
/*
 * affinity.c - which writeback context writes back an inode.
 *
 * inode: the parallel-writeback series binds an inode to context
 *	inode_number % nr_wb_ctx for its whole life, so one inode is never
 *	written back by two flushers and delayed allocation stays contiguous.
 * none: the earlier variant without affinity: an inode that becomes dirty
 *	joins the lists of the context of the CPU its dirtier runs on, and is
 *	released again when it is clean, so over its life several flushers
 *	write it back (assumption: the patch text for this variant was not
 *	available; "the dirtying CPU's context" is the natural reading of
 *	"any thread could write back any inode").
 */
#include <string.h>
#include "fs/writeback.h"

static unsigned int inode_select(const struct wbsim_bdi *bdi, const struct wbsim_inode *inode,
				 const wbsim_task *task, unsigned int nr_contexts)
{
	return (unsigned int)(inode->ino % nr_contexts);
}

static unsigned int none_select(const struct wbsim_bdi *bdi, const struct wbsim_inode *inode,
				const wbsim_task *task, unsigned int nr_contexts)
{
	/* task->cpu is -1 between bursts; last_cpu is where it last ran. */
	unsigned int cpu = task ? task->last_cpu : 0;

	return cpu % nr_contexts;
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
