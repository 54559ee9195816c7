/* SPDX-License-Identifier: MIT */
/*
 * sim/sweep-cli.h - the command-line layer sim-writeback and
 * sim-writeback-mpi share: the options both take (--seed, --set, --sweep,
 * --output-format, --output, --no-wall-time, --check, --results, --repeat,
 * --progress and the scenario file), loading the scenario and its sweep
 * with the same checks and messages, computing one point's output text
 * (K seeds with --repeat), the resumable results file, writing the output
 * in point order, and the progress line on a terminal.
 *
 * The programs differ only in who computes the points: threads
 * (wbsim_sweep_cli_run_local()) or MPI ranks (sim/sim-writeback-mpi.c).
 */
#ifndef WBSIM_SIM_SWEEP_CLI_H
#define WBSIM_SIM_SWEEP_CLI_H

#include <signal.h>
#include <stdio.h>
#include <glib.h>
#include <wbsim/sweep.h>

struct wbsim_sweep_progress;

/**
 * struct wbsim_sweep_cli - the shared options and what they resolve to
 * @opt_seed: --seed N
 * @opt_output_format: --output-format
 * @opt_sets: --set (repeatable)
 * @opt_sweeps: --sweep (repeatable)
 * @opt_output: --output FILE
 * @opt_results: --results FILE.jsonl
 * @opt_repeat: --repeat K
 * @opt_no_wall_time: --no-wall-time
 * @opt_check: --check
 * @opt_progress: --progress (show progress even when standard error is
 *	not a terminal)
 * @opt_help: --help, -h
 * @opt_args: the remaining arguments (the scenario file)
 * @format: the output format (CSV by default for a sweep; json+ one run only)
 * @format_given: --output-format was given
 * @wall_time: report wall-clock figures
 * @repeat: seeds per point (1: plain runs)
 * @path: the scenario file (the argument, or the bundled scenario it
 *	names: wbsim_scenario_find())
 * @overrides: --set and --seed as KEY=VALUE (NULL-terminated)
 * @scn: the loaded scenario (owned by @sw)
 * @sw: its sweep ([sweep] and --sweep)
 * @name: the scenario's name in the reports (the argument as given)
 * @out: the output stream (stdout or --output)
 * @out_name: "standard output" or the --output file
 * @progress_stream: where the progress line goes (the program sets it to
 *	stderr when that is a terminal, or with --progress), or NULL: quiet
 * @progress: the progress line, or NULL when quiet
 * @stop: NULL, or a flag (sim-writeback's SIGINT/SIGTERM handler sets it):
 *	once it is nonzero, wbsim_sweep_cli_run_local() starts no further
 *	point; the points under way run to their end and are written
 * @n_emitted: points written by wbsim_sweep_cli_run_local() so far
 */
struct wbsim_sweep_cli {
	char *opt_seed;
	char *opt_output_format;
	char **opt_sets;
	char **opt_sweeps;
	char *opt_output;
	char *opt_results;
	char *opt_repeat;
	gboolean opt_no_wall_time;
	gboolean opt_check;
	gboolean opt_progress;
	gboolean opt_help;
	char **opt_args;

	enum wbsim_format format;
	gboolean format_given;
	gboolean wall_time;
	unsigned int repeat;
	char *path;
	GPtrArray *overrides;
	const wbsim_scenario *scn;
	wbsim_sweep *sw;
	const char *name;
	FILE *out;
	const char *out_name;
	FILE *progress_stream;
	struct wbsim_sweep_progress *progress;
	const volatile sig_atomic_t *stop;
	size_t n_emitted;
};

/*
 * WBSIM_SWEEP_CLI_INTERRUPTED - the error domain of a sweep point not
 * started because @stop was set (wbsim_sweep_cli_run_local())
 */
#define WBSIM_SWEEP_CLI_INTERRUPTED (wbsim_sweep_cli_interrupted_quark())
GQuark wbsim_sweep_cli_interrupted_quark(void);

/*
 * enum wbsim_sweep_cli_group - the groups of options --help shows, in its
 * order: what the scenario is and how it is checked, what is written,
 * sweeps, and what the program tells about itself
 */
enum wbsim_sweep_cli_group {
	WBSIM_CLI_SCENARIO,
	WBSIM_CLI_OUTPUT,
	WBSIM_CLI_SWEEP,
	WBSIM_CLI_INFO,
	WBSIM_CLI_NR_GROUPS,
};

/**
 * wbsim_sweep_cli_add_entries() - add the shared options to @ctx, in groups
 * @ctx: the program's option context (its own --help is turned off:
 *	@cli->opt_help says the program prints wbsim_sweep_cli_help())
 * @cli: where the options go (zeroed by the caller)
 * @own: NULL, or per group the program's own options (NULL: none), shown
 *	after the shared ones of that group
 */
void wbsim_sweep_cli_add_entries(GOptionContext *ctx, struct wbsim_sweep_cli *cli,
				 const GOptionEntry *const own[WBSIM_CLI_NR_GROUPS]);

/*
 * wbsim_sweep_cli_help() - the text --help prints: the usage line, the
 * summary, every group of options under its heading, the description
 * (a new string).
 */
char *wbsim_sweep_cli_help(GOptionContext *ctx);

/**
 * wbsim_sweep_cli_parse() - check the shared options once GOption is done
 * @cli: the options
 * @error: WBSIM_ERROR_INVALID_VALUE: "--output-format X: expected text,
 *	json, json+ or csv", "--repeat X: expected an integer from 2 to 1000"
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_cli_parse(struct wbsim_sweep_cli *cli, GError **error);

/**
 * wbsim_sweep_cli_load() - load the scenario and its sweep
 * @cli: the options
 * @check_points: load every point of a sweep now (not for --dump-config)
 * @error: the message the program prints (exit status 2): no or a second
 *	scenario file, a bad --seed, the loader's, --sweep's or the first
 *	bad point's message, --repeat with run.seed swept
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_cli_load(struct wbsim_sweep_cli *cli, gboolean check_points,
			      GError **error);

/*
 * wbsim_sweep_cli_run_opts() - the run options every run of @cli has
 * (--check, the scenario's name, no series kept); the name is @cli's.
 */
wbsim_run_opts wbsim_sweep_cli_run_opts(const struct wbsim_sweep_cli *cli);

/*
 * wbsim_sweep_cli_is_sweep() - whether the run goes through the sweep
 * path: swept keys, --repeat or --results (a single run is then a sweep
 * of one point).
 */
gboolean wbsim_sweep_cli_is_sweep(const struct wbsim_sweep_cli *cli);

/**
 * wbsim_sweep_cli_check_outputs() - refuse one file named twice among the
 * outputs, before any is opened (sim/out-ident.h: by identity, not name)
 * @cli: the options (--output, --results)
 * @more: NULL, or more outputs as OPTION, PATH pairs (a NULL PATH is
 *	skipped), ended by a NULL OPTION
 * @error: WBSIM_ERROR_INVALID_ARGUMENT "--output X and --results Y: the
 *	same file: expected two files (one would overwrite the other)"
 *
 * Return: TRUE when every output is a file of its own.
 */
gboolean wbsim_sweep_cli_check_outputs(const struct wbsim_sweep_cli *cli,
				       const char *const *more, GError **error);

/**
 * wbsim_sweep_cli_open_output() - open --output (or use standard output)
 * @cli: the options
 * @error: WBSIM_ERROR_IO "--output FILE: reason"; the refusal of
 *	wbsim_sweep_cli_check_outputs() when --output is the --results file
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_cli_open_output(struct wbsim_sweep_cli *cli, GError **error);

/**
 * wbsim_sweep_cli_start() - before the first point: the results file and
 * the CSV header
 * @cli: the loaded options, output open
 * @n_slots: points computed at once in this process (progress slots)
 * @error: wbsim_sweep_start()'s, or a write error
 *
 * Opens --results (reading the points it holds) and starts the progress
 * line on @cli->progress_stream if set.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_cli_start(struct wbsim_sweep_cli *cli, unsigned int n_slots,
			       GError **error);

/*
 * wbsim_sweep_cli_done_text() - the output of @point from the results
 * file, or NULL when it has to be computed.
 */
const char *wbsim_sweep_cli_done_text(const struct wbsim_sweep_cli *cli,
				      size_t point);

/**
 * wbsim_sweep_cli_point() - compute one point's output text
 * @cli: the loaded options
 * @point: the point
 * @error: the point's error ("sweep point N/M (...): ..."); a simulation
 *	failure is WBSIM_ERROR_SIMULATION (exit status 1)
 *
 * Runs the point once, or --repeat K times with the derived seeds, and
 * formats it. Thread-safe.
 *
 * Return: the text (a new string), or NULL with @error set.
 */
char *wbsim_sweep_cli_point(const struct wbsim_sweep_cli *cli, size_t point,
			    GError **error);

/**
 * wbsim_sweep_cli_finished() - a point was computed: append it to the
 * results file and count it in the progress line (thread-safe)
 * @cli: the options
 * @point: the point
 * @text: its output
 * @error: the results file's write error
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_cli_finished(struct wbsim_sweep_cli *cli, size_t point,
				  const char *text, GError **error);

/**
 * wbsim_sweep_cli_emit() - write a point's text to the output, in order
 * @point: the point
 * @text: its text
 * @arg: the struct wbsim_sweep_cli
 * @error: WBSIM_ERROR_IO "cannot write to FILE: reason"
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_cli_emit(size_t point, const char *text, void *arg,
			      GError **error);

/**
 * wbsim_sweep_cli_run_local() - compute and write every point with @jobs
 * threads (what sim-writeback does for a sweep)
 * @cli: the loaded options, output open
 * @jobs: points at once
 * @error: as wbsim_sweep_run_tasks(); WBSIM_SWEEP_CLI_INTERRUPTED when
 *	@cli->stop stopped the sweep (@cli->n_emitted points were written,
 *	in point order)
 *
 * Return: TRUE when every point was written.
 */
gboolean wbsim_sweep_cli_run_local(struct wbsim_sweep_cli *cli, unsigned int jobs,
				   GError **error);

/*
 * wbsim_sweep_cli_progress_clear() - erase the progress line (before a
 * message on standard error, and at the end).
 */
void wbsim_sweep_cli_progress_clear(struct wbsim_sweep_cli *cli);

/**
 * wbsim_sweep_cli_close_output() - close --output
 * @cli: the options
 * @error: WBSIM_ERROR_IO "--output FILE: reason"
 *
 * Return: TRUE on success.
 */
gboolean wbsim_sweep_cli_close_output(struct wbsim_sweep_cli *cli, GError **error);

/* wbsim_sweep_cli_clear() - free everything @cli holds. */
void wbsim_sweep_cli_clear(struct wbsim_sweep_cli *cli);

#endif /* WBSIM_SIM_SWEEP_CLI_H */
