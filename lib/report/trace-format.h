/* SPDX-License-Identifier: MIT */
/*
 * report/trace-format.h - the writeback tracepoints' binary records as the
 * kernel's ring buffer holds them (Linux 6.18 on a 64-bit machine: long and
 * ino_t of 8 bytes), and the tracefs format files that describe them
 * (events/writeback/<event>/format), for trace.dat (report/trace-dat.h).
 */
#ifndef WBSIM_REPORT_TRACE_FORMAT_H
#define WBSIM_REPORT_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include "defs/writeback-trace.h"

/* struct trace_entry: the header of every event record */
struct wbsim_trace_entry {
	uint16_t type;		/* the event's ID in its format file */
	uint8_t flags;
	uint8_t preempt_count;
	int32_t pid;
};

/* writeback_work_class: writeback_queue, _exec, _start, _written */
struct wbsim_trace_rec_work {
	struct wbsim_trace_entry ent;
	char name[32];
	int64_t nr_pages;
	uint32_t sb_dev;
	int32_t sync_mode;
	int32_t for_kupdate;
	int32_t range_cyclic;
	int32_t for_background;
	int32_t reason;
	uint64_t cgroup_ino;
};

struct wbsim_trace_rec_queue_io {
	struct wbsim_trace_entry ent;
	char name[32];
	uint64_t older;
	int64_t age;
	int32_t moved;
	int32_t reason;
	uint64_t cgroup_ino;
};

struct wbsim_trace_rec_wake_background {
	struct wbsim_trace_entry ent;
	char name[32];
	uint64_t cgroup_ino;
};

/* the six rates are those of defs/writeback-trace.h, in the kernel's order */
struct wbsim_trace_rec_ratelimit {
	struct wbsim_trace_entry ent;
	char bdi[32];
	struct wbsim_bdi_dirty_ratelimit_trace t;
	uint64_t cgroup_ino;
};

struct wbsim_trace_rec_bdp {
	struct wbsim_trace_entry ent;
	char bdi[32];
	uint64_t limit;
	uint64_t setpoint;
	uint64_t dirty;
	uint64_t wb_setpoint;
	uint64_t wb_dirty;
	uint64_t dirty_ratelimit;
	uint64_t task_ratelimit;
	uint32_t dirtied;
	uint32_t dirtied_pause;
	uint64_t paused;
	int64_t pause;
	uint64_t period;
	int64_t think;
	uint64_t cgroup_ino;
};

struct wbsim_trace_rec_global_dirty {
	struct wbsim_trace_entry ent;
	uint64_t nr_dirty;
	uint64_t nr_writeback;
	uint64_t background_thresh;
	uint64_t dirty_thresh;
	uint64_t dirty_limit;
	uint64_t nr_dirtied;
	uint64_t nr_written;
};

/*
 * The records of the events added for the whole writeback trace, each
 * declared once as a list of its fields in the kernel's order:
 * F(x, C type, kernel type, member, array dimension, signed). The list
 * makes the struct here (WBSIM_TRACE_REC_STRUCT) and the format file's
 * field lines in trace-format.c, so that the two cannot disagree.
 */
#define WBSIM_TRACE_MEMBER(x, ctype, ktype, member, dim, sgn) ctype member dim;
#define WBSIM_TRACE_REC_STRUCT(tag, LIST) \
	struct wbsim_trace_rec_##tag { \
		struct wbsim_trace_entry ent; \
		LIST(WBSIM_TRACE_MEMBER, _) \
	}

/* writeback_pages_written */
#define WBSIM_TRACE_PAGES_WRITTEN(F, x) \
	F(x, int64_t, "long", pages, , 1)
/* writeback_folio_template: writeback_dirty_folio */
#define WBSIM_TRACE_FOLIO(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "pgoff_t", index, , 0)
/* writeback_dirty_inode_template: writeback_mark_inode_dirty */
#define WBSIM_TRACE_DIRTY_INODE(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "unsigned long", state, , 0) \
	F(x, uint64_t, "unsigned long", flags, , 0)
/* writeback_inode_template: writeback_dirty_inode_enqueue */
#define WBSIM_TRACE_INODE(F, x) \
	F(x, uint32_t, "dev_t", dev, , 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "unsigned long", state, , 0) \
	F(x, uint16_t, "__u16", mode, , 0) \
	F(x, uint64_t, "unsigned long", dirtied_when, , 0)
/* writeback_single_inode_template: writeback_single_inode[_start] */
#define WBSIM_TRACE_SINGLE_INODE(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "unsigned long", state, , 0) \
	F(x, uint64_t, "unsigned long", dirtied_when, , 0) \
	F(x, uint64_t, "unsigned long", writeback_index, , 0) \
	F(x, int64_t, "long", nr_to_write, , 1) \
	F(x, uint64_t, "unsigned long", wrote, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_SB_INODES_REQUEUE(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "unsigned long", state, , 0) \
	F(x, uint64_t, "unsigned long", dirtied_when, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_FOREIGN_HISTORY(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0) \
	F(x, uint32_t, "unsigned int", history, , 0)
#define WBSIM_TRACE_SWITCH_WBS_QUEUE(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", old_cgroup_ino, , 0) \
	F(x, uint64_t, "ino_t", new_cgroup_ino, , 0) \
	F(x, uint32_t, "unsigned int", count, , 0)
#define WBSIM_TRACE_SWITCH_WBS(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "ino_t", old_cgroup_ino, , 0) \
	F(x, uint64_t, "ino_t", new_cgroup_ino, , 0)
#define WBSIM_TRACE_TRACK_FOREIGN_DIRTY(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "u64", bdi_id, , 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint32_t, "unsigned int", memcg_id, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0) \
	F(x, uint64_t, "ino_t", page_cgroup_ino, , 0)
#define WBSIM_TRACE_FLUSH_FOREIGN(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0) \
	F(x, uint32_t, "unsigned int", frn_bdi_id, , 0) \
	F(x, uint32_t, "unsigned int", frn_memcg_id, , 0)

WBSIM_TRACE_REC_STRUCT(pages_written, WBSIM_TRACE_PAGES_WRITTEN);
WBSIM_TRACE_REC_STRUCT(folio, WBSIM_TRACE_FOLIO);
WBSIM_TRACE_REC_STRUCT(dirty_inode, WBSIM_TRACE_DIRTY_INODE);
WBSIM_TRACE_REC_STRUCT(inode, WBSIM_TRACE_INODE);
WBSIM_TRACE_REC_STRUCT(single_inode, WBSIM_TRACE_SINGLE_INODE);
WBSIM_TRACE_REC_STRUCT(sb_inodes_requeue, WBSIM_TRACE_SB_INODES_REQUEUE);
WBSIM_TRACE_REC_STRUCT(foreign_history, WBSIM_TRACE_FOREIGN_HISTORY);
WBSIM_TRACE_REC_STRUCT(switch_wbs_queue, WBSIM_TRACE_SWITCH_WBS_QUEUE);
WBSIM_TRACE_REC_STRUCT(switch_wbs, WBSIM_TRACE_SWITCH_WBS);
WBSIM_TRACE_REC_STRUCT(track_foreign_dirty, WBSIM_TRACE_TRACK_FOREIGN_DIRTY);
WBSIM_TRACE_REC_STRUCT(flush_foreign, WBSIM_TRACE_FLUSH_FOREIGN);

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

#endif
