/* SPDX-License-Identifier: MIT */
/*
 * fio/job.h - an fio job as a task on the simulated machine.
 */
#ifndef WBSIM_FIO_JOB_H
#define WBSIM_FIO_JOB_H

#include "machine/sys.h"
#include "core/lat-hist.h"
#include "fio/job-log.h"
#include "fio/fio-random.h"
#include "fio/fio-io-u.h"

struct wbsim_job_file {
	struct wbsim_inode *inode;
	char *path;
	uint64_t offset;	/* first byte this job uses in the file */
	uint64_t size;		/* bytes this job uses in the file */
	uint64_t nr_blocks;	/* size / bs */
	uint64_t *randmap;	/* blocks written in this pass (random, randommap) */
	uint64_t *randfull;	/* one bit per full word of randmap */
	uint64_t randmap_used;
	uint64_t seq_next;	/* next block of a sequential pattern */
	bool opened;
	uint64_t since_fsync;	/* writes since the last fsync=N */
	uint64_t pass_start;	/* file_append: the file's end when this pass began */
	bool map_full_seen;	/* this pass's map was found full (its draw taken) */
};

enum wbsim_job_state {
	JOB_WAITING,		/* not started (stonewall, startdelay) */
	JOB_RUNNING,
	JOB_DONE,
};

/**
 * struct wbsim_job - one fio job clone running as a task
 */
/* One write punted to the io-wq worker: its file, offset, why, when fio issued it */
struct wbsim_job_wq_write {
	unsigned int file;
	uint64_t off;
	enum wbsim_uring_eagain why;
	wbsim_time_t issued;
};

/*
 * struct wbsim_job_wq - the io-wq worker of a two-lane io_uring job
 * (job-uring-wq.c)
 * @on: the job writes in two lanes
 * @task: the worker, iou-wrk-<fio's pid>
 * @sys: the kernel side of its writes' sleeping steps
 * @queue: the punted writes not yet taken, oldest first (a ring of
 *	@size, fio's iodepth)
 * @cur: the write the worker runs (valid while @busy)
 * @busy: it runs one (from taking it to its completion)
 * @cost, @fs_cost, @throttle: that write's CPU, the filesystem's part
 *	of it, and whether balance_dirty_pages() is due after it
 * @fio_waits: the fio thread waits for the worker (a free slot of
 *	iodepth, or all its writes done: a pass end, an fsync, the end)
 * @resume_after_unlock: and goes on at its batch's end when they are
 * @spare_on: io-wq has started a second worker, @spare (the first slept
 *	with writes queued), free while @task runs the file's writes
 * @spare_awake: @spare was woken and has not gone back to sleep
 * @nvcsw_at_take: @task's voluntary switches when it took @cur
 */
struct wbsim_job_wq {
	bool on;
	wbsim_task task;
	struct wbsim_sys_call sys;
	struct wbsim_job_wq_write *queue;
	unsigned int size, head, len;
	struct wbsim_job_wq_write cur;
	bool busy;
	wbsim_time_t cost, fs_cost;
	bool throttle;
	bool fio_waits;
	bool resume_after_unlock;
	bool spare_on;
	wbsim_task spare;
	bool spare_awake;
	uint64_t nvcsw_at_take;
};

struct wbsim_job {
	const struct wbsim_fio_job *fio;
	struct wbsim_machine *m;
	unsigned int index;
	wbsim_task task;
	unsigned int pid;	/* fio's process for the job: task's, or fio_thread's */
	struct wbsim_dirtier dirtier;
	/* fio's random_state: the generator of the job's random offsets */
	struct wbsim_fio_rand offrand;
	uint64_t offrand_entropy;	/* its seed where fio takes the system's */
	bool offrand_use64;		/* reseeds take tausworthe64 (> 2^32 blocks) */
	uint64_t rand_blocks;		/* random blocks handed out (all loops) */
	uint64_t loop_start;		/* @rand_blocks when the last loop began */
	unsigned int loop_files_left;	/* files a new loop found full and reopens */
	bool loop_by_bytes;		/* fio ends a loop at its bytes (queued I/O) */
	struct wbsim_job_file *files;
	unsigned int nr_files;
	unsigned int cur_file;
	uint64_t bs;
	uint64_t io_limit;	/* bytes to write (size-based jobs) */
	enum wbsim_job_state state;
	wbsim_time_t start_ns, io_start_ns, end_ns, deadline_ns;
	unsigned int end_fsync_next;
	bool stopped;		/* wbsim_job_stop(): ends at its next write */
	wbsim_timer rate_timer;	/* sleeping until the next write is due (rate=) */
	uint64_t issued_bytes;	/* bytes of the writes issued so far */
	wbsim_time_t max_lag_ns;	/* worst lag of a write behind its rate schedule */

	/* results */
	uint64_t bytes_done;
	uint64_t ios_done;
	struct wbsim_lat_hist clat;
	struct wbsim_lat_hist sync_lat;
	uint64_t passes;
	uint64_t invalidates;
	unsigned int laid_out_files;	/* fio's "Laying out IO file" line: files */
	uint64_t laid_out_bytes;	/* and their offset + size, summed */
	GArray *bw_samples;	/* KiB/s per bw_window_ns window */
	wbsim_time_t bw_window_ns;	/* fio's bw_avg_time */
	struct wbsim_job_logs logs;	/* write_bw_log, write_lat_log, write_iops_log */
	wbsim_time_t bw_next;	/* end of the current window */
	uint64_t bw_bytes;	/* bytes_done at its start */

	/* the batch of writes in flight */
	wbsim_time_t batch_issue;	/* when the batch's first write was issued */
	wbsim_time_t frozen_since;	/* waiting for a thaw since (0: not) */
	unsigned int batch_ios;
	wbsim_time_t batch_cost[64];
	uint64_t batch_off[64];		/* each write's offset in its file */
	wbsim_time_t batch_total;
	wbsim_time_t batch_fs_total;	/* the filesystem's part (under its write lock) */
	wbsim_time_t batch_fs_cost[64];	/* each write's share of it */
	unsigned int batch_fs_section;	/* the write whose share runs (job_batch_locked()) */
	bool batch_entry_apart;		/* a write's syscall entry ran on the fio thread */
	struct wbsim_inode *batch_inode;	/* inode of the last write */
	struct wbsim_inode *locked_inode;	/* whose i_rwsem the batch holds */
	uint64_t pending_blk;		/* drawn block whose write waits (UINT64_MAX: none) */
	bool batch_throttle;		/* balance_dirty_pages() is due */
	int error;			/* fio's td->error: errno that ended the job, 0 */
	bool batch_pass_end;
	bool batch_punted;		/* two lanes: its last write went to io-wq */
	/* the kernel side of its sleeping calls: fsync, fadvise, the
	 * steps of a buffered write */
	struct wbsim_sys_call sys;
	wbsim_time_t sync_start;	/* the fsync's, for its latency (0: fadvise) */
	void (*after_sync)(struct wbsim_job *job);
	void (*on_done)(struct wbsim_job *job, void *arg);
	void *on_done_arg;

	/* ioengine=io_uring with buffered writes (job.c): the fio thread's
	 * own work per write, on a task of its own while the writes run on
	 * the io-wq worker (@task) */
	bool uring;
	struct wbsim_sys_uring ring;	/* the kernel's side (machine/sys.c) */
	/* iodepth 1 on such a filesystem: the inline attempt's throttle
	 * state (balance_dirty_pages with BDP_ASYNC); @dirtier is the
	 * worker's, which runs the punted writes and sleeps their pauses */
	struct wbsim_dirtier fio_dirtier;
	wbsim_task fio_thread;
	wbsim_time_t fio_backlog;	/* its work not yet started, ns of CPU */
	wbsim_time_t fio_burst;		/* the burst on a CPU now (0: none) */
	bool fio_waited;		/* job_next waits for it to catch up */

	/* io_uring in two lanes (wbsim_sys_uring_two_lanes(): XFS at an
	 * iodepth above 1): @task is the fio thread writing inline, @wq the
	 * io-wq worker running the punted writes (job-uring-wq.c) */
	struct wbsim_job_wq wq;

	/* fio's accounting of the job's io_us (IO depths, submit, complete) */
	struct wbsim_fio_io_u io_u;

	/* direct I/O (job-direct.c) */
	unsigned int dio_inflight;
	bool dio_issuing;
};

/* job-uring-wq.c: the io-wq worker's lane of a two-lane io_uring job */
void wbsim_job_wq_setup(struct wbsim_job *job, unsigned int fio_pid);
void wbsim_job_wq_clear(struct wbsim_job *job);
/* Queue a write the fio thread's inline attempt punted (@why), issued at
 * @issued. Returns the fio thread's CPU for waking the worker from its
 * sleep onto an idle CPU other than its own (wbsim_cpus_wake_remote()),
 * 0 when it woke none or on its own CPU. */
wbsim_time_t wbsim_job_wq_punt(struct wbsim_job *job, unsigned int file, uint64_t off,
			       enum wbsim_uring_eagain why, wbsim_time_t issued);
/* The writes punted and not yet completed (queued, and the one running). */
unsigned int wbsim_job_wq_inflight(const struct wbsim_job *job);
/* How many io-wq workers the job's lane has started (1 or 2) */
unsigned int wbsim_job_wq_nr_workers(const struct wbsim_job *job);
/* job.c, for the worker lane: a write the worker wrote, at @off of its
 * file, issued at @issued, has completed now */
void wbsim_job_write_completed(struct wbsim_job *job, uint64_t off, wbsim_time_t issued);
/* job.c: the worker completed a write and the fio thread waits for it */
void wbsim_job_wq_completed(struct wbsim_job *job);

/* Create the jobs' tasks and files; no event is scheduled yet. */
gboolean wbsim_job_setup(struct wbsim_job *job, struct wbsim_machine *m,
			 const struct wbsim_fio_job *fio, unsigned int index, GError **error);
/* Start @job now (after its startdelay). @on_done runs when it finishes. */
void wbsim_job_start(struct wbsim_job *job, void (*on_done)(struct wbsim_job *, void *),
		     void *arg);
void wbsim_job_clear(struct wbsim_job *job);

/*
 * wbsim_fio_job_option_where() - "FILE:LINE: job 'NAME': KEY=VALUE" of the
 * option line of @fio's own section that set @key, or of the section
 * itself (KEY=@shown) when none did (the key came from [global]).
 */
char *wbsim_fio_job_option_where(const struct wbsim_fio_job *fio, const char *key,
				 const char *shown);
/* The path of file @filenum of @fio, as fio names it (filename, directory, filename_format). */
char *wbsim_job_file_path(const struct wbsim_fio_job *fio, unsigned int filenum);
/* CPU time of the job's tasks (with io_uring its fio thread and io-wq
 * worker, one process for fio); their time waiting for a CPU in @wait_ns */
wbsim_time_t wbsim_job_cpu_ns(const struct wbsim_job *job, wbsim_time_t *wait_ns);
/*
 * wbsim_job_uring_thread_cpu() - an io_uring job's CPU time by thread:
 * TRUE, with the fio thread's in *@fio_ns and the io-wq worker's in
 * *@worker_ns, when the model runs them as two tasks (an iodepth above 1
 * on a filesystem that punts every write, or two lanes); FALSE, setting
 * nothing, when one task runs both (iodepth 1) or the job is no ring's.
 */
bool wbsim_job_uring_thread_cpu(const struct wbsim_job *job, wbsim_time_t *fio_ns,
				wbsim_time_t *worker_ns);
/* wbsim_job_lock_wait_ns() - the time the job's tasks waited for locks */
wbsim_time_t wbsim_job_lock_wait_ns(const struct wbsim_job *job);
/* wbsim_job_nvcsw() - the voluntary context switches of the job's tasks */
uint64_t wbsim_job_nvcsw(const struct wbsim_job *job);
/* wbsim_job_nivcsw() - their involuntary context switches */
uint64_t wbsim_job_nivcsw(const struct wbsim_job *job);
/* job.c helpers shared with job-direct.c (and the offsets' tests) */
/* Next block of file @f, or UINT64_MAX when the pass is over. */
uint64_t wbsim_job_next_block(struct wbsim_job *job, struct wbsim_job_file *f);
/* The block wbsim_job_next_block() will most likely return for @f next,
 * from a copy of the job's generator (nothing changes); UINT64_MAX when
 * the next block is not a random draw. */
uint64_t wbsim_job_peek_next_block(const struct wbsim_job *job, const struct wbsim_job_file *f);
/* A new pass over @f begins: its random map is cleared (the last step of
 * wbsim_job_pass_over(), after the pass-end fadvise). */
void wbsim_job_new_pass(struct wbsim_job *job, struct wbsim_job_file *f);
bool wbsim_job_should_stop(const struct wbsim_job *job);
/* How far @job is at @now, 0..1, as fio's ETA counts it: its bytes of the
 * bytes it will write, or its time of a runtime=, whichever is further. */
double wbsim_job_progress(const struct wbsim_job *job, wbsim_time_t now);
void wbsim_job_pass_over(struct wbsim_job *job);
void wbsim_job_finish(struct wbsim_job *job);
void wbsim_job_open_file(struct wbsim_job *job, unsigned int file);
/* job-direct.c: issue O_DIRECT writes up to the queue depth. */
void wbsim_job_direct_continue(struct wbsim_job *job);
unsigned int wbsim_job_direct_depth(const struct wbsim_job *job);

/* fio's layout of the job's files before any job starts. */
gboolean wbsim_job_layout(struct wbsim_job *job, GError **error);

/*
 * wbsim_job_due() - when fio would issue the write after @bytes bytes of a
 * job with rate=: io_start + @bytes / rate (fio's rate pacing)
 */
wbsim_time_t wbsim_job_due(const struct wbsim_job *job, uint64_t bytes);
/*
 * wbsim_job_lag() - the lag of a paced job at @now: how late the next
 * write not yet issued is, max(0, now - due), counted up to the end of
 * the job's runtime; 0 for a job without rate=, not running, or with
 * nothing more to write.
 */
wbsim_time_t wbsim_job_lag(const struct wbsim_job *job, wbsim_time_t now);
/*
 * wbsim_job_stop() - end @job as if its runtime ended now (a container
 * torn down): the write in progress completes, no other is issued; a
 * sleep until the next paced write is cut short. A job not started yet
 * leaves its cgroup at once and will end as soon as it starts.
 */
void wbsim_job_stop(struct wbsim_job *job);

#endif
