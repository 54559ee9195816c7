/* SPDX-License-Identifier: MIT */
/*
 * prog-fail.h - the error message of sim-writeback and sim-writeback-mpi:
 * "PROGRAM: message" on standard error (sim/prog-fail.c).
 */
#ifndef WBSIM_SIM_PROG_FAIL_H
#define WBSIM_SIM_PROG_FAIL_H

#include <glib.h>

/**
 * prog_fail() - print "@prog: " and the message on standard error
 * @prog: the program's name
 * @status: returned as is
 * @fmt: printf format of the message (no newline)
 *
 * Return: @status, so that `return prog_fail(PROG, 2, ...)` exits with it.
 */
int prog_fail(const char *prog, int status, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/**
 * prog_option_words() - say the library's parameter at the start of @e's
 * message as the program's option that set it
 * @e: an error from libwbsim (NULL is fine)
 *
 * The library's messages name its own parameters ("wbsim_sweep_opts.results
 * FILE: ...", "trace event list ...", "wbsim_sweep_opts.format ...",
 * "override: ..." and "wbsim_sweep_opts.sweeps: ..." where a file would be
 * named, also after a sweep point's "sweep point N/M (...): "); the user
 * gave an option ("--results FILE: ...", "--set: ...", "--sweep: ...").
 */
void prog_option_words(GError *e);

#endif
