/* SPDX-License-Identifier: MIT */
/*
 * report/trace-format.h - what is made of a writeback tracepoint's record
 * (defs/writeback-trace.h, as the kernel's ring buffer holds it: Linux 6.18
 * on a 64-bit machine, long and ino_t of 8 bytes), from the one
 * declaration of its event (defs/writeback-events.h): the tracefs format
 * file that describes it (events/writeback/<event>/format), for trace.dat
 * (report/trace-dat.h), and the fields of its line in the text trace.
 */
#ifndef WBSIM_REPORT_TRACE_FORMAT_H
#define WBSIM_REPORT_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include "defs/writeback-trace.h"

/*
 * The kernel's inode state flags (include/linux/fs.h, 6.18), as
 * show_inode_state() lists them, in its order: the values a record's
 * state and flags hold.
 */
#define WBSIM_TRACE_INODE_STATES(S) \
	S(I_DIRTY_SYNC, 1u << 3) \
	S(I_DIRTY_DATASYNC, 1u << 4) \
	S(I_DIRTY_PAGES, 1u << 5) \
	S(I_NEW, 1u << 0) \
	S(I_WILL_FREE, 1u << 6) \
	S(I_FREEING, 1u << 7) \
	S(I_CLEAR, 1u << 8) \
	S(I_SYNC, 1u << 1) \
	S(I_DIRTY_TIME, 1u << 11) \
	S(I_REFERENCED, 1u << 9) \
	S(I_LINKABLE, 1u << 10) \
	S(I_WB_SWITCH, 1u << 12) \
	S(I_OVL_INUSE, 1u << 13) \
	S(I_CREATING, 1u << 14) \
	S(I_DONTCACHE, 1u << 15) \
	S(I_SYNC_QUEUED, 1u << 16) \
	S(I_PINNING_NETFS_WB, 1u << 17) \
	S(I_LRU_ISOLATING, 1u << 2)

#define WBSIM_TRACE_STATE_ENUM(name, value) WBSIM_K_##name = (value),
enum wbsim_trace_inode_state { WBSIM_TRACE_INODE_STATES(WBSIM_TRACE_STATE_ENUM) };
#undef WBSIM_TRACE_STATE_ENUM

/*
 * wbsim_trace_inode_state_text() - show_inode_state(): the names of the
 * flags set in @state, '|'-separated, in the kernel's order, then what no
 * name covers in hex ("" for 0), into @s.
 */
void wbsim_trace_inode_state_text(GString *s, uint64_t state);

/* The system every event here belongs to. */
#define WBSIM_TRACE_SYSTEM "writeback"

/* wbsim_trace_event_id() - the ID of @ev in its format file (common_type). */
uint16_t wbsim_trace_event_id(enum wbsim_trace_event ev);

/*
 * wbsim_trace_event_format() - the tracefs format file of @ev: name, ID,
 * the fields with offset, size and sign, and the print fmt the kernel's
 * TP_printk gives (the text trace's fields, in the same order and units)
 * on a kernel of @hz jiffies a second (HZ, in the ages it prints).
 * Return: the text; free with g_free().
 */
char *wbsim_trace_event_format(enum wbsim_trace_event ev, unsigned int hz);

/* wbsim_trace_event_size() - the bytes of @ev's record, its entry included. */
size_t wbsim_trace_event_size(enum wbsim_trace_event ev);

/*
 * wbsim_trace_event_text() - append to @s the fields of @ev's text line,
 * what the kernel's TP_printk prints of @rec (the print fmt of its format
 * file, evaluated on the record): ages read @jiffies on a kernel of @hz.
 */
void wbsim_trace_event_text(GString *s, enum wbsim_trace_event ev, const void *rec,
			    uint64_t jiffies, unsigned int hz);

#endif
