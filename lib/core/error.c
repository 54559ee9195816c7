/* SPDX-License-Identifier: MIT */
/* error.c - the WBSIM_ERROR domain. */
#include <wbsim/error.h>

G_DEFINE_QUARK(wbsim-error-quark, wbsim_error)
