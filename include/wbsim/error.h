/* SPDX-License-Identifier: MIT */
/*
 * wbsim/error.h - the wbsim GError domain.
 *
 * Every library function that can fail on its input takes a GError ** as its
 * last argument and returns FALSE or NULL on failure. The library never
 * prints and never exits on behalf of its caller.
 */
#ifndef WBSIM_ERROR_H
#define WBSIM_ERROR_H

#include <glib.h>
#include <wbsim/macros.h>

WBSIM_BEGIN_DECLS

/**
 * WBSIM_ERROR - the error domain of every GError the library returns.
 */
#define WBSIM_ERROR (wbsim_error_quark())

/**
 * enum wbsim_error_code - codes in the WBSIM_ERROR domain
 * @WBSIM_ERROR_IO: a file could not be read (missing, unreadable)
 * @WBSIM_ERROR_PARSE: a line of a file is not valid syntax
 * @WBSIM_ERROR_UNKNOWN_KEY: a section or key that does not exist
 * @WBSIM_ERROR_INVALID_VALUE: a known key with a value of the wrong type,
 *                             unit or range
 * @WBSIM_ERROR_MISSING: a required section, key or file reference is absent
 * @WBSIM_ERROR_UNSUPPORTED: valid input that the simulator does not model
 *                           (for example an fio option with an effect on
 *                           writeback that is not modelled)
 * @WBSIM_ERROR_INVALID_ARGUMENT: a library call with a bad argument
 * @WBSIM_ERROR_SIMULATION: the simulation failed (an invariant broke under
 *                          --check, or a model reached an impossible state)
 */
enum wbsim_error_code {
	WBSIM_ERROR_IO = 1,
	WBSIM_ERROR_PARSE,
	WBSIM_ERROR_UNKNOWN_KEY,
	WBSIM_ERROR_INVALID_VALUE,
	WBSIM_ERROR_MISSING,
	WBSIM_ERROR_UNSUPPORTED,
	WBSIM_ERROR_INVALID_ARGUMENT,
	WBSIM_ERROR_SIMULATION,
};

/**
 * wbsim_error_quark() - the GQuark of the WBSIM_ERROR domain
 *
 * Thread safety: safe from any thread.
 * Return: the quark.
 */
WBSIM_API GQuark wbsim_error_quark(void);

WBSIM_END_DECLS

#endif /* WBSIM_ERROR_H */
