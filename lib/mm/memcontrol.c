/* SPDX-License-Identifier: MIT */
/*
 * memcontrol.c - the memcg tree, its hierarchical page counters and
 * mem_cgroup_wb_stats() (kernel: mm/memcontrol.c, cgroup-writeback part).
 *
 * Left out: anonymous memory and kernel memory in a memcg's usage (only
 * file pages are charged), page-by-page reclaim (see
 * wbsim_memcg_wb_stats()), the lag of rstat flushing (counters are exact).
 */
#include <string.h>

#include <wbsim/error.h>
#include "mm/memcontrol.h"
#include "mm/vm.h"

/* 128-bit products of page counts (GCC and Clang) */
__extension__ typedef unsigned __int128 u128;

/* css ids are 16 bits in the kernel (MEM_CGROUP_ID_MAX) */
#define MEMCG_ID_MAX 65535u

static struct wbsim_memcg *memcg_new(struct wbsim_vm *vm, struct wbsim_memcg *parent,
				     const char *path)
{
	struct wbsim_memcg_tree *t = &vm->memcgs;
	struct wbsim_memcg *memcg = g_new0(struct wbsim_memcg, 1);

	memcg->id = t->all->len + 1;
	memcg->path = g_strdup(path);
	memcg->parent = parent;
	memcg->children = g_ptr_array_new();
	memcg->max_pages = UINT64_MAX;
	memcg->high_pages = UINT64_MAX;
	memcg->online = true;
	/* containers delegate io to their children by default (as systemd
	 * sets up cgroup.subtree_control) */
	memcg->io_subtree = true;
	wbsim_vm_memcg_domain_init(vm, memcg);
	g_ptr_array_add(t->all, memcg);
	if (parent)
		g_ptr_array_add(parent->children, memcg);
	return memcg;
}

void wbsim_memcg_tree_init(struct wbsim_vm *vm)
{
	vm->memcgs.all = g_ptr_array_new();
	vm->memcgs.root = memcg_new(vm, NULL, "/");
}

void wbsim_memcg_tree_clear(struct wbsim_memcg_tree *t)
{
	for (guint i = 0; t->all && i < t->all->len; i++) {
		struct wbsim_memcg *memcg = t->all->pdata[i];

		g_ptr_array_unref(memcg->children);
		g_free(memcg->path);
		g_free(memcg);
	}
	g_clear_pointer(&t->all, g_ptr_array_unref);
	t->root = NULL;
}

/* The online child of @parent named @name (the last path component). */
static struct wbsim_memcg *online_child(const struct wbsim_memcg *parent, const char *name)
{
	size_t plen = strlen(parent->path);

	for (guint i = 0; i < parent->children->len; i++) {
		struct wbsim_memcg *c = parent->children->pdata[i];
		const char *base = c->path + plen + (plen > 1);

		if (c->online && strcmp(base, name) == 0)
			return c;
	}
	return NULL;
}

static gboolean path_ok(const char *path)
{
	if (!path || path[0] != '/')
		return FALSE;
	for (const char *p = path; *p; p++)
		if (p[0] == '/' && (p[1] == '/' || (p[1] == '\0' && p != path)))
			return FALSE;
	return TRUE;
}

struct wbsim_memcg *wbsim_memcg_lookup(const struct wbsim_memcg_tree *t, const char *path)
{
	g_auto(GStrv) parts = NULL;
	struct wbsim_memcg *memcg = t->root;

	if (!path_ok(path))
		return NULL;
	parts = g_strsplit(path + 1, "/", -1);
	for (guint i = 0; memcg && parts[i] && *parts[i]; i++)
		memcg = online_child(memcg, parts[i]);
	return memcg;
}

struct wbsim_memcg *wbsim_memcg_create(struct wbsim_vm *vm, const char *path, GError **error)
{
	struct wbsim_memcg_tree *t = &vm->memcgs;
	g_auto(GStrv) parts = NULL;
	struct wbsim_memcg *memcg = t->root, *made = NULL;
	GString *cur;

	if (!path_ok(path) || strcmp(path, "/") == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "cgroup path '%s': expected an absolute path below the root such as /e7/a",
			    path ? path : "(null)");
		return NULL;
	}
	parts = g_strsplit(path + 1, "/", -1);
	cur = g_string_new("");
	for (guint i = 0; parts[i]; i++) {
		struct wbsim_memcg *next;

		g_string_append_printf(cur, "/%s", parts[i]);
		next = online_child(memcg, parts[i]);
		if (!next) {
			if (t->all->len >= MEMCG_ID_MAX) {
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
					    "cgroup path '%s': more than %u cgroups", path,
					    MEMCG_ID_MAX - 1);
				g_string_free(cur, TRUE);
				return NULL;
			}
			next = made = memcg_new(vm, memcg, cur->str);
		}
		memcg = next;
	}
	g_string_free(cur, TRUE);
	if (!made) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "cgroup path '%s': the cgroup exists already", path);
		return NULL;
	}
	return memcg;
}

struct wbsim_memcg *wbsim_memcg_from_id(const struct wbsim_memcg_tree *t, unsigned int id)
{
	if (id == 0 || id > t->all->len)
		return NULL;
	return t->all->pdata[id - 1];
}

const struct wbsim_memcg *wbsim_memcg_blkcg(const struct wbsim_memcg *memcg)
{
	/* a cgroup has its own io controller state only if its parent
	 * delegates "io" to its children; otherwise it shares its parent's */
	while (memcg->parent && !memcg->parent->io_subtree)
		memcg = memcg->parent;
	return memcg;
}

static void mod_counter(struct wbsim_memcg *memcg, size_t offset, int64_t delta)
{
	for (; memcg; memcg = memcg->parent) {
		uint64_t *c = (uint64_t *)((char *)memcg + offset);

		g_assert(delta >= 0 || *c >= (uint64_t)-delta);
		*c += (uint64_t)delta;
	}
}

void wbsim_memcg_mod_dirty(struct wbsim_memcg *memcg, int64_t delta)
{
	mod_counter(memcg, G_STRUCT_OFFSET(struct wbsim_memcg, nr_file_dirty), delta);
}

void wbsim_memcg_mod_writeback(struct wbsim_memcg *memcg, int64_t delta)
{
	mod_counter(memcg, G_STRUCT_OFFSET(struct wbsim_memcg, nr_writeback), delta);
}

void wbsim_memcg_mod_file(struct wbsim_memcg *memcg, int64_t delta)
{
	mod_counter(memcg, G_STRUCT_OFFSET(struct wbsim_memcg, nr_file), delta);
}

static uint64_t bytes_to_pages(uint64_t bytes)
{
	return bytes == UINT64_MAX ? UINT64_MAX : bytes / WBSIM_PAGE_SIZE;
}

void wbsim_memcg_set_max(struct wbsim_memcg *memcg, uint64_t bytes)
{
	memcg->max_pages = bytes_to_pages(bytes);
}

void wbsim_memcg_set_high(struct wbsim_memcg *memcg, uint64_t bytes)
{
	memcg->high_pages = bytes_to_pages(bytes);
}

static uint64_t memcg_limit(const struct wbsim_memcg *memcg)
{
	return MIN(memcg->max_pages, memcg->high_pages);
}

/* mem_cgroup_wb_stats() */
void wbsim_memcg_wb_stats(const struct wbsim_memcg *memcg, uint64_t *filepages,
			  uint64_t *headroom, uint64_t *dirty, uint64_t *writeback)
{
	uint64_t room = UINT64_MAX, num = 1, den = 1;

	/* a memcg over its limit (or an ancestor over its own) has had its
	 * clean pages reclaimed down to it, each child in proportion to its
	 * share of the charge, as reclaim scans the memcgs below the limit
	 * in proportion to their LRU sizes: the file LRU keeps the smallest
	 * such fraction of the charged pages */
	for (const struct wbsim_memcg *m = memcg; m && m->parent; m = m->parent) {
		uint64_t lim = memcg_limit(m);
		uint64_t usage = MIN(m->nr_file, lim);

		room = MIN(room, lim - usage);
		if (m->nr_file > lim &&
		    (u128)lim * den < (u128)num * m->nr_file) {
			num = lim;
			den = m->nr_file;
		}
	}
	*filepages = (uint64_t)((u128)memcg->nr_file * num / den);
	*headroom = room;
	*dirty = memcg->nr_file_dirty;
	*writeback = memcg->nr_writeback;
}
