/* SPDX-License-Identifier: MIT */
/*
 * core/param.h - parameter values with units (param.c): sizes, times,
 * rates, counts, booleans, numbers, strings (enum wbsim_param_type), as the
 * device presets and the CPU cost table write them.
 */
#ifndef WBSIM_CORE_PARAM_H
#define WBSIM_CORE_PARAM_H

#include <wbsim/device.h>

/*
 * wbsim_param_parse_value() - parse @text as a @type value into @out (a
 * uint64_t, gboolean, double or char * per the type). On failure sets
 * @expected to a description of what was expected and returns FALSE.
 */
gboolean wbsim_param_parse_value(enum wbsim_param_type type, const char *text,
				 void *out, const char **expected);
/* wbsim_param_as_double() - the value at @field as a double (ranges). */
double wbsim_param_as_double(enum wbsim_param_type type, const void *field);
/* wbsim_param_format_value() - the value at @field as text, with its unit. */
char *wbsim_param_format_value(enum wbsim_param_type type, const void *field);
/* wbsim_param_where() - "FILE:LINE: " or "FILE: " or "" for messages. */
char *wbsim_param_where(const char *file, unsigned int line);

#endif
