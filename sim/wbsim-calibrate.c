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
 *        [--set SECTION.KEY=VALUE ...]
 * Each scenario runs in its own sim-writeback process (N at a time,
 * default 2) with --output-format=json --no-wall-time; --set options are
 * passed on to every run (the test suite uses a short run.time_limit).
 * Exit status: 0 when every run succeeded, 1 otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

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
	GSubprocess *proc;
	gboolean ok;
	double mib_s;		/* aggregate write bandwidth */
	char *extents;		/* filefrag per moment, NULL: none */
	char *sweep;		/* [sweep]: "point:MiB/s ..." , NULL: none */
	char *jobs;		/* E7: "job lag=MS ...", E8: "job S ...", NULL: none */
	char *error;
	/* what bounds the run: CPU time of all tasks over the run (in CPUs),
	 * the machine's CPUs, the busiest flusher's share of the run on or
	 * waiting for a CPU, device utilisation, pages written by flushers */
	gboolean have_bounds;
	double cpus_busy, cpus, flusher_busy, dev_util, flusher_share;
};

static void calib_run_free(gpointer p)
{
	struct calib_run *r = p;

	if (r->out_path)
		g_unlink(r->out_path);
	g_free(r->name);
	g_free(r->path);
	g_free(r->out_path);
	g_clear_object(&r->proc);
	g_free(r->error);
	g_free(r->extents);
	g_free(r->sweep);
	g_free(r->jobs);
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

static gboolean start_run(struct calib_run *r, const char *sim, GPtrArray *sets)
{
	g_autoptr(GSubprocessLauncher) l = NULL;
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) err = NULL;
	int fd;

	fd = g_file_open_tmp("wbsim-calibrate-XXXXXX.json", &r->out_path, &err);
	if (fd < 0) {
		r->error = g_strdup(err->message);
		return FALSE;
	}
	close(fd);
	l = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDERR_SILENCE);
	g_subprocess_launcher_set_stdout_file_path(l, r->out_path);
	g_ptr_array_add(argv, (char *)sim);
	g_ptr_array_add(argv, "--output-format=json");
	g_ptr_array_add(argv, "--no-wall-time");
	for (guint i = 0; i < sets->len; i++) {
		g_ptr_array_add(argv, "--set");
		g_ptr_array_add(argv, sets->pdata[i]);
	}
	g_ptr_array_add(argv, r->path);
	g_ptr_array_add(argv, NULL);
	r->proc = g_subprocess_launcher_spawnv(l, (const char *const *)argv->pdata, &err);
	if (!r->proc) {
		r->error = g_strdup(err->message);
		return FALSE;
	}
	return TRUE;
}

static void finish_run(struct calib_run *r)
{
	g_autoptr(GError) err = NULL;

	if (!r->proc)
		return;
	if (!g_subprocess_wait_check(r->proc, NULL, &err)) {
		r->error = g_strdup_printf("sim-writeback failed: %s", err->message);
		return;
	}
	parse_output(r);
}

/* Run every scenario, @jobs processes at a time (waiting in start order). */
static void run_all(GPtrArray *runs, const char *sim, GPtrArray *sets, guint jobs)
{
	guint next = 0, done = 0;

	while (done < runs->len) {
		while (next < runs->len && next - done < jobs) {
			struct calib_run *r = runs->pdata[next++];

			if (!start_run(r, sim, sets))
				continue;
		}
		finish_run(runs->pdata[done++]);
	}
}

static struct calib_run *new_run(const char *dir, const char *name)
{
	struct calib_run *r = g_new0(struct calib_run, 1);
	g_autofree char *file = g_strconcat(name, ".ini", NULL);

	r->name = g_strdup(name);
	r->path = g_build_filename(dir, file, NULL);
	return r;
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

int main(int argc, char **argv)
{
	g_autoptr(GPtrArray) sets = g_ptr_array_new();
	g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func(calib_run_free);
	g_autoptr(GPtrArray) names = NULL;
	const char *sim = NULL, *dir = NULL;
	gboolean e1_only = FALSE, ok;
	guint jobs = 2;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
			g_ptr_array_add(sets, argv[++i]);
		} else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
			int n = atoi(argv[++i]);	/* CLAMP evaluates twice */

			jobs = (guint)CLAMP(n, 1, 64);
		} else if (strcmp(argv[i], "--e1-only") == 0) {
			e1_only = TRUE;
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
				"[--e1-only] [--set SECTION.KEY=VALUE ...]\n");
		return 2;
	}
	for (guint i = 0; i < G_N_ELEMENTS(e1_table); i++) {
		for (int v = 0; v < 2; v++) {
			g_autofree char *name = e1_name(i, v);

			g_ptr_array_add(runs, new_run(dir, name));
		}
	}
	names = e1_only ? g_ptr_array_new_with_free_func(g_free) : withheld_names(dir);
	for (guint i = 0; i < names->len; i++)
		g_ptr_array_add(runs, new_run(dir, names->pdata[i]));
	run_all(runs, sim, sets, jobs);
	ok = print_e1(runs);
	ok = print_withheld(runs, names) && ok;
	return ok ? 0 : 1;
}
