/* SPDX-License-Identifier: MIT */
/*
 * out-ident.h - which file an output path names, so that one file named
 * twice among a program's outputs (--output, --trace, --series, --results,
 * the jobs' fio logs) is refused before either writes it (sim/out-ident.c).
 *
 * Identity, not name: an existing file is its device and inode (a hard
 * link, a symlink, "./x" and "x" are one file); a file not yet made is the
 * canonical absolute path of its directory plus its name (a symlinked
 * directory, "./x" and "x" match). Only regular files and files still to
 * be made count: a device or a FIFO (/dev/null, /dev/stdout on a terminal)
 * may be named by several outputs.
 */
#ifndef WBSIM_SIM_OUT_IDENT_H
#define WBSIM_SIM_OUT_IDENT_H

#include <sys/types.h>
#include <glib.h>

/**
 * struct out_ident - an output option and the file it names
 * @opt: the option or key ("--output")
 * @path: its value, as given
 * @kind: 0: unknown or not a regular file (never the same as another);
 *	1: an existing regular file (@dev, @ino); 2: a file to be made (@canon)
 * @dev: the existing file's device
 * @ino: the existing file's inode
 * @canon: the file to be made: its directory's canonical path and its name
 */
struct out_ident {
	const char *opt;
	const char *path;
	int kind;
	dev_t dev;
	ino_t ino;
	char *canon;
};

/* out_ident_init() - what @path (the value of @opt, or NULL) names now */
void out_ident_init(struct out_ident *id, const char *opt, const char *path);

/* out_ident_clear() - free what @id holds */
void out_ident_clear(struct out_ident *id);

/* out_ident_same() - whether @a and @b are one file */
gboolean out_ident_same(const struct out_ident *a, const struct out_ident *b);

/**
 * out_idents_check() - refuse one file named twice
 * @ids: @n identities (those with a NULL path are skipped)
 * @n: how many
 * @error: WBSIM_ERROR_INVALID_ARGUMENT "OPT PATH and OPT2 PATH2: the same
 *	file: expected two files (one would overwrite the other)"
 *
 * Return: TRUE when no two of @ids are one file.
 */
gboolean out_idents_check(const struct out_ident *ids, size_t n, GError **error);

#endif /* WBSIM_SIM_OUT_IDENT_H */
