/* SPDX-License-Identifier: MIT */
/*
 * trace-dat-read.h - a small reader of trace-cmd's trace.dat, version 6
 * (trace-cmd.dat.v6(5)), for the tests: the header's sections in their
 * order, the format files' event IDs, the pid -> comm table, each CPU's
 * data section, and every event of each CPU's ring-buffer pages with its
 * time stamp (page time plus the deltas and time extends). It checks the
 * layout as it goes and says what is wrong, so that a test reads back a
 * file without trace-cmd (which it may also run where installed).
 */
#ifndef WBSIM_TESTS_TRACE_DAT_READ_H
#define WBSIM_TESTS_TRACE_DAT_READ_H

#include <stdint.h>
#include <glib.h>

/**
 * struct tdr_event - one event record
 * @ts: its time stamp, ns
 * @type: the record's first u16 (struct trace_entry's type: the event ID)
 * @pid: struct trace_entry's pid
 * @data: the record (the bytes the writer was given, then padding to 4)
 * @size: its bytes with the padding
 */
struct tdr_event {
	uint64_t ts;
	uint16_t type;
	int32_t pid;
	const guint8 *data;
	size_t size;
};

/**
 * struct tdr_file - a trace.dat read whole
 * @bin: the file's bytes
 * @len: their number
 * @page_size: the ring buffer's page size
 * @nr_cpus: CPUs in the file
 * @event_names: event ID -> name (GUINT_TO_POINTER keys, char * values)
 * @comms: pid -> comm of the saved_cmdlines
 * @cpu_offset: each CPU's data section (file offset) ...
 * @cpu_size: ... and its bytes
 */
struct tdr_file {
	char *bin;
	gsize len;
	uint32_t page_size;
	uint32_t nr_cpus;
	GHashTable *event_names;
	GHashTable *comms;
	uint64_t *cpu_offset;
	uint64_t *cpu_size;
};

/* Read @path; FALSE and @error (G_FILE_ERROR_INVAL naming the section) if it
 * is not a version-6 trace.dat as wbsim and trace-cmd write it. */
gboolean tdr_open(const char *path, struct tdr_file *f, GError **error);
void tdr_close(struct tdr_file *f);

/*
 * tdr_events() - every event of @cpu, in the order of its pages (struct
 * tdr_event, pointing into @f->bin); NULL with @error if a page or an
 * event header is malformed or time runs backwards. @pages: (optional)
 * how many pages the CPU's section holds.
 */
GArray *tdr_events(const struct tdr_file *f, unsigned int cpu, guint *pages, GError **error);

#endif
