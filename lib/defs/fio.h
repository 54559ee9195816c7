/* SPDX-License-Identifier: MIT */
/*
 * defs/fio.h - reading fio job files the way fio reads them: the job
 * structures every layer reads (lib/defs holds neutral definition headers,
 * which include no lib/ folder: here the jobs that lib/fio parses and
 * runs, lib/scenario loads, lib/run builds and lib/report prints), and the
 * parser's entry points (lib/fio/fio-parser.c).
 *
 * A job file is parsed into one struct wbsim_fio_job per job after numjobs
 * expansion (clones are separate jobs), with fio's defaults filled in and
 * every value typed: sizes in bytes, times in simulated nanoseconds.
 *
 * The grammar is fio's: ';' and '#' comments (and a line is cut at its first
 * ';' then its first '#'), bare keys for fio's STR_SET options, several
 * [global] sections (a [global*] section applies to the jobs below it),
 * repeated job names giving separate jobs, "include file" lines, options
 * sorted by fio's priority before they are applied, numjobs clones,
 * stonewall/new_group reporting groups, ${VAR} from the process environment,
 * $ncpus/$mb_memory/$pagesize from the SIMULATED machine (never the host),
 * bc-style arithmetic after keyword substitution (numjobs=$ncpus*2) and
 * parenthesised arithmetic ((1+2)*1g). kb_base=1024 keeps fio's inverted
 * IEC prefixes: 4k = 4096 and 4KiB = 4000. bs=4k-16k means read 4k and
 * write 16k, exactly as in fio (a range is spelled bsrange=4k-16k).
 *
 * Every option fio knows is in one table with a disposition: modelled,
 * reporting only (accepted, no effect on writeback), warned (accepted; a
 * "FILE:LINE: option X is not modelled: why" string is added to
 * wbsim_fio_file.warnings) or refused (WBSIM_ERROR_UNSUPPORTED naming file,
 * line and option). Reads are not modelled: jobs that only read are
 * refused; mixed jobs are accepted with a warning.
 *
 * Where fio is lax wbsim is strict, with a message instead of a silent
 * misreading: an unknown size or time suffix ("4kq") or a fraction ("1.5g",
 * which fio reads as 1 byte) is "failed parsing". Parenthesised arithmetic
 * is always available (fio needs a lex/yacc build for it): + - * / % ^,
 * with k = 1024 and KiB = 1000 inside parentheses whatever kb_base says,
 * and bare numbers in a time expression taken as microseconds.
 *
 * Thread safety: the functions are reentrant; ${VAR} reads the process
 * environment with g_getenv().
 */
#ifndef WBSIM_FIO_H
#define WBSIM_FIO_H

#include <stdint.h>
#include <glib.h>
#include <wbsim/macros.h>
#include <wbsim/sim.h>

WBSIM_BEGIN_DECLS

/**
 * struct wbsim_fio_env - the simulated machine, for fio's keywords
 * @ncpus: value of $ncpus (CPUs online)
 * @mb_memory: value of $mb_memory (MiB of memory)
 * @pagesize: value of $pagesize (bytes)
 */
struct wbsim_fio_env {
	unsigned int ncpus;
	uint64_t mb_memory;
	unsigned int pagesize;
};

/** enum wbsim_fio_rw - fio's rw= (readwrite=) values */
enum wbsim_fio_rw {
	WBSIM_FIO_READ,
	WBSIM_FIO_WRITE,
	WBSIM_FIO_RANDREAD,
	WBSIM_FIO_RANDWRITE,
	WBSIM_FIO_RW,		/* also rw=readwrite */
	WBSIM_FIO_RANDRW,
	WBSIM_FIO_TRIM,
	WBSIM_FIO_RANDTRIM,
	WBSIM_FIO_TRIMWRITE,
	WBSIM_FIO_RANDTRIMWRITE,
};

/** enum wbsim_fio_ddir - the per-direction slots of bs=, rate=, ... */
enum wbsim_fio_ddir {
	WBSIM_FIO_DDIR_READ,
	WBSIM_FIO_DDIR_WRITE,
	WBSIM_FIO_DDIR_TRIM,
	WBSIM_FIO_DDIR_NR,
};

/** enum wbsim_fio_fallocate - fallocate= (fio's default on Linux: native) */
enum wbsim_fio_fallocate {
	WBSIM_FIO_FALLOCATE_NONE,	/* also fallocate=0 */
	WBSIM_FIO_FALLOCATE_NATIVE,
	WBSIM_FIO_FALLOCATE_POSIX,	/* also fallocate=1 */
	WBSIM_FIO_FALLOCATE_KEEP,	/* FALLOC_FL_KEEP_SIZE */
	WBSIM_FIO_FALLOCATE_TRUNCATE,
};

/** enum wbsim_fio_random_generator - random_generator= */
enum wbsim_fio_random_generator {
	WBSIM_FIO_RAND_TAUSWORTHE,
	WBSIM_FIO_RAND_LFSR,
	WBSIM_FIO_RAND_TAUSWORTHE64,
};

/**
 * struct wbsim_fio_option - one option as the user wrote it
 * @name: canonical option name (an alias such as blocksize is stored as bs)
 * @value: the value as typed (before substitutions), NULL for a bare key
 *	   (fio leaves bare keys such as stonewall out of its JSON options)
 * @file: file of the line (owned by the struct wbsim_fio_file)
 * @line: 1-based line number
 */
struct wbsim_fio_option {
	char *name;
	char *value;
	const char *file;
	unsigned int line;
};

/**
 * struct wbsim_fio_job - one job (one clone) with every value resolved
 * @name: fio's job name: the section name, or the job section's own name=
 *	  (a name= in [global] does not rename jobs, as in fio)
 * @section: the section name as written
 * @clone: 0..numjobs-1 (fio's subjob number: $jobnum, offset_increment)
 * @thread_number: fio's thread number, 1-based in the order fio creates
 *		   its jobs: a job, then its clones from numjobs-1 down to 1
 *		   (init.c add_job()); it seeds the job's random offsets
 * @numjobs: numjobs as set (the same in every clone)
 * @group_id: reporting group: stonewall and new_group start a new one
 *	      (clones stay in their job's group)
 * @stonewall: waits for all previous jobs (clones > 0 never do)
 * @new_group: new_group was set (clones > 0 never have it)
 * @file: file of the section header (owned by the struct wbsim_fio_file)
 * @line: line of the section header
 * @rw: the I/O pattern
 * @rw_modifier: the ":N" of rw=randwrite:8 (0 if none); for sequential
 *		 patterns it is a byte offset added after each I/O
 * @bs: block size per direction (default 4096)
 * @bsrange_min: bsrange= low bound per direction, 0 = unset
 * @bsrange_max: bsrange= high bound per direction, 0 = unset
 * @size: size= in bytes, 0 = unset (fio then uses the files' sizes)
 * @size_is_percent: size=N% was given
 * @size_given: size= or filesize= was written (size=0 included: fio reads
 *		it as no size, which a new file cannot have)
 * @size_percent: the N of size=N%
 * @filesize_min: filesize= low, 0 = unset
 * @filesize_max: filesize= high, 0 = unset
 * @io_size: io_size= (io_limit=) in bytes, 0 = unset
 * @offset: offset= in bytes
 * @offset_percent: offset=N% (0 = none)
 * @offset_increment: offset_increment= in bytes
 * @number_ios: number_ios=, 0 = unlimited
 * @nrfiles: files per job (default 1)
 * @iodepth: default 1
 * @ioengine: the engine name (default psync)
 * @direct: O_DIRECT (direct=1 or buffered=0)
 * @directory: directory= as written (may be a ':'-separated list)
 * @filename: filename= as written, NULL if unset
 * @filename_format: default "$jobname.$jobnum.$filenum"
 * @file_service_type: default "roundrobin"
 * @create_on_open: create files when first opened (default 0)
 * @create_serialize: lay files out one at a time (default 1)
 * @create_fsync: fsync after laying a file out (default 1)
 * @overwrite: overwrite=1: fio writes the file out before the job
 * @fallocate: pre-allocation mode
 * @time_based: loop until runtime
 * @runtime_ns: runtime= (default unit s), 0 = unset
 * @startdelay_ns: startdelay= low (default unit s)
 * @startdelay_max_ns: startdelay= high (= low unless a range was given)
 * @ramp_time_ns: ramp_time= (default unit s)
 * @loops: default 1
 * @rate: bytes/s per direction, 0 = unlimited
 * @rate_iops: I/Os per second per direction, 0 = unlimited
 * @rwmix_read: rwmixread= percentage (default 50)
 * @fsync: fsync every N writes, 0 = never
 * @fdatasync: fdatasync every N writes, 0 = never
 * @end_fsync: fsync at the end of the job
 * @fsync_on_close: fsync when a file is closed
 * @end_syncfs: syncfs at the end of the job
 * @unlink: unlink the files at the end of the job
 * @unlink_each_loop: unlink the files after each loop
 * @norandommap: random offsets may repeat
 * @randrepeat: default 1
 * @randseed: randseed= (fio's default 0x89)
 * @randseed_set: randseed= was given
 * @random_generator: default tausworthe
 * @random_generator_set: random_generator= was given (fio then keeps
 *			  tausworthe for files of more than 2^32 blocks)
 * @allrandrepeat: allrandrepeat=1: every generator's seed is fixed
 * @invalidate: fadvise(DONTNEED) before I/O on a file (default 1)
 * @thinktime_ns: thinktime= (default unit us)
 * @thinktime_blocks: I/Os between think times (default 1)
 * @exitall: exitall was set
 * @wait_for: wait_for= job name, NULL if unset
 * @description: description= text (fio's "Description" line, JSON "desc"), NULL if unset
 * @group_reporting: report per group
 * @kb_base: 1024 (default) or 1000
 * @file_append: file_append=1: write after the existing end of the files
 * @cgroup: cgroup= (the job's tasks run in cgroup /NAME), NULL if unset
 * @cgroup_nodelete: cgroup_nodelete=1: the cgroup stays after the job
 * @write_bw_log: write_bw_log= (the log name's prefix; "" for the bare key,
 *		  fio then takes the job name), NULL if unset
 * @write_lat_log: write_lat_log=, as @write_bw_log (lat, slat and clat logs)
 * @write_iops_log: write_iops_log=, as @write_bw_log
 * @log_avg_msec: log_avg_msec= (0: one log row per I/O)
 * @per_job_logs: per_job_logs= (default 1: ".N" in the log names)
 * @log_offset: log_offset=1: an offset column in the logs
 * @log_prio: log_prio=1: the priority column as fio's 0x%04x
 * @log_max: log_max_value=1 (log_window_value=max): a window's maximum,
 *	     not its average
 * @bwavgtime: bwavgtime= in ms, 0 = unset (fio's 500)
 * @thread: thread: fio runs the job as a thread, not a process (the
 *	    "Starting N threads" of the report)
 * @iopsavgtime: iopsavgtime= in ms, 0 = unset (fio's 500)
 * @options: struct wbsim_fio_option *, the options set in this job's own
 *	     section (including included files) in file order: fio's JSON
 *	     "job options"
 */
struct wbsim_fio_job {
	char *name;
	char *section;
	unsigned int clone;
	unsigned int thread_number;
	unsigned int numjobs;
	unsigned int group_id;
	gboolean stonewall;
	gboolean new_group;
	const char *file;
	unsigned int line;

	enum wbsim_fio_rw rw;
	unsigned int rw_modifier;
	uint64_t bs[WBSIM_FIO_DDIR_NR];
	uint64_t bsrange_min[WBSIM_FIO_DDIR_NR];
	uint64_t bsrange_max[WBSIM_FIO_DDIR_NR];

	uint64_t size;
	gboolean size_is_percent;
	gboolean size_given;
	unsigned int size_percent;
	uint64_t filesize_min, filesize_max;
	uint64_t io_size;
	uint64_t offset;
	unsigned int offset_percent;
	uint64_t offset_increment;
	uint64_t number_ios;
	unsigned int nrfiles;
	unsigned int iodepth;

	char *ioengine;
	gboolean direct;
	char *directory;
	char *filename;
	char *filename_format;
	char *file_service_type;
	gboolean create_on_open;
	gboolean create_serialize;
	gboolean create_fsync;
	gboolean overwrite;
	enum wbsim_fio_fallocate fallocate;

	gboolean time_based;
	wbsim_time_t runtime_ns;
	wbsim_time_t startdelay_ns, startdelay_max_ns;
	wbsim_time_t ramp_time_ns;
	unsigned int loops;

	uint64_t rate[WBSIM_FIO_DDIR_NR];
	uint64_t rate_iops[WBSIM_FIO_DDIR_NR];
	unsigned int rwmix_read;

	unsigned int fsync, fdatasync;
	gboolean end_fsync, fsync_on_close, end_syncfs;
	gboolean unlink, unlink_each_loop;

	gboolean norandommap, randrepeat;
	uint64_t randseed;
	gboolean randseed_set;
	enum wbsim_fio_random_generator random_generator;
	gboolean random_generator_set;
	gboolean allrandrepeat;
	gboolean invalidate;
	wbsim_time_t thinktime_ns;
	unsigned int thinktime_blocks;
	gboolean exitall;
	char *wait_for;
	char *description;

	gboolean group_reporting;
	unsigned int kb_base;
	GPtrArray *options;
	gboolean file_append;
	char *cgroup;
	gboolean cgroup_nodelete;
	char *write_bw_log, *write_lat_log, *write_iops_log;
	unsigned int log_avg_msec;
	gboolean per_job_logs;
	gboolean log_offset, log_prio, log_max;
	unsigned int bwavgtime, iopsavgtime;
	gboolean thread;
};

/**
 * struct wbsim_fio_file - a parsed job file (and the files it includes);
 * allocated only by the library (it carries private parser state)
 * @jobs: struct wbsim_fio_job *, in fio's order (clones follow their job)
 * @global_options: struct wbsim_fio_option *, every option of every
 *		    [global] section in file order (duplicates kept): fio's
 *		    JSON "global options"
 * @warnings: char *, one "FILE:LINE: ..." line per accepted but unmodelled
 *	      option or fio behaviour worth knowing
 * @files: char *, every file read (the job file first, then includes); the
 *	   file pointers of jobs and options point into these strings
 */
struct wbsim_fio_file {
	GPtrArray *jobs;
	GPtrArray *global_options;
	GPtrArray *warnings;
	GPtrArray *files;
};

/**
 * wbsim_fio_parse_file() - parse an fio job file
 * @path: the job file; includes are resolved relative to its directory
 * @env: the simulated machine for $ncpus, $mb_memory and $pagesize
 * @out: the result, to free with wbsim_fio_file_free()
 * @error: WBSIM_ERROR_IO (unreadable file or include), _PARSE (syntax,
 *	   circular include), _UNKNOWN_KEY ("Bad option <x>" with
 *	   "Did you mean y?"), _INVALID_VALUE ("failed parsing opt=value"),
 *	   _UNSUPPORTED (an option fio knows that wbsim does not model); the
 *	   message starts with "FILE:LINE: "
 *
 * Return: TRUE on success.
 */
gboolean wbsim_fio_parse_file(const char *path,
					const struct wbsim_fio_env *env,
					struct wbsim_fio_file **out,
					GError **error);

/**
 * wbsim_fio_parse_string() - parse fio job-file text
 * @text: the text
 * @len: its length, or -1 if NUL-terminated
 * @display_name: the name used in messages and in job->file
 * @base_dir: directory for relative includes (NULL: the current directory)
 * @env: the simulated machine
 * @out: the result
 * @error: as wbsim_fio_parse_file()
 *
 * Return: TRUE on success.
 */
gboolean wbsim_fio_parse_string(const char *text, gssize len,
					  const char *display_name,
					  const char *base_dir,
					  const struct wbsim_fio_env *env,
					  struct wbsim_fio_file **out,
					  GError **error);

/**
 * wbsim_fio_parse_files() - parse several job files as one fio run
 * @paths: NULL-terminated list of job files
 * @env: the simulated machine
 * @out: the result
 * @error: as wbsim_fio_parse_file()
 *
 * As "fio a.fio b.fio": the first job of every file after the first gets
 * an implicit stonewall, and [global] options do not cross files.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_fio_parse_files(const char *const *paths,
					 const struct wbsim_fio_env *env,
					 struct wbsim_fio_file **out,
					 GError **error);

/**
 * wbsim_fio_file_ref() - one more reference to a parsed job file
 * @file: the file
 *
 * A run's results keep one: their jobs point into @file (names, options,
 * lines) and outlive the scenario that parsed it.
 * Return: @file.
 */
struct wbsim_fio_file *wbsim_fio_file_ref(struct wbsim_fio_file *file);

/** wbsim_fio_file_free() - drop a reference to a parsed job file, freeing it
 * with the last (NULL is fine). */
void wbsim_fio_file_free(struct wbsim_fio_file *file);

/* typedef wbsim_fio_file - the name g_autoptr(wbsim_fio_file) needs */
typedef struct wbsim_fio_file wbsim_fio_file;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(wbsim_fio_file, wbsim_fio_file_free)

/**
 * wbsim_fio_rw_name() - fio's spelling of an rw value ("randwrite", ...),
 * as fio's io_ddir.h ddir_str() spells it
 * @rw: the value
 *
 * Inline here, beside the enum, so that the reports print a job's pattern
 * without calling lib/fio.
 * Return: a static string ("?" for a value out of range).
 */
static inline const char *wbsim_fio_rw_name(enum wbsim_fio_rw rw)
{
	static const char *const rw_names[] = {
		[WBSIM_FIO_READ] = "read",
		[WBSIM_FIO_WRITE] = "write",
		[WBSIM_FIO_RANDREAD] = "randread",
		[WBSIM_FIO_RANDWRITE] = "randwrite",
		[WBSIM_FIO_RW] = "rw",
		[WBSIM_FIO_RANDRW] = "randrw",
		[WBSIM_FIO_TRIM] = "trim",
		[WBSIM_FIO_RANDTRIM] = "randtrim",
		[WBSIM_FIO_TRIMWRITE] = "trimwrite",
		[WBSIM_FIO_RANDTRIMWRITE] = "randtrimwrite",
	};

	if ((unsigned int)rw < G_N_ELEMENTS(rw_names))
		return rw_names[rw];
	return "?";
}

/**
 * wbsim_fio_rw_writes() - whether a pattern issues writes
 * @rw: the value
 *
 * Return: TRUE for write, randwrite, rw, randrw, trimwrite, randtrimwrite.
 */
gboolean wbsim_fio_rw_writes(enum wbsim_fio_rw rw);

WBSIM_END_DECLS

#endif /* WBSIM_FIO_H */
