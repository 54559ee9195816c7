/* SPDX-License-Identifier: MIT */
/* run/api-private.h - what run-api.c and result.c share. */
#ifndef WBSIM_API_PRIVATE_H
#define WBSIM_API_PRIVATE_H

#include <wbsim/result.h>
#include "report/results.h"

/* struct wbsim_result - the public handle over the internal results. */
struct wbsim_result {
	struct wbsim_run_result *r;
};

/* Take ownership of @rr in a new public handle. */
wbsim_result *wbsim_result_wrap(struct wbsim_run_result *rr);

#endif
