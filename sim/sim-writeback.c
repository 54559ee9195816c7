/* SPDX-License-Identifier: MIT */
/*
 * sim-writeback - run a writeback scenario: read SCENARIO.ini (and the fio
 * jobs it names), apply --set/--seed overrides, check everything, then
 * simulate and report.
 *
 * Exit status: 0 success, 2 bad input or usage (message on stderr prefixed
 * "sim-writeback: "), 1 when a simulation fails, 128 when SIGINT or
 * SIGTERM interrupted the run (fio's status for it).
 *
 * SIGINT and SIGTERM do what they do to fio: the simulation stops at the
 * simulated time it has reached, the report of what ran is written and
 * every output file is closed whole (the series' last row, a trace.dat
 * trace-cmd opens); standard error says so and at which simulated time. A
 * sweep starts no further point: the points under way run to their end
 * and are written. A second signal ends the program at once.
 *
 * run_scenario() is the one place a single simulation is called: the
 * library returns the results as data, and this program prints them (text,
 * JSON or a CSV row on stdout or --output, the time series and the trace to
 * the files asked for). A sweep ([sweep] in the scenario, --sweep on the
 * command line; also one run with --repeat or --results) runs --jobs points
 * at a time and prints one report, JSON line or CSV row per point, in
 * point order; the options and the sweep path are shared with
 * sim-writeback-mpi (sim/sweep-cli.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include <wbsim/wbsim.h>
#include "sweep-cli.h"
#include "prog-fail.h"

#define PROG "sim-writeback"

enum exit_status {
	EXIT_OK = 0,
	EXIT_SIM_FAILED = 1,
	EXIT_BAD_INPUT = 2,
	/*
	 * fio's exit status after SIGINT or SIGTERM: backend.c, sig_int()
	 * (the handler of both, set_sig_handlers()) prints "fio: terminating
	 * on signal N" and sets exit_value = 128, which fio_backend() returns
	 * and fio's main() exits with (fio 3.33 as today's fio).
	 */
	EXIT_INTERRUPTED = 128,
};

/* No more threads than this, whatever --jobs says. */
#define MAX_JOBS 1024

/**
 * struct run_options - what the command line asks of a single run
 * @cli: the shared options (format, output, --check, wall time, name)
 * @series_file: --series: CSV time series destination, or NULL
 * @trace_file: --trace: tracepoint-style event log destination, or NULL
 * @series: @series_file, opened before the run (open_out())
 * @trace: @trace_file, opened before the run
 * @trace_events: --trace-events, resolved (NULL: every tracepoint)
 * @interrupted: the run was stopped by a signal (stop_signal)
 * @stopped_ns: then, the simulated time it stopped at
 */
struct run_options {
	const struct wbsim_sweep_cli *cli;
	const char *series_file;
	const char *trace_file;
	FILE *series;
	FILE *trace;
	char **trace_events;
	gboolean interrupted;
	wbsim_time_t stopped_ns;
};

static gboolean opt_version;
static gboolean opt_dump_config;
static gboolean opt_explain_costs;
static gboolean opt_parse_only;
static gboolean opt_list_keys;
static gboolean opt_list_scenarios;
static gboolean opt_list_trace_events;
static char *opt_series;
static char *opt_trace;
static char *opt_trace_events;
static char *opt_jobs;

/*
 * The options of this program only, by --help's group (sweep-cli.h); the
 * rest are in sweep-cli.c.
 */
static const GOptionEntry scenario_entries[] = {
	{ "dump-config", 0, 0, G_OPTION_ARG_NONE, &opt_dump_config,
	  "Print the resolved scenario (every default explicit, fio jobs inline) and exit", NULL },
	{ "parse-only", 0, 0, G_OPTION_ARG_NONE, &opt_parse_only,
	  "Check the scenario and its fio jobs, then exit", NULL },
	{ "explain-costs", 0, 0, G_OPTION_ARG_NONE, &opt_explain_costs,
	  "Print what one buffered 4 KiB write and one written-back page cost on the scenario's "
	  "machine, step by step (each cost's key, value, what it is, where the value comes from), "
	  "summed, with the CPU-bound bandwidth of one CPU, and exit", NULL },
	G_OPTION_ENTRY_NULL
};

static const GOptionEntry output_entries[] = {
	{ "series", 0, 0, G_OPTION_ARG_FILENAME, &opt_series,
	  "Write the time series (CSV) to FILE", "FILE" },
	{ "trace", 0, 0, G_OPTION_ARG_FILENAME, &opt_trace,
	  "Write writeback tracepoint events to FILE: ftrace's text, or trace-cmd's trace.dat "
	  "if FILE ends in .dat, in any case (trace-cmd report, KernelShark)", "FILE" },
	{ "trace-events", 0, 0, G_OPTION_ARG_STRING, &opt_trace_events,
	  "The tracepoints --trace writes, as trace-cmd record -e takes them: writeback (the default: all), "
	  "writeback:EVENT or EVENT, comma-separated, globs allowed (--list-trace-events)", "LIST" },
	G_OPTION_ENTRY_NULL
};

static const GOptionEntry sweep_entries[] = {
	{ "jobs", 'j', 0, G_OPTION_ARG_STRING, &opt_jobs,
	  "Sweep points simulated at once (default: the host's CPUs)", "N" },
	G_OPTION_ENTRY_NULL
};

static const GOptionEntry info_entries[] = {
	{ "version", 'V', 0, G_OPTION_ARG_NONE, &opt_version,
	  "Print the program and library versions and exit", NULL },
	{ "list-scenarios", 0, 0, G_OPTION_ARG_NONE, &opt_list_scenarios,
	  "List the bundled scenarios, which run by name (sim-writeback NAME), and exit", NULL },
	{ "list-keys", 0, 0, G_OPTION_ARG_NONE, &opt_list_keys,
	  "List every key a scenario may set: the sections' keys, each device model's "
	  "parameters (what a preset or [device] sets) and each filesystem's options, "
	  "with type, range, unit and default (Markdown, the reference of "
	  "scenarios/README.md), and exit", NULL },
	{ "list-trace-events", 0, 0, G_OPTION_ARG_NONE, &opt_list_trace_events,
	  "List the tracepoints --trace can write, one a line (what --trace-events selects from), and exit", NULL },
	/* its former name, for scripts */
	{ "dump-keys-markdown", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE,
	  &opt_list_keys, "Same as --list-keys", NULL },
	G_OPTION_ENTRY_NULL
};

static void free_options(void)
{
	g_free(opt_series);
	g_free(opt_trace);
	g_free(opt_trace_events);
	g_free(opt_jobs);
}

/* "PROG: message" on standard error; returns @status. */
#define fail(status, ...) prog_fail(PROG, (status), __VA_ARGS__)

/*
 * SIGINT, SIGTERM: the signal's number, set by on_stop_signal(); the run
 * reads it before each event (wbsim_run_opts.stop) and stops.
 */
static volatile sig_atomic_t stop_signal;

/*
 * The handler of SIGINT and SIGTERM: async-signal-safe, it only sets
 * stop_signal and gives both signals back their default action, so a
 * second one ends the program at once.
 */
static void on_stop_signal(int sig)
{
	struct sigaction dfl;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	stop_signal = sig;
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
}

/*
 * Catch SIGINT and SIGTERM while simulating; a signal the program was
 * started with ignored (nohup, a background job of a non-interactive
 * shell) stays ignored.
 */
static void catch_stop_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };

	for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
		struct sigaction old, act;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		memset(&act, 0, sizeof(act));
		act.sa_handler = on_stop_signal;
		sigemptyset(&act.sa_mask);
		sigaddset(&act.sa_mask, SIGINT);
		sigaddset(&act.sa_mask, SIGTERM);
		act.sa_flags = SA_RESTART;
		sigaction(sigs[i], &act, NULL);
	}
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* --trace FILE.dat (.DAT, any case): trace-cmd's binary trace.dat; any
 * other name: text. */
static gboolean trace_is_dat(const char *path)
{
	size_t n = strlen(path);

	return n >= 4 && g_ascii_strcasecmp(path + n - 4, ".dat") == 0;
}

/*
 * The user data of a single run's callbacks (wbsim_run_opts.user_data):
 * the progress line, the --series rows, the --trace text, the fio logs.
 */
struct run_hooks {
	struct run_progress *rp;
	struct series_out *so;
	struct trace_out *to;
	struct io_logs_out *lo;
};

/* The outputs a fio log must not be: --output (or standard output),
 * --series, --trace, open when the logs are checked. */
#define N_OPEN_OUTPUTS 3

/**
 * struct trace_out - --trace FILE of text, written at the end
 * @path: FILE
 * @f: FILE, opened before the run
 * @spool: the lines while the run goes: ftrace's header, which comes
 *	first, counts them ("entries-in-buffer"), so they wait in a
 *	temporary file beside FILE (unlinked at once: nothing is left
 *	behind), as trace-cmd record keeps its per-CPU files there
 * @lines: lines in @spool
 */
struct trace_out {
	const char *path;
	FILE *f;
	FILE *spool;
	uint64_t lines;
};

/* --trace FILE: one tracepoint line per call, to the spool. */
static void write_trace_line(const char *event, const char *line, void *arg)
{
	struct trace_out *to = ((struct run_hooks *)arg)->to;

	(void)event;
	fputs(line, to->spool);
	fputc('\n', to->spool);
	to->lines++;
}

/* The spool of --trace FILE's lines, in FILE's directory. */
static gboolean trace_spool_open(struct trace_out *to, GError **error)
{
	g_autofree char *dir = g_path_get_dirname(to->path);
	g_autofree char *tmpl = g_build_filename(dir, ".wbsim-trace-XXXXXX", NULL);
	int fd = g_mkstemp_full(tmpl, O_RDWR | O_CLOEXEC, 0600);
	int e = errno;

	if (fd >= 0 && g_unlink(tmpl) != 0) {
		e = errno;
		close(fd);
		fd = -1;
	}
	if (fd >= 0 && !(to->spool = fdopen(fd, "w+"))) {
		e = errno;
		close(fd);
	}
	if (!to->spool) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
			    "--trace %s: its lines wait until the end in a temporary file: %s: "
			    "cannot make one there: %s", to->path, dir, g_strerror(e));
		return FALSE;
	}
	return TRUE;
}

/*
 * --trace FILE at the end: ftrace's header with the count of lines (none
 * without @r: the run failed), then the lines. FALSE with @error if a
 * write failed.
 */
static gboolean trace_finish(struct trace_out *to, const wbsim_result *r, GError **error)
{
	char buf[65536];
	size_t n;
	gboolean ok = TRUE;

	if (!to->spool)
		return TRUE;
	if (r) {
		g_autofree char *head = wbsim_result_trace_header(r, to->lines);

		fputs(head, to->f);
	}
	if (fflush(to->spool) != 0 || fseek(to->spool, 0, SEEK_SET) != 0)
		ok = FALSE;
	while (ok && (n = fread(buf, 1, sizeof(buf), to->spool)) > 0)
		ok = fwrite(buf, 1, n, to->f) == n;
	if (ferror(to->spool))
		ok = FALSE;
	fclose(to->spool);
	to->spool = NULL;
	if (!ok && error && !*error)
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "--trace %s: %s", to->path,
			    g_strerror(errno ? errno : EIO));
	return ok;
}

/*
 * --series FILE, --trace FILE: opened before the run, so that a file that
 * cannot be written is said at once, and written through the path as a
 * shell's redirection does: a device, a FIFO or a symlink stays what it
 * is (a temporary file renamed over it would replace it).
 */
static FILE *open_out(const char *opt, const char *path, GError **error)
{
	FILE *f = fopen(path, "w");

	if (!f)
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "%s %s: %s", opt, path,
			    g_strerror(errno));
	return f;
}

/* Two outputs that are one regular file: one would overwrite the other. */
static gboolean same_file(FILE *a, FILE *b)
{
	struct stat sa, sb;

	return a && b && fstat(fileno(a), &sa) == 0 && fstat(fileno(b), &sb) == 0 &&
	       S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static gboolean open_outputs(struct run_options *ro, GError **error)
{
	const struct wbsim_sweep_cli *cli = ro->cli;
	const char *out_opt = cli->opt_output ? "--output" : "standard output";
	const char *out_name = cli->opt_output ? cli->opt_output : "";

	if (ro->series_file && !(ro->series = open_out("--series", ro->series_file, error)))
		return FALSE;
	if (ro->trace_file && !(ro->trace = open_out("--trace", ro->trace_file, error)))
		return FALSE;
	if (same_file(ro->series, ro->trace)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "--series %s and --trace %s: the same file: expected two files (one would overwrite the other)",
			    ro->series_file, ro->trace_file);
		return FALSE;
	}
	for (int i = 0; i < 2; i++) {
		FILE *f = i ? ro->trace : ro->series;

		if (same_file(f, cli->out)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
				    "%s %s and %s%s%s: the same file: expected two files (one would overwrite the other)",
				    i ? "--trace" : "--series", i ? ro->trace_file : ro->series_file,
				    out_opt, *out_name ? " " : "", out_name);
			return FALSE;
		}
	}
	return TRUE;
}

/* Close @f (the output of @opt @path); an error if writing it failed. */
static gboolean close_out(FILE *f, const char *opt, const char *path, GError **error)
{
	gboolean bad = ferror(f) != 0;
	int e = errno;

	if (fclose(f) != 0) {
		bad = TRUE;
		e = errno;
	}
	if (bad && error && !*error)
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "%s %s: %s", opt, path,
			    g_strerror(e ? e : EIO));
	return !bad;
}

/**
 * struct series_out - --series FILE, written as the run samples
 * @path: FILE
 * @f: FILE, opened before the run (open_outputs()) and written through
 *	its path
 * @buf: text not yet written
 * @head_done: the column names are in @buf or out
 * @err: errno of the first failed write, or 0
 *
 * The rows are not kept in memory (wbsim_run_opts.stream_series):
 * an hour of simulated time costs no more memory than ten seconds.
 */
struct series_out {
	const char *path;
	FILE *f;
	GString *buf;
	gboolean head_done;
	int err;
	/* the last row, written when the next comes at another time */
	GString *held;
	double held_time;
};

/* Written in pieces of about this size. */
#define SERIES_BUF_BYTES 65536

static void series_flush(struct series_out *so)
{
	if (so->buf->len && fwrite(so->buf->str, 1, so->buf->len, so->f) != so->buf->len &&
	    !so->err)
		so->err = errno ? errno : EIO;
	g_string_truncate(so->buf, 0);
}

/*
 * A row is held back until the next one: the run's final sample, taken at
 * the time of a sample tick, replaces that tick's row (the series has one
 * row per time).
 */
static void series_row(struct series_out *so, const char *const *columns, const double *row,
		       unsigned int n)
{
	if (!so->head_done) {
		wbsim_series_csv_head(so->buf, columns, n);
		so->held = g_string_new(NULL);
		so->head_done = TRUE;
	}
	if (so->held->len && n && row[0] != so->held_time)
		g_string_append_len(so->buf, so->held->str, (gssize)so->held->len);
	g_string_truncate(so->held, 0);
	wbsim_series_csv_row(so->held, row, n);
	so->held_time = n ? row[0] : 0;
	if (so->buf->len >= SERIES_BUF_BYTES)
		series_flush(so);
}

/*
 * Write out what is left; the file itself is closed with the other
 * outputs (close_out()). Return: @ok, FALSE (and @error set) if a write
 * failed.
 */
static gboolean series_finish(struct series_out *so, gboolean ok, GError **error)
{
	if (!so->f)
		return ok;
	if (so->held) {
		g_string_append_len(so->buf, so->held->str, (gssize)so->held->len);
		g_string_free(so->held, TRUE);
		so->held = NULL;
	}
	series_flush(so);
	if (fflush(so->f) != 0 && !so->err)
		so->err = errno ? errno : EIO;
	if (ok && so->err) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "--series %s: %s", so->path,
			    g_strerror(so->err));
		ok = FALSE;
	}
	g_string_free(so->buf, TRUE);
	so->buf = NULL;
	so->f = NULL;
	return ok;
}

/**
 * struct io_logs_out - the jobs' fio logs (write_bw_log, write_lat_log,
 * write_iops_log), written where fio writes them: the current directory,
 * or the path the option names
 * @err: the first failure ("NAME: why"), or NULL
 *
 * Each log is created (or, per_job_logs=0, opened for appending) before
 * the run, so that one that cannot be written stops the run before it
 * starts (wbsim_run_opts.fio_log_open_fn); then each piece of rows is
 * appended with the file opened for that piece only: fio too opens a log
 * only to write it (at the job's end, iolog.c flush_log()), and a run of
 * many jobs needs no descriptor per log.
 */
struct io_logs_out {
	char *err;
	FILE *outs[N_OPEN_OUTPUTS];
	const char *out_opts[N_OPEN_OUTPUTS];
	const char *out_paths[N_OPEN_OUTPUTS];
	char *same;
};

static void io_log_fail(struct io_logs_out *lo, const char *name, int e)
{
	if (!lo->err)
		lo->err = g_strdup_printf("fio log %s: %s", name, g_strerror(e ? e : EIO));
}

/*
 * The log @name is one of the program's other outputs (open, so a file
 * that exists: its device and inode): "OPTION PATH", else NULL.
 */
static char *io_log_same_output(const struct io_logs_out *lo, const char *name)
{
	struct stat sl, so;

	if (stat(name, &sl) != 0 || !S_ISREG(sl.st_mode))
		return NULL;
	for (int i = 0; i < N_OPEN_OUTPUTS; i++) {
		if (!lo->outs[i] || fstat(fileno(lo->outs[i]), &so) != 0 ||
		    so.st_dev != sl.st_dev || so.st_ino != sl.st_ino)
			continue;
		return g_strdup_printf("%s%s%s", lo->out_opts[i], *lo->out_paths[i] ? " " : "",
				       lo->out_paths[i]);
	}
	return NULL;
}

/*
 * wbsim_fio_log_open_fn: fio's fopen() of the log, "w" or "a", before the
 * run; refused (EEXIST, said by io_logs_same_error()) when the log is the
 * file of --output, --series or --trace
 */
static int io_log_open(const char *name, gboolean append, void *arg)
{
	struct io_logs_out *lo = ((struct run_hooks *)arg)->lo;
	FILE *f;

	if (!lo->same && (lo->same = io_log_same_output(lo, name)))
		return EEXIST;
	f = fopen(name, append ? "a" : "w");
	if (!f)
		return errno ? errno : EIO;
	return fclose(f) == 0 ? 0 : (errno ? errno : EIO);
}

/* wbsim_fio_log_fn: @text appended to @name (created by io_log_open()) */
static void io_log_write(const char *name, const char *text, gboolean append, void *arg)
{
	struct io_logs_out *lo = ((struct run_hooks *)arg)->lo;
	FILE *f;

	(void)append;
	if (!text)
		return;
	f = fopen(name, "a");
	if (!f) {
		io_log_fail(lo, name, errno);
		return;
	}
	if (fputs(text, f) == EOF)
		io_log_fail(lo, name, errno);
	if (fclose(f) != 0)
		io_log_fail(lo, name, errno);
}

/*
 * wbsim_run() refused a log that io_log_open() found to be another output:
 * say so, with the job file, line and key the library's message names
 * ("FILE:LINE: job 'J': write_bw_log=V: cannot write the log NAME: ...").
 */
static void io_logs_same_error(const struct io_logs_out *lo, GError *error)
{
	const char *msg = error->message;
	const char *at = strstr(msg, ": cannot write the log ");
	g_autofree char *where = at ? g_strndup(msg, (gsize)(at - msg)) : NULL;
	g_autofree char *name = NULL;
	char *text;

	if (!at)
		return;
	at += strlen(": cannot write the log ");
	name = g_strndup(at, strcspn(at, ":"));
	text = g_strdup_printf("%s: the log %s and %s: the same file: expected two files "
			       "(one would overwrite the other)", where, name, lo->same);
	g_free(error->message);
	error->message = text;
}

/* FALSE (and @error) if a log could not be written. */
static gboolean io_logs_finish(struct io_logs_out *lo, gboolean ok, GError **error)
{
	if (ok && lo->err) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "%s", lo->err);
		ok = FALSE;
	}
	g_free(lo->err);
	g_free(lo->same);
	return ok;
}

/* "45.0%", fio's one decimal, never 100.0% before the end */
static void add_percent(GString *s, double f)
{
	g_string_append_printf(s, "%.1f%%", MIN(f * 100, f < 1 ? 99.9 : 100.0));
}

/**
 * struct run_progress - a single run's progress line on a terminal, in
 * the spirit of fio's: "Jobs: 3: [45.0%][sim=12.3s][w=512MiB/s][eta 00m:11s]"
 * @stream: where it goes (standard error)
 * @start_us: when the run began (monotonic wall clock)
 * @last_us: when the line was last drawn
 * @last_now: the simulated time then
 * @last_bytes: the jobs' bytes then
 */
struct run_progress {
	FILE *stream;
	gint64 start_us;
	gint64 last_us;
	wbsim_time_t last_now;
	uint64_t last_bytes;
};

/* fio's eta_to_str(): "05m:07s", "01h:02m:03s", "2d:01h:02m:03s" */
static void append_eta(GString *s, double secs)
{
	guint64 t = (guint64)(secs + 0.5);
	unsigned int d = (unsigned int)(t / 86400), h = (unsigned int)(t / 3600 % 24);
	unsigned int m = (unsigned int)(t / 60 % 60), sec = (unsigned int)(t % 60);

	if (d)
		g_string_append_printf(s, "%ud:", d);
	if (d || h)
		g_string_append_printf(s, "%02uh:", h);
	g_string_append_printf(s, "%02um:%02us", m, sec);
}

/* wbsim_progress_fn: the line, at most every 250 ms of wall time; the
 * bandwidth is simulated bytes over simulated time since the last line,
 * the ETA wall-clock time at the pace so far */
static void run_progress_line(wbsim_time_t now, double fraction, unsigned int jobs_running,
			      uint64_t bytes, void *arg)
{
	struct run_progress *rp = ((struct run_hooks *)arg)->rp;
	gint64 t = g_get_monotonic_time();
	g_autoptr(GString) line = g_string_new("\r\033[K");
	g_autofree char *bw = NULL;
	double bps = 0;

	if (!rp || (rp->last_us && t - rp->last_us < 250000))
		return;
	if (now > rp->last_now)
		bps = (double)(bytes - rp->last_bytes) * 1e9 / (double)(now - rp->last_now);
	rp->last_us = t;
	rp->last_now = now;
	rp->last_bytes = bytes;
	bw = wbsim_format_bandwidth((uint64_t)bps);
	g_string_append_printf(line, "Jobs: %u: [", jobs_running);
	add_percent(line, fraction);
	g_string_append_printf(line, "][sim=%.1fs][w=%s][eta ", (double)now / 1e9, bw);
	if (fraction > 0)
		append_eta(line, (double)(t - rp->start_us) / 1e6 * (1 - fraction) / fraction);
	else
		g_string_append(line, "--");
	g_string_append_c(line, ']');
	fputs(line->str, rp->stream);
	fflush(rp->stream);
}

/* wbsim_sample_fn of a single run: a --series row */
static void run_sample(wbsim_time_t now, const char *const *columns, const double *row,
		       unsigned int n, void *arg)
{
	struct run_hooks *h = arg;

	(void)now;
	if (h->so)
		series_row(h->so, columns, row, n);
}

/**
 * run_scenario() - simulate @scn and report on @ro->cli->out
 * @scn: a loaded, checked scenario
 * @ro: output format and destination, series/trace destinations, --check
 * @error: WBSIM_ERROR_SIMULATION when the run fails (exit status 1);
 *	   any other error is bad input (exit status 2)
 *
 * This is the one place the simulation is called (wbsim_run()): run it,
 * write the report in @ro->cli->format and the --series/--trace files.
 *
 * Return: TRUE on success.
 */
static gboolean run_scenario(const struct wbsim_scenario *scn,
			     struct run_options *ro, GError **error)
{
	const struct wbsim_sweep_cli *cli = ro->cli;
	wbsim_run_opts opts = wbsim_sweep_cli_run_opts(cli);
	struct run_progress rp = { .stream = cli->progress_stream };
	struct series_out so = { 0 };
	struct io_logs_out lo = { NULL };
	struct trace_out to = { .path = ro->trace_file, .f = ro->trace };
	struct run_hooks hooks = { .to = &to, .lo = &lo };
	wbsim_result *r;
	FILE *trace = ro->trace;
	gboolean dat = trace && trace_is_dat(ro->trace_file);
	/* what waits for the end (trace.dat's pages, per_job_logs=0 rows)
	 * waits beside the trace, else in the logs' directory */
	g_autofree char *temp_dir = dat ? g_path_get_dirname(ro->trace_file) : g_strdup(".");
	gboolean ok = TRUE;

	if (trace && !dat && !trace_spool_open(&to, error))
		return FALSE;
	if (rp.stream) {
		rp.start_us = g_get_monotonic_time();
		hooks.rp = &rp;
		opts.progress_fn = run_progress_line;
	}
	if (ro->series_file)
		opts.sample_fn = run_sample;

	if (ro->series) {
		so.path = ro->series_file;
		so.f = ro->series;
		so.buf = g_string_sized_new(SERIES_BUF_BYTES + 4096);
		hooks.so = &so;
	}
	opts.trace_events = (const char *const *)ro->trace_events;
	if (dat) {
		opts.trace_dat = TRUE;
	} else if (trace) {
		/* the kernel's tracefs header, then the events, at the end */
		opts.trace_fn = write_trace_line;
	}
	lo.outs[0] = cli->out;
	lo.out_opts[0] = cli->opt_output ? "--output" : "standard output";
	lo.out_paths[0] = cli->opt_output ? cli->opt_output : "";
	lo.outs[1] = ro->series;
	lo.out_opts[1] = "--series";
	lo.out_paths[1] = ro->series_file ? ro->series_file : "";
	lo.outs[2] = ro->trace;
	lo.out_opts[2] = "--trace";
	lo.out_paths[2] = ro->trace_file ? ro->trace_file : "";
	opts.fio_log_fn = io_log_write;
	opts.fio_log_open_fn = io_log_open;
	opts.temp_dir = temp_dir;
	opts.user_data = &hooks;
	opts.stop = &stop_signal;
	r = wbsim_run(scn, &opts, error);
	if (!r && lo.same && error && *error)
		io_logs_same_error(&lo, *error);
	if (rp.stream) {
		fputs("\r\033[K", rp.stream);		/* the progress line goes */
		fflush(rp.stream);
	}
	if (r && wbsim_result_interrupted(r)) {
		ro->interrupted = TRUE;
		ro->stopped_ns = wbsim_result_summary(r)->sim_time_ns;
	}
	/* the library names the file; the program, the option that gave it */
	if (dat && r && !(ok = wbsim_result_write_trace_dat(r, trace, ro->trace_file, error)))
		g_prefix_error(error, "--trace ");
	if (!trace_finish(&to, r, r ? error : NULL))
		ok = FALSE;
	if (ok && trace && fflush(trace) != 0 && r) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "--trace %s: %s",
			    ro->trace_file, g_strerror(errno));
		ok = FALSE;
	}
	ok = series_finish(&so, ok && r, r ? error : NULL);
	ok = io_logs_finish(&lo, ok && r, r ? error : NULL);
	if (!r)
		return FALSE;
	if (ok) {
		g_autofree char *report = wbsim_result_report(r, cli->format, cli->wall_time, error);

		ok = report != NULL;
		if (ok)
			fputs(report, cli->out);
	}
	wbsim_result_free(r);
	return ok;
}

/*
 * Simulate and report: one run, or the points of a sweep. SIGINT and
 * SIGTERM stop it from here on (stop_signal).
 */
static gboolean simulate(struct wbsim_sweep_cli *cli, struct run_options *ro,
			 unsigned int jobs, GError **error)
{
	catch_stop_signals();
	cli->stop = &stop_signal;
	if (!wbsim_sweep_cli_is_sweep(cli))
		return run_scenario(cli->scn, ro, error);
	/*
	 * CSV: a header row, then one row per point. JSON: one line per
	 * point. Text: each point's report after "# sweep point N/M: ...".
	 */
	return wbsim_sweep_cli_start(cli, jobs, error) &&
	       wbsim_sweep_cli_run_local(cli, jobs, error);
}

/*
 * After SIGINT or SIGTERM, with every output written and closed: say what
 * was done, as fio's "fio: terminating on signal N" does; return fio's
 * exit status for it.
 */
static int report_interruption(const struct wbsim_sweep_cli *cli, const struct run_options *ro)
{
	int sig = stop_signal;

	if (wbsim_sweep_cli_is_sweep(cli)) {
		size_t n = wbsim_sweep_info(cli->sw)->n_points;

		return fail(EXIT_INTERRUPTED,
			    "terminating on signal %d (%s): the sweep stopped after %zu of %zu point%s "
			    "(the points under way ran to their end; no further point was started)%s",
			    sig, signal_name(sig), MIN(cli->n_emitted, n), n, n == 1 ? "" : "s",
			    cli->opt_results ? "; --results keeps every point computed: run the "
					       "same command again to resume" : "");
	}
	if (!ro->interrupted)	/* it came after the run ended: all is there */
		return fail(EXIT_INTERRUPTED,
			    "terminating on signal %d (%s): the run had ended; its report and files are whole",
			    sig, signal_name(sig));
	return fail(EXIT_INTERRUPTED,
		    "terminating on signal %d (%s): the run was interrupted at %.9f s of simulated time; "
		    "the report and the output files hold the time simulated so far",
		    sig, signal_name(sig), (double)ro->stopped_ns / 1e9);
}

/* --explain-costs: the cost of a write on the scenario's machine. */
static int explain_costs(const struct wbsim_sweep_cli *cli)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *text = wbsim_scenario_explain_costs(cli->scn, &error);

	if (!text)
		return fail(EXIT_BAD_INPUT, "%s", error->message);
	fputs(text, stdout);
	return EXIT_OK;
}

static int run(struct wbsim_sweep_cli *cli, int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = NULL;
	g_autoptr(GError) error = NULL;
	struct run_options ro = { .cli = cli };
	unsigned int jobs = g_get_num_processors();
	int status = EXIT_OK;

	/* the usage line takes "SCENARIO.ini" from the G_OPTION_REMAINING entry */
	ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx,
		"Simulate Linux page-cache writeback for the machine, device, filesystem\n"
		"and fio workload described in SCENARIO.ini. A name without '/' that is\n"
		"not a file runs the bundled scenario NAME.ini (--list-scenarios).");
	/*
	 * "Examples:" and its "  $ " lines become the man page's EXAMPLES
	 * (help2man), which runs to the end: the exit status comes first.
	 */
	g_option_context_set_description(ctx,
		"Exit status: 0 on success, 2 for bad input or usage, 1 when a\n"
		"simulation fails, 128 when SIGINT or SIGTERM stopped it (fio's status):\n"
		"the report and the files then hold the simulated time reached (a sweep\n"
		"finishes the points under way and starts no other); a second signal\n"
		"ends the program at once. Scenario keys are documented in the scenarios' README.md\n"
		"(scenarios/ in the source tree, share/wbsim/scenarios/ when installed).\n"
		"\n"
		"Examples:\n"
		"  $ sim-writeback e1-pmem-xfs-parallel\n"
		"      Run a bundled scenario by name and print fio's report for the\n"
		"      simulated run, then the simulator's figures.\n"
		"  $ sim-writeback --set writeback.contexts=4 --series s.csv --trace t.txt my.ini\n"
		"      Run a scenario file with one key changed; write the time series\n"
		"      and the writeback tracepoints.\n"
		"  $ sim-writeback --trace t.dat --trace-events 'writeback_start,balance_*' my.ini\n"
		"      Write two kinds of tracepoint as trace-cmd's trace.dat.\n"
		"  $ sim-writeback --output-format=json -o run.json e1-nvme-xfs-base\n"
		"      fio's JSON, with the simulator's figures in its \"wbsim\" object.\n"
		"  $ sim-writeback --sweep writeback.contexts=1..12 --repeat 3 e2-nvme-xfs-parallel\n"
		"      One CSV row per point, each the mean of three seeds with its\n"
		"      confidence interval.\n");
	wbsim_sweep_cli_add_entries(ctx, cli, (const GOptionEntry *const[WBSIM_CLI_NR_GROUPS]) {
		[WBSIM_CLI_SCENARIO] = scenario_entries,
		[WBSIM_CLI_OUTPUT] = output_entries,
		[WBSIM_CLI_SWEEP] = sweep_entries,
		[WBSIM_CLI_INFO] = info_entries,
	});
	if (!g_option_context_parse(ctx, &argc, &argv, &error))
		return fail(EXIT_BAD_INPUT, "%s (try --help)", error->message);

	if (cli->opt_help) {
		g_autofree char *help = wbsim_sweep_cli_help(ctx);

		fputs(help, stdout);
		return EXIT_OK;
	}
	if (opt_version) {
		printf(PROG " %s\nlibwbsim %s\n", WBSIM_VERSION_STRING,
		       wbsim_version_string());
		return EXIT_OK;
	}
	if (opt_list_scenarios) {
		g_autofree char *list = wbsim_scenario_list();

		fputs(list, stdout);
		return EXIT_OK;
	}
	if (opt_list_trace_events) {
		/* "writeback" selects every tracepoint the library writes */
		g_auto(GStrv) names = wbsim_trace_events_select("writeback", &error);

		for (char **n = names; n && *n; n++)
			printf("%s\n", *n);
		return names ? EXIT_OK : fail(EXIT_SIM_FAILED, "%s", error->message);
	}
	if (opt_list_keys) {
		g_autofree char *md = wbsim_scenario_keys_markdown();

		fputs(md, stdout);
		return EXIT_OK;
	}

	if (!wbsim_sweep_cli_parse(cli, &error))
		return fail(EXIT_BAD_INPUT, "%s", error->message);
	if (opt_jobs) {
		guint64 n;

		if (!g_ascii_string_to_unsigned(opt_jobs, 10, 1, MAX_JOBS, &n, NULL))
			return fail(EXIT_BAD_INPUT,
				    "--jobs %s: expected an integer from 1 to %d",
				    opt_jobs, MAX_JOBS);
		jobs = (unsigned int)n;
	}
	ro.series_file = opt_series;
	ro.trace_file = opt_trace;
	if (opt_trace_events && !opt_trace)
		return fail(EXIT_BAD_INPUT, "--trace-events %s: selects what --trace FILE writes: expected --trace too",
			    opt_trace_events);
	if (opt_trace_events && !(ro.trace_events = wbsim_trace_events_select(opt_trace_events, &error))) {
		prog_option_words(error);
		return fail(EXIT_BAD_INPUT, "%s", error->message);
	}
	/* the progress line, on a terminal only: tests and CI see nothing */
	if (cli->opt_progress || isatty(STDERR_FILENO))
		cli->progress_stream = stderr;

	/* --dump-config --parse-only: checked as --parse-only does, then dumped */
	if (!wbsim_sweep_cli_load(cli, !opt_dump_config || opt_parse_only, &error))
		status = fail(EXIT_BAD_INPUT, "%s", error->message);
	else if (opt_explain_costs && (opt_dump_config || opt_parse_only))
		status = fail(EXIT_BAD_INPUT, "--explain-costs: not with %s: one of them at a time",
			      opt_dump_config ? "--dump-config" : "--parse-only");
	else if (opt_explain_costs && wbsim_sweep_cli_is_sweep(cli))
		status = fail(EXIT_BAD_INPUT,
			      "--explain-costs: one machine, not a sweep (explain a point with --set)");
	else if (opt_explain_costs)
		status = explain_costs(cli);
	else if (wbsim_sweep_cli_is_sweep(cli) && (opt_series || opt_trace))
		status = fail(EXIT_BAD_INPUT,
			      "%s: one file per run: not with a sweep (run a point alone with --set)",
			      opt_series ? "--series" : "--trace");

	if (status != EXIT_OK || opt_explain_costs || (opt_parse_only && !opt_dump_config)) {
		/* nothing more */
	} else if (!wbsim_sweep_cli_check_outputs(cli, (const char *const[]) {
			"--series", opt_series, "--trace", opt_trace, NULL }, &error)) {
		status = fail(EXIT_BAD_INPUT, "%s", error->message);
	} else if (!wbsim_sweep_cli_open_output(cli, &error)) {
		status = fail(EXIT_BAD_INPUT, "%s", error->message);
	} else if (!opt_dump_config && !open_outputs(&ro, &error)) {
		status = fail(EXIT_BAD_INPUT, "%s", error->message);
	} else if (opt_dump_config) {
		g_autofree char *dump = wbsim_scenario_dump(cli->scn);

		fputs(dump, cli->out);
	} else if (!simulate(cli, &ro, jobs, &error)) {
		wbsim_sweep_cli_progress_clear(cli);
		if (!g_error_matches(error, WBSIM_SWEEP_CLI_INTERRUPTED, 0))
			status = fail(g_error_matches(error, WBSIM_ERROR,
						      WBSIM_ERROR_SIMULATION)
				      ? EXIT_SIM_FAILED : EXIT_BAD_INPUT,
				      "%s", error->message);
	}
	g_clear_error(&error);
	if (ro.series && !close_out(ro.series, "--series", ro.series_file, &error) &&
	    status == EXIT_OK)
		status = fail(EXIT_BAD_INPUT, "%s", error->message);
	g_clear_error(&error);
	if (ro.trace && !close_out(ro.trace, "--trace", ro.trace_file, &error) &&
	    status == EXIT_OK)
		status = fail(EXIT_BAD_INPUT, "%s", error->message);
	g_clear_error(&error);
	if (!wbsim_sweep_cli_close_output(cli, &error) && status == EXIT_OK)
		status = fail(EXIT_BAD_INPUT, "%s", error->message);
	if (stop_signal && status == EXIT_OK)
		status = report_interruption(cli, &ro);
	g_strfreev(ro.trace_events);
	return status;
}

int main(int argc, char **argv)
{
	struct wbsim_sweep_cli cli = { 0 };
	int status;

	/* The user's locale for GLib's texts (--help's "[OPTION…]" in a UTF-8
	 * locale); numbers stay in the C locale, whatever the user's: reports,
	 * CSV and traces are read by programs. */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	status = run(&cli, argc, argv);

	wbsim_sweep_cli_clear(&cli);
	free_options();
	if (fflush(stdout) != 0 && status == EXIT_OK)
		status = fail(EXIT_BAD_INPUT, "cannot write to standard output");
	return status;
}
