/* SPDX-License-Identifier: MIT */
/*
 * affinity-by-ag.c - a research program using libwbsim from outside its
 * tree: it registers a new inode-to-writeback-context affinity policy and
 * compares it with the built-in ones on an E2-style sweep.
 *
 * The policy, "by-ag", binds each inode to a context by its XFS allocation
 * group (an XFS inode number encodes its AG; the filesystem model hands the
 * group to the hook), so the files of one AG are always written back by one
 * flusher and two flushers never allocate in the same AG at once. It is
 * compared with "inode" (inode number modulo contexts) and "none" (any
 * context) for 1..N contexts on a shortened E2: one job per directory, each
 * directory in its own AG by XFS's rotor, buffered 4 KiB random writes.
 *
 * Usage: affinity-by-ag [MAX_CONTEXTS [SIZE_PER_JOB]]   (default 8 64m)
 *
 * Prints one row per number of contexts: the aggregate write bandwidth of
 * the jobs (bytes over the longest job runtime, as fio's group_reporting
 * does) and the extents of all files at the end, for each policy. The
 * output depends only on the arguments (the simulation is deterministic).
 */
#include <stdio.h>
#include <stdlib.h>
#include <wbsim/wbsim.h>

#define NR_JOBS 8

/* The hook: allocation group modulo the number of contexts. */
static unsigned int by_ag_select(struct wbsim_affinity_inode *inode, unsigned int nr_contexts)
{
	return (unsigned int)(wbsim_affinity_inode_group(inode) % nr_contexts);
}

static const struct wbsim_affinity_ops by_ag_ops = {
	.name = "by-ag",
	.version = WBSIM_AFFINITY_OPS_VERSION,
	.flags = WBSIM_AFFINITY_FIXED,
	.select = by_ag_select,
};

/* A shortened E2 machine and workload, built in code. */
static wbsim_scenario *e2_point(const char *affinity, unsigned int contexts,
				const char *size, GError **error)
{
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("e2-short");
	g_autofree char *ctx = g_strdup_printf("%u", contexts);
	g_autofree char *global = g_strdup_printf(
		"bs=4k\nrw=randwrite\nioengine=io_uring\niodepth=1\nnrfiles=4\n"
		"size=%s\ncreate_on_open=1\nend_fsync=1\n", size);
	const char *settings[][2] = {
		{ "machine.cpus", "8" },
		{ "machine.memory", "2G" },
		{ "device.preset", "samsung-pm1733a-3.84t" },
		{ "filesystem.type", "xfs" },
		{ "filesystem.agcount", "4" },
		{ "writeback.contexts", ctx },
		{ "writeback.affinity", affinity },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(settings); i++)
		if (!wbsim_scenario_builder_set(b, settings[i][0], settings[i][1], error))
			return NULL;
	if (!wbsim_scenario_builder_add_fio_job(b, "global", global, error))
		return NULL;
	for (unsigned int j = 1; j <= NR_JOBS; j++) {
		g_autofree char *name = g_strdup_printf("job%u", j);
		g_autofree char *text = g_strdup_printf("directory=/mnt/dir%u\n", j);

		if (!wbsim_scenario_builder_add_fio_job(b, name, text, error))
			return NULL;
	}
	return wbsim_scenario_builder_build(b, error);
}

struct point {
	double mib_s;
	uint64_t extents;
};

static gboolean run_point(const char *affinity, unsigned int contexts, const char *size,
			  struct point *out, GError **error)
{
	g_autoptr(wbsim_scenario) scn = e2_point(affinity, contexts, size, error);
	g_autoptr(wbsim_result) r = NULL;
	const struct wbsim_result_job *job;
	const struct wbsim_result_file *file;
	uint64_t bytes = 0;
	wbsim_time_t longest = 0;

	if (!scn)
		return FALSE;
	r = wbsim_run(scn, NULL, error);
	if (!r)
		return FALSE;
	for (unsigned int j = 0; (job = wbsim_result_job(r, j)); j++) {
		bytes += job->bytes;
		longest = MAX(longest, job->runtime_ns);
	}
	out->mib_s = longest ? bytes / 1048576.0 / (longest / 1e9) : 0;
	out->extents = 0;
	for (unsigned int f = 0; (file = wbsim_result_file(r, f)); f++)
		out->extents += file->extents;
	return TRUE;
}

int main(int argc, char **argv)
{
	static const char *const policies[] = { "inode", "none", "by-ag" };
	unsigned int max_contexts = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : 8;
	const char *size = argc > 2 ? argv[2] : "64m";
	g_autoptr(GError) error = NULL;

	if (!wbsim_check_version(WBSIM_VERSION_MAJOR, WBSIM_VERSION_MINOR, WBSIM_VERSION_MICRO)) {
		fprintf(stderr, "affinity-by-ag: built for wbsim %s, running with %s\n",
			WBSIM_VERSION_STRING, wbsim_version_string());
		return 1;
	}
	if (max_contexts < 1 || max_contexts > 64) {
		fprintf(stderr, "affinity-by-ag: MAX_CONTEXTS must be 1..64\n");
		return 1;
	}
	if (!wbsim_affinity_register(&by_ag_ops, &error)) {
		fprintf(stderr, "affinity-by-ag: %s\n", error->message);
		return 1;
	}

	printf("# E2-style sweep: %u jobs x %s of 4 KiB random writes, one directory per job,\n"
	       "# XFS with 4 AGs on samsung-pm1733a-3.84t, 8 CPUs, 2 GiB\n",
	       NR_JOBS, size);
	printf("# bandwidth in MiB/s (sum of bytes / longest job runtime); extents of all files\n");
	printf("%-8s", "contexts");
	for (size_t p = 0; p < G_N_ELEMENTS(policies); p++)
		printf(" %10s", policies[p]);
	for (size_t p = 0; p < G_N_ELEMENTS(policies); p++) {
		g_autofree char *head = g_strdup_printf("%s:ext", policies[p]);

		printf(" %10s", head);
	}
	printf("\n");
	for (unsigned int c = 1; c <= max_contexts; c++) {
		struct point pt[G_N_ELEMENTS(policies)];

		for (size_t p = 0; p < G_N_ELEMENTS(policies); p++) {
			if (!run_point(policies[p], c, size, &pt[p], &error)) {
				fprintf(stderr, "affinity-by-ag: %s, %u contexts: %s\n",
					policies[p], c, error->message);
				return 1;
			}
		}
		printf("%-8u", c);
		for (size_t p = 0; p < G_N_ELEMENTS(policies); p++)
			printf(" %10.1f", pt[p].mib_s);
		for (size_t p = 0; p < G_N_ELEMENTS(policies); p++)
			printf(" %10" G_GUINT64_FORMAT, pt[p].extents);
		printf("\n");
	}
	return 0;
}
