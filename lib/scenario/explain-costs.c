/* SPDX-License-Identifier: MIT */
/*
 * explain-costs.c - what one buffered 4 KiB write and one written-back
 * 4 KiB page cost on a scenario's machine, step by step (sim-writeback
 * --explain-costs): each cost's key, value, count, what it is and where
 * its value comes from, summed, and the CPU-bound bandwidth of one CPU.
 *
 * The steps follow the model's charging code, for the simple case: one
 * sequential writer of 4 KiB writes into pages not in the cache, over
 * blocks the filesystem has allocated (fio lays its files out first):
 * - the write: wbsim_generic_perform_write() (lib/mm/filemap.c: the
 *   syscall's fixed cost, the copy, the folio's bookkeeping, its
 *   allocation, the dirty accounting, the filesystem's ->write), the
 *   timestamp update once a file and tick (wbsim_file_update_time()), and
 *   the engine's cost of lib/fio/job.c (job_buffered_write(),
 *   job_uring_nowait_write());
 * - the page written back: wp_batch_cpu() (lib/fs/writepages.c: per folio,
 *   per run), the filesystem's ->map_blocks per run (lib/fs/fs-glue.c),
 *   wbsim_submit_bio() and complete_cost() (lib/block/blk-core.c: per bio
 *   or request, per page or folio), and the device model's own work (the
 *   loop worker, PMEM's copy); a run is the device's largest request
 *   (max_sectors_kb), as the writeback of a long sequential run makes it.
 * Costs the case does not charge (a hole's reservation, allocation at
 * writeback, unwritten conversions, contention) are listed after the
 * sums with their values. tests/scenario/test-explain-costs.c checks the
 * sums against the per-page CPU the simulator reports.
 */
#include <string.h>

#include <wbsim/device.h>
#include <wbsim/error.h>
#include <wbsim/fs.h>
#include "scenario/config-private.h"
#include "block/blk.h"
#include "core/cpu-costs.h"
#include "core/host-profile.h"
#include "core/param.h"
#include "defs/backing-dev-defs.h"
#include "defs/fio.h"
#include "fio/fio-options.h"
#include "fs/alloc/fs.h"

/* the model's page: 4 KiB (lib/mm/writeback-control.h WBSIM_PAGE_SIZE) */
#define PAGE_BYTES UINT64_C(4096)

/* One step of a sum: @count of @key's @value_ns. */
struct step {
	char *key;
	double value_ns;
	double per;		/* charged once per @per writes or pages */
	char *why;		/* why that count ("a run of 256 pages"), or NULL */
	const char *what;
	char *source;
};

struct explain {
	const struct wbsim_config *cfg;
	struct wbsim_cpu_costs costs;
	const struct wbsim_fs_ops *fs;
	GArray *fs_settings;		/* struct wbsim_setting */
	GArray *steps;			/* struct step, the sum being built */
	GPtrArray *used;		/* char *: the keys the sums charge */
	GString *out;
};

static void step_clear(gpointer p)
{
	struct step *s = p;

	g_free(s->key);
	g_free(s->why);
	g_free(s->source);
}

/* Where [costs] @key's value comes from: the scenario's last line that sets
 * it, else the built-in host profile's. */
static char *cost_source(const struct wbsim_config *cfg, const char *key)
{
	const struct wbsim_config_override *last = NULL;
	const struct wbsim_ini_entry *e;

	for (guint i = 0; i < cfg->cost_params->len; i++) {
		const struct wbsim_config_override *o = cfg->cost_params->pdata[i];

		if (strcmp(o->key, key) == 0)
			last = o;
	}
	/* wbsim_config_set_override() (--set) records no line */
	if (last && last->file && last->line)
		return g_strdup_printf("set by %s:%u", last->file, last->line);
	if (last)
		return g_strdup_printf("set by an override (--set costs.%s)", key);
	e = wbsim_host_profile_lookup(key);
	return g_strdup_printf("built-in host profile %s:%u (host %s)",
			       e && e->file ? e->file : wbsim_host_profile_name(),
			       e ? e->line : 0, wbsim_host_profile_host());
}

/* The cost table's row @key: its value in ns and what it is. */
static double core_value(const struct explain *x, const char *key, const char **what)
{
	const struct wbsim_param *p = wbsim_param_find(wbsim_cpu_costs_params(), key);

	g_assert(p && p->type == WBSIM_PARAM_TIME);
	*what = p->help;
	return (double)*(const wbsim_time_t *)((const char *)&x->costs + p->offset);
}

/* The filesystem's cost row @key (NULL: the model has none): its value in
 * ns, what it is. */
static const struct wbsim_param *fs_value(const struct explain *x, const char *key,
					  double *value)
{
	const struct wbsim_param *row = x->fs ? wbsim_param_find(x->fs->options, key) : NULL;
	const char *text;
	wbsim_time_t field = 0;

	if (!row || !(row->flags & WBSIM_PARAM_COST) || row->type != WBSIM_PARAM_TIME)
		return NULL;
	text = wbsim_fs_cost_value(x->fs->name, key,
				   (const struct wbsim_setting *)x->fs_settings->data,
				   x->fs_settings->len);
	if (!text || !wbsim_param_parse_row(row, text, NULL, &field, NULL))
		return NULL;
	*value = (double)field;
	return row;
}

static void add_step(struct explain *x, const char *key, double value, double per,
		     const char *why, const char *what, char *source)
{
	struct step s = { g_strdup(key), value, per, g_strdup(why), what, source };

	g_array_append_val(x->steps, s);
	g_ptr_array_add(x->used, g_strdup(key));
}

/* A step of the cost table's @key, once per @per writes or pages (@why). */
static void add_core(struct explain *x, const char *key, double per, const char *why)
{
	const char *what;
	double v = core_value(x, key, &what);

	add_step(x, key, v, per, why, what, cost_source(x->cfg, key));
}

/* A step of the filesystem's cost @key, when the model has it. */
static void add_fs(struct explain *x, const char *key, double per, const char *why)
{
	double v;
	const struct wbsim_param *row = fs_value(x, key, &v);
	g_autofree char *name = NULL;

	if (!row)
		return;
	name = g_strdup_printf("%s.%s", x->fs->name, key);
	add_step(x, name, v, per, why, row->help, cost_source(x->cfg, name));
}

/* Print the steps, their sum at the host's speed and on this machine's
 * CPUs; empty the list. Returns the sum at the host's speed. */
static double print_steps(struct explain *x, double speed)
{
	double sum = 0;

	for (guint i = 0; i < x->steps->len; i++) {
		const struct step *s = &g_array_index(x->steps, struct step, i);
		g_autofree char *value = g_strdup_printf("%.0f ns", s->value_ns);
		g_autofree char *count = s->per == 1 ? g_strdup("1") : g_strdup_printf("1/%.0f", s->per);

		g_string_append_printf(x->out, "  %-26s %9s x %-6s = %8.1f ns  %s\n", s->key,
				       value, count, s->value_ns / s->per, s->what);
		g_string_append_printf(x->out, "  %-26s %s%s%s\n", "", s->why ? s->why : "",
				       s->why ? "; " : "", s->source);
		sum += s->value_ns / s->per;
	}
	g_string_append_printf(x->out, "  %-26s %30.1f ns", "sum", sum);
	if (speed != 1.0)
		g_string_append_printf(x->out, " at the host's speed; %.1f ns on this machine's CPUs",
				       sum * speed);
	g_string_append_c(x->out, '\n');
	g_array_set_size(x->steps, 0);
	return sum;
}

/* The first job, or NULL. */
static const struct wbsim_fio_job *first_job(const struct wbsim_fio_file *fio)
{
	return fio && fio->jobs && fio->jobs->len ? fio->jobs->pdata[0] : NULL;
}

/* The write: filemap.c's wbsim_generic_perform_write() for one 4 KiB write
 * at a page boundary, then the engine's part (fio/job.c). */
static double explain_write(struct explain *x, const struct wbsim_fio_job *job,
			    uint64_t folio_pages, gboolean per_block, double speed)
{
	const struct wbsim_fio_engine *engine = job ? wbsim_fio_engine_find(job->ioengine) : NULL;
	gboolean uring = job && !job->direct && engine &&
			 (engine->flags & WBSIM_FIO_ENGINE_IO_URING);
	gboolean nowait = x->fs && x->fs->nowait_buffered_write;
	double before, u, tick_ns, sum;
	g_autofree char *why = NULL;

	g_string_append(x->out, "\nOne buffered 4 KiB write into a page not in the cache, the file's blocks allocated\n"
				"(lib/mm/filemap.c wbsim_generic_perform_write(); the engine's part: lib/fio/job.c)\n");
	add_core(x, "write_syscall_ns", 1, NULL);
	/* copy_cost(): a whole page costs copy_page_ns (copy_touch_ns of it
	 * per page touched, the rest by the byte) */
	add_core(x, "copy_page_ns", 1, NULL);
	add_core(x, "dirty_folio_ns", 1, NULL);
	/* a folio of folio_pages allocated once for its first write */
	add_core(x, "page_alloc_ns", (double)folio_pages,
		 folio_pages > 1 ? "a folio, allocated by the first write into it" : NULL);
	add_core(x, "page_alloc_page_ns", 1, NULL);
	/* folio_account_dirtied(): per page, or per folio going dirty */
	if (per_block || folio_pages == 1)
		add_core(x, "account_dirty_ns", 1, NULL);
	else
		add_core(x, "account_dirty_ns", (double)folio_pages, "once per folio, whole-folio accounting");
	add_fs(x, "write_ns", 1, NULL);
	if (uring) {
		add_core(x, "uring_io_ns", 1, NULL);
		/* the fs cannot take IOCB_NOWAIT: every write goes to io-wq */
		if (!nowait) {
			add_core(x, "uring_queue_ns", 1, NULL);
			add_core(x, "uring_punt_ns", 1, NULL);
		}
	} else {
		add_core(x, "sync_io_ns", 1, NULL);
	}
	/*
	 * wbsim_file_update_time(): once a file and tick, shared by the writes
	 * of that tick; at the rate the sum itself sets (t = before + u * t /
	 * tick on this machine's CPUs).
	 */
	before = 0;
	for (guint i = 0; i < x->steps->len; i++) {
		const struct step *s = &g_array_index(x->steps, struct step, i);

		before += s->value_ns / s->per;
	}
	tick_ns = 1e9 / (double)MAX(x->cfg->hz, 1);
	if (fs_value(x, "update_time_ns", &u) && u * speed < tick_ns) {
		double t = before * speed * tick_ns / (tick_ns - u * speed);
		double writes = tick_ns / t;

		why = g_strdup_printf("once a file and tick of %.0f us: %.1f writes a tick at this sum's rate",
				      tick_ns / 1e3, writes);
		add_fs(x, "update_time_ns", writes, why);
	}
	sum = print_steps(x, speed);
	if (job && job->direct)
		g_string_append(x->out, "  (the first job writes with direct=1: its writes skip the page cache and pay none of this)\n");
	return sum;
}

/* The page written back: writepages, the filesystem's mapping, submission,
 * completion, the device's own CPU. */
static double explain_writeback(struct explain *x, struct wbsim_device *dev,
				uint64_t folio_pages, double speed)
{
	const struct wbsim_device_ops *ops = wbsim_device_get_ops(dev);
	uint64_t max_rq = MAX(wbsim_blk_queue_max_sectors(wbsim_device_queue(dev)) /
			      (PAGE_BYTES / 512), 1);
	/* a run: cut at the largest request and at writepages' batch; a bio:
	 * the ioend's (BIO_MAX_VECS folios) cut at the largest request */
	uint64_t run = MIN(max_rq, WBSIM_WP_BATCH_PAGES);
	uint64_t bio = MIN(max_rq, WBSIM_BIO_MAX_VECS * folio_pages);
	gboolean large = folio_pages > 1;
	double submit, complete, device = 0;
	g_autofree char *per_run = g_strdup_printf("a run of %" G_GUINT64_FORMAT " pages", run);
	g_autofree char *per_bio = g_strdup_printf("a bio of %" G_GUINT64_FORMAT " pages", bio);

	g_string_append_printf(x->out, "\nOne 4 KiB page written back from a long dirty range: runs of %" G_GUINT64_FORMAT
			       " pages (writepages' batch of %u, the device's largest request of %" G_GUINT64_FORMAT
			       "), bios of %" G_GUINT64_FORMAT " (an ioend's %u bvecs), one request a bio\n",
			       run, WBSIM_WP_BATCH_PAGES, max_rq, bio, WBSIM_BIO_MAX_VECS);
	g_string_append(x->out, "in the task that writes back (the flusher, or a writer's fsync or fadvise):\n"
				"(lib/fs/writepages.c wp_batch_cpu(), the filesystem's ->map_blocks per run, lib/block/blk-core.c wbsim_submit_bio())\n");
	add_core(x, "writepages_folio_ns", large ? (double)folio_pages : 1,
			 large ? "once a folio" : NULL);
	add_core(x, "bio_build_ns", (double)run, per_run);
	if (x->fs && strcmp(x->fs->name, "xfs") == 0) {
		add_fs(x, "map_ns", (double)run, per_run);
	} else if (x->fs && strcmp(x->fs->name, "f2fs") == 0) {
		/* out of place: every block written goes to a new place in the log */
		add_fs(x, "map_ns", (double)run, per_run);
		add_fs(x, "alloc_ns", (double)run, per_run);
		add_fs(x, "alloc_block_ns", 1, NULL);
	} else if (x->fs && strcmp(x->fs->name, "ext4") == 0) {
		/* pages over written blocks go out without mapping; each
		 * block's buffer head is walked and added to the bio */
		add_fs(x, "writepages_block_ns", 1, NULL);
	}
	add_core(x, "blk_submit_rq_ns", (double)bio, per_bio);
	add_core(x, "blk_submit_page_ns", 1, NULL);
	if (ops->flags & WBSIM_DEVICE_SYNC_COPY) {
		/* PMEM: the submitter copies the bio (memcpy_flushcache) and ends
		 * it inline, each page's end of writeback included */
		double bw = (double)x->costs.memcpy_bandwidth;

		add_step(x, "memcpy_bandwidth", 4096.0 * 1e9 / bw, 1,
			 NULL, "a 4 KiB page's copy at memcpy_bandwidth bytes/s "
			 "(PMEM copies each bio on the submitter's CPU)",
			 cost_source(x->cfg, "memcpy_bandwidth"));
		add_core(x, "blk_complete_page_ns", large ? (double)folio_pages : 1,
			 large ? "once a folio" : NULL);
	}
	submit = print_steps(x, speed);
	complete = 0;
	if (!(ops->flags & WBSIM_DEVICE_SYNC_COPY)) {
		g_string_append(x->out, (ops->flags & WBSIM_DEVICE_STACKED)
			? "at completion (the interrupt of each member device, whose queues pay it; lib/block/blk-core.c complete_cost()):\n"
			: "at completion (the interrupt; lib/block/blk-core.c complete_cost()):\n");
		add_core(x, "blk_complete_rq_ns", (double)bio, per_bio);
		add_core(x, "blk_complete_page_ns", large ? (double)folio_pages : 1,
			 large ? "once a folio" : NULL);
		complete = print_steps(x, speed);
	}
	if (ops->flags & WBSIM_DEVICE_HOST_WORKER) {
		/* over a backing page written before: the first pass over fresh
		 * space adds loop_page_alloc_ns a page */
		g_string_append_printf(x->out, "in the device's worker (%s, model %s: host CPU; lib/block/dev-loop.c):\n",
				       wbsim_device_name(dev), ops->name);
		add_core(x, "loop_request_ns", (double)bio, per_bio);
		add_core(x, "loop_page_copy_ns", 1, NULL);
		device = print_steps(x, speed);
	}
	g_string_append_printf(x->out, "  %-26s %30.1f ns a page written back", "total",
			       submit + complete + device);
	if (speed != 1.0)
		g_string_append_printf(x->out, " at the host's speed; %.1f ns on this machine's CPUs",
				       (submit + complete + device) * speed);
	g_string_append_c(x->out, '\n');
	return submit + complete + device;
}

/* Every cost of the machine the sums do not charge, with its value. */
static void explain_rest(struct explain *x, struct wbsim_device *dev)
{
	gboolean loop = (wbsim_device_get_ops(dev)->flags & WBSIM_DEVICE_HOST_WORKER) != 0;

	g_string_append(x->out, "\nNot in these sums (other cases: small or unaligned writes, holes, allocation and\n"
				"conversion at writeback, fadvise, contention, io_uring's punts):\n");
	for (const struct wbsim_param *p = wbsim_cpu_costs_params(); p->name; p++) {
		g_autofree char *src = NULL;
		g_autofree char *value = NULL;

		if (g_ptr_array_find_with_equal_func(x->used, p->name, g_str_equal, NULL))
			continue;
		/* the loop worker's costs are no cost of a machine without one */
		if (!loop && g_str_has_prefix(p->name, "loop_"))
			continue;
		src = cost_source(x->cfg, p->name);
		if (p->type == WBSIM_PARAM_TIME) {
			const char *what;

			value = g_strdup_printf("%.0f ns", core_value(x, p->name, &what));
		} else {
			value = wbsim_param_format_value(p->type, (const char *)&x->costs + p->offset);
		}
		g_string_append_printf(x->out, "  %-26s %9s  %s; %s\n", p->name, value, p->help, src);
	}
	for (const struct wbsim_param *o = x->fs ? x->fs->options : NULL; o && o->name; o++) {
		g_autofree char *name = NULL;
		g_autofree char *src = NULL;
		double v;

		if (!(o->flags & WBSIM_PARAM_COST))
			continue;
		name = g_strdup_printf("%s.%s", x->fs->name, o->name);
		if (g_ptr_array_find_with_equal_func(x->used, name, g_str_equal, NULL) ||
		    !fs_value(x, o->name, &v))
			continue;
		src = cost_source(x->cfg, name);
		g_string_append_printf(x->out, "  %-26s %6.0f ns  %s; %s\n", name, v, o->help, src);
	}
}

static double mib_s(double ns)
{
	return ns > 0 ? 4096.0 * 1e9 / ns / (1024.0 * 1024.0) : 0;
}

char *wbsim_config_explain_costs(const struct wbsim_config *cfg,
				 const struct wbsim_fio_file *fio, const char *name,
				 GError **error)
{
	struct explain x = { cfg };
	struct wbsim_config_scratch sc = { 0 };
	const struct wbsim_fio_job *job = first_job(fio);
	double speed = 100.0 / (double)MAX(cfg->cpu_speed, 1);
	gboolean per_block = cfg->knobs.dirty_accounting == WBSIM_DIRTY_ACCOUNTING_PER_BLOCK;
	uint64_t folio_pages = cfg->knobs.folio_size == WBSIM_FOLIO_SIZE_AUTO ? 1 :
			       MAX(cfg->knobs.folio_size / PAGE_BYTES, 1);
	double write, back;

	if (!wbsim_config_costs_apply(cfg, &x.costs, error) ||
	    !wbsim_config_scratch_device(cfg, &sc, error))
		return NULL;
	x.fs = wbsim_fs_lookup(cfg->fs_type);
	x.fs_settings = wbsim_config_fs_settings(cfg);
	x.steps = g_array_new(FALSE, TRUE, sizeof(struct step));
	g_array_set_clear_func(x.steps, step_clear);
	x.used = g_ptr_array_new_with_free_func(g_free);
	x.out = g_string_new(NULL);

	g_string_append_printf(x.out, "CPU cost of a write on the machine of %s", name);
	if (cfg->description && cfg->description[0])
		g_string_append_printf(x.out, " (%s)", cfg->description);
	g_string_append_printf(x.out, "\n  host profile: %s, built in ([costs] host = %s)",
			       wbsim_host_profile_name(), wbsim_host_profile_host());
	if (cfg->cost_params->len)
		g_string_append_printf(x.out, "; the scenario's [costs] sets %u key(s)",
				       cfg->cost_params->len);
	if (cfg->cost_host && cfg->cost_host[0] &&
	    strcmp(cfg->cost_host, wbsim_host_profile_host()) != 0)
		g_string_append_printf(x.out, ", measured on host %s", cfg->cost_host);
	g_string_append_printf(x.out, "\n  [machine] cpu_speed = %" G_GUINT64_FORMAT
			       "%% of that host: every cost lasts cost x %.2f\n", cfg->cpu_speed, speed);
	g_string_append_printf(x.out, "  filesystem: %s; folio: %" G_GUINT64_FORMAT " KiB (%s); dirty accounting: %s\n",
			       cfg->fs_type, folio_pages * 4,
			       cfg->knobs.folio_size == WBSIM_FOLIO_SIZE_AUTO ? "folio_size = auto: a 4 KiB write's own" : "[writeback] folio_size",
			       per_block ? "per-block" : "whole-folio");
	if (job)
		g_string_append_printf(x.out, "  fio job %s (the first of %u): ioengine=%s%s, iodepth=%u\n",
				       job->name, fio->jobs->len, job->ioengine ? job->ioengine : "psync",
				       job->direct ? ", direct=1" : "", MAX(job->iodepth, 1));
	g_string_append_printf(x.out, "  device: %s (model %s)\n", wbsim_device_name(sc.dev),
			       wbsim_device_get_ops(sc.dev)->name);

	write = explain_write(&x, job, folio_pages, per_block, speed);
	back = explain_writeback(&x, sc.dev, folio_pages, speed);
	explain_rest(&x, sc.dev);

	g_string_append_printf(x.out, "\nCPU-bound bandwidth of one CPU (4 KiB / the sum on this machine's CPUs):\n"
				      "  writes alone (no writeback yet): %.0f MiB/s (%.1f ns a write)\n"
				      "  writes and their writeback on the same CPU: %.0f MiB/s (%.1f ns a page)\n",
			       mib_s(write * speed), write * speed,
			       mib_s((write + back) * speed), (write + back) * speed);

	wbsim_config_scratch_clear(&sc);
	g_array_free(x.fs_settings, TRUE);
	g_array_free(x.steps, TRUE);
	g_ptr_array_free(x.used, TRUE);
	return g_string_free(x.out, FALSE);
}
