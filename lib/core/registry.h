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
 * the caller's, before wbsim_registry_add(); a registry whose ops carry a
 * parameter table (WBSIM_REGISTRY_INIT_PARAMS) checks the table itself,
 * with the one check of every table (wbsim_param_table_check_as()).
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
 * @has_params: the ops struct carries a parameter table
 * @params_offset: offsetof() its `const struct wbsim_param *` table (NULL:
 *	no parameters)
 * @size_offset: offsetof() its `size_t` size of the struct the table fills
 * @param_rules: enum wbsim_param_table_rules the registry asks of a table
 * @lock: guards @items
 * @items: const void *, in order; NULL until the first use
 */
struct wbsim_registry {
	const char *what;
	const void *const *builtins;
	size_t nr_builtins;
	size_t name_offset;
	gboolean has_params;
	size_t params_offset;
	size_t size_offset;
	unsigned int param_rules;
	GMutex lock;
	GPtrArray *items;
};

/* A static registry of @type ops tables with the array @builtins_. */
#define WBSIM_REGISTRY_INIT(what_, type, builtins_)					\
	{ .what = (what_), .builtins = (builtins_),					\
	  .nr_builtins = G_N_ELEMENTS(builtins_), .name_offset = offsetof(type, name) }

/*
 * The same, for ops whose member @params_ is their parameter table, filling
 * a struct of @size_ bytes (a size_t member), checked under @rules_.
 */
#define WBSIM_REGISTRY_INIT_PARAMS(what_, type, builtins_, params_, size_, rules_)	\
	{ .what = (what_), .builtins = (builtins_),					\
	  .nr_builtins = G_N_ELEMENTS(builtins_), .name_offset = offsetof(type, name),	\
	  .has_params = TRUE, .params_offset = offsetof(type, params_),			\
	  .size_offset = offsetof(type, size_), .param_rules = (rules_) }

/**
 * wbsim_registry_add() - register @ops (its version and hooks checked
 * already by the caller)
 * @error: WBSIM_ERROR_INVALID_ARGUMENT "WHAT 'NAME': parameter table:
 *	row N: KEY: ..." (the first bad row of its table), or "WHAT 'NAME' is
 *	already registered"
 * Return: TRUE when added.
 */
gboolean wbsim_registry_add(struct wbsim_registry *r, const void *ops, GError **error);

/** wbsim_registry_lookup() - the ops table named @name, or NULL (also for a NULL @name). */
const void *wbsim_registry_lookup(struct wbsim_registry *r, const char *name);

/** wbsim_registry_names() - the names, in order, NULL-terminated (g_strfreev()). */
char **wbsim_registry_names(struct wbsim_registry *r);

#endif /* WBSIM_CORE_REGISTRY_H */
