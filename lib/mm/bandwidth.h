/* SPDX-License-Identifier: MIT */
/*
 * mm/bandwidth.h - write bandwidth estimation and the base dirty rate
 * (kernel: mm/page-writeback.c, mm/backing-dev.c).
 */
#ifndef WBSIM_MM_BANDWIDTH_H
#define WBSIM_MM_BANDWIDTH_H

#include "mm/writeback-control.h"
#include "defs/writeback-trace.h"

/**
 * struct wbsim_wb_bw_input - the wb counters read by a bandwidth update
 * @now: current jiffies
 * @dirtied: WB_DIRTIED (pages ever dirtied on the wb)
 * @written: WB_WRITTEN (pages ever completed on the wb)
 * @has_dirty_io: WB_has_dirty_io (the wb counts in tot_write_bandwidth)
 */
struct wbsim_wb_bw_input {
	uint64_t now;
	uint64_t dirtied;
	uint64_t written;
	bool has_dirty_io;
};

/**
 * struct wbsim_wb_bw_update - what one bandwidth update did
 * @nr_traces: number of wb_update_dirty_ratelimit() runs (0, 1 or 2)
 * @trace: their bdi_dirty_ratelimit trace fields (global, then memcg)
 * @tot_write_bandwidth_delta: add this to bdi tot_write_bandwidth
 */
struct wbsim_wb_bw_update {
	unsigned int nr_traces;
	struct wbsim_trace_rec_ratelimit trace[2];
	int64_t tot_write_bandwidth_delta;
};

void wbsim_wb_bw_init(struct wbsim_wb_bw *wb, uint64_t now);
int64_t wbsim_wb_update_write_bandwidth(const struct wbsim_vm_dirty *vm,
					struct wbsim_wb_bw *wb,
					uint64_t elapsed, uint64_t written,
					bool has_dirty_io);
void wbsim_wb_update_dirty_ratelimit(const struct wbsim_vm_dirty *vm,
				     struct wbsim_dtc *dtc, uint64_t dirtied,
				     uint64_t elapsed,
				     struct wbsim_trace_rec_ratelimit *trace);
void wbsim_wb_update_bandwidth(const struct wbsim_vm_dirty *vm,
			       struct wbsim_wb_bw *wb, struct wbsim_dtc *gdtc,
			       struct wbsim_dtc *mdtc, bool update_ratelimit,
			       const struct wbsim_wb_bw_input *in,
			       struct wbsim_wb_bw_update *out);
bool wbsim_wb_bandwidth_due(const struct wbsim_vm_dirty *vm,
			    const struct wbsim_wb_bw *wb, uint64_t now);
bool wbsim_wb_bandwidth_estimate_start(const struct wbsim_vm_dirty *vm,
				       struct wbsim_wb_bw *wb,
				       uint64_t writeback_inodes,
				       const struct wbsim_wb_bw_input *in);
int64_t wbsim_wb_split_bdi_pages(int64_t nr_pages, uint64_t this_bw,
				 uint64_t tot_bw);

#endif /* WBSIM_MM_BANDWIDTH_H */
