/* SPDX-License-Identifier: MIT */
/*
 * sim-writeback-mpi - a sweep of sim-writeback spread over MPI ranks:
 *
 *   mpirun -np N sim-writeback-mpi [OPTIONS] SCENARIO.ini --sweep KEY=VALUES
 *
 * takes sim-writeback's scenario and sweep options (sim/sweep-cli.h)
 * and writes the same CSV, JSON Lines or text, in point order, byte for
 * byte (wall-clock figures apart, which --no-wall-time leaves out).
 *
 * Rank 0 hands the points out one at a time: a rank that finishes a point
 * sends its output text back and gets the next point, so slow points do
 * not hold up the others. Rank 0 computes points too, on a thread of its
 * own, while its main thread serves the other ranks (the one thread that
 * calls MPI: MPI_THREAD_FUNNELED). It alone writes the output and the
 * --results file; with --results an interrupted sweep resumes where it
 * stopped, locally or under MPI.
 *
 * Every rank loads the scenario and checks the points (they are needed to
 * run points); rank 0's verdict decides, so a bad input gives one message,
 * from rank 0, and exit status 2 as sim-writeback does. A point that fails
 * stops the hand-out; ranks finish the point they have, and all ranks
 * leave through MPI_Finalize(). Only rank 0 exits with a non-zero status.
 *
 * Messages carry bytes (MPI_BYTE): the ranks are assumed to share the byte
 * order and the scenario files (a shared file system).
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <wbsim/wbsim.h>
#include "sweep-cli.h"
#include "prog-fail.h"

#define PROG "sim-writeback-mpi"

enum exit_status {
	EXIT_OK = 0,
	EXIT_SIM_FAILED = 1,
	EXIT_BAD_INPUT = 2,
};

/* Message tags. */
enum {
	TAG_READY = 1,		/* worker -> 0: give me a point (no payload) */
	TAG_RESULT,		/* worker -> 0: struct result_head, then text */
	TAG_WORK,		/* 0 -> worker: the point (int64) */
	TAG_STOP,		/* 0 -> worker: no more points */
};

/*
 * struct result_head - the start of a TAG_RESULT message
 * @point: the point
 * @ok: 1: the output text follows; 0: the error message follows
 * @code: the error's WBSIM_ERROR code
 */
struct result_head {
	int64_t point;
	int32_t ok;
	int32_t code;
};

static gboolean opt_version;

/* this program's own option; the rest are sweep-cli.c's, --help too */
static const GOptionEntry info_entries[] = {
	{ "version", 'V', 0, G_OPTION_ARG_NONE, &opt_version,
	  "Print the program and library versions and exit", NULL },
	G_OPTION_ENTRY_NULL
};

/* "PROG: message" on standard error; returns @status. */
#define fail(status, ...) prog_fail(PROG, (status), __VA_ARGS__)

static int error_status(const GError *error)
{
	return g_error_matches(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION)
	       ? EXIT_SIM_FAILED : EXIT_BAD_INPUT;
}

/* ------------------------------------------------------------------------ */
/* Rank 0                                                                   */

/**
 * struct coordinator - rank 0's view of the sweep
 * @cli: the options
 * @n: points
 * @lock: guards @next and @stop (the local thread takes points too)
 * @next: the next point to hand out
 * @stop: hand out no more points (a point failed)
 * @texts: output per point, until written
 * @done: per point: its text is known
 * @emitted: points written, in order
 * @error: the failure of the lowest failing point, or a write error
 * @error_point: its point (n for a write error)
 * @finished: completions from the local thread (struct completion *)
 * @local_exited: the local thread has returned (atomic)
 */
struct coordinator {
	struct wbsim_sweep_cli *cli;
	size_t n;
	GMutex lock;
	size_t next;
	gboolean stop;
	char **texts;
	gboolean *done;
	size_t emitted;
	GError *error;
	size_t error_point;
	GAsyncQueue *finished;
	gint local_exited;
};

struct completion {
	size_t point;
	char *text;
	GError *error;
};

/* The next point to compute, or -1 when there is none. */
static int64_t take_point(struct coordinator *co)
{
	int64_t p = -1;

	g_mutex_lock(&co->lock);
	while (!co->stop && co->next < co->n) {
		size_t q = co->next++;

		if (!wbsim_sweep_cli_done_text(co->cli, q)) {
			p = (int64_t)q;
			break;
		}
	}
	g_mutex_unlock(&co->lock);
	return p;
}

/* Rank 0's own worker thread: compute points until none is left. */
static gpointer local_worker(gpointer data)
{
	struct coordinator *co = data;
	int64_t p;

	while ((p = take_point(co)) >= 0) {
		struct completion *c = g_new0(struct completion, 1);

		c->point = (size_t)p;
		c->text = wbsim_sweep_cli_point(co->cli, c->point, &c->error);
		g_async_queue_push(co->finished, c);
	}
	g_atomic_int_set(&co->local_exited, 1);
	return NULL;
}

/* Write the points that are next in order. */
static void emit_ready(struct coordinator *co)
{
	while (co->emitted < co->n && co->done[co->emitted] && !co->error) {
		size_t p = co->emitted;
		const char *text = co->texts[p] ? co->texts[p]
			: wbsim_sweep_cli_done_text(co->cli, p);

		if (!wbsim_sweep_cli_emit(p, text, co->cli, &co->error)) {
			co->error_point = co->n;
			g_mutex_lock(&co->lock);
			co->stop = TRUE;	/* nothing more can be written */
			g_mutex_unlock(&co->lock);
			break;
		}
		g_clear_pointer(&co->texts[p], g_free);
		co->emitted++;
	}
}

/* A point came back (from a rank or the local thread): @text or @error. */
static void point_finished(struct coordinator *co, size_t point, char *text,
			   GError *error)
{
	if (text && !wbsim_sweep_cli_finished(co->cli, point, text, &error))
		g_clear_pointer(&text, g_free);
	if (!text) {
		/* keep the lowest failing point's error: what a local run reports */
		g_mutex_lock(&co->lock);
		co->stop = TRUE;
		g_mutex_unlock(&co->lock);
		/* a write error stays: nothing after it could be written anyway */
		if (!co->error || (co->error_point < co->n && point < co->error_point)) {
			g_clear_error(&co->error);
			co->error = error;
			co->error_point = point;
		} else {
			g_error_free(error);
		}
		return;
	}
	co->texts[point] = text;
	co->done[point] = TRUE;
	emit_ready(co);
}

/* Send @rank its next point, or tell it to stop. */
static gboolean serve(struct coordinator *co, int rank)
{
	int64_t p = take_point(co);

	if (p < 0) {
		MPI_Send(NULL, 0, MPI_BYTE, rank, TAG_STOP, MPI_COMM_WORLD);
		return FALSE;
	}
	MPI_Send(&p, 1, MPI_INT64_T, rank, TAG_WORK, MPI_COMM_WORLD);
	return TRUE;
}

/* Receive one message from a worker rank and answer it. */
static void receive(struct coordinator *co, const MPI_Status *probe,
		    int *stopped)
{
	int len = 0;
	g_autofree char *buf = NULL;
	MPI_Status st;

	MPI_Get_count(probe, MPI_BYTE, &len);
	buf = g_malloc((gsize)len + 1);
	MPI_Recv(buf, len, MPI_BYTE, probe->MPI_SOURCE, probe->MPI_TAG,
		 MPI_COMM_WORLD, &st);
	buf[len] = '\0';
	if (probe->MPI_TAG == TAG_RESULT && (size_t)len >= sizeof(struct result_head)) {
		struct result_head h;
		const char *body = buf + sizeof(h);

		memcpy(&h, buf, sizeof(h));
		if (h.ok)
			point_finished(co, (size_t)h.point, g_strdup(body), NULL);
		else
			point_finished(co, (size_t)h.point, NULL,
				       g_error_new_literal(WBSIM_ERROR, h.code, body));
	}
	if (!serve(co, probe->MPI_SOURCE))
		(*stopped)++;
}

/*
 * Rank 0: hand the points out, compute some, write them in order. Polls
 * (MPI_Iprobe, then a short sleep) so that waiting costs no CPU that the
 * local thread could use.
 */
static gboolean coordinate(struct wbsim_sweep_cli *cli, int size, GError **error)
{
	struct coordinator co = { .cli = cli, .n = wbsim_sweep_info(cli->sw)->n_points };
	GThread *local;
	int stopped = 0;
	gboolean local_done = FALSE;

	g_mutex_init(&co.lock);
	co.texts = g_new0(char *, co.n);
	co.done = g_new0(gboolean, co.n);
	co.finished = g_async_queue_new();
	for (size_t p = 0; p < co.n; p++)
		co.done[p] = wbsim_sweep_cli_done_text(cli, p) != NULL;
	emit_ready(&co);
	local = g_thread_new("wbsim-mpi-local", local_worker, &co);

	while (stopped < size - 1 || !local_done) {
		gboolean busy = FALSE;
		struct completion *c;
		MPI_Status st;
		int flag = 0;

		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (flag) {
			receive(&co, &st, &stopped);
			busy = TRUE;
		}
		while ((c = g_async_queue_try_pop(co.finished))) {
			point_finished(&co, c->point, c->text, c->error);
			g_free(c);
			busy = TRUE;
		}
		if (!local_done && g_atomic_int_get(&co.local_exited)) {
			/* it pushed its last completion before it returned */
			g_thread_join(local);
			local_done = TRUE;
			while ((c = g_async_queue_try_pop(co.finished))) {
				point_finished(&co, c->point, c->text, c->error);
				g_free(c);
			}
		}
		if (!busy)
			g_usleep(1000);
	}
	wbsim_sweep_cli_progress_clear(cli);
	if (!co.error && co.emitted < co.n)
		g_set_error(&co.error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
			    "%zu of %zu sweep points were not computed", co.n - co.emitted,
			    co.n);
	for (size_t p = 0; p < co.n; p++)
		g_free(co.texts[p]);
	g_free(co.texts);
	g_free(co.done);
	g_async_queue_unref(co.finished);
	g_mutex_clear(&co.lock);
	if (co.error) {
		g_propagate_error(error, co.error);
		return FALSE;
	}
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Other ranks                                                              */

/* Send point @point's outcome to rank 0. */
static void send_result(int64_t point, const char *text, const GError *error)
{
	struct result_head h = { .point = point, .ok = text != NULL,
				 .code = error ? error->code : 0 };
	const char *body = text ? text : error->message;
	size_t len = strlen(body);
	g_autofree char *buf = g_malloc(sizeof(h) + len);

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, len);
	MPI_Send(buf, (int)(sizeof(h) + len), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
}

/*
 * A worker rank: ask for points and compute them until told to stop. If
 * its own set-up failed (@setup_error) while rank 0's did not, it answers
 * each point with that error.
 */
static void work(const struct wbsim_sweep_cli *cli, const GError *setup_error)
{
	MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD);
	for (;;) {
		g_autoptr(GError) e = NULL;
		g_autofree char *text = NULL;
		MPI_Status st;
		int64_t p = -1;

		MPI_Recv(&p, 1, MPI_INT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		if (st.MPI_TAG != TAG_WORK)
			return;
		if (setup_error)
			e = g_error_copy(setup_error);
		else
			text = wbsim_sweep_cli_point(cli, (size_t)p, &e);
		send_result(p, text, e);
	}
}

/* ------------------------------------------------------------------------ */

/*
 * Parse and load on every rank; rank 0 also opens the output and the
 * results file and writes the CSV header. Return the exit status.
 */
static int setup(struct wbsim_sweep_cli *cli, GOptionContext *ctx, int rank,
		 int *argc, char ***argv, GError **error)
{
	g_autoptr(GError) e = NULL;

	if (!g_option_context_parse(ctx, argc, argv, &e)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "%s (try --help)", e->message);
		return EXIT_BAD_INPUT;
	}
	if (cli->opt_help || opt_version)
		return EXIT_OK;
	if (!wbsim_sweep_cli_parse(cli, error) || !wbsim_sweep_cli_load(cli, TRUE, error))
		return EXIT_BAD_INPUT;
	if (!wbsim_sweep_cli_is_sweep(cli)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "%s: no sweep: expected --sweep KEY=VALUES, a [sweep] section, --repeat or --results (run one scenario with sim-writeback)",
			    cli->path);
		return EXIT_BAD_INPUT;
	}
	/*
	 * Progress on a terminal, from rank 0. Under mpirun the ranks' standard
	 * error is a pipe to mpirun, so --progress asks for it explicitly.
	 */
	if (rank == 0 && (cli->opt_progress || isatty(STDERR_FILENO)))
		cli->progress_stream = stderr;
	if (rank == 0 && (!wbsim_sweep_cli_open_output(cli, error) ||
			  !wbsim_sweep_cli_start(cli, 1, error)))
		return error_status(*error);
	return EXIT_OK;
}

static int run(int rank, int size, int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = NULL;
	g_autoptr(GError) error = NULL;
	struct wbsim_sweep_cli cli = { 0 };
	int status, status0;

	ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx,
		"Run the points of a sim-writeback sweep on MPI ranks:\n"
		"  mpirun -np N sim-writeback-mpi [OPTIONS] SCENARIO.ini --sweep KEY=VALUES\n"
		"The output is sim-writeback's, in point order.");
	g_option_context_set_description(ctx,
		"Exit status: 0 on success, 2 for bad input or usage, 1 when a\n"
		"simulation fails.\n"
		"\n"
		"Examples:\n"
		"  $ mpirun -np 4 sim-writeback-mpi --sweep writeback.contexts=1..12 e2-nvme-xfs-parallel\n"
		"      The E2 sweep on four ranks: one CSV row per point, in order.\n"
		"  $ mpirun -np 64 sim-writeback-mpi --results r.jsonl --repeat 5 my-sweep.ini\n"
		"      A [sweep] of five seeds a point, resumable from r.jsonl.\n");
	/* --help is ours (sweep-cli.c), so that one rank prints it and every
	 * rank finalizes */
	wbsim_sweep_cli_add_entries(ctx, &cli, (const GOptionEntry *const[WBSIM_CLI_NR_GROUPS]) {
		[WBSIM_CLI_INFO] = info_entries,
	});

	status = setup(&cli, ctx, rank, &argc, &argv, &error);
	/* rank 0's verdict is what every rank follows */
	status0 = status;
	MPI_Bcast(&status0, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		if (status != EXIT_OK) {
			wbsim_sweep_cli_progress_clear(&cli);
			fail(status, "%s", error->message);
		} else if (cli.opt_help) {
			g_autofree char *help = wbsim_sweep_cli_help(ctx);

			fputs(help, stdout);
		} else if (opt_version) {
			printf(PROG " %s\nlibwbsim %s\n", WBSIM_VERSION_STRING,
			       wbsim_version_string());
		}
	}
	if (status0 != EXIT_OK || cli.opt_help || opt_version)
		goto out;

	if (rank == 0) {
		if (!coordinate(&cli, size, &error))
			status = fail(error_status(error), "%s", error->message);
		g_clear_error(&error);
		if (!wbsim_sweep_cli_close_output(&cli, &error) && status == EXIT_OK)
			status = fail(EXIT_BAD_INPUT, "%s", error->message);
	} else {
		work(&cli, status != EXIT_OK ? error : NULL);
	}
out:
	if (rank == 0 && fflush(stdout) != 0 && status == EXIT_OK)
		status = fail(EXIT_BAD_INPUT, "cannot write to standard output");
	wbsim_sweep_cli_close_output(&cli, NULL);
	wbsim_sweep_cli_clear(&cli);
	return rank == 0 ? status : EXIT_OK;
}

/*
 * Wait for every rank without spinning: a rank done early must not take a
 * CPU from ranks still computing when there are more ranks than CPUs (MPI's
 * blocking calls poll).
 */
static void quiet_barrier(void)
{
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	for (;;) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		g_usleep(1000);
	}
}

int main(int argc, char **argv)
{
	int provided = 0, rank = 0, size = 1, status;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	status = run(rank, size, argc, argv);
	quiet_barrier();
	MPI_Finalize();
	return status;
}
