/* SPDX-License-Identifier: MIT */
/*
 * affinity.c - which writeback context writes back an inode: the registry
 * of affinity policies (include/wbsim/affinity.h) and the two built-ins.
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
 *
 * The registry is core/registry.h's: a running simulation holds the ops
 * pointer it looked up when it started.
 */
#include <string.h>
#include <wbsim/affinity.h>
#include <wbsim/error.h>
#include <wbsim/fs.h>
#include "core/registry.h"
#include "fs/writeback.h"

/* What a policy's hook sees: the inode and the task dirtying it. */
struct wbsim_affinity_inode {
	struct wbsim_bdi *bdi;
	struct wbsim_inode *inode;
	const wbsim_task *task;
};

static unsigned int inode_select(struct wbsim_affinity_inode *ai, unsigned int nr_contexts)
{
	return (unsigned int)(wbsim_affinity_inode_number(ai) % nr_contexts);
}

static unsigned int none_select(struct wbsim_affinity_inode *ai, unsigned int nr_contexts)
{
	return (unsigned int)wbsim_rng_below(wbsim_affinity_inode_rng(ai), nr_contexts);
}

static const struct wbsim_affinity_ops affinity_inode = {
	.name = "inode",
	.version = WBSIM_AFFINITY_OPS_VERSION,
	.flags = WBSIM_AFFINITY_FIXED,
	.select = inode_select,
};

static const struct wbsim_affinity_ops affinity_none = {
	.name = "none",
	.version = WBSIM_AFFINITY_OPS_VERSION,
	.select = none_select,
};

/* ------------------------------------------------------------------------ */
/* Registry                                                                 */

static const void *const builtins[] = { &affinity_inode, &affinity_none };
static struct wbsim_registry registry =
	WBSIM_REGISTRY_INIT("affinity policy", struct wbsim_affinity_ops, builtins);

/* check_engine_ops() in fio's ioengines.c, for affinity policies. */
static gboolean check_ops(const struct wbsim_affinity_ops *ops, GError **error)
{
	if (!ops || !ops->name || !ops->name[0]) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "affinity policy without a name");
		return FALSE;
	}
	if (ops->version != WBSIM_AFFINITY_OPS_VERSION) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "affinity policy '%s': bad ops version %u (want %u)", ops->name,
			    ops->version, WBSIM_AFFINITY_OPS_VERSION);
		return FALSE;
	}
	if (!ops->select) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "affinity policy '%s': missing hook select", ops->name);
		return FALSE;
	}
	if (ops->flags & ~(unsigned int)WBSIM_AFFINITY_FIXED) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "affinity policy '%s': unknown flags 0x%x", ops->name, ops->flags);
		return FALSE;
	}
	return TRUE;
}

gboolean wbsim_affinity_register(const struct wbsim_affinity_ops *ops, GError **error)
{
	return check_ops(ops, error) && wbsim_registry_add(&registry, ops, error);
}

const struct wbsim_affinity_ops *wbsim_affinity_lookup(const char *name)
{
	return wbsim_registry_lookup(&registry, name);
}

char **wbsim_affinity_names(void)
{
	return wbsim_registry_names(&registry);
}

/* ------------------------------------------------------------------------ */
/* The hook's view of the inode                                             */

unsigned int wbsim_affinity_select(struct wbsim_bdi *bdi, struct wbsim_inode *inode,
				   const wbsim_task *task)
{
	struct wbsim_affinity_inode ai = { bdi, inode, task };

	return bdi->affinity->select(&ai, bdi->nr_wb_ctx) % bdi->nr_wb_ctx;
}

void wbsim_affinity_release(struct wbsim_inode *inode)
{
	const struct wbsim_affinity_ops *ops = inode->bdi ? inode->bdi->affinity : NULL;

	if (inode->affinity_data && ops && ops->release_data)
		ops->release_data(inode->affinity_data);
	inode->affinity_data = NULL;
}

uint64_t wbsim_affinity_inode_number(const struct wbsim_affinity_inode *ai)
{
	g_return_val_if_fail(ai != NULL, 0);
	return ai->inode->ino;
}

uint64_t wbsim_affinity_inode_group(const struct wbsim_affinity_inode *ai)
{
	g_return_val_if_fail(ai != NULL, 0);
	return ai->inode->fs_inode ? wbsim_fs_inode_group(ai->inode->fs_inode) : 0;
}

const char *wbsim_affinity_inode_path(const struct wbsim_affinity_inode *ai)
{
	g_return_val_if_fail(ai != NULL, NULL);
	return ai->inode->name;
}

void *wbsim_affinity_inode_get_data(const struct wbsim_affinity_inode *ai)
{
	g_return_val_if_fail(ai != NULL, NULL);
	return ai->inode->affinity_data;
}

void wbsim_affinity_inode_set_data(struct wbsim_affinity_inode *ai, void *data)
{
	g_return_if_fail(ai != NULL);
	ai->inode->affinity_data = data;
}

unsigned int wbsim_affinity_task_pid(const struct wbsim_affinity_inode *ai)
{
	g_return_val_if_fail(ai != NULL, 0);
	return ai->task ? ai->task->pid : 0;
}

unsigned int wbsim_affinity_task_cpu(const struct wbsim_affinity_inode *ai)
{
	g_return_val_if_fail(ai != NULL, 0);
	return ai->task ? ai->task->last_cpu : 0;
}

wbsim_rng *wbsim_affinity_inode_rng(const struct wbsim_affinity_inode *ai)
{
	g_return_val_if_fail(ai != NULL, NULL);
	return wbsim_sim_rng(ai->bdi->sim);
}
