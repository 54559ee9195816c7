/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/fs-private.h - the filesystem instance and inode structs behind
 * the opaque handles of wbsim/fs.h, and helpers shared by the built-in
 * models (lib/fs/alloc/{ideal,xfs,ext4,f2fs}.c).
 */
#ifndef WBSIM_FS_ALLOC_FS_PRIVATE_H
#define WBSIM_FS_ALLOC_FS_PRIVATE_H

#include <wbsim/fs.h>
#include <wbsim/error.h>
#include "fs/alloc/extent-map.h"
#include "fs/alloc/fs.h"
#include "core/freelist.h"

struct wbsim_fs {
	const struct wbsim_fs_ops *ops;
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	/* the host's costs of sleeping on a kernel rw_semaphore and of waking
	 * its sleeper (wbsim_fs_set_rwsem_costs()) */
	wbsim_time_t rwsem_sleep_ns, rwsem_wake_ns;
	uint64_t dev_bytes;
	uint64_t block_size;
	uint64_t max_folio_size;	/* mapping_max_folio_size(), bytes */
	uint64_t nr_blocks;
	void *params;
	void *priv;
	uint64_t (*free_fn)(wbsim_fs *fs);
	/* a cache hint for a write to come (wbsim_fs_prefetch_write()), or NULL */
	void (*prefetch_write)(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first);
	GPtrArray *inodes;	/* every inode, in creation order (owned) */
	GPtrArray *locks;	/* model locks, for reports (not owned) */
	wbsim_fs_inode *root;
	GPtrArray *call_pools;	/* struct wbsim_fs_call_pool *: call states by size */
	GArray *maps_spare;	/* struct wbsim_fs_map: map_call_finish()'s array, reused */
	GPtrArray *wqs;		/* struct wbsim_workqueue *: completion work (owned) */
	struct wbsim_workqueue *dio_wq;	/* wbsim_fs_end_bio_default()'s, made on first use */
};

struct wbsim_workqueue;
/*
 * A workqueue of the filesystem (alloc_workqueue() at mount) of @max_active
 * workers, its CPU counted in wbsim_fs_completion_cpu_ns(); made on first
 * use by the models, so that a run that never completes anything there
 * allocates no worker pids.
 */
struct wbsim_workqueue *wbsim_fs_alloc_workqueue(wbsim_fs *fs, const char *name,
						 unsigned int max_active);

/*
 * The call states of one size and release function (core/freelist.h): a
 * map call per bio would otherwise be a malloc and a free per bio. The
 * pool owns them, so a simulation stopped in the middle (a time limit)
 * releases and frees those in flight with the fs.
 */
struct wbsim_fs_call_pool {
	size_t size;
	void (*release)(void *call);
	struct wbsim_freelist states;
};

/* Allocate a zeroed call state of @size bytes; @release frees what it owns
 * (not the state itself) if the call never finishes. */
void *wbsim_fs_call_new(wbsim_fs *fs, size_t size, void (*release)(void *call));
/* The call finished (its owned data already freed): forget and free it. */
void wbsim_fs_call_free(wbsim_fs *fs, void *call);

struct wbsim_emap;

/*
 * The state every extent-map model (XFS, ext4) keeps for one map_blocks()
 * call; a model's own call state embeds it as its first member.
 */
struct wbsim_fs_map_call {
	wbsim_fs *fs;
	wbsim_fs_inode *inode;
	wbsim_task *task;
	uint64_t first, nr;	/* the range asked for */
	uint64_t pos;		/* next block to map */
	wbsim_fs_map_done_fn done;
	void *arg;
	GArray *new_ranges;	/* uint64_t pairs (lblk, len) allocated by this call,
				 * NULL until the first (most calls allocate nothing) */
};

/* Record that the call allocated [lblk, lblk + len). */
void wbsim_fs_map_call_new_range(struct wbsim_fs_map_call *mc, uint64_t lblk, uint64_t len);

/*
 * Start a map_blocks() call: a zeroed call state of @size bytes (at least
 * sizeof(struct wbsim_fs_map_call), which it starts with) filled from the
 * arguments, tracked while in flight.
 */
void *wbsim_fs_map_call_new(wbsim_fs *fs, size_t size, wbsim_fs_inode *inode,
			    wbsim_task *task, uint64_t first, uint64_t nr,
			    wbsim_fs_map_done_fn done, void *arg);

/*
 * End a map_blocks() call of a model that keeps its mapping in @map: the
 * mapping of blocks [first, first + nr) (every block must be mapped, else
 * a WBSIM_ERROR_SIMULATION naming @model), the pieces allocated by this
 * call flagged new, handed to the caller's done(), or @error if the call
 * failed (consumed). Frees the call state.
 */
void wbsim_fs_map_call_finish(struct wbsim_fs_map_call *mc, const char *model,
			      struct wbsim_emap *map, GError *error);

struct wbsim_fs_inode {
	wbsim_fs *fs;
	uint64_t ino;
	gboolean is_dir;
	wbsim_fs_inode *parent;
	uint64_t size;		/* i_size, bytes */
	uint64_t group;		/* AG / block group the inode lives in */
	uint64_t nr_subdirs;
	uint64_t nr_files;
	void *priv;
};

/* Blocks covering @bytes (rounded up). */
static inline uint64_t wbsim_fs_bytes_to_blocks(const wbsim_fs *fs, uint64_t bytes)
{
	return (bytes + fs->block_size - 1) / fs->block_size;
}

/* Built-in models, registered by the registry on first use. */
extern const struct wbsim_fs_ops wbsim_fs_ideal_ops;
extern const struct wbsim_fs_ops wbsim_fs_xfs_ops;
extern const struct wbsim_fs_ops wbsim_fs_ext4_ops;
extern const struct wbsim_fs_ops wbsim_fs_f2fs_ops;

/*
 * wbsim_fs_ideal_region_blocks() - the ideal model's region_size in blocks:
 * a file takes at least one region, or one covering it if larger
 * (ideal_grow()); 0 for other models. For the check of a scenario's
 * space at load.
 */
uint64_t wbsim_fs_ideal_region_blocks(wbsim_fs *fs);

/* Internal consistency of the free-space indexes (tests). */
gboolean wbsim_fs_xfs_check(wbsim_fs *fs);
gboolean wbsim_fs_ext4_check(wbsim_fs *fs);

/*
 * wbsim_fs_emap_fiemap() - FIEMAP records straight from an extent map, one
 * per extent (the XFS behaviour: iomap reports each in-core record);
 * delayed extents as DELALLOC|UNKNOWN at physical 0, unwritten flagged.
 */
void wbsim_fs_emap_fiemap(wbsim_fs *fs, struct wbsim_emap *map, GArray *out);

/* wbsim_fs_maps_add() - append a piece to an array of struct wbsim_fs_map,
 * extending the last piece when logically and physically contiguous with
 * the same flags. */
void wbsim_fs_maps_add(GArray *maps, uint64_t file_block, uint64_t dev_block,
		       uint64_t nr, unsigned int flags);
/*
 * wbsim_fs_maps_from_emap() - append the mapping of [first, first+nr) read
 * from @map; every block must be allocated (unwritten pieces are flagged).
 * Return: FALSE if a block of the range is not allocated.
 */
gboolean wbsim_fs_maps_from_emap(GArray *maps, struct wbsim_emap *map, uint64_t first,
				 uint64_t nr);
/* wbsim_fs_maps_mark_new() - flag NEW on pieces overlapping [lblk, lblk+len). */
void wbsim_fs_maps_mark_new(GArray *maps, uint64_t lblk, uint64_t len);

#endif /* WBSIM_FS_ALLOC_FS_PRIVATE_H */
