/* SPDX-License-Identifier: MIT */
/*
 * mm/throttle.h - the decision part of balance_dirty_pages()
 * (kernel: mm/page-writeback.c).
 */
#ifndef WBSIM_MM_THROTTLE_H
#define WBSIM_MM_THROTTLE_H

#include "mm/writeback-control.h"
#include "mm/bandwidth.h"
#include "defs/writeback-trace.h"

/**
 * struct wbsim_task_dirty - a dirtier's throttle state (task_struct part)
 * @nr_dirtied: pages newly dirtied since the last check
 * @nr_dirtied_pause: check again after this many pages (32 at fork)
 * @dirty_paused_when: virtual time (jiffies) the last pause ended; 0 =
 *	never (think time is then not credited)
 */
struct wbsim_task_dirty {
	uint64_t nr_dirtied;
	uint64_t nr_dirtied_pause;
	uint64_t dirty_paused_when;
};

/**
 * struct wbsim_cpu_dirty - per-CPU throttle counters
 * @bdp_ratelimits: pages dirtied on this CPU since the last reset
 * @dirty_throttle_leaks: unthrottled nr_dirtied of exited tasks
 */
struct wbsim_cpu_dirty {
	uint64_t bdp_ratelimits;
	uint64_t dirty_throttle_leaks;
};

/**
 * struct wbsim_bdp_input - the inputs of one balance_dirty_pages() pass
 * @gdtc: global domain: @avail, @dirty (NR_FILE_DIRTY + NR_WRITEBACK),
 *	@wb_reclaimable, @wb_writeback and the links filled by the caller
 * @mdtc: the dirtier wb's memcg domain filled likewise (@gdtc set), or
 *	NULL (root memcg, or no cgroup writeback)
 * @nr_dirty: global NR_FILE_DIRTY
 * @now: current jiffies
 * @start_time: jiffies when this balance_dirty_pages() call began (first
 *	pass), for the trace's "paused"
 * @pages_dirtied: nr_dirtied at entry; the same for every pass of a call
 * @rt_task: the task is RT or deadline class
 * @local_throttle: the task has PF_LOCAL_THROTTLE
 * @writeback_in_progress: the wb's flusher is running (WB_writeback_running)
 * @wb_dirtied: WB_DIRTIED of the wb (for a bandwidth update)
 * @wb_written: WB_WRITTEN of the wb
 * @wb_has_dirty_io: WB_has_dirty_io of the wb
 * @async: BDP_ASYNC (an IOCB_NOWAIT write): a pass that would sleep
 *	returns -EAGAIN instead, leaving the task's state as it was
 */
struct wbsim_bdp_input {
	struct wbsim_dtc *gdtc;
	struct wbsim_dtc *mdtc;
	uint64_t nr_dirty;
	uint64_t now;
	uint64_t start_time;
	uint64_t pages_dirtied;
	bool rt_task;
	bool local_throttle;
	bool writeback_in_progress;
	uint64_t wb_dirtied;
	uint64_t wb_written;
	bool wb_has_dirty_io;
	bool async;
};

/**
 * struct wbsim_bdp_result - the outcome of one pass
 * @freerun: below the freerun ceiling(s): no throttling, no sleep
 * @wake_flusher: call wb_start_background_writeback() (wake the wb's
 *	flusher now); already false when the flusher is running
 * @flush_foreign: the throttled path was reached: call
 *	mem_cgroup_flush_foreign(wb)
 * @dirty_exceeded: new value of the wb's dirty_exceeded (also stored)
 * @bandwidth_updated: __wb_update_bandwidth(G, M, true) ran in this pass
 * @bw: its trace fields and tot_write_bandwidth delta (apply the delta
 *	to the bdi) when @bandwidth_updated
 * @memcg_selected: the memcg domain had the lower pos_ratio and was used
 * @pos_ratio: pos_ratio of the selected domain, FP10
 * @dirty_ratelimit: wb dirty_ratelimit used, pages/s
 * @task_ratelimit: dirty_ratelimit * pos_ratio, pages/s
 * @max_pause: wb_max_pause(), jiffies
 * @min_pause: wb_min_pause(), jiffies
 * @period: jiffies the batch "should" take at task_ratelimit
 * @pause: jiffies to sleep now (0 = no sleep)
 * @think: jiffies since the task's last pause ended (now -
 *	dirty_paused_when, 0 if it never paused; negative while the
 *	virtual time runs ahead), as credited against @period
 * @nr_dirtied_pause: the task's new nr_dirtied_pause (also stored)
 * @repeat: after the sleep, call again (same @pages_dirtied and
 *	@start_time, new @now): task_ratelimit was 0 and wb_dirty is above
 *	wb_stat_error
 * @traced: the kernel would emit the balance_dirty_pages tracepoint
 * @trace: its fields
 * @eagain: @in->async and the pass would have slept @pause jiffies: the
 *	call returns -EAGAIN, nothing slept, the task's state unchanged
 */
struct wbsim_bdp_result {
	bool freerun;
	bool wake_flusher;
	bool flush_foreign;
	bool dirty_exceeded;
	bool bandwidth_updated;
	struct wbsim_wb_bw_update bw;
	bool memcg_selected;
	uint64_t pos_ratio;
	uint64_t dirty_ratelimit;
	uint64_t task_ratelimit;
	uint64_t max_pause;
	int64_t min_pause;
	int64_t period;
	int64_t pause;
	int64_t think;
	uint64_t nr_dirtied_pause;
	bool repeat;
	bool traced;
	struct wbsim_trace_rec_bdp trace;
	bool eagain;
};

void wbsim_task_dirty_init(struct wbsim_task_dirty *task);
void wbsim_task_account_dirtied(struct wbsim_task_dirty *task,
				struct wbsim_cpu_dirty *cpu, uint64_t nr);
void wbsim_task_dirty_exit(struct wbsim_task_dirty *task,
			   struct wbsim_cpu_dirty *cpu);
uint64_t wbsim_wb_max_pause(const struct wbsim_vm_dirty *vm,
			    const struct wbsim_wb_bw *wb, uint64_t wb_dirty);
int64_t wbsim_wb_min_pause(const struct wbsim_vm_dirty *vm,
			   const struct wbsim_wb_bw *wb, int64_t max_pause,
			   uint64_t task_ratelimit, uint64_t dirty_ratelimit,
			   uint64_t *nr_dirtied_pause);
bool wbsim_balance_dirty_pages_ratelimited(const struct wbsim_vm_dirty *vm,
					   struct wbsim_task_dirty *task,
					   struct wbsim_cpu_dirty *cpu,
					   bool wb_dirty_exceeded);
void wbsim_balance_dirty_pages(const struct wbsim_vm_dirty *vm,
			       const struct wbsim_bdp_input *in,
			       struct wbsim_task_dirty *task,
			       struct wbsim_bdp_result *out);

#endif /* WBSIM_MM_THROTTLE_H */
