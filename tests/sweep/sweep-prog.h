/* SPDX-License-Identifier: MIT */
/*
 * sweep-prog.h - helpers of the sweep tests that run the built programs
 * (sim-writeback, sim-writeback-mpi under mpirun).
 */
#ifndef WBSIM_TESTS_SWEEP_PROG_H
#define WBSIM_TESTS_SWEEP_PROG_H

#include <stdarg.h>
#include <glib.h>

/* A finished program: its exit status and what it printed. */
struct prog {
	int status;
	char *out;
	char *err;
};

/* tmpdir_remove() - remove the temporary directory @dir, its files, and free @dir. */
void tmpdir_remove(char *dir);

/* prog_spawn() - run @argv (NULL-terminated) in the source root, to its end. */
struct prog prog_spawn(const char *const *argv);

/* prog_spawn_in() - prog_spawn() in the folder @cwd. */
struct prog prog_spawn_in(const char *cwd, const char *const *argv);

/*
 * prog_run_valist() - the built sim-writeback in @cwd with the arguments
 * @arg and then @ap's, up to a NULL.
 */
struct prog prog_run_valist(const char *cwd, const char *arg, va_list ap);

/* prog_clear() - free what @r holds. */
void prog_clear(struct prog *r);

/* built_program() - build/sim/@name (a new string). */
char *built_program(const char *name);

/* read_text() - the contents of @path (a new string; fails the test if unreadable). */
char *read_text(const char *path);

/* count_lines() - '\n' in @text. */
unsigned int count_lines(const char *text);

/*
 * cut_results() - keep the first @keep lines of the results file @path,
 * then half of the next line without its newline, as a run killed while
 * writing it leaves the file.
 */
void cut_results(const char *path, unsigned int keep);

#endif
