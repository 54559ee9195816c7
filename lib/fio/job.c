/* SPDX-License-Identifier: MIT */
/*
 * job.c - an fio job clone as a writing task on the simulated machine.
 *
 * What fio does that shapes writeback is modelled after fio 3.33's source
 * (notes in the commit history; file and function names below):
 * - layout (filesetup.c setup_files): before any job runs, a write job's
 *   file that is missing or too small is created and, with the default
 *   fallocate=native, fallocate(fd, 0, 0, size) gives it unwritten extents;
 *   fallocate=none leaves it empty; create_on_open=1 skips layout and the
 *   file is created at first open. Layout time is not in the runtime.
 * - invalidate=1 (filesetup.c file_invalidate_cache): POSIX_FADV_DONTNEED
 *   over the job's range of the file at every open and, for time_based
 *   jobs, whenever a pass over the file ends (random map full, or end of
 *   file when sequential). On Linux that starts writeback of the range's
 *   dirty pages from the calling task (WB_SYNC_NONE, no page limit, no
 *   wait) and then drops clean pages.
 * - offsets (io_u.c get_next_rand_offset, lib/axmap.c): fio's own draws
 *   (fio-random.h), block = blocks x draw / (rand_max + 1); if that block
 *   was written in this pass, the first free block above it, wrapping
 *   once; every block once per pass. norandommap: plain draws. rw=write
 *   and rw=rw write sequentially. Each job has one generator, shared by
 *   its files, seeded as fio seeds it: with randrepeat=1 (fio's default)
 *   from the job's thread number, so that every run draws the same
 *   offsets as fio; from randseed= (fio-random.h says when fio takes it);
 *   with randrepeat=0, where fio takes the system's entropy, from the
 *   simulation's seed. fio reseeds it at each new loop (randrepeat=1); a
 *   pass that fills a file's map ends with a draw that finds it full (one
 *   per file at the end of a loop).
 * - several files: round robin, switching after every write; each file
 *   gets size/nrfiles bytes; names from filename_format in the directory.
 * - runtime: from the first write to the end of the drain and end_fsync;
 *   bytes count when each write completes.
 * - ioengine=libaio with buffered writes: io_submit() runs each write to
 *   completion in the fio thread, a synchronous write(2).
 * - ioengine=io_uring with buffered writes (io_uring/rw.c io_write,
 *   io-wq): a write is issued inline with IOCB_NOWAIT if the filesystem
 *   takes buffered writes that way (FOP_BUFFER_WASYNC: XFS), else, or when
 *   it would block, punted to an io-wq worker. Without IOCB_NOWAIT
 *   (ext4) every write is punted: the writes of one file are hashed to
 *   one worker and run in order, so a job is one serial writer (@task,
 *   the worker); a punted write costs uring_queue_ns and uring_punt_ns
 *   more. The fio thread's own work per write (submission, reaping,
 *   bookkeeping: uring_io_ns) is serial with the write at iodepth=1; at a
 *   larger iodepth it runs on the fio thread (@fio_thread) alongside the
 *   worker, with each write's system call entry and exit
 *   (job_uring_punted_entry()) and the submitter's part of the punt
 *   (uring_queue_ns), and the worker may not get more than
 *   iodepth writes ahead of it. With IOCB_NOWAIT at iodepth 1 (fio waits
 *   for each write) a write that balance_dirty_pages() with BDP_ASYNC
 *   would pause, or that must update the timestamps, fails inline with
 *   -EAGAIN and is punted: the fio thread and the worker throttle on
 *   their own counts, the fio thread's attempt costs its mapping, the
 *   punch of its reservation and the throttle pass
 *   (job_uring_nowait_write()). With IOCB_NOWAIT at a larger iodepth the
 *   job writes in two lanes (job-uring-wq.c): @task is the fio thread,
 *   trying each write inline under a trylock of i_rwsem, and @wq the
 *   worker, running the writes whose attempt failed (the trylock, a
 *   timestamp update, the ILOCK's trylock, BDP_ASYNC, a folio writeback
 *   holds), at once on another CPU; fio keeps at most iodepth of them in flight and waits
 *   for them at a pass end, an fsync and the job's end.
 * - file_append=1: fio takes the file's size at set-up as the job's start
 *   offset and writes from there. wbsim writes each write at the file's
 *   current end (O_APPEND semantics), which is what the E7 tests did and
 *   agrees with fio while one job writes a file (several appenders share
 *   the end instead of overwriting each other's range). An existing file
 *   is kept, and the layout preallocates nothing: fio's fallocate(0, end
 *   + size) would move i_size, and appends would then start past the
 *   preallocated range. Invalidation (invalidate=1) covers the range a
 *   pass appends.
 * - rate=: fio issues the write after B bytes at io_start + B / rate and
 *   sleeps while ahead. The lag of a write is how late it was issued,
 *   max(0, issue - due); the job's worst lag is reported.
 * - cgroup=NAME (fio's cgroup.c): the job's task enters cgroup /NAME,
 *   created if missing, when the job starts; when it ends its task leaves
 *   (exits) and the cgroup is removed unless cgroup_nodelete=1, a failure
 *   (other tasks still in it) being ignored as fio ignores it.
 *
 * A write costs the task CPU (syscall, copy and per-page bookkeeping from
 * the cost table, plus the filesystem's delayed-allocation reservation),
 * dirties its pages, and calls the ratelimited throttle after the write
 * that reaches nr_dirtied_pause, as the kernel does. Writes are simulated in
 * batches that end exactly where the throttle must be called (or after 64
 * writes, at a pass end, at an fsync or a rate-limit sleep); the page state
 * of a batch changes when its CPU burst starts. A batch holds its file's
 * i_rwsem from its first write to its last, where the kernel takes and
 * drops it in every write() call: only a file that no other job has open
 * cannot tell the difference, so a file open in several jobs is written
 * one write per batch (job_batch_max()). The filesystem's part of each
 * write (XFS's ILOCK) is taken and dropped write by write within a batch
 * (job_batch_ilock_next()): the flusher and the completions want that
 * lock too. The writes' copy loop has its cond_resched() with i_rwsem
 * held, and the next write is issued on the CPU the last one returned on:
 * a writer leaves its CPU only where the scheduler makes it.
 */
#include <string.h>
#include <wbsim/error.h>
#include "core/cpus.h"
#include "core/pid.h"
#include "fio/fio-options.h"
#include "fio/job.h"
#include "machine/sys.h"
#include "core/sim.h"

#define JOB_BATCH_MAX 64

/*
 * What one job may ask the host to hold (issue 21): each file is a
 * simulated inode with its page cache state; the random map is one bit
 * per block, as fio's axmap (fio gives up at such sizes too: "failed
 * allocating random map ... try norandommap").
 */
#define JOB_MAX_FILES (1u << 20)
#define JOB_MAX_RANDMAP_BYTES (UINT64_C(1) << 30)

char *wbsim_fio_job_option_where(const struct wbsim_fio_job *fio, const char *key,
				 const char *shown)
{
	const struct wbsim_fio_option *o = NULL;

	for (guint i = 0; fio->options && i < fio->options->len; i++) {
		const struct wbsim_fio_option *c = fio->options->pdata[i];

		if (strcmp(c->name, key) == 0)
			o = c;
	}
	if (o)
		return g_strdup_printf("%s:%u: job '%s': %s=%s", o->file, o->line, fio->name,
				       key, o->value ? o->value : "");
	return g_strdup_printf("%s:%u: job '%s': %s=%s", fio->file, fio->line, fio->name,
			       key, shown);
}

/* Of size= and filesize=, the one the job's own section wrote last (size). */
static const char *zero_size_key(const struct wbsim_fio_job *fio)
{
	const char *key = "size";

	for (guint i = 0; fio->options && i < fio->options->len; i++) {
		const struct wbsim_fio_option *o = fio->options->pdata[i];

		if (strcmp(o->name, "size") == 0 || strcmp(o->name, "filesize") == 0)
			key = o->name;
	}
	return key;
}

/*
 * fsync=N, or fdatasync=N (fdatasync(2) every N writes: the same data
 * writeback and wait; the inode's metadata is not modelled); fsync wins
 * when both are set.
 */
static inline unsigned int job_sync_every(const struct wbsim_fio_job *fio)
{
	return fio->fsync ? fio->fsync : fio->fdatasync;
}

/* rw=randwrite and randrw draw their offsets; rw=write and rw=rw (fio's
 * writes there follow their own last position) do not. */
static inline bool job_random_offsets(const struct wbsim_fio_job *fio)
{
	return fio->rw == WBSIM_FIO_RANDWRITE || fio->rw == WBSIM_FIO_RANDRW;
}

/*
 * fio: filename=a:b:c names three files (and nrfiles is their number);
 * otherwise nrfiles files of filename_format.
 */
static unsigned int job_nr_files(const struct wbsim_fio_job *fio)
{
	if (fio->filename && strchr(fio->filename, ':')) {
		g_auto(GStrv) names = g_strsplit(fio->filename, ":", -1);

		return MAX(g_strv_length(names), 1);
	}
	return MAX(fio->nrfiles, 1);
}

/* The bounds above, before anything is allocated. */
static gboolean job_check_bounds(const struct wbsim_fio_job *fio, uint64_t bs,
				 GError **error)
{
	unsigned int nr_files = job_nr_files(fio);
	uint64_t per_file, blocks, map;

	if (nr_files > JOB_MAX_FILES) {
		g_autofree char *shown = g_strdup_printf("%u", fio->nrfiles);
		g_autofree char *where = wbsim_fio_job_option_where(fio, "nrfiles", shown);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNSUPPORTED,
			    "%s: %u files: expected at most %u files per job (each is a simulated inode)",
			    where, nr_files, JOB_MAX_FILES);
		return FALSE;
	}
	if (fio->rw != WBSIM_FIO_RANDWRITE || fio->norandommap)
		return TRUE;
	per_file = fio->filesize_min ? fio->filesize_min : fio->size / nr_files;
	blocks = per_file / bs;
	/* one bit per block and one per 64 blocks, in every file */
	map = ((blocks + 63) / 64 + (blocks + 4095) / 4096) * 8;
	if (map > JOB_MAX_RANDMAP_BYTES / nr_files) {
		g_autofree char *size = g_strdup_printf("%" G_GUINT64_FORMAT, fio->size);
		g_autofree char *where = wbsim_fio_job_option_where(fio, "size", size);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNSUPPORTED,
			    "%s: rw=randwrite over %" G_GUINT64_FORMAT " blocks of bs=%" G_GUINT64_FORMAT
			    " in %u file(s) needs a random map of %" G_GUINT64_FORMAT
			    " bytes: expected at most 1 GiB (fio: failed allocating random map; "
			    "set norandommap=1, or a larger bs or smaller size)",
			    where, blocks, bs, nr_files, map * nr_files);
		return FALSE;
	}
	return TRUE;
}

static void job_next(wbsim_sim *sim, void *arg);

static inline wbsim_time_t now_of(const struct wbsim_job *job)
{
	return wbsim_sim_now(job->m->sim);
}

/* ------------------------------------------------------------------------ */
/* Set-up                                                                   */

/* filename_format (default $jobname.$jobnum.$filenum): $jobname is the job's
 * name, $jobnum the clone number, $filenum the file's number, $clientuid 0
 * (no client/server mode). */
static char *expand_filename_format(const struct wbsim_fio_job *fio, unsigned int filenum)
{
	const char *fmt = fio->filename_format ? fio->filename_format : "$jobname.$jobnum.$filenum";
	GString *out = g_string_new(NULL);

	for (const char *p = fmt; *p;) {
		if (g_str_has_prefix(p, "$jobname")) {
			g_string_append(out, fio->name);
			p += strlen("$jobname");
		} else if (g_str_has_prefix(p, "$jobnum")) {
			g_string_append_printf(out, "%u", fio->clone);
			p += strlen("$jobnum");
		} else if (g_str_has_prefix(p, "$filenum")) {
			g_string_append_printf(out, "%u", filenum);
			p += strlen("$filenum");
		} else if (g_str_has_prefix(p, "$clientuid")) {
			g_string_append_c(out, '0');
			p += strlen("$clientuid");
		} else {
			g_string_append_c(out, *p++);
		}
	}
	return g_string_free(out, FALSE);
}

/* The path of file @filenum of the job: filename= (a ':'-separated list,
 * one per file) or filename_format in the directory (a ':'-separated
 * directory list is spread over the clones). Relative names are taken
 * relative to the mount point /mnt. */
char *wbsim_job_file_path(const struct wbsim_fio_job *fio, unsigned int filenum)
{
	g_autofree char *dir = NULL;
	g_autofree char *base = NULL;

	if (fio->directory) {
		g_auto(GStrv) dirs = g_strsplit(fio->directory, ":", -1);
		guint n = g_strv_length(dirs);

		dir = g_strdup(n ? dirs[fio->clone % n] : fio->directory);
	} else {
		dir = g_strdup("/mnt");
	}
	if (fio->filename) {
		g_auto(GStrv) names = g_strsplit(fio->filename, ":", -1);
		guint n = g_strv_length(names);

		base = g_strdup(n ? names[filenum % n] : fio->filename);
	} else {
		base = expand_filename_format(fio, filenum);
	}
	if (g_path_is_absolute(base))
		return g_steal_pointer(&base);
	/* g_build_filename() hands over its GString's buffer (128 bytes or
	 * more); the copy holds the name only (a job may have 500,000 files) */
	g_autofree char *path = g_build_filename(dir, base, NULL);

	return g_strdup(path);
}

gboolean wbsim_job_setup(struct wbsim_job *job, struct wbsim_machine *m,
			 const struct wbsim_fio_job *fio, unsigned int index, GError **error)
{
	const struct wbsim_fio_engine *engine;
	uint64_t per_file;
	char name[64];

	*job = (struct wbsim_job){ 0 };
	job->fio = fio;
	job->m = m;
	job->index = index;
	job->bs = fio->bs[WBSIM_FIO_DDIR_WRITE];
	if (job->bs == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s:%u: job '%s': bs=0: expected a block size of at least 1 byte",
			    fio->file, fio->line, fio->name);
		return FALSE;
	}
	if (fio->direct && job->bs % WBSIM_PAGE_SIZE) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNSUPPORTED,
			    "%s:%u: job '%s': direct=1 with bs=%" G_GUINT64_FORMAT ": O_DIRECT "
			    "writes of part of a 4096-byte block are not modelled",
			    fio->file, fio->line, fio->name, job->bs);
		return FALSE;
	}
	if (fio->size == 0 && fio->filesize_min == 0 && fio->size_given) {
		g_autofree char *where = wbsim_fio_job_option_where(fio, zero_size_key(fio), "0");

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s: expected a size of at least 1 byte (fio reads 0 as no size, "
			    "and the job's files are new)", where);
		return FALSE;
	}
	if (fio->size == 0 && fio->filesize_min == 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
			    "%s:%u: job '%s': neither size= nor filesize= is set",
			    fio->file, fio->line, fio->name);
		return FALSE;
	}
	if (!job_check_bounds(fio, job->bs, error))
		return FALSE;
	/* Tasks named as the kernel shows them: fio's job process is "fio"
	 * (its pid is the job's pid in the report); an io_uring job's writes
	 * run on its io-wq worker, "iou-wrk-<fio's pid>" with a pid of its
	 * own (inline writes included: one serial writer, see above), or on
	 * both in a two-lane job. */
	engine = wbsim_fio_engine_find(fio->ioengine);
	job->uring = !fio->direct && engine && (engine->flags & WBSIM_FIO_ENGINE_IO_URING);
	job->loop_by_bytes = engine && (engine->flags & WBSIM_FIO_ENGINE_ASYNC);
	if (job->uring) {
		wbsim_sys_uring_init(&job->ring, m, &job->fio_dirtier, fio->iodepth);
		wbsim_task_init(&job->fio_thread, "fio", WBSIM_TASK_DIRTIER);
		job->fio_thread.pid = wbsim_sim_alloc_pid(m->sim);
		job->pid = job->fio_thread.pid;
		if (wbsim_sys_uring_two_lanes(&job->ring)) {
			/* two lanes: @task is the fio thread itself, writing
			 * inline; the worker is @wq's */
			wbsim_task_init(&job->task, "fio", WBSIM_TASK_DIRTIER);
			job->task.pid = job->pid;
			wbsim_job_wq_setup(job, job->pid);
		} else {
			g_snprintf(name, sizeof(name), "iou-wrk-%u", job->fio_thread.pid);
			wbsim_task_init(&job->task, name, WBSIM_TASK_DIRTIER);
			job->task.pid = wbsim_sim_alloc_pid(m->sim);
		}
	} else {
		wbsim_task_init(&job->task, "fio", WBSIM_TASK_DIRTIER);
		job->task.pid = wbsim_sim_alloc_pid(m->sim);
		job->pid = job->task.pid;
	}
	/* @dirtier is the task's that sleeps in the throttle: the io-wq
	 * worker's of a two-lane job */
	wbsim_sys_copy_process(&job->dirtier, job->wq.on ? &job->wq.task : &job->task);
	/* the fio thread's attempts run on @task too (one serial writer, or
	 * a two-lane job's fio thread) */
	wbsim_sys_copy_process(&job->fio_dirtier, &job->task);
	wbsim_sys_call_init(&job->sys, m, &job->task);
	job->pending_blk = UINT64_MAX;
	wbsim_fio_io_u_init(&job->io_u, fio);
	/*
	 * fio's offset generator of the job (fio-random.h): seeded from its
	 * thread number, or randseed=; where fio would take the system's
	 * entropy (randrepeat=0), from the simulation's seed. The draw from
	 * the simulation's generator is taken in every case, so that its
	 * other users see the same stream whatever the job's options.
	 */
	job->offrand_entropy = wbsim_rng_next(wbsim_sim_rng(m->sim));
	wbsim_fio_offset_rand_init(&job->offrand, fio, job->offrand_entropy, false);
	job->nr_files = job_nr_files(fio);
	job->files = g_new0(struct wbsim_job_file, job->nr_files);
	per_file = fio->filesize_min ? fio->filesize_min : fio->size / job->nr_files;
	job->io_limit = fio->io_size ? fio->io_size : (fio->size ? fio->size
								  : per_file * job->nr_files);
	/* rw=rw/randrw: the reads are not simulated, the write share is (fio: rwmixread) */
	if (fio->rw == WBSIM_FIO_RW || fio->rw == WBSIM_FIO_RANDRW)
		job->io_limit = job->io_limit / 100 * (100 - fio->rwmix_read) +
				job->io_limit % 100 * (100 - fio->rwmix_read) / 100;
	{
		/* fio: offset + offset_increment x the clone's number, then the
		 * file: past 2^64 bytes the sum wrapped to a small offset */
		uint64_t start, end;

		if (!g_uint64_checked_mul(&start, fio->clone, fio->offset_increment) ||
		    !g_uint64_checked_add(&start, start, fio->offset) ||
		    !g_uint64_checked_add(&end, start, per_file)) {
			g_autofree char *shown = g_strdup_printf("%" G_GUINT64_FORMAT,
								 fio->offset_increment);
			g_autofree char *where = wbsim_fio_job_option_where(fio, "offset_increment",
									     shown);

			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s: job %u of numjobs=%u starts at offset=%" G_GUINT64_FORMAT
				    " + %u x %" G_GUINT64_FORMAT " and its files of %" G_GUINT64_FORMAT
				    " bytes would end past byte 2^64: expected files that end within the filesystem",
				    where, fio->clone, fio->numjobs, fio->offset, fio->clone,
				    fio->offset_increment, per_file);
			return FALSE;
		}
	}
	for (unsigned int i = 0; i < job->nr_files; i++) {
		struct wbsim_job_file *f = &job->files[i];

		/* the load-time check names only the files it counts (run.c) */
		f->path = m->setup_only ? NULL : wbsim_job_file_path(fio, i);
		/* fio: offset + offset_increment x the clone's number */
		f->offset = fio->offset + (uint64_t)fio->clone * fio->offset_increment;
		f->size = per_file;
		f->nr_blocks = per_file / job->bs;
		if (f->nr_blocks == 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s:%u: job '%s': file size %" G_GUINT64_FORMAT
				    " is smaller than bs=%" G_GUINT64_FORMAT,
				    fio->file, fio->line, fio->name, per_file, job->bs);
			return FALSE;
		}
		if (fio->rw == WBSIM_FIO_RANDWRITE && !fio->norandommap) {
			uint64_t nwords = (f->nr_blocks + 63) / 64;

			f->randmap = g_new0(uint64_t, nwords);
			f->randfull = g_new0(uint64_t, (nwords + 63) / 64);
		}
		if (job_random_offsets(fio) && wbsim_fio_rand_switches_to_64(fio, f->nr_blocks))
			job->offrand_use64 = true;
	}
	if (fio->cgroup) {
		const char *c = fio->cgroup;

		/* fio joins NAME to its cgroup mount: a leading '/' is the same */
		while (*c == '/')
			c++;
		if (!*c || strstr(c, "//") || g_str_has_suffix(c, "/") ||
		    strcmp(c, ".") == 0 || strcmp(c, "..") == 0 || strstr(c, "/./") ||
		    strstr(c, "/../") || g_str_has_prefix(c, "./") || g_str_has_prefix(c, "../") ||
		    g_str_has_suffix(c, "/.") || g_str_has_suffix(c, "/..") || strpbrk(c, " \t\n")) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s:%u: job '%s': cgroup=%s: expected a cgroup name such as "
				    "e7/a (names without blanks, '.' or '..' between single slashes)",
				    fio->file, fio->line, fio->name, fio->cgroup);
			return FALSE;
		}
	}
	wbsim_timer_init(&job->rate_timer, job_next, job);
	job->bw_window_ns = wbsim_job_logs_bw_window_ns(fio);
	wbsim_lat_hist_clear(&job->clat);
	wbsim_lat_hist_clear(&job->sync_lat);
	return TRUE;
}

/* filesetup.c setup_files(): lay out one file before the jobs start. */
static gboolean job_layout_file(struct wbsim_job *job, struct wbsim_job_file *f, GError **error)
{
	const struct wbsim_fio_job *fio = job->fio;
	gboolean created;
	uint64_t need = f->offset + f->size;

	if (fio->create_on_open)
		return TRUE;
	f->inode = wbsim_machine_open(job->m, f->path, &created);
	if (!f->inode) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
			    "cannot create %s", f->path);
		return FALSE;
	}
	/* file_append: the file is kept as it is (see the top comment) */
	if (fio->file_append)
		return TRUE;
	if (f->inode->size >= need)
		return TRUE;	/* big enough: left alone */
	job->laid_out_files++;
	job->laid_out_bytes += need;
	/* Too small or new: recreated, then fallocated by the chosen mode. */
	wbsim_sys_ftruncate(job->m, f->inode, 0);
	/* fio ignores fallocate failures; so does the model. */
	if (fio->fallocate != WBSIM_FIO_FALLOCATE_NONE &&
	    fio->fallocate != WBSIM_FIO_FALLOCATE_TRUNCATE)
		wbsim_sys_fallocate(job->m, f->inode, need,
				    fio->fallocate == WBSIM_FIO_FALLOCATE_KEEP);
	if (fio->fallocate == WBSIM_FIO_FALLOCATE_TRUNCATE)
		wbsim_sys_ftruncate(job->m, f->inode, need);
	return TRUE;
}

gboolean wbsim_job_layout(struct wbsim_job *job, GError **error)
{
	for (unsigned int i = 0; i < job->nr_files; i++)
		if (!job_layout_file(job, &job->files[i], error))
			return FALSE;
	return TRUE;
}

void wbsim_job_clear(struct wbsim_job *job)
{
	for (unsigned int i = 0; i < job->nr_files; i++) {
		g_free(job->files[i].randmap);
		g_free(job->files[i].randfull);
		g_free(job->files[i].path);
	}
	g_free(job->files);
	wbsim_lat_hist_clear(&job->clat);
	wbsim_lat_hist_clear(&job->sync_lat);
	wbsim_sys_call_clear(&job->sys);
	wbsim_job_logs_clear(&job->logs);
	if (job->bw_samples)
		g_array_free(job->bw_samples, TRUE);
	wbsim_task_clear(&job->task);
	if (job->uring)
		wbsim_task_clear(&job->fio_thread);
	wbsim_job_wq_clear(job);
}

/* The io-wq workers' tasks of a two-lane job, summed by @field */
#define WQ_SUM(job, field) \
	((job)->wq.on ? (job)->wq.task.field + ((job)->wq.spare_on ? (job)->wq.spare.field : 0) : 0)

wbsim_time_t wbsim_job_cpu_ns(const struct wbsim_job *job, wbsim_time_t *wait_ns)
{
	if (wait_ns)
		*wait_ns = job->task.cpu_wait_ns + (job->uring ? job->fio_thread.cpu_wait_ns : 0) +
			   WQ_SUM(job, cpu_wait_ns);
	return job->task.cpu_ns + (job->uring ? job->fio_thread.cpu_ns : 0) + WQ_SUM(job, cpu_ns);
}

bool wbsim_job_uring_thread_cpu(const struct wbsim_job *job, wbsim_time_t *fio_ns,
				wbsim_time_t *worker_ns)
{
	if (!job->uring)
		return false;
	if (job->wq.on) {
		/* two lanes: @task is the fio thread */
		*fio_ns = job->task.cpu_ns;
		*worker_ns = WQ_SUM(job, cpu_ns);
		return true;
	}
	if (wbsim_sys_uring_punts(&job->ring) && job->fio->iodepth > 1) {
		/* every write punted: @task is the worker */
		*fio_ns = job->fio_thread.cpu_ns;
		*worker_ns = job->task.cpu_ns;
		return true;
	}
	return false;
}

uint64_t wbsim_job_nvcsw(const struct wbsim_job *job)
{
	return job->task.nvcsw + (job->uring ? job->fio_thread.nvcsw : 0) + WQ_SUM(job, nvcsw);
}

uint64_t wbsim_job_nivcsw(const struct wbsim_job *job)
{
	return job->task.nivcsw + (job->uring ? job->fio_thread.nivcsw : 0) + WQ_SUM(job, nivcsw);
}

/* The CPU time the job's tasks waited for locks (i_rwsem, folios, ILOCK) */
wbsim_time_t wbsim_job_lock_wait_ns(const struct wbsim_job *job)
{
	return job->task.lock_wait_ns + WQ_SUM(job, lock_wait_ns);
}

/* ------------------------------------------------------------------------ */
/* Writeback started by the task itself: fadvise(DONTNEED) and fsync        */
/* (the machine's calls, machine/sys.c)                                     */

/* The fsync or fadvise of job->after_sync returned. */
static void job_sys_returned(void *arg)
{
	struct wbsim_job *job = arg;

	job->after_sync(job);
}

/*
 * fadvise(POSIX_FADV_DONTNEED) over the range fio passes: the job's part
 * of the file, or for file_append the range this pass appends (or
 * appended).
 */
static void job_fadvise_dontneed(struct wbsim_job *job, unsigned int file,
				 void (*then)(struct wbsim_job *job))
{
	struct wbsim_job_file *f = &job->files[file];

	job->invalidates++;
	job->after_sync = then;
	job->sync_start = 0;
	wbsim_sys_fadvise_dontneed(&job->sys, f->inode,
				   job->fio->file_append ? f->pass_start : f->offset, f->size,
				   job_sys_returned, job);
}

static void job_fsync_returned(void *arg);

/* fsync(2) of the whole file (fdatasync(2) is the same call in the model). */
static void job_fsync(struct wbsim_job *job, unsigned int file, void (*then)(struct wbsim_job *job))
{
	job->after_sync = then;
	job->sync_start = now_of(job);
	wbsim_sys_fsync(&job->sys, job->files[file].inode, job_fsync_returned, job);
}

static void job_end_fsync_next(struct wbsim_job *job);

static void job_fsync_returned(void *arg)
{
	struct wbsim_job *job = arg;

	/* fio's sync latencies are fsync=N's: end_fsync's fsync() is no I/O unit */
	if (job->after_sync != job_end_fsync_next) {
		wbsim_lat_hist_add(&job->sync_lat, now_of(job) - job->sync_start);
		wbsim_fio_io_u_fsync(&job->io_u);
	} else {
		wbsim_fio_io_u_end_fsync(&job->io_u);
	}
	job->sync_start = 0;
	job->after_sync(job);
}

/* ------------------------------------------------------------------------ */
/* Offsets                                                                  */

/* The first block at or above @b not yet written in this pass, wrapping
 * once (lib/axmap.c axmap_next_free()). A second level (one bit per full
 * word of the map) keeps the search short when the pass is nearly done. */
static uint64_t randmap_next_free(const struct wbsim_job_file *f, uint64_t b)
{
	uint64_t nwords = (f->nr_blocks + 63) / 64;
	uint64_t nfull = (nwords + 63) / 64;

	for (int pass = 0; pass < 2; pass++) {
		uint64_t w = b / 64;
		uint64_t word = f->randmap[w] | ((UINT64_C(1) << (b % 64)) - 1);

		if (~word) {
			uint64_t blk = w * 64 + (uint64_t)__builtin_ctzll(~word);

			if (blk < f->nr_blocks)
				return blk;
		}
		/* the next word that is not full, from the summary */
		for (uint64_t s = (w + 1) / 64; s < nfull; s++) {
			uint64_t sum = f->randfull[s];

			if (s == (w + 1) / 64)
				sum |= ((UINT64_C(1) << ((w + 1) % 64)) - 1);
			if (~sum) {
				uint64_t nw = s * 64 + (uint64_t)__builtin_ctzll(~sum);
				uint64_t blk;

				if (nw >= nwords)
					break;
				blk = nw * 64 + (uint64_t)__builtin_ctzll(~f->randmap[nw]);
				if (blk < f->nr_blocks)
					return blk;
				break;
			}
		}
		b = 0;
	}
	return UINT64_MAX;
}

static void randmap_set(struct wbsim_job_file *f, uint64_t b)
{
	uint64_t w = b / 64;

	f->randmap[w] |= UINT64_C(1) << (b % 64);
	f->randmap_used++;
	if (f->randmap[w] == UINT64_MAX)
		f->randfull[w / 64] |= UINT64_C(1) << (w % 64);
}

/*
 * The block wbsim_job_next_block() will most likely return for @f next,
 * drawn from a copy of the job's generator (nothing changes): the block
 * the draw names (its randmap bit is usually clear), or UINT64_MAX when
 * the next block is not a random draw.
 */
uint64_t wbsim_job_peek_next_block(const struct wbsim_job *job, const struct wbsim_job_file *f)
{
	struct wbsim_fio_rand copy;

	if (!job_random_offsets(job->fio) || !f->randmap || f->randmap_used >= f->nr_blocks)
		return UINT64_MAX;
	copy = job->offrand;
	return wbsim_fio_rand_block(&copy, f->nr_blocks);
}

static void randmap_clear(struct wbsim_job_file *f)
{
	uint64_t nwords = (f->nr_blocks + 63) / 64;

	memset(f->randmap, 0, sizeof(uint64_t) * nwords);
	memset(f->randfull, 0, sizeof(uint64_t) * ((nwords + 63) / 64));
	f->randmap_used = 0;
}

/*
 * A new loop of fio's (loops=, or io_size= beyond the files): fio reopens
 * the files, which clears their random maps (ioengines.c
 * td_io_open_file()), and with randrepeat=1 reseeds the generator
 * (libfio.c clear_io_state()), so that each loop draws the first loop's
 * offsets again. A file whose map is full starts its new pass (and its
 * fadvise) when it is next asked for a block, without a draw; another
 * file's map is cleared here.
 */
static void job_new_loop(struct wbsim_job *job)
{
	/* do_io() of the loop ends reaping every io_u still out */
	wbsim_fio_io_u_drain(&job->io_u);
	job->loop_start = job->rand_blocks;
	job->loop_files_left = 0;
	for (unsigned int i = 0; i < job->nr_files; i++) {
		struct wbsim_job_file *f = &job->files[i];

		if (!f->randmap || f->map_full_seen)
			continue;
		if (f->randmap_used >= f->nr_blocks)
			job->loop_files_left++;
		else
			randmap_clear(f);
	}
	if (wbsim_fio_rand_repeatable(job->fio))
		wbsim_fio_offset_rand_init(&job->offrand, job->fio, job->offrand_entropy,
					   job->offrand_use64);
}

/*
 * loops=N with an engine fio queues to (libaio, io_uring): the loop ends
 * when its bytes are issued, and the next begins. fio 3.33 counts a
 * loop's bytes only for I/O an engine queues (backend.c do_io(),
 * io_queue_event()): with psync and the other synchronous engines a loop
 * goes on until its files are done (job_map_full()) or the bytes of all
 * loops are written, so that norandommap=1 draws one sequence throughout.
 */
static void job_loop_check(struct wbsim_job *job)
{
	const struct wbsim_fio_job *fio = job->fio;
	uint64_t per_loop = job->io_limit / job->bs;

	if (!job->loop_by_bytes || fio->time_based || fio->loops <= 1 || per_loop == 0 ||
	    job->rand_blocks == 0 ||
	    job->rand_blocks % per_loop || job->rand_blocks == job->loop_start)
		return;
	job_new_loop(job);
}

/*
 * fio draws, and finds no free block in @f's map (axmap_next_free() is -1):
 * a time_based job clears the map and draws again (io_u.c
 * get_next_rand_block()); another job's loop is over (loops=, io_size=
 * beyond the files): fio draws once in each file, finds each full, and
 * starts a new loop. Taken once per full map: a direct I/O job asks again
 * while its writes drain.
 */
static void job_map_full(struct wbsim_job *job, struct wbsim_job_file *f)
{
	if (f->map_full_seen)
		return;
	f->map_full_seen = true;
	if (job->fio->time_based) {
		(void)wbsim_fio_rand_next(&job->offrand);
		return;
	}
	if (job->loop_files_left) {
		job->loop_files_left--;
		return;
	}
	for (unsigned int i = 0; i < job->nr_files; i++)
		(void)wbsim_fio_rand_next(&job->offrand);
	job_new_loop(job);
}

static unsigned int job_batch_max(const struct wbsim_job *job);
static void job_add_fs_cost(struct wbsim_job *job, wbsim_time_t fs_cost);
static uint64_t job_write_offset(const struct wbsim_job *job, const struct wbsim_job_file *f,
				 uint64_t blk);

/*
 * Start loading what the job's next write will touch while this one runs:
 * its randmap word, its page's page-cache words and the filesystem's map
 * where its write hook looks. The writes of a random writer land anywhere
 * in a file of hundreds of MiB, and each of these loads would otherwise
 * miss the cache in turn. A hint only: no state changes, so the
 * simulation is the same with it or without.
 */
static void job_prefetch_next(const struct wbsim_job *job)
{
	const struct wbsim_job_file *f = &job->files[(job->cur_file + 1) % job->nr_files];
	uint64_t b, off;

	if (!f->opened)
		return;
	b = wbsim_job_peek_next_block(job, f);
	if (b == UINT64_MAX)
		return;
	__builtin_prefetch(&f->randmap[b / 64], 1);
	if (job->fio->file_append)
		return;
	off = job_write_offset(job, f, b);
	/*
	 * The filesystem's map too, when the next write comes in a later
	 * event (another file's batch, or this one is the batch's last): in
	 * the same batch the load would have no time to land before the
	 * write, and the prefetch's own index search would only add work.
	 */
	wbsim_sys_write_prefetch(job->m, f->inode, off,
				 f->inode != job->locked_inode ||
				 job->batch_ios + 1 >= job_batch_max(job));
}

/* Next block of file @f, or UINT64_MAX when the pass is over. */
uint64_t wbsim_job_next_block(struct wbsim_job *job, struct wbsim_job_file *f)
{
	if (!job_random_offsets(job->fio)) {
		uint64_t b = f->seq_next;

		if (b >= f->nr_blocks)
			return UINT64_MAX;
		/* rw=write:N: fio adds N bytes after each write (whole blocks: checked at load) */
		f->seq_next += 1 + job->fio->rw_modifier / job->bs;
		return b;
	}
	job_loop_check(job);
	if (!f->randmap) {
		/* norandommap: every draw is taken as it comes */
		job->rand_blocks++;
		return wbsim_fio_rand_block(&job->offrand, f->nr_blocks);
	}
	if (f->randmap_used >= f->nr_blocks) {
		job_map_full(job, f);
		return UINT64_MAX;
	}
	{
		uint64_t b = wbsim_fio_rand_block(&job->offrand, f->nr_blocks);

		/* written in this pass: the next free block above, wrapping */
		if (f->randmap[b / 64] & (UINT64_C(1) << (b % 64)))
			b = randmap_next_free(f, b);
		randmap_set(f, b);
		job->rand_blocks++;
		return b;
	}
}

void wbsim_job_new_pass(struct wbsim_job *job, struct wbsim_job_file *f)
{
	f->seq_next = 0;
	if (job->fio->file_append)
		f->pass_start = f->inode->size;
	f->map_full_seen = false;
	if (f->randmap)
		randmap_clear(f);
}

/* ------------------------------------------------------------------------ */
/* The write loop                                                           */

double wbsim_job_progress(const struct wbsim_job *job, wbsim_time_t now)
{
	double by_bytes = 0, by_time = 0;
	uint64_t planned = job->io_limit * MAX(job->fio->loops, 1);

	if (job->state == JOB_DONE)
		return 1;
	if (job->state != JOB_RUNNING)
		return 0;
	if (job->fio->runtime_ns)
		by_time = (double)(now - job->io_start_ns) / (double)job->fio->runtime_ns;
	if (!job->fio->time_based && planned)
		by_bytes = (double)job->bytes_done / (double)planned;
	if (job->fio->number_ios)
		by_bytes = MAX(by_bytes, (double)job->ios_done / (double)job->fio->number_ios);
	return MIN(MAX(by_bytes, by_time), 1.0);
}

bool wbsim_job_should_stop(const struct wbsim_job *job)
{
	if (job->stopped)
		return true;
	if (job->fio->number_ios && job->ios_done >= job->fio->number_ios)
		return true;
	if (job->fio->time_based)
		return now_of(job) >= job->deadline_ns;
	return job->bytes_done >= job->io_limit * MAX(job->fio->loops, 1);
}

static void job_batch_done(wbsim_sim *sim, void *arg);
static void job_batch_locked(wbsim_sim *sim, void *arg);
static void job_after_throttle(wbsim_sim *sim, void *arg);

/*
 * io_uring, a write punted to the io-wq worker: the entry and exit of the
 * system call that submits it (syscall_entry_ns of write_syscall_ns)
 * run in the fio thread's io_uring_enter(); the worker runs the write
 * from ->write_iter on. The lab's E6 on ext4 (every write punted, 2 CPUs)
 * has the "syscall" and unattributed kernel time in the fio thread, 1.4 us
 * a write, none in the worker (lab/results-v1272/e6-lab-ram-ext4 cpu.json).
 */
static wbsim_time_t job_uring_punted_entry(const struct wbsim_job *job)
{
	const struct wbsim_cpu_costs *c = &job->m->costs;

	return MIN(c->syscall_entry_ns, c->write_syscall_ns);
}

/* io_uring: the fio thread's CPU for a write it punts to io-wq: its own
 * work, the system call's entry and exit, the submitter's part of the
 * punt (the completion the worker hands back, io_queue_iowq) */
static wbsim_time_t job_uring_punt_submit_cost(const struct wbsim_job *job)
{
	const struct wbsim_cpu_costs *c = &job->m->costs;

	return c->uring_io_ns + job_uring_punted_entry(job) + c->uring_queue_ns;
}

/* io_uring: CPU work of the fio thread the worker may run ahead of */
static wbsim_time_t job_fio_thread_slack(const struct wbsim_job *job)
{
	return (wbsim_time_t)MAX(job->fio->iodepth, 1) * job_uring_punt_submit_cost(job);
}

static void job_fio_thread_kick(struct wbsim_job *job);

static void job_fio_thread_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;

	job->fio_burst = 0;
	job_fio_thread_kick(job);
	if (job->fio_waited && job->fio_backlog + job->fio_burst <= job_fio_thread_slack(job)) {
		job->fio_waited = false;
		wbsim_sim_schedule_at(sim, now_of(job), job_next, job);
	}
}

/* io_uring: run the fio thread's pending work, one burst at a time. */
static void job_fio_thread_kick(struct wbsim_job *job)
{
	if (job->fio_burst || !job->fio_backlog)
		return;
	job->fio_burst = job->fio_backlog;
	job->fio_backlog = 0;
	wbsim_cpus_run(job->m->cpus, &job->fio_thread, job->fio_burst, job_fio_thread_done, job);
}

/* file_append: O_APPEND, at the end of the file as it is now */
static uint64_t job_write_offset(const struct wbsim_job *job, const struct wbsim_job_file *f,
				 uint64_t blk)
{
	return job->fio->file_append ? f->inode->size : f->offset + blk * job->bs;
}

/* One buffered write of bs bytes at block @blk of file @f (the
 * machine's write(2), or io_uring's io_write()), with the fio job's own
 * costs of the engine (io_uring's, or fio's loop around a system call
 * per write). Sets *@throttle when balance_dirty_pages() is due after it.
 * Returns its CPU cost. */
static wbsim_time_t job_buffered_write(struct wbsim_job *job, struct wbsim_job_file *f, uint64_t blk,
				       wbsim_time_t at, bool *throttle)
{
	const struct wbsim_cpu_costs *c = &job->m->costs;
	uint64_t off = job_write_offset(job, f, blk);
	wbsim_time_t fs_cost, cost;

	if (job->uring) {
		/* punted writes at a larger iodepth: the fio thread's part
		 * runs alongside the worker */
		bool fio_apart = wbsim_sys_uring_punts(&job->ring) && job->fio->iodepth > 1;

		cost = wbsim_sys_uring_write(&job->ring, job->m, &job->dirtier, f->inode, off,
					     job->bs, at, throttle, &fs_cost);
		if (fio_apart) {
			wbsim_time_t entry = MIN(job_uring_punted_entry(job),
						 cost > fs_cost ? cost - fs_cost : 0);

			/* the submitter's part of the punt (the completion
			 * the worker hands back, io_queue_iowq) is the fio
			 * thread's too */
			entry += MIN(c->uring_queue_ns, cost - entry);
			cost -= entry;
			job->fio_backlog += c->uring_io_ns + entry;
			job->batch_entry_apart = true;
		} else {
			cost += c->uring_io_ns;
		}
	} else {
		/* a pwrite() (or io_submit()) of its own, and fio's loop around it */
		cost = wbsim_sys_write(job->m, &job->dirtier, f->inode, off, job->bs, at, throttle,
				       &fs_cost) + c->sync_io_ns;
	}
	job_add_fs_cost(job, fs_cost);
	return cost;
}

/* The filesystem's part of the batch's next write (batch_ios). */
static void job_add_fs_cost(struct wbsim_job *job, wbsim_time_t fs_cost)
{
	job->batch_fs_cost[job->batch_ios] = fs_cost;
	job->batch_fs_total += fs_cost;
}

/* io_uring at iodepth 1 on a filesystem that takes IOCB_NOWAIT buffered
 * writes: each write is first tried inline by the fio thread */
static bool job_uring_inline_first(const struct wbsim_job *job)
{
	return job->uring && wbsim_sys_uring_inline_first(&job->ring);
}

/*
 * One write of such a job: tried inline by the fio thread, punted to the
 * io-wq worker when it would block (wbsim_sys_uring_nowait_write(), the
 * kernel's side); the fio thread's own work per write on top. Sets
 * *@wq_throttle, writing nothing, when the worker must throttle before
 * the punted write (the caller runs it, then issues the write again).
 * Returns the CPU cost, all serial at iodepth 1.
 */
static wbsim_time_t job_uring_nowait_write(struct wbsim_job *job, struct wbsim_job_file *f,
					   uint64_t blk, wbsim_time_t at, bool *wq_throttle)
{
	wbsim_time_t fs_cost;
	wbsim_time_t cost = wbsim_sys_uring_nowait_write(&job->ring, job->m, &job->dirtier,
							 f->inode, job_write_offset(job, f, blk),
							 job->bs, at, wq_throttle, &fs_cost);

	if (*wq_throttle)
		return 0;
	job_add_fs_cost(job, fs_cost);
	return cost + job->m->costs.uring_io_ns;
}

static void job_batch_start(wbsim_sim *sim, void *arg);
static bool job_batch_ilock_next(struct wbsim_job *job);
static void job_write_enospc(struct wbsim_job *job, struct wbsim_job_file *f);
static void job_after_unlock(wbsim_sim *sim, void *arg);
static void job_bw_sample(struct wbsim_job *job);

/* Two lanes, a job of a size: fio has issued every write it will (some
 * may still be the worker's) */
static bool job_uring_issued_all(const struct wbsim_job *job)
{
	const struct wbsim_fio_job *fio = job->fio;

	if (!job->wq.on || fio->time_based)
		return false;
	if (fio->number_ios && job->issued_bytes / job->bs >= fio->number_ios)
		return true;
	return job->issued_bytes >= job->io_limit * MAX(fio->loops, 1);
}

/*
 * Two lanes: fio's write at block @blk of file @fi failed inline (@why)
 * and goes to the io-wq worker (job-uring-wq.c). The fio thread has
 * issued it: its own work per write, the system call's entry up to the
 * failed attempt, the punt's part on its side (uring_queue_ns), and the
 * throttle's pass where that failed. Returns that
 * CPU of the fio thread.
 */
static wbsim_time_t job_uring_punt(struct wbsim_job *job, unsigned int fi, uint64_t blk,
				   enum wbsim_uring_eagain why)
{
	struct wbsim_job_file *f = &job->files[fi];
	wbsim_time_t cost = job_uring_punt_submit_cost(job);

	if (why == WBSIM_URING_EAGAIN_THROTTLE)
		cost += job->m->costs.balance_dirty_pages_ns;
	/* and io_wq_enqueue()'s wake-up of the sleeping worker */
	cost += wbsim_job_wq_punt(job, fi, job_write_offset(job, f, blk), why, now_of(job));
	job->issued_bytes += job->bs;
	wbsim_fio_io_u_write(&job->io_u);
	f->since_fsync++;
	job->cur_file = (job->cur_file + 1) % job->nr_files;
	return cost;
}

/* Two lanes: the trylock of i_rwsem failed (the worker holds it): the
 * next write goes to io-wq, and fio goes on to the one after. */
static void job_uring_punt_locked_out(struct wbsim_job *job, struct wbsim_job_file *f)
{
	uint64_t blk = job->pending_blk != UINT64_MAX ? job->pending_blk
						      : wbsim_job_next_block(job, f);
	wbsim_time_t cost;

	job->locked_inode = NULL;
	job->pending_blk = UINT64_MAX;
	if (blk == UINT64_MAX) {
		job->batch_pass_end = true;
		job_after_unlock(job->m->sim, job);
		return;
	}
	cost = job_uring_punt(job, job->cur_file, blk, WBSIM_URING_EAGAIN_LOCK);
	/* the fio thread goes on on its CPU: an fsync due, its rate, the
	 * next write */
	wbsim_cpus_run_on(job->m->cpus, &job->task, cost, job_after_unlock, job);
}

/* Two lanes: the fio thread runs; the inline attempt takes i_rwsem, or
 * the write goes to io-wq. */
static void job_uring_trylock(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	struct wbsim_job_file *f = &job->files[job->cur_file];

	if (wbsim_sys_write_inode_trylock(&job->sys, f->inode))
		job_batch_start(sim, job);
	else
		job_uring_punt_locked_out(job, f);
}

/* Issue the next batch of writes, ending where the kernel would call
 * balance_dirty_pages(), at a pass end, at an fsync point, or at 64. */
static void job_next(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	const struct wbsim_fio_job *fio = job->fio;
	struct wbsim_job_file *f;

	(void)sim;
	if (wbsim_job_should_stop(job) || job_uring_issued_all(job)) {
		/* fio reaps every write in flight before it ends */
		if (job->wq.on && wbsim_job_wq_inflight(job)) {
			job->wq.fio_waits = true;
			return;
		}
		wbsim_job_finish(job);
		return;
	}
	/* two lanes: fio keeps iodepth writes in flight, no more */
	if (job->wq.on && wbsim_job_wq_inflight(job) >= MAX(fio->iodepth, 1)) {
		job->wq.fio_waits = true;
		return;
	}
	/* io_uring: the worker has run every write fio has submitted */
	if (job->uring && job->fio_backlog + job->fio_burst > job_fio_thread_slack(job)) {
		job->fio_waited = true;
		return;
	}
	/* a frozen filesystem stops writers inside their next write() */
	if (!job->frozen_since && wbsim_sys_write_frozen(job->m, job_next, job)) {
		job->frozen_since = now_of(job);
		return;
	}
	job->batch_ios = 0;
	job->batch_fs_total = 0;
	job->batch_entry_apart = false;
	job->batch_throttle = false;
	job->batch_pass_end = false;
	job->batch_punted = false;
	/* the first write of the batch was issued when the wait began */
	job->batch_issue = job->frozen_since ? job->frozen_since : now_of(job);
	job->frozen_since = 0;
	/* rate=: how late this write is behind fio's schedule (a paced
	 * batch holds one write) */
	if (fio->rate[WBSIM_FIO_DDIR_WRITE]) {
		wbsim_time_t due = wbsim_job_due(job, job->issued_bytes);

		if (job->batch_issue > due && job->batch_issue - due > job->max_lag_ns)
			job->max_lag_ns = job->batch_issue - due;
	}
	f = &job->files[job->cur_file];
	if (!f->opened) {
		wbsim_job_open_file(job, job->cur_file);	/* open outside a batch */
		return;
	}
	/* ->write_iter: the batch's writes go to this file, under its i_rwsem */
	job->locked_inode = f->inode;
	if (job->wq.on) {
		/* IOCB_NOWAIT's trylock, by the fio thread on its CPU (it
		 * may have slept waiting for a completion) */
		wbsim_cpus_run_on(job->m->cpus, &job->task, 0, job_uring_trylock, job);
		return;
	}
	if (job_batch_max(job) == 1) {
		/* a file other jobs write: the lock is asked for after the
		 * syscall's entry, on a CPU */
		wbsim_sys_write_enter(&job->sys, f->inode, job_batch_start, job);
		return;
	}
	wbsim_sys_write_inode_lock(&job->sys, f->inode, job_batch_start, job);
}

/* The batch ends: inode_unlock() after the last write's throttle.
 * Returns the CPU the job spends waking a writer that slept on it. */
static wbsim_time_t job_write_unlock(struct wbsim_job *job)
{
	wbsim_time_t wake;

	if (!job->locked_inode)
		return 0;
	wake = wbsim_sys_write_inode_unlock(&job->sys, job->locked_inode);
	job->locked_inode = NULL;
	return wake;
}

/*
 * Writes per batch into the file whose i_rwsem the batch holds. The kernel
 * takes the lock in each write() (xfs_file_buffered_write's
 * xfs_ilock(XFS_IOLOCK_EXCL), inode_lock() in ext4 and the generic path)
 * and drops it before the call returns; holding it across a batch is a
 * shortcut only where no other task may want the lock in between, a file
 * that this job alone has open.
 */
static unsigned int job_batch_max(const struct wbsim_job *job)
{
	/* two lanes: the worker wants the lock between two inline writes */
	if (job->wq.on && wbsim_job_wq_inflight(job))
		return 1;
	return job->locked_inode && job->locked_inode->openers > 1 ? 1 : JOB_BATCH_MAX;
}

/*
 * The write's reservation failed with ENOSPC: the kernel flushes, frees
 * and retries once (wbsim_sys_write_enospc()); a second ENOSPC fails the
 * write, and fio ends the job with its error (td_verror: err=28, "No
 * space left on device").
 */
static void job_write_enospc(struct wbsim_job *job, struct wbsim_job_file *f)
{
	if (wbsim_sys_write_enospc(&job->sys, job_batch_start, job))
		return;
	job->error = 28;	/* ENOSPC */
	wbsim_fio_io_u_write(&job->io_u);	/* fio queued the write that failed */
	g_ptr_array_add(job->m->warnings,
			g_strdup_printf("fio: io_u error on file %s: No space left on device: "
					"write offset=%" G_GUINT64_FORMAT ", buflen=%" G_GUINT64_FORMAT
					" (job %s, at %.3f s)", f->path,
					job_write_offset(job, f, job->pending_blk), job->bs,
					job->fio->name, now_of(job) / 1e9));
	job->pending_blk = UINT64_MAX;
	job->stopped = true;
	(void)job_write_unlock(job);
	job_next(job->m->sim, job);
}

/* i_rwsem is held: issue the writes of the batch into its file. */
static void job_batch_start(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	const struct wbsim_fio_job *fio = job->fio;
	wbsim_time_t total = 0;

	(void)sim;
	while (job->batch_ios < job_batch_max(job)) {
		unsigned int fi = job->cur_file;
		struct wbsim_job_file *f = &job->files[fi];
		uint64_t blk;
		bool throttle;

		/* each write(2) takes its own file's i_rwsem */
		if (!f->opened || f->inode != job->locked_inode)
			break;
		blk = job->pending_blk != UINT64_MAX ? job->pending_blk : wbsim_job_next_block(job, f);
		job->pending_blk = UINT64_MAX;
		if (blk == UINT64_MAX) {
			job->batch_pass_end = true;
			break;
		}
		/* two lanes: the inline attempt's -EAGAIN before it writes
		 * (a timestamp update due, BDP_ASYNC's pause; write_begin's
		 * FGP_NOWAIT on a folio writeback holds locked) */
		if (job->wq.on) {
			enum wbsim_uring_eagain why = wbsim_sys_uring_inline_eagain(
				&job->ring, job->m, f->inode, now_of(job) + total);

			if (why == WBSIM_URING_INLINE &&
			    wbsim_sys_write_folio_locked(job->m, f->inode,
							 job_write_offset(job, f, blk), job->bs))
				why = WBSIM_URING_EAGAIN_FOLIO;
			if (why != WBSIM_URING_INLINE) {
				total += job_uring_punt(job, fi, blk, why);
				job->batch_punted = true;
				break;
			}
		}
		/* write_begin waits for a folio writeback holds locked: the
		 * first write of a batch here, a later one starts the next */
		if (job->batch_ios && wbsim_sys_write_folio_locked(job->m, f->inode,
								   job_write_offset(job, f, blk),
								   job->bs)) {
			job->pending_blk = blk;
			break;
		}
		if (wbsim_sys_write_wait_folio_lock(&job->sys, f->inode,
						    job_write_offset(job, f, blk), job->bs,
						    job_batch_start, job)) {
			job->pending_blk = blk;
			return;
		}
		/* ext4_da_write_begin() -> ext4_nonda_switch(): delayed
		 * allocations near the free space push every dirty inode out
		 * and the writer waits, unless the flusher runs already; a
		 * later write of the batch ends it first */
		if (wbsim_sys_write_free_space_low(&job->sys)) {
			job->pending_blk = blk;
			if (job->batch_ios)
				break;
			if (wbsim_sys_write_nonda_switch(&job->sys, job_batch_start, job))
				return;
			job->pending_blk = UINT64_MAX;
		}
		/* iomap_begin's reservation: ENOSPC ends the batch before it */
		if (!wbsim_sys_write_reserve_delalloc(&job->sys, f->inode,
						      job_write_offset(job, f, blk), job->bs)) {
			job->pending_blk = blk;
			if (job->batch_ios)
				break;
			job_write_enospc(job, f);
			return;
		}
		job->batch_off[job->batch_ios] = job_write_offset(job, f, blk);
		job_prefetch_next(job);
		if (job->wq.on) {
			/* the fio thread's inline write: its throttle look was
			 * BDP_ASYNC's, above */
			wbsim_time_t fs_cost;

			job->batch_cost[job->batch_ios] =
				wbsim_sys_write(job->m, &job->fio_dirtier, f->inode,
						job_write_offset(job, f, blk), job->bs,
						now_of(job) + total, NULL, &fs_cost) +
				job->m->costs.uring_io_ns;
			job_add_fs_cost(job, fs_cost);
			throttle = false;
		} else if (job_uring_inline_first(job)) {
			bool wq_throttle;

			job->batch_cost[job->batch_ios] = job_uring_nowait_write(job, f, blk,
										 now_of(job) + total,
										 &wq_throttle);
			if (wq_throttle) {
				/* the worker throttles before the punted write */
				job->pending_blk = blk;
				job->batch_inode = f->inode;
				job->batch_throttle = true;
				break;
			}
			throttle = false;
		} else {
			job->batch_cost[job->batch_ios] = job_buffered_write(job, f, blk,
									     now_of(job) + total,
									     &throttle);
		}
		total += job->batch_cost[job->batch_ios];
		job->batch_ios++;
		job->issued_bytes += job->bs;
		wbsim_fio_io_u_write(&job->io_u);
		job->batch_inode = f->inode;
		f->since_fsync++;
		/* round robin over the files, after every write */
		job->cur_file = (job->cur_file + 1) % job->nr_files;
		if (throttle) {
			job->batch_throttle = true;
			break;
		}
		if (job_sync_every(fio) && f->since_fsync >= job_sync_every(fio))
			break;
		if (!fio->time_based &&
		    job->bytes_done + (uint64_t)job->batch_ios * job->bs >= job->io_limit * MAX(fio->loops, 1))
			break;
		/* number_ios: fio stops at that many writes */
		if (fio->number_ios && job->ios_done + job->batch_ios >= fio->number_ios)
			break;
		if (fio->rate[WBSIM_FIO_DDIR_WRITE])
			break;	/* pacing is decided write by write */
	}
	if (job->batch_ios == 0 && job->batch_punted) {
		/* two lanes: the attempt failed under the lock, which fio
		 * drops before it goes on */
		total += job_write_unlock(job);
		wbsim_cpus_run_on(job->m->cpus, &job->task, total, job_after_unlock, job);
		return;
	}
	if (job->batch_ios == 0 && job->batch_throttle) {
		/* io-wq's worker throttles before its first write */
		job->batch_total = 0;
		job_batch_done(sim, job);
		return;
	}
	if (job->batch_ios == 0) {
		/* The pass ended before any write of this batch (a waking
		 * of the unlock here is not charged: it ends the job's pass) */
		(void)job_write_unlock(job);
		wbsim_job_pass_over(job);
		return;
	}
	if (job_batch_max(job) == 1 && !job->batch_entry_apart && !job->wq.on) {
		/* the syscall's entry ran before the lock (wbsim_sys_write_enter()) */
		wbsim_time_t entry = MIN(job->m->costs.syscall_entry_ns,
					 job->batch_cost[0] - job->batch_fs_total);

		job->batch_cost[0] -= entry;
		total -= entry;
	}
	job->batch_total = total;
	if (job->uring)
		job_fio_thread_kick(job);
	/* the filesystem's part of the writes under its write lock, then the rest */
	job->batch_fs_section = 0;
	if (job_batch_ilock_next(job))
		return;
	wbsim_cpus_run(job->m->cpus, &job->task, total, job_batch_done, job);
}

/*
 * Take the filesystem's write lock (XFS's ILOCK) for the next write of the
 * batch that has a part under it; FALSE when none is left (or the
 * filesystem has no such lock). Each write takes and drops it, as each
 * write() does in the kernel: a flusher or a completion that wants it
 * gets it between two writes, not after the whole batch's part.
 */
static bool job_batch_ilock_next(struct wbsim_job *job)
{
	while (job->batch_fs_section < job->batch_ios && !job->batch_fs_cost[job->batch_fs_section])
		job->batch_fs_section++;
	if (job->batch_fs_section >= job->batch_ios)
		return false;
	return wbsim_sys_write_ilock(&job->sys, job->batch_inode, job_batch_locked, job);
}

static void job_batch_unlock(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;

	(void)sim;
	wbsim_sys_write_iunlock(&job->sys, job->batch_inode);
	job->batch_fs_section++;
	if (job_batch_ilock_next(job))
		return;
	wbsim_cpus_run(job->m->cpus, &job->task, job->batch_total - job->batch_fs_total,
		       job_batch_done, job);
}

static void job_batch_locked(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	wbsim_time_t cost = job->batch_fs_cost[job->batch_fs_section];

	(void)sim;
	/* a contended file's writer (or a two-lane job's fio thread, whose
	 * worker wants i_rwsem) goes on on its CPU after the ILOCK part */
	if (job_batch_max(job) == 1 || job->wq.on)
		wbsim_cpus_run_on(job->m->cpus, &job->task, cost, job_batch_unlock, job);
	else
		wbsim_cpus_run(job->m->cpus, &job->task, cost, job_batch_unlock, job);
}

static void job_resume(struct wbsim_job *job);
static void job_batch_resumed(wbsim_sim *sim, void *arg);

/* The batch's CPU burst is over: the writes have returned to the job (the
 * last one after the throttle, if it is due). */
static void job_batch_done(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	wbsim_time_t t;

	/* Per-write completion latency. The burst ran the writes back to back;
	 * the first also waited for a CPU. The last write's latency is taken
	 * in job_after_throttle(), after its pause if it has one. */
	t = now_of(job) - job->batch_total;
	for (unsigned int i = 0; i + 1 < job->batch_ios; i++) {
		wbsim_time_t issue = i == 0 ? job->batch_issue : t;

		t += job->batch_cost[i];
		wbsim_lat_hist_add(&job->clat, t - issue);
		wbsim_job_logs_io(&job->logs, t, t - issue, job->bs, job->batch_off[i],
				  job->bytes_done + i * job->bs, job->ios_done + i);
	}
	if (job->batch_ios > 1)
		job->batch_issue = t;	/* issue time of the last write */
	job->bytes_done += (uint64_t)job->batch_ios * job->bs;
	job->ios_done += job->batch_ios;
	/* iomap_write_iter()'s cond_resched() after the copy, i_rwsem still
	 * held: a writer whose need_resched is set leaves its CPU here, holding
	 * the lock, and takes the rest of the write up when it runs again */
	if (wbsim_cpus_cond_resched(job->m->cpus, &job->task, job_batch_resumed, job))
		return;
	job_batch_resumed(sim, job);
}

/* The writer runs after the copy loop's cond_resched(). */
static void job_batch_resumed(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;

	/* balance_dirty_pages_ratelimited() before the last write returns
	 * (on io_uring the worker's, which may make the ring punt) */
	if (job->batch_throttle &&
	    wbsim_sys_write_balance_dirty_pages(&job->sys, &job->dirtier, job->batch_inode,
						job_after_throttle, job))
		return;
	job_after_throttle(sim, job);
}

/* fio's bandwidth samples of the report: one per bw_avg_time window. */
static void job_bw_sample(struct wbsim_job *job)
{
	while (now_of(job) >= job->bw_next) {
		uint64_t kib_s = (job->bytes_done - job->bw_bytes) * WBSIM_NSEC_PER_SEC /
				 job->bw_window_ns / 1024;

		g_array_append_val(job->bw_samples, kib_s);
		job->bw_bytes = job->bytes_done;
		job->bw_next += job->bw_window_ns;
	}
}

/* fio's fsync=N is the I/O it issues before the next write (none once
 * the job has done its writes, or its time is up): the first file with
 * N writes since its last, or NULL */
static struct wbsim_job_file *job_fsync_due(struct wbsim_job *job)
{
	unsigned int n = job_sync_every(job->fio);

	if (!n || wbsim_job_should_stop(job))
		return NULL;
	for (unsigned int i = 0; i < job->nr_files; i++)
		if (job->files[i].since_fsync >= n)
			return &job->files[i];
	return NULL;
}

/* Two lanes: a write of the io-wq worker completed (its CQE). */
void wbsim_job_write_completed(struct wbsim_job *job, uint64_t off, wbsim_time_t issued)
{
	wbsim_time_t now = now_of(job);

	wbsim_lat_hist_add(&job->clat, now - issued);
	wbsim_job_logs_io(&job->logs, now, now - issued, job->bs, off, job->bytes_done,
			  job->ios_done);
	job->bytes_done += job->bs;
	job->ios_done++;
	job_bw_sample(job);
}

/* Two lanes: the worker completed a write while the fio thread waited
 * for it: at its batch's end for all of them (it goes on there once the
 * worker has none left), else for a free slot of its iodepth or the
 * job's end (it looks again at its next write, and may wait on). */
void wbsim_job_wq_completed(struct wbsim_job *job)
{
	if (job->wq.resume_after_unlock) {
		if (wbsim_job_wq_inflight(job))
			return;
		job->wq.resume_after_unlock = false;
		job->wq.fio_waits = false;
		wbsim_sim_schedule_at(job->m->sim, now_of(job), job_after_unlock, job);
		return;
	}
	job->wq.fio_waits = false;
	wbsim_sim_schedule_at(job->m->sim, now_of(job), job_next, job);
}

/* The last write of the batch returns (after its throttle pause): its
 * inode_unlock(), which first wakes a writer that slept on i_rwsem. */
static void job_after_throttle(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	wbsim_time_t wake = job_write_unlock(job);

	if (wake) {
		wbsim_cpus_run(job->m->cpus, &job->task, wake, job_after_unlock, job);
		return;
	}
	job_after_unlock(sim, job);
}

/* The last write of the batch has returned. */
static void job_after_unlock(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;
	const struct wbsim_fio_job *fio = job->fio;
	struct wbsim_job_file *synced;

	if (job->batch_ios) {
		wbsim_lat_hist_add(&job->clat, now_of(job) - job->batch_issue);
		wbsim_job_logs_io(&job->logs, now_of(job), now_of(job) - job->batch_issue, job->bs,
				  job->batch_off[job->batch_ios - 1], job->bytes_done - job->bs,
				  job->ios_done - 1);
	}
	job_bw_sample(job);
	job->batch_ios = 0;
	/* two lanes: at a pass end and before an fsync fio waits for the
	 * writes the worker still has */
	if (job->wq.on && wbsim_job_wq_inflight(job) &&
	    (job->batch_pass_end || job_fsync_due(job))) {
		job->wq.fio_waits = true;
		job->wq.resume_after_unlock = true;
		return;
	}
	if (job->batch_pass_end) {
		wbsim_job_pass_over(job);
		return;
	}
	synced = job_fsync_due(job);
	if (synced) {
		synced->since_fsync = 0;
		/* fio fsyncs the file it would write next */
		job_fsync(job, job->cur_file, job_resume);
		return;
	}
	if (fio->rate[WBSIM_FIO_DDIR_WRITE] && !job->stopped) {
		/* fio's rate: sleep while ahead of bytes / rate (the bytes it
		 * issued: two lanes have some in flight) */
		wbsim_time_t due = wbsim_job_due(job, job->wq.on ? job->issued_bytes
								 : job->bytes_done);

		if (due > now_of(job)) {
			wbsim_timer_arm(sim, &job->rate_timer, due);
			return;
		}
	}
	/* fio's loop issues the next write on the CPU the last one returned
	 * on: it leaves it only where the scheduler makes it (a burst's end
	 * under need_resched), not to an event queued at the same instant */
	if (job->task.cpu_kept) {
		job_next(sim, job);
		return;
	}
	wbsim_sim_schedule_at(sim, now_of(job), job_next, job);
}

/* Go on writing: the buffered loop, or the direct-I/O issuer. */
static void job_resume(struct wbsim_job *job)
{
	if (job->fio->direct)
		wbsim_job_direct_continue(job);
	else
		wbsim_sim_schedule_at(job->m->sim, now_of(job), job_next, job);
}



/* After the pass-end fadvise: the next pass of the file begins. */
static void job_pass_resume(struct wbsim_job *job)
{
	wbsim_job_new_pass(job, &job->files[job->cur_file]);
	job_resume(job);
}

/* A pass over the current file ended: time_based jobs start a new one
 * after fadvise(DONTNEED); others have issued everything they will. */
void wbsim_job_pass_over(struct wbsim_job *job)
{
	unsigned int fi = job->cur_file;
	struct wbsim_job_file *f = &job->files[fi];

	job->passes++;
	/* io_size= larger than the files: fio goes round them again */
	if (!job->fio->time_based && job->fio->loops <= 1 &&
	    !(job->fio->io_size && job->issued_bytes < job->io_limit)) {
		wbsim_job_finish(job);
		return;
	}
	/* fio invalidates at a pass end only for buffered I/O: the pass's
	 * range, taken before the next pass moves an append position */
	if (job->fio->invalidate && !job->fio->direct) {
		job_fadvise_dontneed(job, fi, job_pass_resume);
		return;
	}
	wbsim_job_new_pass(job, f);
	job_resume(job);
}


/* First open of a file by the job: create_on_open creates it now; fio
 * invalidates the job's range of it before the first write. */
void wbsim_job_open_file(struct wbsim_job *job, unsigned int file)
{
	struct wbsim_job_file *f = &job->files[file];

	f->opened = true;
	f->inode = wbsim_sys_open(job->m, f->path);
	if (job->fio->file_append)
		f->pass_start = f->inode->size;
	if (job->fio->invalidate)
		job_fadvise_dontneed(job, file, job_resume);
	else
		job_resume(job);
}

/* ------------------------------------------------------------------------ */
/* Start and end                                                            */

/* The cgroup path of fio's cgroup=NAME: /NAME (a new string). */
static char *job_cgroup_path(const struct wbsim_job *job)
{
	const char *c = job->fio->cgroup;

	while (*c == '/')
		c++;
	return g_strconcat("/", c, NULL);
}

/* fio's cgroup=NAME: the task enters /NAME, created if missing. */
static bool job_enter_cgroup(struct wbsim_job *job)
{
	struct wbsim_machine *m = job->m;
	g_autofree char *path = job_cgroup_path(job);
	struct wbsim_memcg *memcg;
	GError *e = NULL;

	memcg = wbsim_sys_cgroup_mkdir(m, path, &e);
	if (!memcg) {
		GError *f = g_error_new(WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
					"%s:%u: job '%s': cgroup=%s: cannot create %s: %s",
					job->fio->file, job->fio->line, job->fio->name,
					job->fio->cgroup, path, e->message);

		wbsim_machine_fail(m, f);
		g_error_free(f);
		g_error_free(e);
		return false;
	}
	/* the fio thread's own writes (an io_uring job's inline ones) are
	 * the cgroup's too */
	wbsim_sys_cgroup_attach(m, &job->dirtier, memcg);
	wbsim_sys_cgroup_attach(m, &job->fio_dirtier, memcg);
	return true;
}

/* The task exits: it leaves its cgroup; fio then removes its cgroup=
 * directory unless cgroup_nodelete=1, ignoring a failure. */
static void job_leave_cgroup(struct wbsim_job *job)
{
	struct wbsim_machine *m = job->m;

	wbsim_sys_cgroup_attach(m, &job->dirtier, NULL);
	wbsim_sys_cgroup_attach(m, &job->fio_dirtier, NULL);
	if (job->fio->cgroup && !job->fio->cgroup_nodelete) {
		g_autofree char *path = job_cgroup_path(job);

		/* busy (other tasks are in it): fio ignores the failure */
		wbsim_sys_cgroup_rmdir(m, path);
	}
}

static void job_begin(wbsim_sim *sim, void *arg)
{
	struct wbsim_job *job = arg;

	if (job->fio->cgroup && !job->stopped && !job_enter_cgroup(job))
		return;
	job->state = JOB_RUNNING;
	job->io_start_ns = now_of(job);
	job->deadline_ns = job->io_start_ns + job->fio->runtime_ns;
	job->bw_next = job->io_start_ns + job->bw_window_ns;
	wbsim_job_logs_start(&job->logs, job->io_start_ns);
	job->bw_samples = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	if (job->fio->direct)
		wbsim_job_direct_continue(job);
	else
		job_next(sim, job);
}

void wbsim_job_start(struct wbsim_job *job, void (*on_done)(struct wbsim_job *, void *), void *arg)
{
	job->on_done = on_done;
	job->on_done_arg = arg;
	job->start_ns = now_of(job);
	wbsim_sim_schedule_after(job->m->sim, job->fio->startdelay_ns, job_begin, job);
}

static void job_really_done(struct wbsim_job *job)
{
	/* fio closes its files; the filesystem hears the last close (XFS
	 * trims speculative preallocation, ext4 discards preallocations). */
	for (unsigned int i = 0; i < job->nr_files; i++) {
		struct wbsim_job_file *f = &job->files[i];

		if (f->opened && f->inode)
			wbsim_sys_close(job->m, f->inode);
		f->opened = false;
	}
	job_leave_cgroup(job);
	job->state = JOB_DONE;
	job->end_ns = now_of(job);
	wbsim_job_logs_finish(&job->logs, job->end_ns, job->bytes_done, job->ios_done);
	if (job->on_done)
		job->on_done(job, job->on_done_arg);
}

/* end_fsync / fsync_on_close: fsync each file in turn (inside the runtime). */
static void job_end_fsync_next(struct wbsim_job *job)
{
	while (job->end_fsync_next < job->nr_files) {
		unsigned int i = job->end_fsync_next++;

		if (job->files[i].inode) {
			job_fsync(job, i, job_end_fsync_next);
			return;
		}
	}
	job_really_done(job);
}

void wbsim_job_finish(struct wbsim_job *job)
{
	/* fio reaps the io_us still out before end_fsync (backend.c do_io()),
	 * or after an error as cleanup_pending_aio() does */
	if (job->error)
		wbsim_fio_io_u_cleanup(&job->io_u);
	else
		wbsim_fio_io_u_drain(&job->io_u);
	if (job->fio->end_fsync || job->fio->fsync_on_close) {
		job->end_fsync_next = 0;
		job_end_fsync_next(job);
		return;
	}
	job_really_done(job);
}

/* ------------------------------------------------------------------------ */
/* Rate schedule and stopping                                               */

wbsim_time_t wbsim_job_due(const struct wbsim_job *job, uint64_t bytes)
{
	uint64_t rate = job->fio->rate[WBSIM_FIO_DDIR_WRITE];

	if (!rate)
		return job->io_start_ns;
	/* the same rounding as the pacing in job_after_throttle() */
	return job->io_start_ns +
	       (wbsim_time_t)((double)bytes * WBSIM_NSEC_PER_SEC / (double)rate);
}

wbsim_time_t wbsim_job_lag(const struct wbsim_job *job, wbsim_time_t now)
{
	const struct wbsim_fio_job *fio = job->fio;
	wbsim_time_t due;

	if (!fio->rate[WBSIM_FIO_DDIR_WRITE] || job->state != JOB_RUNNING || job->stopped)
		return 0;
	/* no write is due after the runtime, or once all bytes are issued */
	if (fio->time_based && now > job->deadline_ns)
		now = job->deadline_ns;
	if (!fio->time_based && job->issued_bytes >= job->io_limit * MAX(fio->loops, 1))
		return 0;
	due = wbsim_job_due(job, job->issued_bytes);
	return now > due ? now - due : 0;
}

void wbsim_job_stop(struct wbsim_job *job)
{
	struct wbsim_machine *m = job->m;

	if (job->state == JOB_DONE || job->stopped)
		return;
	job->stopped = true;
	if (job->state == JOB_WAITING) {
		/* killed before it began: its task leaves the cgroup now */
		wbsim_sys_cgroup_attach(m, &job->dirtier, NULL);
		return;
	}
	/* asleep until its next paced write: it wakes up and ends */
	if (wbsim_timer_cancel(m->sim, &job->rate_timer))
		wbsim_sim_schedule_at(m->sim, wbsim_sim_now(m->sim), job_next, job);
}
