/* SPDX-License-Identifier: MIT */
/*
 * core/spool.h - what a run writes only at its end, kept on disk while it
 * runs, so that memory holds a few numbers per stream however long the run:
 * the ring-buffer pages of each CPU of a trace.dat (whose header, written
 * first, needs the pid table and every CPU's size), the rows of an fio log
 * with per_job_logs=0 (which fio appends to the shared file at the job's
 * end).
 *
 * One spool is one temporary file, unlinked as soon as it is made (nothing
 * is left behind, whatever ends the program) and so one descriptor
 * whatever the number of streams. A stream is a chain of chunks in it,
 * each chunk a header (the offset of the next chunk, the length) and its
 * bytes; a chunk is appended at the file's end and the chain's last chunk
 * then points to it. trace-cmd record does the same with a file per CPU
 * (trace.dat.cpuN beside the output), joined at the end.
 */
#ifndef WBSIM_CORE_SPOOL_H
#define WBSIM_CORE_SPOOL_H

#include <stdint.h>
#include <glib.h>

struct wbsim_spool;

/**
 * struct wbsim_spool_chain - one stream in a spool; zero it to start
 * @first: offset of its first chunk, 0 while it has none
 * @last: offset of its last chunk
 * @bytes: the stream's bytes (chunk headers not counted)
 */
struct wbsim_spool_chain {
	uint64_t first;
	uint64_t last;
	uint64_t bytes;
};

/**
 * wbsim_spool_new() - a spool: a temporary file in @dir, unlinked at once
 * @dir: the directory (NULL: g_get_tmp_dir())
 * @error: WBSIM_ERROR_IO naming @dir when no file can be made there
 *
 * Return: the spool (wbsim_spool_free()), or NULL with @error set.
 */
struct wbsim_spool *wbsim_spool_new(const char *dir, GError **error);
void wbsim_spool_free(struct wbsim_spool *sp);

/* The directory the spool's file was made in. */
const char *wbsim_spool_dir(const struct wbsim_spool *sp);

/**
 * wbsim_spool_append() - append @n bytes at @data to the stream @c, as one chunk
 *
 * A write that fails (a full disk) is kept as the spool's error
 * (wbsim_spool_errno()); the spool then takes nothing more.
 * Return: FALSE if the bytes were not kept.
 */
gboolean wbsim_spool_append(struct wbsim_spool *sp, struct wbsim_spool_chain *c,
			    const void *data, size_t n);

/* errno of the first write that failed, or 0. */
int wbsim_spool_errno(const struct wbsim_spool *sp);

/*
 * wbsim_spool_read_fn - one chunk of a stream, in order: @n bytes at
 * @data, followed by a '\0' (text can be used as a string); FALSE stops
 * the reading.
 */
typedef gboolean (*wbsim_spool_read_fn)(const void *data, size_t n, void *arg);

/**
 * wbsim_spool_read() - hand the chunks of @c to @fn, in the order appended
 *
 * Only reads (several threads may read one spool at once); memory holds
 * one chunk at a time.
 * Return: 0, an errno if reading the file failed, or -1 if @fn stopped.
 */
int wbsim_spool_read(const struct wbsim_spool *sp, const struct wbsim_spool_chain *c,
		     wbsim_spool_read_fn fn, void *arg);

/**
 * wbsim_spool_drain() - wbsim_spool_read(), then the chunks' disk space is
 * given back (a hole punched where the file system can) and @c is empty;
 * a failed read is also kept as the spool's error
 */
int wbsim_spool_drain(struct wbsim_spool *sp, struct wbsim_spool_chain *c,
		      wbsim_spool_read_fn fn, void *arg);

#endif
