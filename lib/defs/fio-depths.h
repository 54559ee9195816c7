/* SPDX-License-Identifier: MIT */
/*
 * defs/fio-depths.h - fio's I/O depth counters of a job, what its report
 * prints as "IO depths", "submit" and "complete" (JSON iodepth_level,
 * iodepth_submit, iodepth_complete). lib/fio/fio-io-u.c counts them as the
 * job runs, lib/report sums and prints them. A neutral definition: it
 * includes no folder of lib/.
 */
#ifndef WBSIM_DEFS_FIO_DEPTHS_H
#define WBSIM_DEFS_FIO_DEPTHS_H

#include <stdint.h>

/* fio's FIO_IO_U_MAP_NR: buckets 1, 2-3, 4-7, 8-15, 16-31, 32-63, >= 64 */
#define WBSIM_FIO_IO_U_MAP_NR 7

/**
 * struct wbsim_fio_depths - fio 3.33's thread_stat depth counters
 * @io_u_map: I/O units by the depth (io_us taken and not yet reaped) at
 *	     which they were committed (fio io_u_mark_depth())
 * @io_u_submit: submit calls by the number of units they passed
 *		(io_u_mark_submit(); bucket 0 is 0 units, 1 is 1-4, ...)
 * @io_u_complete: reap calls by the number of units they returned
 *		  (io_u_mark_complete(), the same buckets)
 * @total_io_u: reads, writes and trims queued (ddir_rw_sum(total_io_u)):
 *		the denominator of @io_u_map, which also counts the fsyncs
 *		of fsync=N, so its percentages may add up to more than 100
 * @total_submit: calls counted in @io_u_submit
 * @total_complete: calls counted in @io_u_complete
 */
struct wbsim_fio_depths {
	uint64_t io_u_map[WBSIM_FIO_IO_U_MAP_NR];
	uint64_t io_u_submit[WBSIM_FIO_IO_U_MAP_NR];
	uint64_t io_u_complete[WBSIM_FIO_IO_U_MAP_NR];
	uint64_t total_io_u;
	uint64_t total_submit;
	uint64_t total_complete;
};

#endif /* WBSIM_DEFS_FIO_DEPTHS_H */
