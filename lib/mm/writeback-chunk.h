/* SPDX-License-Identifier: MIT */
/*
 * mm/writeback-chunk.h - pages the flusher writes from one inode per turn
 * (kernel: fs/fs-writeback.c, writeback_chunk_size()).
 */
#ifndef WBSIM_MM_WRITEBACK_CHUNK_H
#define WBSIM_MM_WRITEBACK_CHUNK_H

#include "mm/writeback-control.h"

int64_t wbsim_writeback_chunk_size(bool sync_all_or_tagged,
				   uint64_t avg_write_bandwidth,
				   uint64_t global_dirty_limit,
				   int64_t work_nr_pages);

#endif /* WBSIM_MM_WRITEBACK_CHUNK_H */
