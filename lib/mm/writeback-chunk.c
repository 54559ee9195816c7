/* SPDX-License-Identifier: MIT */
/*
 * mm/writeback-chunk.c - the per-inode writeback chunk (kernel:
 * fs/fs-writeback.c).
 */
#include "mm/writeback-chunk.h"

/**
 * wbsim_writeback_chunk_size() - nr_to_write of one inode's slice
 * @sync_all_or_tagged: work is WB_SYNC_ALL or tagged_writepages
 * @avg_write_bandwidth: the wb's avg_write_bandwidth, pages/s
 * @global_dirty_limit: the global domain's dirty_limit, pages
 * @work_nr_pages: pages the work still has to write
 *
 * Models writeback_chunk_size(): SYNC_ALL and tagged passes write each
 * inode in one go (LONG_MAX) to avoid livelock; otherwise about half a
 * second of device bandwidth, at most 1/8 of the dirty limit:
 *
 *	pages = min(avg_bw / 2, dirty_limit / DIRTY_SCOPE, nr_pages)
 *	pages = round_down(pages + 4 MiB, 4 MiB)      (>= 4 MiB)
 *
 * Return: the chunk in pages (WBSIM_LONG_MAX for sync).
 */
int64_t wbsim_writeback_chunk_size(bool sync_all_or_tagged,
				   uint64_t avg_write_bandwidth,
				   uint64_t global_dirty_limit,
				   int64_t work_nr_pages)
{
	uint64_t a = avg_write_bandwidth / 2;
	uint64_t b = global_dirty_limit / WBSIM_DIRTY_SCOPE;
	int64_t pages;

	if (sync_all_or_tagged)
		return WBSIM_LONG_MAX;
	pages = (int64_t)(a < b ? a : b);
	if (work_nr_pages < pages)
		pages = work_nr_pages;
	pages += WBSIM_MIN_WRITEBACK_PAGES;
	/* round_down() on a power of two: clear the low bits */
	return pages & ~(int64_t)(WBSIM_MIN_WRITEBACK_PAGES - 1);
}
