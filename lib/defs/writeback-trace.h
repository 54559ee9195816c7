/* SPDX-License-Identifier: MIT */
/*
 * defs/writeback-trace.h - the writeback tracepoints that lib/mm and
 * lib/fs emit and lib/report formats (kernel:
 * include/trace/events/writeback.h): the event numbers, the fields mm's
 * algorithms fill for bdi_dirty_ratelimit and balance_dirty_pages, and
 * the emitting calls (report/trace.c). A neutral header: it includes no
 * folder of lib/, so the model emits without including the report and
 * the report reads the model's records without including mm.
 */
#ifndef WBSIM_DEFS_WRITEBACK_TRACE_H
#define WBSIM_DEFS_WRITEBACK_TRACE_H

#include <stdint.h>
#include <wbsim/sim.h>

struct wbsim_bdi;
struct wbsim_wb;
struct wbsim_wb_work;

/* enum wbsim_trace_event - index into wbsim_trace_event_names */
enum wbsim_trace_event {
	WBSIM_TRACE_WRITEBACK_QUEUE,
	WBSIM_TRACE_WRITEBACK_EXEC,
	WBSIM_TRACE_WRITEBACK_START,
	WBSIM_TRACE_WRITEBACK_WRITTEN,
	WBSIM_TRACE_WRITEBACK_QUEUE_IO,
	WBSIM_TRACE_WRITEBACK_WAKE_BACKGROUND,
	WBSIM_TRACE_BDI_DIRTY_RATELIMIT,
	WBSIM_TRACE_BALANCE_DIRTY_PAGES,
	WBSIM_TRACE_GLOBAL_DIRTY_STATE,
	WBSIM_TRACE_NR_EVENTS,
};

/**
 * struct wbsim_bdi_dirty_ratelimit_trace - fields of the kernel's
 *	bdi_dirty_ratelimit tracepoint, in its units (KB/s)
 * @write_bw: wb write_bandwidth (before this round's update)
 * @avg_write_bw: wb avg_write_bandwidth (printed as awrite_bw)
 * @dirty_rate: dirtying rate over the last interval
 * @dirty_ratelimit: the new dirty_ratelimit
 * @task_ratelimit: dirty_ratelimit * pos_ratio + 1 page/s
 * @balanced_dirty_ratelimit: the new balanced rate
 */
struct wbsim_bdi_dirty_ratelimit_trace {
	uint64_t write_bw;
	uint64_t avg_write_bw;
	uint64_t dirty_rate;
	uint64_t dirty_ratelimit;
	uint64_t task_ratelimit;
	uint64_t balanced_dirty_ratelimit;
};

/**
 * struct wbsim_bdp_trace - fields of the balance_dirty_pages tracepoint,
 *	in its units
 * @limit: hard dirty limit, pages
 * @setpoint: (limit + freerun) / 2, pages
 * @dirty: domain dirty pages
 * @wb_setpoint: setpoint * wb_thresh / (thresh + 1), pages
 * @wb_dirty: wb dirty pages
 * @dirty_ratelimit: KB/s
 * @task_ratelimit: KB/s
 * @dirtied: pages_dirtied
 * @dirtied_pause: the task's nr_dirtied_pause before this pass
 * @paused: ms since the call began
 * @pause: ms of this sleep (<= 0 when not sleeping)
 * @period: ms
 * @think: ms since the last pause ended (0 if never paused)
 */
struct wbsim_bdp_trace {
	uint64_t limit;
	uint64_t setpoint;
	uint64_t dirty;
	uint64_t wb_setpoint;
	uint64_t wb_dirty;
	uint64_t dirty_ratelimit;
	uint64_t task_ratelimit;
	uint64_t dirtied;
	uint64_t dirtied_pause;
	uint64_t paused;
	int64_t pause;
	uint64_t period;
	int64_t think;
};

/* @ev: writeback_queue, _exec, _start or _written (writeback_work_class) */
void wbsim_trace_writeback_work(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				enum wbsim_trace_event ev);
void wbsim_trace_writeback_queue_io(struct wbsim_wb *wb, const struct wbsim_wb_work *work,
				    int64_t cutoff, uint64_t moved);
/* the next two are emitted from balance_dirty_pages(): in @task's context */
void wbsim_trace_writeback_wake_background(struct wbsim_wb *wb, const wbsim_task *task);
void wbsim_trace_bdi_dirty_ratelimit(struct wbsim_wb *wb, const wbsim_task *task,
				     const struct wbsim_bdi_dirty_ratelimit_trace *t);
void wbsim_trace_balance_dirty_pages(struct wbsim_wb *wb, const wbsim_task *task,
				     const struct wbsim_bdp_trace *t);
void wbsim_trace_global_dirty_state(struct wbsim_bdi *bdi, const wbsim_task *task,
				    uint64_t bg_thresh, uint64_t thresh);

#endif /* WBSIM_DEFS_WRITEBACK_TRACE_H */
