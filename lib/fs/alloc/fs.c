/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/fs.c - the filesystem-model registry, parameter parsing, the
 * generic inode table, and the filefrag count.
 *
 * filefrag's count follows e2fsprogs misc/filefrag.c (filefrag_fiemap()
 * after Darrick Wong's 2014 change "filefrag: accommodate holes when
 * calculating expected values"): FIEMAP is called without
 * FIEMAP_FLAG_SYNC unless -s is given; a record starts a new extent unless
 * its logical offset is 0 or its physical offset equals either
 *   expected       = last.physical + (this.logical - last.logical)   or
 *   expected_dense = last.physical + last.length,
 * where "last" is the previous record (all zero before the first). The
 * count is at least 1 once a record was seen. Delayed-allocation records
 * have physical 0 and so count separately. The line printed is
 * "%s: 1 extent found" or "%s: %d extents found".
 */
#include <errno.h>
#include <string.h>
#include "core/arg-check.h"
#include "core/host-profile.h"
#include "core/param.h"
#include "core/registry.h"
#include "core/workqueue.h"
#include "fs/alloc/fs-private.h"

/* ------------------------------------------------------------------------ */
/* Registry                                                                 */

static const void *const builtins[] = {
	&wbsim_fs_ideal_ops, &wbsim_fs_xfs_ops, &wbsim_fs_ext4_ops, &wbsim_fs_f2fs_ops,
};
static struct wbsim_registry registry =
	WBSIM_REGISTRY_INIT_PARAMS("filesystem model", struct wbsim_fs_ops, builtins,
				   options, params_size,
				   /* options are optional numbers (wbsim_fs_param_value()) */
				   WBSIM_PARAM_RULE_DEFAULTS | WBSIM_PARAM_RULE_NUMBERS);

static gboolean check_ops(const struct wbsim_fs_ops *ops, GError **error)
{
	if (!ops || !ops->name || !*ops->name) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "filesystem model without a name");
		return FALSE;
	}
	if (ops->version != WBSIM_FS_OPS_VERSION) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "filesystem model %s: bad ops version %u (want %u)",
			    ops->name, ops->version, WBSIM_FS_OPS_VERSION);
		return FALSE;
	}
	if (!ops->init || !ops->inode_init || !ops->map_blocks || !ops->fiemap) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "filesystem model %s: no %s hook", ops->name,
			    !ops->init ? "init" : !ops->inode_init ? "inode_init" :
			    !ops->map_blocks ? "map_blocks" : "fiemap");
		return FALSE;
	}
	if (!ops->write_lock != !ops->write_unlock) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "filesystem model %s: write_lock and write_unlock go together",
			    ops->name);
		return FALSE;
	}
	return TRUE;	/* the options table: wbsim_registry_add() */
}

gboolean wbsim_fs_register(const struct wbsim_fs_ops *ops, GError **error)
{
	return check_ops(ops, error) && wbsim_registry_add(&registry, ops, error);
}

const struct wbsim_fs_ops *wbsim_fs_lookup(const char *name)
{
	return wbsim_registry_lookup(&registry, name);
}

char **wbsim_fs_names(void)
{
	return wbsim_registry_names(&registry);
}

/* ------------------------------------------------------------------------ */
/* Parameters                                                               */

/* "filesystem xfs:", the owner of the options' messages. */
static char *options_owner(const struct wbsim_fs_ops *ops)
{
	return g_strdup_printf("filesystem %s:", ops->name);
}

/*
 * The host profile's line for cost row @o of @ops ("FS.KEY" in the
 * built-in profile), or NULL.
 */
static const struct wbsim_ini_entry *profile_cost(const struct wbsim_fs_ops *ops,
						  const struct wbsim_param *o)
{
	g_autofree char *key = NULL;

	if (!(o->flags & WBSIM_PARAM_COST))
		return NULL;
	key = g_strdup_printf("%s.%s", ops->name, o->name);
	return wbsim_host_profile_lookup(key);
}

/* Whether @key is set in @ovr. */
static gboolean is_set(const char *key, const struct wbsim_setting *ovr, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ovr[i].key && strcmp(ovr[i].key, key) == 0)
			return TRUE;
	return FALSE;
}

/*
 * The defaults, the built-in host profile's costs, then @ovr in order (a
 * later one wins). A cost row that none of them gives is an error.
 */
static gboolean parse_params(const struct wbsim_fs_ops *ops, void *params,
			     const struct wbsim_setting *ovr, size_t n, GError **error)
{
	g_autofree char *owner = options_owner(ops);

	if (!wbsim_param_apply_defaults(ops->options, params, owner, error))
		return FALSE;
	for (const struct wbsim_param *o = ops->options; o && o->name; o++) {
		const struct wbsim_ini_entry *e = profile_cost(ops, o);

		if (e && !wbsim_param_apply(o, params, e->value, owner, e->file, e->line, error))
			return FALSE;
		if (!e && (o->flags & WBSIM_PARAM_COST) && !o->def && !is_set(o->name, ovr, n)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s %s: a CPU cost that neither the host profile (%s) nor the scenario gives: expected [costs] %s.%s = TIME",
				    owner, o->name, wbsim_host_profile_name(), ops->name, o->name);
			return FALSE;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!wbsim_param_set(ops->options, params, ovr[i].key,
				     ovr[i].value ? ovr[i].value : "", owner,
				     ovr[i].file, ovr[i].line, error))
			return FALSE;
	return TRUE;
}

static void set_unknown_type(const char *type, const char *where, GError **error)
{
	char **names = wbsim_fs_names();
	g_autofree char *list = g_strjoinv(", ", names);

	g_strfreev(names);
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
		    "%sunknown filesystem type '%s', expected one of: %s",
		    where ? where : "", type ? type : "(null)", list);
}

gboolean wbsim_fs_check_settings(const char *type, const char *type_where,
				 const struct wbsim_setting *settings, size_t nr,
				 GError **error)
{
	const struct wbsim_fs_ops *ops = wbsim_fs_lookup(type);
	g_autofree void *params = NULL;

	wbsim_check_arg(settings || !nr, FALSE, error);
	if (!ops) {
		set_unknown_type(type, type_where, error);
		return FALSE;
	}
	params = g_malloc0(ops->params_size ? ops->params_size : 1);
	return parse_params(ops, params, settings, nr, error);
}

char *wbsim_fs_describe(const char *type, const struct wbsim_setting *settings, size_t nr)
{
	const struct wbsim_fs_ops *ops = wbsim_fs_lookup(type);
	GString *out;

	if (!ops)
		return NULL;
	out = g_string_new(NULL);
	for (const struct wbsim_param *o = ops->options; o && o->name; o++) {
		const char *value = o->def;

		/* a cost is the host's: [costs] prints it (wbsim_fs_cost_value()) */
		if (o->flags & WBSIM_PARAM_COST)
			continue;

		for (size_t i = 0; i < nr; i++)
			if (settings[i].key && !strcmp(settings[i].key, o->name) && settings[i].value)
				value = settings[i].value;
		g_string_append_printf(out, "; %s (%s)\n%s = %s\n", o->help ? o->help : "",
				       wbsim_param_unit(o) ? wbsim_param_unit(o) : "", o->name, value);
	}
	return g_string_free(out, FALSE);
}

const char *wbsim_fs_cost_value(const char *type, const char *key,
				const struct wbsim_setting *settings, size_t nr)
{
	const struct wbsim_fs_ops *ops = wbsim_fs_lookup(type);
	const struct wbsim_param *o = ops ? wbsim_param_find(ops->options, key) : NULL;
	const struct wbsim_ini_entry *e;
	const char *value;

	if (!o || !(o->flags & WBSIM_PARAM_COST))
		return NULL;
	e = profile_cost(ops, o);
	value = e ? e->value : o->def;
	for (size_t i = 0; i < nr; i++)
		if (settings[i].key && !strcmp(settings[i].key, key) && settings[i].value)
			value = settings[i].value;
	return value;
}

/* ------------------------------------------------------------------------ */
/* Instances and inodes                                                     */

static wbsim_fs_inode *new_inode(wbsim_fs *fs, wbsim_fs_inode *parent, gboolean is_dir)
{
	wbsim_fs_inode *inode = g_new0(wbsim_fs_inode, 1);

	inode->fs = fs;
	inode->parent = parent;
	inode->is_dir = is_dir;
	inode->ino = fs->ops->inode_init(fs, inode);
	if (parent) {
		if (is_dir)
			parent->nr_subdirs++;
		else
			parent->nr_files++;
	}
	g_ptr_array_add(fs->inodes, inode);
	return inode;
}

wbsim_fs *wbsim_fs_new(const char *type, wbsim_sim *sim, wbsim_cpus *cpus,
		       uint64_t dev_bytes, const struct wbsim_setting *params,
		       size_t nr_params, GError **error)
{
	const struct wbsim_fs_ops *ops = wbsim_fs_lookup(type);
	wbsim_fs *fs;

	if (!ops) {
		set_unknown_type(type, NULL, error);
		return NULL;
	}
	if (!sim || !cpus) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "filesystem %s needs a simulation and a CPU pool", ops->name);
		return NULL;
	}
	/*
	 * The models keep tables proportional to the size (F2FS per 2 MiB
	 * segment, ext4 per 128 MiB group): a device of 10^18 bytes asked for
	 * terabytes of them. No modelled device comes near the bound.
	 */
	if (dev_bytes > WBSIM_FS_MAX_BYTES) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNSUPPORTED,
			    "filesystem %s on a device of %" G_GUINT64_FORMAT
			    " bytes: expected a device of at most %" G_GUINT64_FORMAT
			    " bytes (128 TiB)", ops->name, dev_bytes,
			    (uint64_t)WBSIM_FS_MAX_BYTES);
		return NULL;
	}
	fs = g_new0(wbsim_fs, 1);
	fs->ops = ops;
	fs->sim = sim;
	fs->cpus = cpus;
	fs->dev_bytes = dev_bytes;
	fs->block_size = 4096;
	fs->max_folio_size = 4096;
	fs->params = g_malloc0(ops->params_size ? ops->params_size : 1);
	fs->inodes = g_ptr_array_new();
	fs->locks = g_ptr_array_new();
	if (!parse_params(ops, fs->params, params, nr_params, error)) {
		wbsim_fs_free(fs);
		return NULL;
	}
	fs->nr_blocks = dev_bytes / fs->block_size;
	if (!ops->init(fs, error)) {
		fs->ops = NULL;	/* nothing to tear down in the model */
		wbsim_fs_free(fs);
		return NULL;
	}
	fs->nr_blocks = dev_bytes / fs->block_size;
	fs->root = new_inode(fs, NULL, TRUE);
	return fs;
}

/* Before each call state, in its pool's object: the pool it goes back to
 * (a whole alignment unit, so the state is aligned as malloc's would be). */
struct fs_call_head {
	struct wbsim_fs_call_pool *pool;
	_Alignas(WBSIM_FREELIST_ALIGN) char call[];
};

/* The pool of call states of @size bytes and @release (made on first use). */
static struct wbsim_fs_call_pool *call_pool_of(wbsim_fs *fs, size_t size,
					       void (*release)(void *call))
{
	struct wbsim_fs_call_pool *pool;

	if (!fs->call_pools)
		fs->call_pools = g_ptr_array_new();
	for (guint i = 0; i < fs->call_pools->len; i++) {
		pool = fs->call_pools->pdata[i];
		if (pool->size == size && pool->release == release)
			return pool;
	}
	pool = g_new(struct wbsim_fs_call_pool, 1);
	pool->size = size;
	pool->release = release;
	wbsim_freelist_init(&pool->states, offsetof(struct fs_call_head, call) + size);
	g_ptr_array_add(fs->call_pools, pool);
	return pool;
}

void *wbsim_fs_call_new(wbsim_fs *fs, size_t size, void (*release)(void *call))
{
	struct wbsim_fs_call_pool *pool = call_pool_of(fs, size, release);
	struct fs_call_head *head = wbsim_freelist_alloc(&pool->states);

	head->pool = pool;
	return head->call;
}

void wbsim_fs_call_free(wbsim_fs *fs, void *call)
{
	struct fs_call_head *head = (void *)((char *)call - offsetof(struct fs_call_head, call));

	(void)fs;
	wbsim_freelist_free(&head->pool->states, head);
}

/* A call still in flight when the simulation stopped. */
static void call_release(void *obj, void *data)
{
	const struct wbsim_fs_call_pool *pool = data;

	if (pool->release)
		pool->release(((struct fs_call_head *)obj)->call);
}

void wbsim_fs_free(wbsim_fs *fs)
{
	if (!fs)
		return;
	for (guint i = 0; fs->call_pools && i < fs->call_pools->len; i++) {
		struct wbsim_fs_call_pool *pool = fs->call_pools->pdata[i];

		wbsim_freelist_clear(&pool->states, call_release, pool);
		g_free(pool);
	}
	if (fs->call_pools)
		g_ptr_array_free(fs->call_pools, TRUE);
	if (fs->wqs)
		g_ptr_array_free(fs->wqs, TRUE);
	if (fs->maps_spare)
		g_array_free(fs->maps_spare, TRUE);
	for (guint i = 0; i < fs->inodes->len; i++) {
		wbsim_fs_inode *inode = g_ptr_array_index(fs->inodes, i);

		if (fs->ops && fs->ops->inode_exit)
			fs->ops->inode_exit(fs, inode);
		g_free(inode);
	}
	if (fs->ops && fs->ops->exit)
		fs->ops->exit(fs);
	g_ptr_array_free(fs->inodes, TRUE);
	g_ptr_array_free(fs->locks, TRUE);
	g_free(fs->params);
	g_free(fs);
}

const char *wbsim_fs_type(const wbsim_fs *fs)
{
	return fs->ops->name;
}

uint64_t wbsim_fs_block_size(const wbsim_fs *fs)
{
	return fs->block_size;
}

uint64_t wbsim_fs_max_folio_size(const wbsim_fs *fs)
{
	return fs->max_folio_size;
}

gboolean wbsim_fs_nowait_buffered_write(const wbsim_fs *fs)
{
	return fs->ops->nowait_buffered_write;
}

uint64_t wbsim_fs_nr_blocks(const wbsim_fs *fs)
{
	return fs->nr_blocks;
}

uint64_t wbsim_fs_free_blocks(const wbsim_fs *fs)
{
	return fs->free_fn ? fs->free_fn((wbsim_fs *)fs) : 0;
}

gboolean wbsim_fs_param_value(const wbsim_fs *fs, const char *key, uint64_t *value)
{
	const struct wbsim_param *o = wbsim_param_find(fs->ops->options, key);

	if (!o)
		return FALSE;
	*value = wbsim_param_get_uint(o, fs->params);
	return TRUE;
}

size_t wbsim_fs_nr_locks(const wbsim_fs *fs)
{
	return fs->locks->len;
}

wbsim_lock *wbsim_fs_get_lock(const wbsim_fs *fs, size_t i)
{
	return i < fs->locks->len ? g_ptr_array_index(fs->locks, i) : NULL;
}

wbsim_fs_inode *wbsim_fs_root(wbsim_fs *fs)
{
	return fs->root;
}

wbsim_fs_inode *wbsim_fs_mkdir(wbsim_fs *fs, wbsim_fs_inode *parent)
{
	return new_inode(fs, parent ? parent : fs->root, TRUE);
}

wbsim_fs_inode *wbsim_fs_create(wbsim_fs *fs, wbsim_fs_inode *dir)
{
	return new_inode(fs, dir ? dir : fs->root, FALSE);
}

uint64_t wbsim_fs_inode_number(const wbsim_fs_inode *inode)
{
	return inode->ino;
}

uint64_t wbsim_fs_inode_size(const wbsim_fs_inode *inode)
{
	return inode->size;
}

uint64_t wbsim_fs_inode_group(const wbsim_fs_inode *inode)
{
	return inode->group;
}

wbsim_time_t wbsim_fs_update_time(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	return fs && fs->ops->update_time ? fs->ops->update_time(fs, inode) : 0;
}

wbsim_time_t wbsim_fs_write(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t offset,
			    uint64_t len)
{
	uint64_t first, last, new_size;

	if (!len)
		return 0;
	first = offset / fs->block_size;
	last = (offset + len - 1) / fs->block_size;
	new_size = MAX(inode->size, offset + len);
	if (!fs->ops->write) {
		inode->size = new_size;
		return 0;
	}
	/* the model sees the old i_size in inode->size and the new one as argument */
	{
		wbsim_time_t cost = fs->ops->write(fs, inode, first, last - first + 1, new_size);

		inode->size = new_size;
		return cost;
	}
}

gboolean wbsim_fs_write_space(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t offset,
			      uint64_t len)
{
	if (!fs || !fs->ops->write_space || !len)
		return TRUE;
	return fs->ops->write_space(fs, inode, offset / fs->block_size,
				    (offset + len - 1) / fs->block_size - offset / fs->block_size + 1);
}

void wbsim_fs_free_space(wbsim_fs *fs)
{
	if (fs && fs->ops->free_space)
		fs->ops->free_space(fs);
}

gboolean wbsim_fs_free_space_writeback(wbsim_fs *fs)
{
	return fs && fs->ops->free_space_writeback && fs->ops->free_space_writeback(fs);
}

wbsim_time_t wbsim_fs_fallocate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t offset,
				uint64_t len, GError **error)
{
	uint64_t first, last;
	wbsim_time_t cost = 0;

	wbsim_check_arg(fs && inode && !inode->is_dir, G_MAXUINT64, error);
	wbsim_check_arg(offset + len >= offset, G_MAXUINT64, error);
	if (!len)
		return 0;
	first = offset / fs->block_size;
	last = (offset + len - 1) / fs->block_size;
	if (fs->ops->fallocate) {
		cost = fs->ops->fallocate(fs, inode, first, last - first + 1, error);
		if (cost == G_MAXUINT64)
			return cost;
	}
	inode->size = MAX(inode->size, offset + len);
	return cost;
}

void wbsim_fs_truncate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t size)
{
	if (fs->ops->truncate)
		fs->ops->truncate(fs, inode, size);
	inode->size = size;
}

void wbsim_fs_close(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	if (fs->ops->close)
		fs->ops->close(fs, inode);
}

void wbsim_fs_map_blocks(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			 uint64_t first, uint64_t nr, wbsim_fs_map_done_fn done, void *arg)
{
	fs->ops->map_blocks(fs, inode, task, first, nr, done, arg);
}

wbsim_time_t wbsim_fs_end_io(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
			     uint64_t nr)
{
	return fs->ops->end_io ? fs->ops->end_io(fs, inode, first, nr) : 0;
}

struct wbsim_workqueue *wbsim_fs_alloc_workqueue(wbsim_fs *fs, const char *name,
						 unsigned int max_active)
{
	struct wbsim_workqueue *wq;

	if (!fs->wqs)
		fs->wqs = g_ptr_array_new_with_free_func((GDestroyNotify)wbsim_workqueue_free);
	/* worker ids 0 and 1 are the bdi's; each workqueue its own after */
	wq = wbsim_workqueue_new(fs->sim, fs->cpus, name, max_active, 2 + fs->wqs->len);
	g_ptr_array_add(fs->wqs, wq);
	return wq;
}

void wbsim_fs_end_bio_default(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
			      uint64_t nr, unsigned int flags, wbsim_event_fn done, void *arg)
{
	wbsim_time_t cost;

	if (!(flags & (WBSIM_FS_IO_UNWRITTEN | WBSIM_FS_IO_DIRECT))) {
		done(fs->sim, arg);
		return;
	}
	cost = wbsim_fs_end_io(fs, inode, first, nr);
	if (!fs->dio_wq)
		fs->dio_wq = wbsim_fs_alloc_workqueue(fs, "dio", wbsim_cpus_count(fs->cpus));
	wbsim_queue_work(fs->dio_wq, cost, done, arg);
}

gboolean wbsim_fs_end_bio_common(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
				 uint64_t nr, unsigned int flags, wbsim_event_fn done, void *arg)
{
	if (flags & WBSIM_FS_IO_DIRECT) {
		wbsim_fs_end_bio_default(fs, inode, first, nr, flags, done, arg);
		return TRUE;
	}
	if (!(flags & WBSIM_FS_IO_UNWRITTEN)) {
		done(fs->sim, arg);
		return TRUE;
	}
	return FALSE;
}

void wbsim_fs_end_bio(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first, uint64_t nr,
		      unsigned int flags, wbsim_event_fn done, void *arg)
{
	if (fs->ops->end_bio)
		fs->ops->end_bio(fs, inode, first, nr, flags, done, arg);
	else
		wbsim_fs_end_bio_default(fs, inode, first, nr, flags, done, arg);
}

wbsim_time_t wbsim_fs_completion_cpu_ns(const wbsim_fs *fs)
{
	wbsim_time_t t = 0;

	for (guint i = 0; fs->wqs && i < fs->wqs->len; i++)
		t += wbsim_workqueue_cpu_ns(g_ptr_array_index(fs->wqs, i));
	return t;
}

gboolean wbsim_fs_write_lock(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			     wbsim_event_fn done, void *arg)
{
	if (!fs->ops->write_lock)
		return FALSE;
	fs->ops->write_lock(fs, inode, task, done, arg);
	return TRUE;
}

void wbsim_fs_prefetch_write(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t offset)
{
	if (fs->prefetch_write)
		fs->prefetch_write(fs, inode, offset / fs->block_size);
}

gboolean wbsim_fs_write_lock_busy(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	return fs->ops->write_lock_busy && fs->ops->write_lock_busy(fs, inode);
}

void wbsim_fs_write_unlock(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task)
{
	if (fs->ops->write_unlock)
		fs->ops->write_unlock(fs, inode, task);
}

gboolean wbsim_fs_has_write_lock(const wbsim_fs *fs)
{
	return fs->ops->write_lock != NULL;
}

void wbsim_fs_writepages_begin(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task)
{
	if (fs->ops->writepages_begin)
		fs->ops->writepages_begin(fs, inode, task);
}

void wbsim_fs_set_rwsem_costs(wbsim_fs *fs, wbsim_time_t sleep_ns, wbsim_time_t wake_ns)
{
	g_return_if_fail(fs != NULL);
	fs->rwsem_sleep_ns = sleep_ns;
	fs->rwsem_wake_ns = wake_ns;
}

wbsim_lock *wbsim_fs_writepages_lock(wbsim_fs *fs, wbsim_fs_inode *inode,
				     gboolean sync_all, uint64_t nr_dirty)
{
	return fs->ops->writepages_lock ?
	       fs->ops->writepages_lock(fs, inode, sync_all, nr_dirty) : NULL;
}

void wbsim_fs_sync(wbsim_fs *fs)
{
	if (fs->ops->sync_fs)
		fs->ops->sync_fs(fs);
}

gboolean wbsim_fs_remount(wbsim_fs *fs, GError **error)
{
	wbsim_check_arg(fs != NULL, FALSE, error);
	if (fs->ops->sync_fs)
		fs->ops->sync_fs(fs);
	return fs->ops->remount ? fs->ops->remount(fs, error) : TRUE;
}

/* ------------------------------------------------------------------------ */
/* Extent counts                                                            */

size_t wbsim_fs_fiemap(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out)
{
	guint before = out->len;

	fs->ops->fiemap(fs, inode, out);
	if (out->len > before)
		g_array_index(out, struct wbsim_fs_extent, out->len - 1).flags |=
			WBSIM_FIEMAP_EXTENT_LAST;
	return out->len - before;
}

/* filefrag_fiemap() of e2fsprogs, as described at the top of this file. */
static uint64_t filefrag_count_records(const struct wbsim_fs_extent *ext, size_t n)
{
	struct wbsim_fs_extent last = { 0 };
	uint64_t total = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t expected_dense = last.physical + last.length;
		uint64_t expected = last.physical + ext[i].logical - last.logical;

		if (ext[i].logical != 0 && ext[i].physical != expected &&
		    ext[i].physical != expected_dense)
			total++;
		else if (!total)
			total = 1;
		last = ext[i];
	}
	return total;
}

uint64_t wbsim_fs_filefrag_count(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	g_autoptr(GArray) ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));

	wbsim_fs_fiemap(fs, inode, ext);
	return filefrag_count_records((const struct wbsim_fs_extent *)(void *)ext->data,
				      ext->len);
}

/*
 * e2fsprogs' print_extent_info() prints a record as the logical range
 * fe_logical >> blk_shift .. that + ((fe_length - 1) >> blk_shift), so a
 * record of fe_length bytes spans ceil(fe_length / block size) blocks.
 */
uint64_t wbsim_fs_filefrag_verbose(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *lengths)
{
	g_autoptr(GArray) ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));
	const struct wbsim_fs_extent *e;

	wbsim_fs_fiemap(fs, inode, ext);
	e = (const struct wbsim_fs_extent *)(void *)ext->data;
	for (guint i = 0; i < ext->len; i++) {
		uint64_t blocks = e[i].length ? (e[i].length - 1) / fs->block_size + 1 : 0;

		g_array_append_val(lengths, blocks);
	}
	return filefrag_count_records(e, ext->len);
}

char *wbsim_fs_filefrag_line(wbsim_fs *fs, wbsim_fs_inode *inode, const char *path)
{
	return wbsim_fs_filefrag_format(path, wbsim_fs_filefrag_count(fs, inode));
}

char *wbsim_fs_filefrag_format(const char *path, uint64_t n)
{
	if (n == 1)
		return g_strdup_printf("%s: 1 extent found", path);
	return g_strdup_printf("%s: %" G_GUINT64_FORMAT " extents found", path, n);
}

uint64_t wbsim_fs_nr_extents(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	if (fs->ops->nr_extents)
		return fs->ops->nr_extents(fs, inode);
	{
		g_autoptr(GArray) ext = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_extent));
		uint64_t n = 0;

		fs->ops->fiemap(fs, inode, ext);
		for (guint i = 0; i < ext->len; i++)
			if (!(g_array_index(ext, struct wbsim_fs_extent, i).flags &
			      WBSIM_FIEMAP_EXTENT_DELALLOC))
				n++;
		return n;
	}
}

/* ------------------------------------------------------------------------ */
/* For implementers                                                         */

void *wbsim_fs_params(wbsim_fs *fs)
{
	return fs->params;
}

void wbsim_fs_set_private(wbsim_fs *fs, void *priv)
{
	fs->priv = priv;
}

void *wbsim_fs_get_private(wbsim_fs *fs)
{
	return fs->priv;
}

wbsim_sim *wbsim_fs_sim(wbsim_fs *fs)
{
	return fs->sim;
}

wbsim_cpus *wbsim_fs_cpus(wbsim_fs *fs)
{
	return fs->cpus;
}

void wbsim_fs_set_block_size(wbsim_fs *fs, uint64_t block_size)
{
	g_return_if_fail(block_size && !(block_size & (block_size - 1)));
	fs->block_size = block_size;
}

void wbsim_fs_set_max_folio_size(wbsim_fs *fs, uint64_t bytes)
{
	g_return_if_fail(bytes >= 4096 && bytes <= (UINT64_C(2) << 20) && !(bytes & (bytes - 1)));
	fs->max_folio_size = bytes;
}

void wbsim_fs_add_lock(wbsim_fs *fs, wbsim_lock *lock)
{
	g_ptr_array_add(fs->locks, lock);
}

void wbsim_fs_set_free_fn(wbsim_fs *fs, uint64_t (*free_fn)(wbsim_fs *fs))
{
	fs->free_fn = free_fn;
}

void wbsim_fs_inode_set_private(wbsim_fs_inode *inode, void *priv)
{
	inode->priv = priv;
}

void *wbsim_fs_inode_get_private(const wbsim_fs_inode *inode)
{
	return inode->priv;
}

wbsim_fs_inode *wbsim_fs_inode_parent(const wbsim_fs_inode *inode)
{
	return inode->parent;
}

gboolean wbsim_fs_inode_is_dir(const wbsim_fs_inode *inode)
{
	return inode->is_dir;
}

void wbsim_fs_inode_set_group(wbsim_fs_inode *inode, uint64_t group)
{
	inode->group = group;
}

/* ------------------------------------------------------------------------ */
/* Helpers shared by the built-in models                                    */

void wbsim_fs_emap_fiemap(wbsim_fs *fs, struct wbsim_emap *map, GArray *out)
{
	struct wbsim_emap_cursor cur;

	for (struct wbsim_extent *e = wbsim_emap_first(map, &cur); e;
	     e = wbsim_emap_next(map, &cur)) {
		struct wbsim_fs_extent r = {
			.logical = e->lblk * fs->block_size,
			.physical = e->pblk * fs->block_size,
			.length = e->len * fs->block_size,
		};

		if (e->state == WBSIM_EXT_DELALLOC) {
			r.physical = 0;
			r.flags = WBSIM_FIEMAP_EXTENT_DELALLOC | WBSIM_FIEMAP_EXTENT_UNKNOWN;
		} else if (e->state == WBSIM_EXT_UNWRITTEN) {
			r.flags = WBSIM_FIEMAP_EXTENT_UNWRITTEN;
		}
		g_array_append_val(out, r);
	}
}

void wbsim_fs_maps_add(GArray *maps, uint64_t file_block, uint64_t dev_block,
		       uint64_t nr, unsigned int flags)
{
	if (maps->len) {
		struct wbsim_fs_map *l = &g_array_index(maps, struct wbsim_fs_map, maps->len - 1);

		if (l->file_block + l->nr_blocks == file_block &&
		    l->dev_block + l->nr_blocks == dev_block && l->flags == flags) {
			l->nr_blocks += nr;
			return;
		}
	}
	{
		struct wbsim_fs_map m = {
			.file_block = file_block, .dev_block = dev_block,
			.nr_blocks = nr, .flags = flags,
		};

		g_array_append_val(maps, m);
	}
}

gboolean wbsim_fs_maps_from_emap(GArray *maps, struct wbsim_emap *map, uint64_t first,
				 uint64_t nr)
{
	struct wbsim_emap_cursor cur;
	uint64_t pos = first, end = first + nr;
	struct wbsim_extent *e = wbsim_emap_seek(map, first, &cur);

	while (pos < end) {
		uint64_t n;

		if (!e || e->lblk > pos || e->state == WBSIM_EXT_DELALLOC)
			return FALSE;
		n = MIN(wbsim_ext_end(e), end) - pos;
		wbsim_fs_maps_add(maps, pos, e->pblk + (pos - e->lblk), n,
				  e->state == WBSIM_EXT_UNWRITTEN ? WBSIM_FS_MAP_UNWRITTEN : 0);
		pos += n;
		e = wbsim_emap_next(map, &cur);
	}
	return TRUE;
}

void wbsim_fs_maps_mark_new(GArray *maps, uint64_t lblk, uint64_t len)
{
	for (guint i = 0; i < maps->len; i++) {
		struct wbsim_fs_map *m = &g_array_index(maps, struct wbsim_fs_map, i);

		if (m->file_block < lblk + len && lblk < m->file_block + m->nr_blocks)
			m->flags |= WBSIM_FS_MAP_NEW;
	}
}

static void map_call_release(void *call)
{
	struct wbsim_fs_map_call *mc = call;

	if (mc->new_ranges)
		g_array_free(mc->new_ranges, TRUE);
}

void wbsim_fs_map_call_new_range(struct wbsim_fs_map_call *mc, uint64_t lblk, uint64_t len)
{
	if (!mc->new_ranges)
		mc->new_ranges = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	g_array_append_val(mc->new_ranges, lblk);
	g_array_append_val(mc->new_ranges, len);
}

void *wbsim_fs_map_call_new(wbsim_fs *fs, size_t size, wbsim_fs_inode *inode,
			    wbsim_task *task, uint64_t first, uint64_t nr,
			    wbsim_fs_map_done_fn done, void *arg)
{
	struct wbsim_fs_map_call *mc = wbsim_fs_call_new(fs, size, map_call_release);

	mc->fs = fs;
	mc->inode = inode;
	mc->task = task;
	mc->first = first;
	mc->nr = nr;
	mc->pos = first;
	mc->done = done;
	mc->arg = arg;
	return mc;
}

void wbsim_fs_map_call_finish(struct wbsim_fs_map_call *mc, const char *model,
			      struct wbsim_emap *map, GError *error)
{
	wbsim_fs *fs = mc->fs;
	/* the array of the last call, unless a call that done() started
	 * holds it: two allocations fewer per call */
	GArray *maps = fs->maps_spare ? fs->maps_spare
				      : g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_map));
	const GArray *new_ranges = mc->new_ranges;

	fs->maps_spare = NULL;
	if (!error && !wbsim_fs_maps_from_emap(maps, map, mc->first, mc->nr))
		g_set_error(&error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
			    "%s: range of inode %" G_GUINT64_FORMAT " left unmapped",
			    model, mc->inode->ino);
	for (guint i = 0; !error && new_ranges && i + 1 < new_ranges->len; i += 2)
		wbsim_fs_maps_mark_new(maps, g_array_index(new_ranges, uint64_t, i),
				       g_array_index(new_ranges, uint64_t, i + 1));
	if (error)
		mc->done(mc->fs, mc->arg, NULL, 0, error);
	else
		mc->done(mc->fs, mc->arg, (const struct wbsim_fs_map *)(void *)maps->data,
			 maps->len, NULL);
	g_clear_error(&error);
	if (fs->maps_spare) {
		g_array_free(maps, TRUE);
	} else {
		g_array_set_size(maps, 0);
		fs->maps_spare = maps;
	}
	if (mc->new_ranges)
		g_array_free(mc->new_ranges, TRUE);
	wbsim_fs_call_free(fs, mc);
}
