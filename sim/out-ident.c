/* SPDX-License-Identifier: MIT */
/*
 * out-ident.c - the file an output path names (sim/out-ident.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <wbsim/wbsim.h>
#include "out-ident.h"

/* Symlinks followed to a file not yet made, at most (the kernel's 40). */
#define OUT_IDENT_MAX_LINKS 40

/*
 * @path does not exist: the file a write through it would make, as the
 * canonical path of its directory plus its name; a dangling symlink is
 * followed to where it points. NULL when the directory does not resolve
 * (opening the path fails then, with its own message).
 */
static char *canon_new_file(const char *path)
{
	g_autofree char *cur = g_strdup(path);

	for (int i = 0; i <= OUT_IDENT_MAX_LINKS; i++) {
		g_autofree char *dir = g_path_get_dirname(cur);
		g_autofree char *base = g_path_get_basename(cur);
		g_autofree char *target = NULL;
		char *real;
		struct stat st;

		if (lstat(cur, &st) == 0 && S_ISLNK(st.st_mode) &&
		    (target = g_file_read_link(cur, NULL))) {
			char *next = g_path_is_absolute(target) ? g_strdup(target)
					: g_build_filename(dir, target, NULL);

			g_free(cur);
			cur = next;
			continue;
		}
		if (!strcmp(base, ".") || !strcmp(base, "..") || !strcmp(base, G_DIR_SEPARATOR_S))
			return NULL;
		real = realpath(dir, NULL);
		if (!real)
			return NULL;
		{
			char *canon = g_build_filename(real, base, NULL);

			free(real);
			return canon;
		}
	}
	return NULL;
}

void out_ident_init(struct out_ident *id, const char *opt, const char *path)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	id->opt = opt;
	id->path = path;
	if (!path || !*path)
		return;
	if (stat(path, &st) == 0) {
		if (S_ISREG(st.st_mode)) {
			id->kind = 1;
			id->dev = st.st_dev;
			id->ino = st.st_ino;
		}
		return;
	}
	if (errno == ENOENT && (id->canon = canon_new_file(path)))
		id->kind = 2;
}

void out_ident_clear(struct out_ident *id)
{
	g_clear_pointer(&id->canon, g_free);
	id->kind = 0;
}

gboolean out_ident_same(const struct out_ident *a, const struct out_ident *b)
{
	if (!a->kind || a->kind != b->kind)
		return FALSE;
	if (a->kind == 1)
		return a->dev == b->dev && a->ino == b->ino;
	return strcmp(a->canon, b->canon) == 0;
}

gboolean out_idents_check(const struct out_ident *ids, size_t n, GError **error)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			if (!ids[i].path || !ids[j].path || !out_ident_same(&ids[i], &ids[j]))
				continue;
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
				    "%s %s and %s %s: the same file: expected two files (one would overwrite the other)",
				    ids[i].opt, ids[i].path, ids[j].opt, ids[j].path);
			return FALSE;
		}
	}
	return TRUE;
}
