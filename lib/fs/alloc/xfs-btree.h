/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/xfs-btree.h - the shape of XFS's btrees, as the costs of its
 * write, writeback and completion paths see them: the height of an inode's
 * in-core extent tree (libxfs/xfs_iext_tree.c) and the levels of the
 * on-disk free-space btrees (bnobt, cntbt: libxfs/xfs_alloc_btree.c) and of
 * a file's block-map btree (bmbt: libxfs/xfs_bmap_btree.c), from their
 * record counts and the block size. A lookup descends every level, and
 * each level is a node to read and search: the models charge per level.
 *
 * Blocks split in halves when full (xfs_iext_split_leaf/_node,
 * xfs_btree_split), so a block holds between half and all of its maximum;
 * the shapes below take the mean, three quarters, except where the kernel
 * keeps a single block until it is full (the iext root leaf, the bmbt
 * records inside the inode).
 */
#ifndef WBSIM_FS_ALLOC_XFS_BTREE_H
#define WBSIM_FS_ALLOC_XFS_BTREE_H

#include <stdint.h>

/*
 * wbsim_xfs_iext_height() - height of an in-core extent tree of @nr
 * records (if_height): 0 when empty, 1 while the root leaf holds them all
 * (RECS_PER_LEAF, 15: 256-byte nodes of 16-byte records less two sibling
 * pointers), then one more per level of inner nodes of KEYS_PER_NODE (16).
 */
unsigned int wbsim_xfs_iext_height(uint64_t nr);

/* WBSIM_XFS_IEXT_RECS_PER_LEAF - records of an in-core extent tree leaf */
#define WBSIM_XFS_IEXT_RECS_PER_LEAF 15

/*
 * wbsim_xfs_allocbt_levels() - levels of a free-space btree (bnobt or
 * cntbt, which hold the same records) of @nr records in blocks of
 * @block_size bytes: short-form v5 blocks of a 56-byte header, 8-byte
 * records and 8-byte keys with 4-byte pointers. At least 1 (the root).
 */
unsigned int wbsim_xfs_allocbt_levels(uint64_t nr, uint64_t block_size);

/*
 * wbsim_xfs_bmbt_levels() - block levels of a data fork's bmbt holding @nr
 * written or unwritten extents: 0 while they fit in the inode (extents
 * format: 16-byte records in the literal area of an @inode_size inode, less
 * the 176-byte v3 core); else the levels of long-form v5 blocks (72-byte
 * header, 16-byte records, 8-byte keys and pointers) below the root kept
 * in the inode.
 */
unsigned int wbsim_xfs_bmbt_levels(uint64_t nr, uint64_t block_size, uint64_t inode_size);

/*
 * wbsim_xfs_bmap_maxlevels() - the most levels a data fork's bmbt can have
 * (xfs_bmap_compute_maxlevels, m_bm_maxlevels): XFS_MAX_EXTCNT_DATA_FORK_SMALL
 * (2^31 - 1) records in blocks half full (minrecs) under the smallest root
 * an inode holds (MINDBTPTRS, 3 records). 5 with 4 KiB blocks. The
 * worst-case indirect reservation of a delalloc extent counts on it.
 */
unsigned int wbsim_xfs_bmap_maxlevels(uint64_t block_size);

/*
 * wbsim_xfs_ag_resv_blocks() - the blocks an AG of @agblocks holds back
 * from the free-block counter for its metadata btrees at mount
 * (xfs_ag_resv_init): the free inode btree's largest size
 * (xfs_finobt_calc_reserves: a record per 64-inode chunk the AG could
 * hold) and, with @reflink, the refcount btree's (xfs_refcountbt_calc_reserves:
 * a record per block), each at half-full blocks (xfs_btree_calc_size).
 */
uint64_t wbsim_xfs_ag_resv_blocks(uint64_t agblocks, uint64_t block_size, uint64_t inode_size,
				  int reflink);

/* WBSIM_XFS_BMBT_RECS - records of a full bmbt block (m_bmap_dmxr[0]):
 * 16-byte records after the 72-byte long-form v5 header */
#define WBSIM_XFS_BMBT_RECS(block_size) (((block_size) - 72) / 16)

#endif /* WBSIM_FS_ALLOC_XFS_BTREE_H */
