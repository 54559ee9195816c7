/* SPDX-License-Identifier: MIT */
/* fs/fs-glue.h - how writeback asks the filesystem model where pages go. */
#ifndef WBSIM_FS_FS_GLUE_H
#define WBSIM_FS_FS_GLUE_H

#include "fs/writeback.h"

/* Map every run of the current batch of @wp through the filesystem's
 * map_blocks hook (one run at a time: the hook may wait for a group lock
 * and spend CPU), adding the bios with wbsim_writepages_add_mapping();
 * then run @done(sim, wp). */
void wbsim_fs_map_runs(struct wbsim_writepages *wp, wbsim_event_fn done);

/* writepages.c: add a physically contiguous mapping to the ioend being
 * built (iomap_add_to_ioend()). */
void wbsim_writepages_add_mapping(struct wbsim_writepages *wp, uint64_t file_page,
				  uint64_t dev_block, uint64_t nr, bool unwritten);
void wbsim_writepages_clear(struct wbsim_writepages *wp);
/* Free the bios of @bdi's writepages that never ended (wbsim_bdi_clear()). */
void wbsim_writepages_free_live_bios(struct wbsim_bdi *bdi);
/* writepages.c: run @i of the current batch, and the number of runs. */
void wbsim_writepages_run(const struct wbsim_writepages *wp, unsigned int i,
			  uint64_t *start, uint64_t *len, unsigned int *nr_runs);

#endif
