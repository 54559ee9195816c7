/* SPDX-License-Identifier: MIT */
/*
 * core/registry.h - a registry of named ops tables: the one mechanism behind
 * wbsim_device_register(), wbsim_fs_register() and wbsim_affinity_register()
 * and their lookups and name lists.
 *
 * A registry holds pointers to const ops structs, each with a member
 * `const char *name`; the built-ins come first, in the order given, then
 * every registered one in registration order. One
 * lock guards it, so every call is safe from any thread; an ops table, once
 * registered, stays for the life of the process (a running simulation holds
 * the pointer it looked up). Checking an ops table's version and hooks is
 * the caller's, before wbsim_registry_add().
 */
#ifndef WBSIM_CORE_REGISTRY_H
#define WBSIM_CORE_REGISTRY_H

#include <stddef.h>
#include <glib.h>

/**
 * struct wbsim_registry - a registry (define it static with WBSIM_REGISTRY_INIT)
 * @what: what it holds, for messages ("device model", "affinity policy")
 * @builtins: the built-in ops tables, registered at the first use
 * @nr_builtins: their number
 * @name_offset: offsetof() the ops struct's `const char *name`
 * @lock: guards @items
 * @items: const void *, in order; NULL until the first use
 */
struct wbsim_registry {
	const char *what;
	const void *const *builtins;
	size_t nr_builtins;
	size_t name_offset;
	GMutex lock;
	GPtrArray *items;
};

/* A static registry of @type ops tables with the array @builtins_. */
#define WBSIM_REGISTRY_INIT(what_, type, builtins_)					\
	{ .what = (what_), .builtins = (builtins_),					\
	  .nr_builtins = G_N_ELEMENTS(builtins_), .name_offset = offsetof(type, name) }

/**
 * wbsim_registry_add() - register @ops (checked already by the caller)
 * @error: WBSIM_ERROR_INVALID_ARGUMENT "WHAT 'NAME' is already registered"
 * Return: TRUE when added.
 */
gboolean wbsim_registry_add(struct wbsim_registry *r, const void *ops, GError **error);

/** wbsim_registry_lookup() - the ops table named @name, or NULL (also for a NULL @name). */
const void *wbsim_registry_lookup(struct wbsim_registry *r, const char *name);

/** wbsim_registry_names() - the names, in order, NULL-terminated (g_strfreev()). */
char **wbsim_registry_names(struct wbsim_registry *r);

#endif /* WBSIM_CORE_REGISTRY_H */
