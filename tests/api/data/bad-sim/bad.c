/* SPDX-License-Identifier: MIT */
/* A program source that reaches past the public API, three ways: the
 * check-program-api test must refuse each (tests/api/meson.build). */
#include <glib.h>
#include <wbsim/wbsim.h>
#include "core/sim.h"
#include <run/run.h>
#include <wbsim/config.h>
