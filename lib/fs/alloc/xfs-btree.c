/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/xfs-btree.c - the shape of XFS's btrees from their record
 * counts (see xfs-btree.h).
 */
#include "fs/alloc/xfs-btree.h"

/* xfs_iext_tree.c: NODE_SIZE 256 */
#define IEXT_RECS_PER_LEAF WBSIM_XFS_IEXT_RECS_PER_LEAF
#define IEXT_KEYS_PER_NODE 16
#define XFS_BTREE_SBLOCK_CRC_LEN 56
#define XFS_BTREE_LBLOCK_CRC_LEN 72
#define XFS_DINODE_V3_CORE 176
#define XFS_BMDR_HEADER 4
#define XFS_MAX_EXTCNT_DATA_FORK_SMALL ((1ull << 31) - 1)

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* Three quarters of a block's maximum: the mean fill of blocks split in halves. */
static uint64_t mean_fill(uint64_t max)
{
	return max * 3 / 4 ? max * 3 / 4 : 1;
}

/*
 * Levels above @blocks blocks of one level: nodes of @fill entries each
 * until one root of at most @root_max entries holds them.
 */
static unsigned int levels_above(uint64_t blocks, uint64_t fill, uint64_t root_max)
{
	unsigned int levels = 0;

	while (blocks > root_max) {
		blocks = div_up(blocks, fill);
		levels++;
	}
	return levels;
}

unsigned int wbsim_xfs_iext_height(uint64_t nr)
{
	uint64_t leaves;

	if (!nr)
		return 0;
	if (nr <= IEXT_RECS_PER_LEAF)
		return 1;
	leaves = div_up(nr, mean_fill(IEXT_RECS_PER_LEAF));
	/* the leaves, the root node, and the inner levels between */
	return 2 + levels_above(leaves, mean_fill(IEXT_KEYS_PER_NODE), IEXT_KEYS_PER_NODE);
}

unsigned int wbsim_xfs_allocbt_levels(uint64_t nr, uint64_t block_size)
{
	uint64_t leaf_max = (block_size - XFS_BTREE_SBLOCK_CRC_LEN) / 8;
	uint64_t node_max = (block_size - XFS_BTREE_SBLOCK_CRC_LEN) / 12;

	if (nr <= leaf_max)
		return 1;
	/* the leaves, the root node, and the inner levels between */
	return 2 + levels_above(div_up(nr, mean_fill(leaf_max)), mean_fill(node_max), node_max);
}

unsigned int wbsim_xfs_bmbt_levels(uint64_t nr, uint64_t block_size, uint64_t inode_size)
{
	uint64_t literal = inode_size - XFS_DINODE_V3_CORE;
	uint64_t in_inode = literal / 16;
	uint64_t root_max = (literal - XFS_BMDR_HEADER) / 16;
	uint64_t per_block = (block_size - XFS_BTREE_LBLOCK_CRC_LEN) / 16;

	if (nr <= in_inode)
		return 0;
	return 1 + levels_above(div_up(nr, mean_fill(per_block)), mean_fill(per_block),
				root_max);
}

unsigned int wbsim_xfs_bmap_maxlevels(uint64_t block_size)
{
	uint64_t minrecs = (block_size - XFS_BTREE_LBLOCK_CRC_LEN) / 16 / 2;
	/* XFS_BMDR_SPACE_CALC(MINDBTPTRS): the smallest root an inode holds */
	uint64_t rootrecs = 3;
	uint64_t blocks = div_up(XFS_MAX_EXTCNT_DATA_FORK_SMALL, minrecs);
	unsigned int level;

	for (level = 1; blocks > 1; level++)
		blocks = blocks <= rootrecs ? 1 : div_up(blocks, minrecs);
	return level;
}

/* xfs_btree_calc_size(): the blocks of a btree of @records at @minrecs a
 * leaf and @minnode a node. */
static uint64_t btree_calc_size(uint64_t minrecs, uint64_t minnode, uint64_t records)
{
	uint64_t blocks = div_up(records, minrecs), total = blocks;

	while (blocks > 1) {
		blocks = div_up(blocks, minnode);
		total += blocks;
	}
	return total;
}

uint64_t wbsim_xfs_ag_resv_blocks(uint64_t agblocks, uint64_t block_size, uint64_t inode_size,
				  int reflink)
{
	/* short-form v5 blocks: 4-byte keys and pointers in the nodes */
	uint64_t node_min = (block_size - XFS_BTREE_SBLOCK_CRC_LEN) / 8 / 2;
	/* finobt: one 16-byte record per 64-inode chunk the AG could hold */
	uint64_t resv = btree_calc_size((block_size - XFS_BTREE_SBLOCK_CRC_LEN) / 16 / 2, node_min,
					agblocks * (block_size / inode_size) / 64);

	/* refcountbt: a 12-byte record per block, at worst */
	if (reflink)
		resv += btree_calc_size((block_size - XFS_BTREE_SBLOCK_CRC_LEN) / 12 / 2, node_min,
					agblocks);
	return resv;
}
