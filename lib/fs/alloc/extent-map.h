/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/extent-map.h - a file's logical-to-physical extent map: sorted,
 * non-overlapping extents (delayed, unwritten or written) in a two-level
 * sorted array (a B-tree of height two: an index of leaves of up to
 * WBSIM_EMAP_LEAF_MAX extents each). Lookups interpolate, then gallop (the
 * index, then the leaf: extent-map.c); an insert or delete moves at most
 * one leaf's worth of extents, so the map stays fast at hundreds of
 * thousands of extents per file. The index keeps each leaf's
 * first logical block and size in an array of its own (@index), so the
 * search of the index reads one contiguous array instead of one leaf per
 * step.
 *
 * Merging follows the kernels' extent-insert rules (xfs_bmap_add_extent_*,
 * ext4_ext_try_to_merge, ext4_es_try_to_merge): a newly set range merges
 * with a neighbour that is logically adjacent, in the same state and
 * physically contiguous (delayed extents have no physical address), when
 * the merged length stays within the per-state maximum; both neighbours if
 * all three fit, else the left one, else the right one. Ranges longer than
 * the maximum are stored as maximum-length pieces.
 */
#ifndef WBSIM_FS_ALLOC_EXTENT_MAP_H
#define WBSIM_FS_ALLOC_EXTENT_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>

/** enum wbsim_ext_state - what a mapped range is */
enum wbsim_ext_state {
	WBSIM_EXT_DELALLOC = 0,	/* reserved, no physical placement yet */
	WBSIM_EXT_UNWRITTEN,	/* allocated, reads as zeroes until converted */
	WBSIM_EXT_WRITTEN,	/* allocated and holding data */
	WBSIM_EXT_NR_STATES,
};

/**
 * struct wbsim_extent - one extent
 * @lblk: first file block
 * @pblk: first device block (0 for delayed)
 * @len: blocks
 * @state: enum wbsim_ext_state
 *
 * 24 bytes (32 with a separate state word): a file written at random
 * holds about one extent per written block (4.6 M for E1 with 4 GiB
 * files), and the map's footprint is what its seeks miss the cache on.
 * A length is bounded by its map's max_len, at most 2^62 - 1.
 */
struct wbsim_extent {
	uint64_t lblk;
	uint64_t pblk;
	uint64_t len : 62;
	uint64_t state : 2;
};

#define WBSIM_EMAP_LEAF_MAX 128
/* A map's first leaf starts this small: most files have a few extents. */
#define WBSIM_EMAP_LEAF_MIN 4

/*
 * struct wbsim_emap_leaf - up to WBSIM_EMAP_LEAF_MAX extents (how many:
 * its index entry's @nr); room for @cap of them, doubled as the leaf fills
 * (so 500,000 files of one extent each hold 150 bytes of leaf apiece, not
 * 4 KiB). An insert may move the leaf: extent pointers do not survive
 * wbsim_emap_set() or _punch().
 */
struct wbsim_emap_leaf {
	uint32_t cap;
	struct wbsim_extent ext[];
};

/*
 * struct wbsim_emap_index - one leaf's entry in the index
 * @key: the leaf's first logical block (ext[0].lblk), always
 * @leaf: the leaf
 * @nr: extents in the leaf (at least one)
 *
 * Kept together so that a seek reads a leaf's key, place and size from one
 * cache line and goes from there straight to the extent it wants.
 */
struct wbsim_emap_index {
	uint64_t key;
	struct wbsim_emap_leaf *leaf;
	uint32_t nr;
};

/** struct wbsim_emap_cursor - a position in the map (leaf, slot) */
struct wbsim_emap_cursor {
	size_t leaf;
	uint32_t slot;
};

/*
 * wbsim_emap_barrier_fn - TRUE when an extent that starts at @lblk may not
 * merge with the extent before it: ext4's on-disk extents merge only
 * within a leaf block of the tree (ext4_ext_try_to_merge_right() stops at
 * the leaf's last extent), so a leaf's first block is such a barrier.
 */
typedef gboolean (*wbsim_emap_barrier_fn)(const void *data, uint64_t lblk);

/**
 * struct wbsim_emap - the map
 * @index: the leaves in logical order, none empty
 * @nr_leaves: used entries of @index
 * @cap_leaves: allocated entries of @index
 * @nr_extents: extents in the map
 * @extents: per-state number of extents
 * @max_len: per-state maximum extent length (merging and splitting)
 * @blocks: per-state number of mapped blocks
 * @hint: where the last seek ended; a seek that lands there or on the
 *	extent after it needs no search (the hint is verified against the
 *	map as it is, so inserts and deletes need not maintain it)
 * @seq: bumped by every change of the map (punch, fill, set, reset): XFS's
 *	i_df.if_seq, which a cached mapping is checked against
 * @barrier: NULL, or where merging stops (wbsim_emap_set_barrier())
 * @barrier_data: @barrier's argument
 * @no_merge: set while wbsim_emap_set_unmerged() inserts
 */
struct wbsim_emap {
	struct wbsim_emap_index *index;
	size_t nr_leaves;
	size_t cap_leaves;
	uint64_t nr_extents;
	uint64_t extents[WBSIM_EXT_NR_STATES];
	uint64_t max_len[WBSIM_EXT_NR_STATES];
	uint64_t blocks[WBSIM_EXT_NR_STATES];
	struct wbsim_emap_cursor hint;
	uint64_t seq;
	wbsim_emap_barrier_fn barrier;
	const void *barrier_data;
	gboolean no_merge;
};

void wbsim_emap_init(struct wbsim_emap *map, uint64_t max_delalloc,
		     uint64_t max_unwritten, uint64_t max_written);
/* wbsim_emap_clear() - free everything (the map may be re-initialised). */
void wbsim_emap_clear(struct wbsim_emap *map);
/* wbsim_emap_reset() - remove every extent, keep the limits. */
void wbsim_emap_reset(struct wbsim_emap *map);

/*
 * wbsim_emap_seek() - position @cur at the first extent that ends after
 * @lblk (it contains @lblk iff its lblk <= @lblk). Return: that extent or
 * NULL when none.
 */
struct wbsim_extent *wbsim_emap_seek(struct wbsim_emap *map, uint64_t lblk,
				     struct wbsim_emap_cursor *cur);
/*
 * wbsim_emap_prefetch() - start loading the leaf line where a seek for
 * @lblk will look first, without searching the leaf: a hint for a seek to
 * come, no state changes.
 */
void wbsim_emap_prefetch(const struct wbsim_emap *map, uint64_t lblk);
/* wbsim_emap_lookup() - the extent containing @lblk, or NULL. */
struct wbsim_extent *wbsim_emap_lookup(struct wbsim_emap *map, uint64_t lblk);
/* wbsim_emap_first() / _last() - the first / last extent, or NULL. */
struct wbsim_extent *wbsim_emap_first(struct wbsim_emap *map, struct wbsim_emap_cursor *cur);
struct wbsim_extent *wbsim_emap_last(struct wbsim_emap *map, struct wbsim_emap_cursor *cur);
/* wbsim_emap_next() / _prev() - step @cur; Return: the extent there or NULL. */
struct wbsim_extent *wbsim_emap_next(struct wbsim_emap *map, struct wbsim_emap_cursor *cur);
struct wbsim_extent *wbsim_emap_prev(struct wbsim_emap *map, struct wbsim_emap_cursor *cur);
/*
 * wbsim_emap_prev_of() - the last extent that starts before @lblk (it may
 * contain @lblk), or NULL.
 */
struct wbsim_extent *wbsim_emap_prev_of(struct wbsim_emap *map, uint64_t lblk);

/*
 * wbsim_emap_set() - map [@lblk, @lblk + @len) to @pblk.. in @state,
 * replacing whatever was mapped there, merging with neighbours.
 */
void wbsim_emap_set(struct wbsim_emap *map, uint64_t lblk, uint64_t len,
		    enum wbsim_ext_state state, uint64_t pblk);
/*
 * wbsim_emap_set_unmerged() - wbsim_emap_set() that merges with neither
 * neighbour: the range becomes extents of its own (ext4's unwritten extent
 * inserted for a write about to be submitted, EXT4_GET_BLOCKS_PRE_IO,
 * merges only when end_io converts it).
 */
void wbsim_emap_set_unmerged(struct wbsim_emap *map, uint64_t lblk, uint64_t len,
			     enum wbsim_ext_state state, uint64_t pblk);
/*
 * wbsim_emap_set_barrier() - from now on, an extent starting at a block
 * where @fn says so never merges with the one before it (@fn NULL: merge
 * as before).
 */
void wbsim_emap_set_barrier(struct wbsim_emap *map, wbsim_emap_barrier_fn fn,
			    const void *data);
/*
 * wbsim_emap_fill_hole() - wbsim_emap_set() of a range the caller knows
 * is a hole (it has just seen the extent after it): no unmapping first.
 */
void wbsim_emap_fill_hole(struct wbsim_emap *map, uint64_t lblk, uint64_t len,
			  enum wbsim_ext_state state, uint64_t pblk);
/* wbsim_emap_punch() - unmap [@lblk, @lblk + @len). */
void wbsim_emap_punch(struct wbsim_emap *map, uint64_t lblk, uint64_t len);

static inline uint64_t wbsim_emap_count(const struct wbsim_emap *map)
{
	return map->nr_extents;
}

static inline uint64_t wbsim_ext_end(const struct wbsim_extent *e)
{
	return e->lblk + e->len;
}

/*
 * wbsim_emap_check() - verify the structure (sorted, non-overlapping, no
 * empty leaf, lengths within limits, counters and index keys exact).
 * Return: TRUE if sound.
 */
gboolean wbsim_emap_check(const struct wbsim_emap *map);

#endif /* WBSIM_FS_ALLOC_EXTENT_MAP_H */
