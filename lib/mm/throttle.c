/* SPDX-License-Identifier: MIT */
/*
 * mm/throttle.c - dirtier throttling: the decision part of
 * balance_dirty_pages() and its ratelimited entry (kernel:
 * mm/page-writeback.c).
 *
 * A task that dirtied pages_dirtied pages is given the rate
 *
 *	task_ratelimit = dirty_ratelimit * pos_ratio        (pages/s)
 *
 * and sleeps so that the batch takes
 *
 *	period = HZ * pages_dirtied / task_ratelimit        (jiffies)
 *
 * minus the time it spent since its last pause ("think time"). Sleeps
 * shorter than min_pause are not taken (the debt is carried as virtual
 * time in dirty_paused_when), sleeps are cut to max_pause (<= 200 ms).
 *
 * One call of wbsim_balance_dirty_pages() is one pass of the kernel's loop;
 * the sleep itself is the caller's. BDP_ASYNC (io_uring's IOCB_NOWAIT
 * writes): a pass that would sleep traces the pause and returns -EAGAIN
 * before the task's state is reset. Left out: fatal signals.
 */
#include "mm/throttle.h"
#include "mm/dirty-limits.h"
#include "mm/position-ratio.h"

/**
 * wbsim_task_dirty_init() - throttle state of a new task
 * @task: the state
 *
 * As kernel/fork.c: nr_dirtied 0, nr_dirtied_pause 128 KiB (32 pages),
 * dirty_paused_when 0.
 */
void wbsim_task_dirty_init(struct wbsim_task_dirty *task)
{
	task->nr_dirtied = 0;
	task->nr_dirtied_pause = WBSIM_INIT_NR_DIRTIED_PAUSE;
	task->dirty_paused_when = 0;
}

/**
 * wbsim_task_account_dirtied() - count @nr pages that went clean -> dirty
 * @task: the dirtier
 * @cpu: the CPU it runs on
 * @nr: pages (folio_nr_pages)
 *
 * The task and CPU part of folio_account_dirtied() (the node, memcg and wb
 * counters are the caller's).
 */
void wbsim_task_account_dirtied(struct wbsim_task_dirty *task,
				struct wbsim_cpu_dirty *cpu, uint64_t nr)
{
	task->nr_dirtied += nr;
	cpu->bdp_ratelimits += nr;
}

/**
 * wbsim_task_dirty_exit() - a task exits
 * @task: the task
 * @cpu: the CPU it ran on last
 *
 * Its unthrottled pages become the CPU's dirty_throttle_leaks, which the
 * next dirtier on that CPU picks up (kernel: exit path of do_exit()).
 */
void wbsim_task_dirty_exit(struct wbsim_task_dirty *task,
			   struct wbsim_cpu_dirty *cpu)
{
	cpu->dirty_throttle_leaks += task->nr_dirtied;
	task->nr_dirtied = 0;
}

/**
 * wbsim_wb_max_pause() - the longest pause for a wb
 * @vm: for HZ
 * @wb: the wb (avg_write_bandwidth)
 * @wb_dirty: the wb's dirty + writeback pages
 *
 * Models wb_max_pause(): about 1/8 of the time to write wb_dirty, so a
 * small dirty pool cannot run dry during a sleep, at most MAX_PAUSE.
 *
 *	t = wb_dirty / (1 + bw / roundup_pow_of_two(1 + HZ / 8)) + 1
 *	max_pause = min(t, max(HZ / 5, 1))
 *
 * Return: jiffies.
 */
uint64_t wbsim_wb_max_pause(const struct wbsim_vm_dirty *vm,
			    const struct wbsim_wb_bw *wb, uint64_t wb_dirty)
{
	uint64_t bw = wb->avg_write_bandwidth;
	uint64_t t;

	t = wb_dirty / (1 + bw / wbsim_roundup_pow_of_two(1 + vm->hz / 8));
	t++;
	return t < wbsim_max_pause_jiffies(vm->hz) ? t :
	       wbsim_max_pause_jiffies(vm->hz);
}

/**
 * wbsim_wb_min_pause() - the shortest pause worth taking, and the next
 *	nr_dirtied_pause
 * @vm: for HZ
 * @wb: the wb (avg_write_bandwidth, dirty_ratelimit)
 * @max_pause: wb_max_pause()
 * @task_ratelimit: the task's rate of this pass
 * @dirty_ratelimit: the wb's base rate
 * @nr_dirtied_pause: set to the next poll interval in pages
 *
 * Models wb_min_pause().
 *
 *	t = max(1, HZ / 100)                 10 ms for a single dirtier,
 *	  + (ilog2(bw) - ilog2(R)) * 10 * HZ / 1024    +10 ms per doubling
 *	                                               of N ~ bw / R
 *	t = min(t, 1 + max_pause / 2)
 *	pages = R * t / roundup_pow_of_two(HZ)
 *	pages < 32: t = max_pause, pages again, at most 32 (then t = the
 *	            time of 32 pages at R)
 *	if HZ * pages / (task_r + 1) > max_pause:
 *	            t = max_pause, pages = task_r * t / roundup(HZ)
 *	min_pause = pages >= 32 ? 1 + t / 2 : t
 *
 * Return: min_pause in jiffies.
 */
int64_t wbsim_wb_min_pause(const struct wbsim_vm_dirty *vm,
			   const struct wbsim_wb_bw *wb, int64_t max_pause,
			   uint64_t task_ratelimit, uint64_t dirty_ratelimit,
			   uint64_t *nr_dirtied_pause)
{
	const int64_t hz = vm->hz;
	const uint64_t hz_pow2 = wbsim_roundup_pow_of_two(vm->hz);
	int64_t hi = wbsim_ilog2(wb->avg_write_bandwidth);
	int64_t lo = wbsim_ilog2(wb->dirty_ratelimit);
	int64_t t;		/* target pause */
	uint64_t pause;		/* estimated next pause */
	uint64_t pages;		/* target nr_dirtied_pause */

	t = hz / 100 > 1 ? hz / 100 : 1;
	/* (N * 10ms) on 2^N concurrent tasks: less CPU for many dirtiers */
	if (hi > lo)
		t += (hi - lo) * (10 * hz) / 1024;

	/*
	 * Base nr_dirtied_pause on the stable dirty_ratelimit, but keep the
	 * target at most max_pause / 2 so that normal fluctuations of
	 * task_ratelimit do not push the next pause over max_pause.
	 */
	if (t > 1 + max_pause / 2)
		t = 1 + max_pause / 2;
	pages = dirty_ratelimit * (uint64_t)t / hz_pow2;

	/* Tiny nr_dirtied_pause hurts IO: aim for DIRTY_POLL_THRESH pages. */
	if (pages < WBSIM_DIRTY_POLL_THRESH) {
		t = max_pause;
		pages = dirty_ratelimit * (uint64_t)t / hz_pow2;
		if (pages > WBSIM_DIRTY_POLL_THRESH) {
			pages = WBSIM_DIRTY_POLL_THRESH;
			t = (int64_t)((uint64_t)hz * WBSIM_DIRTY_POLL_THRESH /
				      dirty_ratelimit);
		}
	}

	/* the pause at task_ratelimit would exceed max_pause: poll sooner */
	pause = (uint64_t)hz * pages / (task_ratelimit + 1);
	if (pause > (uint64_t)max_pause) {
		t = max_pause;
		pages = task_ratelimit * (uint64_t)t / hz_pow2;
	}

	*nr_dirtied_pause = pages;
	/* the minimal pause is normally half the target pause */
	return pages >= WBSIM_DIRTY_POLL_THRESH ? 1 + t / 2 : t;
}

/**
 * wbsim_balance_dirty_pages_ratelimited() - must this dirtier look now?
 * @vm: for ratelimit_pages
 * @task: the dirtier (after wbsim_task_account_dirtied())
 * @cpu: the CPU it runs on
 * @wb_dirty_exceeded: dirty_exceeded of the dirtier's wb
 *
 * Models the ratelimit part of balance_dirty_pages_ratelimited_flags()
 * (the BDI_CAP_WRITEBACK test and the choice of wb are the caller's).
 *
 *	ratelimit = nr_dirtied_pause, at most 8 pages if dirty_exceeded
 *	nr_dirtied >= ratelimit            -> reset the CPU counter
 *	cpu counter >= ratelimit_pages     -> reset it, force a look
 *	take up to (ratelimit - nr_dirtied) pages of the CPU's leaks
 *
 * Return: true if the caller must run balance_dirty_pages() with
 * pages_dirtied = @task->nr_dirtied.
 */
bool wbsim_balance_dirty_pages_ratelimited(const struct wbsim_vm_dirty *vm,
					   struct wbsim_task_dirty *task,
					   struct wbsim_cpu_dirty *cpu,
					   bool wb_dirty_exceeded)
{
	uint64_t ratelimit = task->nr_dirtied_pause;

	if (wb_dirty_exceeded && ratelimit > WBSIM_DIRTY_EXCEEDED_RATELIMIT)
		ratelimit = WBSIM_DIRTY_EXCEEDED_RATELIMIT;

	/*
	 * Keep one CPU from dirtying too much without a check, e.g. 1000+
	 * tasks all starting with a large initial nr_dirtied_pause.
	 */
	if (task->nr_dirtied >= ratelimit) {
		cpu->bdp_ratelimits = 0;
	} else if (cpu->bdp_ratelimits >= vm->ratelimit_pages) {
		cpu->bdp_ratelimits = 0;
		ratelimit = 0;
	}

	/* Pick up pages dirtied by exited tasks (short-lived dirtiers). */
	if (cpu->dirty_throttle_leaks > 0 && task->nr_dirtied < ratelimit) {
		uint64_t n = ratelimit - task->nr_dirtied;

		if (n > cpu->dirty_throttle_leaks)
			n = cpu->dirty_throttle_leaks;
		cpu->dirty_throttle_leaks -= n;
		task->nr_dirtied += n;
	}
	return task->nr_dirtied >= ratelimit;
}

/*
 * Models domain_dirty_freerun() (v6.12): with strictlimit the wb numbers
 * decide, so they are computed here already.
 */
static void domain_dirty_freerun(const struct wbsim_vm_dirty *vm,
				 struct wbsim_dtc *dtc, bool strictlimit)
{
	uint64_t dirty, thresh, bg_thresh;

	if (strictlimit) {
		wbsim_wb_dirty_limits(vm, dtc);
		dirty = dtc->wb_dirty;
		thresh = dtc->wb_thresh;
		bg_thresh = dtc->wb_bg_thresh;
	} else {
		dirty = dtc->dirty;
		thresh = dtc->thresh;
		bg_thresh = dtc->bg_thresh;
	}
	dtc->freerun = dirty <= wbsim_dirty_freerun_ceiling(thresh, bg_thresh);
}

/* Models balance_domain_limits() on caller-filled avail and dirty. */
static void balance_domain_limits(const struct wbsim_vm_dirty *vm,
				  struct wbsim_dtc *dtc, bool strictlimit,
				  bool rt_task)
{
	wbsim_domain_dirty_limits(vm, dtc, rt_task);
	domain_dirty_freerun(vm, dtc, strictlimit);
}

/*
 * Models wb_dirty_freerun(): without strictlimit the wb numbers are
 * computed now; a PF_LOCAL_THROTTLE task (e.g. a loop or NFS server
 * thread) is not throttled below the wb's own freerun ceiling.
 */
static void wb_dirty_freerun(const struct wbsim_vm_dirty *vm,
			     struct wbsim_dtc *dtc, bool strictlimit,
			     bool local_throttle)
{
	dtc->freerun = false;
	if (strictlimit)
		return;		/* done by domain_dirty_freerun() */
	wbsim_wb_dirty_limits(vm, dtc);
	if (!local_throttle)
		return;
	dtc->freerun = dtc->wb_dirty <
		       wbsim_dirty_freerun_ceiling(dtc->wb_thresh,
						   dtc->wb_bg_thresh);
}

/* Models balance_wb_limits(): wb numbers, dirty_exceeded, pos_ratio. */
static void balance_wb_limits(const struct wbsim_vm_dirty *vm,
			      struct wbsim_dtc *dtc, bool strictlimit,
			      bool local_throttle)
{
	wb_dirty_freerun(vm, dtc, strictlimit, local_throttle);
	if (dtc->freerun)
		return;
	dtc->dirty_exceeded = dtc->wb_dirty > dtc->wb_thresh &&
			      (dtc->dirty > dtc->thresh || strictlimit);
	wbsim_wb_position_ratio(dtc);
}

/* Models domain_poll_intv(). */
static uint64_t domain_poll_intv(const struct wbsim_dtc *dtc, bool strictlimit)
{
	if (strictlimit)
		return wbsim_dirty_poll_interval(dtc->wb_dirty, dtc->wb_thresh);
	return wbsim_dirty_poll_interval(dtc->dirty, dtc->thresh);
}

/* jiffies to ms as the tracepoint does (signed). */
static int64_t jiffies_to_ms(int64_t j, unsigned int hz)
{
	return j * 1000 / (int64_t)hz;
}

/* Models the TP_fast_assign of trace_balance_dirty_pages(): its record
 * (defs/writeback-events.h), but for the bdi name and cgroup_ino, which
 * wbsim_trace_balance_dirty_pages() fills. */
static void trace_balance_dirty_pages(const struct wbsim_vm_dirty *vm,
				      const struct wbsim_bdp_input *in,
				      const struct wbsim_task_dirty *task,
				      const struct wbsim_dtc *dtc,
				      uint64_t dirty_ratelimit,
				      uint64_t task_ratelimit, int64_t period,
				      int64_t pause, struct wbsim_bdp_result *out)
{
	struct wbsim_trace_rec_bdp *tr = &out->trace;
	uint64_t freerun = (dtc->thresh + dtc->bg_thresh) / 2;

	out->traced = true;
	tr->limit = dtc->limit;
	tr->setpoint = (dtc->limit + freerun) / 2;
	tr->dirty = dtc->dirty;
	tr->wb_setpoint = tr->setpoint * dtc->wb_thresh / (dtc->thresh + 1);
	tr->wb_dirty = dtc->wb_dirty;
	tr->dirty_ratelimit = wbsim_kbps(dirty_ratelimit);
	tr->task_ratelimit = wbsim_kbps(task_ratelimit);
	tr->dirtied = (uint32_t)in->pages_dirtied;	/* unsigned int in the kernel */
	tr->dirtied_pause = (uint32_t)task->nr_dirtied_pause;
	tr->think = task->dirty_paused_when == 0 ? 0 :
		    jiffies_to_ms((int64_t)(in->now - task->dirty_paused_when),
				  vm->hz);
	tr->period = (uint64_t)period * 1000 / vm->hz;
	tr->pause = jiffies_to_ms(pause, vm->hz);
	tr->paused = (in->now - in->start_time) * 1000 / vm->hz;
}

/*
 * The FREERUN exit: poll again after ~sqrt(headroom) pages, restart the
 * virtual time.
 */
static void free_running(const struct wbsim_bdp_input *in, bool strictlimit,
			 struct wbsim_task_dirty *task,
			 struct wbsim_bdp_result *out)
{
	uint64_t intv = domain_poll_intv(in->gdtc, strictlimit);
	uint64_t m_intv = UINT64_MAX;

	task->dirty_paused_when = in->now;
	task->nr_dirtied = 0;
	if (in->mdtc)
		m_intv = domain_poll_intv(in->mdtc, strictlimit);
	task->nr_dirtied_pause = intv < m_intv ? intv : m_intv;
	out->freerun = true;
	out->nr_dirtied_pause = task->nr_dirtied_pause;
}

/**
 * wbsim_balance_dirty_pages() - one pass of the throttling loop
 * @vm: globals
 * @in: the pass's inputs; @in->gdtc and @in->mdtc receive the computed
 *	limits, and the wb state behind them (@gdtc->wb) is updated:
 *	dirty_exceeded, and the bandwidth fields if an update was due
 * @task: the dirtier's state, updated as the kernel leaves it (after the
 *	sleep, if there is one)
 * @out: the decision
 *
 * Models one iteration of balance_dirty_pages() (v6.12 structure): domain
 * limits (G, then M), the background kick, FREERUN, wb limits and
 * pos_ratio per domain (the stricter one wins), __wb_update_bandwidth()
 * when 200 ms have passed, then the pause; with @in->async a pause is
 * traced and returned as @out->eagain instead. Left out: fatal
 * signals, the sleep (the caller sleeps @out->pause jiffies, records
 * bdi.last_bdp_sleep, and calls again if @out->repeat).
 */
void wbsim_balance_dirty_pages(const struct wbsim_vm_dirty *vm,
			       const struct wbsim_bdp_input *in,
			       struct wbsim_task_dirty *task,
			       struct wbsim_bdp_result *out)
{
	struct wbsim_dtc *gdtc = in->gdtc;
	struct wbsim_dtc *mdtc = in->mdtc;
	struct wbsim_dtc *sdtc;
	struct wbsim_wb_bw *wb = gdtc->wb;
	const bool strictlimit = gdtc->bdi->strictlimit;
	const int64_t hz = vm->hz;
	uint64_t now = in->now;
	uint64_t dirty_ratelimit, task_ratelimit, nr_dirtied_pause;
	int64_t period, pause, max_pause, min_pause;

	*out = (struct wbsim_bdp_result){ 0 };
	out->dirty_exceeded = wb->dirty_exceeded;

	balance_domain_limits(vm, gdtc, strictlimit, in->rt_task);
	if (mdtc)
		balance_domain_limits(vm, mdtc, strictlimit, in->rt_task);

	/*
	 * Outside laptop mode, background writeout starts at bg_thresh to
	 * keep the amount of dirty memory low.
	 */
	if (!vm->laptop_mode && in->nr_dirty > gdtc->bg_thresh &&
	    !in->writeback_in_progress)
		out->wake_flusher = true;

	if (gdtc->freerun && (!mdtc || mdtc->freerun)) {
		free_running(in, strictlimit, task, out);
		return;
	}

	/* Start writeback even in laptop mode. */
	if (!in->writeback_in_progress)
		out->wake_flusher = true;
	out->flush_foreign = true;

	balance_wb_limits(vm, gdtc, strictlimit, in->local_throttle);
	if (gdtc->freerun) {
		free_running(in, strictlimit, task, out);
		return;
	}
	sdtc = gdtc;
	if (mdtc) {
		balance_wb_limits(vm, mdtc, strictlimit, in->local_throttle);
		if (mdtc->freerun) {
			free_running(in, strictlimit, task, out);
			return;
		}
		if (mdtc->pos_ratio < gdtc->pos_ratio) {
			sdtc = mdtc;
			out->memcg_selected = true;
		}
	}

	wb->dirty_exceeded = gdtc->dirty_exceeded ||
			     (mdtc && mdtc->dirty_exceeded);
	out->dirty_exceeded = wb->dirty_exceeded;

	if (wbsim_wb_bandwidth_due(vm, wb, now)) {
		struct wbsim_wb_bw_input bwin = {
			.now = now,
			.dirtied = in->wb_dirtied,
			.written = in->wb_written,
			.has_dirty_io = in->wb_has_dirty_io,
		};

		wbsim_wb_update_bandwidth(vm, wb, gdtc, mdtc, true, &bwin,
					  &out->bw);
		out->bandwidth_updated = true;
	}

	/* throttle according to the chosen domain */
	dirty_ratelimit = wb->dirty_ratelimit;
	task_ratelimit = dirty_ratelimit * sdtc->pos_ratio >>
			 WBSIM_RATELIMIT_CALC_SHIFT;
	max_pause = (int64_t)wbsim_wb_max_pause(vm, wb, sdtc->wb_dirty);
	min_pause = wbsim_wb_min_pause(vm, wb, max_pause, task_ratelimit,
				       dirty_ratelimit, &nr_dirtied_pause);

	out->pos_ratio = sdtc->pos_ratio;
	out->dirty_ratelimit = dirty_ratelimit;
	out->task_ratelimit = task_ratelimit;
	out->max_pause = (uint64_t)max_pause;
	out->min_pause = min_pause;
	if (task->dirty_paused_when)
		out->think = (int64_t)(now - task->dirty_paused_when);

	if (task_ratelimit == 0) {
		period = max_pause;
		pause = max_pause;
		goto pause;
	}
	period = (int64_t)((uint64_t)hz * in->pages_dirtied / task_ratelimit);
	pause = period - out->think;
	/*
	 * Less than 1 s of think time (the fs may block the dirtier for a
	 * while) is compensated in future periods by advancing the virtual
	 * time; more is a light dirtier: reset.
	 */
	if (pause < min_pause) {
		trace_balance_dirty_pages(vm, in, task, sdtc, dirty_ratelimit,
					  task_ratelimit, period,
					  pause < 0 ? pause : 0, out);
		if (pause < -hz) {
			task->dirty_paused_when = now;
			task->nr_dirtied = 0;
		} else if (period) {
			task->dirty_paused_when += (uint64_t)period;
			task->nr_dirtied = 0;
		} else if (task->nr_dirtied_pause <= in->pages_dirtied) {
			task->nr_dirtied_pause += in->pages_dirtied;
		}
		out->period = period;
		out->pause = 0;
		out->nr_dirtied_pause = task->nr_dirtied_pause;
		return;
	}
	if (pause > max_pause) {
		/* for an occasional dropped task_ratelimit */
		now += (uint64_t)(pause - max_pause < max_pause ?
				  pause - max_pause : max_pause);
		pause = max_pause;
	}

pause:
	trace_balance_dirty_pages(vm, in, task, sdtc, dirty_ratelimit,
				  task_ratelimit, period, pause, out);
	out->period = period;
	/*
	 * BDP_ASYNC: -EAGAIN before the sleep and before the state a sleep
	 * resets, so the task's next call finds nr_dirtied still over its
	 * ratelimit and computes its pause again (less its think time).
	 */
	if (in->async) {
		out->pause = pause;
		out->eagain = true;
		return;
	}
	task->dirty_paused_when = now + (uint64_t)pause;
	task->nr_dirtied = 0;
	task->nr_dirtied_pause = nr_dirtied_pause;

	out->period = period;
	out->pause = pause;
	out->nr_dirtied_pause = nr_dirtied_pause;
	/*
	 * task_ratelimit > 0 is typically dirty < limit. Otherwise look
	 * again after the sleep, unless the wb is (nearly) empty: then let
	 * the flusher-dirtier pipe flow (an unresponsive device must not
	 * block tasks on good ones; wb_stat_error covers counter errors).
	 */
	out->repeat = task_ratelimit == 0 && sdtc->wb_dirty > vm->wb_stat_error;
}
