/* SPDX-License-Identifier: MIT */
/*
 * wbsim/affinity.h - inode-to-writeback-context affinity policies.
 *
 * When an inode with no writeback context goes clean -> dirty, the policy of
 * [writeback] affinity chooses which of the bdi's nr_wb_ctx contexts (and so
 * which flusher) writes it back. Policies are registered by name; the
 * built-ins "inode" (inode number modulo contexts, for the inode's life)
 * and "none" (a context drawn per dirty episode) go through the same
 * registry, and a scenario file names any registered policy:
 *
 *   [writeback]
 *   affinity = by-ag
 *
 * The hook sees the inode through an opaque struct wbsim_affinity_inode
 * and its accessor functions, so the ops layout stays stable when the
 * model's inode grows.
 */
#ifndef WBSIM_AFFINITY_H
#define WBSIM_AFFINITY_H

#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>

WBSIM_BEGIN_DECLS

/** WBSIM_AFFINITY_OPS_VERSION - the struct wbsim_affinity_ops layout version. */
#define WBSIM_AFFINITY_OPS_VERSION 1

/**
 * enum wbsim_affinity_flags - properties of a policy
 * @WBSIM_AFFINITY_FIXED: the context chosen for an inode never changes over
 *	the inode's life; without it a clean inode is detached from its
 *	context and the policy chooses again at its next dirtying
 */
enum wbsim_affinity_flags {
	WBSIM_AFFINITY_FIXED = 1u << 0,
};

/**
 * struct wbsim_affinity_inode - what a policy sees of the inode being
 * dirtied (opaque; read it with the wbsim_affinity_inode_*() functions)
 */
struct wbsim_affinity_inode;

/**
 * struct wbsim_affinity_ops - an affinity policy
 * @name: registry name, used by [writeback] affinity (non-empty, unique)
 * @version: WBSIM_AFFINITY_OPS_VERSION
 * @flags: enum wbsim_affinity_flags
 * @select: mandatory: the context (0 .. @nr_contexts - 1) for @inode, which
 *	is going clean -> dirty and is attached to no context; a value out of
 *	range is taken modulo @nr_contexts. Runs inside the simulation:
 *	it must not block, and must be deterministic given its arguments and
 *	the draws it takes from wbsim_affinity_inode_rng()
 * @release_data: optional: frees a pointer a policy stored with
 *	wbsim_affinity_inode_set_data() when the inode is freed at the end of
 *	the run
 *
 * The struct must stay valid (usually static const) as long as it is
 * registered, that is for the rest of the process.
 */
struct wbsim_affinity_ops {
	const char *name;
	unsigned int version;
	unsigned int flags;
	unsigned int (*select)(struct wbsim_affinity_inode *inode, unsigned int nr_contexts);
	void (*release_data)(void *data);
};

/**
 * wbsim_affinity_register() - add a policy to the registry
 * @ops: the policy; kept by pointer, never copied
 * @error: WBSIM_ERROR_INVALID_ARGUMENT naming what is wrong: no name, a
 *	version other than WBSIM_AFFINITY_OPS_VERSION ("bad ops version 2
 *	(want 1)"), the missing mandatory hook ("missing hook select"), or a
 *	name already registered
 *
 * Thread safety: safe from any thread (the registry has a lock); register
 * before loading the scenarios that name the policy.
 * Return: TRUE, or FALSE with @error set.
 */
WBSIM_API gboolean wbsim_affinity_register(const struct wbsim_affinity_ops *ops, GError **error);

/**
 * wbsim_affinity_lookup() - a registered policy by name
 * @name: the name
 *
 * Thread safety: safe from any thread.
 * Return: the policy, or NULL if no policy has that name.
 */
WBSIM_API const struct wbsim_affinity_ops *wbsim_affinity_lookup(const char *name);

/**
 * wbsim_affinity_names() - names of the registered policies
 *
 * Thread safety: safe from any thread.
 * Return: a new NULL-terminated list in registration order (the built-ins
 * "inode" and "none" first); free it with g_strfreev().
 */
WBSIM_API char **wbsim_affinity_names(void);

/**
 * wbsim_affinity_inode_number() - the inode number
 * @inode: the inode being dirtied
 *
 * Thread safety: call only from the policy's own hook.
 * Return: the number the filesystem model gave the inode (XFS numbers
 * encode the allocation group, ext4 numbers the block group).
 */
WBSIM_API uint64_t wbsim_affinity_inode_number(const struct wbsim_affinity_inode *inode);

/**
 * wbsim_affinity_inode_group() - the inode's allocation or block group
 * @inode: the inode being dirtied
 *
 * Thread safety: call only from the policy's own hook.
 * Return: the group the filesystem model placed the inode in
 * (wbsim_fs_inode_group(); 0 on a model without groups).
 */
WBSIM_API uint64_t wbsim_affinity_inode_group(const struct wbsim_affinity_inode *inode);

/**
 * wbsim_affinity_inode_path() - the file's path
 * @inode: the inode being dirtied
 *
 * Thread safety: call only from the policy's own hook.
 * Return: the path ("/mnt/job.0.0"), owned by the simulation.
 */
WBSIM_API const char *wbsim_affinity_inode_path(const struct wbsim_affinity_inode *inode);

/**
 * wbsim_affinity_inode_get_data() - the policy's per-inode pointer
 * @inode: the inode being dirtied
 *
 * Thread safety: call only from the policy's own hook.
 * Return: what wbsim_affinity_inode_set_data() stored for this inode in an
 * earlier call, or NULL.
 */
WBSIM_API void *wbsim_affinity_inode_get_data(const struct wbsim_affinity_inode *inode);

/**
 * wbsim_affinity_inode_set_data() - keep a pointer with the inode
 * @inode: the inode being dirtied
 * @data: the pointer; the ops' @release_data (if any) frees it when the
 *	inode is freed
 *
 * Thread safety: call only from the policy's own hook.
 */
WBSIM_API void wbsim_affinity_inode_set_data(struct wbsim_affinity_inode *inode, void *data);

/**
 * wbsim_affinity_task_pid() - the simulated pid of the task dirtying the inode
 * @inode: the inode being dirtied
 *
 * Thread safety: call only from the policy's own hook.
 * Return: the pid, or 0 when no task is known.
 */
WBSIM_API unsigned int wbsim_affinity_task_pid(const struct wbsim_affinity_inode *inode);

/**
 * wbsim_affinity_task_cpu() - the CPU the dirtying task last ran on
 * @inode: the inode being dirtied
 *
 * Thread safety: call only from the policy's own hook.
 * Return: the CPU index, or 0 when no task is known.
 */
WBSIM_API unsigned int wbsim_affinity_task_cpu(const struct wbsim_affinity_inode *inode);

/**
 * wbsim_affinity_inode_rng() - the simulation's seeded random generator
 * @inode: the inode being dirtied
 *
 * A policy that draws must draw from this generator only, so runs stay
 * reproducible from their seed.
 * Thread safety: call only from the policy's own hook.
 * Return: the generator of the running simulation.
 */
WBSIM_API wbsim_rng *wbsim_affinity_inode_rng(const struct wbsim_affinity_inode *inode);

WBSIM_END_DECLS

#endif /* WBSIM_AFFINITY_H */
