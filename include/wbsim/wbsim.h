/* SPDX-License-Identifier: MIT */
/*
 * wbsim/wbsim.h - the umbrella header: includes every public header.
 *
 * The program API (run scenarios, read results): scenario.h, run.h,
 * result.h, report.h, sweep.h, with error.h and version.h.
 * The plug-in API (a model of one's own, registered by name):
 * affinity.h, device.h, fs.h, their parameter tables param.h, and what
 * such a model runs on and sees: sim.h, block.h, cpu-costs.h.
 */
#ifndef WBSIM_WBSIM_H
#define WBSIM_WBSIM_H

#include <wbsim/macros.h>
#include <wbsim/version.h>
#include <wbsim/error.h>
#include <wbsim/sim.h>
#include <wbsim/param.h>
#include <wbsim/cpu-costs.h>
#include <wbsim/block.h>
#include <wbsim/device.h>
#include <wbsim/scenario.h>
#include <wbsim/fs.h>
#include <wbsim/affinity.h>
#include <wbsim/result.h>
#include <wbsim/run.h>
#include <wbsim/report.h>
#include <wbsim/sweep.h>

#endif
