/* SPDX-License-Identifier: MIT */
/* fs/wb-ctx-change.h - changing nr_wb_ctx of a live bdi (E9). */
#ifndef WBSIM_FS_WB_CTX_CHANGE_H
#define WBSIM_FS_WB_CTX_CHANGE_H

#include "fs/writeback.h"

enum wbsim_ctx_change_mode {
	WBSIM_CTX_CHANGE_QUIESCE,	/* stop writeback, wait for in-flight I/O */
	WBSIM_CTX_CHANGE_FREEZE,	/* freeze the filesystem: block writers, sync */
};

/**
 * struct wbsim_ctx_change_result - what one change did
 * @from: contexts before
 * @to: contexts after
 * @start: when the change was asked for
 * @quiesced: when writeback had drained (inodes could move)
 * @done: when writeback and writers resumed
 * @inodes_moved: inodes attached to another context
 * @writers_blocked: tasks stopped by the change: writers of a frozen
 *	filesystem, and tasks starting writeback of their own (fadvise,
 *	fsync) while writeback is quiesced
 * @writers_blocked_ns: their blocked time, summed
 * @retired_pages_written: pages the retired contexts' flushers had written
 */
struct wbsim_ctx_change_result {
	unsigned int from, to;
	wbsim_time_t start, quiesced, done;
	uint64_t inodes_moved;
	uint64_t writers_blocked;
	wbsim_time_t writers_blocked_ns;
	uint64_t retired_pages_written;
};

void wbsim_bdi_change_nr_wb_ctx(struct wbsim_bdi *bdi, unsigned int nr,
				enum wbsim_ctx_change_mode mode,
				void (*done)(void *arg, const struct wbsim_ctx_change_result *res),
				void *arg);

/* Free a change still in progress (a run stopped at its time limit). */
void wbsim_bdi_ctx_change_free(struct wbsim_bdi *bdi);

/* Queue @fn(@arg) for the end of the change in progress. */
void wbsim_bdi_wait_ctx_change(struct wbsim_bdi *bdi, wbsim_event_fn fn, void *arg);

/* A writer about to write: if the filesystem is frozen, queue @fn(@arg)
 * for the thaw and return TRUE. */
gboolean wbsim_bdi_wait_if_frozen(struct wbsim_bdi *bdi, wbsim_event_fn fn, void *arg);

#endif
