/* SPDX-License-Identifier: MIT */
/*
 * defs/writeback-trace.h - the writeback tracepoints that lib/mm and
 * lib/fs emit and lib/report writes (kernel:
 * include/trace/events/writeback.h): the event numbers and records,
 * generated from their one declaration (defs/writeback-events.h). The
 * fills, which the model calls, are beside the code that fires them
 * (fs/fs-writeback-trace.h, mm/page-writeback-trace.h); the writer they
 * hand each record to is report/trace.h's. A neutral header: it includes
 * no folder of lib/, so the report reads the model's records without
 * including mm or fs.
 */
#ifndef WBSIM_DEFS_WRITEBACK_TRACE_H
#define WBSIM_DEFS_WRITEBACK_TRACE_H

#include <stdint.h>
#include <wbsim/sim.h>
#include "defs/writeback-events.h"

/*
 * enum wbsim_trace_event - index into wbsim_trace_event_names: every
 * writeback event of Linux 6.18 the model has a counterpart for, in the
 * order of WBSIM_TRACE_EVENTS (defs/writeback-events.h). Left out, with
 * no counterpart: writeback_dirty_inode_start/writeback_dirty_inode
 * (only for I_DIRTY_SYNC/DATASYNC, inode metadata, not modelled),
 * writeback_write_inode_start/writeback_write_inode (write_inode),
 * writeback_lazytime[_iput] (lazytime), writeback_bdi_register (before any
 * trace), folio_wait_writeback, wbc_writepage, sb_mark/clear_inode_writeback.
 */
#define WBSIM_TRACE_ENUM(id, name, class) WBSIM_TRACE_##id,
enum wbsim_trace_event {
	WBSIM_TRACE_EVENTS(WBSIM_TRACE_ENUM)
	WBSIM_TRACE_NR_EVENTS,
};
#undef WBSIM_TRACE_ENUM

/* struct trace_entry: the header of every event record */
struct wbsim_trace_entry {
	uint16_t type;		/* the event's ID in its format file */
	uint8_t flags;
	uint8_t preempt_count;
	int32_t pid;
};

/*
 * struct wbsim_trace_rec_<class> - the record of each class of
 * defs/writeback-events.h, as the kernel's ring buffer holds it: the
 * entry, then the fields of WBSIM_TRACE_FIELDS_<class>, in the kernel's
 * units. One is filled per event, and the binary record, the format file
 * and the text line all read it.
 */
#define WBSIM_TRACE_MEMBER(x, ctype, ktype, member, dim, sgn) ctype member dim;
#define WBSIM_TRACE_REC_STRUCT(class) \
	struct wbsim_trace_rec_##class { \
		struct wbsim_trace_entry ent; \
		WBSIM_TRACE_FIELDS_##class(WBSIM_TRACE_MEMBER, class) \
	};
WBSIM_TRACE_CLASSES(WBSIM_TRACE_REC_STRUCT)
#undef WBSIM_TRACE_REC_STRUCT
#undef WBSIM_TRACE_MEMBER

#endif /* WBSIM_DEFS_WRITEBACK_TRACE_H */
