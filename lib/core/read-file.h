/* SPDX-License-Identifier: MIT */
/*
 * core/read-file.h - read an input file whole, bounded: the one way the
 * library reads scenario files, fio job files, presets and --results files;
 * or only its head.
 *
 * g_file_get_contents() reads whatever the path names until its end: a
 * FIFO without a writer blocks forever, /dev/zero grows without bound. This
 * reads regular files only, and at most a given size.
 */
#ifndef WBSIM_CORE_READ_FILE_H
#define WBSIM_CORE_READ_FILE_H

#include <glib.h>

/* The largest scenario, fio job or preset file read (text a person writes). */
#define WBSIM_TEXT_FILE_MAX ((gsize)64 << 20)

/**
 * wbsim_read_file() - g_file_get_contents() for regular files of at most @max bytes
 * @path: the file
 * @max: its largest accepted size in bytes
 * @contents: the bytes read, NUL-terminated (g_free())
 * @length: (optional) their number
 * @error: in G_FILE_ERROR: an open or read failure with GLib's message
 *	   ("Failed to open file “PATH”: REASON"); G_FILE_ERROR_ISDIR for a
 *	   directory, G_FILE_ERROR_INVAL for anything else that is not a
 *	   regular file (FIFO, device, socket: never read, so never waited
 *	   on), G_FILE_ERROR_FAILED for a file larger than @max; these three
 *	   messages give only the reason ("not a regular file (a FIFO):
 *	   expected a regular file"), the caller names the file
 *
 * Return: TRUE on success.
 */
gboolean wbsim_read_file(const char *path, gsize max, char **contents,
			 gsize *length, GError **error);

/**
 * wbsim_read_file_head() - the first @max bytes of a regular file
 * @path: the file
 * @max: how many bytes at most are read (the rest of the file is not)
 * @contents: the bytes read, NUL-terminated (g_free())
 * @length: (optional) their number
 * @error: as wbsim_read_file(), without its size limit
 *
 * For what only the start of a file tells (a scenario's description in
 * --list-scenarios): memory and time bounded whatever the file's size.
 *
 * Return: TRUE on success.
 */
gboolean wbsim_read_file_head(const char *path, gsize max, char **contents,
			      gsize *length, GError **error);

/**
 * wbsim_read_file_error() - @local as a WBSIM_ERROR_IO in @error
 * @error: (optional) the caller's error
 * @path: the file @local is about
 * @local: an error of wbsim_read_file()
 *
 * GLib's own messages name the file already; the reason-only ones are
 * prefixed "PATH: ".
 */
void wbsim_read_file_error(GError **error, const char *path, const GError *local);

/* "a FIFO", "a character device", ... : what a non-regular st_mode is. */
const char *wbsim_file_kind(unsigned int st_mode);

#endif /* WBSIM_CORE_READ_FILE_H */
