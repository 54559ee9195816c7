/* SPDX-License-Identifier: MIT */
/*
 * wbsim/fs.h - filesystem allocator models: how a filesystem places the
 * blocks of a file when writeback maps delayed allocation, which locks it
 * holds and how much CPU that costs, and how it answers FIEMAP (filefrag).
 *
 * A model is a table of hooks, struct wbsim_fs_ops, in the style of fio's
 * struct ioengine_ops: name, version, an option table of parameters with
 * units and defaults, then hooks. Models are registered by name with
 * wbsim_fs_register(); the built-in ones ("ideal", "xfs", "ext4", "f2fs")
 * go through the same registry. An instance (struct wbsim_fs) lives on a
 * device of a given size inside one simulation and shares its CPU pool.
 *
 * Units: the interface speaks in filesystem blocks (the size the model
 * sets with wbsim_fs_set_block_size(), 4096 for every built-in) except
 * where a name says bytes.
 *
 * This header is what a model needs: the ops table and its types, the
 * registry, and the helpers a hook calls. The library makes the instances
 * for a scenario's [filesystem] section and calls the hooks (from the
 * flusher, the fio jobs, the report); a program does not drive a
 * filesystem itself.
 *
 * Life of a block under the built-in models:
 *   write()      hole -> delayed allocation (no placement yet); on XFS an
 *                appending write may also reserve speculative preallocation
 *                beyond EOF; overwrites of allocated blocks need nothing
 *                (F2FS relocates them at writeback: out-of-place update)
 *   map_blocks() delayed -> allocated extents (unwritten until the I/O
 *                completes on XFS and ext4), under a group lock, with CPU
 *                charged while the lock is held
 *   end_bio()    the write completed: where the completion runs (in the bio's
 *                end_io context, on a workqueue of the filesystem, one inode
 *                at a time or one filesystem at a time) and when the pages
 *                leave writeback
 *   end_io()     unwritten -> written (extent split/merge bookkeeping)
 *   close(), remount()  drop in-memory state (XFS post-EOF preallocation,
 *                ext4 preallocations and extent status cache)
 *
 * Thread safety: an instance belongs to its simulation's thread. The
 * registry is safe to use from any thread.
 */
#ifndef WBSIM_FS_H
#define WBSIM_FS_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>
#include <wbsim/param.h>	/* struct wbsim_param */

WBSIM_BEGIN_DECLS

typedef struct wbsim_fs wbsim_fs;
typedef struct wbsim_fs_inode wbsim_fs_inode;

/*
 * WBSIM_FS_OPS_VERSION - the struct wbsim_fs_ops layout this library
 * expects (5: struct wbsim_param, its @options rows, grew four members;
 * 6: @update_time; 7: @write_space, @free_space; 8: @free_space_writeback;
 * 9: @writepages_begin; 10: @write_lock_busy).
 */
#define WBSIM_FS_OPS_VERSION 10

/** WBSIM_FS_AUTO - stored for "auto" (options whose default is "auto"). */
#define WBSIM_FS_AUTO WBSIM_PARAM_AUTO

/** Flags of struct wbsim_fs_map. */
#define WBSIM_FS_MAP_NEW	(1u << 0)	/* holds blocks allocated (or relocated) by this call */
#define WBSIM_FS_MAP_UNWRITTEN	(1u << 1)	/* end_io() will convert it */

/**
 * struct wbsim_fs_map - one physically contiguous piece of a mapping
 * @file_block: first file block
 * @dev_block: device block it maps to
 * @nr_blocks: length
 * @flags: WBSIM_FS_MAP_*
 */
struct wbsim_fs_map {
	uint64_t file_block;
	uint64_t dev_block;
	uint64_t nr_blocks;
	unsigned int flags;
};

/* FIEMAP extent flags, with the values of linux/fiemap.h. */
#define WBSIM_FIEMAP_EXTENT_LAST	0x00000001
#define WBSIM_FIEMAP_EXTENT_UNKNOWN	0x00000002
#define WBSIM_FIEMAP_EXTENT_DELALLOC	0x00000004
#define WBSIM_FIEMAP_EXTENT_UNWRITTEN	0x00000800
#define WBSIM_FIEMAP_EXTENT_MERGED	0x00001000

/** Flags of a completed write (the end_bio hook). */
#define WBSIM_FS_IO_UNWRITTEN	(1u << 0)	/* written into unwritten extents */
#define WBSIM_FS_IO_DIRECT	(1u << 1)	/* direct I/O (iomap_dio), not writeback */
#define WBSIM_FS_IO_APPEND	(1u << 2)	/* ends beyond the on-disk size */

/**
 * struct wbsim_fs_extent - one FIEMAP record (struct fiemap_extent, in bytes)
 * @logical: byte offset in the file
 * @physical: byte offset on the device (0 for delayed allocation)
 * @length: bytes
 * @flags: WBSIM_FIEMAP_EXTENT_*
 */
struct wbsim_fs_extent {
	uint64_t logical;
	uint64_t physical;
	uint64_t length;
	uint32_t flags;
};

/**
 * typedef wbsim_fs_map_done_fn - completion of the map_blocks hook
 * @fs: the filesystem
 * @arg: the caller's argument
 * @maps: the mapping of exactly the requested range, in file order (valid
 *        only during the call), or NULL on error
 * @nr_maps: entries in @maps
 * @error: NULL, or why the range could not be mapped (no space)
 */
typedef void (*wbsim_fs_map_done_fn)(wbsim_fs *fs, void *arg,
				     const struct wbsim_fs_map *maps,
				     size_t nr_maps, const GError *error);

/**
 * struct wbsim_fs_ops - a filesystem allocator model
 * @name: registry name
 * @version: WBSIM_FS_OPS_VERSION
 * @params_size: size of the model's parameter struct (uint64_t fields,
 *        gboolean for WBSIM_PARAM_BOOL)
 * @options: the parameters (struct wbsim_param, the table type of every
 *        parameter), ending with a NULL name
 * @init: set up a new instance after its parameters were parsed; read them
 *        with wbsim_fs_params(), call wbsim_fs_set_block_size(); mandatory
 * @exit: free what @init and the inode hooks allocated
 * @inode_init: place a new inode (@inode->parent is set, NULL for the root),
 *        return its inode number; mandatory
 * @inode_exit: free per-inode state
 * @write: a buffered write dirtied [@first, @first + @nr) and i_size
 *        becomes @new_size bytes (wbsim_fs_inode_size() still reads the old
 *        size during the call); reserve delayed allocation. Return: CPU ns
 *        the writing task spends in the filesystem
 * @fallocate: preallocate [@first, @first + @nr) as unwritten extents
 *        (synchronous: locks are not modelled). Return: CPU ns, or
 *        G_MAXUINT64 with @error set when out of space
 * @truncate: i_size becomes @new_size bytes; free blocks beyond it
 * @close: the last writer closed the file
 * @map_blocks: map [@first, @first + @nr) for writeback, allocating what is
 *        delayed, as @task (the flusher or a syncing task: it takes the
 *        group locks, its CPU time is charged); asynchronous: call @done
 *        from an event, never from inside the hook, with the mapping of
 *        exactly the range, one piece per physical discontinuity (one bio
 *        chain each); pieces marked WBSIM_FS_MAP_UNWRITTEN get @end_io
 *        once written; mandatory
 * @end_io: the write of [@first, @first + @nr) completed. Return: CPU ns of
 *        the completion work
 * @end_bio: the device completed the write of [@first, @first + @nr) of
 *        @inode (one ioend, WBSIM_FS_IO_* @flags), in the bio's end_io
 *        context; run the completion where the filesystem runs it and call
 *        @done(sim, @arg) once the pages may leave writeback (from inside
 *        the call for a completion in end_io context). NULL: see
 *        wbsim_fs_end_bio_default()
 * @writepages_lock: a lock the flusher must hold around writepages of
 *        @inode, or NULL
 * @writepages_begin: @task begins a writepages call of @inode: the mapping
 *        a model keeps for the call's @map_blocks calls starts empty (XFS's
 *        struct xfs_writepage_ctx on xfs_vm_writepages()' stack); NULL:
 *        the model keeps none
 * @write_lock: take the lock a buffered write holds for the filesystem's
 *        part of the write (@write's CPU), as @task, then call
 *        @done(sim, @arg); NULL: no such lock
 * @write_unlock: release it
 * @update_time: a write changes the file's timestamps (file_update_time(),
 *        once a file and tick of the coarse clock): the filesystem's
 *        update, as XFS's transaction or ext4's journal handle. Runs under
 *        @write_lock when the model has one. Return: CPU ns of the writing
 *        task. NULL: the generic update, which only marks the inode dirty
 *        (no cost)
 * @fiemap: append the FIEMAP records of @inode to @out (an array of struct
 *        wbsim_fs_extent) as the filesystem reports them now; mandatory
 * @nr_extents: raw extent count (XFS fsx_nextents: on-disk records)
 * @remount: drop in-memory state as unmount and mount would; FALSE with
 *        @error when delayed allocation inside EOF remains (sync first)
 * @sync_fs: make allocations durable (F2FS: checkpoint)
 * @write_space: would the space a buffered write of [@first, @first +
 *        @nr) reserves now be granted (XFS: its delalloc blocks and their
 *        worst-case indirect blocks against the free-block counter)?
 *        FALSE: the write fails with ENOSPC unless the writer frees space
 *        (wbsim_fs_write_space()); NULL: always
 * @free_space: free what the filesystem holds speculatively, as its
 *        ENOSPC path does before retrying a write (XFS:
 *        xfs_blockgc_free_space(), the preallocation past EOF); NULL: none
 * @free_space_writeback: before a buffered write, does the filesystem ask
 *        for the writeback of every dirty inode because its delayed
 *        allocations approach its free space (ext4_nonda_switch():
 *        try_to_writeback_inodes_sb(WB_REASON_FS_FREE_SPACE), which the
 *        writer waits for unless writeback already runs)? NULL: never
 * @write_lock_busy: is @write_lock held (by a writer, or shared by a
 *        writeback mapping) so that a buffered write issued with
 *        IOCB_NOWAIT would fail its trylock of it with -EAGAIN (XFS:
 *        xfs_ilock_for_iomap()'s xfs_ilock_nowait(XFS_ILOCK_EXCL) under
 *        IOMAP_NOWAIT)? NULL: never
 * @nowait_buffered_write: buffered writes can run without blocking
 *        (FOP_BUFFER_WASYNC, formerly FMODE_BUF_WASYNC): io_uring issues
 *        them inline and punts to io-wq only a write that would block;
 *        without it every buffered write is punted
 */
struct wbsim_fs_ops {
	const char *name;
	unsigned int version;
	size_t params_size;
	const struct wbsim_param *options;

	gboolean (*init)(wbsim_fs *fs, GError **error);
	void (*exit)(wbsim_fs *fs);
	uint64_t (*inode_init)(wbsim_fs *fs, wbsim_fs_inode *inode);
	void (*inode_exit)(wbsim_fs *fs, wbsim_fs_inode *inode);
	wbsim_time_t (*write)(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
			      uint64_t nr, uint64_t new_size);
	wbsim_time_t (*fallocate)(wbsim_fs *fs, wbsim_fs_inode *inode,
				  uint64_t first, uint64_t nr, GError **error);
	void (*truncate)(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t new_size);
	void (*close)(wbsim_fs *fs, wbsim_fs_inode *inode);
	void (*map_blocks)(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			   uint64_t first, uint64_t nr,
			   wbsim_fs_map_done_fn done, void *arg);
	wbsim_time_t (*end_io)(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
			       uint64_t nr);
	wbsim_lock *(*writepages_lock)(wbsim_fs *fs, wbsim_fs_inode *inode,
				       gboolean sync_all, uint64_t nr_dirty);
	void (*fiemap)(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out);
	uint64_t (*nr_extents)(wbsim_fs *fs, wbsim_fs_inode *inode);
	gboolean (*remount)(wbsim_fs *fs, GError **error);
	void (*sync_fs)(wbsim_fs *fs);
	gboolean nowait_buffered_write;
	void (*end_bio)(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first, uint64_t nr,
			unsigned int flags, wbsim_event_fn done, void *arg);
	void (*write_lock)(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			   wbsim_event_fn done, void *arg);
	void (*write_unlock)(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task);
	wbsim_time_t (*update_time)(wbsim_fs *fs, wbsim_fs_inode *inode);
	gboolean (*write_space)(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
				uint64_t nr);
	void (*free_space)(wbsim_fs *fs);
	gboolean (*free_space_writeback)(wbsim_fs *fs);
	void (*writepages_begin)(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task);
	gboolean (*write_lock_busy)(wbsim_fs *fs, wbsim_fs_inode *inode);
};

/* ------------------------------------------------------------------------ */
/* Registry                                                                 */

/**
 * wbsim_fs_register() - add a model to the registry
 * @ops: the model; must stay valid for the life of the process
 * @error: WBSIM_ERROR_INVALID_ARGUMENT on a wrong version, a missing
 *         mandatory hook, the first bad row of @ops->options
 *         ("filesystem model 'NAME': parameter table: row N: KEY: ...":
 *         the faults wbsim_param_table_check() finds with
 *         @ops->params_size as the struct's size, and a row without a
 *         default or of a text type), or a duplicate name
 *
 * Return: TRUE on success.
 */
WBSIM_API gboolean wbsim_fs_register(const struct wbsim_fs_ops *ops, GError **error);
/**
 * wbsim_fs_lookup() - a registered model by name
 * Return: the model or NULL.
 */
WBSIM_API const struct wbsim_fs_ops *wbsim_fs_lookup(const char *name);
/**
 * wbsim_fs_names() - names of the registered models, in registration order
 * Return: a NULL-terminated array; free with g_strfreev().
 */
WBSIM_API char **wbsim_fs_names(void);

/* ------------------------------------------------------------------------ */
/* For implementers of struct wbsim_fs_ops                                  */

/** wbsim_fs_inode_number() - the inode number the filesystem gave @inode. */
WBSIM_API uint64_t wbsim_fs_inode_number(const wbsim_fs_inode *inode);
/** wbsim_fs_inode_size() - i_size in bytes. */
WBSIM_API uint64_t wbsim_fs_inode_size(const wbsim_fs_inode *inode);
/** wbsim_fs_inode_group() - the allocation/block group holding the inode. */
WBSIM_API uint64_t wbsim_fs_inode_group(const wbsim_fs_inode *inode);

/**
 * wbsim_fs_end_bio_default() - the completion of a model without an
 * end_bio hook (also used by models for what they do not special-case):
 * a write into unwritten extents, and a direct write, run end_io() on the
 * filesystem's "dio" workqueue (a bound workqueue: one worker per CPU, no
 * order between inodes; the kernel's sb->s_dio_done_wq), its CPU charged
 * there; any other write completes at once, in end_io context.
 */
WBSIM_API void wbsim_fs_end_bio_default(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
					uint64_t nr, unsigned int flags, wbsim_event_fn done,
					void *arg);
/**
 * wbsim_fs_end_bio_common() - what every built-in end_bio hook does first:
 * a direct write goes to wbsim_fs_end_bio_default(), a write that needs no
 * conversion ends at once (in the bio's end_io context)
 * Return: TRUE if it handled the completion; FALSE for a buffered write
 * into unwritten extents, which the model defers.
 */
WBSIM_API gboolean wbsim_fs_end_bio_common(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
					   uint64_t nr, unsigned int flags, wbsim_event_fn done,
					   void *arg);

/** wbsim_fs_params() - the parsed parameter struct of @fs. */
WBSIM_API void *wbsim_fs_params(wbsim_fs *fs);
/** wbsim_fs_set_private() - attach model state to @fs. */
WBSIM_API void wbsim_fs_set_private(wbsim_fs *fs, void *priv);
/** wbsim_fs_get_private() - model state of @fs. */
WBSIM_API void *wbsim_fs_get_private(wbsim_fs *fs);
/** wbsim_fs_sim() - the simulation of @fs. */
WBSIM_API wbsim_sim *wbsim_fs_sim(wbsim_fs *fs);
/** wbsim_fs_cpus() - the CPU pool of @fs. */
WBSIM_API wbsim_cpus *wbsim_fs_cpus(wbsim_fs *fs);
/** wbsim_fs_set_block_size() - set the block size (a power of two, in @init). */
WBSIM_API void wbsim_fs_set_block_size(wbsim_fs *fs, uint64_t block_size);
/**
 * wbsim_fs_set_max_folio_size() - the largest page-cache folio the
 * filesystem lets its files use, in bytes (a power of two from 4096 to
 * 2 MiB; the kernel's mapping_set_large_folios() and
 * mapping_set_folio_order_range() at inode set-up). Call it in @init; a
 * model that does not call it keeps 4096 (folios of one page). With
 * [writeback] folio_size = auto, a write into an empty file gets the
 * folio the kernel's write path chooses for it up to this size.
 */
WBSIM_API void wbsim_fs_set_max_folio_size(wbsim_fs *fs, uint64_t bytes);
/** wbsim_fs_add_lock() - list @lock in the run's lock report (owned by the model). */
WBSIM_API void wbsim_fs_add_lock(wbsim_fs *fs, wbsim_lock *lock);
/** wbsim_fs_set_free_fn() - how the library asks the model for its free blocks. */
WBSIM_API void wbsim_fs_set_free_fn(wbsim_fs *fs, uint64_t (*free_fn)(wbsim_fs *fs));
/** wbsim_fs_inode_set_private() - attach model state to @inode. */
WBSIM_API void wbsim_fs_inode_set_private(wbsim_fs_inode *inode, void *priv);
/** wbsim_fs_inode_get_private() - model state of @inode. */
WBSIM_API void *wbsim_fs_inode_get_private(const wbsim_fs_inode *inode);
/** wbsim_fs_inode_parent() - the parent directory, NULL for the root. */
WBSIM_API wbsim_fs_inode *wbsim_fs_inode_parent(const wbsim_fs_inode *inode);
/** wbsim_fs_inode_is_dir() - TRUE for a directory. */
WBSIM_API gboolean wbsim_fs_inode_is_dir(const wbsim_fs_inode *inode);
/** wbsim_fs_inode_set_group() - record the group the model placed @inode in. */
WBSIM_API void wbsim_fs_inode_set_group(wbsim_fs_inode *inode, uint64_t group);

WBSIM_END_DECLS

#endif /* WBSIM_FS_H */
