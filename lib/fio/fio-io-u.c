/* SPDX-License-Identifier: MIT */
/*
 * fio-io-u.c - fio 3.33's depth accounting of a job's I/O units
 * (io_u.c io_u_mark_depth/submit/complete, ioengines.c td_io_queue,
 * td_io_commit, td_io_getevents, backend.c do_io, wait_for_completions,
 * fio_io_sync), for the engines wbsim models:
 * - sync, psync, pvsync, pvsync2: no ->commit; ->queue does the write or
 *   fsync at once (FIO_Q_COMPLETED), so one io_u is out at a time.
 * - vsync: ->commit writes what ->queue gathered; fsync at once.
 * - libaio: ->commit is io_submit(); an fsync runs at once in ->queue,
 *   counted at its depth but neither submitted nor completed.
 * - io_uring: ->commit is io_uring_enter(); an fsync is an SQE like a write.
 * - posixaio: no ->commit; ->queue starts the write or fsync (aio_write,
 *   aio_fsync) and counts it submitted and completed at once; the reap
 *   counts it completed again, as fio does.
 * Every option at fio's default: iodepth_batch=1 (each io_u is committed as
 * it is queued), iodepth_batch_complete_min=1 and _max=1 (a reap returns
 * one io_u, the drain returns all), iodepth_low=iodepth. A buffered write
 * that completes inside io_submit() or io_uring_enter() is still reaped as
 * fio reaps it, so a buffered libaio job at iodepth=16 shows depth 16 as
 * fio does.
 */
#include <string.h>
#include "fio/fio-io-u.h"

static bool engine_is(const char *engine, const char *const *names)
{
	for (; *names; names++)
		if (engine && strcmp(engine, *names) == 0)
			return true;
	return false;
}

void wbsim_fio_io_u_init(struct wbsim_fio_io_u *u, const struct wbsim_fio_job *fio)
{
	static const char *const at_once[] = { "sync", "psync", "pvsync", "pvsync2", NULL };
	static const char *const with_commit[] = { "vsync", "libaio", "io_uring", NULL };
	static const char *const sync_at_once[] = { "sync", "psync", "pvsync", "pvsync2",
						    "vsync", "libaio", NULL };
	const char *engine = fio->ioengine ? fio->ioengine : "psync";

	memset(u, 0, sizeof(*u));
	u->iodepth = MAX(fio->iodepth, 1);
	u->commit = engine_is(engine, with_commit);
	u->write_completes = engine_is(engine, at_once);
	u->sync_completes = engine_is(engine, sync_at_once);
}

/* io_u.c __io_u_mark_map(): buckets 0, 1-4, 5-8, 9-16, 17-32, 33-64, > 64 */
static void __io_u_mark_map(uint64_t *map, unsigned int nr)
{
	unsigned int idx;

	if (nr == 0)
		idx = 0;
	else if (nr <= 4)
		idx = 1;
	else if (nr <= 8)
		idx = 2;
	else if (nr <= 16)
		idx = 3;
	else if (nr <= 32)
		idx = 4;
	else if (nr <= 64)
		idx = 5;
	else
		idx = 6;
	map[idx]++;
}

static void io_u_mark_submit(struct wbsim_fio_io_u *u, unsigned int nr)
{
	__io_u_mark_map(u->stat.io_u_submit, nr);
	u->stat.total_submit++;
}

static void io_u_mark_complete(struct wbsim_fio_io_u *u, unsigned int nr)
{
	__io_u_mark_map(u->stat.io_u_complete, nr);
	u->stat.total_complete++;
}

/* io_u.c io_u_mark_depth(): @nr units at the current depth, buckets 1,
 * 2-3, 4-7, 8-15, 16-31, 32-63, >= 64 */
static void io_u_mark_depth(struct wbsim_fio_io_u *u, unsigned int nr)
{
	unsigned int d = u->cur_depth, idx;

	if (d <= 1)
		idx = 0;
	else if (d < 4)
		idx = 1;
	else if (d < 8)
		idx = 2;
	else if (d < 16)
		idx = 3;
	else if (d < 32)
		idx = 4;
	else if (d < 64)
		idx = 5;
	else
		idx = 6;
	u->stat.io_u_map[idx] += nr;
}

/* ioengines.c td_io_getevents() with min = max = @nr: @nr io_us reaped */
static void td_io_getevents(struct wbsim_fio_io_u *u, unsigned int nr)
{
	io_u_mark_complete(u, nr);
	u->cur_depth -= nr;
}

/*
 * ioengines.c td_io_queue() of an io_u just taken (get_io_u() raised
 * cur_depth), a write (@rw) or an fsync; @fsyncing: end_fsync's
 * (TD_FSYNCING), not counted at its depth unless it is queued. Returns
 * true if the engine did it at once (the io_u is put back).
 */
static bool td_io_queue(struct wbsim_fio_io_u *u, bool rw, bool fsyncing)
{
	bool completes = rw ? u->write_completes : u->sync_completes;

	if (!u->commit) {
		io_u_mark_submit(u, 1);
		io_u_mark_complete(u, 1);
	}
	if (completes) {
		if (rw || !fsyncing) {
			io_u_mark_depth(u, 1);
			if (rw)
				u->stat.total_io_u++;
		}
		u->cur_depth--;		/* io_u_sync_complete(): put_io_u() */
		return true;
	}
	/* FIO_Q_QUEUED; iodepth_batch=1: td_io_commit() at once */
	if (rw)
		u->stat.total_io_u++;
	io_u_mark_depth(u, 1);
	if (u->commit)
		io_u_mark_submit(u, 1);	/* the engine's ->commit of one io_u */
	return false;
}

/* backend.c do_io(): queue, then wait_for_completions() when the io_us
 * are all out (queue_full()): one reap, iodepth_low being iodepth */
static void do_io_one(struct wbsim_fio_io_u *u, bool rw)
{
	u->cur_depth++;		/* get_io_u() */
	td_io_queue(u, rw, false);
	if (u->cur_depth >= u->iodepth)
		td_io_getevents(u, 1);
}

void wbsim_fio_io_u_write(struct wbsim_fio_io_u *u)
{
	do_io_one(u, true);
}

void wbsim_fio_io_u_fsync(struct wbsim_fio_io_u *u)
{
	do_io_one(u, false);
}

void wbsim_fio_io_u_drain(struct wbsim_fio_io_u *u)
{
	if (u->cur_depth)
		td_io_getevents(u, u->cur_depth);
}

void wbsim_fio_io_u_cleanup(struct wbsim_fio_io_u *u)
{
	/* io_u_queued_complete(td, 0): what is there, at most one (it may be
	 * none, a reap of 0 units that fio counts too) */
	td_io_getevents(u, MIN(u->cur_depth, 1));
	wbsim_fio_io_u_drain(u);
}

void wbsim_fio_io_u_end_fsync(struct wbsim_fio_io_u *u)
{
	u->cur_depth++;		/* __get_io_u() */
	/* FIO_Q_QUEUED: io_u_queued_complete(td, 1) */
	if (!td_io_queue(u, false, true))
		td_io_getevents(u, 1);
}
