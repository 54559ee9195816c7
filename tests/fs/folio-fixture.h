/* SPDX-License-Identifier: MIT */
/*
 * folio-fixture.h - one file of @folio_pages-page folios on a bdi over the
 * ideal device, with a dirtier task that writes into it and a writepages
 * context that writes it back: the set-up of the large-folio and ioend
 * tests (test-folio-accounting.c, test-ioend.c).
 */
#ifndef WBSIM_TESTS_FOLIO_FIXTURE_H
#define WBSIM_TESTS_FOLIO_FIXTURE_H

#include <stdbool.h>
#include "fs/fs-writeback.h"
#include "fs/fs-glue.h"
#include "mm/page-writeback.h"
#include "mm/filemap.h"
#include "ideal-bdi.h"
#include "fs/alloc/fs.h"

struct folio_fx {
	struct ideal_bdi ib;
	struct wbsim_inode *inode;
	wbsim_task task;
	struct wbsim_dirtier d;
	struct wbsim_writepages wp;
	struct wbsim_wbc wbc;
	bool written;		/* set by folio_fx_written() */
};

static inline void folio_fx_open(struct folio_fx *fx, uint64_t folio_pages, bool per_block)
{
	ideal_bdi_open(&fx->ib, 2, false);
	fx->inode = wbsim_inode_new(&fx->ib.bdi,
				    wbsim_fs_create(fx->ib.fs, wbsim_fs_root(fx->ib.fs)),
				    "/mnt/f", folio_pages, per_block);
	wbsim_task_init(&fx->task, "w", WBSIM_TASK_DIRTIER);
	wbsim_dirtier_init(&fx->d, &fx->task);
}

static inline void folio_fx_close(struct folio_fx *fx)
{
	wbsim_writepages_clear(&fx->wp);
	ideal_bdi_clear(&fx->ib);
	wbsim_inode_free(fx->inode);
	wbsim_task_clear(&fx->task);
	ideal_bdi_close(&fx->ib);
}

/* A fixture of its own, opened; folio_fx_free() closes and frees it. */
static inline struct folio_fx *folio_fx_new(uint64_t folio_pages, bool per_block)
{
	struct folio_fx *fx = g_new0(struct folio_fx, 1);

	folio_fx_open(fx, folio_pages, per_block);
	return fx;
}

static inline void folio_fx_free(struct folio_fx *fx)
{
	folio_fx_close(fx);
	g_free(fx);
}

/* The end callback of a wbsim_do_writepages() call with @arg the fixture. */
static inline void folio_fx_written(wbsim_sim *sim, void *arg)
{
	(void)sim;
	((struct folio_fx *)arg)->written = true;
}

#endif /* WBSIM_TESTS_FOLIO_FIXTURE_H */
