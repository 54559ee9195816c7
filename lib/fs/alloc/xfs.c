/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/xfs.c - XFS allocation model.
 *
 * What it models (kernel ~6.x; sources listed at the end of this comment):
 * - Allocation groups: agcount AGs of agsize blocks, each with its own free
 *   space (bnobt/cntbt: struct wbsim_freespace) and its AGF lock, held for
 *   the whole allocation transaction, whose CPU is charged while it is
 *   held: alloc_ns, and btree_level_ns for each level of each
 *   lookup in the bnobt, cntbt and bmbt, their levels from their record
 *   counts (the AG's free extents, the file's real extents: xfs-btree.c).
 * - CPU of the other paths, from the same structures: a buffered write
 *   costs write_ns, iext_level_ns per level of the in-core extent
 *   tree (delalloc records included) below the first, and delalloc_ns
 *   when it reserves a hole; an unwritten conversion end_io_ns and
 *   btree_level_ns per bmbt level of each record it looks up or
 *   inserts. The flusher's lookup (map_ns) is flat: it walks a file
 *   in order, so the kernel finds its tree in the cache (0.1-0.2 us per
 *   conversion in xfs_iext_lookup_extent, against 0.9 us per random write).
 * - Inodes: 64-inode chunks of 512-byte inodes (8 blocks) allocated in the
 *   inode's AG; inode numbers are XFS_AGINO_TO_INO(ag, agbno << 3 | slot),
 *   so they encode the AG. New directories rotate over the AGs
 *   (xfs_ialloc_ag_select's m_agirotor, inode64); files go to their
 *   parent's AG.
 * - Delayed allocation: a buffered write into a hole reserves a delalloc
 *   extent in the in-core extent list (no placement); adjacent delalloc
 *   extents merge up to XFS_MAX_BMBT_EXTLEN (2^21 - 1 blocks).
 * - Speculative preallocation (xfs_buffered_write_iomap_begin,
 *   xfs_iomap_prealloc_size): a write that extends i_size with no extent
 *   at or after it reserves extra delalloc blocks beyond EOF: none while
 *   i_size < allocsize (64 KiB), allocsize after a hole, else twice the
 *   length of the contiguous extents before it, rounded down to a power of
 *   two, at most XFS_MAX_BMBT_EXTLEN (beyond that: the write offset),
 *   counted from the allocsize boundary at or below the write's last byte
 *   (XFS_ALLOC_ALIGN). Free-space throttling and quota throttling are left
 *   out.
 * - Zeroing beyond EOF (xfs_file_write_zero_eof): a write that starts past
 *   EOF converts the delalloc extent holding the preallocation beyond EOF
 *   to an unwritten extent, whole, in the writer (xfs_zero_eof below).
 * - Space: a free-block counter (m_fdblocks, xfs_fdblocks below) from
 *   which each delalloc reservation takes its blocks and their worst-case
 *   indirect blocks, less the reserve pool, the set-aside and the per-AG
 *   metadata reservations; preallocation shrinks as it runs low; a write
 *   whose reservation does not fit makes the write_space hook say so, and
 *   the writer (lib/fio/job.c job_write_enospc) flushes, frees the
 *   preallocations past EOF (the free_space hook: blockgc) and retries.
 * - Writeback (xfs_map_blocks -> xfs_bmapi_convert_delalloc): the whole
 *   delalloc extent containing a dirty block is allocated at once (beyond
 *   the range being written, including post-EOF preallocation), in as
 *   few extents as free space allows, as unwritten extents that I/O
 *   completion converts (xfs_end_ioend -> xfs_iomap_write_unwritten).
 * - Goal (xfs_bmap_adjacent): just after the previous real extent plus the
 *   logical gap, or just before the next one minus the gap, whichever is
 *   logically closer, the gap kept only while it is at most
 *   XFS_ALLOC_GAP_UNITS (4) times the allocation's length (else just
 *   after the previous extent, just before the next); the inode's own
 *   block for the first extent.
 * - Lengths (xfs_bmap_btalloc_select_lengths, xfs_bmap_select_minlen):
 *   the allocation wants the whole delalloc extent (maxlen) and accepts
 *   no less than the longest free extent of any AG (minlen, at most
 *   maxlen). The AGs are tried from the goal's; one whose longest free
 *   extent is shorter than minlen is skipped (xfs_alloc_space_available),
 *   so a stretch that fits whole somewhere is never split. In the AG,
 *   xfs_alloc_ag_vextent_near: the closest free placement of maxlen,
 *   else best fit by size, else the longest free extent; with
 *   ag_trylock (xfs_alloc_vextent_start_ag/iterate_ags) a busy AGF makes
 *   the allocator try the following AGs without waiting, and only when
 *   every AG is busy does it sleep on the goal AG's lock.
 * - Close (xfs_release -> xfs_free_eofblocks): post-EOF blocks are freed
 *   unless the inode is marked XFS_IDIRTY_RELEASE, which is set when it
 *   still has delalloc blocks after that trim. Remount frees them too
 *   (inode eviction, xfs_inactive).
 * - FIEMAP (xfs_vn_fiemap -> iomap_fiemap with xfs_read_iomap_ops): one
 *   record per in-core extent record: delalloc as DELALLOC|UNKNOWN at
 *   physical 0, unwritten flagged, holes skipped, post-EOF records
 *   included. The in-core list equals the on-disk bmbt plus delalloc, so a
 *   remount changes the answer only by the trimmed preallocation.
 *   fsx_nextents (the raw count) counts the real (non-delalloc) records.
 *
 * Left out: quota, the bmbt blocks an allocation takes from the indirect
 * reservation (it is released whole at conversion), the log's own I/O and the CIL, AGFL refills, rmap/refcount
 * btree work (folded into alloc_ns), busy extents (none in the lab's
 * workloads, which free nothing while they write), the length of the near
 * search's walk (xfs_alloc_cur_check: 14-18 free extents a small
 * allocation in the lab), the cache footprint of the btrees (a level costs
 * less when one file's are the only ones), the inode log item's copy of
 * the extent list (xfs_iextents_copy), io_uring's -EAGAIN retries of
 * IOMAP_NOWAIT writes, stripe alignment, extent size
 * hints, filestreams, the blockgc worker (speculative_prealloc_lifetime),
 * CoW, realtime. fallocate is synchronous (no lock modelled).
 *
 * Sources: kernel fs/xfs/xfs_iomap.c (xfs_buffered_write_iomap_begin with
 * "if (eof && offset + count > XFS_ISIZE(ip))", xfs_iomap_prealloc_size),
 * fs/xfs/libxfs/xfs_bmap.c (xfs_bmapi_convert_delalloc, xfs_bmap_adjacent,
 * xfs_bmap_btalloc), fs/xfs/libxfs/xfs_alloc.c (near/size allocation,
 * trylock iteration over AGs), fs/iomap/fiemap.c (iomap_to_fiemap:
 * IOMAP_DELALLOC -> FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN,
 * physical 0 for IOMAP_NULL_ADDR); commit 309c8480 "xfs: delayed alloc
 * blocks beyond EOF are valid after writeback"; xfs_ioc_fsgetxattr
 * (fsx_nextents = data fork extent count).
 */
#include <stddef.h>
#include "core/lock.h"
#include "core/workqueue.h"
#include "fs/alloc/fs-private.h"
#include "fs/alloc/freespace.h"
#include "fs/alloc/ioend.h"
#include "fs/alloc/xfs-btree.h"

#define XFS_MAX_BMBT_EXTLEN ((1ull << 21) - 1)
/* xfs_bmap_adjacent() keeps a logical gap up to this many times the length */
#define XFS_ALLOC_GAP_UNITS 4
/*
 * AG headers (sb, AGF, AGI, AGFL), the roots of the bnobt, cntbt, inobt,
 * finobt, rmapbt and refcountbt, and the AGFL's reserve: mkfs.xfs puts the
 * first inode chunk at agbno 16 (root inode 128 with 4 KiB blocks and
 * 512-byte inodes), with nothing free below it.
 */
#define XFS_AG_META_BLOCKS 16
#define XFS_INODES_PER_CHUNK 64

struct xfs_params {
	uint64_t block_size;
	uint64_t agcount;
	uint64_t agsize;
	uint64_t max_extent;
	uint64_t log_size;
	uint64_t inode_size;
	uint64_t allocsize;
	gboolean prealloc;
	gboolean ag_trylock;
	uint64_t alloc_ns;
	uint64_t btree_level_ns;
	uint64_t map_ns;
	uint64_t write_ns;
	uint64_t iext_level_ns;
	uint64_t delalloc_ns;
	uint64_t end_io_ns;
	uint64_t update_time_ns;
	gboolean reflink;
};

#define XO(f) offsetof(struct xfs_params, f)
static const struct wbsim_param xfs_options[] = {
	{ "block_size", WBSIM_PARAM_SIZE, XO(block_size), "4k", "bytes", 512, 65536,
	  "filesystem block size (mkfs.xfs -b size)" },
	{ "agcount", WBSIM_PARAM_UINT, XO(agcount), "4", "AGs", 1, 1u << 20,
	  "allocation groups (mkfs.xfs -d agcount; 4 on a single non-striped device)" },
	{ "agsize", WBSIM_PARAM_SIZE, XO(agsize), "0", "bytes", 0, 0,
	  "AG size; 0: device size / agcount" },
	{ "max_extent", WBSIM_PARAM_UINT, XO(max_extent), "2097151", "blocks", 1,
	  XFS_MAX_BMBT_EXTLEN, "longest extent record (XFS_MAX_BMBT_EXTLEN, 21-bit length)" },
	{ "log_size", WBSIM_PARAM_SIZE, XO(log_size), "0", "bytes", 0, 0,
	  "internal log in the middle AG; 0: device/2048 within [64 MiB, 2 GiB]" },
	{ "inode_size", WBSIM_PARAM_SIZE, XO(inode_size), "512", "bytes", 256, 2048,
	  "inode size (v5 default 512)" },
	{ "allocsize", WBSIM_PARAM_SIZE, XO(allocsize), "64k", "bytes", 4096, 1u << 30,
	  "minimum speculative preallocation (m_allocsize_blocks)" },
	{ "prealloc", WBSIM_PARAM_BOOL, XO(prealloc), "1", "bool", 0, 1,
	  "dynamic speculative preallocation beyond EOF" },
	{ "ag_trylock", WBSIM_PARAM_BOOL, XO(ag_trylock), "1", "bool", 0, 1,
	  "skip busy AGs before sleeping on the goal AG (first pass with trylock)" },
	{ "reflink", WBSIM_PARAM_BOOL, XO(reflink), "1", "bool", 0, 1,
	  "reflink (mkfs.xfs -m reflink, default since xfsprogs 5.1): each AG holds "
	  "back its refcount btree's largest size from the free-block counter" },
	{ "alloc_ns", WBSIM_PARAM_TIME, XO(alloc_ns), NULL, "ns", 0, 0,
	  "CPU per allocation transaction, AGF lock held, besides its btree levels "
	  "(transaction, AGF/AGFL, CIL commit)",
	  .flags = WBSIM_PARAM_COST },
	{ "btree_level_ns", WBSIM_PARAM_TIME, XO(btree_level_ns), NULL, "ns", 0, 0,
	  "CPU per level of a btree lookup (xfs_btree_lookup: a block found in the "
	  "buffer cache and searched) in the free-space btrees and the bmbt",
	  .flags = WBSIM_PARAM_COST },
	{ "map_ns", WBSIM_PARAM_TIME, XO(map_ns), NULL, "ns", 0, 0,
	  "CPU per writeback mapping call (extent lookup, ILOCK)",
	  .flags = WBSIM_PARAM_COST },
	{ "write_ns", WBSIM_PARAM_TIME, XO(write_ns), NULL, "ns", 0, 0,
	  "CPU per buffered write call in iomap_begin that finds its extent in a "
	  "one-leaf in-core extent tree (ILOCK, lookup, iomap)",
	  .flags = WBSIM_PARAM_COST },
	{ "iext_level_ns", WBSIM_PARAM_TIME, XO(iext_level_ns), NULL, "ns", 0, 0,
	  "CPU per further level of the in-core extent tree a lookup descends "
	  "(xfs_iext_lookup_extent: a 256-byte node scanned)",
	  .flags = WBSIM_PARAM_COST },
	{ "delalloc_ns", WBSIM_PARAM_TIME, XO(delalloc_ns), NULL, "ns", 0, 0,
	  "CPU of a delalloc reservation for a write into a hole "
	  "(xfs_bmapi_reserve_delalloc: quota, free-block counters, record inserted)",
	  .flags = WBSIM_PARAM_COST },
	{ "end_io_ns", WBSIM_PARAM_TIME, XO(end_io_ns), NULL, "ns", 0, 0,
	  "CPU per ioend converted on xfs-conv (tr_write transaction under ILOCK_EXCL)",
	  .flags = WBSIM_PARAM_COST },
	{ "update_time_ns", WBSIM_PARAM_TIME, XO(update_time_ns), NULL, "ns", 0, 0,
	  "CPU of a write's timestamp update, once a file and tick (xfs_vn_update_time: a tr_fsyncts transaction under ILOCK_EXCL), besides the inode's format",
	  .flags = WBSIM_PARAM_COST },
	{ .name = NULL },
};

struct xfs_ag {
	struct wbsim_freespace free;
	wbsim_lock lock;
	gboolean has_chunk;
	uint64_t chunk_agbno;	/* current inode chunk */
	uint32_t chunk_used;
};

struct xfs_fs {
	struct xfs_ag *ags;
	/* the free-block counter (m_fdblocks) as the reservations see it */
	uint64_t dblocks;	/* sb_dblocks */
	uint64_t unavailable;	/* reserve pool, set-aside, per-AG reservations */
	uint64_t dl_blocks;	/* delalloc blocks of every inode */
	uint64_t dl_extents;	/* delalloc records of every inode */
	unsigned int bmap_maxlevels;	/* m_bm_maxlevels[XFS_DATA_FORK] */
	uint64_t bmap_recs;	/* m_bmap_dmxr[0] */
	uint64_t agcount;
	uint64_t agblocks;
	unsigned int agblklog;
	unsigned int inopblog;
	uint64_t agirotor;
	uint64_t max_extent;
	struct wbsim_workqueue *conv_wq;	/* xfs-conv, made on first use */
	struct wbsim_ioend_cache ioends;	/* the ioends of every inode's list */
	wbsim_lock ilock_sum;	/* every inode's ILOCK, summed for reports */
};

/* The ILOCK's counters as last added to the filesystem's sum. */
struct xfs_ilock_seen {
	uint64_t acquisitions, contended;
	wbsim_time_t hold_ns, wait_ns;
};

struct xfs_inode {
	struct wbsim_emap map;	/* in-core data fork: real + delalloc */
	uint64_t home;		/* device block holding the inode */
	gboolean dirty_release;	/* XFS_IDIRTY_RELEASE */
	wbsim_fs *fs;
	wbsim_fs_inode *inode;
	wbsim_lock ilock;	/* i_lock: the ILOCK, an rw_semaphore */
	struct xfs_ilock_seen ilock_seen;	/* counters last summed into ilock_sum */
	uint64_t dl_blocks_seen, dl_extents_seen;	/* last added to the fs's totals */
	struct wbsim_ioend_queue *ioends;	/* i_ioend_list and i_ioend_work (first use) */
	/* the mapping a writepages call cached (xfs_writepage_ctx's iomap and
	 * data_seq): a written or unwritten extent [wpc_lblk, wpc_end), valid
	 * for the call of wpc_task while map.seq (i_df.if_seq) is still
	 * wpc_seq; wpc_end == 0: none. One a file: another task's call starts
	 * its own (each flusher has its context; concurrent calls look up
	 * more often here) */
	uint64_t wpc_lblk, wpc_end, wpc_seq;
	const wbsim_task *wpc_task;
};

static inline uint64_t xfs_agno(const struct xfs_fs *x, uint64_t bno)
{
	return MIN(bno / x->agblocks, x->agcount - 1);
}

static uint64_t xfs_free(wbsim_fs *fs)
{
	struct xfs_fs *x = fs->priv;
	uint64_t sum = 0;

	for (uint64_t i = 0; i < x->agcount; i++)
		sum += x->ags[i].free.free;
	return sum;
}

/* Add @xi's delalloc records and blocks, as its map holds them now, to
 * the filesystem's totals (after every change of the map). */
static void xfs_delalloc_account(struct xfs_inode *xi)
{
	struct xfs_fs *x = xi->fs->priv;

	x->dl_blocks += xi->map.blocks[WBSIM_EXT_DELALLOC] - xi->dl_blocks_seen;
	x->dl_extents += xi->map.extents[WBSIM_EXT_DELALLOC] - xi->dl_extents_seen;
	xi->dl_blocks_seen = xi->map.blocks[WBSIM_EXT_DELALLOC];
	xi->dl_extents_seen = xi->map.extents[WBSIM_EXT_DELALLOC];
}

/*
 * Models xfs_bmap_worst_indlen(): the bmbt blocks a delalloc extent of
 * @len blocks may need once allocated, were each of its blocks to become an
 * extent of its own: a leaf per bmap_recs records, a node per bmap_recs of
 * those (a bmbt key and pointer take a record's 16 bytes), and one block
 * for each level above the first that holds them all. With 4 KiB blocks, 5
 * for any extent up to 251 blocks: six blocks held for a lone 4 KiB write.
 */
static uint64_t xfs_bmap_worst_indlen(const struct xfs_fs *x, uint64_t len)
{
	uint64_t rval = 0;

	for (unsigned int level = 0; level < x->bmap_maxlevels; level++) {
		len = (len + x->bmap_recs - 1) / x->bmap_recs;
		rval += len;
		if (len == 1)
			return rval + x->bmap_maxlevels - level - 1;
	}
	return rval;
}

/*
 * The free-block counter a reservation may take from (m_fdblocks above the
 * set-aside, where xfs_dec_fdblocks() fails with ENOSPC): the AGs' free
 * blocks less the delalloc reservations (their blocks and their worst-case
 * indirect blocks, xfs_bmapi_reserve_delalloc) and what mount holds back
 * (@unavailable). A delalloc record of len blocks holds
 * xfs_bmap_worst_indlen(len) = 1 + (len - 1) / bmap_recs + maxlevels - 1
 * blocks (below bmap_recs^2 blocks), summed here over the records from
 * their number and total length: exact for records up to bmap_recs blocks,
 * the one-block records of writes at random, within a block per record
 * above (the kernel keeps min(worst case, sum of the parts) when records
 * merge: the merged record's worst case). Lab (lab/studies/xfs-alloc/summary.txt):
 * 20,480 writes at random into a sparse file, 18,180 records, took
 * 111,392 blocks of statfs's free count; this counts 111,380.
 */
static uint64_t xfs_fdblocks(wbsim_fs *fs)
{
	struct xfs_fs *x = fs->priv;
	uint64_t held = x->dl_blocks + x->dl_extents * x->bmap_maxlevels +
			(x->dl_blocks - x->dl_extents) / x->bmap_recs + x->unavailable;
	uint64_t free = xfs_free(fs);

	return free > held ? free - held : 0;
}

static unsigned int log2_ceil(uint64_t v)
{
	unsigned int l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

/* xfs_write()'s seek of the data fork is the miss of a write at random:
 * start loading its leaf. */
static void xfs_prefetch_write(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first)
{
	struct xfs_inode *xi = inode->priv;

	(void)fs;
	wbsim_emap_prefetch(&xi->map, first);
}

static gboolean xfs_init(wbsim_fs *fs, GError **error)
{
	struct xfs_params *p = fs->params;
	struct xfs_fs *x;
	uint64_t nr_blocks, agblocks, log_blocks, log_ag, start;

	if ((p->block_size & (p->block_size - 1)) || p->inode_size > p->block_size) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "xfs option block_size: %" G_GUINT64_FORMAT " is not a power of two "
			    "of at least inode_size", p->block_size);
		return FALSE;
	}
	wbsim_fs_set_block_size(fs, p->block_size);
	fs->prefetch_write = xfs_prefetch_write;
	/* xfs_inode_alloc(): mapping_set_folio_min_order(VFS_I(ip)->i_mapping,
	 * M_IGEO(mp)->min_folio_order): large folios up to
	 * MAX_PAGECACHE_ORDER, a PMD (2 MiB) on x86-64 */
	wbsim_fs_set_max_folio_size(fs, UINT64_C(2) << 20);
	nr_blocks = fs->dev_bytes / p->block_size;
	agblocks = p->agsize ? p->agsize / p->block_size : nr_blocks / p->agcount;
	/* three different mistakes, said apart (issue 21: one message for all) */
	if (agblocks < 64 * XFS_AG_META_BLOCKS) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "xfs option agsize: AGs of %" G_GUINT64_FORMAT " blocks (agcount %"
			    G_GUINT64_FORMAT " on a device of %" G_GUINT64_FORMAT " blocks) are too "
			    "small: expected AGs of at least %u blocks (fewer AGs or a larger device)",
			    agblocks, p->agcount, nr_blocks, 64 * XFS_AG_META_BLOCKS);
		return FALSE;
	}
	if (agblocks > (1ull << 31)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "xfs option agsize: AGs of %" G_GUINT64_FORMAT " blocks (agcount %"
			    G_GUINT64_FORMAT " on a device of %" G_GUINT64_FORMAT " blocks) are too "
			    "large: expected AGs of at most 2^31 blocks (more AGs)",
			    agblocks, p->agcount, nr_blocks);
		return FALSE;
	}
	if (agblocks * p->agcount > nr_blocks) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "xfs option agsize: %" G_GUINT64_FORMAT " blocks x agcount %"
			    G_GUINT64_FORMAT " does not fit a device of %" G_GUINT64_FORMAT
			    " blocks: expected AGs that fit together", agblocks, p->agcount, nr_blocks);
		return FALSE;
	}
	x = g_new0(struct xfs_fs, 1);
	x->agcount = p->agcount;
	x->agblocks = agblocks;
	x->agblklog = log2_ceil(agblocks);
	x->inopblog = log2_ceil(p->block_size / p->inode_size);
	x->max_extent = p->max_extent;
	x->dblocks = nr_blocks;
	x->bmap_maxlevels = wbsim_xfs_bmap_maxlevels(p->block_size);
	x->bmap_recs = WBSIM_XFS_BMBT_RECS(p->block_size);
	/* mount: the reserve pool (xfs_default_resblks: 5%, at most 8192
	 * blocks), the set-aside (xfs_alloc_set_aside: 4 blocks and the AGFL
	 * reserve of 4 per AG) and the per-AG metadata reservations (lab,
	 * statfs after mkfs.xfs on 4 GiB: 1,016,730 free blocks with 4 AGs,
	 * 1,016,539 with 16; this counts 1,016,564 and 1,016,232) */
	x->unavailable = MIN(nr_blocks / 20, 8192) +
			 x->agcount * (8 + wbsim_xfs_ag_resv_blocks(agblocks, p->block_size,
								     p->inode_size, p->reflink));
	x->ags = g_new0(struct xfs_ag, x->agcount);
	wbsim_ioend_cache_init(&x->ioends);
	for (uint64_t i = 0; i < x->agcount; i++) {
		struct xfs_ag *ag = &x->ags[i];
		g_autofree char *name = g_strdup_printf("xfs-ag-%" G_GUINT64_FORMAT, i);

		wbsim_freespace_init(&ag->free, i * agblocks, agblocks);
		wbsim_freespace_take(&ag->free, i * agblocks, XFS_AG_META_BLOCKS);
		wbsim_lock_init(&ag->lock, fs->sim, name);
		wbsim_fs_add_lock(fs, &ag->lock);
	}
	wbsim_lock_init(&x->ilock_sum, fs->sim, "xfs-ilock");
	wbsim_fs_add_lock(fs, &x->ilock_sum);
	/* the internal log, in the middle AG as mkfs.xfs places it */
	log_blocks = p->log_size ? p->log_size / p->block_size :
		     CLAMP(nr_blocks / 2048, (64ull << 20) / p->block_size,
			   (2ull << 30) / p->block_size);
	log_blocks = MIN(log_blocks, agblocks / 2);
	log_ag = x->agcount / 2;
	if (wbsim_freespace_first_fit(&x->ags[log_ag].free, log_ag * agblocks, log_blocks,
				      1, &start))
		wbsim_freespace_take(&x->ags[log_ag].free, start, log_blocks);
	fs->priv = x;
	wbsim_fs_set_free_fn(fs, xfs_free);
	return TRUE;
}

static void xfs_exit(wbsim_fs *fs)
{
	struct xfs_fs *x = fs->priv;

	if (!x)
		return;
	for (uint64_t i = 0; i < x->agcount; i++) {
		wbsim_freespace_clear(&x->ags[i].free);
		wbsim_lock_clear(&x->ags[i].lock);
	}
	wbsim_lock_clear(&x->ilock_sum);
	wbsim_ioend_cache_clear(&x->ioends);
	g_free(x->ags);
	g_free(x);
}

/* xfs_dialloc, simplified: a slot in the AG's current 64-inode chunk. */
static uint64_t xfs_inode_init(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct xfs_fs *x = fs->priv;
	struct xfs_params *p = fs->params;
	struct xfs_inode *xi = g_new0(struct xfs_inode, 1);
	uint64_t chunk_blocks = XFS_INODES_PER_CHUNK * p->inode_size / p->block_size;
	uint64_t agno, slot, agbno;

	wbsim_emap_init(&xi->map, x->max_extent, x->max_extent, x->max_extent);
	wbsim_lock_init(&xi->ilock, fs->sim, "xfs-ilock");
	/* xfs_inode.i_lock is an rw_semaphore: a writer spins on the holder
	 * (a writer on its CPU, or readers, for the reader spin threshold)
	 * and sleeps otherwise */
	wbsim_lock_set_rwsem(&xi->ilock, fs->cpus, fs->rwsem_sleep_ns, fs->rwsem_wake_ns);
	xi->fs = fs;
	xi->inode = inode;
	inode->priv = xi;
	if (!inode->parent)
		agno = 0;
	else if (inode->is_dir)
		agno = x->agirotor++ % x->agcount;	/* xfs_ialloc_next_ag() */
	else
		agno = inode->parent->group;
	for (uint64_t tries = 0; tries < x->agcount; tries++) {
		struct xfs_ag *ag = &x->ags[agno];

		if (!ag->has_chunk || ag->chunk_used == XFS_INODES_PER_CHUNK) {
			uint64_t from = ag->has_chunk ? agno * x->agblocks + ag->chunk_agbno +
						chunk_blocks : agno * x->agblocks;
			uint64_t start;

			if (!wbsim_freespace_first_fit(&ag->free, from, chunk_blocks,
						       chunk_blocks, &start) &&
			    !wbsim_freespace_first_fit(&ag->free, agno * x->agblocks,
						       chunk_blocks, chunk_blocks, &start)) {
				agno = (agno + 1) % x->agcount;
				continue;
			}
			wbsim_freespace_take(&ag->free, start, chunk_blocks);
			ag->has_chunk = TRUE;
			ag->chunk_agbno = start - agno * x->agblocks;
			ag->chunk_used = 0;
		}
		break;
	}
	slot = x->ags[agno].chunk_used++;
	agbno = x->ags[agno].chunk_agbno + (slot >> x->inopblog);
	inode->group = agno;
	xi->home = agno * x->agblocks + agbno;
	return (agno << (x->agblklog + x->inopblog)) | (agbno << x->inopblog) |
	       (slot & ((1u << x->inopblog) - 1));
}

static void xfs_inode_exit(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct xfs_inode *xi = inode->priv;
	struct xfs_fs *x = fs->priv;

	x->dl_blocks -= xi->dl_blocks_seen;
	x->dl_extents -= xi->dl_extents_seen;
	wbsim_emap_clear(&xi->map);
	wbsim_lock_clear(&xi->ilock);
	/* ioends still waiting when the simulation stopped */
	wbsim_ioend_queue_free(&xi->ioends);
	g_free(xi);
}

/* ------------------------------------------------------------------------ */
/* The ILOCK (xfs_ilock / xfs_iunlock: XFS_ILOCK_SHARED or XFS_ILOCK_EXCL)   */

/* Add what @xi's ILOCK counted since last time to the filesystem's sum. */
static void xfs_ilock_account(struct xfs_inode *xi)
{
	struct xfs_fs *x = xi->fs->priv;
	wbsim_lock *l = &xi->ilock, *sum = &x->ilock_sum;
	struct xfs_ilock_seen *seen = &xi->ilock_seen;

	sum->acquisitions += l->acquisitions - seen->acquisitions;
	sum->contended += l->contended - seen->contended;
	sum->hold_ns += l->hold_ns - seen->hold_ns;
	sum->wait_ns += l->wait_ns - seen->wait_ns;
	sum->max_wait_ns = MAX(sum->max_wait_ns, l->max_wait_ns);
	seen->acquisitions = l->acquisitions;
	seen->contended = l->contended;
	seen->hold_ns = l->hold_ns;
	seen->wait_ns = l->wait_ns;
}

static void xfs_iunlock(struct xfs_inode *xi, wbsim_task *task, gboolean excl)
{
	if (excl)
		wbsim_lock_release(&xi->ilock, task);
	else
		wbsim_lock_release_shared(&xi->ilock, task);
	xfs_ilock_account(xi);
}

/*
 * write_lock hook: xfs_buffered_write_iomap_begin() starts with
 * "lockmode = XFS_ILOCK_EXCL" and xfs_ilock_for_iomap() keeps it: every
 * buffered write takes the ILOCK exclusively, an overwrite of a written or
 * unwritten extent as much as a delalloc reservation.
 */
static void xfs_write_lock(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			   wbsim_event_fn done, void *arg)
{
	struct xfs_inode *xi = inode->priv;

	(void)fs;
	wbsim_lock_acquire(&xi->ilock, task, done, arg);
}

/* Models xfs_ilock_nowait(XFS_ILOCK_EXCL) failing: the ILOCK is held */
static gboolean xfs_write_lock_busy(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct xfs_inode *xi = inode->priv;

	(void)fs;
	return wbsim_lock_held(&xi->ilock);
}

static void xfs_write_unlock(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task)
{
	(void)fs;
	xfs_iunlock(inode->priv, task, TRUE);
}

/* Return the blocks of [lblk, lblk+len) that are real to their AGs and unmap all. */
static void xfs_bunmapi(wbsim_fs *fs, struct xfs_inode *xi, uint64_t lblk, uint64_t len)
{
	struct xfs_fs *x = fs->priv;
	struct wbsim_emap_cursor cur;
	uint64_t end = lblk + len;

	for (struct wbsim_extent *e = wbsim_emap_seek(&xi->map, lblk, &cur);
	     e && e->lblk < end; e = wbsim_emap_next(&xi->map, &cur)) {
		uint64_t s = MAX(e->lblk, lblk), t = MIN(wbsim_ext_end(e), end);

		if (e->state != WBSIM_EXT_DELALLOC) {
			uint64_t pb = e->pblk + (s - e->lblk);

			uint64_t n = t - s;

			/* per AG: two AGs' extents may be physically adjacent */
			while (n) {
				uint64_t ag = xfs_agno(x, pb);
				uint64_t k = MIN(n, x->ags[ag].free.base + x->ags[ag].free.size - pb);

				wbsim_freespace_give(&x->ags[ag].free, pb, k);
				pb += k;
				n -= k;
			}
		}
	}
	wbsim_emap_punch(&xi->map, lblk, len);
	xfs_delalloc_account(xi);
}

/*
 * Holes of [first, first+nr) become delalloc. @e is what the caller's
 * wbsim_emap_seek() for @first returned (the map unchanged since): both
 * callers have just made that seek, so the first one here is saved.
 */
static void xfs_reserve_delalloc(struct xfs_inode *xi, uint64_t first, uint64_t nr,
				 struct wbsim_extent *e)
{
	uint64_t pos = first, end = first + nr;
	struct wbsim_emap_cursor cur;

	while (pos < end) {
		uint64_t hole_end;

		if (pos != first)
			e = wbsim_emap_seek(&xi->map, pos, &cur);
		if (e && e->lblk <= pos) {
			pos = wbsim_ext_end(e);
			continue;
		}
		hole_end = e ? MIN(e->lblk, end) : end;
		wbsim_emap_fill_hole(&xi->map, pos, hole_end - pos, WBSIM_EXT_DELALLOC, 0);
		pos = hole_end;
	}
	xfs_delalloc_account(xi);
}

static uint64_t rounddown_pow2(uint64_t v)
{
	uint64_t r = 1;

	while (r <= v / 2)
		r <<= 1;
	return v ? r : 0;
}

/*
 * Models xfs_iomap_prealloc_size(), its throttling as free space runs low
 * included (the m_low_space thresholds at 1..5% of the data blocks: a
 * quarter below 5%, halved again below each lower percent; then cut by 16
 * while it is not below the free blocks); leaves out quota throttling.
 */
static uint64_t xfs_iomap_prealloc_size(wbsim_fs *fs, struct xfs_inode *xi, uint64_t old_size,
				    uint64_t first)
{
	struct xfs_params *p = fs->params;
	struct xfs_fs *x = fs->priv;
	uint64_t allocsize = p->allocsize / p->block_size;
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *prev, *got;
	uint64_t plen, alloc, freesp;

	if (old_size < p->allocsize)
		return 0;
	prev = wbsim_emap_last(&xi->map, &cur);
	if (!prev || wbsim_ext_end(prev) < first)
		return allocsize;
	/* the contiguous run of extents before the write */
	plen = prev->len;
	while ((got = wbsim_emap_prev(&xi->map, &cur)) != NULL) {
		if (plen > x->max_extent / 2 || got->state == WBSIM_EXT_DELALLOC ||
		    prev->state == WBSIM_EXT_DELALLOC || wbsim_ext_end(got) != prev->lblk ||
		    got->pblk + got->len != prev->pblk)
			break;
		plen += got->len;
		prev = got;
	}
	alloc = plen * 2;
	if (alloc > x->max_extent)
		alloc = first;
	alloc = MIN(alloc, 1ull << 21);
	freesp = xfs_fdblocks(fs);
	if (freesp < x->dblocks / 100 * 5) {
		unsigned int shift = 2;

		for (unsigned int pct = 4; pct >= 1; pct--)
			if (freesp < x->dblocks / 100 * pct)
				shift++;
		alloc >>= shift;
	}
	alloc = rounddown_pow2(alloc);
	alloc = MIN(alloc, x->max_extent);
	while (alloc && alloc >= freesp)
		alloc >>= 4;
	return MAX(alloc, allocsize);
}

/*
 * The descent of xfs_iext_lookup_extent() below the first level of @xi's
 * in-core extent tree (delalloc records included, as in the kernel's).
 */
static wbsim_time_t xfs_iext_lookup_cost(const struct xfs_params *p, const struct xfs_inode *xi)
{
	unsigned int h = wbsim_xfs_iext_height(wbsim_emap_count(&xi->map));

	return h > 1 ? (h - 1) * p->iext_level_ns : 0;
}

/* The levels of @xi's bmbt: its written and unwritten extents. */
static unsigned int xfs_inode_bmbt_levels(const struct xfs_params *p, const struct xfs_inode *xi)
{
	uint64_t real = wbsim_emap_count(&xi->map) - xi->map.extents[WBSIM_EXT_DELALLOC];

	return wbsim_xfs_bmbt_levels(real, p->block_size, p->inode_size);
}

/*
 * What formatting @xi into a transaction's log item costs beyond the
 * transaction (xfs_inode_item_format at the commit): while the data fork
 * is in extents format (its written and unwritten extents fit in the
 * inode: no bmbt) and holds any, the logged extent list is copied out of
 * the in-core tree by a walk of every record, the delalloc ones included
 * (xfs_iextents_copy skips those but steps over them). A file filled by
 * random writes holds thousands of delalloc records behind its first real
 * extents, and every transaction on it walks them all until the fork
 * becomes a btree (lab/studies/uring-retries/idle-v1045: 90% of the timestamp
 * updates' CPU in E2). The walk scans leaves as a lookup does:
 * iext_level_ns per leaf of records.
 */
static wbsim_time_t xfs_inode_item_format_cost(const struct xfs_params *p,
						const struct xfs_inode *xi)
{
	uint64_t all = wbsim_emap_count(&xi->map);
	uint64_t real = all - xi->map.extents[WBSIM_EXT_DELALLOC];

	if (!real || xfs_inode_bmbt_levels(p, xi) > 0)
		return 0;
	return all * p->iext_level_ns / WBSIM_XFS_IEXT_RECS_PER_LEAF;
}

/*
 * Models xfs_vn_update_time(): a tr_fsyncts transaction under ILOCK_EXCL
 * (the caller holds the write lock, which is the ILOCK) that logs the
 * timestamps, and the inode's format at its commit.
 */
static wbsim_time_t xfs_update_time(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	const struct xfs_params *p = fs->params;

	return p->update_time_ns + xfs_inode_item_format_cost(p, inode->priv);
}

/*
 * Btree lookups (xfs_btree_lookup, each descending every level) of a small
 * allocation carved from inside a free extent, as the kernel makes them:
 * xfs_alloc_ag_vextent_near positions a cursor in the cntbt
 * (xfs_alloc_lookup_ge) and the bnobt (xfs_alloc_lookup_le);
 * xfs_alloc_fixup_trees finds the chosen record again in each
 * (xfs_alloc_lookup_eq), deletes it from the cntbt and inserts the two
 * pieces left (a lookup before each xfs_btree_insert), updates it in the
 * bnobt and inserts the second piece there; xfs_bmap_add_extent_delay_real
 * finds the place of the new record in the bmbt (xfs_bmbt_lookup_eq). An
 * unwritten conversion (xfs_bmap_add_extent_unwritten_real) looks its
 * record up once.
 */
#define XFS_ALLOC_CNTBT_LOOKUPS 4
#define XFS_ALLOC_BNOBT_LOOKUPS 3
#define XFS_ALLOC_BMBT_LOOKUPS 1
#define XFS_CONVERT_BMBT_LOOKUPS 1

/*
 * The CPU of one allocation from @free into @xi: the transaction, and the
 * lookups in the bnobt and cntbt (both hold the AG's free extents, so both
 * have its levels) and in the file's bmbt.
 */
static wbsim_time_t xfs_alloc_cost(const struct xfs_params *p, const struct xfs_inode *xi,
				   struct wbsim_freespace *free)
{
	unsigned int allocbt = wbsim_xfs_allocbt_levels(wbsim_freespace_nr_extents(free),
							 p->block_size);
	unsigned int levels = (XFS_ALLOC_CNTBT_LOOKUPS + XFS_ALLOC_BNOBT_LOOKUPS) * allocbt +
			      XFS_ALLOC_BMBT_LOOKUPS * xfs_inode_bmbt_levels(p, xi);

	return p->alloc_ns + levels * p->btree_level_ns + xfs_inode_item_format_cost(p, xi);
}

static uint64_t xfs_alloc_unwritten_now(wbsim_fs *fs, struct xfs_inode *xi, uint64_t lblk,
				       uint64_t want, wbsim_time_t *cost);

/*
 * Models xfs_file_write_zero_eof(): a write that starts beyond EOF first
 * zeroes [old EOF, write) (xfs_zero_range -> iomap_zero_range with
 * xfs_buffered_write_iomap_begin(IOMAP_ZERO)). Holes and unwritten
 * extents there read as zeroes already; a delalloc extent reaching beyond
 * EOF (the speculative preallocation of the last write that extended the
 * file) is converted to an unwritten extent by the writer, whole, from its
 * start (xfs_bmapi_convert_delalloc: "xfs: convert delayed extents to
 * unwritten when zeroing post eof blocks", in the lab's 6.18), so that
 * the blocks past EOF are never written without zeroes. Each such write
 * splits the file's delalloc at EOF, and the writeback that converts the
 * delalloc between two of them allocates one extent per stretch: a file
 * written at random ends with two extents per extending write that found
 * preallocation (lab: 17 for every E6 file, fio's offsets extending a
 * 256 MiB, 1 GiB or 2 GiB file the same 9 times; lab/README.md).
 * Partial-block zeroing (block-aligned writes in every workload) is left out.
 */
static wbsim_time_t xfs_zero_eof(wbsim_fs *fs, struct xfs_inode *xi, uint64_t old_size,
				 uint64_t first)
{
	uint64_t pos = (old_size + fs->block_size - 1) / fs->block_size;
	wbsim_time_t cost = 0;

	while (pos < first) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *e = wbsim_emap_seek(&xi->map, pos, &cur);
		uint64_t lblk, len;

		if (!e || e->lblk >= first)
			break;
		if (e->lblk > pos) {		/* a hole: nothing to zero */
			pos = e->lblk;
			continue;
		}
		if (e->state != WBSIM_EXT_DELALLOC) {	/* reads as zeroes already */
			pos = wbsim_ext_end(e);
			continue;
		}
		/* the whole delalloc extent, piece by piece if free space is split */
		lblk = e->lblk;
		len = xfs_alloc_unwritten_now(fs, xi, lblk, e->len, &cost);
		if (!len)
			break;	/* no space: left delalloc (ENOSPC is not modelled here) */
		pos = MAX(pos, lblk + len);
	}
	return cost;
}

/* Blocks of [first, first+nr) that no extent maps: what a write there reserves. */
static uint64_t xfs_hole_blocks(struct xfs_inode *xi, uint64_t first, uint64_t nr)
{
	uint64_t pos = first, end = first + nr, holes = 0;

	while (pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *e = wbsim_emap_seek(&xi->map, pos, &cur);

		if (!e || e->lblk >= end)
			return holes + (end - pos);
		if (e->lblk > pos)
			holes += e->lblk - pos;
		pos = wbsim_ext_end(e);
	}
	return holes;
}

/* Would xfs_bmapi_reserve_delalloc() get @holes blocks and their indirect
 * blocks from the free-block counter? */
static gboolean xfs_delalloc_fits(wbsim_fs *fs, uint64_t holes)
{
	return !holes || xfs_fdblocks(fs) >= holes + xfs_bmap_worst_indlen(fs->priv, holes);
}

/*
 * write_space hook: does the delalloc reservation of a write of [first,
 * first+nr) fit, without its preallocation (which the kernel drops first,
 * retrying without it)? FALSE: iomap_begin fails with ENOSPC, and the
 * caller does what xfs_file_buffered_write() does (flush, blockgc, retry).
 */
static gboolean xfs_write_space(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first, uint64_t nr)
{
	return xfs_delalloc_fits(fs, xfs_hole_blocks(inode->priv, first, nr));
}

static void xfs_free_eofblocks(wbsim_fs *fs, wbsim_fs_inode *inode);

/* free_space hook, xfs_blockgc_free_space(): every file's blocks past EOF
 * (its speculative preallocation) are freed (xfs_inode_free_eofblocks). */
static void xfs_blockgc_free_space(wbsim_fs *fs)
{
	for (guint i = 0; i < fs->inodes->len; i++) {
		wbsim_fs_inode *inode = g_ptr_array_index(fs->inodes, i);

		if (!inode->is_dir)
			xfs_free_eofblocks(fs, inode);
	}
}

/*
 * Models xfs_buffered_write_iomap_begin(); leaves out CoW forks and extent
 * size hints. Its CPU: the lookup (deeper as the in-core extent tree
 * grows), the zeroing beyond EOF of a write that starts past it
 * (xfs_zero_eof), and a delalloc reservation when the write is into a hole.
 */
static wbsim_time_t xfs_write(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
			      uint64_t nr, uint64_t new_size)
{
	struct xfs_params *p = fs->params;
	struct xfs_inode *xi = inode->priv;
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *e = wbsim_emap_seek(&xi->map, first, &cur);
	uint64_t prealloc = 0, delalloc_before;
	wbsim_time_t cost = xfs_iext_lookup_cost(p, xi);

	if (first * fs->block_size > inode->size) {
		cost += xfs_zero_eof(fs, xi, inode->size, first);
		e = wbsim_emap_seek(&xi->map, first, &cur);
	}
	delalloc_before = xi->map.blocks[WBSIM_EXT_DELALLOC];
	/* xfs_iomap_prealloc_size() only reads the map: @e stays valid */
	if (p->prealloc && !e && new_size > inode->size) {
		uint64_t align = MAX(p->allocsize / p->block_size, 1);
		uint64_t p_end;

		prealloc = xfs_iomap_prealloc_size(fs, xi, inode->size, first);
		/* the preallocation ends @prealloc blocks past the allocsize
		 * boundary at or below the write's last byte (XFS_ALLOC_ALIGN) */
		p_end = (first + nr - 1) / align * align + prealloc;
		prealloc = p_end > first + nr ? p_end - (first + nr) : 0;
		/* -ENOSPC with preallocation: the reservation is retried without
		 * it (no extent at or after @first: the write's blocks are holes) */
		if (prealloc && !xfs_delalloc_fits(fs, nr + prealloc))
			prealloc = 0;
	}
	xfs_reserve_delalloc(xi, first, nr + prealloc, e);
	/* a hole was reserved: xfs_bmapi_reserve_delalloc() ran */
	if (xi->map.blocks[WBSIM_EXT_DELALLOC] != delalloc_before)
		cost += p->delalloc_ns;
	return p->write_ns + cost;
}

/* ------------------------------------------------------------------------ */
/* Writeback mapping                                                        */

struct xfs_call {
	struct wbsim_fs_map_call mc;	/* first: the state it shares with the other models */
	struct xfs_ag *ag;	/* AG whose lock is held */
	uint64_t goal;
	uint64_t dlblk, dlen;	/* the delalloc extent being converted */
	uint64_t minlen;	/* xfs_bmap_select_minlen() of this allocation */
	gboolean ilocked;	/* holds the ILOCK exclusively (the allocation transaction) */
};

static void xfs_call_finish(struct xfs_call *c, GError *error)
{
	struct xfs_inode *xi = c->mc.inode->priv;

	if (c->ilocked) {
		c->ilocked = FALSE;
		xfs_iunlock(xi, c->mc.task, TRUE);
	}

	wbsim_fs_map_call_finish(&c->mc, "xfs", &xi->map, error);
}

/*
 * Models xfs_bmap_adjacent(): the goal block; leaves out the rtdev and
 * filestreams cases. The logical gap to the neighbour is kept in the goal
 * only while it is at most XFS_ALLOC_GAP_UNITS times the allocation's
 * length; a larger gap puts the goal just past the previous extent (just
 * before the next one), so short allocations far apart in the file land
 * next to each other on disk (lab: E6's zero-EOF allocations of 2 to 13
 * blocks, thousands of blocks apart in the file, sit in AG 0's first free
 * blocks one after another; lab/studies/xfs-alloc).
 */
static uint64_t xfs_bmap_adjacent(struct xfs_fs *x, struct xfs_inode *xi, uint64_t lblk,
				  uint64_t len)
{
	struct wbsim_extent *left = wbsim_emap_prev_of(&xi->map, lblk);
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *right = wbsim_emap_seek(&xi->map, lblk + len, &cur);
	gboolean have_prev = left && left->state != WBSIM_EXT_DELALLOC;
	gboolean have_next = right && right->state != WBSIM_EXT_DELALLOC;
	uint64_t prevbno = 0, gotbno = 0, prevdiff = G_MAXUINT64, gotdiff = G_MAXUINT64;

	if (have_prev) {
		uint64_t last = left->pblk + left->len - 1;
		uint64_t gap = lblk - wbsim_ext_end(left);

		prevbno = last + 1;
		/* keep a small logical gap if it stays inside the same AG */
		if (gap && gap <= XFS_ALLOC_GAP_UNITS * len &&
		    xfs_agno(x, last + 1 + gap) == xfs_agno(x, last) &&
		    last + 1 + gap < x->agcount * x->agblocks)
			prevbno += gap;
		prevdiff = gap;
	}
	if (have_next) {
		uint64_t gap = right->lblk - (lblk + len);

		if (gap <= XFS_ALLOC_GAP_UNITS * len && right->pblk >= gap + len &&
		    xfs_agno(x, right->pblk - gap - len) == xfs_agno(x, right->pblk))
			gotbno = right->pblk - gap - len;
		else if (right->pblk >= len &&
			 xfs_agno(x, right->pblk - len) == xfs_agno(x, right->pblk))
			gotbno = right->pblk - len;
		else
			gotbno = right->pblk;
		gotdiff = gap;
	}
	if (have_prev && (!have_next || prevdiff <= gotdiff))
		return prevbno;
	if (have_next)
		return gotbno;
	return xi->home;
}

/*
 * Models xfs_bmap_btalloc_select_lengths() with xfs_bmap_select_minlen():
 * the allocation's minimum length is the longest free extent of any AG,
 * at most the wanted length; the allocation then goes to the first AG
 * from the goal's whose longest free extent is that long
 * (xfs_alloc_space_available()), rather than splitting the extent in the
 * goal's AG (lab: a 1,877-block stretch that AG 0 could not hold whole
 * went to AG 1 in one piece; lab/studies/xfs-alloc). Leaves out the
 * trylock of that scan (the AGs' longest extents are read unlocked here).
 */
static uint64_t xfs_bmap_select_minlen(struct xfs_fs *x, uint64_t want)
{
	uint64_t blen = 0;

	for (uint64_t a = 0; a < x->agcount; a++)
		blen = MAX(blen, wbsim_freespace_longest(&x->ags[a].free));
	return MIN(blen, want);
}

/* Models xfs_alloc_space_available()'s test of the AG's longest free extent. */
static gboolean xfs_ag_space_available(struct xfs_ag *ag, uint64_t minlen)
{
	return ag->free.free && wbsim_freespace_longest(&ag->free) >= minlen;
}

static void xfs_convert_next(struct xfs_call *c);

static void xfs_alloc_done(wbsim_sim *sim, void *arg)
{
	struct xfs_call *c = arg;

	wbsim_lock_release(&c->ag->lock, c->mc.task);
	c->ag = NULL;
	/* the transaction commits: xfs_bmapi_convert_delalloc() drops the ILOCK */
	c->ilocked = FALSE;
	xfs_iunlock(c->mc.inode->priv, c->mc.task, TRUE);
	xfs_convert_next(c);
}

/* The AGF lock of c->ag is held: allocate in it (xfs_alloc_ag_vextent_*). */
static void xfs_alloc_granted(wbsim_sim *sim, void *arg)
{
	struct xfs_call *c = arg;
	wbsim_fs *fs = c->mc.fs;
	struct xfs_fs *x = fs->priv;
	struct xfs_params *p = fs->params;
	struct xfs_inode *xi = c->mc.inode->priv;
	struct xfs_ag *ag = c->ag;
	uint64_t agno = (uint64_t)(ag - x->ags);
	uint64_t want = MIN(c->dlen, x->max_extent);
	uint64_t goal = xfs_agno(x, c->goal) == agno ? c->goal : agno * x->agblocks;
	uint64_t start, len;
	wbsim_time_t cost;

	len = xfs_ag_space_available(ag, c->minlen) ?
		      wbsim_freespace_near(&ag->free, goal, want, &start) : 0;
	if (!len) {
		/* the AG filled up while we waited: try again from the top */
		wbsim_lock_release(&ag->lock, c->mc.task);
		c->ag = NULL;
		xfs_convert_next(c);
		return;
	}
	len = MIN(len, want);
	cost = xfs_alloc_cost(p, xi, &ag->free);
	wbsim_freespace_take(&ag->free, start, len);
	wbsim_emap_set(&xi->map, c->dlblk, len, WBSIM_EXT_UNWRITTEN, start);
	xfs_delalloc_account(xi);
	wbsim_fs_map_call_new_range(&c->mc, c->dlblk, len);
	wbsim_cpus_run(fs->cpus, c->mc.task, cost, xfs_alloc_done, c);
}

/* Models xfs_alloc_vextent_start_ag(): goal AG, or with trylock the next unlocked AG; no AGFL fixing. */
static void xfs_alloc_vextent_start_ag(struct xfs_call *c)
{
	struct xfs_fs *x = c->mc.fs->priv;
	struct xfs_params *p = c->mc.fs->params;
	uint64_t g = xfs_agno(x, c->goal);
	struct xfs_ag *wait_on = NULL;

	for (uint64_t i = 0; i < x->agcount; i++) {
		struct xfs_ag *ag = &x->ags[(g + i) % x->agcount];

		if (!xfs_ag_space_available(ag, c->minlen))
			continue;
		if (!wait_on)
			wait_on = ag;
		if (!p->ag_trylock)
			break;
		if (!wbsim_lock_owner(&ag->lock)) {
			wait_on = ag;
			break;
		}
	}
	if (!wait_on) {
		GError *error = NULL;

		g_set_error(&error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
			    "xfs: no space left for inode %" G_GUINT64_FORMAT, c->mc.inode->ino);
		xfs_call_finish(c, error);
		return;
	}
	c->ag = wait_on;
	wbsim_lock_acquire(&wait_on->lock, c->mc.task, xfs_alloc_granted, c);
}

/*
 * Models xfs_convert_blocks() looping on xfs_bmapi_convert_delalloc(): the
 * whole delalloc extent holding the next unmapped block is converted; leaves
 * out the CoW fork and the sequence-number revalidation.
 */
static void xfs_convert_locked(wbsim_sim *sim, void *arg);

/* The writepages call's cached mapping becomes the real extent holding
 * @lblk, as mapped with the data fork's sequence now (wpc->iomap and
 * wpc->data_seq after xfs_map_blocks()). */
static void xfs_wpc_remember(struct xfs_inode *xi, const wbsim_task *task, uint64_t lblk)
{
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *e = wbsim_emap_seek(&xi->map, lblk, &cur);

	xi->wpc_end = 0;
	if (!e || e->lblk > lblk || e->state == WBSIM_EXT_DELALLOC)
		return;
	xi->wpc_task = task;
	xi->wpc_lblk = e->lblk;
	xi->wpc_end = wbsim_ext_end(e);
	xi->wpc_seq = xi->map.seq;
}

/* Models xfs_imap_valid(): the cached mapping covers [@first, @first + @nr)
 * and the data fork has not changed since (no delalloc reserved, nothing
 * allocated, converted or punched): no ILOCK, no lookup. */
static gboolean xfs_imap_valid(const struct xfs_inode *xi, const wbsim_task *task,
			       uint64_t first, uint64_t nr)
{
	return xi->wpc_end && xi->wpc_task == task && xi->wpc_seq == xi->map.seq &&
	       first >= xi->wpc_lblk && first + nr <= xi->wpc_end;
}

static void xfs_convert_next(struct xfs_call *c)
{
	struct xfs_inode *xi = c->mc.inode->priv;
	struct xfs_fs *x = c->mc.fs->priv;
	uint64_t end = c->mc.first + c->mc.nr;
	struct wbsim_emap_cursor cur;

	while (c->mc.pos < end) {
		struct wbsim_extent *e = wbsim_emap_seek(&xi->map, c->mc.pos, &cur);

		if (!e || e->lblk > c->mc.pos) {
			/* a dirty block without a reservation: reserve it now */
			xfs_reserve_delalloc(xi, c->mc.pos, (e ? MIN(e->lblk, end) : end) - c->mc.pos, e);
			continue;
		}
		if (e->state != WBSIM_EXT_DELALLOC) {
			c->mc.pos = wbsim_ext_end(e);
			continue;
		}
		if (!c->ilocked) {
			/* xfs_trans_alloc_inode(): the transaction takes ILOCK_EXCL;
			 * look again once it is held */
			c->ilocked = TRUE;
			wbsim_lock_acquire(&xi->ilock, c->mc.task, xfs_convert_locked, c);
			return;
		}
		c->dlblk = e->lblk;
		c->dlen = e->len;
		c->goal = xfs_bmap_adjacent(x, xi, c->dlblk, MIN(c->dlen, x->max_extent));
		c->minlen = xfs_bmap_select_minlen(x, MIN(c->dlen, x->max_extent));
		xfs_alloc_vextent_start_ag(c);
		return;
	}
	xfs_wpc_remember(xi, c->mc.task, end - 1);
	xfs_call_finish(c, NULL);
}

static void xfs_convert_locked(wbsim_sim *sim, void *arg)
{
	(void)sim;
	xfs_convert_next(arg);
}

static void xfs_map_looked_up(wbsim_sim *sim, void *arg)
{
	struct xfs_call *c = arg;

	(void)sim;
	xfs_iunlock(c->mc.inode->priv, c->mc.task, FALSE);
	xfs_convert_next(c);
}

static void xfs_map_ilocked(wbsim_sim *sim, void *arg)
{
	struct xfs_call *c = arg;
	struct xfs_params *p = c->mc.fs->params;

	(void)sim;
	wbsim_cpus_run(c->mc.fs->cpus, c->mc.task, p->map_ns, xfs_map_looked_up, c);
}

static void xfs_map_cached(wbsim_sim *sim, void *arg)
{
	(void)sim;
	xfs_convert_next(arg);
}

/* xfs_map_blocks(): the mapping the writepages call cached if it is still
 * valid, else the extent lookup under XFS_ILOCK_SHARED. */
static void xfs_map_blocks(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task,
			   uint64_t first, uint64_t nr, wbsim_fs_map_done_fn done, void *arg)
{
	struct xfs_call *c = wbsim_fs_map_call_new(fs, sizeof(*c), inode, task, first, nr,
						   done, arg);
	struct xfs_inode *xi = inode->priv;

	if (xfs_imap_valid(xi, task, first, nr)) {
		wbsim_sim_schedule_at(fs->sim, wbsim_sim_now(fs->sim), xfs_map_cached, c);
		return;
	}
	wbsim_lock_acquire_shared(&xi->ilock, task, xfs_map_ilocked, c);
}

/* xfs_vm_writepages(): a new struct xfs_writepage_ctx, no mapping cached. */
static void xfs_writepages_begin(wbsim_fs *fs, wbsim_fs_inode *inode, wbsim_task *task)
{
	struct xfs_inode *xi = inode->priv;

	(void)fs;
	xi->wpc_end = 0;
	xi->wpc_task = task;
}

/* xfs_iomap_write_unwritten(): unwritten -> written; TRUE if anything was. */
static gboolean xfs_iomap_write_unwritten(struct xfs_inode *xi, uint64_t first, uint64_t nr)
{
	uint64_t pos = first, end = first + nr;
	gboolean converted = FALSE;

	while (pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *e = wbsim_emap_seek(&xi->map, pos, &cur);
		uint64_t t;

		if (!e || e->lblk >= end)
			break;
		pos = MAX(pos, e->lblk);
		t = MIN(wbsim_ext_end(e), end);
		if (e->state == WBSIM_EXT_UNWRITTEN) {
			uint64_t pb = e->pblk + (pos - e->lblk);

			wbsim_emap_set(&xi->map, pos, t - pos, WBSIM_EXT_WRITTEN, pb);
			converted = TRUE;
		}
		pos = t;
	}
	return converted;
}

/*
 * Convert the unwritten blocks of [first, first + nr) and return the CPU
 * (0 when none was unwritten): the tr_write transaction, and bmbt lookups
 * in the tree as found: one for the record converted, and one more per
 * record the conversion adds (xfs_bmap_add_extent_unwritten_real inserts
 * one when it converts an end of an unwritten extent, two for a piece from
 * its middle).
 */
static wbsim_time_t xfs_convert(const struct xfs_params *p, struct xfs_inode *xi,
				uint64_t first, uint64_t nr)
{
	struct wbsim_emap *map = &xi->map;
	unsigned int levels = xfs_inode_bmbt_levels(p, xi);
	uint64_t before = wbsim_emap_count(map) - map->extents[WBSIM_EXT_DELALLOC], after;

	if (!xfs_iomap_write_unwritten(xi, first, nr))
		return 0;
	after = wbsim_emap_count(map) - map->extents[WBSIM_EXT_DELALLOC];
	return p->end_io_ns + (XFS_CONVERT_BMBT_LOOKUPS + (after > before ? after - before : 0)) *
				  levels * p->btree_level_ns + xfs_inode_item_format_cost(p, xi);
}

/* The conversion as a cost, for direct I/O completions (xfs_dio_write_end_io). */
static wbsim_time_t xfs_end_io(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
			       uint64_t nr)
{
	return xfs_convert(fs->params, inode->priv, first, nr);
}

static void xfs_end_ioend_next(struct xfs_inode *xi);

/* The conversion transaction committed: drop the ILOCK, end the pages. */
static void xfs_end_ioend_converted(wbsim_sim *sim, void *arg)
{
	struct xfs_inode *xi = arg;
	struct wbsim_ioend *io = wbsim_ioend_queue_pop(xi->ioends);

	xfs_iunlock(xi, xi->ioends->worker, TRUE);
	wbsim_ioend_finish(sim, xi->ioends, io);
	xfs_end_ioend_next(xi);
}

/*
 * xfs_trans_alloc_inode(.., tr_write, ..) holds ILOCK_EXCL: convert (the
 * map changes now; nobody reads it before the ILOCK is dropped, but a
 * direct I/O completion, which the model does not lock).
 */
static void xfs_end_ioend_ilocked(wbsim_sim *sim, void *arg)
{
	struct xfs_inode *xi = arg;
	struct xfs_params *p = xi->fs->params;
	struct wbsim_ioend *io = wbsim_ioend_queue_peek(xi->ioends);
	wbsim_time_t cost = xfs_convert(p, xi, io->first, io->nr);

	(void)sim;
	wbsim_cpus_run(xi->fs->cpus, xi->ioends->worker, cost ? cost : p->end_io_ns,
		       xfs_end_ioend_converted, xi);
}

/* xfs_end_ioend() for each merged ioend of the run, in file order. */
static void xfs_end_ioend_next(struct xfs_inode *xi)
{
	struct wbsim_ioend *io;

	while ((io = wbsim_ioend_queue_peek(xi->ioends))) {
		if (io->flags & WBSIM_FS_IO_UNWRITTEN) {
			wbsim_lock_acquire(&xi->ilock, xi->ioends->worker, xfs_end_ioend_ilocked, xi);
			return;
		}
		wbsim_ioend_finish(xi->fs->sim, xi->ioends, wbsim_ioend_queue_pop(xi->ioends));
	}
}

/* xfs_end_io(): the inode's completed ioends, sorted and merged. */
static void xfs_end_io_work(struct wbsim_work *work, wbsim_task *worker)
{
	struct xfs_inode *xi = work->arg;

	if (!wbsim_ioend_queue_begin(xi->ioends, worker))
		return;
	wbsim_ioend_sort_merge(xi->ioends->running);
	xfs_end_ioend_next(xi);
}

/*
 * Models xfs_end_bio() for ioends that xfs_ioend_needs_wq_completion()
 * sends there (here: writes into unwritten extents; the on-disk size
 * update of appends is not tracked apart): the ioend joins the inode's
 * i_ioend_list and, if the list was empty, i_ioend_work is queued on
 * xfs-conv, a bound per-CPU workqueue of default max_active (one worker per
 * CPU here, the CPU not tracked). The work item is per inode, so one
 * inode's completions are serialised while other inodes' run in parallel.
 * Any other ioend (a pure overwrite) completes in the bio's end_io context.
 * Direct I/O goes the generic way.
 */
static void xfs_end_bio(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first, uint64_t nr,
			unsigned int flags, wbsim_event_fn done, void *arg)
{
	struct xfs_fs *x = fs->priv;
	struct xfs_inode *xi = inode->priv;

	if (wbsim_fs_end_bio_common(fs, inode, first, nr, flags, done, arg))
		return;
	if (!x->conv_wq)
		x->conv_wq = wbsim_fs_alloc_workqueue(fs, "xfs-conv", wbsim_cpus_count(fs->cpus));
	wbsim_ioend_queue_add(wbsim_ioend_queue_of(&xi->ioends, &x->ioends), x->conv_wq,
			      xfs_end_io_work, xi, first, nr, flags,
			      done, arg);
}

/*
 * Allocate up to @want blocks for [@lblk, @lblk+@want) of @xi as one
 * unwritten extent, there and then, near xfs_bmap_adjacent()'s goal: its
 * AG first, then the following ones (xfs_alloc_vextent_start_ag without
 * the AGF locks: the callers run synchronously). Returns the length
 * mapped (0: no AG has a free block) and adds the allocation's CPU to
 * @cost.
 */
static uint64_t xfs_alloc_unwritten_now(wbsim_fs *fs, struct xfs_inode *xi, uint64_t lblk,
				       uint64_t want, wbsim_time_t *cost)
{
	struct xfs_fs *x = fs->priv;
	struct xfs_params *p = fs->params;
	uint64_t goal, g, minlen, start = 0, len = 0;

	want = MIN(want, x->max_extent);
	goal = xfs_bmap_adjacent(x, xi, lblk, want);
	minlen = xfs_bmap_select_minlen(x, want);
	g = xfs_agno(x, goal);
	for (uint64_t i = 0; i < x->agcount && !len; i++) {
		uint64_t a = (g + i) % x->agcount;

		if (!xfs_ag_space_available(&x->ags[a], minlen))
			continue;
		len = wbsim_freespace_near(&x->ags[a].free, a == g ? goal : a * x->agblocks,
					   want, &start);
		if (len) {
			len = MIN(len, want);
			*cost += xfs_alloc_cost(p, xi, &x->ags[a].free);
			wbsim_freespace_take(&x->ags[a].free, start, len);
		}
	}
	if (len) {
		wbsim_emap_set(&xi->map, lblk, len, WBSIM_EXT_UNWRITTEN, start);
		xfs_delalloc_account(xi);
	}
	return len;
}

/* xfs_alloc_file_space(): unwritten extents for the holes of the range. */
static wbsim_time_t xfs_fallocate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t first,
				  uint64_t nr, GError **error)
{
	struct xfs_inode *xi = inode->priv;
	uint64_t pos = first, end = first + nr;
	wbsim_time_t cost = 0;

	while (pos < end) {
		struct wbsim_emap_cursor cur;
		struct wbsim_extent *e = wbsim_emap_seek(&xi->map, pos, &cur);
		uint64_t hole_end, len;

		if (e && e->lblk <= pos && e->state != WBSIM_EXT_DELALLOC) {
			pos = wbsim_ext_end(e);
			continue;
		}
		if (e && e->lblk <= pos)	/* delalloc: preallocate under it */
			hole_end = MIN(wbsim_ext_end(e), end);
		else
			hole_end = e ? MIN(e->lblk, end) : end;
		len = xfs_alloc_unwritten_now(fs, xi, pos, hole_end - pos, &cost);
		if (!len) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
				    "xfs: fallocate: no space left for inode %" G_GUINT64_FORMAT,
				    inode->ino);
			return G_MAXUINT64;
		}
		pos += len;
	}
	return cost;
}

static void xfs_truncate(wbsim_fs *fs, wbsim_fs_inode *inode, uint64_t new_size)
{
	struct xfs_inode *xi = inode->priv;
	uint64_t keep = wbsim_fs_bytes_to_blocks(fs, new_size);

	xfs_bunmapi(fs, xi, keep, G_MAXUINT64 / 4 - keep);
}

static void xfs_free_eofblocks(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct xfs_inode *xi = inode->priv;
	uint64_t eof = wbsim_fs_bytes_to_blocks(fs, inode->size);

	xfs_bunmapi(fs, xi, eof, G_MAXUINT64 / 4 - eof);
}

/* Models xfs_release(); leaves out the flush-on-close after a truncate. */
static void xfs_close(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct xfs_inode *xi = inode->priv;

	if (inode->is_dir || xi->dirty_release)
		return;
	xfs_free_eofblocks(fs, inode);
	if (xi->map.blocks[WBSIM_EXT_DELALLOC])
		xi->dirty_release = TRUE;
}

static void xfs_fiemap(wbsim_fs *fs, wbsim_fs_inode *inode, GArray *out)
{
	struct xfs_inode *xi = inode->priv;

	wbsim_fs_emap_fiemap(fs, &xi->map, out);
}

static uint64_t xfs_nr_extents(wbsim_fs *fs, wbsim_fs_inode *inode)
{
	struct xfs_inode *xi = inode->priv;
	struct wbsim_emap_cursor cur;
	uint64_t n = 0;

	for (struct wbsim_extent *e = wbsim_emap_first(&xi->map, &cur); e;
	     e = wbsim_emap_next(&xi->map, &cur))
		n += e->state != WBSIM_EXT_DELALLOC;
	return n;
}

static gboolean xfs_remount(wbsim_fs *fs, GError **error)
{
	for (guint i = 0; i < fs->inodes->len; i++) {
		wbsim_fs_inode *inode = g_ptr_array_index(fs->inodes, i);
		struct xfs_inode *xi = inode->priv;
		uint64_t eof = wbsim_fs_bytes_to_blocks(fs, inode->size);
		struct wbsim_extent *e;
		struct wbsim_emap_cursor cur;

		/* any delalloc inside EOF means dirty data was not written back */
		for (e = wbsim_emap_first(&xi->map, &cur); e && e->lblk < eof;
		     e = wbsim_emap_next(&xi->map, &cur)) {
			if (e->state == WBSIM_EXT_DELALLOC) {
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
					    "xfs: remount with delayed allocation inside EOF of "
					    "inode %" G_GUINT64_FORMAT " (write it back first)",
					    inode->ino);
				return FALSE;
			}
		}
	}
	for (guint i = 0; i < fs->inodes->len; i++) {
		wbsim_fs_inode *inode = g_ptr_array_index(fs->inodes, i);
		struct xfs_inode *xi = inode->priv;

		if (!inode->is_dir)
			xfs_free_eofblocks(fs, inode);	/* eviction: xfs_inactive */
		xi->dirty_release = FALSE;
	}
	return TRUE;
}

gboolean wbsim_fs_xfs_check(wbsim_fs *fs)
{
	struct xfs_fs *x = fs->priv;

	for (uint64_t i = 0; i < x->agcount; i++)
		if (!wbsim_freespace_check(&x->ags[i].free))
			return FALSE;
	return TRUE;
}

const struct wbsim_fs_ops wbsim_fs_xfs_ops = {
	.name = "xfs",
	.version = WBSIM_FS_OPS_VERSION,
	.params_size = sizeof(struct xfs_params),
	.options = xfs_options,
	.init = xfs_init,
	.exit = xfs_exit,
	.inode_init = xfs_inode_init,
	.inode_exit = xfs_inode_exit,
	.write = xfs_write,
	.fallocate = xfs_fallocate,
	.truncate = xfs_truncate,
	.close = xfs_close,
	.map_blocks = xfs_map_blocks,
	.writepages_begin = xfs_writepages_begin,
	.end_io = xfs_end_io,
	.end_bio = xfs_end_bio,
	.write_lock = xfs_write_lock,
	.write_lock_busy = xfs_write_lock_busy,
	.write_unlock = xfs_write_unlock,
	.update_time = xfs_update_time,
	.fiemap = xfs_fiemap,
	.nr_extents = xfs_nr_extents,
	.remount = xfs_remount,
	.write_space = xfs_write_space,
	.free_space = xfs_blockgc_free_space,
	/* xfs_file_operations: FOP_BUFFER_WASYNC */
	.nowait_buffered_write = TRUE,
};
