/* SPDX-License-Identifier: MIT */
/*
 * report/trace-dat.h - trace-cmd's trace.dat file (version 6, as
 * trace-cmd.dat.v6(5) describes it) holding simulated tracepoint records,
 * so that trace-cmd report and KernelShark read a simulated trace as they
 * read a recorded one.
 *
 * The records go, per CPU, into ring-buffer pages as the kernel fills them
 * (a page header with the time stamp and the bytes committed, events with
 * a 5-bit type_len and a 27-bit time delta, a time extend where a delta
 * does not fit). The file is written at the end, the headers that say how
 * to read the pages first: header_page, header_event, the events' format
 * files (report/trace-format.h), the pid -> comm table, each CPU's offset
 * and size. Until then the filled pages wait in a spool (core/spool.h: a
 * temporary file), a few per CPU in memory: memory holds the tasks' names
 * and those pages, whatever the run's length.
 */
#ifndef WBSIM_REPORT_TRACE_DAT_H
#define WBSIM_REPORT_TRACE_DAT_H

#include <stdio.h>
#include <stdint.h>
#include <glib.h>

/* The page size of the ring buffer written (and of the header_page given). */
#define WBSIM_TRACE_DAT_PAGE_SIZE 4096u

struct wbsim_trace_dat;

/*
 * wbsim_trace_dat_new() - an empty trace for a machine of @nr_cpus CPUs
 * (how many pages each may hold in memory) and a kernel of @hz jiffies a
 * second (CONFIG_HZ, in the format files), its pages spooled in @dir
 * (NULL: g_get_tmp_dir()).
 * Return: the trace, or NULL with WBSIM_ERROR_IO when no temporary file
 * can be made in @dir.
 */
struct wbsim_trace_dat *wbsim_trace_dat_new(unsigned int nr_cpus, unsigned int hz,
					    const char *dir, GError **error);
void wbsim_trace_dat_free(struct wbsim_trace_dat *dat);

/*
 * wbsim_trace_dat_add() - add one event record on @cpu at @ts_ns (not
 * earlier than the last one on @cpu), emitted by @pid named @comm (for the
 * cmdlines table: the first name a pid is given is kept; pid 0 is the idle
 * task and is not listed). @rec starts with struct wbsim_trace_entry.
 */
void wbsim_trace_dat_add(struct wbsim_trace_dat *dat, uint64_t ts_ns, unsigned int cpu,
			 unsigned int pid, const char *comm, const void *rec, size_t size);

/*
 * wbsim_trace_dat_write() - write the whole file to @f for a machine of
 * @nr_cpus CPUs (at least the highest CPU an event was added on, plus one),
 * with the format files of @events only (names as wbsim_trace_event_names;
 * NULL: every event), as trace-cmd record -e stores the selected events'.
 * Only reads @dat: it may be written again.
 * Return: FALSE with WBSIM_ERROR_IO naming @path if writing failed (or
 * spooling the pages did, during the run).
 */
gboolean wbsim_trace_dat_write(const struct wbsim_trace_dat *dat, FILE *f, const char *path,
			       unsigned int nr_cpus, const char *const *events, GError **error);

#endif
