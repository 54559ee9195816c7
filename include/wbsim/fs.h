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
 * Units: the interface speaks in filesystem blocks (wbsim_fs_block_size()
 * bytes, 4096 for every built-in) except where a name says bytes.
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
#include <wbsim/device.h>	/* struct wbsim_setting, struct wbsim_param */

WBSIM_BEGIN_DECLS

typedef struct wbsim_fs wbsim_fs;
typedef struct wbsim_fs_inode wbsim_fs_inode;

/** WBSIM_FS_OPS_VERSION - the struct wbsim_fs_ops layout this library expects. */
#define WBSIM_FS_OPS_VERSION 4

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

/** Flags of a completed write (wbsim_fs_end_bio()). */
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
 * typedef wbsim_fs_map_done_fn - completion of wbsim_fs_map_blocks()
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
 *        delayed; asynchronous, see wbsim_fs_map_blocks(); mandatory
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
 * @write_lock: take the lock a buffered write holds for the filesystem's
 *        part of the write (@write's CPU), as @task, then call
 *        @done(sim, @arg); NULL: no such lock
 * @write_unlock: release it
 * @fiemap: append the FIEMAP records of @inode to @out (an array of struct
 *        wbsim_fs_extent) as the filesystem reports them now; mandatory
 * @nr_extents: raw extent count (XFS fsx_nextents: on-disk records)
 * @remount: drop in-memory state as unmount and mount would; FALSE with
 *        @error when delayed allocation inside EOF remains (sync first)
 * @sync_fs: make allocations durable (F2FS: checkpoint)
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
};

/**
 * WBSIM_FS_MAX_BYTES - the largest device wbsim_fs_new() lays a filesystem
 * out on (128 TiB): the models keep tables proportional to the size
 */
#define WBSIM_FS_MAX_BYTES (UINT64_C(128) << 40)

/* ------------------------------------------------------------------------ */
/* Registry                                                                 */

/**
 * wbsim_fs_register() - add a model to the registry
 * @ops: the model; must stay valid for the life of the process
 * @error: WBSIM_ERROR_INVALID_ARGUMENT on a wrong version, a missing
 *         mandatory hook, an option without a default, or a duplicate name
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

/**
 * wbsim_fs_check_settings() - validate a [filesystem] section without
 * building a filesystem: @type exists, every key is an option of it and
 * every value parses and is in range
 * @type: model name
 * @type_where: "FILE:LINE: " of the line that chose @type ("" if default)
 * @settings: overrides, in order
 * @nr: entries in @settings
 * @error: WBSIM_ERROR_INVALID_VALUE for an unknown type,
 *         WBSIM_ERROR_UNKNOWN_KEY / _INVALID_VALUE naming file, line, key
 *         and value for a bad override
 *
 * Checks of the layout against a device size happen in wbsim_fs_new().
 * Return: TRUE if valid.
 */
WBSIM_API gboolean wbsim_fs_check_settings(const char *type, const char *type_where,
					   const struct wbsim_setting *settings, size_t nr,
					   GError **error);
/**
 * wbsim_fs_describe() - every option of @type as a "; help (unit)" comment
 * line and a "key = value" line, in table order, the last override of a
 * key replacing its default; the values load back to themselves
 * Return: a newly allocated string, or NULL for an unknown @type.
 */
WBSIM_API char *wbsim_fs_describe(const char *type, const struct wbsim_setting *settings,
				  size_t nr);

/* ------------------------------------------------------------------------ */
/* Instances                                                                */

/**
 * wbsim_fs_new() - make a filesystem of type @type on a device
 * @type: model name ("xfs")
 * @sim: the simulation
 * @cpus: the CPU pool allocation work runs on
 * @dev_bytes: device size in bytes
 * @params: overrides (struct wbsim_setting, as for devices) applied in
 *          order over the defaults (may be NULL)
 * @nr_params: entries in @params
 * @error: WBSIM_ERROR_UNKNOWN_KEY for a key the model does not have,
 *         WBSIM_ERROR_INVALID_VALUE for a bad value (the message names the
 *         file, line, key, the value found and what was expected),
 *         WBSIM_ERROR_INVALID_VALUE for an unknown @type or a device the
 *         layout does not fit on, WBSIM_ERROR_INVALID_ARGUMENT without a
 *         simulation or CPU pool
 *
 * The root directory exists on return.
 * Return: the instance, or NULL.
 */
WBSIM_API wbsim_fs *wbsim_fs_new(const char *type, wbsim_sim *sim, wbsim_cpus *cpus,
				 uint64_t dev_bytes, const struct wbsim_setting *params,
				 size_t nr_params, GError **error);
/** wbsim_fs_free() - free @fs and all its inodes. */
WBSIM_API void wbsim_fs_free(wbsim_fs *fs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_fs, wbsim_fs_free)

/** wbsim_fs_type() - the model name. */
WBSIM_API const char *wbsim_fs_type(const wbsim_fs *fs);
/** wbsim_fs_block_size() - block size in bytes. */
WBSIM_API uint64_t wbsim_fs_block_size(const wbsim_fs *fs);
/** wbsim_fs_nowait_buffered_write() - the model's @nowait_buffered_write. */
WBSIM_API gboolean wbsim_fs_nowait_buffered_write(const wbsim_fs *fs);
/** wbsim_fs_nr_blocks() - device size in blocks. */
WBSIM_API uint64_t wbsim_fs_nr_blocks(const wbsim_fs *fs);
/**
 * wbsim_fs_free_blocks() - blocks neither used by metadata, files nor
 * preallocations; used + free == wbsim_fs_nr_blocks() at all times.
 */
WBSIM_API uint64_t wbsim_fs_free_blocks(const wbsim_fs *fs);
/**
 * wbsim_fs_param_value() - the value of parameter @key after overrides
 * Return: TRUE and *@value if @key exists.
 */
WBSIM_API gboolean wbsim_fs_param_value(const wbsim_fs *fs, const char *key,
					uint64_t *value);
/** wbsim_fs_nr_locks() - number of locks the model holds while allocating. */
WBSIM_API size_t wbsim_fs_nr_locks(const wbsim_fs *fs);
/** wbsim_fs_get_lock() - lock @i (wait/hold statistics are in the struct). */
WBSIM_API wbsim_lock *wbsim_fs_get_lock(const wbsim_fs *fs, size_t i);

/* ------------------------------------------------------------------------ */
/* Namespace and data operations                                            */

/** wbsim_fs_root() - the root directory. */
WBSIM_API wbsim_fs_inode *wbsim_fs_root(wbsim_fs *fs);
/**
 * wbsim_fs_mkdir() - create a directory in @parent (NULL means the root).
 * XFS rotates new directories across allocation groups; ext4 spreads
 * top-level directories over flex groups (Orlov) and keeps deeper ones near
 * their parent.
 * Return: the directory inode (owned by @fs).
 */
WBSIM_API wbsim_fs_inode *wbsim_fs_mkdir(wbsim_fs *fs, wbsim_fs_inode *parent);
/**
 * wbsim_fs_create() - create an empty regular file in @dir (NULL: root)
 * Return: the file inode (owned by @fs).
 */
WBSIM_API wbsim_fs_inode *wbsim_fs_create(wbsim_fs *fs, wbsim_fs_inode *dir);
/** wbsim_fs_inode_number() - the inode number the filesystem gave @inode. */
WBSIM_API uint64_t wbsim_fs_inode_number(const wbsim_fs_inode *inode);
/** wbsim_fs_inode_size() - i_size in bytes. */
WBSIM_API uint64_t wbsim_fs_inode_size(const wbsim_fs_inode *inode);
/** wbsim_fs_inode_group() - the allocation/block group holding the inode. */
WBSIM_API uint64_t wbsim_fs_inode_group(const wbsim_fs_inode *inode);

/**
 * wbsim_fs_write() - a buffered write of @len bytes at @offset dirtied the
 * page cache: reserve delayed allocation for holes, extend i_size
 * Return: CPU ns the writer spends in the filesystem for it.
 */
WBSIM_API wbsim_time_t wbsim_fs_write(wbsim_fs *fs, wbsim_fs_inode *inode,
				      uint64_t offset, uint64_t len);
/**
 * wbsim_fs_fallocate() - fallocate(fd, 0, @offset, @len): unwritten extents
 * for the holes of the range; extends i_size. fio's default
 * fallocate=native does this for the whole file before the job starts.
 * Return: CPU ns, or G_MAXUINT64 with @error set (no space).
 */
WBSIM_API wbsim_time_t wbsim_fs_fallocate(wbsim_fs *fs, wbsim_fs_inode *inode,
					  uint64_t offset, uint64_t len, GError **error);
/** wbsim_fs_truncate() - set i_size to @size bytes, freeing blocks beyond. */
WBSIM_API void wbsim_fs_truncate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t size);
/** wbsim_fs_close() - the last writer closed @inode (XFS trims post-EOF preallocation). */
WBSIM_API void wbsim_fs_close(wbsim_fs *fs, wbsim_fs_inode *inode);

/**
 * wbsim_fs_map_blocks() - the writeback mapping step (iomap ->map_blocks,
 * ext4 mpage_map_and_submit_extent, f2fs do_write_page)
 * @fs: filesystem
 * @inode: file
 * @task: the flusher (or syncing) task: it takes the group locks and its
 *        CPU time is charged on the pool
 * @first: first file block of the range; every block in it is dirty
 * @nr: number of blocks (> 0)
 * @done: called from an event (never from inside this call) with the
 *        physical mapping of exactly [@first, @first + @nr)
 * @arg: for @done
 *
 * Delayed allocation in the range is converted to extents (XFS converts
 * the whole delayed extent containing a block, beyond the range too).
 * Pieces of @maps break at every physical discontinuity, so the caller
 * builds one bio chain per piece. Pieces with WBSIM_FS_MAP_UNWRITTEN must be
 * followed by wbsim_fs_end_io() once their write completes.
 */
WBSIM_API void wbsim_fs_map_blocks(wbsim_fs *fs, wbsim_fs_inode *inode,
				   wbsim_task *task, uint64_t first, uint64_t nr,
				   wbsim_fs_map_done_fn done, void *arg);
/**
 * wbsim_fs_end_io() - the device completed the write of [@first, @first+@nr)
 * Return: CPU ns of the completion work (unwritten conversion), to charge
 * to the completion task.
 */
WBSIM_API wbsim_time_t wbsim_fs_end_io(wbsim_fs *fs, wbsim_fs_inode *inode,
				       uint64_t first, uint64_t nr);
/**
 * wbsim_fs_end_bio() - the device completed a write of [@first, @first+@nr)
 * of @inode: the model's end_bio hook runs the completion where the
 * filesystem does and calls @done(sim, @arg) when the pages may leave
 * writeback (possibly from inside this call)
 * @flags: WBSIM_FS_IO_*
 */
WBSIM_API void wbsim_fs_end_bio(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
				uint64_t nr, unsigned int flags, wbsim_event_fn done, void *arg);
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
/** wbsim_fs_completion_cpu_ns() - CPU time of the filesystem's completion workqueues. */
WBSIM_API wbsim_time_t wbsim_fs_completion_cpu_ns(const wbsim_fs *fs);
/**
 * wbsim_fs_write_lock() - the model's write_lock hook: take, as @task, the
 * lock a buffered write of @inode holds for the filesystem's part (XFS:
 * the ILOCK, exclusively), then call @done(sim, @arg) from an event
 * Return: FALSE, calling nothing, when the model has no such lock.
 */
WBSIM_API gboolean wbsim_fs_write_lock(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
				       wbsim_event_fn done, void *arg);
/** wbsim_fs_write_unlock() - release what wbsim_fs_write_lock() took. */
WBSIM_API void wbsim_fs_write_unlock(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task);
/** wbsim_fs_has_write_lock() - the model has a write_lock hook. */
WBSIM_API gboolean wbsim_fs_has_write_lock(const wbsim_fs *fs);
/**
 * wbsim_fs_writepages_lock() - a lock to hold around the writepages of
 * @inode (F2FS serialises regular-file writeback on sbi->writepages unless
 * the writeback is WB_SYNC_ALL with fewer than min_seq_blocks dirty pages)
 * @sync_all: the writeback is for data integrity (WB_SYNC_ALL)
 * @nr_dirty: dirty pages of @inode
 * Return: the lock, or NULL when none is needed.
 */
WBSIM_API wbsim_lock *wbsim_fs_writepages_lock(wbsim_fs *fs, wbsim_fs_inode *inode,
					       gboolean sync_all, uint64_t nr_dirty);
/** wbsim_fs_sync() - sync_fs(): make allocations durable (F2FS checkpoint). */
WBSIM_API void wbsim_fs_sync(wbsim_fs *fs);
/**
 * wbsim_fs_remount() - unmount and mount: drop in-memory state (ext4 extent
 * status cache and preallocations, XFS post-EOF preallocation). The caller
 * must have written back every dirty page first, as umount does.
 * Return: FALSE with WBSIM_ERROR_SIMULATION if delayed allocation inside
 * EOF remains.
 */
WBSIM_API gboolean wbsim_fs_remount(wbsim_fs *fs, GError **error);

/* ------------------------------------------------------------------------ */
/* Extent counts                                                            */

/**
 * wbsim_fs_fiemap() - FS_IOC_FIEMAP over the whole file, without
 * FIEMAP_FLAG_SYNC (what `filefrag` asks for by default)
 * @out: array of struct wbsim_fs_extent; records are appended
 *
 * Reading may change in-memory state exactly as in the kernel (ext4 fills
 * its extent status cache from the on-disk tree).
 * Return: number of records appended.
 */
WBSIM_API size_t wbsim_fs_fiemap(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out);
/**
 * wbsim_fs_filefrag_count() - the number `filefrag FILE` prints: FIEMAP
 * records counted as e2fsprogs does (a record starts a new extent unless
 * it is at logical 0 or its physical start is where the previous record's
 * mapping, shifted by the logical gap, or the previous record's end
 * predicts)
 */
WBSIM_API uint64_t wbsim_fs_filefrag_count(wbsim_fs *fs, wbsim_fs_inode *inode);
/**
 * wbsim_fs_filefrag_line() - filefrag's line "PATH: N extents found"
 * ("1 extent found" for one)
 * Return: a newly allocated string without a newline.
 */
WBSIM_API char *wbsim_fs_filefrag_line(wbsim_fs *fs, wbsim_fs_inode *inode,
				       const char *path);
/**
 * wbsim_fs_nr_extents() - the raw extent count: on-disk extent records
 * (XFS fsxattr.fsx_nextents, the ext4 extent tree's leaf entries, F2FS runs
 * of contiguous block addresses); delayed allocation is not counted.
 */
WBSIM_API uint64_t wbsim_fs_nr_extents(wbsim_fs *fs, wbsim_fs_inode *inode);

/* ------------------------------------------------------------------------ */
/* For implementers of struct wbsim_fs_ops                                  */

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
/** wbsim_fs_add_lock() - list @lock in wbsim_fs_get_lock() (owned by the model). */
WBSIM_API void wbsim_fs_add_lock(wbsim_fs *fs, wbsim_lock *lock);
/** wbsim_fs_set_free_fn() - how wbsim_fs_free_blocks() asks the model. */
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
