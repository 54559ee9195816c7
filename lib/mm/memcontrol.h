/* SPDX-License-Identifier: MIT */
/*
 * mm/memcontrol.h - memory cgroups as writeback sees them (kernel:
 * mm/memcontrol.c, its cgroup-writeback part): a tree of memcgs with
 * memory.max and memory.high, the page counters cgroup writeback reads
 * (NR_FILE_DIRTY, NR_WRITEBACK and the file LRU, hierarchical as
 * memcg_page_state() returns them), each memcg's dirty domain
 * (memcg->cgwb_domain), its foreign-dirty records and the memcg of every
 * page of the page cache (folio_memcg()).
 *
 * Without cgroups every task is in the root memcg, no page has a memcg
 * recorded, and nothing here costs anything.
 */
#ifndef WBSIM_MM_MEMCONTROL_H
#define WBSIM_MM_MEMCONTROL_H

#include <stdbool.h>
#include <glib.h>
#include <wbsim/sim.h>
#include "mm/writeback-control.h"
#include "defs/backing-dev-defs.h"

struct wbsim_vm;

/* The root memcg's css id; a page with no memcg recorded belongs to it. */
#define WBSIM_ROOT_MEMCG_ID 1u
/* MEMCG_CGWB_FRN_CNT: foreign-dirty records per memcg */
#define WBSIM_MEMCG_CGWB_FRN_CNT 4

/**
 * struct wbsim_memcg_frn - a foreign-dirty record (struct memcg_cgwb_frn)
 * @bdi_id: the bdi of the foreign wb (0: the slot is free)
 * @memcg_id: the memcg of the foreign wb
 * @at: jiffies of the last foreign dirtying seen (0: consumed)
 * @in_flight: a flush for this record is queued or running (done.cnt > 1)
 * @pending: its flush works not finished yet (one per writeback context)
 */
struct wbsim_memcg_frn {
	uint64_t bdi_id;
	unsigned int memcg_id;
	uint64_t at;
	bool in_flight;
	unsigned int pending;
};

/**
 * struct wbsim_memcg - one memory cgroup
 * @id: css id (1 = root; never reused in a run)
 * @path: "/" for the root, "/e7/a" below it
 * @parent: NULL for the root
 * @children: struct wbsim_memcg *, in creation order (removed ones too)
 * @max_pages: memory.max in pages (UINT64_MAX: "max")
 * @high_pages: memory.high in pages (UINT64_MAX: "max")
 * @online: false once the cgroup is removed (css offline); the structure
 *	lives on, as the kernel's does while pages or wbs refer to it
 * @io_subtree: "io" is in this cgroup's cgroup.subtree_control, so its
 *	children have their own blkcg (on at creation; the root's always)
 * @nr_tasks: tasks in this cgroup (not its descendants)
 * @nr_file_dirty: NR_FILE_DIRTY of this memcg and its descendants
 * @nr_writeback: NR_WRITEBACK, likewise
 * @nr_file: file pages charged to this memcg and its descendants
 * @dom: the memcg's dirty domain (memcg->cgwb_domain)
 * @vm: the machine (set with @dom by wbsim_vm_memcg_domain_init())
 * @period_timer: @dom's fprop period timer
 * @frn: foreign-dirty records (memcg->cgwb_frn)
 * @frn_flushes: foreign flushes asked for (cgroup_writeback_by_id calls)
 * @frn_flush_failures: those that found no wb (-ENOENT)
 */
struct wbsim_memcg {
	unsigned int id;
	char *path;
	struct wbsim_memcg *parent;
	GPtrArray *children;
	uint64_t max_pages;
	uint64_t high_pages;
	bool online;
	bool io_subtree;
	unsigned int nr_tasks;
	uint64_t nr_file_dirty;
	uint64_t nr_writeback;
	uint64_t nr_file;
	struct wbsim_wb_domain dom;
	struct wbsim_vm *vm;
	wbsim_timer period_timer;
	struct wbsim_memcg_frn frn[WBSIM_MEMCG_CGWB_FRN_CNT];
	uint64_t frn_flushes;
	uint64_t frn_flush_failures;
};

/**
 * struct wbsim_memcg_tree - every memcg of the machine
 * @root: the root memcg
 * @all: struct wbsim_memcg *, by id - 1 (removed ones stay)
 */
struct wbsim_memcg_tree {
	struct wbsim_memcg *root;
	GPtrArray *all;
};

/* The tree of @vm with its root memcg (from wbsim_vm_init()). */
/*
 * The inode number of @memcg's cgroup directory, what the kernel's
 * tracepoints print as cgroup_ino= (cgroup_ino(), kernfs_ino()): 1 for the
 * root cgroup (and for a wb without a memcg, as in a kernel without cgroup
 * writeback), then one number per cgroup in creation order, never reused
 * in a run. The kernel's numbers for child cgroups are larger (kernfs
 * numbers every node, control files too); only their identity matters.
 */
static inline unsigned long wbsim_memcg_ino(const struct wbsim_memcg *memcg)
{
	return memcg ? memcg->id : 1;
}

void wbsim_memcg_tree_init(struct wbsim_vm *vm);
void wbsim_memcg_tree_clear(struct wbsim_memcg_tree *t);

/**
 * wbsim_memcg_create() - mkdir a cgroup (and its missing parents, as
 *	mkdir -p does)
 * @vm: the machine
 * @path: absolute path, "/a/b"
 * @error: WBSIM_ERROR_INVALID_VALUE if the path is malformed or an online
 *	cgroup of that path exists
 *
 * Return: the new memcg, or NULL with @error set.
 */
struct wbsim_memcg *wbsim_memcg_create(struct wbsim_vm *vm, const char *path, GError **error);

/* The online memcg of @path ("/" is the root), or NULL. */
struct wbsim_memcg *wbsim_memcg_lookup(const struct wbsim_memcg_tree *t, const char *path);

/* The memcg of css id @id, online or not (css_from_id()), or NULL. */
struct wbsim_memcg *wbsim_memcg_from_id(const struct wbsim_memcg_tree *t, unsigned int id);

/* The memcg whose blkcg @memcg's writeback is associated with: the
 * nearest ancestor-or-self whose parent delegates "io" (the root for the
 * root). */
const struct wbsim_memcg *wbsim_memcg_blkcg(const struct wbsim_memcg *memcg);

/*
 * Page counter updates of @memcg (propagated to its ancestors, as the
 * hierarchical memcg stats are): @delta pages of NR_FILE_DIRTY,
 * NR_WRITEBACK or charged file pages.
 */
/* memory.max and memory.high written in bytes: whole pages, as
 * page_counter_memparse() rounds; UINT64_MAX is "max". */
void wbsim_memcg_set_max(struct wbsim_memcg *memcg, uint64_t bytes);
void wbsim_memcg_set_high(struct wbsim_memcg *memcg, uint64_t bytes);

void wbsim_memcg_mod_dirty(struct wbsim_memcg *memcg, int64_t delta);
void wbsim_memcg_mod_writeback(struct wbsim_memcg *memcg, int64_t delta);
void wbsim_memcg_mod_file(struct wbsim_memcg *memcg, int64_t delta);

/**
 * wbsim_memcg_wb_stats() - mem_cgroup_wb_stats(): what a memcg domain of
 *	@memcg needs
 * @memcg: a non-root memcg
 * @filepages: the memcg's file LRU pages (active + inactive)
 * @headroom: min over the memcg and its non-root ancestors of
 *	min(memory.max, memory.high) - usage, 0 if over
 * @dirty: NR_FILE_DIRTY
 * @writeback: NR_WRITEBACK
 *
 * Reclaim is not simulated page by page: when a memcg's charged file
 * pages pass its limit (or an ancestor's charge passes the ancestor's),
 * clean pages are taken to have been reclaimed down to that limit, from
 * each memcg below it in proportion to its charge (reclaim scans the
 * memcgs under a limit in proportion to their LRU sizes); its file LRU is
 * its charge scaled by the smallest such limit / charge, and its headroom
 * is then 0. Dirty and writeback pages are never reclaimed, which holds
 * while the dirty limits stay below the memory limits.
 */
void wbsim_memcg_wb_stats(const struct wbsim_memcg *memcg, uint64_t *filepages,
			  uint64_t *headroom, uint64_t *dirty, uint64_t *writeback);

/* Whether the machine has a cgroup besides the root: until then every
 * inode is on a context's root wb and the cgroup paths (fs/cgroup-writeback.c)
 * do nothing. */
static inline bool wbsim_cgwb_enabled(const struct wbsim_bdi *bdi)
{
	return bdi->memcgs && bdi->memcgs->all->len > 1;
}

#endif /* WBSIM_MM_MEMCONTROL_H */
