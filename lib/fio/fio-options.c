/* SPDX-License-Identifier: MIT */
/*
 * fio-options.c - the one table of fio's job options (names, aliases,
 * types, defaults and flags as in fio's options.c) and, for each, what the
 * simulator does with it.
 *
 * Dispositions: MOD (modelled), REP (reporting only: accepted, no effect on
 * writeback), WRN (accepted with a warning saying why it is ignored), REF
 * (refused: it changes what is written or when, and wbsim does not model
 * it). An option with WBSIM_FIO_F_ZERO_OK, or a STR option whose value is
 * in .ok, is harmless at that value and counts as reporting only.
 */
#include <stdint.h>
#include <string.h>

#include "core/edit-distance.h"
#include "fio/fio-options.h"
#include "fio/fio-value.h"

#define T(x) .type = WBSIM_FIO_T_##x
#define K(x) .key = WBSIM_FIO_K_##x
#define F(x) .flags = (x)
#define MOD .disp = WBSIM_FIO_MODELLED
#define REP .disp = WBSIM_FIO_REPORTING_ONLY
#define WRN(w) .disp = WBSIM_FIO_WARN, .why = (w)
#define REF(w) .disp = WBSIM_FIO_REFUSE, .why = (w)

#define DDIR WBSIM_FIO_F_DDIR
#define HIGH WBSIM_FIO_F_HIGH
#define TIME WBSIM_FIO_F_TIME
#define SECS WBSIM_FIO_F_SECONDS
#define SIGN WBSIM_FIO_F_SIGNED
#define ZOK WBSIM_FIO_F_ZERO_OK
#define CMDL WBSIM_FIO_F_CMDLINE

/* Reasons shared by several options. */
#define W_VERIFY "verification reads data back and checks it; reads are not modelled"
#define W_CPU "CPU placement of fio workers is not modelled (CPUs come from scenario.ini)"
#define W_PRIO "I/O priorities are not modelled"
#define W_BATCH "submission batching of an async engine is not modelled; buffered writes complete in the writer"
#define W_ZBD "zoned block devices are not modelled"
#define W_RATE_MIN "fio ends the job with an error when its rate falls below this minimum; the simulator does not check it"
#define W_BUF "buffer contents do not matter to writeback (no compressing or deduplicating filesystem is modelled)"
#define W_REPLAY "only matters with read_iolog, which is refused"
#define W_TRIM "trims are not modelled"
#define W_LAT "latency-driven job control is not modelled"
#define W_HIST "completion latency histogram logs (write_hist_log) are not written"
#define W_EPOCH "simulated time has no wall-clock epoch: log times count from the job's start"
#define W_OUT "the report prints fio's default statistics, as if the option were not set"
#define W_PCT "the report prints fio's default completion-latency percentiles (clat_percentiles=1, percentile_list of fio's 17 entries)"
#define W_GTOD "the report prints every latency and bandwidth statistic fio measures by default"
#define R_ZONE "zoned or strided offsets (zonesize/zonerange/zoneskip/zonemode) are not modelled"

static const struct wbsim_fio_optdesc fio_opts[] = {
	/* --- description, names, files (fio options.c order) --- */
	{ "description", NULL, T(STR_STORE), MOD, K(DESCRIPTION) },
	{ "name", NULL, T(STR_STORE), MOD, K(NAME) },
	{ "wait_for", NULL, T(STR_STORE), REF("waiting for another job to finish is not modelled (stonewall is)"), K(WAIT_FOR) },
	{ "filename", NULL, T(STR_STORE), MOD, K(FILENAME), .prio = -1 },
	{ "directory", NULL, T(STR_STORE), MOD, K(DIRECTORY) },
	{ "filename_format", NULL, T(STR_STORE), MOD, K(FILENAME_FORMAT), .prio = -1,
	  .def = "$jobname.$jobnum.$filenum" },
	{ "unique_filename", NULL, T(BOOL), REP, .def = "1" },
	{ "lockfile", NULL, T(STR), WRN("file locking between jobs sharing a file is not modelled"),
	  .prio = 1, .def = "none", .posval = "none|exclusive|readwrite", .ok = "none" },
	{ "opendir", NULL, T(STR_STORE), REF("files found by walking a real directory tree cannot be simulated") },
	{ "rw", "readwrite", T(STR), MOD, K(RW), .def = "read",
	  .posval = "read|write|trim|randread|randwrite|randtrim|rw|readwrite|randrw|trimwrite|randtrimwrite|filecreate|filestat|filedelete" },
	{ "rw_sequencer", NULL, T(STR), WRN("the offset sequencer for rw=...:N is not modelled"),
	  .def = "sequential", .posval = "sequential|identical", .ok = "sequential" },
	{ "ioengine", NULL, T(STR_STORE), MOD, K(IOENGINE), .def = "psync" },
	{ "iodepth", NULL, T(INT), MOD, K(IODEPTH), .def = "1", .minval = 1 },
	{ "iodepth_batch", "iodepth_batch_submit", T(INT), WRN(W_BATCH), .def = "1" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", T(INT), WRN(W_BATCH), .def = "1" },
	{ "iodepth_batch_complete_max", NULL, T(INT), WRN(W_BATCH) },
	{ "iodepth_low", NULL, T(INT), WRN(W_BATCH) },
	{ "serialize_overlap", NULL, T(BOOL), WRN("overlapping in-flight I/Os are not tracked"), F(ZOK), .def = "0" },
	{ "io_submit_mode", NULL, T(STR), WRN("submission offload threads are not modelled"),
	  .def = "inline", .posval = "inline|offload", .ok = "inline" },
	{ "size", NULL, T(STR_VAL_ZONE), MOD, K(SIZE) },
	{ "io_size", "io_limit", T(STR_VAL_ZONE), MOD, K(IO_SIZE) },
	{ "fill_device", "fill_fs", T(BOOL), REF("writing until the filesystem is full (ENOSPC) needs a model of free space"),
	  F(ZOK), .def = "0" },
	{ "filesize", NULL, T(STR_VAL), MOD, F(HIGH), K(FILESIZE), .minval = 1 },
	/* file_append=1: fio computes the append offset once, at set-up (the
	 * file's size then); wbsim appends at the file's current end at every
	 * write (O_APPEND), as the E7 tests did. Both agree while one job
	 * writes a file. */
	{ "file_append", NULL, T(BOOL), MOD, K(FILE_APPEND), .def = "0" },
	{ "offset", "fileoffset", T(STR_VAL_ZONE), MOD, K(OFFSET), .def = "0" },
	{ "offset_align", NULL, T(INT), WRN("offset alignment other than the block size is not modelled"), F(ZOK), .def = "0" },
	{ "offset_increment", NULL, T(STR_VAL_ZONE), MOD, K(OFFSET_INCREMENT), .def = "0" },
	{ "number_ios", NULL, T(STR_VAL), MOD, K(NUMBER_IOS), .def = "0" },
	{ "num_range", NULL, T(INT), WRN("trim ranges are not modelled"), .def = "1" },
	{ "bs", "blocksize", T(ULL), MOD, F(DDIR), K(BS), .def = "4096", .minval = 1 },
	{ "ba", "blockalign", T(ULL), WRN("random offsets are aligned to the block size"), F(DDIR), .minval = 1 },
	{ "bsrange", "blocksize_range", T(RANGE), REF("a range of block sizes is not modelled (use bs=)"), F(DDIR), K(BSRANGE), .minval = 1 },
	{ "bssplit", NULL, T(STR_ULL), REF("a mix of block sizes is not modelled (use bs= or bsrange=)") },
	{ "bs_unaligned", "blocksize_unaligned", T(STR_SET), WRN("unaligned block sizes are rounded to the block size") },
	{ "bs_is_seq_rand", NULL, T(BOOL), REF("block sizes per sequential/random direction are not modelled"),
	  F(ZOK), .def = "0" },
	{ "randrepeat", NULL, T(BOOL), MOD, K(RANDREPEAT), .def = "1" },
	{ "randseed", NULL, T(STR_VAL), MOD, K(RANDSEED), .def = "0x89" },
	{ "norandommap", NULL, T(STR_SET), MOD, K(NORANDOMMAP) },
	{ "softrandommap", NULL, T(BOOL), WRN("the random map never fails to allocate in the simulator"), F(ZOK), .def = "0" },
	/* lfsr: refused for random offsets (check_job()), harmless otherwise */
	{ "random_generator", NULL, T(STR), MOD, K(RANDOM_GENERATOR), .def = "tausworthe",
	  .posval = "tausworthe|lfsr|tausworthe64" },
	{ "random_distribution", NULL, T(STR), REF("only the uniform random distribution is modelled"),
	  .def = "random", .posval = "random|zipf|pareto|normal|zoned|zoned_abs", .ok = "random" },
	{ "percentage_random", NULL, T(INT), WRN("a mix of sequential and random offsets is not modelled"), F(DDIR),
	  .def = "100,100,100", .maxval = 100 },
	{ "percentage_sequential", NULL, T(DEPRECATED), WRN("deprecated in fio") },
	{ "allrandrepeat", NULL, T(BOOL), MOD, K(ALLRANDREPEAT), .def = "0" },
	{ "nrfiles", "nr_files", T(INT), MOD, K(NRFILES), .def = "1", .minval = 1 },
	{ "openfiles", NULL, T(INT), WRN("limiting the number of open files is not modelled") },
	{ "file_service_type", NULL, T(STR), REF("only roundrobin without :N, a new file after every I/O, is modelled"), K(FILE_SERVICE_TYPE), .def = "roundrobin", .ok = "roundrobin",
	  .posval = "random|zipf|pareto|normal|gauss|roundrobin|sequential" },
	{ "fallocate", NULL, T(STR), MOD, K(FALLOCATE), .def = "native",
	  .posval = "none|native|posix|keep|truncate|0|1" },
	{ "fadvise_hint", NULL, T(STR), WRN("fadvise access-pattern hints only affect reads and readahead"),
	  .def = "1", .posval = "0|1|random|sequential", .ok = "0|1" },
	{ "fsync", NULL, T(INT), MOD, K(FSYNC), .def = "0" },
	{ "fdatasync", NULL, T(INT), MOD, K(FDATASYNC), .def = "0" },
	{ "write_barrier", NULL, T(INT), REF("barrier writes are not modelled"), F(ZOK), .def = "0" },
	{ "sync_file_range", NULL, T(STR_MULTI), REF("sync_file_range() is not modelled"),
	  .posval = "wait_before|write|wait_after" },
	{ "direct", NULL, T(BOOL), MOD, K(DIRECT), .def = "0" },
	{ "atomic", NULL, T(BOOL), REF("atomic O_DIRECT writes are not modelled"), F(ZOK), .def = "0" },
	{ "buffered", NULL, T(BOOL), MOD, K(BUFFERED), .def = "1" },
	{ "overwrite", NULL, T(BOOL), REF("laying the files out by writing them first is not modelled"), F(ZOK), K(OVERWRITE), .def = "0" },
	{ "loops", NULL, T(INT), MOD, K(LOOPS), .def = "1" },
	{ "numjobs", NULL, T(INT), MOD, K(NUMJOBS), .def = "1", .minval = 1 },
	{ "startdelay", NULL, T(STR_VAL_TIME), MOD, F(HIGH | SECS), K(STARTDELAY), .def = "0" },
	{ "runtime", "timeout", T(STR_VAL_TIME), MOD, F(SECS), K(RUNTIME), .def = "0" },
	{ "time_based", NULL, T(STR_SET), MOD, K(TIME_BASED) },
	{ "verify_only", NULL, T(STR_SET), REF("a verify-only job only reads; reads are not modelled") },
	{ "ramp_time", NULL, T(STR_VAL_TIME), WRN("the ramp time is not left out of the statistics"), F(SECS | ZOK), K(RAMP_TIME) },
	{ "clocksource", NULL, T(STR), REP, .posval = "gettimeofday|clock_gettime|cpu" },
	{ "mem", "iomem", T(STR), WRN("the kind of memory behind I/O buffers is not modelled"), .def = "malloc",
	  .posval = "malloc|shm|shmhuge|mmap|mmapshared|mmaphuge|cudamalloc", .ok = "malloc" },
	{ "iomem_align", "mem_align", T(INT), WRN("I/O buffer alignment is not modelled"), F(ZOK), .def = "0" },
	/* --- verification --- */
	{ "verify", NULL, T(STR), WRN(W_VERIFY), .def = "0",
	  .posval = "0|md5|crc64|crc32|crc32c-intel|crc32c|crc16|crc7|sha1|sha256|sha512|sha3-224|sha3-256|sha3-384|sha3-512|xxhash|meta|pattern|null",
	  .ok = "0" },
	{ "do_verify", NULL, T(BOOL), WRN(W_VERIFY), F(ZOK), .def = "1" },
	{ "verifysort", NULL, T(DEPRECATED), WRN("deprecated in fio") },
	{ "verifysort_nr", NULL, T(DEPRECATED), WRN("deprecated in fio") },
	{ "verify_interval", NULL, T(INT), WRN(W_VERIFY) },
	{ "verify_offset", NULL, T(INT), WRN(W_VERIFY) },
	{ "verify_pattern", NULL, T(STR), WRN(W_VERIFY) },
	{ "verify_pattern_interval", NULL, T(INT), WRN(W_VERIFY) },
	{ "verify_fatal", NULL, T(BOOL), WRN(W_VERIFY), F(ZOK), .def = "0" },
	{ "verify_dump", NULL, T(BOOL), WRN(W_VERIFY), F(ZOK), .def = "0" },
	{ "verify_async", NULL, T(INT), WRN(W_VERIFY), F(ZOK), .def = "0" },
	{ "verify_backlog", NULL, T(STR_VAL), WRN(W_VERIFY) },
	{ "verify_backlog_batch", NULL, T(INT), WRN(W_VERIFY) },
	{ "verify_async_cpus", NULL, T(STR), WRN(W_VERIFY) },
	{ "experimental_verify", NULL, T(BOOL), WRN(W_VERIFY), F(ZOK) },
	{ "verify_state_load", NULL, T(BOOL), WRN(W_VERIFY), F(ZOK) },
	{ "verify_state_save", NULL, T(BOOL), WRN(W_VERIFY), F(ZOK), .def = "1" },
	{ "verify_write_sequence", NULL, T(BOOL), WRN(W_VERIFY), F(ZOK) },
	{ "verify_header_seed", NULL, T(BOOL), WRN(W_VERIFY), F(ZOK), .def = "1" },
	{ "trim_percentage", NULL, T(INT), REF(W_TRIM), F(ZOK), .def = "0", .maxval = 100 },
	{ "trim_verify_zero", NULL, T(BOOL), WRN(W_TRIM), F(ZOK), .def = "1" },
	{ "trim_backlog", NULL, T(STR_VAL), REF(W_TRIM), F(ZOK) },
	{ "trim_backlog_batch", NULL, T(INT), WRN(W_TRIM) },
	/* --- I/O logs and replay --- */
	{ "write_iolog", NULL, T(STR_STORE), WRN("the I/O log file (fio's replayable list of the job's I/Os) is not written") },
	{ "read_iolog", NULL, T(STR_STORE), REF("replaying an I/O trace is not modelled") },
	{ "read_iolog_chunked", NULL, T(BOOL), WRN(W_REPLAY), F(ZOK), .def = "0" },
	{ "replay_no_stall", NULL, T(BOOL), WRN(W_REPLAY), F(ZOK), .def = "0" },
	{ "replay_redirect", NULL, T(STR_STORE), WRN(W_REPLAY) },
	{ "replay_scale", NULL, T(INT), WRN(W_REPLAY), .def = "1" },
	{ "replay_align", NULL, T(INT), WRN(W_REPLAY) },
	{ "replay_time_scale", NULL, T(INT), WRN(W_REPLAY), .def = "100", .minval = 1 },
	{ "replay_skip", NULL, T(STR), WRN(W_REPLAY) },
	{ "merge_blktrace_file", NULL, T(STR_STORE), WRN(W_REPLAY) },
	{ "merge_blktrace_scalars", NULL, T(FLOAT_LIST), WRN(W_REPLAY) },
	{ "merge_blktrace_iters", NULL, T(FLOAT_LIST), WRN(W_REPLAY) },
	{ "exec_prerun", NULL, T(STR_STORE), WRN("external commands are not run") },
	{ "exec_postrun", NULL, T(STR_STORE), WRN("external commands are not run") },
	{ "ioscheduler", NULL, T(STR_STORE), WRN("the block-layer scheduler comes from the device model in scenario.ini") },
	/* --- zones --- */
	{ "zonemode", NULL, T(STR), REF(R_ZONE), .def = "none", .posval = "none|strided|zbd", .ok = "none" },
	{ "zonesize", NULL, T(STR_VAL), REF(R_ZONE), F(ZOK), .def = "0" },
	{ "zonecapacity", NULL, T(STR_VAL), WRN(W_ZBD), F(ZOK), .def = "0" },
	{ "zonerange", NULL, T(STR_VAL), REF(R_ZONE), F(ZOK), .def = "0" },
	{ "zoneskip", NULL, T(STR_VAL_ZONE), REF(R_ZONE), F(ZOK), .def = "0" },
	{ "read_beyond_wp", NULL, T(BOOL), WRN(W_ZBD), F(ZOK), .def = "0" },
	{ "max_open_zones", NULL, T(INT), WRN(W_ZBD), F(ZOK), .def = "0" },
	{ "job_max_open_zones", NULL, T(INT), WRN(W_ZBD), F(ZOK), .def = "0" },
	{ "ignore_zone_limits", NULL, T(BOOL), WRN(W_ZBD), F(ZOK), .def = "0" },
	{ "zone_reset_threshold", NULL, T(FLOAT_LIST), WRN(W_ZBD) },
	{ "zone_reset_frequency", NULL, T(FLOAT_LIST), WRN(W_ZBD) },
	{ "recover_zbd_write_error", NULL, T(BOOL), WRN(W_ZBD), F(ZOK), .def = "0" },
	{ "fdp", NULL, T(BOOL), WRN("NVMe data placement is not modelled"), F(ZOK), .def = "0" },
	{ "dataplacement", NULL, T(STR), WRN("NVMe data placement is not modelled"), .def = "none",
	  .posval = "none|fdp|streams", .ok = "none" },
	{ "fdp_pli_select", "plid_select", T(STR), WRN("NVMe data placement is not modelled"),
	  .posval = "random|roundrobin|scheme" },
	{ "fdp_pli", "plids", T(STR), WRN("NVMe data placement is not modelled") },
	{ "dp_scheme", NULL, T(STR_STORE), WRN("NVMe data placement is not modelled") },
	{ "lockmem", NULL, T(STR_VAL), WRN("memory locked by fio is not taken from the simulated machine's memory"),
	  F(ZOK), .def = "0" },
	/* --- read/write mix, priorities, think time --- */
	{ "rwmixread", NULL, T(INT), MOD, K(RWMIXREAD), .def = "50", .maxval = 100 },
	{ "rwmixwrite", NULL, T(INT), MOD, K(RWMIXWRITE), .def = "50", .maxval = 100 },
	{ "rwmixcycle", NULL, T(DEPRECATED), WRN("deprecated in fio") },
	{ "nice", NULL, T(INT), WRN("CPU nice values are not modelled"), F(SIGN | ZOK), .def = "0",
	  .minval = -20, .maxval = 19 },
	{ "prio", NULL, T(INT), WRN(W_PRIO), .maxval = 7 },
	{ "prioclass", NULL, T(INT), WRN(W_PRIO), .maxval = 3 },
	{ "priohint", NULL, T(INT), WRN(W_PRIO) },
	{ "thinktime", NULL, T(INT), REF("think time between I/Os is not modelled"), F(TIME | ZOK), K(THINKTIME), .def = "0" },
	{ "thinktime_spin", NULL, T(INT), WRN("the spinning part of think time is counted as think time"), F(TIME | ZOK),
	  .def = "0" },
	{ "thinktime_blocks", NULL, T(INT), REP, K(THINKTIME_BLOCKS), .def = "1" },
	{ "thinktime_blocks_type", NULL, T(STR), WRN("think time is taken after thinktime_blocks issued I/Os"),
	  .def = "complete", .posval = "complete|issue", .ok = "complete|issue" },
	{ "thinktime_iotime", NULL, T(STR_VAL_TIME), WRN("think time by I/O time is not modelled"), F(SECS | ZOK),
	  .def = "0" },
	{ "thinkcycles", NULL, T(INT), WRN("CPU cycles burnt between I/Os are not modelled"), F(ZOK), .def = "0" },
	/* --- rates --- */
	{ "rate", NULL, T(ULL), MOD, F(DDIR), K(RATE) },
	{ "rate_min", "ratemin", T(ULL), WRN(W_RATE_MIN), F(DDIR | ZOK) },
	{ "rate_iops", NULL, T(INT), REF("an IOPS rate is not modelled (use rate=)"), F(DDIR | ZOK), K(RATE_IOPS) },
	{ "rate_iops_min", NULL, T(INT), WRN(W_RATE_MIN), F(DDIR | ZOK) },
	{ "rate_process", NULL, T(STR), WRN("rated I/O is issued at a steady pace; the Poisson process is not modelled"),
	  .def = "linear", .posval = "linear|poisson", .ok = "linear" },
	{ "rate_cycle", "ratecycle", T(INT), WRN("the rate averaging window is not modelled"), .def = "1000" },
	{ "rate_ignore_thinktime", NULL, T(BOOL), WRN("rate and think time are combined as fio does by default"), F(ZOK) },
	{ "max_latency", NULL, T(ULL), WRN(W_LAT), F(DDIR | TIME) },
	{ "latency_target", NULL, T(STR_VAL_TIME), REF("latency_target changes the queue depth at run time; not modelled"),
	  F(ZOK) },
	{ "latency_window", NULL, T(STR_VAL_TIME), WRN(W_LAT), F(ZOK) },
	{ "latency_percentile", NULL, T(FLOAT_LIST), WRN(W_LAT), .def = "100" },
	{ "latency_run", NULL, T(BOOL), WRN(W_LAT), F(ZOK), .def = "0" },
	{ "invalidate", NULL, T(BOOL), MOD, K(INVALIDATE), .def = "1" },
	{ "sync", NULL, T(STR), REF("O_SYNC/O_DSYNC writes are not modelled (use fsync=1)"), .def = "none",
	  .posval = "none|0|sync|1|dsync", .ok = "none|0" },
	{ "write_hint", NULL, T(STR), WRN("write lifetime hints are not modelled"),
	  .posval = "none|short|medium|long|extreme", .ok = "none" },
	/* --- file creation and layout --- */
	{ "create_serialize", NULL, T(BOOL), REP, K(CREATE_SERIALIZE), .def = "1" },
	{ "create_fsync", NULL, T(BOOL), REP, K(CREATE_FSYNC), .def = "1" },
	{ "create_on_open", NULL, T(BOOL), MOD, K(CREATE_ON_OPEN), .def = "0" },
	{ "create_only", NULL, T(BOOL), REF("a job that only lays out its files is not modelled"), F(ZOK), .def = "0" },
	{ "allow_file_create", NULL, T(BOOL), WRN("files are always created in the simulator"), .def = "1",
	  F(ZOK) },
	{ "allow_mounted_write", NULL, T(BOOL), REP, .def = "0" },
	{ "pre_read", NULL, T(BOOL), WRN("pre-reading files into the page cache is not modelled"), F(ZOK), .def = "0" },
	{ "cpumask", NULL, T(INT), WRN(W_CPU) },
	{ "cpus_allowed", NULL, T(STR), WRN(W_CPU) },
	{ "cpus_allowed_policy", NULL, T(STR), WRN(W_CPU), .prio = 1, .posval = "shared|split" },
	{ "numa_cpu_nodes", NULL, T(STR), WRN("NUMA placement is not modelled") },
	{ "numa_mem_policy", NULL, T(STR), WRN("NUMA placement is not modelled") },
	{ "gpu_dev_id", NULL, T(INT), WRN("GPU memory is not modelled"), .def = "0" },
	{ "end_fsync", NULL, T(BOOL), MOD, K(END_FSYNC), .def = "0" },
	{ "fsync_on_close", NULL, T(BOOL), MOD, K(FSYNC_ON_CLOSE), .def = "0" },
	{ "end_syncfs", NULL, T(BOOL), REF("syncfs() at the end of the job is not modelled (end_fsync is)"), F(ZOK), K(END_SYNCFS), .def = "0" },
	{ "unlink", NULL, T(BOOL), REF("unlinking the files when the job ends (dropping their dirty pages) is not modelled"), F(ZOK), K(UNLINK), .def = "0" },
	{ "unlink_each_loop", NULL, T(BOOL), REF("unlinking the files after each loop is not modelled"), F(ZOK), K(UNLINK_EACH_LOOP), .def = "0" },
	{ "exitall", NULL, T(STR_SET), REF("ending every job when one ends is not modelled") },
	{ "exit_what", NULL, T(STR), WRN("exitall stops the jobs of the finishing job's group"), .def = "group",
	  .posval = "group|stonewall|all", .ok = "group" },
	{ "exitall_on_error", NULL, T(STR_SET), REP },
	{ "stonewall", "wait_for_previous", T(STR_SET), MOD, K(STONEWALL) },
	{ "new_group", NULL, T(STR_SET), MOD, K(NEW_GROUP) },
	{ "thread", NULL, T(STR_SET), MOD, K(THREAD) },
	/* registered by fio's "act" profile; fio accepts it in every job file */
	{ "threads", NULL, T(INT), WRN("the act profile's thread count only applies with profile=act") },
	/* --- logs and statistics --- */
	{ "per_job_logs", NULL, T(BOOL), MOD, K(PER_JOB_LOGS), .def = "1" },
	{ "write_bw_log", NULL, T(STR), MOD, K(WRITE_BW_LOG) },
	{ "write_lat_log", NULL, T(STR), MOD, K(WRITE_LAT_LOG) },
	{ "write_iops_log", NULL, T(STR), MOD, K(WRITE_IOPS_LOG) },
	{ "log_entries", NULL, T(INT), REP },
	{ "log_avg_msec", NULL, T(INT), MOD, K(LOG_AVG_MSEC), .def = "0" },
	{ "log_hist_msec", NULL, T(INT), WRN(W_HIST), F(ZOK), .def = "0" },
	{ "log_hist_coarseness", NULL, T(INT), REP, .def = "0", .maxval = 6 },
	{ "write_hist_log", NULL, T(STR), WRN(W_HIST) },
	{ "log_window_value", "log_max_value", T(STR), MOD, K(LOG_WINDOW_VALUE), .def = "avg",
	  .posval = "avg|0|max|1|both|2" },
	{ "log_offset", NULL, T(BOOL), MOD, K(LOG_OFFSET), .def = "0" },
	{ "log_prio", NULL, T(BOOL), MOD, K(LOG_PRIO), .def = "0" },
	{ "log_issue_time", NULL, T(BOOL), WRN("the issue-time column is newer than fio 3.33's log format, which wbsim writes"),
	  F(ZOK), .def = "0" },
	{ "log_compression", NULL, T(INT), WRN("logs are written whole, as text"), F(ZOK) },
	{ "log_compression_cpus", NULL, T(STR), REP },
	{ "log_store_compressed", NULL, T(BOOL), WRN("logs are written as text (NAME.log), not compressed (NAME.log.fz)"), F(ZOK) },
	{ "log_unix_epoch", NULL, T(BOOL), WRN(W_EPOCH), F(ZOK) },
	{ "log_alternate_epoch", NULL, T(BOOL), WRN(W_EPOCH), F(ZOK) },
	{ "log_alternate_epoch_clock_id", NULL, T(INT), REP },
	{ "job_start_clock_id", NULL, T(INT), REP },
	{ "block_error_percentiles", NULL, T(BOOL), REP, .def = "0" },
	{ "bwavgtime", NULL, T(INT), MOD, K(BWAVGTIME), .def = "500" },
	{ "iopsavgtime", NULL, T(INT), MOD, K(IOPSAVGTIME), .def = "500" },
	{ "group_reporting", NULL, T(STR_SET), MOD, K(GROUP_REPORTING) },
	{ "stats", NULL, T(BOOL), WRN("the report prints the job's statistics (stats=0 would leave it out of fio's output)"), .def = "1" },
	{ "zero_buffers", NULL, T(STR_SET), REP },
	{ "refill_buffers", NULL, T(STR_SET), REP },
	{ "scramble_buffers", NULL, T(BOOL), REP, .def = "1" },
	{ "buffer_pattern", NULL, T(STR), REP },
	{ "buffer_compress_percentage", NULL, T(INT), WRN(W_BUF), F(ZOK), .maxval = 100 },
	{ "buffer_compress_chunk", NULL, T(INT), WRN(W_BUF), .def = "512" },
	{ "dedupe_percentage", NULL, T(INT), WRN(W_BUF), F(ZOK), .maxval = 100 },
	{ "dedupe_global", NULL, T(BOOL), WRN(W_BUF), F(ZOK), .def = "0" },
	{ "dedupe_mode", NULL, T(STR), WRN(W_BUF), .def = "repeat", .posval = "repeat|working_set" },
	{ "dedupe_working_set_percentage", NULL, T(INT), WRN(W_BUF), .def = "5", .maxval = 100 },
	{ "clat_percentiles", NULL, T(BOOL), WRN(W_PCT), .def = "1" },
	{ "lat_percentiles", NULL, T(BOOL), WRN(W_PCT), F(ZOK), .def = "0" },
	{ "slat_percentiles", NULL, T(BOOL), WRN(W_PCT), F(ZOK), .def = "0" },
	{ "percentile_list", NULL, T(FLOAT_LIST), WRN(W_PCT),
	  .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99" },
	{ "significant_figures", NULL, T(INT), WRN("the report prints numbers with fio's default 4 significant figures"), .def = "4", .minval = 1, .maxval = 10 },
	{ "disk_util", NULL, T(BOOL), WRN("the report prints the disk utilization section (disk_util=0 would leave it out)"), .def = "1" },
	{ "gtod_reduce", NULL, T(BOOL), WRN(W_GTOD), F(ZOK), .def = "0" },
	{ "disable_lat", NULL, T(BOOL), WRN(W_GTOD), F(ZOK), .def = "0" },
	{ "disable_clat", NULL, T(BOOL), WRN(W_GTOD), F(ZOK), .def = "0" },
	{ "disable_slat", NULL, T(BOOL), WRN(W_GTOD), F(ZOK), .def = "0" },
	{ "disable_bw_measurement", "disable_bw", T(BOOL), WRN(W_GTOD), F(ZOK), .def = "0" },
	{ "gtod_cpu", NULL, T(INT), REP },
	{ "unified_rw_reporting", NULL, T(STR), WRN("the report prints reads and writes separately, as fio's default does"), .def = "none", .posval = "none|mixed|both|0|1|2", .ok = "none|0" },
	{ "continue_on_error", NULL, T(STR), WRN("no I/O errors are simulated, and the report does not print fio's error counts (text \"errors\" line, JSON total_err and first_error)"),
	  .def = "none", .posval = "none|read|write|io|verify|all|0|1", .ok = "none|0" },
	{ "ignore_error", NULL, T(STR), REP },
	{ "error_dump", NULL, T(BOOL), REP, .def = "0" },
	{ "profile", NULL, T(STR_STORE), REF("fio's built-in profiles generate their own jobs; not modelled") },
	/* cgroup=NAME: the job's tasks go into cgroup /NAME (created if
	 * missing) when the job starts; fio removes it when the job ends
	 * unless cgroup_nodelete=1, ignoring a failure */
	{ "cgroup", NULL, T(STR_STORE), MOD, K(CGROUP) },
	{ "cgroup_nodelete", NULL, T(BOOL), MOD, K(CGROUP_NODELETE), .def = "0" },
	{ "cgroup_weight", NULL, T(INT), WRN("blkio cgroup weights are not modelled") },
	{ "uid", NULL, T(INT), REP },
	{ "gid", NULL, T(INT), REP },
	{ "kb_base", NULL, T(STR), MOD, K(KB_BASE), .prio = 1, .def = "1024", .posval = "1024|1000" },
	{ "unit_base", NULL, T(STR), WRN("the report prints bandwidth in bytes; unit_base=1 (bits) is not applied"), .prio = 1, .posval = "0|8|1", .ok = "0|8" },
	{ "hugepage-size", NULL, T(INT), WRN("huge pages for I/O buffers are not modelled") },
	{ "flow_id", NULL, T(INT), WRN("flow control between jobs is not modelled"), F(ZOK), .def = "0" },
	{ "flow", NULL, T(INT), REF("flow control between jobs is not modelled"), F(SIGN | ZOK), .def = "0" },
	{ "flow_watermark", NULL, T(DEPRECATED), WRN("deprecated in fio") },
	{ "flow_sleep", NULL, T(INT), WRN("flow control between jobs is not modelled"), F(ZOK), .def = "0" },
	{ "steadystate", "ss", T(STR), WRN("steady-state detection is not modelled"),
	  .def = "iops_slope:0.01%", .posval = "iops|iops_slope|bw|bw_slope" },
	{ "steadystate_duration", "ss_dur", T(STR_VAL_TIME), REF("ending a job at steady state is not modelled"),
	  F(SECS | ZOK), .def = "0" },
	{ "steadystate_ramp_time", "ss_ramp", T(STR_VAL_TIME), WRN("steady-state detection is not modelled"),
	  F(SECS | ZOK), .def = "0" },
	{ "steadystate_check_interval", "ss_interval", T(STR_VAL_TIME), WRN("steady-state detection is not modelled"),
	  F(SECS) },
	/* --- fio command-line options some users put in job files --- */
	{ "eta-interval", NULL, T(STR_VAL_TIME), REP, F(CMDL) },
	{ "eta-newline", NULL, T(STR_VAL_TIME), REP, F(CMDL | SECS) },
	{ "status-interval", NULL, T(STR_VAL_TIME), WRN("periodic status reports during the run are not printed"), F(CMDL | SECS | ZOK) },
};

/*
 * Options of the engines wbsim models. fio looks an option up in the
 * engine's own table only when the core table does not have it.
 */
static const struct wbsim_fio_optdesc engine_opts[] = {
	{ "hipri", NULL, T(STR_SET), WRN("polled completions are not modelled"),
	  .engines = "io_uring,pvsync2" },
	{ "hipri_percentage", NULL, T(INT), WRN("polled completions are not modelled"), .maxval = 100,
	  .engines = "pvsync2" },
	{ "uncached", NULL, T(INT), REF("RWF_DONTCACHE/uncached buffered writes are not modelled"), F(ZOK),
	  .engines = "io_uring,pvsync2" },
	{ "nowait", NULL, T(BOOL), WRN("RWF_NOWAIT is not modelled"), F(ZOK), .engines = "io_uring,pvsync2,libaio" },
	{ "fixedbufs", NULL, T(STR_SET), WRN("registered buffers are not modelled"), .engines = "io_uring" },
	{ "registerfiles", NULL, T(STR_SET), WRN("registered files are not modelled"), .engines = "io_uring" },
	{ "sqthread_poll", NULL, T(STR_SET), WRN("the submission polling thread is not modelled"),
	  .engines = "io_uring" },
	{ "sqthread_poll_cpu", NULL, T(INT), WRN("the submission polling thread is not modelled"),
	  .engines = "io_uring" },
	{ "nonvectored", NULL, T(INT), WRN("vectored and non-vectored submissions are alike here"), .def = "-1",
	  F(SIGN), .engines = "io_uring" },
	{ "force_async", NULL, T(INT), WRN("IOSQE_ASYNC punting is not modelled"), F(ZOK), .engines = "io_uring" },
	{ "atomic", NULL, T(BOOL), REF("atomic writes are not modelled"), F(ZOK), .engines = "io_uring,pvsync2" },
	{ "userspace_reap", NULL, T(STR_SET), WRN("completion reaping is not modelled"), .engines = "libaio" },
	{ "cmdprio_percentage", NULL, T(INT), WRN(W_PRIO), F(DDIR), .maxval = 100, .engines = "io_uring,libaio" },
	{ "cmdprio_class", NULL, T(INT), WRN(W_PRIO), F(DDIR), .engines = "io_uring,libaio" },
	{ "cmdprio", NULL, T(INT), WRN(W_PRIO), F(DDIR), .engines = "io_uring,libaio" },
	{ "cmdprio_hint", NULL, T(INT), WRN(W_PRIO), F(DDIR), .engines = "io_uring,libaio" },
	{ "cmdprio_bssplit", NULL, T(STR_ULL), WRN(W_PRIO), .engines = "io_uring,libaio" },
};

/* The engines fio builds on Linux, what the modelled ones do, and why
 * wbsim refuses the others. */
static const struct wbsim_fio_engine engines[] = {
	{ "sync", NULL, 0 }, { "psync", NULL, 0 }, { "vsync", NULL, 0 },
	{ "pvsync", NULL, 0 }, { "pvsync2", NULL, 0 },
	{ "libaio", NULL, WBSIM_FIO_ENGINE_ASYNC },
	{ "io_uring", NULL, WBSIM_FIO_ENGINE_ASYNC | WBSIM_FIO_ENGINE_IO_URING },
	{ "posixaio", NULL, WBSIM_FIO_ENGINE_ASYNC },
	{ "mmap", "writes through a shared mapping dirty pages by page faults, which is not modelled", 0 },
	{ "splice", "splice/vmsplice I/O is not modelled", 0 },
	{ "netsplice", "network I/O is not modelled", 0 },
	{ "net", "network I/O is not modelled", 0 },
	{ "rdma", "network I/O is not modelled", 0 },
	{ "sg", "SCSI generic I/O bypasses the page cache", 0 },
	{ "null", "the null engine does no I/O", 0 },
	{ "cpuio", "the cpuio engine only burns CPU", 0 },
	{ "e4defrag", "ext4 online defragmentation is not modelled", 0 },
	{ "falloc", "the falloc engine issues fallocate() calls, not writes", 0 },
	{ "ftruncate", "the ftruncate engine truncates files, not writes", 0 },
	{ "filecreate", "the filecreate engine only creates files", 0 },
	{ "filestat", "the filestat engine only calls stat()", 0 },
	{ "filedelete", "the filedelete engine only unlinks files", 0 },
	{ "dircreate", "the dircreate engine only creates directories", 0 },
	{ "dirstat", "the dirstat engine only calls stat()", 0 },
	{ "dirdelete", "the dirdelete engine only removes directories", 0 },
	{ "exec", "the exec engine runs external programs", 0 },
	{ "dev-dax", "device DAX bypasses the page cache", 0 },
	{ "libpmem", "persistent-memory mappings bypass the page cache", 0 },
	{ "pmemblk", "persistent-memory block I/O bypasses the page cache", 0 },
	{ "http", "HTTP/S3/Swift I/O is not modelled", 0 },
	{ "nbd", "network block device I/O is not modelled", 0 },
	{ "nfs", "user-space NFS I/O is not modelled", 0 },
	{ "dfs", "DAOS I/O is not modelled", 0 },
	{ "rbd", "Ceph RBD I/O is not modelled", 0 },
	{ "rados", "Ceph RADOS I/O is not modelled", 0 },
	{ "gfapi", "GlusterFS user-space I/O is not modelled", 0 },
	{ "gfapi_async", "GlusterFS user-space I/O is not modelled", 0 },
	{ "libhdfs", "HDFS I/O is not modelled", 0 },
	{ "ime_psync", "DDN IME I/O is not modelled", 0 },
	{ "ime_psyncv", "DDN IME I/O is not modelled", 0 },
	{ "ime_aio", "DDN IME I/O is not modelled", 0 },
	{ "libiscsi", "user-space iSCSI I/O is not modelled", 0 },
	{ "libzbc", "zoned block devices are not modelled", 0 },
	{ "mtd", "raw flash (MTD) I/O is not modelled", 0 },
	{ "xnvme", "user-space NVMe I/O bypasses the page cache", 0 },
	{ "io_uring_cmd", "NVMe passthrough bypasses the page cache", 0 },
	{ "spdk", "user-space NVMe I/O bypasses the page cache", 0 },
	{ "libblkio", "user-space block I/O bypasses the page cache", 0 },
	{ "libcufile", "GPUDirect storage I/O is not modelled", 0 },
	{ "librpma_apm_client", "RDMA persistent-memory I/O is not modelled", 0 },
	{ "librpma_apm_server", "RDMA persistent-memory I/O is not modelled", 0 },
	{ "librpma_gpspm_client", "RDMA persistent-memory I/O is not modelled", 0 },
	{ "librpma_gpspm_server", "RDMA persistent-memory I/O is not modelled", 0 },
	{ "windowsaio", "Windows I/O is not modelled", 0 },
	{ "solarisaio", "Solaris I/O is not modelled", 0 },
	{ "cpp_null", "the null engine does no I/O", 0 },
};

const struct wbsim_fio_optdesc *wbsim_fio_options(guint *n)
{
	*n = G_N_ELEMENTS(fio_opts);
	return fio_opts;
}

static gboolean opt_match(const struct wbsim_fio_optdesc *o, const char *name)
{
	return strcmp(o->name, name) == 0 ||
	       (o->alias && strcmp(o->alias, name) == 0);
}

const struct wbsim_fio_optdesc *wbsim_fio_option_find(const char *name)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(fio_opts); i++)
		if (opt_match(&fio_opts[i], name))
			return &fio_opts[i];
	return NULL;
}

/* Is @engine in the ','-separated @list? */
static gboolean engine_in_list(const char *list, const char *engine)
{
	size_t n = strlen(engine);
	const char *p = list;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && strncmp(p, engine, n) == 0)
			return TRUE;
		p = comma ? comma + 1 : NULL;
	}
	return FALSE;
}

const struct wbsim_fio_optdesc *wbsim_fio_engine_option_find(const char *engine,
							     const char *name)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(engine_opts); i++)
		if (opt_match(&engine_opts[i], name) &&
		    engine_in_list(engine_opts[i].engines, engine))
			return &engine_opts[i];
	return NULL;
}

const char *wbsim_fio_option_closest(const char *name)
{
	size_t best = SIZE_MAX;
	const char *best_name = NULL;
	size_t i;

	/* fio options.c show_closest_option(): names only, first minimum;
	 * fio's string_distance() counts no transposition */
	for (i = 0; i < G_N_ELEMENTS(fio_opts); i++) {
		size_t d;

		if (fio_opts[i].flags & WBSIM_FIO_F_CMDLINE)
			continue;
		d = wbsim_edit_distance(name, fio_opts[i].name, false);
		if (d < best) {
			best = d;
			best_name = fio_opts[i].name;
		}
	}
	/* fio parse.c string_distance_ok(): at most half the length, rounded up */
	if (best_name && best <= (strlen(name) + 1) / 2)
		return best_name;
	return NULL;
}

const struct wbsim_fio_engine *wbsim_fio_engine_find(const char *engine)
{
	for (size_t i = 0; engine && i < G_N_ELEMENTS(engines); i++)
		if (strcmp(engines[i].name, engine) == 0)
			return &engines[i];
	return NULL;
}

enum wbsim_fio_engine_kind wbsim_fio_engine_lookup(const char *engine,
						   const char **why)
{
	const struct wbsim_fio_engine *e;

	*why = NULL;
	if (g_str_has_prefix(engine, "external")) {
		*why = "external engines are loaded from shared objects and cannot be simulated";
		return WBSIM_FIO_ENGINE_REFUSED;
	}
	e = wbsim_fio_engine_find(engine);
	if (!e)
		return WBSIM_FIO_ENGINE_UNKNOWN;
	*why = e->why;
	return e->why ? WBSIM_FIO_ENGINE_REFUSED : WBSIM_FIO_ENGINE_MODELLED;
}

char *wbsim_fio_engines_modelled(void)
{
	GString *s = g_string_new(NULL);
	size_t n = 0, seen = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(engines); i++)
		n += !engines[i].why;
	for (size_t i = 0; i < G_N_ELEMENTS(engines); i++) {
		if (engines[i].why)
			continue;
		if (seen++)
			g_string_append(s, seen == n ? " or " : ", ");
		g_string_append(s, engines[i].name);
	}
	return g_string_free(s, FALSE);
}
