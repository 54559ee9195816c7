/* SPDX-License-Identifier: MIT */
/*
 * fs-glue.c - the writeback side of the filesystem interface: the runs of a
 * writepages batch are mapped one after the other through the filesystem's
 * map_blocks hook (kernel: the ->map_blocks of iomap writeback, or ext4's
 * mpage_map_and_submit_extent), and each returned mapping becomes bios.
 */
#include <wbsim/fs.h>
#include "fs/fs-glue.h"
#include "fs/alloc/fs.h"

static void map_next(struct wbsim_writepages *wp);

static void map_done(wbsim_fs *fs, void *arg, const struct wbsim_fs_map *maps,
		     size_t nr_maps, const GError *error)
{
	struct wbsim_writepages *wp = arg;

	if (error) {
		/* An allocation failure (ENOSPC) ends the simulation. */
		wbsim_bdi_fail(wp->inode->bdi, error);
		return;
	}
	for (size_t i = 0; i < nr_maps; i++)
		wbsim_writepages_add_mapping(wp, maps[i].file_block, maps[i].dev_block,
					     maps[i].nr_blocks,
					     (maps[i].flags & WBSIM_FS_MAP_UNWRITTEN) != 0);
	wp->map_run++;
	map_next(wp);
}

static void map_next(struct wbsim_writepages *wp)
{
	struct wbsim_inode *inode = wp->inode;
	uint64_t start, len;
	unsigned int nr_runs;

	wbsim_writepages_run(wp, wp->map_run, &start, &len, &nr_runs);
	if (wp->map_run >= nr_runs) {
		wbsim_sim_schedule_at(inode->bdi->sim, wbsim_sim_now(inode->bdi->sim),
				      wp->map_done, wp);
		return;
	}
	wbsim_fs_map_blocks(inode->bdi->fs, inode->fs_inode, wp->task, start, len, map_done, wp);
}

void wbsim_fs_map_runs(struct wbsim_writepages *wp, wbsim_event_fn done)
{
	wp->map_run = 0;
	wp->map_done = done;
	map_next(wp);
}
