/* SPDX-License-Identifier: MIT */
/*
 * wbsim-calibrate - the calibration report of issue 6: run the eight E1
 * scenarios (calibration data, shared/workloads/README.md) with
 * sim-writeback, print for each the published aggregate bandwidth, wbsim's
 * prediction and the error, then the parallel/base ratios; then run every
 * scenario of a withheld experiment present in the scenario directory
 * (e2-* ... e8-*) and print wbsim's predictions only: nothing here knows
 * their measured results. Beside the bandwidth and extent counts, E7 gets
 * each job's worst lag behind its rate schedule and E8 each job's run
 * time, the figures those experiments report.
 *
 * Usage: wbsim-calibrate SIM-WRITEBACK SCENARIO-DIR [-j N] [--e1-only]
 *        [--whole-sweeps] [--costs FILE] [--set SECTION.KEY=VALUE ...]
 * Each scenario runs in its own sim-writeback process with
 * --output-format=json --no-wall-time, and each point of a sweep
 * ([sweep] in the scenario's file) in a process of its own, named
 * NAME[KEY=VALUE,...] in the cost file and on stderr (--whole-sweeps: a
 * sweep in one process, as sim-writeback runs it by default, its points
 * in threads); they run in a pool of N processes (default:
 * the number of CPUs): the costliest run first, and a process that ends
 * frees its slot for the next. The cost of a run is its CPU time in an
 * earlier run, read from --costs FILE (the file is rewritten with this
 * run's times at the end), else its simulated time times its jobs times
 * its sweep points. Each run's CPU time goes to stderr as it ends; the
 * report ends with the wall time and the CPU time of all runs. --set
 * options are passed on to every run (the test suite uses a short
 * run.time_limit). A point whose resolved scenario (--dump-config, the
 * description and [sweep] aside) is a whole scenario's takes that run's
 * result instead of running again (E2: the base kernel and one context).
 * Exit status: 0 when every run succeeded, 1 otherwise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <wbsim/wbsim.h>

/* E1, shared/workloads/README.md: published aggregate MiB/s. */
static const struct e1_row {
	const char *device, *fs;
	double base, parallel;
} e1_table[] = {
	{ "pmem", "xfs", 544, 1015 },
	{ "pmem", "ext4", 536, 1047 },
	{ "nvme", "xfs", 651, 808 },
	{ "nvme", "ext4", 494, 797 },
};

/* The scenario of row @i of e1_table: base, or parallel when @parallel. */
static char *e1_name(guint i, int parallel)
{
	return g_strdup_printf("e1-%s-%s-%s", e1_table[i].device, e1_table[i].fs,
			       parallel ? "parallel" : "base");
}

struct calib_run {
	char *name;		/* scenario file name without .ini */
	char *path;
	char *out_path;
	gboolean ok;
	double mib_s;		/* aggregate write bandwidth */
	char *extents;		/* filefrag per moment, NULL: none */
	char *sweep;		/* [sweep]: "point:MiB/s ..." , NULL: none */
	char *jobs;		/* E7: "job lag=MS ...", E8: "job S ...", NULL: none */
	char *error;
	GPid pid;		/* its sim-writeback while running */
	gboolean running;
	double cpu_s;		/* user + system time of its process */
	double cost;		/* expected CPU s, for the order of the runs */
	guint order;		/* index in the report */
	/* what bounds the run: CPU time of all tasks over the run (in CPUs),
	 * the machine's CPUs, the busiest flusher's share of the run on or
	 * waiting for a CPU, device utilisation, pages written by flushers */
	gboolean have_bounds;
	double cpus_busy, cpus, flusher_busy, dev_util, flusher_share;
	/* a sweep run as one process per point: the point runs (in point
	 * order), or NULL */
	GPtrArray *points;
	/* a point run: its sweep (the parent), "SECTION.KEY=VALUE" per axis
	 * (each passed as --sweep) */
	struct calib_run *parent;
	char **sweep_args;
	/* the run whose result this one takes (the same resolved scenario),
	 * or NULL: this one runs */
	struct calib_run *same_as;
};

static void calib_run_free(gpointer p)
{
	struct calib_run *r = p;

	if (r->out_path)
		g_unlink(r->out_path);
	g_free(r->name);
	g_free(r->path);
	g_free(r->out_path);
	g_free(r->error);
	g_free(r->extents);
	g_free(r->sweep);
	g_free(r->jobs);
	if (r->points)
		g_ptr_array_unref(r->points);
	g_strfreev(r->sweep_args);
	g_free(r);
}

/*
 * filefrag counts per moment of the [measure] extents list: "moment=N" for
 * each moment in report order, N the largest count among the files.
 */
static void parse_extents(JsonObject *wbsim, struct calib_run *r)
{
	g_autoptr(GString) out = g_string_new(NULL);
	JsonArray *ext;
	const char *moment = NULL;
	int64_t max = -1;
	guint n;

	if (!wbsim || !json_object_has_member(wbsim, "extents"))
		return;
	ext = json_object_get_array_member(wbsim, "extents");
	n = ext ? json_array_get_length(ext) : 0;
	for (guint i = 0; i <= n; i++) {
		JsonObject *e = i < n ? json_array_get_object_element(ext, i) : NULL;
		const char *m = e && json_object_has_member(e, "moment") ?
				json_object_get_string_member(e, "moment") : NULL;

		if (moment && (!m || strcmp(m, moment) != 0)) {
			g_string_append_printf(out, "%s%s=%" G_GINT64_FORMAT,
					       out->len ? " " : "", moment, max);
			max = -1;
		}
		if (!e || !m || !json_object_has_member(e, "filefrag"))
			continue;
		moment = m;
		max = MAX(max, json_object_get_int_member(e, "filefrag"));
	}
	if (out->len)
		r->extents = g_string_free(g_steal_pointer(&out), FALSE);
}

/*
 * The per-job figure a withheld experiment reports: E7 the worst lag of a
 * job behind its rate= schedule, E8 how long each job ran.
 */
static void parse_job_figures(JsonObject *wbsim, struct calib_run *r)
{
	g_autoptr(GString) out = g_string_new(NULL);
	gboolean lag = g_str_has_prefix(r->name, "e7-");
	const char *member = lag ? "max_lag_ns" : "runtime_ns";
	JsonArray *jobs;
	guint n;

	if (!wbsim || (!lag && !g_str_has_prefix(r->name, "e8-")) ||
	    !json_object_has_member(wbsim, "jobs"))
		return;
	jobs = json_object_get_array_member(wbsim, "jobs");
	n = jobs ? json_array_get_length(jobs) : 0;
	/* clones of one fio job (same name, in a row): their count and the
	 * largest figure */
	for (guint i = 0; i < n;) {
		JsonObject *job = json_array_get_object_element(jobs, i);
		const char *name = json_object_get_string_member(job, "name");
		double v = 0;
		guint k = 0;

		for (; i < n; i++, k++) {
			JsonObject *c = json_array_get_object_element(jobs, i);

			if (strcmp(json_object_get_string_member(c, "name"), name) != 0)
				break;
			if (json_object_has_member(c, member))
				v = MAX(v, (double)json_object_get_int_member(c, member));
		}
		g_string_append_printf(out, "%s%s", out->len ? ", " : "", name);
		if (k > 1)
			g_string_append_printf(out, " x%u (max)", k);
		if (lag)
			g_string_append_printf(out, " lag=%.1fms", v / 1e6);
		else
			g_string_append_printf(out, " %.3fs", v / 1e9);
	}
	if (out->len)
		r->jobs = g_string_free(g_steal_pointer(&out), FALSE);
}

static double member_double(JsonObject *o, const char *name)
{
	return o && json_object_has_member(o, name) ? json_object_get_double_member(o, name) : 0;
}

/* The resources of the run: what saturates, or comes closest to it. */
static void parse_bounds(JsonObject *wbsim, struct calib_run *r)
{
	JsonObject *kinds, *dev;
	JsonArray *ctxs;
	double sim_ns = member_double(wbsim, "sim_ns"), cpu = 0, flushed = 0;
	double written = member_double(wbsim, "nr_written");

	if (!wbsim || sim_ns <= 0 || !json_object_has_member(wbsim, "cpu_by_kind_ns") ||
	    !json_object_has_member(wbsim, "contexts") || !json_object_has_member(wbsim, "device"))
		return;
	kinds = json_object_get_object_member(wbsim, "cpu_by_kind_ns");
	{
		g_autoptr(GList) keys = json_object_get_members(kinds);

		for (GList *k = keys; k; k = k->next)
			cpu += member_double(kinds, k->data);
	}
	ctxs = json_object_get_array_member(wbsim, "contexts");
	for (guint i = 0; ctxs && i < json_array_get_length(ctxs); i++) {
		JsonObject *c = json_array_get_object_element(ctxs, i);
		/* on a CPU (its own work or interrupts preempting it) or waiting for one */
		double busy = (member_double(c, "cpu_ns") + member_double(c, "cpu_wait_ns") +
			       member_double(c, "irq_ns")) / sim_ns;

		r->flusher_busy = MAX(r->flusher_busy, busy);
		flushed += member_double(c, "pages_written");
	}
	dev = json_object_get_object_member(wbsim, "device");
	r->cpus_busy = cpu / sim_ns;
	r->cpus = member_double(wbsim, "cpus");
	r->dev_util = member_double(dev, "utilisation");
	r->flusher_share = written > 0 ? flushed / written : 0;
	r->have_bounds = TRUE;
}

/*
 * fio's group bandwidth: the bytes of all jobs over the longest runtime
 * (stat.c: one reporting group; with group_reporting there is one entry).
 */
static gboolean report_mib_s(JsonObject *report, double *mib_s)
{
	JsonArray *jobs;
	double bytes = 0, runtime_ms = 0;

	if (!report || !json_object_has_member(report, "jobs"))
		return FALSE;
	jobs = json_object_get_array_member(report, "jobs");
	for (guint i = 0; jobs && i < json_array_get_length(jobs); i++) {
		JsonObject *job = json_array_get_object_element(jobs, i);
		JsonObject *write = job ? json_object_get_object_member(job, "write") : NULL;

		if (!write || !json_object_has_member(write, "io_bytes"))
			continue;
		bytes += (double)json_object_get_int_member(write, "io_bytes");
		runtime_ms = MAX(runtime_ms, (double)json_object_get_int_member(write, "runtime"));
	}
	*mib_s = runtime_ms > 0 ? bytes / (runtime_ms / 1000.0) / (1024.0 * 1024.0) : 0;
	return TRUE;
}

/* A [sweep] scenario prints one JSON line per point: "key=value: MiB/s". */
static void parse_sweep(struct calib_run *r, char **lines)
{
	g_autoptr(GString) out = g_string_new(NULL);

	for (char **l = lines; *l; l++) {
		g_autoptr(JsonParser) parser = json_parser_new();
		JsonObject *o, *point;
		double mib_s;

		if (!**l)
			continue;
		if (!json_parser_load_from_data(parser, *l, -1, NULL) ||
		    !(o = json_node_get_object(json_parser_get_root(parser))) ||
		    !json_object_has_member(o, "report") ||
		    !report_mib_s(json_object_get_object_member(o, "report"), &mib_s)) {
			r->error = g_strdup("a sweep line is not a report");
			return;
		}
		point = json_object_get_object_member(o, "sweep");
		if (point) {
			g_autoptr(GList) keys = json_object_get_members(point);

			for (GList *k = keys; k; k = k->next) {
				JsonNode *v = json_object_get_member(point, k->data);
				g_autofree char *txt = json_to_string(v, FALSE);

				g_string_append_printf(out, "%s%s=%s", out->len ? " " : "",
						       (const char *)k->data, txt);
			}
		}
		g_string_append_printf(out, ":%.0f", mib_s);
		r->mib_s = MAX(r->mib_s, mib_s);
	}
	r->sweep = g_string_free(g_steal_pointer(&out), FALSE);
	r->ok = TRUE;
}

static void parse_output(struct calib_run *r)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) err = NULL;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	JsonObject *root, *wbsim = NULL;

	if (!g_file_get_contents(r->out_path, &text, NULL, &err)) {
		r->error = g_strdup(err->message);
		return;
	}
	if (g_str_has_prefix(text, "{\"sweep_point\"")) {
		lines = g_strsplit(text, "\n", -1);
		parse_sweep(r, lines);
		return;
	}
	if (!json_parser_load_from_data(parser, text, -1, &err)) {
		r->error = g_strdup_printf("output is not JSON: %s", err->message);
		return;
	}
	root = json_node_get_object(json_parser_get_root(parser));
	if (!report_mib_s(root, &r->mib_s)) {
		r->error = g_strdup("output has no jobs");
		return;
	}
	if (json_object_has_member(root, "wbsim"))
		wbsim = json_object_get_object_member(root, "wbsim");
	parse_extents(wbsim, r);
	parse_job_figures(wbsim, r);
	parse_bounds(wbsim, r);
	r->ok = TRUE;
}

/*
 * The end of @r's sim-writeback command line: the --set options, a
 * point's values (each after @point_opt), the scenario, the NULL.
 */
static void add_scenario_args(GPtrArray *argv, const struct calib_run *r, GPtrArray *sets,
			      const char *point_opt)
{
	for (guint i = 0; i < sets->len; i++) {
		g_ptr_array_add(argv, "--set");
		g_ptr_array_add(argv, sets->pdata[i]);
	}
	for (char **a = r->sweep_args; a && *a; a++) {
		g_ptr_array_add(argv, (char *)point_opt);
		g_ptr_array_add(argv, *a);
	}
	g_ptr_array_add(argv, r->path);
	g_ptr_array_add(argv, NULL);
}

/*
 * Start @r's sim-writeback, its report into a temporary file. The child is
 * not reaped by GLib: run_all waits for it with wait4, which gives its CPU
 * time.
 */
static gboolean start_run(struct calib_run *r, const char *sim, GPtrArray *sets)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) err = NULL;
	gboolean started;
	int fd;

	fd = g_file_open_tmp("wbsim-calibrate-XXXXXX.json", &r->out_path, &err);
	if (fd < 0) {
		r->error = g_strdup(err->message);
		return FALSE;
	}
	g_ptr_array_add(argv, (char *)sim);
	g_ptr_array_add(argv, "--output-format=json");
	g_ptr_array_add(argv, "--no-wall-time");
	add_scenario_args(argv, r, sets, "--sweep");
	started = g_spawn_async_with_fds(NULL, (char **)argv->pdata, NULL,
					 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
					 NULL, NULL, &r->pid, -1, fd, -1, &err);
	close(fd);
	if (!started) {
		r->error = g_strdup(err->message);
		return FALSE;
	}
	r->running = TRUE;
	return TRUE;
}

/* @r's process ended with wait status @status after @ru's CPU time. */
static void finish_run(struct calib_run *r, int status, const struct rusage *ru)
{
	g_autoptr(GError) err = NULL;

	r->running = FALSE;
	r->cpu_s = (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
		   (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
	if (!g_spawn_check_wait_status(status, &err)) {
		r->error = g_strdup_printf("sim-writeback failed: %s", err->message);
		return;
	}
	parse_output(r);
}

/* Costliest first; equal costs in report order. */
static int cmp_cost(gconstpointer a, gconstpointer b)
{
	const struct calib_run *ra = *(struct calib_run *const *)a;
	const struct calib_run *rb = *(struct calib_run *const *)b;

	if (ra->cost != rb->cost)
		return ra->cost > rb->cost ? -1 : 1;
	return ra->order < rb->order ? -1 : ra->order > rb->order;
}

static struct calib_run *find_pid(GPtrArray *runs, GPid pid)
{
	for (guint i = 0; i < runs->len; i++) {
		struct calib_run *r = runs->pdata[i];

		if (r->running && r->pid == pid)
			return r;
	}
	return NULL;
}

/*
 * What @r simulates: sim-writeback's --dump-config of it (the --set
 * options, and a point's values as --set), without the description, the
 * [sweep] section and blank lines, which change no figure. NULL when it
 * fails. *@swept: the dump has a [sweep] line (the run is a whole sweep).
 */
static char *resolved_scenario(const struct calib_run *r, const char *sim, GPtrArray *sets,
			       gboolean *swept)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autofree char *out = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GString) key = g_string_new(NULL);
	gboolean in_sweep = FALSE;
	int status = -1;

	g_ptr_array_add(argv, (char *)sim);
	g_ptr_array_add(argv, "--dump-config");
	add_scenario_args(argv, r, sets, "--set");
	if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
			  NULL, &out, NULL, &status, NULL) ||
	    !g_spawn_check_wait_status(status, NULL))
		return NULL;
	lines = g_strsplit(out, "\n", -1);
	*swept = FALSE;
	for (char **l = lines; *l; l++) {
		if ((*l)[0] == '[')
			in_sweep = strcmp(*l, "[sweep]") == 0;
		else if (in_sweep && **l && **l != '#')
			*swept = TRUE;
		/* the comments after [sweep] are the fio workload's */
		if ((in_sweep && **l != '#') || !**l || g_str_has_prefix(*l, "description ="))
			continue;
		g_string_append_printf(key, "%s\n", *l);
	}
	return g_string_free(g_steal_pointer(&key), FALSE);
}

/* Each value of @r's point is an integer: its JSON report names the
 * point as its KEY=VALUE arguments read. */
static gboolean integer_point(const struct calib_run *r)
{
	for (char **a = r->sweep_args; a && *a; a++) {
		const char *v = strchr(*a, '=');

		if (!v || !v[1] || strspn(v + 1, "0123456789") != strlen(v + 1))
			return FALSE;
	}
	return TRUE;
}

/*
 * A point that simulates what a whole scenario of @procs simulates takes
 * that run's result (share_results()) instead of running. Only a point
 * with integer values follows, and only a scenario run once leads (not a
 * sweep run whole, whose bandwidth is its points' largest): its report has
 * every figure, and the point's row needs its bandwidth alone.
 */
static void find_same_runs(GPtrArray *procs, const char *sim, GPtrArray *sets)
{
	g_autoptr(GHashTable) leaders = NULL;
	guint followers = 0;

	for (guint i = 0; i < procs->len; i++) {
		const struct calib_run *r = procs->pdata[i];

		followers += r->parent && integer_point(r);
	}
	/* no point could follow (--whole-sweeps, --e1-only): no dump to make */
	if (!followers)
		return;
	leaders = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < procs->len; i++) {
		struct calib_run *r = procs->pdata[i];
		gboolean swept;
		char *key;

		if (r->parent)
			continue;
		key = resolved_scenario(r, sim, sets, &swept);
		if (key && !swept && !g_hash_table_contains(leaders, key))
			g_hash_table_insert(leaders, key, r);
		else
			g_free(key);
	}
	for (guint i = 0; i < procs->len; i++) {
		struct calib_run *r = procs->pdata[i];
		g_autofree char *key = NULL;
		gboolean swept;

		if (!r->parent || !integer_point(r))
			continue;
		key = resolved_scenario(r, sim, sets, &swept);
		if (key)
			r->same_as = g_hash_table_lookup(leaders, key);
	}
}

/* The points that ran as another run take its bandwidth, and name
 * themselves as their own report would. */
static void share_results(GPtrArray *procs)
{
	for (guint i = 0; i < procs->len; i++) {
		struct calib_run *r = procs->pdata[i];
		const struct calib_run *from = r->same_as;
		g_autofree char *args = NULL;

		if (!from)
			continue;
		r->ok = from->ok;
		if (!from->ok) {
			r->error = g_strdup_printf("as %s: %s", from->name,
						   from->error ? from->error : "no result");
			continue;
		}
		r->mib_s = from->mib_s;
		args = g_strjoinv(" ", r->sweep_args);
		r->sweep = g_strdup_printf("%s:%.0f", args, r->mib_s);
		fprintf(stderr, "%s: the same simulation as %s, its result\n", r->name, from->name);
	}
}

/*
 * Run every scenario in a pool of @slots processes: the costliest first
 * (longest-processing-time order), and a slot that frees takes the next.
 * Reports each finished run on stderr.
 */
static void run_all(GPtrArray *runs, const char *sim, GPtrArray *sets, guint slots)
{
	g_autoptr(GPtrArray) queue = g_ptr_array_new();
	guint next = 0, running = 0, done = 0;

	for (guint i = 0; i < runs->len; i++)
		if (!((struct calib_run *)runs->pdata[i])->same_as)
			g_ptr_array_add(queue, runs->pdata[i]);
	g_ptr_array_sort(queue, cmp_cost);
	while (next < queue->len || running > 0) {
		struct rusage ru;
		struct calib_run *r;
		int status;
		pid_t pid;

		while (next < queue->len && running < slots) {
			r = queue->pdata[next++];
			if (start_run(r, sim, sets))
				running++;
			else
				done++;
		}
		if (running == 0)
			continue;
		pid = wait4(-1, &status, 0, &ru);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "wbsim-calibrate: wait4: %s\n", g_strerror(errno));
			exit(1);
		}
		r = find_pid(runs, pid);
		if (!r)
			continue;
		running--;
		finish_run(r, status, &ru);
		fprintf(stderr, "[%u/%u] %s: %.1f s CPU%s\n", ++done, queue->len, r->name,
			r->cpu_s, r->ok ? "" : " (failed)");
	}
}

/*
 * The simulated time (s) of a scenario times its jobs times its sweep
 * points, as the library resolves the scenario (its includes, the fio job
 * file, numjobs, the [sweep] lines): a cost estimate for the order of the
 * runs when no earlier run measured it. The time is the shorter of [run]
 * time_limit and the longest runtime=, 60 s when neither is set; a
 * scenario that does not load counts 0 (its run will say why).
 */
static double estimate_cost(const char *path)
{
	wbsim_sweep_opts opts = { .no_point_check = TRUE };
	g_autoptr(GError) err = NULL;
	g_autoptr(wbsim_sweep) sw = wbsim_sweep_load(path, &opts, &err);
	struct wbsim_scenario_workload w;
	uint64_t ns;

	if (!sw || !wbsim_scenario_workload(wbsim_sweep_scenario(sw), &w, NULL))
		return 0;
	ns = w.time_limit_ns && w.runtime_ns ? MIN(w.time_limit_ns, w.runtime_ns) :
	     MAX(w.time_limit_ns, w.runtime_ns);
	return (ns ? (double)ns / 1e9 : 60.0) * MAX(w.nr_jobs, 1) *
	       (double)wbsim_sweep_info(sw)->n_points;
}

static int cmp_double(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "NAME CPU-SECONDS" lines of a --costs file into a name -> double* table. */
static GHashTable *read_costs(const char *path)
{
	GHashTable *costs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!path || !g_file_get_contents(path, &text, NULL, NULL))
		return costs;
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		g_auto(GStrv) f = g_strsplit(*l, " ", 2);
		double v;

		if (g_strv_length(f) != 2 || (v = g_ascii_strtod(f[1], NULL)) <= 0)
			continue;
		g_hash_table_insert(costs, g_strdup(f[0]), g_memdup2(&v, sizeof(v)));
	}
	return costs;
}

/*
 * @r's CPU time in an earlier run, from @costs: its own, or for a point
 * of a split sweep its share of the whole sweep's (a cost file from
 * before the sweep was split). Return: FALSE when unknown.
 */
static gboolean known_cost(GHashTable *costs, const struct calib_run *r, double *cpu_s)
{
	const double *known = g_hash_table_lookup(costs, r->name);

	if (!known && r->parent) {
		known = g_hash_table_lookup(costs, r->parent->name);
		if (known) {
			*cpu_s = *known / r->parent->points->len;
			return TRUE;
		}
	}
	if (known)
		*cpu_s = *known;
	return known != NULL;
}

/*
 * The expected cost of each run: its CPU time in an earlier run (@costs),
 * else its estimate scaled to CPU seconds by the median ratio of the runs
 * that have both. A point of a split sweep is estimated at its share of
 * the sweep.
 */
static void set_costs(GPtrArray *runs, GHashTable *costs)
{
	g_autoptr(GArray) ratios = g_array_new(FALSE, FALSE, sizeof(double));
	g_autofree double *est = g_new0(double, runs->len);
	double scale = 1, known;

	for (guint i = 0; i < runs->len; i++) {
		struct calib_run *r = runs->pdata[i];

		r->order = i;
		est[i] = estimate_cost(r->path);
		if (r->parent)
			est[i] /= r->parent->points->len;
		if (known_cost(costs, r, &known) && est[i] > 0) {
			double ratio = known / est[i];

			g_array_append_val(ratios, ratio);
		}
	}
	if (ratios->len) {
		g_array_sort(ratios, cmp_double);
		scale = (g_array_index(ratios, double, (ratios->len - 1) / 2) +
			 g_array_index(ratios, double, ratios->len / 2)) / 2;
	}
	for (guint i = 0; i < runs->len; i++) {
		struct calib_run *r = runs->pdata[i];

		r->cost = known_cost(costs, r, &known) ? known : est[i] * scale;
	}
}

/* @costs updated with the CPU time of this time's successful runs, to @path. */
static void write_costs(GPtrArray *runs, GHashTable *costs, const char *path)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GList) keys = NULL;
	g_autoptr(GError) err = NULL;

	for (guint i = 0; i < runs->len; i++) {
		struct calib_run *r = runs->pdata[i];

		if (r->ok && r->cpu_s > 0)
			g_hash_table_insert(costs, g_strdup(r->name),
					    g_memdup2(&r->cpu_s, sizeof(r->cpu_s)));
	}
	keys = g_list_sort(g_hash_table_get_keys(costs), (GCompareFunc)strcmp);
	for (GList *k = keys; k; k = k->next) {
		char num[G_ASCII_DTOSTR_BUF_SIZE];

		g_ascii_formatd(num, sizeof(num), "%.2f",
				*(const double *)g_hash_table_lookup(costs, k->data));
		g_string_append_printf(out, "%s %s\n", (const char *)k->data, num);
	}
	if (!g_file_set_contents(path, out->str, (gssize)out->len, &err))
		fprintf(stderr, "wbsim-calibrate: %s\n", err->message);
}

static int cmp_cpu(gconstpointer a, gconstpointer b)
{
	const struct calib_run *ra = *(struct calib_run *const *)a;
	const struct calib_run *rb = *(struct calib_run *const *)b;

	return ra->cpu_s > rb->cpu_s ? -1 : ra->cpu_s < rb->cpu_s;
}

/* Wall time, the CPU time of all runs, and the three costliest. */
static void print_times(GPtrArray *runs, double wall_s, guint slots)
{
	g_autoptr(GPtrArray) by_cpu = g_ptr_array_new();
	double sum = 0;
	guint shared = 0;

	for (guint i = 0; i < runs->len; i++) {
		struct calib_run *r = runs->pdata[i];

		if (r->same_as) {
			shared++;
			continue;
		}
		sum += r->cpu_s;
		g_ptr_array_add(by_cpu, r);
	}
	g_ptr_array_sort(by_cpu, cmp_cpu);
	printf("\n%u runs", by_cpu->len);
	if (shared)
		printf(" (and %u the same as one of them)", shared);
	printf(", %u at a time: %.1f s wall, %.1f s CPU (user + system of the runs); "
	       "costliest:", slots, wall_s, sum);
	for (guint i = 0; i < MIN(3u, by_cpu->len); i++) {
		struct calib_run *r = by_cpu->pdata[i];

		printf("%s %s %.1f s", i ? "," : "", r->name, r->cpu_s);
	}
	printf("\n");
}

static struct calib_run *new_run(const char *dir, const char *name)
{
	struct calib_run *r = g_new0(struct calib_run, 1);
	g_autofree char *file = g_strconcat(name, ".ini", NULL);

	r->name = g_strdup(name);
	r->path = g_build_filename(dir, file, NULL);
	return r;
}

/* At most this many point runs for one sweep; a larger one runs whole. */
#define MAX_SPLIT_POINTS 1000

/*
 * The values of one [sweep] line, as sim-writeback expands them (a list
 * V1,V2,... whose items may be ranges FIRST..LAST[:STEP]), appended to
 * @out. Return: FALSE for anything else (a value with '..' that is not
 * such a range, an empty item, too many values): the sweep then runs whole.
 */
static gboolean sweep_values(const char *text, GPtrArray *out)
{
	g_auto(GStrv) items = g_strsplit(text, ",", -1);

	for (char **it = items; *it; it++) {
		char *item = g_strstrip(*it);
		char *dots = strstr(item, ".."), *colon;
		guint64 a, b, step = 1;

		if (!*item)
			return FALSE;
		if (!dots) {
			g_ptr_array_add(out, g_strdup(item));
			continue;
		}
		*dots = '\0';
		colon = strchr(dots + 2, ':');
		if (colon)
			*colon = '\0';
		if (!g_ascii_string_to_unsigned(item, 10, 0, G_MAXUINT64, &a, NULL) ||
		    !g_ascii_string_to_unsigned(dots + 2, 10, 0, G_MAXUINT64, &b, NULL) ||
		    (colon && !g_ascii_string_to_unsigned(colon + 1, 10, 1, G_MAXUINT64,
							  &step, NULL)) || a > b ||
		    (b - a) / step >= MAX_SPLIT_POINTS)
			return FALSE;
		for (guint64 k = 0; k <= (b - a) / step; k++)
			g_ptr_array_add(out, g_strdup_printf("%" G_GUINT64_FORMAT, a + k * step));
	}
	return out->len > 0 && out->len <= MAX_SPLIT_POINTS;
}

/*
 * A scenario with a [sweep] section in its own file runs as one process
 * per point (each with --sweep KEY=VALUE for every axis, which puts that
 * one value in the axis's place), so that the pool can spread a long
 * sweep over the CPUs; the points' reports are joined back into the
 * sweep's row in point order. A point is the same simulation as in the
 * whole sweep: same scenario, same seed. A sweep the tool cannot expand
 * (see sweep_values()) runs whole.
 */
static void split_sweep(struct calib_run *r)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) axes = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	gboolean sweep = FALSE;
	size_t n = 1;

	if (!g_file_get_contents(r->path, &text, NULL, NULL))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *line = *l, *eq, *cut;

		/* a line ends at its first ';', then its first '#' (ini-lexer.c) */
		if ((cut = strchr(line, ';')))
			*cut = '\0';
		if ((cut = strchr(line, '#')))
			*cut = '\0';
		line = g_strstrip(line);
		if (line[0] == '[') {
			sweep = g_str_has_prefix(line, "[sweep]");
			continue;
		}
		if (!sweep || !*line)
			continue;
		eq = strchr(line, '=');
		if (!eq)
			return;
		*eq = '\0';
		{
			GPtrArray *values = g_ptr_array_new_with_free_func(g_free);

			g_ptr_array_add(axes, values);
			g_ptr_array_add(names, g_strdup(g_strstrip(line)));
			if (!sweep_values(eq + 1, values))
				return;
			n *= values->len;
			if (n > MAX_SPLIT_POINTS)
				return;
		}
	}
	if (!axes->len)
		return;
	r->points = g_ptr_array_new_with_free_func(calib_run_free);
	for (size_t p = 0; p < n; p++) {
		struct calib_run *pt = g_new0(struct calib_run, 1);
		g_autoptr(GString) label = g_string_new(NULL);
		size_t rest = p;

		pt->sweep_args = g_new0(char *, axes->len + 1);
		/* mixed radix, the last axis varying fastest (as sweep.c) */
		for (guint i = axes->len; i-- > 0;) {
			GPtrArray *values = axes->pdata[i];

			pt->sweep_args[i] = g_strdup_printf("%s=%s", (char *)names->pdata[i],
							    (char *)values->pdata[rest % values->len]);
			rest /= values->len;
		}
		for (guint i = 0; i < axes->len; i++)
			g_string_append_printf(label, "%s%s", i ? "," : "", pt->sweep_args[i]);
		pt->name = g_strdup_printf("%s[%s]", r->name, label->str);
		pt->path = g_strdup(r->path);
		pt->parent = r;
		g_ptr_array_add(r->points, pt);
	}
}

/*
 * A split sweep's row from its points: the points' figures in point
 * order, the largest bandwidth, the points' CPU time; the first failed
 * point's error.
 */
static void join_points(struct calib_run *r)
{
	g_autoptr(GString) sweep = g_string_new(NULL);

	r->ok = TRUE;
	for (guint i = 0; i < r->points->len; i++) {
		struct calib_run *pt = r->points->pdata[i];

		r->cpu_s += pt->cpu_s;
		if (!pt->ok) {
			if (r->ok)
				r->error = g_strdup_printf("%s: %s", pt->name,
							   pt->error ? pt->error : "no result");
			r->ok = FALSE;
			continue;
		}
		r->mib_s = MAX(r->mib_s, pt->mib_s);
		if (pt->sweep)
			g_string_append_printf(sweep, "%s%s", sweep->len ? " " : "", pt->sweep);
	}
	r->sweep = g_string_free(g_steal_pointer(&sweep), FALSE);
}

static struct calib_run *find_run(GPtrArray *runs, const char *name)
{
	for (guint i = 0; i < runs->len; i++) {
		struct calib_run *r = runs->pdata[i];

		if (strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

static int cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Scenario names of withheld experiments E2-E8 present in @dir, sorted. */
static GPtrArray *withheld_names(const char *dir)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *f;

	while (d && (f = g_dir_read_name(d))) {
		if (f[0] == 'e' && f[1] >= '2' && f[1] <= '8' && f[2] == '-' &&
		    g_str_has_suffix(f, ".ini"))
			g_ptr_array_add(names, g_strndup(f, strlen(f) - 4));
	}
	g_ptr_array_sort(names, cmp_str);
	return names;
}

static void print_error_line(const struct calib_run *r)
{
	printf("%-32s  run failed: %s\n", r->name, r->error ? r->error : "no result");
}

/*
 * What bounds each E1 run in wbsim. "CPUs busy" is the CPU time of every
 * task over the run; "at published" scales it to the published bandwidth
 * at wbsim's CPU time per MiB: the CPUs the measured figure would take if
 * wbsim's costs were right, which says what a CPU-bound prediction that is
 * too fast asks of the real machine.
 */
static void print_e1_bounds(GPtrArray *runs)
{
	printf("\nwhat bounds each E1 run in wbsim (CPUs busy: CPU time of all tasks over the run)\n");
	printf("%-32s %10s %12s %9s %9s %9s\n", "scenario", "CPUs busy", "at published",
	       "flusher", "device", "flushers");
	printf("%-32s %10s %12s %9s %9s %9s\n", "", "", "", "busy", "util", "wrote");
	for (guint i = 0; i < G_N_ELEMENTS(e1_table); i++) {
		for (int v = 0; v < 2; v++) {
			g_autofree char *name = e1_name(i, v);
			struct calib_run *r = find_run(runs, name);
			double pub = v ? e1_table[i].parallel : e1_table[i].base;
			g_autofree char *busy = NULL;

			if (!r || !r->ok || !r->have_bounds || r->mib_s <= 0)
				continue;
			busy = g_strdup_printf("%.1f/%.0f", r->cpus_busy, r->cpus);
			printf("%-32s %10s %12.1f %8.0f%% %8.0f%% %8.0f%%\n", name, busy,
			       r->cpus_busy * pub / r->mib_s, 100 * r->flusher_busy,
			       100 * r->dev_util, 100 * r->flusher_share);
		}
	}
}

static gboolean print_e1(GPtrArray *runs)
{
	gboolean ok = TRUE;
	double worst = 0, worst_ratio = 0;

	printf("E1 calibration (published values: shared/workloads/README.md; MiB/s)\n");
	printf("%-32s %10s %10s %8s\n", "scenario", "published", "wbsim", "error");
	for (guint i = 0; i < G_N_ELEMENTS(e1_table); i++) {
		for (int v = 0; v < 2; v++) {
			g_autofree char *name = e1_name(i, v);
			struct calib_run *r = find_run(runs, name);
			double pub = v ? e1_table[i].parallel : e1_table[i].base;
			double err;

			if (!r || !r->ok) {
				if (r)
					print_error_line(r);
				ok = FALSE;
				continue;
			}
			err = 100.0 * (r->mib_s - pub) / pub;
			worst = MAX(worst, fabs(err));
			printf("%-32s %10.0f %10.0f %+7.1f%%\n", name, pub, r->mib_s, err);
		}
	}
	printf("\n%-32s %10s %10s %8s\n", "parallel/base", "published", "wbsim", "error");
	for (guint i = 0; i < G_N_ELEMENTS(e1_table); i++) {
		g_autofree char *b = e1_name(i, 0);
		g_autofree char *p = e1_name(i, 1);
		g_autofree char *label = g_strdup_printf("%s %s", e1_table[i].device,
							 e1_table[i].fs);
		struct calib_run *rb = find_run(runs, b), *rp = find_run(runs, p);
		double pub = e1_table[i].parallel / e1_table[i].base, sim, err;

		if (!rb || !rp || !rb->ok || !rp->ok || rb->mib_s <= 0) {
			printf("%-32s %10.2f %10s\n", label, pub, "-");
			continue;
		}
		sim = rp->mib_s / rb->mib_s;
		err = 100.0 * (sim - pub) / pub;
		worst_ratio = MAX(worst_ratio, fabs(err));
		printf("%-32s %10.2f %10.2f %+7.1f%%\n", label, pub, sim, err);
	}
	printf("\nworst error: bandwidth %.1f%%, ratio %.1f%% (goal: both within 10%%)\n",
	       worst, worst_ratio);
	print_e1_bounds(runs);
	return ok;
}

static gboolean print_withheld(GPtrArray *runs, GPtrArray *names)
{
	gboolean ok = TRUE;

	if (names->len == 0)
		return TRUE;
	printf("\nPredictions for withheld experiments (no published values used)\n");
	printf("%-40s %10s  %s\n", "scenario", "MiB/s",
	       "filefrag extents (largest file); E7: worst lag per job; E8: run time per job");
	for (guint i = 0; i < names->len; i++) {
		struct calib_run *r = find_run(runs, names->pdata[i]);

		if (!r || !r->ok) {
			if (r)
				print_error_line(r);
			ok = FALSE;
			continue;
		}
		if (r->sweep)
			printf("%-40s %10s  sweep (point:MiB/s) %s\n", r->name, "-", r->sweep);
		else if (r->jobs)
			printf("%-40s %10.1f  %s\n", r->name, r->mib_s, r->jobs);
		else
			printf("%-40s %10.1f  %s\n", r->name, r->mib_s,
			       r->extents ? r->extents : "-");
	}
	return ok;
}

/*
 * The runs' heaps on transparent huge pages: glibc.malloc.hugetlb=1 makes
 * glibc's malloc madvise() its heap MADV_HUGEPAGE, which THP's "madvise"
 * mode (a common default) asks for. A run reads its extent maps and
 * page-cache bitmaps at random, and on 4 KiB pages most of those reads
 * miss the TLB as well as the caches (E1 NVMe XFS parallel: 14.6 -> 13.0
 * CPU s, the E2 NVMe XFS 12-context point 17.6 -> 15.4, the same reports).
 * The children inherit it; this process's allocator was set up already.
 * A GLIBC_TUNABLES that names the tunable is left as it is; other C
 * libraries ignore the variable.
 */
static void runs_on_huge_pages(void)
{
	const char *t = g_getenv("GLIBC_TUNABLES");
	g_autofree char *v = NULL;

	if (t && strstr(t, "glibc.malloc.hugetlb"))
		return;
	v = t && *t ? g_strconcat(t, ":glibc.malloc.hugetlb=1", NULL)
		    : g_strdup("glibc.malloc.hugetlb=1");
	g_setenv("GLIBC_TUNABLES", v, TRUE);
}

int main(int argc, char **argv)
{
	g_autoptr(GPtrArray) sets = g_ptr_array_new();
	g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func(calib_run_free);
	g_autoptr(GPtrArray) procs = g_ptr_array_new();
	g_autoptr(GPtrArray) names = NULL;
	const char *sim = NULL, *dir = NULL;
	g_autoptr(GHashTable) costs = NULL;
	const char *costs_path = NULL;
	gboolean e1_only = FALSE, whole_sweeps = FALSE, ok;
	guint jobs = (guint)CLAMP(g_get_num_processors(), 1, 64);
	gint64 t0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
			g_ptr_array_add(sets, argv[++i]);
		} else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
			int n = atoi(argv[++i]);	/* CLAMP evaluates twice */

			jobs = (guint)CLAMP(n, 1, 64);
		} else if (strcmp(argv[i], "--costs") == 0 && i + 1 < argc) {
			costs_path = argv[++i];
		} else if (strcmp(argv[i], "--e1-only") == 0) {
			e1_only = TRUE;
		} else if (strcmp(argv[i], "--whole-sweeps") == 0) {
			whole_sweeps = TRUE;
		} else if (!sim) {
			sim = argv[i];
		} else if (!dir) {
			dir = argv[i];
		} else {
			fprintf(stderr, "wbsim-calibrate: unexpected argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (!sim || !dir) {
		fprintf(stderr, "usage: wbsim-calibrate SIM-WRITEBACK SCENARIO-DIR [-j N] "
				"[--e1-only] [--whole-sweeps] [--costs FILE] "
				"[--set SECTION.KEY=VALUE ...]\n");
		return 2;
	}
	for (guint i = 0; i < G_N_ELEMENTS(e1_table); i++) {
		for (int v = 0; v < 2; v++) {
			g_autofree char *name = e1_name(i, v);

			g_ptr_array_add(runs, new_run(dir, name));
		}
	}
	names = e1_only ? g_ptr_array_new_with_free_func(g_free) : withheld_names(dir);
	for (guint i = 0; i < names->len; i++) {
		struct calib_run *r = new_run(dir, names->pdata[i]);

		if (!whole_sweeps)
			split_sweep(r);
		g_ptr_array_add(runs, r);
	}
	/* the processes: each run, or each point of a split sweep */
	for (guint i = 0; i < runs->len; i++) {
		struct calib_run *r = runs->pdata[i];

		if (!r->points)
			g_ptr_array_add(procs, r);
		for (guint k = 0; r->points && k < r->points->len; k++)
			g_ptr_array_add(procs, r->points->pdata[k]);
	}
	costs = read_costs(costs_path);
	set_costs(procs, costs);
	t0 = g_get_monotonic_time();
	runs_on_huge_pages();
	find_same_runs(procs, sim, sets);
	run_all(procs, sim, sets, jobs);
	share_results(procs);
	for (guint i = 0; i < runs->len; i++) {
		struct calib_run *r = runs->pdata[i];

		if (r->points)
			join_points(r);
	}
	ok = print_e1(runs);
	ok = print_withheld(runs, names) && ok;
	print_times(procs, (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC, jobs);
	if (costs_path)
		write_costs(procs, costs, costs_path);
	return ok ? 0 : 1;
}
