/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/f2fs.c - F2FS allocation model: a log-structured filesystem.
 *
 * What it models:
 * - The main area as segments of segment_blocks blocks (2 MiB); each data
 *   log (active_logs / 2 of them: hot, warm, cold data) owns a current
 *   segment and appends blocks to it; a full segment is replaced by the
 *   next free segment to its right (get_new_segment, ALLOC_RIGHT), wrapping
 *   around. Directory data goes to the hot log, file data to the warm log.
 * - Delayed allocation: a write into a hole reserves the block (NEW_ADDR
 *   in the dnode); fallocate does the same (f2fs_expand_inode_data).
 * - Out-of-place update: at writeback every dirty block, new or
 *   overwritten, gets the next address of its log (f2fs_allocate_data_block
 *   under the log's curseg_mutex, alloc_ns + alloc_block_ns per block
 *   while it is held); the old address is invalidated. In-place update
 *   (ipu=1) keeps allocated blocks where they are.
 * - A segment whose blocks are all invalid becomes prefree and is only
 *   reused after a checkpoint; checkpoints happen at sync_fs, at remount,
 *   when a log finds no free segment, and when cp_interval has passed at
 *   the next allocation (no timer event is kept pending).
 * - Writeback of a regular file is serialised on sbi->writepages
 *   (__should_serialize_io: unless the writeback is WB_SYNC_ALL with fewer
 *   than min_seq_blocks dirty pages); wbsim_fs_writepages_lock() returns it.
 * - Fragmentation: every overwrite relocates, so a file's extents are the
 *   runs of consecutive addresses its blocks happen to have; random
 *   overwrites of a sequential file break it into runs of the blocks that
 *   were written back together. FIEMAP (f2fs_fiemap -> f2fs_map_blocks)
 *   merges physically contiguous blocks into one record without a length
 *   limit (FIEMAP_EXTENT_MERGED) and reports NEW_ADDR runs as
 *   FIEMAP_EXTENT_DELALLOC at physical 0 (kernels before the 2022 fix
 *   reported them UNWRITTEN); it is computed from the node blocks, so it is
 *   the same before and after a remount.
 *
 * Left out: node blocks and their logs, NAT/SIT/SSA writes, the checkpoint's
 * own I/O, garbage collection and SSR (threaded logging) when free
 * segments run low (allocation fails instead), over-provisioning, hot/cold
 * separation by file extension, compression, zoned devices.
 *
 * Sources: kernel fs/f2fs/segment.c (f2fs_allocate_data_block,
 * get_new_segment), fs/f2fs/data.c (f2fs_map_blocks: NEW_ADDR sets
 * F2FS_MAP_DELALLOC and contiguous addresses extend the mapping;
 * f2fs_fiemap; __should_serialize_io and the sbi->writepages mutex), patch
 * "f2fs: fix to tag FIEMAP_EXTENT_DELALLOC in fiemap() for delay allocated
 * extent" (Chao Yu, 2022), the lexplain note on commit be38b571 (pinned
 * files skip sbi->writepages), Chao Yu's f2fs-devel mail on fallocate
 * setting NEW_ADDR.
 */
#include <stddef.h>
#include "fs/alloc/fs-private.h"

struct f2fs_params {
	uint64_t block_size;
	uint64_t segment_blocks;
	uint64_t active_logs;
	uint64_t meta_size;
	uint64_t cp_interval;
	uint64_t min_seq_blocks;
	gboolean ipu;
	uint64_t alloc_ns;
	uint64_t alloc_block_ns;
	uint64_t map_ns;
	uint64_t write_ns;
};

#define FO(f) offsetof(struct f2fs_params, f)
static const struct wbsim_param f2fs_options[] = {
	{ "block_size", WBSIM_PARAM_SIZE, FO(block_size), "4k", "bytes", 4096, 16384,
	  "block size (F2FS_BLKSIZE)" },
	{ "segment_blocks", WBSIM_PARAM_UINT, FO(segment_blocks), "512", "blocks", 16, 1u << 20,
	  "blocks per segment (2 MiB)" },
	{ "active_logs", WBSIM_PARAM_UINT, FO(active_logs), "6", "logs", 2, 6,
	  "active logs, half of them for data (mount -o active_logs=2|4|6)" },
	{ "meta_size", WBSIM_PARAM_SIZE, FO(meta_size), "auto", "bytes", 0, 0,
	  "SB/CP/SIT/NAT/SSA area; auto: 0.6% of the device, at least 8 segments" },
	{ "cp_interval", WBSIM_PARAM_TIME, FO(cp_interval), "60s", "ns", 0, 0,
	  "background checkpoint interval (cp_interval sysfs)" },
	{ "min_seq_blocks", WBSIM_PARAM_UINT, FO(min_seq_blocks), "512", "blocks", 0, 0,
	  "WB_SYNC_ALL writeback of at least this many pages is serialised too" },
	{ "ipu", WBSIM_PARAM_BOOL, FO(ipu), "0", "bool", 0, 1,
	  "in-place update of allocated blocks (ipu_policy forcing IPU)" },
	{ "alloc_ns", WBSIM_PARAM_TIME, FO(alloc_ns), NULL, "ns", 0, 0,
	  "CPU per mapping call with the log's curseg_mutex held",
	  .flags = WBSIM_PARAM_COST },
	{ "alloc_block_ns", WBSIM_PARAM_TIME, FO(alloc_block_ns), NULL, "ns", 0, 0,
	  "CPU per block allocated with the log's curseg_mutex held (SIT, summary)",
	  .flags = WBSIM_PARAM_COST },
	{ "map_ns", WBSIM_PARAM_TIME, FO(map_ns), NULL, "ns", 0, 0,
	  "CPU per writeback mapping call (dnode lookup)",
	  .flags = WBSIM_PARAM_COST },
	{ "write_ns", WBSIM_PARAM_TIME, FO(write_ns), NULL, "ns", 0, 0,
	  "CPU per buffered write call (f2fs_write_begin, block reservation)",
	  .flags = WBSIM_PARAM_COST },
	{ .name = NULL },
};

enum f2fs_seg_state {
	SEG_FREE,
	SEG_LOG,	/* a log's current segment */
	SEG_INUSE,
	SEG_PREFREE,	/* all blocks invalid, free after the next checkpoint */
};

struct f2fs_log {
	uint64_t segno;
	uint64_t off;
	wbsim_lock lock;
};

struct f2fs_fs {
	uint64_t main_start;	/* first block of the main area */
	uint64_t nsegs;
	uint64_t seg_blocks;
	uint32_t *valid;	/* valid blocks per segment */
	uint8_t *state;
	uint64_t total_valid;
	uint64_t nlogs;
	struct f2fs_log logs[3];
	wbsim_lock writepages;	/* sbi->writepages */
	wbsim_time_t last_cp;
	uint64_t checkpoints;
};

struct f2fs_inode {
	struct wbsim_emap map;	/* DELALLOC = NEW_ADDR, WRITTEN = valid address */
};

static uint64_t f2fs_free(wbsim_fs *fs)
{
	struct f2fs_fs *f = fs->priv;

	return f->nsegs * f->seg_blocks - f->total_valid;
}

static gboolean f2fs_init(wbsim_fs *fs, GError **error)
{
	struct f2fs_params *p = fs->params;
	struct f2fs_fs *f;
	uint64_t nr_blocks, meta;

	if (p->block_size & (p->block_size - 1)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "f2fs option block_size: %" G_GUINT64_FORMAT " is not a power of two",
			    p->block_size);
		return FALSE;
	}
	wbsim_fs_set_block_size(fs, p->block_size);
	nr_blocks = fs->dev_bytes / p->block_size;
	meta = p->meta_size == WBSIM_FS_AUTO ?
	       MAX(nr_blocks * 6 / 1000, 8 * p->segment_blocks) : p->meta_size / p->block_size;
	meta = (meta + p->segment_blocks - 1) / p->segment_blocks * p->segment_blocks;
	if (meta + 4 * p->segment_blocks > nr_blocks) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "f2fs: a device of %" G_GUINT64_FORMAT " blocks has no room for a "
			    "main area after %" G_GUINT64_FORMAT " metadata blocks (expected at "
			    "least 4 segments more)", nr_blocks, meta);
		return FALSE;
	}
	f = g_new0(struct f2fs_fs, 1);
	f->main_start = meta;
	f->seg_blocks = p->segment_blocks;
	f->nsegs = (nr_blocks - meta) / p->segment_blocks;
	f->valid = g_new0(uint32_t, f->nsegs);
	f->state = g_new0(uint8_t, f->nsegs);
	f->nlogs = p->active_logs / 2;
	/*
	 * mkfs.f2fs without -a heap: hot/warm/cold node logs in segments 0, 1,
	 * 2, then hot data, cold data, warm data (fewer logs: fewer of each).
	 * Node logs are not modelled beyond the segments they hold.
	 */
	for (uint64_t i = 0; i < f->nlogs; i++)
		f->state[i] = SEG_LOG;
	for (uint64_t i = 0; i < f->nlogs; i++) {
		static const char *const names[] = { "f2fs-hot-data", "f2fs-warm-data",
						     "f2fs-cold-data" };
		/* hot first, warm last, cold (if any) between them */
		uint64_t seg = f->nlogs + (i == 0 ? 0 : i == 1 ? f->nlogs - 1 : 1);

		f->logs[i].segno = seg;
		f->logs[i].off = 0;
		f->state[seg] = SEG_LOG;
		wbsim_lock_init(&f->logs[i].lock, fs->sim, names[i]);
		wbsim_fs_add_lock(fs, &f->logs[i].lock);
	}
	wbsim_lock_init(&f->writepages, fs->sim, "f2fs-writepages");
	wbsim_fs_add_lock(fs, &f->writepages);
	fs->priv = f;
	wbsim_fs_set_free_fn(fs, f2fs_free);
	return TRUE;
}

static void f2fs_exit(wbsim_fs *fs)
{
	struct f2fs_fs *f = fs->priv;

	if (!f)
		return;
	for (uint64_t i = 0; i < f->nlogs; i++)
		wbsim_lock_clear(&f->logs[i].lock);
	wbsim_lock_clear(&f->writepages);
	g_free(f->valid);
	g_free(f->state);
	g_free(f);
}

static uint64_t f2fs_inode_init(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct f2fs_inode *fi = g_new0(struct f2fs_inode, 1);

	wbsim_emap_init(&fi->map, G_MAXUINT64 / 4, 1, G_MAXUINT64 / 4);
	inode->priv = fi;
	inode->group = 0;
	return fs->inodes->len + 3;	/* F2FS_ROOT_INO is 3; nids are handed out in order */
}

static void f2fs_inode_exit(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct f2fs_inode *fi = inode->priv;

	wbsim_emap_clear(&fi->map);
	g_free(fi);
}

/* Models f2fs_do_checkpoint() as far as space goes (prefree -> free); no CP I/O. */
static void f2fs_checkpoint(wbsim_fs *fs)
{
	struct f2fs_fs *f = fs->priv;

	for (uint64_t s = 0; s < f->nsegs; s++)
		if (f->state[s] == SEG_PREFREE)
			f->state[s] = SEG_FREE;
	f->last_cp = wbsim_sim_now(fs->sim);
	f->checkpoints++;
}

static void f2fs_invalidate(struct f2fs_fs *f, uint64_t pblk, uint64_t n)
{
	while (n--) {
		uint64_t s = (pblk++ - f->main_start) / f->seg_blocks;

		f->valid[s]--;
		f->total_valid--;
		if (!f->valid[s] && f->state[s] == SEG_INUSE)
			f->state[s] = SEG_PREFREE;
	}
}

/* Models get_new_segment() with ALLOC_RIGHT; leaves out sections, zones and SSR. */
static gboolean get_new_segment(wbsim_fs *fs, struct f2fs_log *log)
{
	struct f2fs_fs *f = fs->priv;

	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t i = 1; i <= f->nsegs; i++) {
			uint64_t s = (log->segno + i) % f->nsegs;

			if (f->state[s] == SEG_FREE) {
				f->state[log->segno] = f->valid[log->segno] ? SEG_INUSE : SEG_PREFREE;
				log->segno = s;
				log->off = 0;
				f->state[s] = SEG_LOG;
				return TRUE;
			}
		}
		f2fs_checkpoint(fs);	/* frees prefree segments, then retry */
	}
	return FALSE;
}

static struct f2fs_log *f2fs_log_of(struct f2fs_fs *f, wbsim_fs_inode *inode)
{
	if (f->nlogs == 1)
		return &f->logs[0];
	return inode->is_dir ? &f->logs[0] : &f->logs[1];	/* hot / warm data */
}

static wbsim_time_t f2fs_reserve(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
				 uint64_t nr)
{
	struct f2fs_inode *fi = inode->priv;
	uint64_t pos = first, end = first + nr;

	while (pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *e = wbsim_emap_seek(&fi->map, pos, &cur);
		uint64_t stop;

		if (e && e->lblk <= pos) {
			pos = MIN(wbsim_ext_end(e), end);
			continue;
		}
		stop = e ? MIN(e->lblk, end) : end;
		wbsim_emap_fill_hole(&fi->map, pos, stop - pos, WBSIM_EXT_DELALLOC, 0);
		pos = stop;
	}
	return 0;
}

static wbsim_time_t f2fs_write(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
			       uint64_t nr, uint64_t new_size)
{
	struct f2fs_params *p = fs->params;

	f2fs_reserve(fs, inode, first, nr);
	return p->write_ns;
}

static wbsim_time_t f2fs_fallocate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
				   uint64_t nr, GError **error)
{
	struct f2fs_inode *fi = inode->priv;
	uint64_t reserved = fi->map.blocks[WBSIM_EXT_DELALLOC];

	f2fs_reserve(fs, inode, first, nr);
	if (f2fs_free(fs) < fi->map.blocks[WBSIM_EXT_DELALLOC] - reserved) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
			    "f2fs: fallocate: no space left for inode %" G_GUINT64_FORMAT,
			    inode->ino);
		return G_MAXUINT64;
	}
	return 0;
}

struct f2fs_call {
	wbsim_fs *fs;
	wbsim_fs_inode *inode;
	wbsim_task *task;
	uint64_t first, nr;
	wbsim_fs_map_done_fn done;
	void *arg;
	struct f2fs_log *log;
	GArray *maps;
	GError *error;
};

static void f2fs_call_finish(wbsim_sim *sim, void *arg)
{
	struct f2fs_call *c = arg;

	if (c->error)
		c->done(c->fs, c->arg, NULL, 0, c->error);
	else
		c->done(c->fs, c->arg, (const struct wbsim_fs_map *)(void *)c->maps->data,
			c->maps->len, NULL);
	g_clear_error(&c->error);
	g_array_free(c->maps, TRUE);
	wbsim_fs_call_free(c->fs, c);
}

static void f2fs_call_release(void *call)
{
	struct f2fs_call *c = call;

	g_clear_error(&c->error);
	if (c->maps)
		g_array_free(c->maps, TRUE);
}

static void f2fs_alloc_done(wbsim_sim *sim, void *arg)
{
	struct f2fs_call *c = arg;

	wbsim_lock_release(&c->log->lock, c->task);
	f2fs_call_finish(sim, c);
}

/*
 * Models do_write_page() -> f2fs_allocate_data_block() for every block of
 * the range with the log's curseg_mutex held; leaves out node/summary I/O.
 */
static void f2fs_alloc_granted(wbsim_sim *sim, void *arg)
{
	struct f2fs_call *c = arg;
	wbsim_fs *fs = c->fs;
	struct f2fs_params *p = fs->params;
	struct f2fs_fs *f = fs->priv;
	struct f2fs_inode *fi = c->inode->priv;
	struct f2fs_log *log = c->log;
	uint64_t pos = c->first, end = c->first + c->nr, allocated = 0;

	if (p->cp_interval && wbsim_sim_now(sim) - f->last_cp >= p->cp_interval)
		f2fs_checkpoint(fs);
	while (pos < end && !c->error) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *e = wbsim_emap_seek(&fi->map, pos, &cur);
		uint64_t stop = end, n, pblk;

		if (e && e->lblk <= pos) {
			stop = MIN(wbsim_ext_end(e), end);
			if (e->state == WBSIM_EXT_WRITTEN && p->ipu) {
				wbsim_fs_maps_add(c->maps, pos, e->pblk + (pos - e->lblk),
						  stop - pos, 0);
				pos = stop;
				continue;
			}
			if (e->state == WBSIM_EXT_WRITTEN)
				f2fs_invalidate(f, e->pblk + (pos - e->lblk), stop - pos);
		} else if (e) {
			stop = MIN(e->lblk, end);
		}
		/* append [pos, stop) to the log, segment by segment */
		while (pos < stop) {
			if (log->off == f->seg_blocks && !get_new_segment(fs, log)) {
				g_set_error(&c->error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
					    "f2fs: no free segment for inode %" G_GUINT64_FORMAT
					    " (garbage collection is not modelled)", c->inode->ino);
				break;
			}
			n = MIN(stop - pos, f->seg_blocks - log->off);
			pblk = f->main_start + log->segno * f->seg_blocks + log->off;
			log->off += n;
			f->valid[log->segno] += n;
			f->total_valid += n;
			wbsim_emap_set(&fi->map, pos, n, WBSIM_EXT_WRITTEN, pblk);
			wbsim_fs_maps_add(c->maps, pos, pblk, n, WBSIM_FS_MAP_NEW);
			allocated += n;
			pos += n;
		}
	}
	wbsim_cpus_run(fs->cpus, c->task, p->alloc_ns + allocated * p->alloc_block_ns,
		       f2fs_alloc_done, c);
}

static void f2fs_looked_up(wbsim_sim *sim, void *arg)
{
	struct f2fs_call *c = arg;

	wbsim_lock_acquire(&c->log->lock, c->task, f2fs_alloc_granted, c);
}

static void f2fs_map_blocks(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			    uint64_t first, uint64_t nr, wbsim_fs_map_done_fn done, void *arg)
{
	struct f2fs_params *p = fs->params;
	struct f2fs_call *c = wbsim_fs_call_new(fs, sizeof(*c), f2fs_call_release);

	c->fs = fs;
	c->inode = inode;
	c->task = task;
	c->first = first;
	c->nr = nr;
	c->done = done;
	c->arg = arg;
	c->log = f2fs_log_of(fs->priv, inode);
	c->maps = g_array_new(FALSE, FALSE, sizeof(struct wbsim_fs_map));
	wbsim_cpus_run(fs->cpus, task, p->map_ns, f2fs_looked_up, c);
}

static wbsim_lock *f2fs_writepages_lock(wbsim_fs *fs, wbsim_fs_inode *inode,
					gboolean sync_all, uint64_t nr_dirty)
{
	struct f2fs_params *p = fs->params;
	struct f2fs_fs *f = fs->priv;

	if (inode->is_dir)
		return NULL;
	if (!sync_all || nr_dirty >= p->min_seq_blocks)
		return &f->writepages;
	return NULL;
}

static void f2fs_truncate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t new_size)
{
	struct f2fs_fs *f = fs->priv;
	struct f2fs_inode *fi = inode->priv;
	uint64_t keep = wbsim_fs_bytes_to_blocks(fs, new_size);
	struct wbsim_emap_cursor cur;

	for (struct wbsim_extent *e = wbsim_emap_seek(&fi->map, keep, &cur); e;
	     e = wbsim_emap_next(&fi->map, &cur)) {
		uint64_t s = MAX(e->lblk, keep);

		if (e->state == WBSIM_EXT_WRITTEN)
			f2fs_invalidate(f, e->pblk + (s - e->lblk), wbsim_ext_end(e) - s);
	}
	wbsim_emap_punch(&fi->map, keep, G_MAXUINT64 / 4 - keep);
}

static void f2fs_fiemap(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out)
{
	struct f2fs_inode *fi = inode->priv;
	guint before = out->len;

	guint w = before;

	wbsim_fs_emap_fiemap(fs, &fi->map, out);
	/* f2fs_map_blocks() extends a mapping over every contiguous address */
	for (guint i = before; i < out->len; i++) {
		struct wbsim_fs_extent r = g_array_index(out, struct wbsim_fs_extent, i);
		struct wbsim_fs_extent *last = w > before ?
			&g_array_index(out, struct wbsim_fs_extent, w - 1) : NULL;

		if (r.flags & WBSIM_FIEMAP_EXTENT_DELALLOC)
			r.flags = WBSIM_FIEMAP_EXTENT_DELALLOC;	/* no UNKNOWN bit in f2fs */
		else
			r.flags |= WBSIM_FIEMAP_EXTENT_MERGED;
		if (last && last->flags == r.flags && last->logical + last->length == r.logical &&
		    (r.flags & WBSIM_FIEMAP_EXTENT_DELALLOC ||
		     last->physical + last->length == r.physical)) {
			last->length += r.length;
			continue;
		}
		g_array_index(out, struct wbsim_fs_extent, w++) = r;
	}
	g_array_set_size(out, w);
}

static void f2fs_sync_fs(wbsim_fs *fs)
{
	f2fs_checkpoint(fs);
}

static gboolean f2fs_remount(wbsim_fs *fs, GError **error)
{
	for (guint i = 0; i < fs->inodes->len; i++) {
		wbsim_fs_inode *inode = g_ptr_array_index(fs->inodes, i);
		struct f2fs_inode *fi = inode->priv;
		struct wbsim_emap_cursor cur;
		uint64_t eof = wbsim_fs_bytes_to_blocks(fs, inode->size);

		for (struct wbsim_extent *e = wbsim_emap_first(&fi->map, &cur);
		     e && e->lblk < eof; e = wbsim_emap_next(&fi->map, &cur)) {
			if (e->state == WBSIM_EXT_DELALLOC) {
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
					    "f2fs: remount with unwritten dirty blocks in inode %"
					    G_GUINT64_FORMAT " (write it back first)", inode->ino);
				return FALSE;
			}
		}
	}
	f2fs_checkpoint(fs);
	return TRUE;
}

const struct wbsim_fs_ops wbsim_fs_f2fs_ops = {
	.name = "f2fs",
	.version = WBSIM_FS_OPS_VERSION,
	.params_size = sizeof(struct f2fs_params),
	.options = f2fs_options,
	.init = f2fs_init,
	.exit = f2fs_exit,
	.inode_init = f2fs_inode_init,
	.inode_exit = f2fs_inode_exit,
	.write = f2fs_write,
	.fallocate = f2fs_fallocate,
	.truncate = f2fs_truncate,
	.map_blocks = f2fs_map_blocks,
	.writepages_lock = f2fs_writepages_lock,
	.fiemap = f2fs_fiemap,
	.remount = f2fs_remount,
	.sync_fs = f2fs_sync_fs,
	/* f2fs_file_operations: FOP_BUFFER_RASYNC only */
	.nowait_buffered_write = FALSE,
};
