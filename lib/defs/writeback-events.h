/* SPDX-License-Identifier: MIT */
/*
 * defs/writeback-events.h - every writeback tracepoint, declared once, as
 * the kernel's include/trace/events/writeback.h declares it (Linux 6.18,
 * 64-bit: long and ino_t of 8 bytes). From these lists come the record
 * struct of each class (defs/writeback-trace.h, what the ring buffer and
 * trace.dat hold), the field lines of its tracefs format file (offsets and
 * sizes taken from that struct), its print fmt and the text trace's line
 * (report/trace-format.c: both read the one record). The fill, what
 * TP_fast_assign does, is in the wbsim_trace_* functions the model calls,
 * beside the code that fires them (fs/fs-writeback-trace.c,
 * mm/page-writeback-trace.c; mm fills the throttle's two records itself).
 *
 * WBSIM_TRACE_EVENTS(E): E(ID, name, class), in the order of enum
 * wbsim_trace_event (an event's ID in its format file is 1000 + its index).
 *
 * WBSIM_TRACE_CLASSES(C): C(class) for each record layout
 * (DECLARE_EVENT_CLASS, or a TRACE_EVENT of its own). Each class has:
 *
 * WBSIM_TRACE_FIELDS_<class>(F, x): TP_STRUCT__entry, in the kernel's
 *	order: F(x, C type, kernel type, member, array dimension, signed).
 *
 * WBSIM_TRACE_PRINT_<class>(P, x): TP_printk, one row per conversion:
 *	P(x, text before it, conversion, member, how), how being
 *	- FIELD: REC->member, printed as the conversion says (%s: the
 *	  char array; d, u: decimal; x: hex; o: octal)
 *	- ULONG: (unsigned long)REC->member (an ino_t), in decimal
 *	- MAJOR, MINOR: MAJOR(), MINOR() of a dev_t (20 bits of minor)
 *	- REASON: __print_symbolic(REC->member, WB_WORK_REASON)
 *	- STATE: __print_flags(REC->member, "|", show_inode_state's flags)
 *	- AGE: (jiffies - REC->member) / HZ, jiffies read as the event happens
 *	The text after the last conversion is empty in every event here.
 *
 * A neutral header: macros only, no folder of lib/ included.
 */
#ifndef WBSIM_DEFS_WRITEBACK_EVENTS_H
#define WBSIM_DEFS_WRITEBACK_EVENTS_H

#define WBSIM_TRACE_EVENTS(E) \
	E(WRITEBACK_QUEUE, writeback_queue, work) \
	E(WRITEBACK_EXEC, writeback_exec, work) \
	E(WRITEBACK_START, writeback_start, work) \
	E(WRITEBACK_WRITTEN, writeback_written, work) \
	E(WRITEBACK_QUEUE_IO, writeback_queue_io, queue_io) \
	E(WRITEBACK_WAKE_BACKGROUND, writeback_wake_background, wake_background) \
	E(BDI_DIRTY_RATELIMIT, bdi_dirty_ratelimit, ratelimit) \
	E(BALANCE_DIRTY_PAGES, balance_dirty_pages, bdp) \
	E(GLOBAL_DIRTY_STATE, global_dirty_state, global_dirty) \
	E(WRITEBACK_WAIT, writeback_wait, work) \
	E(WRITEBACK_PAGES_WRITTEN, writeback_pages_written, pages_written) \
	E(WRITEBACK_DIRTY_FOLIO, writeback_dirty_folio, folio) \
	E(WRITEBACK_MARK_INODE_DIRTY, writeback_mark_inode_dirty, dirty_inode) \
	E(WRITEBACK_DIRTY_INODE_ENQUEUE, writeback_dirty_inode_enqueue, inode) \
	E(WRITEBACK_SINGLE_INODE_START, writeback_single_inode_start, single_inode) \
	E(WRITEBACK_SINGLE_INODE, writeback_single_inode, single_inode) \
	E(WRITEBACK_SB_INODES_REQUEUE, writeback_sb_inodes_requeue, sb_inodes_requeue) \
	E(INODE_FOREIGN_HISTORY, inode_foreign_history, foreign_history) \
	E(INODE_SWITCH_WBS_QUEUE, inode_switch_wbs_queue, switch_wbs_queue) \
	E(INODE_SWITCH_WBS, inode_switch_wbs, switch_wbs) \
	E(TRACK_FOREIGN_DIRTY, track_foreign_dirty, track_foreign_dirty) \
	E(FLUSH_FOREIGN, flush_foreign, flush_foreign)

#define WBSIM_TRACE_CLASSES(C) \
	C(work) C(queue_io) C(wake_background) C(ratelimit) C(bdp) C(global_dirty) \
	C(pages_written) C(folio) C(dirty_inode) C(inode) C(single_inode) \
	C(sb_inodes_requeue) C(foreign_history) C(switch_wbs_queue) C(switch_wbs) \
	C(track_foreign_dirty) C(flush_foreign)

/* writeback_work_class: writeback_queue, _exec, _start, _written, _wait */
#define WBSIM_TRACE_FIELDS_work(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, int64_t, "long", nr_pages, , 1) \
	F(x, uint32_t, "dev_t", sb_dev, , 0) \
	F(x, int32_t, "int", sync_mode, , 1) \
	F(x, int32_t, "int", for_kupdate, , 1) \
	F(x, int32_t, "int", range_cyclic, , 1) \
	F(x, int32_t, "int", for_background, , 1) \
	F(x, int32_t, "int", reason, , 1) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_work(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": sb_dev ", "%d", sb_dev, MAJOR) \
	P(x, ":", "%d", sb_dev, MINOR) \
	P(x, " nr_pages=", "%ld", nr_pages, FIELD) \
	P(x, " sync_mode=", "%d", sync_mode, FIELD) \
	P(x, " kupdate=", "%d", for_kupdate, FIELD) \
	P(x, " range_cyclic=", "%d", range_cyclic, FIELD) \
	P(x, " background=", "%d", for_background, FIELD) \
	P(x, " reason=", "%s", reason, REASON) \
	P(x, " cgroup_ino=", "%lu", cgroup_ino, ULONG)

/* writeback_queue_io: @older in jiffies, @age in ms, @moved printed as enqueue */
#define WBSIM_TRACE_FIELDS_queue_io(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "unsigned long", older, , 0) \
	F(x, int64_t, "long", age, , 1) \
	F(x, int32_t, "int", moved, , 1) \
	F(x, int32_t, "int", reason, , 1) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_queue_io(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": older=", "%lu", older, FIELD) \
	P(x, " age=", "%ld", age, FIELD) \
	P(x, " enqueue=", "%d", moved, FIELD) \
	P(x, " reason=", "%s", reason, REASON) \
	P(x, " cgroup_ino=", "%lu", cgroup_ino, ULONG)

/* writeback_class: writeback_wake_background */
#define WBSIM_TRACE_FIELDS_wake_background(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_wake_background(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": cgroup_ino=", "%lu", cgroup_ino, ULONG)

/*
 * bdi_dirty_ratelimit, rates in KB/s (KBps()), mm's wb_update_dirty_ratelimit()
 * filling the six: @write_bw and @avg_write_bw the wb's before this round's
 * update (avg_write_bw printed as awrite_bw), @dirty_rate over the last
 * interval, the new @dirty_ratelimit, @task_ratelimit = dirty_ratelimit *
 * pos_ratio + 1 page/s, the new @balanced_dirty_ratelimit
 */
#define WBSIM_TRACE_FIELDS_ratelimit(F, x) \
	F(x, char, "char", bdi, [32], 0) \
	F(x, uint64_t, "unsigned long", write_bw, , 0) \
	F(x, uint64_t, "unsigned long", avg_write_bw, , 0) \
	F(x, uint64_t, "unsigned long", dirty_rate, , 0) \
	F(x, uint64_t, "unsigned long", dirty_ratelimit, , 0) \
	F(x, uint64_t, "unsigned long", task_ratelimit, , 0) \
	F(x, uint64_t, "unsigned long", balanced_dirty_ratelimit, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_ratelimit(P, x) \
	P(x, "bdi ", "%s", bdi, FIELD) \
	P(x, ": write_bw=", "%lu", write_bw, FIELD) \
	P(x, " awrite_bw=", "%lu", avg_write_bw, FIELD) \
	P(x, " dirty_rate=", "%lu", dirty_rate, FIELD) \
	P(x, " dirty_ratelimit=", "%lu", dirty_ratelimit, FIELD) \
	P(x, " task_ratelimit=", "%lu", task_ratelimit, FIELD) \
	P(x, " balanced_dirty_ratelimit=", "%lu", balanced_dirty_ratelimit, FIELD) \
	P(x, " cgroup_ino=", "%lu", cgroup_ino, ULONG)

/*
 * balance_dirty_pages, mm's trace_balance_dirty_pages() filling all but
 * @bdi and @cgroup_ino: in pages @limit (the hard dirty limit), @setpoint
 * ((limit + freerun) / 2), @dirty (the domain's), @wb_setpoint (setpoint *
 * wb_thresh / (thresh + 1)), @wb_dirty; in KB/s @dirty_ratelimit and
 * @task_ratelimit; @dirtied (pages_dirtied) and @dirtied_pause (the task's
 * nr_dirtied_pause before this pass); in ms @paused (since the call
 * began), @pause (this sleep, <= 0 when not sleeping), @period, @think
 * (since the last pause ended, 0 if never paused)
 */
#define WBSIM_TRACE_FIELDS_bdp(F, x) \
	F(x, char, "char", bdi, [32], 0) \
	F(x, uint64_t, "unsigned long", limit, , 0) \
	F(x, uint64_t, "unsigned long", setpoint, , 0) \
	F(x, uint64_t, "unsigned long", dirty, , 0) \
	F(x, uint64_t, "unsigned long", wb_setpoint, , 0) \
	F(x, uint64_t, "unsigned long", wb_dirty, , 0) \
	F(x, uint64_t, "unsigned long", dirty_ratelimit, , 0) \
	F(x, uint64_t, "unsigned long", task_ratelimit, , 0) \
	F(x, uint32_t, "unsigned int", dirtied, , 0) \
	F(x, uint32_t, "unsigned int", dirtied_pause, , 0) \
	F(x, uint64_t, "unsigned long", paused, , 0) \
	F(x, int64_t, "long", pause, , 1) \
	F(x, uint64_t, "unsigned long", period, , 0) \
	F(x, int64_t, "long", think, , 1) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_bdp(P, x) \
	P(x, "bdi ", "%s", bdi, FIELD) \
	P(x, ": limit=", "%lu", limit, FIELD) \
	P(x, " setpoint=", "%lu", setpoint, FIELD) \
	P(x, " dirty=", "%lu", dirty, FIELD) \
	P(x, " wb_setpoint=", "%lu", wb_setpoint, FIELD) \
	P(x, " wb_dirty=", "%lu", wb_dirty, FIELD) \
	P(x, " dirty_ratelimit=", "%lu", dirty_ratelimit, FIELD) \
	P(x, " task_ratelimit=", "%lu", task_ratelimit, FIELD) \
	P(x, " dirtied=", "%u", dirtied, FIELD) \
	P(x, " dirtied_pause=", "%u", dirtied_pause, FIELD) \
	P(x, " paused=", "%lu", paused, FIELD) \
	P(x, " pause=", "%ld", pause, FIELD) \
	P(x, " period=", "%lu", period, FIELD) \
	P(x, " think=", "%ld", think, FIELD) \
	P(x, " cgroup_ino=", "%lu", cgroup_ino, ULONG)

/* global_dirty_state, in pages */
#define WBSIM_TRACE_FIELDS_global_dirty(F, x) \
	F(x, uint64_t, "unsigned long", nr_dirty, , 0) \
	F(x, uint64_t, "unsigned long", nr_writeback, , 0) \
	F(x, uint64_t, "unsigned long", background_thresh, , 0) \
	F(x, uint64_t, "unsigned long", dirty_thresh, , 0) \
	F(x, uint64_t, "unsigned long", dirty_limit, , 0) \
	F(x, uint64_t, "unsigned long", nr_dirtied, , 0) \
	F(x, uint64_t, "unsigned long", nr_written, , 0)
#define WBSIM_TRACE_PRINT_global_dirty(P, x) \
	P(x, "dirty=", "%lu", nr_dirty, FIELD) \
	P(x, " writeback=", "%lu", nr_writeback, FIELD) \
	P(x, " bg_thresh=", "%lu", background_thresh, FIELD) \
	P(x, " thresh=", "%lu", dirty_thresh, FIELD) \
	P(x, " limit=", "%lu", dirty_limit, FIELD) \
	P(x, " dirtied=", "%lu", nr_dirtied, FIELD) \
	P(x, " written=", "%lu", nr_written, FIELD)

/* writeback_pages_written */
#define WBSIM_TRACE_FIELDS_pages_written(F, x) \
	F(x, int64_t, "long", pages, , 1)
#define WBSIM_TRACE_PRINT_pages_written(P, x) \
	P(x, "", "%ld", pages, FIELD)

/* writeback_folio_template: writeback_dirty_folio */
#define WBSIM_TRACE_FIELDS_folio(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "pgoff_t", index, , 0)
#define WBSIM_TRACE_PRINT_folio(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": ino=", "%lu", ino, ULONG) \
	P(x, " index=", "%lu", index, FIELD)

/* writeback_dirty_inode_template: writeback_mark_inode_dirty */
#define WBSIM_TRACE_FIELDS_dirty_inode(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "unsigned long", state, , 0) \
	F(x, uint64_t, "unsigned long", flags, , 0)
#define WBSIM_TRACE_PRINT_dirty_inode(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": ino=", "%lu", ino, ULONG) \
	P(x, " state=", "%s", state, STATE) \
	P(x, " flags=", "%s", flags, STATE)

/* writeback_inode_template: writeback_dirty_inode_enqueue */
#define WBSIM_TRACE_FIELDS_inode(F, x) \
	F(x, uint32_t, "dev_t", dev, , 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "unsigned long", state, , 0) \
	F(x, uint16_t, "__u16", mode, , 0) \
	F(x, uint64_t, "unsigned long", dirtied_when, , 0)
#define WBSIM_TRACE_PRINT_inode(P, x) \
	P(x, "dev ", "%d", dev, MAJOR) \
	P(x, ",", "%d", dev, MINOR) \
	P(x, " ino ", "%lu", ino, ULONG) \
	P(x, " dirtied ", "%lu", dirtied_when, FIELD) \
	P(x, " state ", "%s", state, STATE) \
	P(x, " mode 0", "%o", mode, FIELD)

/* writeback_single_inode_template: writeback_single_inode[_start] */
#define WBSIM_TRACE_FIELDS_single_inode(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "unsigned long", state, , 0) \
	F(x, uint64_t, "unsigned long", dirtied_when, , 0) \
	F(x, uint64_t, "unsigned long", writeback_index, , 0) \
	F(x, int64_t, "long", nr_to_write, , 1) \
	F(x, uint64_t, "unsigned long", wrote, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_single_inode(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": ino=", "%lu", ino, ULONG) \
	P(x, " state=", "%s", state, STATE) \
	P(x, " dirtied_when=", "%lu", dirtied_when, FIELD) \
	P(x, " age=", "%lu", dirtied_when, AGE) \
	P(x, " index=", "%lu", writeback_index, FIELD) \
	P(x, " to_write=", "%ld", nr_to_write, FIELD) \
	P(x, " wrote=", "%lu", wrote, FIELD) \
	P(x, " cgroup_ino=", "%lu", cgroup_ino, ULONG)

/* writeback_sb_inodes_requeue */
#define WBSIM_TRACE_FIELDS_sb_inodes_requeue(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "unsigned long", state, , 0) \
	F(x, uint64_t, "unsigned long", dirtied_when, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_sb_inodes_requeue(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": ino=", "%lu", ino, ULONG) \
	P(x, " state=", "%s", state, STATE) \
	P(x, " dirtied_when=", "%lu", dirtied_when, FIELD) \
	P(x, " age=", "%lu", dirtied_when, AGE) \
	P(x, " cgroup_ino=", "%lu", cgroup_ino, ULONG)

/* inode_foreign_history */
#define WBSIM_TRACE_FIELDS_foreign_history(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0) \
	F(x, uint32_t, "unsigned int", history, , 0)
#define WBSIM_TRACE_PRINT_foreign_history(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": ino=", "%lu", ino, ULONG) \
	P(x, " cgroup_ino=", "%lu", cgroup_ino, ULONG) \
	P(x, " history=0x", "%x", history, FIELD)

/* inode_switch_wbs_queue */
#define WBSIM_TRACE_FIELDS_switch_wbs_queue(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", old_cgroup_ino, , 0) \
	F(x, uint64_t, "ino_t", new_cgroup_ino, , 0) \
	F(x, uint32_t, "unsigned int", count, , 0)
#define WBSIM_TRACE_PRINT_switch_wbs_queue(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": old_cgroup_ino=", "%lu", old_cgroup_ino, ULONG) \
	P(x, " new_cgroup_ino=", "%lu", new_cgroup_ino, ULONG) \
	P(x, " count=", "%u", count, FIELD)

/* inode_switch_wbs */
#define WBSIM_TRACE_FIELDS_switch_wbs(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint64_t, "ino_t", old_cgroup_ino, , 0) \
	F(x, uint64_t, "ino_t", new_cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_switch_wbs(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": ino=", "%lu", ino, ULONG) \
	P(x, " old_cgroup_ino=", "%lu", old_cgroup_ino, ULONG) \
	P(x, " new_cgroup_ino=", "%lu", new_cgroup_ino, ULONG)

/* track_foreign_dirty */
#define WBSIM_TRACE_FIELDS_track_foreign_dirty(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "u64", bdi_id, , 0) \
	F(x, uint64_t, "ino_t", ino, , 0) \
	F(x, uint32_t, "unsigned int", memcg_id, , 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0) \
	F(x, uint64_t, "ino_t", page_cgroup_ino, , 0)
#define WBSIM_TRACE_PRINT_track_foreign_dirty(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, "[", "%llu", bdi_id, FIELD) \
	P(x, "]: ino=", "%lu", ino, ULONG) \
	P(x, " memcg_id=", "%u", memcg_id, FIELD) \
	P(x, " cgroup_ino=", "%lu", cgroup_ino, ULONG) \
	P(x, " page_cgroup_ino=", "%lu", page_cgroup_ino, ULONG)

/* flush_foreign */
#define WBSIM_TRACE_FIELDS_flush_foreign(F, x) \
	F(x, char, "char", name, [32], 0) \
	F(x, uint64_t, "ino_t", cgroup_ino, , 0) \
	F(x, uint32_t, "unsigned int", frn_bdi_id, , 0) \
	F(x, uint32_t, "unsigned int", frn_memcg_id, , 0)
#define WBSIM_TRACE_PRINT_flush_foreign(P, x) \
	P(x, "bdi ", "%s", name, FIELD) \
	P(x, ": cgroup_ino=", "%lu", cgroup_ino, ULONG) \
	P(x, " frn_bdi_id=", "%u", frn_bdi_id, FIELD) \
	P(x, " frn_memcg_id=", "%u", frn_memcg_id, FIELD)

#endif /* WBSIM_DEFS_WRITEBACK_EVENTS_H */
