/* SPDX-License-Identifier: MIT */
/*
 * core/cpu-costs.c - the default CPU cost table and its setter by name.
 *
 * Sources: "bench" values come from bench/bench-memcpy (single thread,
 * AMD EPYC development host, 2 cores, gcc 12 -O2, best of three, 2026-11-29):
 *   4 KiB copies, 256 KiB footprint:  36300 MB/s (113 ns per page)
 *   4 KiB copies, 256 MiB footprint:   8560 MB/s (479 ns per page)
 *   1 MiB copies, 256 MiB footprint:   7820 MB/s
 * "reasoning" values count the kernel operations involved (xarray walks and
 * tag updates, atomic and per-CPU counter updates at tens of ns each, a
 * syscall round trip of a few hundred ns with speculation mitigations) and
 * are rounded; they are the same on every simulated machine.
 */
#include <stddef.h>
#include <string.h>

#include <wbsim/cpu-costs.h>
#include <wbsim/error.h>
#include "core/arg-check.h"
#include "block/blk.h"

static const struct wbsim_cpu_costs default_costs = {
	/* bench: 4 KiB copy with a cold destination (256 MiB footprint) */
	.copy_page_ns = 480,
	/*
	 * reasoning: write_begin (page cache lookup, folio allocation from the
	 * per-CPU lists ~200 ns, xarray insert, LRU add, memcg charge) and
	 * write_end + folio_mark_dirty (xarray tag, node/wb/memcg counters)
	 */
	.dirty_page_ns = 500,
	/*
	 * reasoning: syscall entry/exit with mitigations (~300 ns), fdget_pos,
	 * rw_verify_area, file_modified, inode lock, iomap_iter set-up with the
	 * filesystem's extent lookup
	 */
	.write_syscall_ns = 1000,
	/*
	 * reasoning: per folio in writeback_iter: dirty-tag walk, folio lock,
	 * folio_clear_dirty_for_io with its node/memcg/wb counters,
	 * folio_start_writeback (xarray tags, counters), iomap_writepage_map
	 * (mapping validity check, ioend add, wbc_account_cgroup_owner),
	 * bio_add_folio, with the cache misses of touching a folio and its
	 * xarray node in a multi-GiB page cache; a single flusher writing
	 * back sequential 4 KiB folios is known to saturate one CPU at about
	 * 2 GB/s (about 2 us a page all in, with this, submission and
	 * completion). Was 250 ns, which let one flusher move 1.7 GB/s of
	 * random 4 KiB pages.
	 */
	.writepages_page_ns = 1500,
	/*
	 * fitted to E1 base, see calibration report (sim/wbsim-calibrate.c,
	 * `meson compile -C build calibration`). Per contiguous run of dirty
	 * pages, i.e. per ioend and bio: iomap_alloc_ioend and bio_alloc from
	 * the bioset, the ioend's completion and bio_put, the filesystem's
	 * work per ioend beyond the separately charged map_blocks and
	 * unwritten conversion. E1 PMEM base runs one writeback context that
	 * is busy 100% of the run (the fio threads' fadvise(DONTNEED) writes
	 * the other third); 28 us a run puts PMEM XFS and PMEM ext4 base
	 * within a few % of 544 and 536 MiB/s, and every other figure is a
	 * prediction from it. Counting the operations named gives 3-5 us; the
	 * fitted value is several times that, which the calibration report
	 * names as per-I/O work of random 4 KiB writeback the model does not
	 * yet itemise. Kept per run, not per page, so sequential writeback
	 * (long runs) keeps its known speed.
	 */
	.bio_build_ns = 28000,
	/*
	 * reasoning: blk-mq submission of one request: bio checks, plug or
	 * tag allocation, request init, scheduler insert and dispatch, driver
	 * command set-up and doorbell (~1 us, the order of a core's IOPS limit
	 * of about a million requests per second in the block layer)
	 */
	.blk_submit_rq_ns = 1000,
	/* reasoning: one bvec: segment count, DMA mapping of a page */
	.blk_submit_page_ns = 20,
	/*
	 * reasoning: interrupt entry, completion queue walk, softirq,
	 * blk_mq_end_request, bio_endio chain, tag release
	 */
	.blk_complete_rq_ns = 1000,
	/*
	 * reasoning: per page: folio_end_writeback (xarray tag clear, node,
	 * wb and memcg counters, __wb_writeout_add, waking waiters)
	 */
	.blk_complete_page_ns = 200,
	/* bench: 1 MiB copies over a 256 MiB footprint, one thread */
	.memcpy_bandwidth = 7800000000ull,
	/*
	 * reasoning: fio submits each write with its own io_uring_enter
	 * (iodepth_batch 1: syscall entry and exit with mitigations ~400 ns,
	 * SQE fetch and io_prep_rw ~200 ns), reaps its CQE (~100 ns) and does
	 * its per-I/O bookkeeping (io_u get and put, the random map, latency
	 * and bandwidth accounting ~500 ns)
	 */
	.uring_io_ns = 1200,
	/*
	 * reasoning: a punted write: the inline issue that returns -EAGAIN
	 * (a failed i_rwsem trylock or balance_dirty_pages' BDP_ASYNC) or is
	 * skipped, io_wq_enqueue under the wq lock (~300 ns), the worker's
	 * dequeue (~100 ns), and the completion: io_req_complete_post under
	 * the completion lock, the CQE, waking the fio thread that waits in
	 * io_uring_enter (~800 ns with the wakeup)
	 */
	.uring_punt_ns = 1200,
};

const struct wbsim_cpu_costs *wbsim_cpu_costs_default(void)
{
	return &default_costs;
}

void wbsim_cpu_costs_init(struct wbsim_cpu_costs *costs)
{
	*costs = default_costs;
}

#define COST_NS(f) { #f, offsetof(struct wbsim_cpu_costs, f), WBSIM_PARAM_TIME }

static const struct {
	const char *key;
	size_t offset;
	enum wbsim_param_type type;
} cost_keys[] = {
	COST_NS(copy_page_ns),
	COST_NS(dirty_page_ns),
	COST_NS(write_syscall_ns),
	COST_NS(writepages_page_ns),
	COST_NS(bio_build_ns),
	COST_NS(blk_submit_rq_ns),
	COST_NS(blk_submit_page_ns),
	COST_NS(blk_complete_rq_ns),
	COST_NS(blk_complete_page_ns),
	{ "memcpy_bandwidth", offsetof(struct wbsim_cpu_costs, memcpy_bandwidth),
	  WBSIM_PARAM_RATE },
	COST_NS(uring_io_ns),
	COST_NS(uring_punt_ns),
};

gboolean wbsim_cpu_costs_set(struct wbsim_cpu_costs *costs, const char *key,
			     const char *value, const char *file,
			     unsigned int line, GError **error)
{
	g_autofree char *where = NULL;

	wbsim_check_arg(costs && key && value, FALSE, error);
	where = wbsim_blk_where(file, line);
	for (size_t i = 0; i < G_N_ELEMENTS(cost_keys); i++) {
		const char *expected;
		uint64_t v;
		gboolean ok;

		if (strcmp(cost_keys[i].key, key) != 0)
			continue;
		if (g_ascii_isdigit(value[0]) &&
		    strspn(value, "0123456789") == strlen(value)) {
			/* a bare number: ns, or bytes per second */
			v = g_ascii_strtoull(value, NULL, 10);
			ok = TRUE;
			expected = NULL;
		} else {
			ok = wbsim_blk_parse_value(cost_keys[i].type, value, &v,
						   &expected);
		}
		if (ok && cost_keys[i].type == WBSIM_PARAM_RATE && v == 0) {
			ok = FALSE;
			expected = "a rate above 0 bytes per second";
		}
		if (!ok) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s[cpu] %s: invalid value '%s': expected %s",
				    where, key, value, expected);
			return FALSE;
		}
		*(uint64_t *)((char *)costs + cost_keys[i].offset) = v;
		return TRUE;
	}
	{
		g_autoptr(GString) keys = g_string_new(NULL);

		for (size_t i = 0; i < G_N_ELEMENTS(cost_keys); i++)
			g_string_append_printf(keys, "%s%s", i ? ", " : "",
					       cost_keys[i].key);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
			    "%s[cpu] unknown key '%s': expected one of %s",
			    where, key, keys->str);
	}
	return FALSE;
}
