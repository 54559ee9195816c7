/* SPDX-License-Identifier: MIT */
/* fs/fs-writeback.h - the flusher's entry points (fs/fs-writeback.c). */
#ifndef WBSIM_FS_FS_WRITEBACK_H
#define WBSIM_FS_FS_WRITEBACK_H

#include "fs/writeback.h"
#include "defs/writeback.h"

void wbsim_wb_init(struct wbsim_wb *wb, struct wbsim_bdi *bdi, unsigned int ctx);
void wbsim_wb_clear(struct wbsim_wb *wb);

/* The flusher's side of struct wbsim_writeback_ops (defs/writeback.h),
 * which lib/mm calls through the bdi's table; fs calls them directly. */
void wbsim_mark_inode_dirty(struct wbsim_inode *inode, const wbsim_task *task,
			    struct wbsim_memcg *memcg);
void wbsim_wb_start_background_writeback(struct wbsim_wb *wb, const wbsim_task *task);
void wbsim_inode_maybe_detach(struct wbsim_inode *inode);

/* List helpers for inode switching and context changes. */
void wbsim_wb_io_lists_changed(struct wbsim_wb *wb);
void wbsim_inode_io_list_insert_by_age(struct wbsim_wb *wb, struct wbsim_inode *inode);
void wbsim_inode_io_list_attach(struct wbsim_wb *wb, struct wbsim_inode *inode);
void wbsim_wb_wakeup(struct wbsim_wb *wb);
void wbsim_wb_wakeup_delayed(struct wbsim_wb *wb);
void wbsim_wb_queue_work(struct wbsim_wb *wb, struct wbsim_wb_work *work);
void wbsim_wb_start_writeback(struct wbsim_wb *wb, enum wbsim_wb_reason reason);
bool wbsim_wb_check_over_bg_thresh(struct wbsim_wb *wb);
/* sync_inodes_sb(): write back and wait for every dirty inode of @inodes
 * (WB_SYNC_ALL, @reason), then @done(@arg). */
void wbsim_sync_inodes_sb(struct wbsim_bdi *bdi, GPtrArray *inodes, bool cgroups,
			  bool start_all, enum wbsim_wb_reason reason, wbsim_event_fn done,
			  void *arg);
/* try_to_writeback_inodes_sb(): WB_SYNC_NONE works of @reason for every
 * dirty page to the wbs not running already; @done(@arg) when they are
 * over. FALSE (and no @done) when none was queued. */
gboolean wbsim_try_to_writeback_inodes_sb(struct wbsim_bdi *bdi, bool cgroups,
					  enum wbsim_wb_reason reason, wbsim_event_fn done,
					  void *arg);
/* Free the syncs still in flight when a run ends (after the wbs are cleared). */
void wbsim_sync_inodes_sb_free_all(struct wbsim_bdi *bdi);

/* writepages.c: do_writepages() for @inode, asynchronously; @done runs when
 * every request of this call has been submitted (not completed). */
void wbsim_do_writepages(struct wbsim_writepages *wp, struct wbsim_inode *inode,
			 struct wbsim_wbc *wbc, wbsim_task *task, int context,
			 wbsim_event_fn done, void *done_arg);

#endif
