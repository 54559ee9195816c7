/* SPDX-License-Identifier: MIT */
/*
 * mm/position-ratio.h - the dirty position control lines
 * (kernel: mm/page-writeback.c, pos_ratio_polynom(), wb_position_ratio()).
 */
#ifndef WBSIM_MM_POSITION_RATIO_H
#define WBSIM_MM_POSITION_RATIO_H

#include "mm/writeback-control.h"

int64_t wbsim_pos_ratio_polynom(uint64_t setpoint, uint64_t dirty,
				uint64_t limit);
void wbsim_wb_position_ratio(struct wbsim_dtc *dtc);

#endif /* WBSIM_MM_POSITION_RATIO_H */
