/* SPDX-License-Identifier: MIT */
/*
 * invariants.c - the checking mode (--check, wbsim_run_options.check): the
 * model's invariants after every event (every 256th in a large model) and
 * at the end; the first violation stops the run with its message.
 */
#include <stdarg.h>
#include <wbsim/error.h>
#include "run/run-private.h"
#include "fs/bdi.h"
#include "block/blk.h"
#include "core/sim.h"

static void check_fail(struct wbsim_run *run, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void check_fail(struct wbsim_run *run, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	if (run->failure)
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	run->failure = g_error_new(WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
				   "invariant violated at %.9f s (event %" G_GUINT64_FORMAT "): %s",
				   wbsim_sim_now(run->m.sim) / 1e9,
				   wbsim_sim_events_processed(run->m.sim), msg);
	wbsim_sim_stop(run->m.sim);
}

/*
 * The model's invariants (wbsim_bdi_check(), wbsim_vm_check()), time that
 * never ran backwards, and the request queue's. The cgroup writeback check
 * walks every page of every file, so a model with many files or many
 * charged pages takes it every 4096th event only (and at the end).
 */
void wbsim_run_check_invariants(struct wbsim_run *run)
{
	struct wbsim_machine *m = &run->m;
	bool deep = run->m.cgroups && ((m->inodes->len <= 64 && m->vm.memcgs.root->nr_file <= 16384) ||
				     run->final_check ||
				     (wbsim_sim_events_processed(m->sim) & 4095) == 0);
	g_autoptr(GError) e = NULL;
	g_autofree char *why = NULL;

	run->checks++;
	if (!wbsim_bdi_check(&m->bdi, run->m.cgroups, deep, &e) || !wbsim_vm_check(&m->vm, &e))
		check_fail(run, "%s", e->message);
	else if (wbsim_sim_past_schedules(m->sim))
		check_fail(run, "an event was scheduled in the past");
	else if (!wbsim_blk_queue_check(m->bdi.queue, &why))
		check_fail(run, "request queue: %s", why);
}

void wbsim_run_after_event_check(wbsim_sim *sim, void *arg)
{
	struct wbsim_run *run = arg;

	/* Every event while the model is small; every 256th when not. */
	if (run->m.inodes->len <= 64 || (wbsim_sim_events_processed(sim) & 255) == 0)
		wbsim_run_check_invariants(run);
}

