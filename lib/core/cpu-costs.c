/* SPDX-License-Identifier: MIT */
/*
 * core/cpu-costs.c - the CPU cost table's keys, and its defaults read from
 * the built-in host profile (core/host-profile.h: lib/core/hosts/NAME.inc,
 * where each value stands with its source). What each cost is: the rows
 * below and struct wbsim_cpu_costs (wbsim/cpu-costs.h). A machine preset
 * scales them all by its [machine] cpu_speed; a scenario's [costs] sets
 * any of them.
 */
#include <stddef.h>
#include <string.h>

#include <wbsim/cpu-costs.h>
#include <wbsim/error.h>
#include "core/arg-check.h"
#include "core/param.h"
#include "core/cpu-costs.h"
#include "core/host-profile.h"

#define COST_NS(f, help) \
	{ #f, WBSIM_PARAM_TIME, offsetof(struct wbsim_cpu_costs, f), NULL, NULL, 0, 0, help }

/* The cost table as a parameter table (struct wbsim_param), for setting by key. */
static const struct wbsim_param cost_params[] = {
	COST_NS(copy_page_ns, "copying one page of a write into the page cache"),
	COST_NS(copy_touch_ns, "the part of copy_page_ns a copy pays per page it touches, whatever its bytes"),
	COST_NS(dirty_folio_ns, "page cache lookup of a write, per folio it writes into"),
	COST_NS(write_syscall_ns, "the write path outside the itemised work, per write"),
	COST_NS(writepages_folio_ns, "writepages per folio written back"),
	COST_NS(bio_build_ns, "building the ioend and bio of a run of dirty pages"),
	COST_NS(blk_submit_rq_ns, "submit_bio to blk_mq_submit_bio, per bio"),
	COST_NS(blk_submit_page_ns, "submission per page (one bvec)"),
	COST_NS(blk_complete_rq_ns, "completion interrupt per request"),
	COST_NS(blk_complete_page_ns, "ending writeback per page (per folio of a large folio)"),
	{ "memcpy_bandwidth", WBSIM_PARAM_RATE,
	  offsetof(struct wbsim_cpu_costs, memcpy_bandwidth), NULL, NULL, 1, 1.8e19,
	  "one CPU's copy bandwidth" },
	COST_NS(uring_io_ns, "io_uring issue and reaping per write"),
	COST_NS(uring_punt_ns, "io_uring punt to io-wq per write"),
	COST_NS(sync_io_ns, "a write of fio's synchronous engines (psync, sync, libaio): its own system call and fio's user-space work, beyond write_syscall_ns"),
	COST_NS(balance_dirty_pages_ns, "a balance_dirty_pages() pass that returns -EAGAIN (BDP_ASYNC)"),
	COST_NS(page_alloc_ns, "allocating, charging and inserting a page cache folio, per folio"),
	COST_NS(page_alloc_page_ns, "allocating a page cache folio, per 4 KiB page of it"),
	COST_NS(account_dirty_ns, "accounting a page that becomes dirty"),
	COST_NS(invalidate_page_ns, "invalidating a clean page at fadvise(DONTNEED)"),
	COST_NS(rwsem_sleep_ns, "a writer sleeping on a contended rw_semaphore, per sleep"),
	COST_NS(rwsem_wake_ns, "waking a writer that sleeps on an rw_semaphore, per wake-up"),
	COST_NS(syscall_entry_ns, "the part of a write outside the inode lock: its system call's entry and exit above ->write_iter and the caller's user space, per write"),
	{ .name = NULL },
};

const struct wbsim_param *wbsim_cpu_costs_params(void)
{
	return cost_params;
}

/* Every row from the built-in host profile, once. */
static gpointer defaults_load(gpointer unused)
{
	struct wbsim_cpu_costs *costs = g_new0(struct wbsim_cpu_costs, 1);

	(void)unused;
	for (const struct wbsim_param *p = cost_params; p->name; p++) {
		const struct wbsim_ini_entry *e = wbsim_host_profile_lookup(p->name);
		g_autoptr(GError) error = NULL;

		/* tests/core/test-host-profile.c holds the profile complete */
		if (!e)
			g_critical("%s: [costs] has no %s", wbsim_host_profile_name(), p->name);
		else if (!wbsim_param_apply(p, costs, e->value, "[costs]", e->file, e->line,
					    &error))
			g_critical("%s", error->message);
	}
	return costs;
}

const struct wbsim_cpu_costs *wbsim_cpu_costs_default(void)
{
	static GOnce once = G_ONCE_INIT;

	return g_once(&once, defaults_load, NULL);
}

void wbsim_cpu_costs_init(struct wbsim_cpu_costs *costs)
{
	*costs = *wbsim_cpu_costs_default();
}

gboolean wbsim_cpu_costs_set(struct wbsim_cpu_costs *costs, const char *key,
			     const char *value, const char *file,
			     unsigned int line, GError **error)
{
	wbsim_check_arg(costs && key && value, FALSE, error);
	return wbsim_param_set(cost_params, costs, key, value, "[costs]", file, line,
			       error);
}
