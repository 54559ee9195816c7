/* SPDX-License-Identifier: MIT */
/*
 * mm/dirty-limits.h - dirty thresholds of a domain and a wb's share of them
 * (kernel: mm/page-writeback.c, global_dirtyable_memory() ..
 * wb_over_bg_thresh()).
 */
#ifndef WBSIM_MM_DIRTY_LIMITS_H
#define WBSIM_MM_DIRTY_LIMITS_H

#include "mm/writeback-control.h"

void wbsim_vm_dirty_init(struct wbsim_vm_dirty *vm, unsigned int hz,
			 unsigned int nr_cpus);
uint64_t wbsim_wb_stat_error(unsigned int nr_cpus);
uint64_t wbsim_global_dirtyable_memory(uint64_t nr_free, uint64_t nr_file_lru,
				       uint64_t totalreserve);
void wbsim_domain_dirty_limits(const struct wbsim_vm_dirty *vm,
			       struct wbsim_dtc *dtc, bool rt_task);
uint64_t wbsim_dirty_freerun_ceiling(uint64_t thresh, uint64_t bg_thresh);
uint64_t wbsim_hard_dirty_limit(const struct wbsim_wb_domain *dom,
				uint64_t thresh);
uint64_t wbsim_dirty_setpoint(const struct wbsim_dtc *dtc);
void wbsim_domain_update_dirty_limit(const struct wbsim_vm_dirty *vm,
				     struct wbsim_dtc *dtc, uint64_t now);
uint64_t wbsim_wb_calc_thresh(const struct wbsim_vm_dirty *vm,
			      struct wbsim_dtc *dtc, uint64_t thresh);
void wbsim_wb_dirty_limits(const struct wbsim_vm_dirty *vm,
			   struct wbsim_dtc *dtc);
bool wbsim_wb_over_bg_thresh(const struct wbsim_vm_dirty *vm,
			     struct wbsim_dtc *gdtc, struct wbsim_dtc *mdtc,
			     uint64_t wb_reclaimable);
uint64_t wbsim_dirty_poll_interval(uint64_t dirty, uint64_t thresh);
void wbsim_writeback_set_ratelimit(struct wbsim_vm_dirty *vm,
				   struct wbsim_wb_domain *gdom,
				   uint64_t avail);

#endif /* WBSIM_MM_DIRTY_LIMITS_H */
