/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/freespace.h - free space of one allocation group (XFS AG, ext4
 * block group) as free extents indexed twice, like XFS's bnobt and cntbt:
 * by start (for allocations near a goal) and by (length, start) (for
 * best-fit by size). Both indexes are GTrees over the same nodes.
 *
 * A group starts as one free extent, and most of a large filesystem's
 * groups stay so (ext4 on E1's 3.84 TB device has 28,000 groups, of which
 * the writes touch a few): the trees are made when a change leaves more
 * than one extent (a take inside the extent, any give). Until then the
 * group is @one_start and @free, and every query answers from those as
 * the trees would. (ext4's mballoc also builds a group's buddy cache on
 * first use: ext4_mb_init_group() when EXT4_MB_GRP_NEED_INIT().)
 */
#ifndef WBSIM_FS_ALLOC_FREESPACE_H
#define WBSIM_FS_ALLOC_FREESPACE_H

#include <stdint.h>
#include <glib.h>

/**
 * struct wbsim_freespace - free extents of the block range [base, base+size)
 * @base: first block of the group
 * @size: blocks in the group
 * @free: free blocks
 * @one_start: while there are no trees, the free space is the one extent
 *	[@one_start, @one_start + @free) (none when @free is 0)
 * @by_start: free extents keyed by start (NULL: not made yet)
 * @by_size: free extents keyed by (length, start)
 */
struct wbsim_freespace {
	uint64_t base;
	uint64_t size;
	uint64_t free;
	uint64_t one_start;
	GTree *by_start;
	GTree *by_size;
};

void wbsim_freespace_init(struct wbsim_freespace *fsp, uint64_t base, uint64_t size);
void wbsim_freespace_clear(struct wbsim_freespace *fsp);

/* wbsim_freespace_take() - mark [start, start+len) used; FALSE unless all free. */
gboolean wbsim_freespace_take(struct wbsim_freespace *fsp, uint64_t start, uint64_t len);
/* wbsim_freespace_give() - mark [start, start+len) free (must be used). */
void wbsim_freespace_give(struct wbsim_freespace *fsp, uint64_t start, uint64_t len);
/* wbsim_freespace_is_free() - TRUE if block @bno is free. */
gboolean wbsim_freespace_is_free(struct wbsim_freespace *fsp, uint64_t bno);
/* wbsim_freespace_free_run() - free blocks from @bno on (0 if @bno is used). */
uint64_t wbsim_freespace_free_run(struct wbsim_freespace *fsp, uint64_t bno);
/* wbsim_freespace_longest() - the longest free extent's length. */
uint64_t wbsim_freespace_longest(struct wbsim_freespace *fsp);

/*
 * wbsim_freespace_near() - XFS-style allocation near @goal
 * (xfs_alloc_ag_vextent_near): among free extents long enough for @want,
 * the placement closest to @goal (exact if @goal starts a long enough free
 * run); else the best fit by size; else the longest extent (shorter than
 * @want). Nothing is taken. Return: length found (0: group full), *@start.
 */
uint64_t wbsim_freespace_near(struct wbsim_freespace *fsp, uint64_t goal, uint64_t want,
			      uint64_t *start);
/*
 * wbsim_freespace_first_fit() - ext4 mballoc-style search: the lowest
 * placement at or after @from whose start is a multiple of @align relative
 * to the group base (@align 1: any) with @want free blocks. Nothing is
 * taken. Return: TRUE and *@start if found.
 */
gboolean wbsim_freespace_first_fit(struct wbsim_freespace *fsp, uint64_t from,
				   uint64_t want, uint64_t align, uint64_t *start);
/*
 * wbsim_freespace_first_any() - the first free extent at or after @from:
 * *@start and its length (0 when none).
 */
uint64_t wbsim_freespace_first_any(struct wbsim_freespace *fsp, uint64_t from,
				   uint64_t *start);
/* wbsim_freespace_nr_extents() - number of free extents. */
size_t wbsim_freespace_nr_extents(struct wbsim_freespace *fsp);
/* wbsim_freespace_check() - both indexes agree, no overlap or adjacency, free exact. */
gboolean wbsim_freespace_check(struct wbsim_freespace *fsp);

#endif /* WBSIM_FS_ALLOC_FREESPACE_H */
