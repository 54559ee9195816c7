/* SPDX-License-Identifier: MIT */
/*
 * fio/fio-io-u.h - fio 3.33's accounting of a job's I/O units: the depth
 * at which each unit is committed, how many units each submit call passes
 * and each reap returns (fio's "IO depths", "submit", "complete").
 *
 * fio's own loop decides these, not the device: it takes io_us until all
 * iodepth of them are out (it does not reap before), then reaps exactly one
 * (iodepth_batch_complete_max and iodepth_low at their defaults) before it
 * takes the next, and reaps every unit left at the end of a loop. The
 * simulated job reports here each write and fsync it issues; the counters
 * follow from the engine (fio-io-u.c says which engine does what).
 */
#ifndef WBSIM_FIO_FIO_IO_U_H
#define WBSIM_FIO_FIO_IO_U_H

#include <stdbool.h>
#include "defs/fio.h"
#include "defs/fio-depths.h"

/**
 * struct wbsim_fio_io_u - one job's io_u accounting (fio's thread_data
 *	fields it takes)
 * @stat: the counters the report prints
 * @iodepth: fio's o.iodepth, the io_us it allocates (at least 1)
 * @commit: the engine has a ->commit hook (libaio, io_uring, vsync)
 * @write_completes: its ->queue does a write at once (FIO_Q_COMPLETED)
 * @sync_completes: its ->queue does an fsync at once
 * @cur_depth: fio's td->cur_depth, io_us taken and not yet reaped
 */
struct wbsim_fio_io_u {
	struct wbsim_fio_depths stat;
	unsigned int iodepth;
	bool commit;
	bool write_completes;
	bool sync_completes;
	unsigned int cur_depth;
};

/* The accounting of a job of @fio's ioengine and iodepth, all counters 0. */
void wbsim_fio_io_u_init(struct wbsim_fio_io_u *u, const struct wbsim_fio_job *fio);

/*
 * wbsim_fio_io_u_write() - one write of fio's do_io() loop: get_io_u(),
 * td_io_queue(), then one reap when all io_us are out
 */
void wbsim_fio_io_u_write(struct wbsim_fio_io_u *u);

/*
 * wbsim_fio_io_u_fsync() - an fsync of fsync=N (or fdatasync=N), an io_u
 * of the same loop
 */
void wbsim_fio_io_u_fsync(struct wbsim_fio_io_u *u);

/*
 * wbsim_fio_io_u_drain() - the end of a do_io() loop: fio reaps every
 * io_u still out in one call (io_u_queued_complete(td, cur_depth))
 */
void wbsim_fio_io_u_drain(struct wbsim_fio_io_u *u);

/*
 * wbsim_fio_io_u_cleanup() - the end of a loop that an error ended instead
 * (backend.c cleanup_pending_aio()): a reap of what is there, at most one
 * unit, and none when none is out, then one of all the rest
 */
void wbsim_fio_io_u_cleanup(struct wbsim_fio_io_u *u);

/*
 * wbsim_fio_io_u_end_fsync() - end_fsync's (or fsync_on_close's) fsync of
 * one file, after the drain (backend.c fio_io_sync(), in TD_FSYNCING)
 */
void wbsim_fio_io_u_end_fsync(struct wbsim_fio_io_u *u);

#endif /* WBSIM_FIO_FIO_IO_U_H */
