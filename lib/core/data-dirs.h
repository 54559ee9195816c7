/* SPDX-License-Identifier: MIT */
/*
 * core/data-dirs.h - the data files the library finds by name: device
 * presets ([device] preset = NAME) and scenarios (wbsim_scenario_find()).
 * Both are searched the same way, in these folders in order:
 *
 *   1. the kind's environment variable (':'-separated folders);
 *   2. for a program or library in the build tree, the source tree's
 *      folder; else the folder installed beside the program
 *      (BINDIR/../DATADIR/...): an install in any prefix, relocated or
 *      staged with DESTDIR, reads its own files;
 *   3. the folder installed beside the shared library (LIBDIR/../DATADIR/
 *      ...): a program of one's own, anywhere, linked to an installed
 *      libwbsim reads that install's files;
 *   4. the configured PREFIX/DATADIR/...;
 *   5. the source tree's folder last, outside the build tree (a program
 *      linked to an uninstalled build).
 *
 * Only regular files match (a folder of the same name is passed over); a
 * FIFO, device or socket of that name is refused, never opened.
 */
#ifndef WBSIM_CORE_DATA_DIRS_H
#define WBSIM_CORE_DATA_DIRS_H

#include <glib.h>

/**
 * struct wbsim_data_kind - a kind of data file found by name
 * @what: its name in messages ("device preset", "scenario")
 * @env: the environment variable of folders searched first
 * @source: its folder in the source tree, relative to the root
 * @subdir: its installed folder, relative to DATADIR
 */
struct wbsim_data_kind {
	const char *what;
	const char *env;
	const char *source;
	const char *subdir;
};

/* lib/block/presets, installed as DATADIR/wbsim/presets */
extern const struct wbsim_data_kind wbsim_data_presets;
/* scenarios/, installed as DATADIR/wbsim/scenarios */
extern const struct wbsim_data_kind wbsim_data_scenarios;

/*
 * wbsim_data_dirs() - the folders @kind is searched in, in order, each
 * once (a new NULL-terminated array).
 */
char **wbsim_data_dirs(const struct wbsim_data_kind *kind);

/**
 * wbsim_data_find() - the first regular file @file in @kind's folders
 * @kind: the kind
 * @file: the file's name ("NAME.ini")
 * @path: the file found (g_free() it), or NULL when no folder has it
 * @error: WBSIM_ERROR_IO "DIR/FILE: not a regular file (a FIFO): expected
 *	a KIND file" when the first folder holding @file holds something
 *	other than a regular file or a folder
 *
 * Return: FALSE with @error set on such a file; TRUE otherwise, found or not.
 */
gboolean wbsim_data_find(const struct wbsim_data_kind *kind, const char *file,
			 char **path, GError **error);

/*
 * wbsim_data_names() - NAME of every regular file NAME.ini in @kind's
 * folders, sorted, each once (a new NULL-terminated array).
 */
char **wbsim_data_names(const struct wbsim_data_kind *kind);

#endif /* WBSIM_CORE_DATA_DIRS_H */
