/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/ext4.c - ext4 allocation model (extents, flex_bg, delalloc,
 * dioread_nolock: the default mount options of kernels >= 5.6).
 *
 * What it models:
 * - Layout as mke2fs lays it out: groups of blocks_per_group blocks; the
 *   superblock and group descriptor table (plus reserved GDT blocks) in
 *   group 0 and, with sparse_super, in groups 1 and powers of 3, 5 and 7;
 *   with flex_bg the block and inode bitmaps and inode tables of
 *   flex_bg groups packed into the first group of each flex group; the
 *   journal from the first free block of the middle flex group.
 * - Inodes (ialloc.c): top-level directories spread over flex groups
 *   (find_group_orlov: the flex group with the fewest directories, from a
 *   random start drawn from the simulation's generator); deeper
 *   directories stay in the parent's group; files go to the parent's flex
 *   group. Inode number = group * inodes_per_group + index + 1.
 * - Delayed allocation: a write into a hole adds a delayed extent to the
 *   extent status (ES) cache only.
 * - Writeback (ext4_writepages -> mpage_map_and_submit_extent ->
 *   ext4_map_blocks -> ext4_ext_map_blocks -> ext4_mb_new_blocks): runs of
 *   at most writepages_max blocks (MAX_WRITEPAGES_EXTENT_LEN, 2048) are
 *   allocated as unwritten extents (dioread_nolock) that end_io converts.
 *   mballoc: the goal is ext4_ext_find_goal (the neighbouring extent's
 *   physical block shifted by the logical distance, or the inode's goal
 *   block: the start of the group after the flex group's first one for
 *   regular files, ext4_inode_to_goal_block). A request first uses an
 *   inode preallocation (PA) covering it; files larger than mb_stream_req
 *   blocks get a normalised request (ext4_mb_normalize_request: the
 *   file-size table; 8 MiB windows aligned on 8 MiB for files over 8 MiB
 *   with 4 KiB blocks) trimmed to the hole around the request, which
 *   becomes an inode PA; the goal is tried exactly only when the window
 *   merges with the left or right neighbour (EXT4_MB_HINT_TRY_GOAL), else
 *   the scan starts at the global stream goal s_mb_last_group (one per
 *   mb_stream_goals slot, slot = inode % slots; 1 = the classic global
 *   goal). Small files use the locality-group PA of mb_group_prealloc
 *   blocks (one locality group per filesystem here, per CPU in the
 *   kernel). The scan (ext4_mb_regular_allocator) goes group by group
 *   from the start group: cr0 an aligned power-of-two chunk (buddy), cr1
 *   any free run long enough, cr3 the longest run; the group lock is held
 *   for alloc_ns and the extent-tree insert and journal work
 *   (alloc_unlocked_ns) runs after it is dropped. PA hits take no group
 *   lock (pa_ns).
 * - Extent tree: on-disk extents merge when logically and physically
 *   contiguous in the same state up to 32768 blocks (initialized) or 32767
 *   (unwritten) (ext4_ext_try_to_merge, EXT_INIT_MAX_LEN), and only within
 *   one leaf block (ext4_ext_try_to_merge_right stops at the leaf's last
 *   extent): four extents in the inode, then leaves of (block_size - 12) /
 *   12 extents, split as ext4_ext_insert_extent and ext4_ext_split split
 *   them (ext4_ext_set()). Writeback's unwritten extents (dioread_nolock,
 *   EXT4_GET_BLOCKS_PRE_IO) merge with nothing until end_io converts them,
 *   so a file written back in many small pieces fills leaves that its
 *   later merges never join: E6's 2 GiB file keeps 186 records after its
 *   remount, the kernel's 176-183 (lab/studies/ext4-tree). Each leaf and
 *   index block is a block of the filesystem (ext4_ext_new_meta_block()):
 *   allocated past a group's data, it breaks the file's physical runs.
 * - Extent status cache (extents_status.c): written/unwritten/delayed
 *   extents merged without the 32768 limit (ext4_es_try_to_merge), filled
 *   when blocks are allocated or looked up; emptied by remount.
 * - FIEMAP (ext4_iomap_begin_report -> ext4_map_blocks without create): an
 *   ES hit reports the cached extent; a miss reports the on-disk extent
 *   and caches it (so a second FIEMAP after a remount may merge records
 *   the first one showed separately); delayed ranges are reported as
 *   DELALLOC|UNKNOWN at physical 0 (ext4_iomap_is_delalloc / EXT4_MAP_DELAYED).
 * - Close (ext4_release_file): inode PAs are discarded when no delayed
 *   blocks remain; remount discards every PA.
 * - Free space against delayed allocation (ext4_nonda_switch, before every
 *   buffered write): the free-cluster and dirty-cluster counters
 *   (s_freeclusters_counter, s_dirtyclusters_counter); when fewer than
 *   twice the dirty clusters are free, every dirty inode is pushed out with
 *   reason fs_free_space and the writer waits (the free_space_writeback
 *   hook). The switch to allocating at write time below 150% is left out.
 *
 * Left out: mb_optimize_scan's order lists (the scan is linear from the
 * goal group, as with mb_optimize_scan=0), stripe, bigalloc, the ES
 * shrinker, index blocks beyond the first (past 4 x 340 leaves), the
 * tree blocks' CPU and -ENOSPC, NOPREALLOC for closed files, per-CPU
 * locality groups, the journal's own I/O. fallocate is synchronous.
 *
 * Sources: kernel fs/ext4/mballoc.c (ext4_mb_regular_allocator: "if stream
 * allocation is enabled, use global goal" s_mb_last_group;
 * ext4_mb_normalize_request; ext4_mb_group_or_file), fs/ext4/inode.c
 * (ext4_iomap_begin_report, ext4_iomap_is_delalloc,
 * MAX_WRITEPAGES_EXTENT_LEN), fs/ext4/extents_status.c (header comment:
 * the tree tracks delayed extents for fiemap), commit f7fec032 "ext4:
 * track all extent status in extent status tree" (extents are inserted on
 * lookup, so the tree is not complete); e2fsprogs misc/mke2fs.c
 * (reserved GDT, journal size table and midpoint placement).
 */
#include <stddef.h>
#include <string.h>
#include "core/workqueue.h"
#include "fs/alloc/fs-private.h"
#include "fs/alloc/freespace.h"
#include "fs/alloc/ioend.h"

#define EXT_INIT_MAX_LEN 32768ull
#define EXT_UNWRITTEN_MAX_LEN 32767ull
#define EXT_ES_MAX_LEN 0xffffffffull
/* ext4_extent_header and ext4_extent (or ext4_extent_idx): 12 bytes each */
#define EXT4_EXT_HEADER_SIZE 12ull
#define EXT4_EXT_ENTRY_SIZE 12ull
/* ext4_ext_space_root(): extents in the inode's 60-byte i_block */
#define EXT4_ROOT_MAX 4ull

struct ext4_params {
	uint64_t block_size;
	uint64_t blocks_per_group;
	uint64_t flex_bg;
	uint64_t inodes_per_group;
	uint64_t inode_size;
	uint64_t desc_size;
	uint64_t reserved_gdt;
	gboolean sparse_super;
	uint64_t journal_size;
	uint64_t mb_stream_req;
	uint64_t mb_group_prealloc;
	uint64_t mb_order2_req;
	uint64_t mb_stream_goals;
	uint64_t writepages_max;
	uint64_t alloc_ns;
	uint64_t alloc_unlocked_ns;
	uint64_t pa_ns;
	uint64_t map_ns;
	uint64_t split_ns;
	uint64_t writepages_block_ns;
	uint64_t write_ns;
	uint64_t write_miss_ns;
	uint64_t end_io_ns;
	uint64_t update_time_ns;
	uint64_t end_io_page_ns;
};

#define EO(f) offsetof(struct ext4_params, f)
static const struct wbsim_param ext4_options[] = {
	{ "block_size", WBSIM_PARAM_SIZE, EO(block_size), "4k", "bytes", 1024, 65536,
	  "block size (mke2fs -b)" },
	{ "blocks_per_group", WBSIM_PARAM_UINT, EO(blocks_per_group), "32768", "blocks", 256,
	  65528, "blocks per group (8 x block size)" },
	{ "flex_bg", WBSIM_PARAM_UINT, EO(flex_bg), "16", "groups", 1, 1u << 20,
	  "groups per flex group (mke2fs -G; 1 disables flex_bg)" },
	{ "inodes_per_group", WBSIM_PARAM_UINT, EO(inodes_per_group), "8192", "inodes", 16,
	  1u << 20, "inodes per group (bytes-per-inode ratio 16384)" },
	{ "inode_size", WBSIM_PARAM_SIZE, EO(inode_size), "256", "bytes", 128, 4096,
	  "inode size" },
	{ "desc_size", WBSIM_PARAM_SIZE, EO(desc_size), "64", "bytes", 32, 64,
	  "group descriptor size (64 with the 64bit feature)" },
	{ "reserved_gdt", WBSIM_PARAM_UINT, EO(reserved_gdt), "auto", "blocks", 0, 1024,
	  "reserved GDT blocks for resize; auto: as mke2fs computes" },
	{ "sparse_super", WBSIM_PARAM_BOOL, EO(sparse_super), "1", "bool", 0, 1,
	  "superblock backups only in groups 0, 1 and powers of 3, 5, 7" },
	{ "journal_size", WBSIM_PARAM_SIZE, EO(journal_size), "auto", "bytes", 0, 0,
	  "journal size; auto: mke2fs's table (1 GiB above 128 GiB)" },
	{ "mb_stream_req", WBSIM_PARAM_UINT, EO(mb_stream_req), "16", "blocks", 0, 0,
	  "files larger than this use inode preallocation (mb_stream_req)" },
	{ "mb_group_prealloc", WBSIM_PARAM_UINT, EO(mb_group_prealloc), "512", "blocks", 1,
	  0, "locality-group preallocation for small files" },
	{ "mb_order2_req", WBSIM_PARAM_UINT, EO(mb_order2_req), "2", "order", 0, 20,
	  "power-of-two requests of at least this order use the buddy (cr0)" },
	{ "mb_stream_goals", WBSIM_PARAM_UINT, EO(mb_stream_goals), "1", "slots", 1, 4096,
	  "stream-allocation goals (1: the global s_mb_last_group)" },
	{ "writepages_max", WBSIM_PARAM_UINT, EO(writepages_max), "2048", "blocks", 1,
	  EXT_UNWRITTEN_MAX_LEN, "blocks mapped per allocation request (MAX_WRITEPAGES_EXTENT_LEN)" },
	{ "alloc_ns", WBSIM_PARAM_TIME, EO(alloc_ns), NULL, "ns", 0, 0,
	  "CPU with the group lock held per mballoc allocation (buddy search, bitmap)",
	  .flags = WBSIM_PARAM_COST },
	{ "alloc_unlocked_ns", WBSIM_PARAM_TIME, EO(alloc_unlocked_ns), NULL, "ns", 0, 0,
	  "CPU after the group lock per allocation (extent insert, jbd2 handle)",
	  .flags = WBSIM_PARAM_COST },
	{ "pa_ns", WBSIM_PARAM_TIME, EO(pa_ns), NULL, "ns", 0, 0,
	  "CPU per request served from a preallocation (extent insert, no group lock)",
	  .flags = WBSIM_PARAM_COST },
	{ "map_ns", WBSIM_PARAM_TIME, EO(map_ns), NULL, "ns", 0, 0,
	  "CPU per extent writeback maps (one journal handle, an io_end, ext4_map_blocks' lookup, the folio lookups of a new mpage_prepare_extent_to_map call)",
	  .flags = WBSIM_PARAM_COST },
	{ "split_ns", WBSIM_PARAM_TIME, EO(split_ns), NULL, "ns", 0, 0,
	  "CPU per unwritten extent writeback maps, on top of map_ns: ext4_split_convert_extents cuts it out of the preallocated extent (EXT4_GET_BLOCKS_PRE_IO)",
	  .flags = WBSIM_PARAM_COST },
	{ "writepages_block_ns", WBSIM_PARAM_TIME, EO(writepages_block_ns), NULL, "ns", 0, 0,
	  "CPU per block writeback sends, on top of writepages_folio_ns: ext4's walk of the folio's buffer heads, one a block (mpage_process_page_bufs, ext4_bio_write_folio), beyond iomap's",
	  .flags = WBSIM_PARAM_COST },
	{ "write_ns", WBSIM_PARAM_TIME, EO(write_ns), NULL, "ns", 0, 0,
	  "CPU per buffered write call whose blocks the extent status cache maps (ext4_da_map_blocks' lookup)",
	  .flags = WBSIM_PARAM_COST },
	{ "write_miss_ns", WBSIM_PARAM_TIME, EO(write_miss_ns), NULL, "ns", 0, 0,
	  "CPU per block the extent status cache does not map (ext4_da_map_blocks: i_data_sem, extent-tree query, reservation, delayed insert), instead of write_ns",
	  .flags = WBSIM_PARAM_COST },
	{ "end_io_ns", WBSIM_PARAM_TIME, EO(end_io_ns), NULL, "ns", 0, 0,
	  "CPU per io_end converted on ext4-rsv-conversion (reserved handle, extent split)",
	  .flags = WBSIM_PARAM_COST },
	{ "end_io_page_ns", WBSIM_PARAM_TIME, EO(end_io_page_ns), NULL, "ns", 0, 0,
	  "CPU per page of an io_end converted (ext4_finish_bio's buffer heads, extent work)",
	  .flags = WBSIM_PARAM_COST },
	{ "update_time_ns", WBSIM_PARAM_TIME, EO(update_time_ns), NULL, "ns", 0, 0,
	  "CPU of a write's timestamp update, once a file and tick (generic_update_time -> ext4_dirty_inode: a journal handle logging the inode)",
	  .flags = WBSIM_PARAM_COST },
	{ .name = NULL },
};

struct ext4_group {
	struct wbsim_freespace free;
	wbsim_lock lock;
	uint64_t inodes_used;
};

struct ext4_lg_pa {
	gboolean valid;
	uint64_t pstart, len, used;
};

struct ext4_fs {
	struct ext4_group *groups;
	uint64_t ngroups;
	uint64_t bpg;
	uint64_t nflex;
	uint64_t *flex_dirs;
	uint64_t *stream_last;
	struct ext4_lg_pa lg;
	struct wbsim_workqueue *rsv_wq;	/* ext4-rsv-conversion, made on first use */
	struct wbsim_ioend_cache ioends;	/* the io_ends of every inode's list */
	/* s_freeclusters_counter: the free blocks of every group */
	uint64_t free_clusters;
	/* s_dirtyclusters_counter: delayed blocks reserved at write and not
	 * yet allocated by writeback (or dropped by truncate) */
	uint64_t dirty_clusters;
};

struct ext4_pa {
	uint64_t lstart, pstart, len;
};

/*
 * A leaf block of the on-disk extent tree: the first logical block its
 * index entry holds (ei_block, kept equal to its first extent's) and how
 * many extents it holds (eh_entries).
 */
struct ext4_leaf {
	uint64_t key;
	uint64_t nr;
	uint64_t pblk;		/* its block (0: none could be allocated) */
};

struct ext4_inode {
	struct wbsim_emap disk;	/* on-disk extent tree: its extents */
	/* its leaves in logical order (struct ext4_leaf): empty at depth 0,
	 * while the extents fit in the inode's i_block */
	GArray *leaves;
	/* the index block that holds the leaves' entries once the inode's
	 * four no longer do (depth 2); 0 while there is none */
	uint64_t index_pblk;
	struct wbsim_emap es;	/* extent status cache */
	GArray *pas;		/* struct ext4_pa, inode preallocations */
	uint64_t goal;		/* ext4_inode_to_goal_block() */
	wbsim_fs *fs;
	wbsim_fs_inode *inode;
	/* i_rsv_conversion_list and i_rsv_conversion_work */
	struct wbsim_ioend_queue *rsv;	/* made on first use */
};

static uint64_t ext4_groups_free(const struct ext4_fs *e)
{
	uint64_t sum = 0;

	for (uint64_t g = 0; g < e->ngroups; g++)
		sum += e->groups[g].free.free;
	return sum;
}

static uint64_t ext4_free(wbsim_fs *fs)
{
	return ((struct ext4_fs *)fs->priv)->free_clusters;
}

/* Take [start, start+len) of group @g: FALSE (nothing taken) if any of it
 * is in use. */
static gboolean ext4_take(struct ext4_fs *e, uint64_t g, uint64_t start, uint64_t len)
{
	if (!wbsim_freespace_take(&e->groups[g].free, start, len))
		return FALSE;
	e->free_clusters -= len;
	return TRUE;
}

/* The delayed blocks of @ei changed from @delayed_before: the filesystem's
 * dirty-cluster count follows. */
static void ext4_delayed_changed(struct ext4_inode *ei, uint64_t delayed_before)
{
	struct ext4_fs *e = ei->fs->priv;

	e->dirty_clusters += ei->es.blocks[WBSIM_EXT_DELALLOC] - delayed_before;
}

static gboolean ext4_leaf_starts(const void *data, uint64_t lblk);

static gboolean ext4_has_backup(uint64_t g, gboolean sparse)
{
	if (!sparse || g <= 1)
		return TRUE;
	for (uint64_t b = 3; b <= 7; b += 2) {
		uint64_t p = b;

		while (p < g)
			p *= b;
		if (p == g)
			return TRUE;
	}
	return FALSE;
}

/* e2fsprogs ext2fs_default_journal_size(), in blocks. */
static uint64_t ext4_default_journal(uint64_t blocks)
{
	if (blocks < 2048)
		return 0;
	if (blocks < 32768)
		return 1024;
	if (blocks < 256 * 1024)
		return 4096;
	if (blocks < 512 * 1024)
		return 8192;
	if (blocks < 4096 * 1024)
		return 16384;
	if (blocks < 8192 * 1024)
		return 32768;
	if (blocks < 16384 * 1024)
		return 65536;
	if (blocks < 32768 * 1024)
		return 131072;
	return 262144;
}

static gboolean ext4_init(wbsim_fs *fs, GError **error)
{
	struct ext4_params *p = fs->params;
	struct ext4_fs *e;
	uint64_t nr_blocks, gdt, rsv, itable, journal;

	if (p->block_size & (p->block_size - 1)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "ext4 option block_size: %" G_GUINT64_FORMAT " is not a power of two",
			    p->block_size);
		return FALSE;
	}
	if (p->blocks_per_group > 8 * p->block_size) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "ext4 option blocks_per_group: %" G_GUINT64_FORMAT
			    " exceeds one bitmap block (expected at most %" G_GUINT64_FORMAT ")",
			    p->blocks_per_group, 8 * p->block_size);
		return FALSE;
	}
	wbsim_fs_set_block_size(fs, p->block_size);
	/* ext4_set_inode_mapping_order() (6.16 on): regular files of a
	 * filesystem without data=journal, verity or encryption get folios
	 * up to EXT4_MAX_PAGECACHE_ORDER, min(MAX_PAGECACHE_ORDER,
	 * 11 + i_blkbits - PAGE_SHIFT): 2 MiB with 4 KiB blocks on x86-64 */
	wbsim_fs_set_max_folio_size(fs, MIN(UINT64_C(2) << 20, p->block_size << 11));
	nr_blocks = fs->dev_bytes / p->block_size;
	e = g_new0(struct ext4_fs, 1);
	e->bpg = p->blocks_per_group;
	e->ngroups = (nr_blocks + e->bpg - 1) / e->bpg;
	gdt = (e->ngroups * p->desc_size + p->block_size - 1) / p->block_size;
	if (p->reserved_gdt == WBSIM_FS_AUTO) {
		/* mke2fs calc_reserved_gdt_blocks(): room to grow 1024x, at most 2^32 blocks */
		uint64_t max_blocks = MIN(nr_blocks * 1024, 1ull << 32);
		uint64_t rsv_groups = (max_blocks + e->bpg - 1) / e->bpg;
		uint64_t gdpb = p->block_size / p->desc_size;
		uint64_t want = (rsv_groups + gdpb - 1) / gdpb;

		rsv = want > gdt ? MIN(want - gdt, p->block_size / 4) : 0;
	} else {
		rsv = p->reserved_gdt;
	}
	itable = p->inodes_per_group * p->inode_size / p->block_size;
	if (1 + gdt + rsv + p->flex_bg * (2 + itable) >= e->bpg * MIN(p->flex_bg, e->ngroups) ||
	    nr_blocks < 2 * e->bpg) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "ext4: a device of %" G_GUINT64_FORMAT " blocks is too small for "
			    "groups of %" G_GUINT64_FORMAT " blocks with this metadata "
			    "(expected at least two groups)", nr_blocks, e->bpg);
		g_free(e);
		return FALSE;
	}
	e->groups = g_new0(struct ext4_group, e->ngroups);
	e->nflex = (e->ngroups + p->flex_bg - 1) / p->flex_bg;
	e->flex_dirs = g_new0(uint64_t, e->nflex);
	e->stream_last = g_new0(uint64_t, p->mb_stream_goals);
	wbsim_ioend_cache_init(&e->ioends);
	for (uint64_t g = 0; g < e->ngroups; g++) {
		struct ext4_group *grp = &e->groups[g];
		uint64_t base = g * e->bpg, size = MIN(e->bpg, nr_blocks - base);
		uint64_t meta = 0;
		g_autofree char *name = g_strdup_printf("ext4-bg-%" G_GUINT64_FORMAT, g);

		wbsim_freespace_init(&grp->free, base, size);
		if (ext4_has_backup(g, p->sparse_super))
			meta += 1 + gdt + rsv;
		if (g % p->flex_bg == 0) {
			uint64_t members = MIN(p->flex_bg, e->ngroups - g);

			meta += members * (2 + itable);	/* bitmaps and inode tables */
		}
		wbsim_freespace_take(&grp->free, base, MIN(meta, size));
		wbsim_lock_init(&grp->lock, fs->sim, name);
		wbsim_fs_add_lock(fs, &grp->lock);
	}
	e->groups[0].inodes_used = 11;	/* reserved inodes and lost+found */
	/* the journal: from the first free block of the middle flex group */
	journal = p->journal_size == WBSIM_FS_AUTO ? ext4_default_journal(nr_blocks) :
		  p->journal_size / p->block_size;
	for (uint64_t g = ((e->ngroups - 1) / 2) / p->flex_bg * p->flex_bg;
	     journal && g < e->ngroups; g++) {
		uint64_t start, len = wbsim_freespace_first_any(&e->groups[g].free,
								 g * e->bpg, &start);

		len = MIN(len, journal);
		wbsim_freespace_take(&e->groups[g].free, start, len);
		journal -= len;
	}
	e->free_clusters = ext4_groups_free(e);
	fs->priv = e;
	wbsim_fs_set_free_fn(fs, ext4_free);
	return TRUE;
}

static void ext4_exit(wbsim_fs *fs)
{
	struct ext4_fs *e = fs->priv;

	if (!e)
		return;
	for (uint64_t g = 0; g < e->ngroups; g++) {
		wbsim_freespace_clear(&e->groups[g].free);
		wbsim_lock_clear(&e->groups[g].lock);
	}
	wbsim_ioend_cache_clear(&e->ioends);
	g_free(e->groups);
	g_free(e->flex_dirs);
	g_free(e->stream_last);
	g_free(e);
}

static uint64_t ext4_inode_init(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct ext4_params *p = fs->params;
	struct ext4_fs *e = fs->priv;
	struct ext4_inode *ei = g_new0(struct ext4_inode, 1);
	uint64_t g, goal_group;

	wbsim_emap_init(&ei->disk, 1, EXT_UNWRITTEN_MAX_LEN, EXT_INIT_MAX_LEN);
	ei->leaves = g_array_new(FALSE, FALSE, sizeof(struct ext4_leaf));
	wbsim_emap_set_barrier(&ei->disk, ext4_leaf_starts, ei);
	wbsim_emap_init(&ei->es, EXT_ES_MAX_LEN, EXT_ES_MAX_LEN, EXT_ES_MAX_LEN);
	ei->pas = g_array_new(FALSE, FALSE, sizeof(struct ext4_pa));
	ei->fs = fs;
	ei->inode = inode;
	inode->priv = ei;
	if (!inode->parent) {
		inode->group = 0;
		return 2;	/* EXT4_ROOT_INO */
	}
	if (inode->is_dir && !inode->parent->parent) {
		/* find_group_orlov(), top level: the least populated flex group */
		uint64_t start = wbsim_rng_below(wbsim_sim_rng(fs->sim), e->nflex);
		uint64_t best = start;

		for (uint64_t i = 0; i < e->nflex; i++) {
			uint64_t f = (start + i) % e->nflex;

			if (e->flex_dirs[f] < e->flex_dirs[best])
				best = f;
		}
		g = best * p->flex_bg;
	} else if (inode->is_dir) {
		g = inode->parent->group;
	} else {
		/* find_group_other(): the parent's flex group */
		g = inode->parent->group / p->flex_bg * p->flex_bg;
	}
	for (uint64_t i = 0; i < e->ngroups; i++) {
		uint64_t c = (g + i) % e->ngroups;

		if (e->groups[c].inodes_used < p->inodes_per_group) {
			g = c;
			break;
		}
	}
	if (inode->is_dir)
		e->flex_dirs[g / p->flex_bg]++;
	inode->group = g;
	/* ext4_inode_to_goal_block(): regular files after the flex group's first group */
	goal_group = p->flex_bg >= 4 ? g / p->flex_bg * p->flex_bg : g;
	if (!inode->is_dir && p->flex_bg >= 4 && goal_group + 1 < e->ngroups)
		goal_group++;
	ei->goal = goal_group * e->bpg;
	return g * p->inodes_per_group + ++e->groups[g].inodes_used;
}

static void ext4_inode_exit(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct ext4_inode *ei = inode->priv;
	uint64_t delayed = ei->es.blocks[WBSIM_EXT_DELALLOC];

	wbsim_emap_clear(&ei->disk);
	g_array_free(ei->leaves, TRUE);
	wbsim_emap_clear(&ei->es);
	ext4_delayed_changed(ei, delayed);
	g_array_free(ei->pas, TRUE);
	/* io_ends still waiting when the simulation stopped */
	wbsim_ioend_queue_free(&ei->rsv);
	g_free(ei);
}

/* Free [start, start+len), which may cross group boundaries (extents do). */
static void ext4_give(struct ext4_fs *e, uint64_t start, uint64_t len)
{
	while (len) {
		uint64_t g = MIN(start / e->bpg, e->ngroups - 1);
		uint64_t n = MIN(len, (g + 1) * e->bpg - start);

		wbsim_freespace_give(&e->groups[g].free, start, n);
		e->free_clusters += n;
		start += n;
		len -= n;
	}
}

/* Give back the PA blocks whose logical blocks the file did not use. */
static void ext4_discard_pa(struct ext4_fs *e, struct ext4_inode *ei, const struct ext4_pa *pa)
{
	uint64_t pos = pa->lstart, end = pa->lstart + pa->len;
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *x = wbsim_emap_seek(&ei->disk, pos, &cur);

	while (pos < end) {
		uint64_t stop = x && x->lblk < end ? MAX(x->lblk, pos) : end;

		if (stop > pos)
			ext4_give(e, pa->pstart + (pos - pa->lstart), stop - pos);
		if (!x || x->lblk >= end)
			break;
		pos = MIN(wbsim_ext_end(x), end);
		x = wbsim_emap_next(&ei->disk, &cur);
	}
}

/* ext4_discard_preallocations() */
static void ext4_discard_preallocations(struct ext4_fs *e, struct ext4_inode *ei)
{
	for (guint i = 0; i < ei->pas->len; i++)
		ext4_discard_pa(e, ei, &g_array_index(ei->pas, struct ext4_pa, i));
	g_array_set_size(ei->pas, 0);
}

static void ext4_discard_lg(struct ext4_fs *e)
{
	if (e->lg.valid && e->lg.used < e->lg.len)
		ext4_give(e, e->lg.pstart + e->lg.used, e->lg.len - e->lg.used);
	e->lg.valid = FALSE;
}

/* Cache an on-disk extent in the ES tree, as a lookup miss does. */
static void ext4_es_cache(struct ext4_inode *ei, const struct wbsim_extent *d)
{
	wbsim_emap_set(&ei->es, d->lblk, d->len, d->state, d->pblk);
}

/*
 * Models ext4_da_write_begin() -> ext4_da_get_block_prep() ->
 * ext4_da_map_blocks() per block: a block the extent status tree maps
 * (delayed, written or unwritten) costs the lookup only (write_ns per
 * call); a block it misses takes the slow path (write_miss_ns): under
 * i_data_sem, the on-disk extent tree is queried (and the found extent
 * cached), and a hole gets ext4_insert_delayed_blocks() (ext4_da_reserve_space,
 * then a delayed extent in the tree). Leaves out the dependence of the
 * lookups on the size of the tree, quota and bigalloc clusters.
 */
static wbsim_time_t ext4_write(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
			       uint64_t nr, uint64_t new_size)
{
	struct ext4_params *p = fs->params;
	struct ext4_inode *ei = inode->priv;
	uint64_t pos = first, end = first + nr, missed = 0;
	uint64_t delayed = ei->es.blocks[WBSIM_EXT_DELALLOC];

	while (pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *es = wbsim_emap_seek(&ei->es, pos, &cur);
		struct wbsim_extent *d;
		uint64_t stop;

		if (es && es->lblk <= pos) {
			pos = MIN(wbsim_ext_end(es), end);
			continue;
		}
		d = wbsim_emap_seek(&ei->disk, pos, &cur);
		if (d && d->lblk <= pos) {
			struct wbsim_extent copy = *d;

			ext4_es_cache(ei, &copy);
			missed += MIN(wbsim_ext_end(&copy), end) - pos;
			pos = MIN(wbsim_ext_end(&copy), end);
			continue;
		}
		stop = end;
		if (es)
			stop = MIN(stop, es->lblk);
		if (d)
			stop = MIN(stop, d->lblk);
		wbsim_emap_fill_hole(&ei->es, pos, stop - pos, WBSIM_EXT_DELALLOC, 0);
		missed += stop - pos;
		pos = stop;
	}
	ext4_delayed_changed(ei, delayed);
	if (!missed)
		return p->write_ns;
	return missed * p->write_miss_ns + (missed < nr ? p->write_ns : 0);
}

/* Models ext4_ext_find_goal() (on the whole tree, not one leaf). */
static uint64_t ext4_ext_find_goal(struct ext4_inode *ei, uint64_t lblk)
{
	struct wbsim_extent *prev = wbsim_emap_prev_of(&ei->disk, lblk);
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *next;

	if (prev)
		return prev->pblk + (lblk - prev->lblk);
	next = wbsim_emap_first(&ei->disk, &cur);
	if (next)
		return next->pblk > next->lblk - lblk ? next->pblk - (next->lblk - lblk) : next->pblk;
	return ei->goal;
}

/* An allocation plan: what ext4_mb_new_blocks would ask for. */
struct ext4_plan {
	gboolean group_pa;	/* locality-group preallocation (small file) */
	uint64_t wstart, want;	/* logical window and its length */
	gboolean try_goal;
	uint64_t goal;		/* physical goal block */
	uint64_t start_group;	/* where the group scan starts */
	uint64_t slot;		/* stream goal slot */
};

struct ext4_found {
	uint64_t group, start, len;
};

/* ext4_mb_normalize_request(): the size table, in bytes. */
static void ext4_normalize(uint64_t size, uint64_t lbyte, uint64_t *start_off, uint64_t *win)
{
	static const uint64_t steps[] = { 16 << 10, 32 << 10, 64 << 10, 128 << 10,
					  256 << 10, 512 << 10, 1 << 20 };

	*start_off = 0;
	for (size_t i = 0; i < G_N_ELEMENTS(steps); i++) {
		if (size <= steps[i]) {
			*win = steps[i];
			return;
		}
	}
	/* with 4 KiB blocks NRL_CHECK_SIZE's max (8 KiB) makes the 8 MiB case catch all */
	if (size <= 4u << 20) {
		*start_off = lbyte >> 21 << 21;
		*win = 2u << 20;
	} else if (size <= 8u << 20) {
		*start_off = lbyte >> 22 << 22;
		*win = 4u << 20;
	} else {
		*start_off = lbyte >> 23 << 23;
		*win = 8u << 20;
	}
}

/*
 * Models ext4_mb_group_or_file() + ext4_mb_normalize_request(); leaves out
 * NOPREALLOC for closed files and the per-CPU locality groups.
 */
static void ext4_mb_normalize_request(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t lblk, uint64_t len,
			   struct ext4_plan *plan)
{
	struct ext4_params *p = fs->params;
	struct ext4_fs *e = fs->priv;
	struct ext4_inode *ei = inode->priv;
	uint64_t bs = fs->block_size;
	uint64_t size = MAX(wbsim_fs_bytes_to_blocks(fs, inode->size), lblk + len);
	uint64_t start_off, win, wstart, wend, lo = 0, hi = G_MAXUINT64 / 4;
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *x;

	memset(plan, 0, sizeof(*plan));
	plan->slot = inode->ino % p->mb_stream_goals;
	if (size <= p->mb_stream_req) {
		/* ext4_mb_group_or_file(): locality-group allocation */
		plan->group_pa = TRUE;
		plan->want = p->mb_group_prealloc;
		plan->goal = ext4_ext_find_goal(ei, lblk);
		plan->start_group = MIN(plan->goal / e->bpg, e->ngroups - 1);
		return;
	}
	ext4_normalize(size * bs, lblk * bs, &start_off, &win);
	wstart = start_off / bs;
	wend = wstart + MIN(win / bs, e->bpg);
	if (lblk < wstart || lblk >= wend) {
		wstart = lblk;
		wend = lblk + len;
	}
	/* trim to the hole around the request: allocated extents and PAs */
	x = wbsim_emap_prev_of(&ei->disk, lblk);
	if (x)
		lo = wbsim_ext_end(x);
	x = wbsim_emap_seek(&ei->disk, lblk, &cur);
	if (x)
		hi = x->lblk;
	for (guint i = 0; i < ei->pas->len; i++) {
		const struct ext4_pa *pa = &g_array_index(ei->pas, struct ext4_pa, i);

		if (pa->lstart + pa->len <= lblk)
			lo = MAX(lo, pa->lstart + pa->len);
		else if (pa->lstart > lblk)
			hi = MIN(hi, pa->lstart);
	}
	wstart = MAX(wstart, lo);
	wend = MIN(wend, hi);
	plan->wstart = wstart;
	plan->want = wend - wstart;
	/* merge to the left / right: try the goal exactly */
	if (wstart > 0 && (x = wbsim_emap_lookup(&ei->disk, wstart - 1)) != NULL) {
		plan->try_goal = TRUE;
		plan->goal = x->pblk + (wstart - 1 - x->lblk) + 1;
	} else if ((x = wbsim_emap_lookup(&ei->disk, wend)) != NULL &&
		   x->pblk >= plan->want) {
		plan->try_goal = TRUE;
		plan->goal = x->pblk - plan->want;
	} else {
		plan->goal = ext4_ext_find_goal(ei, lblk);
	}
	plan->start_group = e->stream_last[plan->slot];
}

static gboolean is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static unsigned int fls64(uint64_t v)
{
	unsigned int n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/*
 * Models ext4_mb_find_by_goal() + ext4_mb_regular_allocator() (cr0 buddy,
 * cr1 first fit, cr3 longest), without taking anything; leaves out
 * mb_optimize_scan, cr1.5/cr2 and stripe alignment.
 */
static gboolean ext4_mb_regular_allocator(wbsim_fs *fs, const struct ext4_plan *plan,
			       struct ext4_found *f)
{
	struct ext4_params *p = fs->params;
	struct ext4_fs *e = fs->priv;
	uint64_t want = plan->want;
	uint64_t align = is_pow2(want) && fls64(want) >= p->mb_order2_req && want <= e->bpg ?
			 want : 1;

	if (plan->try_goal && plan->goal < e->ngroups * e->bpg) {
		uint64_t g = plan->goal / e->bpg;

		if (wbsim_freespace_free_run(&e->groups[g].free, plan->goal) >= want) {
			f->group = g;
			f->start = plan->goal;
			f->len = want;
			return TRUE;
		}
	}
	for (int cr = align > 1 ? 0 : 1; cr <= 3; cr++) {
		if (cr == 2)
			continue;
		for (uint64_t i = 0; i < e->ngroups; i++) {
			uint64_t g = (plan->start_group + i) % e->ngroups;
			struct wbsim_freespace *fsp = &e->groups[g].free;

			if (!fsp->free)
				continue;
			if (cr < 3) {
				if (wbsim_freespace_first_fit(fsp, fsp->base, want,
							      cr == 0 ? align : 1, &f->start)) {
					f->group = g;
					f->len = want;
					return TRUE;
				}
			} else {
				f->len = wbsim_freespace_near(fsp, fsp->base, want, &f->start);
				f->len = MIN(f->len, want);
				f->group = g;
				return f->len > 0;
			}
		}
	}
	return FALSE;
}

/* A PA covering @lblk, or NULL. */
static struct ext4_pa *ext4_find_pa(struct ext4_inode *ei, uint64_t lblk)
{
	for (guint i = 0; i < ei->pas->len; i++) {
		struct ext4_pa *pa = &g_array_index(ei->pas, struct ext4_pa, i);

		if (lblk >= pa->lstart && lblk < pa->lstart + pa->len)
			return pa;
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* The on-disk extent tree's leaves                                         */

static struct ext4_leaf *ext4_leaf(const struct ext4_inode *ei, guint i)
{
	return &g_array_index(ei->leaves, struct ext4_leaf, i);
}

/* ext4_ext_space_block(): extents in a leaf block */
static uint64_t ext4_leaf_max(const struct ext4_inode *ei)
{
	const struct ext4_params *p = ei->fs->params;

	return (p->block_size - EXT4_EXT_HEADER_SIZE) / EXT4_EXT_ENTRY_SIZE;
}

/*
 * The leaf ext4_find_extent() descends to for @lblk: the last whose key
 * is at most @lblk (the first leaf's key counts as 0). Only with leaves.
 */
static guint ext4_leaf_of(const struct ext4_inode *ei, uint64_t lblk)
{
	guint lo = 0, hi = ei->leaves->len;

	while (hi - lo > 1) {
		guint mid = lo + (hi - lo) / 2;

		if (ext4_leaf(ei, mid)->key <= lblk)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The start of leaf @i's range: its key (0 for the first leaf). */
static uint64_t ext4_leaf_start(const struct ext4_inode *ei, guint i)
{
	return i ? ext4_leaf(ei, i)->key : 0;
}

/* The end of leaf @i's range: the next leaf's key. */
static uint64_t ext4_leaf_end(const struct ext4_inode *ei, guint i)
{
	return i + 1 < ei->leaves->len ? ext4_leaf(ei, i + 1)->key : G_MAXUINT64;
}

/* Extents of the on-disk tree that start in [@start, @end). */
static uint64_t ext4_count_extents(struct ext4_inode *ei, uint64_t start, uint64_t end)
{
	struct wbsim_emap_cursor cur;
	uint64_t n = 0;

	for (struct wbsim_extent *x = wbsim_emap_seek(&ei->disk, start, &cur);
	     x && x->lblk < end; x = wbsim_emap_next(&ei->disk, &cur))
		n += x->lblk >= start;
	return n;
}

/* wbsim_emap_barrier_fn: a leaf's first extent never merges to its left. */
static gboolean ext4_leaf_starts(const void *data, uint64_t lblk)
{
	const struct ext4_inode *ei = data;
	guint i;

	if (ei->leaves->len < 2)
		return FALSE;
	i = ext4_leaf_of(ei, lblk);
	return i > 0 && ext4_leaf(ei, i)->key == lblk;
}

/*
 * ext4_ext_new_meta_block(): a block for the tree, allocated as mballoc
 * allocates one metadata block: no normalisation and no preallocation;
 * @goal if it is free, else the first free block of the goal's group or
 * of a group after it. A leaf split off (ext4_ext_split()) aims at the
 * inserted extent's left neighbour (ext4_ext_find_goal()): inside a file
 * being written back, that finds the first block past the group's data
 * (lab/studies/ext4-tree: the leaves of E6's 2 GiB file), where it pushes
 * the next aligned 8 MiB data window 2,048 blocks on. The block of a new
 * level (ext4_ext_grow_indepth()) aims at the inode's goal block, or just
 * before the block the root points to. Returns 0 when no block is free:
 * the tree goes on without one (the kernel's -ENOSPC there is left out).
 */
static uint64_t ext4_ext_new_meta_block(struct ext4_inode *ei, uint64_t goal)
{
	struct ext4_fs *e = ei->fs->priv;
	struct ext4_plan plan = { .want = 1, .try_goal = TRUE, .goal = goal };
	struct ext4_found f;

	plan.start_group = MIN(plan.goal / e->bpg, e->ngroups - 1);
	if (!ext4_mb_regular_allocator(ei->fs, &plan, &f) || !ext4_take(e, f.group, f.start, 1))
		return 0;
	return f.start;
}

static void ext4_ext_free_meta_block(struct ext4_inode *ei, uint64_t pblk)
{
	if (pblk)
		ext4_give(ei->fs->priv, pblk, 1);
}

/*
 * Leaf @i holds one extent more than a block has room for, the one
 * inserted at @lblk: where ext4_ext_insert_extent() would have put it.
 * An extent beyond the leaf's last goes to the next leaf if that has room
 * (ext4_ext_next_leaf_block(); the next leaf's key moves down to it).
 * Else a new leaf (ext4_ext_create_new_leaf() -> ext4_ext_split()) takes
 * the extents after the one the search found (the new extent's left
 * neighbour, or the leaf's first when the new one precedes it), or only
 * the new extent when that one was the leaf's last. Of the index levels
 * above the leaves, which decide no merge, only the first index block is
 * kept (ext4_ext_grow_indepth() when the root's four index entries are
 * used), for the block it takes.
 */
static void ext4_ext_leaf_overflow(struct ext4_inode *ei, guint i, uint64_t lblk)
{
	struct ext4_leaf *leaf = ext4_leaf(ei, i), fresh;
	uint64_t start = ext4_leaf_start(ei, i), end = ext4_leaf_end(ei, i), border;
	struct wbsim_emap_cursor cur, pcur;
	struct wbsim_extent *x = wbsim_emap_seek(&ei->disk, lblk, &cur), *next, *prev;

	if (!x)
		return;
	pcur = cur;
	prev = wbsim_emap_prev(&ei->disk, &pcur);
	next = wbsim_emap_next(&ei->disk, &cur);
	if (next && next->lblk < end && (!prev || prev->lblk < start)) {
		/* the new extent is the leaf's first: the search found the next one */
		next = wbsim_emap_next(&ei->disk, &cur);
	}
	if (!next || next->lblk >= end) {
		if (i + 1 < ei->leaves->len && ext4_leaf(ei, i + 1)->nr < ext4_leaf_max(ei)) {
			ext4_leaf(ei, i + 1)->key = x->lblk;
			ext4_leaf(ei, i + 1)->nr++;
			leaf->nr--;
			return;
		}
		border = x->lblk;
	} else {
		border = next->lblk;
	}
	fresh.key = border;
	fresh.nr = ext4_count_extents(ei, border, end);
	leaf->nr -= fresh.nr;
	/* the root's four index entries are used: ext4_ext_grow_indepth() */
	if (ei->leaves->len == EXT4_ROOT_MAX && !ei->index_pblk)
		ei->index_pblk = ext4_ext_new_meta_block(ei, ext4_leaf(ei, 0)->pblk ?
							 ext4_leaf(ei, 0)->pblk - 1 : ei->goal);
	fresh.pblk = ext4_ext_new_meta_block(ei, ext4_ext_find_goal(ei, lblk));
	g_array_insert_val(ei->leaves, i + 1, fresh);
}

/*
 * Map [@lblk, @lblk + @n) in the on-disk tree to @state at @pblk, in the
 * leaf the insert goes to. @pre_io: an unwritten extent for I/O about to
 * be submitted (EXT4_GET_BLOCKS_PRE_IO, as writeback maps with
 * dioread_nolock): it merges with no neighbour, and ext4_ext_try_to_merge()
 * is not called, until end_io converts it. The depth grows when a fifth
 * extent does not fit in i_block (ext4_ext_grow_indepth(): the root's
 * extents move to one leaf) and falls back when a merge leaves one leaf
 * that fits (ext4_ext_try_to_merge_up()).
 */
static void ext4_ext_set(struct ext4_inode *ei, uint64_t lblk, uint64_t n,
			 enum wbsim_ext_state state, uint64_t pblk, gboolean pre_io)
{
	uint64_t before = wbsim_emap_count(&ei->disk), after;
	guint i = ei->leaves->len ? ext4_leaf_of(ei, lblk) : 0;

	if (pre_io)
		wbsim_emap_set_unmerged(&ei->disk, lblk, n, state, pblk);
	else
		wbsim_emap_set(&ei->disk, lblk, n, state, pblk);
	after = wbsim_emap_count(&ei->disk);
	if (!ei->leaves->len) {
		if (after > EXT4_ROOT_MAX) {
			struct ext4_leaf root = { .key = 0, .nr = after };

			root.pblk = ext4_ext_new_meta_block(ei, ei->goal);
			g_array_append_val(ei->leaves, root);
		}
		return;
	}
	ext4_leaf(ei, i)->nr += after - before;		/* modulo 2^64: may shrink */
	if (ext4_leaf(ei, i)->nr > ext4_leaf_max(ei)) {
		ext4_ext_leaf_overflow(ei, i, lblk);
	} else if (!pre_io && ei->leaves->len == 1 && !ei->index_pblk &&
		   after <= EXT4_ROOT_MAX) {
		ext4_ext_free_meta_block(ei, ext4_leaf(ei, 0)->pblk);
		g_array_set_size(ei->leaves, 0);
	}
}

/* Leaves after a truncate to @keep blocks: the emptied ones are freed. */
static void ext4_ext_leaves_truncated(struct ext4_inode *ei, uint64_t keep)
{
	guint kept;

	if (!ei->leaves->len)
		return;
	/* the leaves that still hold an extent: those that start below @keep */
	kept = 0;
	if (wbsim_emap_count(&ei->disk)) {
		kept = ext4_leaf_of(ei, keep) + 1;
		if (kept > 1 && ext4_leaf(ei, kept - 1)->key >= keep)
			kept--;
	}
	for (guint j = kept; j < ei->leaves->len; j++)
		ext4_ext_free_meta_block(ei, ext4_leaf(ei, j)->pblk);
	g_array_set_size(ei->leaves, kept);
	if (kept) {
		ext4_leaf(ei, kept - 1)->nr =
			ext4_count_extents(ei, ext4_leaf_start(ei, kept - 1), G_MAXUINT64);
	} else {
		/* the tree is empty: back to depth 0 */
		ext4_ext_free_meta_block(ei, ei->index_pblk);
		ei->index_pblk = 0;
	}
}

/* The leaves agree with the extents: keys, counts, room. */
static gboolean ext4_leaves_check(struct ext4_inode *ei)
{
	uint64_t sum = 0;

	if (!ei->leaves->len)
		return wbsim_emap_count(&ei->disk) <= EXT4_ROOT_MAX;
	for (guint i = 0; i < ei->leaves->len; i++) {
		const struct ext4_leaf *l = ext4_leaf(ei, i);
		const struct wbsim_extent *first = wbsim_emap_lookup(&ei->disk, l->key);

		if (i && (l->key <= ext4_leaf(ei, i - 1)->key || !first || first->lblk != l->key))
			return FALSE;
		if (l->nr > ext4_leaf_max(ei) ||
		    l->nr != ext4_count_extents(ei, ext4_leaf_start(ei, i), ext4_leaf_end(ei, i)))
			return FALSE;
		sum += l->nr;
	}
	return sum == wbsim_emap_count(&ei->disk);
}

/*
 * Record an allocation of [lblk, lblk+n) at @pblk (unwritten,
 * dioread_nolock); @pre_io as ext4_ext_set().
 */
static void ext4_mapped(struct ext4_inode *ei, uint64_t lblk, uint64_t n, uint64_t pblk,
			gboolean pre_io)
{
	uint64_t delayed = ei->es.blocks[WBSIM_EXT_DELALLOC];

	ext4_ext_set(ei, lblk, n, WBSIM_EXT_UNWRITTEN, pblk, pre_io);
	wbsim_emap_set(&ei->es, lblk, n, WBSIM_EXT_UNWRITTEN, pblk);
	/* ext4_da_update_reserve_space(): the reservation is used */
	ext4_delayed_changed(ei, delayed);
}

/* Models ext4_mb_use_preallocated(): blocks served from an inode or group PA. */
static uint64_t ext4_use_preallocated(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t lblk,
				      uint64_t len)
{
	struct ext4_fs *e = fs->priv;
	struct ext4_inode *ei = inode->priv;
	struct ext4_pa *pa = ext4_find_pa(ei, lblk);
	struct ext4_plan plan;
	uint64_t n;

	if (pa) {
		n = MIN(len, pa->lstart + pa->len - lblk);
		ext4_mapped(ei, lblk, n, pa->pstart + (lblk - pa->lstart), TRUE);
		return n;
	}
	ext4_mb_normalize_request(fs, inode, lblk, len, &plan);
	if (plan.group_pa && e->lg.valid && e->lg.len - e->lg.used >= len) {
		ext4_mapped(ei, lblk, len, e->lg.pstart + e->lg.used, TRUE);
		e->lg.used += len;
		return len;
	}
	return 0;
}

/* Allocate per @plan and create the preallocation; FALSE when out of space. */
static gboolean ext4_mb_allocate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t lblk,
				 uint64_t len, const struct ext4_plan *plan)
{
	struct ext4_fs *e = fs->priv;
	struct ext4_inode *ei = inode->priv;
	struct ext4_found f;

	if (!ext4_mb_regular_allocator(fs, plan, &f))
		return FALSE;
	ext4_take(e, f.group, f.start, f.len);
	if (plan->group_pa) {
		ext4_discard_lg(e);
		e->lg.valid = TRUE;
		e->lg.pstart = f.start;
		e->lg.len = f.len;
		e->lg.used = 0;
	} else {
		struct ext4_pa pa = { .pstart = f.start, .len = f.len };

		/* a short find still covers the original request (ext4_mb_new_inode_pa) */
		pa.lstart = plan->wstart;
		if (lblk + MIN(len, f.len) > pa.lstart + f.len)
			pa.lstart = lblk + MIN(len, f.len) - f.len;
		g_array_append_val(ei->pas, pa);
		e->stream_last[plan->slot] = f.group;
	}
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Writeback mapping                                                        */

struct ext4_call {
	struct wbsim_fs_map_call mc;	/* first: the state it shares with the other models */
	struct ext4_group *locked;
	uint64_t req_len;
};

static void ext4_call_finish(struct ext4_call *c, GError *error)
{
	struct ext4_inode *ei = c->mc.inode->priv;

	wbsim_fs_map_call_finish(&c->mc, "ext4", &ei->disk, error);
}

static void ext4_map_next(struct ext4_call *c);

static void ext4_step_done(wbsim_sim *sim, void *arg)
{
	ext4_map_next(arg);
}

static void ext4_alloc_locked_done(wbsim_sim *sim, void *arg)
{
	struct ext4_call *c = arg;
	struct ext4_params *p = c->mc.fs->params;

	wbsim_lock_release(&c->locked->lock, c->mc.task);
	c->locked = NULL;
	wbsim_cpus_run(c->mc.fs->cpus, c->mc.task, p->alloc_unlocked_ns, ext4_step_done, c);
}

static void ext4_alloc_granted(wbsim_sim *sim, void *arg)
{
	struct ext4_call *c = arg;
	struct ext4_params *p = c->mc.fs->params;
	struct ext4_plan plan;

	/* plan again: the state may have changed while we waited */
	ext4_mb_normalize_request(c->mc.fs, c->mc.inode, c->mc.pos, c->req_len, &plan);
	if (!ext4_mb_allocate(c->mc.fs, c->mc.inode, c->mc.pos, c->req_len, &plan)) {
		GError *error = NULL;

		wbsim_lock_release(&c->locked->lock, c->mc.task);
		c->locked = NULL;
		g_set_error(&error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
			    "ext4: no space left for inode %" G_GUINT64_FORMAT, c->mc.inode->ino);
		ext4_call_finish(c, error);
		return;
	}
	wbsim_cpus_run(c->mc.fs->cpus, c->mc.task, p->alloc_ns, ext4_alloc_locked_done, c);
}

static void ext4_map_next(struct ext4_call *c)
{
	struct ext4_params *p = c->mc.fs->params;
	struct ext4_inode *ei = c->mc.inode->priv;
	uint64_t end = c->mc.first + c->mc.nr;

	while (c->mc.pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *x = wbsim_emap_seek(&ei->disk, c->mc.pos, &cur);
		struct ext4_plan plan;
		struct ext4_found f;
		uint64_t n;

		if (x && x->lblk <= c->mc.pos) {
			c->mc.pos = MIN(wbsim_ext_end(x), end);
			continue;
		}
		c->req_len = MIN(x ? MIN(x->lblk, end) : end, c->mc.pos + p->writepages_max) - c->mc.pos;
		n = ext4_use_preallocated(c->mc.fs, c->mc.inode, c->mc.pos, c->req_len);
		if (n) {
			wbsim_fs_map_call_new_range(&c->mc, c->mc.pos, n);
			c->mc.pos += n;
			wbsim_cpus_run(c->mc.fs->cpus, c->mc.task, p->pa_ns, ext4_step_done, c);
			return;
		}
		/* find the group to lock; the search is repeated once it is held */
		ext4_mb_normalize_request(c->mc.fs, c->mc.inode, c->mc.pos, c->req_len, &plan);
		if (!ext4_mb_regular_allocator(c->mc.fs, &plan, &f)) {
			GError *error = NULL;

			g_set_error(&error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
				    "ext4: no space left for inode %" G_GUINT64_FORMAT,
				    c->mc.inode->ino);
			ext4_call_finish(c, error);
			return;
		}
		c->locked = &((struct ext4_fs *)c->mc.fs->priv)->groups[f.group];
		wbsim_lock_acquire(&c->locked->lock, c->mc.task, ext4_alloc_granted, c);
		return;
	}
	ext4_call_finish(c, NULL);
}

/*
 * The extents ext4_do_writepages() maps for the dirty run [first, first + nr):
 * mpage_add_bh_to_extent() grows an extent over blocks that need mapping
 * (delayed: a hole on disk here; or unwritten) while they are contiguous,
 * of one kind and at most writepages_max long, and a block over a written
 * extent ends it (it goes out without mapping). Returns how many, and in
 * @unwritten how many of them lie in unwritten extents.
 */
static uint64_t ext4_extents_to_map(const struct ext4_params *p, struct ext4_inode *ei,
				    uint64_t first, uint64_t nr, uint64_t *unwritten)
{
	uint64_t pos = first, end = first + nr, count = 0, len = 0;
	int kind = -1;	/* of the extent being grown: 0 hole, 1 unwritten */

	*unwritten = 0;
	while (pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *x = wbsim_emap_seek(&ei->disk, pos, &cur);
		uint64_t t;
		int k;

		if (x && x->lblk <= pos) {
			t = MIN(wbsim_ext_end(x), end);
			k = x->state == WBSIM_EXT_WRITTEN ? -1 : 1;
		} else {
			t = x ? MIN(x->lblk, end) : end;
			k = 0;
		}
		if (k < 0) {
			kind = -1;
			pos = t;
			continue;
		}
		for (; pos < t; pos++) {
			if (kind != k || len == p->writepages_max) {
				count++;
				*unwritten += k;
				kind = k;
				len = 0;
			}
			len++;
		}
	}
	return count;
}

/*
 * Models ext4_do_writepages() for one run: pages over written blocks go out
 * first, without a journal handle (mpd->do_map = 0); then each extent that
 * needs mapping (delayed or unwritten blocks) costs one loop of its own: a
 * new io_end, a handle (ext4_journal_start_with_reserve), a new
 * mpage_prepare_extent_to_map() call that looks its folios up again, and
 * mpage_map_and_submit_extent(), which for an unwritten extent splits it
 * out of the preallocated one (ext4_split_convert_extents, PRE_IO):
 * map_ns per extent, split_ns more per unwritten one. Every block of the
 * run, mapped or not, costs writepages_block_ns more than iomap's: ext4
 * walks the buffer head of each (mpage_process_page_bufs(), then
 * ext4_bio_write_folio() adds each to the bio). Leaves out the handle's
 * credits and the journal's space.
 */
static void ext4_map_blocks(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			    uint64_t first, uint64_t nr, wbsim_fs_map_done_fn done, void *arg)
{
	struct ext4_params *p = fs->params;
	struct ext4_call *c = wbsim_fs_map_call_new(fs, sizeof(*c), inode, task, first, nr,
						    done, arg);
	uint64_t unwritten, extents = ext4_extents_to_map(p, inode->priv, first, nr, &unwritten);

	wbsim_cpus_run(fs->cpus, task, extents * p->map_ns + unwritten * p->split_ns +
		       nr * p->writepages_block_ns, ext4_step_done, c);
}

/* ext4_convert_unwritten_extents(): split and merge in both trees. */
static gboolean ext4_convert_unwritten_extents(wbsim_fs_inode *inode, uint64_t first,
					       uint64_t nr)
{
	struct ext4_inode *ei = inode->priv;
	uint64_t pos = first, end = first + nr;
	gboolean converted = FALSE;

	while (pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *x = wbsim_emap_seek(&ei->disk, pos, &cur);
		uint64_t t, pb;

		if (!x || x->lblk >= end)
			break;
		pos = MAX(pos, x->lblk);
		t = MIN(wbsim_ext_end(x), end);
		if (x->state == WBSIM_EXT_UNWRITTEN) {
			pb = x->pblk + (pos - x->lblk);
			ext4_ext_set(ei, pos, t - pos, WBSIM_EXT_WRITTEN, pb, FALSE);
			wbsim_emap_set(&ei->es, pos, t - pos, WBSIM_EXT_WRITTEN, pb);
			converted = TRUE;
		}
		pos = t;
	}
	return converted;
}

/* The conversion as a cost, for direct I/O completions (ext4_dio_write_end_io). */
static wbsim_time_t ext4_end_io(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
				uint64_t nr)
{
	struct ext4_params *p = fs->params;

	return ext4_convert_unwritten_extents(inode, first, nr) ?
	       p->end_io_ns + nr * p->end_io_page_ns : 0;
}

static void ext4_end_io_next(struct ext4_inode *ei);

/* ext4_end_io_end(): the io_end's extents are converted; its pages leave writeback. */
static void ext4_end_io_end(wbsim_sim *sim, void *arg)
{
	struct ext4_inode *ei = arg;
	struct wbsim_ioend *io = wbsim_ioend_queue_pop(ei->rsv);

	ext4_convert_unwritten_extents(ei->inode, io->first, io->nr);
	wbsim_ioend_finish(sim, ei->rsv, io);
	ext4_end_io_next(ei);
}

/* ext4_do_flush_completed_IO(): the io_ends one after the other, in completion order. */
static void ext4_end_io_next(struct ext4_inode *ei)
{
	struct ext4_params *p = ei->fs->params;
	struct wbsim_ioend *io = wbsim_ioend_queue_peek(ei->rsv);

	if (io)
		wbsim_cpus_run(ei->fs->cpus, ei->rsv->worker,
			       p->end_io_ns + io->nr * p->end_io_page_ns, ext4_end_io_end, ei);
}

/* ext4_end_io_rsv_work(): take the inode's list of completed io_ends. */
static void ext4_end_io_rsv_work(struct wbsim_work *work, wbsim_task *worker)
{
	struct ext4_inode *ei = work->arg;

	if (wbsim_ioend_queue_begin(ei->rsv, worker))
		ext4_end_io_next(ei);
}

/*
 * Models ext4_end_bio() -> ext4_put_io_end_defer(): an io_end written into
 * unwritten extents is deferred (ext4_add_complete_io) to the inode's
 * conversion work on ext4-rsv-conversion, an unbound workqueue with
 * max_active 1: one worker converts for the whole filesystem, io_end by
 * io_end, and the pages stay under writeback until theirs is converted;
 * any other io_end ends its pages in the bio's end_io context
 * (ext4_finish_bio). Direct I/O goes the generic way. Leaves out i_data_sem
 * and the journal's commits.
 */
static void ext4_end_bio(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first, uint64_t nr,
			 unsigned int flags, wbsim_event_fn done, void *arg)
{
	struct ext4_fs *e = fs->priv;
	struct ext4_inode *ei = inode->priv;

	if (wbsim_fs_end_bio_common(fs, inode, first, nr, flags, done, arg))
		return;
	if (!e->rsv_wq)
		e->rsv_wq = wbsim_fs_alloc_workqueue(fs, "ext4-rsv-conversion", 1);
	wbsim_ioend_queue_add(wbsim_ioend_queue_of(&ei->rsv, &e->ioends), e->rsv_wq,
			      ext4_end_io_rsv_work, ei, first, nr, flags,
			      done, arg);
}

/* ext4_alloc_file_blocks(): unwritten extents, no normalisation. */
static wbsim_time_t ext4_fallocate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
				   uint64_t nr, GError **error)
{
	struct ext4_params *p = fs->params;
	struct ext4_fs *e = fs->priv;
	struct ext4_inode *ei = inode->priv;
	uint64_t pos = first, end = first + nr;
	wbsim_time_t cost = 0;

	while (pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *x = wbsim_emap_seek(&ei->disk, pos, &cur);
		struct ext4_plan plan = { 0 };
		struct ext4_found f;

		if (x && x->lblk <= pos) {
			pos = wbsim_ext_end(x);
			continue;
		}
		plan.want = MIN(x ? MIN(x->lblk, end) : end, pos + EXT_UNWRITTEN_MAX_LEN) - pos;
		plan.goal = ext4_ext_find_goal(ei, pos);
		plan.try_goal = TRUE;
		plan.start_group = MIN(plan.goal / e->bpg, e->ngroups - 1);
		if (!ext4_mb_regular_allocator(fs, &plan, &f)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
				    "ext4: fallocate: no space left for inode %" G_GUINT64_FORMAT,
				    inode->ino);
			return G_MAXUINT64;
		}
		ext4_take(e, f.group, f.start, f.len);
		ext4_mapped(ei, pos, f.len, f.start, FALSE);
		pos += f.len;
		cost += p->alloc_ns + p->alloc_unlocked_ns;
	}
	return cost;
}

static void ext4_truncate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t new_size)
{
	struct ext4_fs *e = fs->priv;
	struct ext4_inode *ei = inode->priv;
	uint64_t keep = wbsim_fs_bytes_to_blocks(fs, new_size);
	struct wbsim_emap_cursor cur;
	uint64_t delayed = ei->es.blocks[WBSIM_EXT_DELALLOC];

	ext4_discard_preallocations(e, ei);
	for (struct wbsim_extent *x = wbsim_emap_seek(&ei->disk, keep, &cur); x;
	     x = wbsim_emap_next(&ei->disk, &cur)) {
		uint64_t s = MAX(x->lblk, keep);

		ext4_give(e, x->pblk + (s - x->lblk), wbsim_ext_end(x) - s);
	}
	wbsim_emap_punch(&ei->disk, keep, G_MAXUINT64 / 4 - keep);
	ext4_ext_leaves_truncated(ei, keep);
	wbsim_emap_punch(&ei->es, keep, G_MAXUINT64 / 4 - keep);
	ext4_delayed_changed(ei, delayed);
}

/* ext4_release_file(): drop inode PAs when no delayed blocks remain. */
static void ext4_close(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct ext4_inode *ei = inode->priv;

	if (!ei->es.blocks[WBSIM_EXT_DELALLOC])
		ext4_discard_preallocations(fs->priv, ei);
}

static void ext4_fiemap(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out)
{
	struct ext4_inode *ei = inode->priv;
	uint64_t pos = 0, bs = fs->block_size;

	for (;;) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *es = wbsim_emap_seek(&ei->es, pos, &cur);
		struct wbsim_extent *d, rec;
		struct wbsim_fs_extent r;

		if (es && es->lblk <= pos) {
			rec = *es;
		} else {
			d = wbsim_emap_seek(&ei->disk, pos, &cur);
			if (d && d->lblk <= pos) {
				rec = *d;
				ext4_es_cache(ei, &rec);	/* the lookup fills the cache */
			} else {
				uint64_t next = G_MAXUINT64;

				if (es)
					next = es->lblk;
				if (d)
					next = MIN(next, d->lblk);
				if (next == G_MAXUINT64)
					break;
				pos = next;
				continue;
			}
		}
		r.logical = pos * bs;
		r.length = (wbsim_ext_end(&rec) - pos) * bs;
		r.physical = (rec.pblk + (pos - rec.lblk)) * bs;
		r.flags = 0;
		if (rec.state == WBSIM_EXT_DELALLOC) {
			r.physical = 0;
			r.flags = WBSIM_FIEMAP_EXTENT_DELALLOC | WBSIM_FIEMAP_EXTENT_UNKNOWN;
		} else if (rec.state == WBSIM_EXT_UNWRITTEN) {
			r.flags = WBSIM_FIEMAP_EXTENT_UNWRITTEN;
		}
		g_array_append_val(out, r);
		pos = wbsim_ext_end(&rec);
	}
}

static uint64_t ext4_nr_extents(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct ext4_inode *ei = inode->priv;

	return wbsim_emap_count(&ei->disk);
}

static gboolean ext4_remount(wbsim_fs *fs, GError **error)
{
	struct ext4_fs *e = fs->priv;

	for (guint i = 0; i < fs->inodes->len; i++) {
		wbsim_fs_inode *inode = g_ptr_array_index(fs->inodes, i);
		struct ext4_inode *ei = inode->priv;

		if (ei->es.blocks[WBSIM_EXT_DELALLOC]) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
				    "ext4: remount with delayed allocation in inode %"
				    G_GUINT64_FORMAT " (write it back first)", inode->ino);
			return FALSE;
		}
	}
	for (guint i = 0; i < fs->inodes->len; i++) {
		wbsim_fs_inode *inode = g_ptr_array_index(fs->inodes, i);
		struct ext4_inode *ei = inode->priv;

		ext4_discard_preallocations(e, ei);
		wbsim_emap_reset(&ei->es);
	}
	ext4_discard_lg(e);
	for (uint64_t s = 0; s < ((struct ext4_params *)fs->params)->mb_stream_goals; s++)
		e->stream_last[s] = 0;
	return TRUE;
}

gboolean wbsim_fs_ext4_check(wbsim_fs *fs)
{
	struct ext4_fs *e = fs->priv;

	for (uint64_t g = 0; g < e->ngroups; g++)
		if (!wbsim_freespace_check(&e->groups[g].free))
			return FALSE;
	for (guint i = 0; i < fs->inodes->len; i++) {
		wbsim_fs_inode *inode = g_ptr_array_index(fs->inodes, i);

		if (inode->priv && !ext4_leaves_check(inode->priv))
			return FALSE;
	}
	return e->free_clusters == ext4_groups_free(e);
}

/*
 * Models ext4_nonda_switch()'s first test, made before every buffered
 * write (ext4_da_write_begin): when half the free clusters are dirty
 * (reserved by delayed allocation), start pushing delalloc out
 * (try_to_writeback_inodes_sb(WB_REASON_FS_FREE_SPACE), which the writer
 * waits for). Its second test, the switch to allocating at write time
 * below 150% (ext4_write_begin instead of the delalloc path), is left out:
 * the model's ext4 always delays allocation.
 */
static gboolean ext4_free_space_writeback(wbsim_fs *fs)
{
	const struct ext4_fs *e = fs->priv;

	return e->dirty_clusters && e->free_clusters < 2 * e->dirty_clusters;
}

/*
 * ext4 has no ->update_time: generic_update_time() marks the inode dirty
 * (I_DIRTY_SYNC), and ext4_dirty_inode() logs it under a journal handle of
 * its own (ext4_journal_start, ext4_mark_inode_dirty, ext4_journal_stop).
 */
static wbsim_time_t ext4_update_time(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	const struct ext4_params *p = fs->params;

	(void)inode;
	return p->update_time_ns;
}

const struct wbsim_fs_ops wbsim_fs_ext4_ops = {
	.name = "ext4",
	.version = WBSIM_FS_OPS_VERSION,
	.params_size = sizeof(struct ext4_params),
	.options = ext4_options,
	.init = ext4_init,
	.exit = ext4_exit,
	.inode_init = ext4_inode_init,
	.inode_exit = ext4_inode_exit,
	.write = ext4_write,
	.fallocate = ext4_fallocate,
	.truncate = ext4_truncate,
	.close = ext4_close,
	.map_blocks = ext4_map_blocks,
	.end_io = ext4_end_io,
	.end_bio = ext4_end_bio,
	.update_time = ext4_update_time,
	.fiemap = ext4_fiemap,
	.nr_extents = ext4_nr_extents,
	.remount = ext4_remount,
	.free_space_writeback = ext4_free_space_writeback,
	/* ext4_file_operations: FOP_BUFFER_RASYNC only, no FOP_BUFFER_WASYNC */
	.nowait_buffered_write = FALSE,
};
