/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/fs.h - the library's side of wbsim/fs.h: checking and
 * describing a [filesystem] section, making a filesystem instance on a
 * device, and the calls the kernel's generic code makes on it (the VFS:
 * create, write, fallocate, truncate, close, sync, remount; writeback: the
 * writepages lock, map_blocks, end_bio, end_io; FIEMAP and the extent
 * counts). Each one dispatches to the model's hook (struct wbsim_fs_ops).
 * A model registers its hooks through wbsim/fs.h; only lib/ and the
 * tests call these.
 */
#ifndef WBSIM_FS_ALLOC_FS_H
#define WBSIM_FS_ALLOC_FS_H

#include <wbsim/fs.h>
#include "defs/setting.h"
#include "defs/writeback.h"

/**
 * WBSIM_FS_MAX_BYTES - the largest device wbsim_fs_new() lays a filesystem
 * out on (128 TiB): the models keep tables proportional to the size
 */
#define WBSIM_FS_MAX_BYTES (UINT64_C(128) << 40)

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
gboolean wbsim_fs_check_settings(const char *type, const char *type_where,
				 const struct wbsim_setting *settings, size_t nr,
				 GError **error);
/**
 * wbsim_fs_cost_value() - the value of @type's cost row @key
 * (WBSIM_PARAM_COST) as a run takes it: the last of @settings that sets
 * it, else the built-in host profile's "TYPE.KEY", else the row's default
 * Return: the text (owned by @settings, the profile or the table), or NULL
 * where @type has no such cost row.
 */
const char *wbsim_fs_cost_value(const char *type, const char *key,
				const struct wbsim_setting *settings, size_t nr);
/**
 * wbsim_fs_describe() - every option of @type but its costs (which a
 * scenario's [costs] holds) as a "; help (unit)" comment line and a
 * "key = value" line, in table order, the last override of a key
 * replacing its default; the values load back to themselves
 * Return: a newly allocated string, or NULL for an unknown @type.
 */
char *wbsim_fs_describe(const char *type, const struct wbsim_setting *settings,
			size_t nr);

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
wbsim_fs *wbsim_fs_new(const char *type, wbsim_sim *sim, wbsim_cpus *cpus,
		       uint64_t dev_bytes, const struct wbsim_setting *params,
		       size_t nr_params, GError **error);
/**
 * wbsim_fs_set_rwsem_costs() - the CPU a task spends sleeping on one of the
 * filesystem's rw_semaphores (XFS's ILOCK) and waking its sleeper: the
 * host's rwsem_sleep_ns and rwsem_wake_ns; for inodes created after.
 */
void wbsim_fs_set_rwsem_costs(wbsim_fs *fs, wbsim_time_t sleep_ns, wbsim_time_t wake_ns);
/** wbsim_fs_free() - free @fs and all its inodes. */
void wbsim_fs_free(wbsim_fs *fs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_fs, wbsim_fs_free)

/** wbsim_fs_type() - the model name. */
const char *wbsim_fs_type(const wbsim_fs *fs);
/** wbsim_fs_block_size() - block size in bytes. */
uint64_t wbsim_fs_block_size(const wbsim_fs *fs);
/** wbsim_fs_max_folio_size() - the largest folio its files use, bytes. */
uint64_t wbsim_fs_max_folio_size(const wbsim_fs *fs);
/** wbsim_fs_nowait_buffered_write() - the model's @nowait_buffered_write. */
gboolean wbsim_fs_nowait_buffered_write(const wbsim_fs *fs);
/** wbsim_fs_nr_blocks() - device size in blocks. */
uint64_t wbsim_fs_nr_blocks(const wbsim_fs *fs);
/**
 * wbsim_fs_free_blocks() - blocks neither used by metadata, files nor
 * preallocations; used + free == wbsim_fs_nr_blocks() at all times.
 */
uint64_t wbsim_fs_free_blocks(const wbsim_fs *fs);
/**
 * wbsim_fs_param_value() - the value of parameter @key after overrides
 * Return: TRUE and *@value if @key exists.
 */
gboolean wbsim_fs_param_value(const wbsim_fs *fs, const char *key,
			      uint64_t *value);
/** wbsim_fs_nr_locks() - number of locks the model holds while allocating. */
size_t wbsim_fs_nr_locks(const wbsim_fs *fs);
/** wbsim_fs_get_lock() - lock @i (wait/hold statistics are in the struct). */
wbsim_lock *wbsim_fs_get_lock(const wbsim_fs *fs, size_t i);

/** wbsim_fs_root() - the root directory. */
wbsim_fs_inode *wbsim_fs_root(wbsim_fs *fs);
/**
 * wbsim_fs_mkdir() - create a directory in @parent (NULL means the root).
 * XFS rotates new directories across allocation groups; ext4 spreads
 * top-level directories over flex groups (Orlov) and keeps deeper ones near
 * their parent.
 * Return: the directory inode (owned by @fs).
 */
wbsim_fs_inode *wbsim_fs_mkdir(wbsim_fs *fs, wbsim_fs_inode *parent);
/**
 * wbsim_fs_create() - create an empty regular file in @dir (NULL: root)
 * Return: the file inode (owned by @fs).
 */
wbsim_fs_inode *wbsim_fs_create(wbsim_fs *fs, wbsim_fs_inode *dir);

/* wbsim_fs_write(): in defs/writeback.h, the call lib/mm makes on a
 * filesystem (kernel: a_ops->write_begin/write_end of generic_perform_write) */
/**
 * wbsim_fs_fallocate() - fallocate(fd, 0, @offset, @len): unwritten extents
 * for the holes of the range; extends i_size. fio's default
 * fallocate=native does this for the whole file before the job starts.
 * Return: CPU ns, or G_MAXUINT64 with @error set (no space).
 */
wbsim_time_t wbsim_fs_fallocate(wbsim_fs *fs, wbsim_fs_inode *inode,
				uint64_t offset, uint64_t len, GError **error);
/** wbsim_fs_truncate() - set i_size to @size bytes, freeing blocks beyond. */
void wbsim_fs_truncate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t size);
/** wbsim_fs_close() - the last writer closed @inode (XFS trims post-EOF preallocation). */
void wbsim_fs_close(wbsim_fs *fs, wbsim_fs_inode *inode);

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
void wbsim_fs_map_blocks(wbsim_fs *fs, wbsim_fs_inode *inode,
			 wbsim_task *task, uint64_t first, uint64_t nr,
			 wbsim_fs_map_done_fn done, void *arg);
/**
 * wbsim_fs_end_io() - the device completed the write of [@first, @first+@nr)
 * Return: CPU ns of the completion work (unwritten conversion), to charge
 * to the completion task.
 */
wbsim_time_t wbsim_fs_end_io(wbsim_fs *fs, wbsim_fs_inode *inode,
			     uint64_t first, uint64_t nr);
/**
 * wbsim_fs_end_bio() - the device completed a write of [@first, @first+@nr)
 * of @inode: the model's end_bio hook runs the completion where the
 * filesystem does and calls @done(sim, @arg) when the pages may leave
 * writeback (possibly from inside this call)
 * @flags: WBSIM_FS_IO_*
 */
void wbsim_fs_end_bio(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
		      uint64_t nr, unsigned int flags, wbsim_event_fn done, void *arg);
/** wbsim_fs_completion_cpu_ns() - CPU time of the filesystem's completion workqueues. */
wbsim_time_t wbsim_fs_completion_cpu_ns(const wbsim_fs *fs);
/**
 * wbsim_fs_write_lock() - the model's write_lock hook: take, as @task, the
 * lock a buffered write of @inode holds for the filesystem's part (XFS:
 * the ILOCK, exclusively), then call @done(sim, @arg) from an event
 * Return: FALSE, calling nothing, when the model has no such lock.
 */
gboolean wbsim_fs_write_lock(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			     wbsim_event_fn done, void *arg);
/**
 * wbsim_fs_prefetch_write() - start loading what the model's write hook
 * will read for a write at byte @offset of @inode (XFS: the extent map's
 * leaf); a cache hint for a write a later event makes, no state changes
 */
void wbsim_fs_prefetch_write(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t offset);
/**
 * wbsim_fs_write_lock_busy() - would an IOCB_NOWAIT write of @inode fail
 * its trylock of the filesystem's write lock now (the model's
 * write_lock_busy hook)? FALSE when the model has no such lock.
 */
gboolean wbsim_fs_write_lock_busy(wbsim_fs *fs, wbsim_fs_inode *inode);
/** wbsim_fs_write_unlock() - release what wbsim_fs_write_lock() took. */
void wbsim_fs_write_unlock(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task);
/** wbsim_fs_has_write_lock() - the model has a write_lock hook. */
gboolean wbsim_fs_has_write_lock(const wbsim_fs *fs);
/**
 * wbsim_fs_writepages_lock() - a lock to hold around the writepages of
 * @inode (F2FS serialises regular-file writeback on sbi->writepages unless
 * the writeback is WB_SYNC_ALL with fewer than min_seq_blocks dirty pages)
 * @sync_all: the writeback is for data integrity (WB_SYNC_ALL)
 * @nr_dirty: dirty pages of @inode
 * Return: the lock, or NULL when none is needed.
 */
wbsim_lock *wbsim_fs_writepages_lock(wbsim_fs *fs, wbsim_fs_inode *inode,
				     gboolean sync_all, uint64_t nr_dirty);
/**
 * wbsim_fs_writepages_begin() - @task begins a writepages call of @inode
 * (the model's writeback context starts empty: @writepages_begin)
 */
void wbsim_fs_writepages_begin(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task);
/** wbsim_fs_sync() - sync_fs(): make allocations durable (F2FS checkpoint). */
void wbsim_fs_sync(wbsim_fs *fs);
/**
 * wbsim_fs_remount() - unmount and mount: drop in-memory state (ext4 extent
 * status cache and preallocations, XFS post-EOF preallocation). The caller
 * must have written back every dirty page first, as umount does.
 * Return: FALSE with WBSIM_ERROR_SIMULATION if delayed allocation inside
 * EOF remains.
 */
gboolean wbsim_fs_remount(wbsim_fs *fs, GError **error);

/**
 * wbsim_fs_fiemap() - FS_IOC_FIEMAP over the whole file, without
 * FIEMAP_FLAG_SYNC (what `filefrag` asks for by default)
 * @out: array of struct wbsim_fs_extent; records are appended
 *
 * Reading may change in-memory state exactly as in the kernel (ext4 fills
 * its extent status cache from the on-disk tree).
 * Return: number of records appended.
 */
size_t wbsim_fs_fiemap(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out);
/**
 * wbsim_fs_filefrag_count() - the number `filefrag FILE` prints: FIEMAP
 * records counted as e2fsprogs does (a record starts a new extent unless
 * it is at logical 0 or its physical start is where the previous record's
 * mapping, shifted by the logical gap, or the previous record's end
 * predicts)
 */
uint64_t wbsim_fs_filefrag_count(wbsim_fs *fs, wbsim_fs_inode *inode);
/**
 * wbsim_fs_filefrag_verbose() - what `filefrag -v FILE` shows, from one
 * FIEMAP call: the count wbsim_fs_filefrag_count() gives, and the length
 * of every record in filesystem blocks as its line's logical range gives
 * it (first..last block, ceil(fe_length / block size) blocks; delayed
 * allocation records included, as the count includes them)
 * @lengths: GArray of uint64_t; one length is appended per record, in
 *	file order
 * Return: the count.
 */
uint64_t wbsim_fs_filefrag_verbose(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *lengths);
/**
 * wbsim_fs_filefrag_line() - filefrag's line "PATH: N extents found"
 * ("1 extent found" for one)
 * Return: a newly allocated string without a newline.
 */
char *wbsim_fs_filefrag_line(wbsim_fs *fs, wbsim_fs_inode *inode,
			     const char *path);
/*
 * wbsim_fs_filefrag_format() - filefrag's line for @path with @n extents
 * (wbsim_fs_filefrag_line() without counting them again: a count walks
 * every extent of the file)
 */
char *wbsim_fs_filefrag_format(const char *path, uint64_t n);
/**
 * wbsim_fs_nr_extents() - the raw extent count: on-disk extent records
 * (XFS fsxattr.fsx_nextents, the ext4 extent tree's leaf entries, F2FS runs
 * of contiguous block addresses); delayed allocation is not counted.
 */
uint64_t wbsim_fs_nr_extents(wbsim_fs *fs, wbsim_fs_inode *inode);

#endif /* WBSIM_FS_ALLOC_FS_H */
