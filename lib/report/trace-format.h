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

/* The system every event here belongs to. */
#define WBSIM_TRACE_SYSTEM "writeback"

/* wbsim_trace_event_id() - the ID of @ev in its format file (common_type). */
uint16_t wbsim_trace_event_id(enum wbsim_trace_event ev);

/*
 * wbsim_trace_event_format() - the tracefs format file of @ev: name, ID,
 * the fields with offset, size and sign, and the print fmt the kernel's
 * TP_printk gives (the text trace's fields, in the same order and units).
 * Return: the text; free with g_free().
 */
char *wbsim_trace_event_format(enum wbsim_trace_event ev);

#endif
