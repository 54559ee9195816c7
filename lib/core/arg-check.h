/* SPDX-License-Identifier: MIT */
/*
 * core/arg-check.h - argument checks for public entry points that take a
 * GError **: a bad argument is a WBSIM_ERROR_INVALID_ARGUMENT naming the
 * function and the broken condition, never a g_critical() (which is not a
 * GError, and aborts under G_DEBUG=fatal-criticals) nor a crash.
 */
#ifndef WBSIM_CORE_ARG_CHECK_H
#define WBSIM_CORE_ARG_CHECK_H

#include <glib.h>
#include <wbsim/error.h>

/**
 * wbsim_check_arg() - return @val with @error set unless @expr holds
 * @expr: the condition the arguments must meet ("path != NULL")
 * @val: what the function returns on failure (FALSE, NULL, ...)
 * @error: the function's GError ** (may be NULL)
 */
#define wbsim_check_arg(expr, val, error)					\
	do {									\
		if (G_UNLIKELY(!(expr))) {					\
			g_set_error((error), WBSIM_ERROR,			\
				    WBSIM_ERROR_INVALID_ARGUMENT,		\
				    "%s: invalid argument: expected %s",	\
				    G_STRFUNC, #expr);				\
			return (val);						\
		}								\
	} while (0)

#endif /* WBSIM_CORE_ARG_CHECK_H */
