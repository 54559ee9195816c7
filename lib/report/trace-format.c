/* SPDX-License-Identifier: MIT */
/*
 * trace-format.c - the writeback tracepoints' tracefs format files (see
 * report/trace-format.h): generated from the record structs, so that the
 * offsets and sizes a reader is told are those of the bytes written.
 */
#include "report/trace-format.h"
#include "report/trace.h"
#include "fs/writeback.h"

/* One field line of a format file. */
struct trace_field {
	const char *decl;	/* as the kernel declares it: "char name[32]" */
	size_t offset;
	size_t size;
	int is_signed;
};

#define FIELD(rec, member, decl, sgn) \
	{ decl, offsetof(struct rec, member), sizeof(((struct rec *)0)->member), sgn }

#define WORK_FIELDS(rec) \
	FIELD(rec, name, "char name[32]", 0), \
	FIELD(rec, nr_pages, "long nr_pages", 1), \
	FIELD(rec, sb_dev, "dev_t sb_dev", 0), \
	FIELD(rec, sync_mode, "int sync_mode", 1), \
	FIELD(rec, for_kupdate, "int for_kupdate", 1), \
	FIELD(rec, range_cyclic, "int range_cyclic", 1), \
	FIELD(rec, for_background, "int for_background", 1), \
	FIELD(rec, reason, "int reason", 1), \
	FIELD(rec, cgroup_ino, "ino_t cgroup_ino", 0)

static const struct trace_field common_fields[] = {
	FIELD(wbsim_trace_entry, type, "unsigned short common_type", 0),
	FIELD(wbsim_trace_entry, flags, "unsigned char common_flags", 0),
	FIELD(wbsim_trace_entry, preempt_count, "unsigned char common_preempt_count", 0),
	FIELD(wbsim_trace_entry, pid, "int common_pid", 1),
	{ NULL, 0, 0, 0 }
};

static const struct trace_field work_fields[] = {
	WORK_FIELDS(wbsim_trace_rec_work),
	{ NULL, 0, 0, 0 }
};

static const struct trace_field queue_io_fields[] = {
	FIELD(wbsim_trace_rec_queue_io, name, "char name[32]", 0),
	FIELD(wbsim_trace_rec_queue_io, older, "unsigned long older", 0),
	FIELD(wbsim_trace_rec_queue_io, age, "long age", 1),
	FIELD(wbsim_trace_rec_queue_io, moved, "int moved", 1),
	FIELD(wbsim_trace_rec_queue_io, reason, "int reason", 1),
	FIELD(wbsim_trace_rec_queue_io, cgroup_ino, "ino_t cgroup_ino", 0),
	{ NULL, 0, 0, 0 }
};

static const struct trace_field wake_background_fields[] = {
	FIELD(wbsim_trace_rec_wake_background, name, "char name[32]", 0),
	FIELD(wbsim_trace_rec_wake_background, cgroup_ino, "ino_t cgroup_ino", 0),
	{ NULL, 0, 0, 0 }
};

static const struct trace_field ratelimit_fields[] = {
	FIELD(wbsim_trace_rec_ratelimit, bdi, "char bdi[32]", 0),
	FIELD(wbsim_trace_rec_ratelimit, t.write_bw, "unsigned long write_bw", 0),
	FIELD(wbsim_trace_rec_ratelimit, t.avg_write_bw, "unsigned long avg_write_bw", 0),
	FIELD(wbsim_trace_rec_ratelimit, t.dirty_rate, "unsigned long dirty_rate", 0),
	FIELD(wbsim_trace_rec_ratelimit, t.dirty_ratelimit, "unsigned long dirty_ratelimit", 0),
	FIELD(wbsim_trace_rec_ratelimit, t.task_ratelimit, "unsigned long task_ratelimit", 0),
	FIELD(wbsim_trace_rec_ratelimit, t.balanced_dirty_ratelimit,
	      "unsigned long balanced_dirty_ratelimit", 0),
	FIELD(wbsim_trace_rec_ratelimit, cgroup_ino, "ino_t cgroup_ino", 0),
	{ NULL, 0, 0, 0 }
};

static const struct trace_field bdp_fields[] = {
	FIELD(wbsim_trace_rec_bdp, bdi, "char bdi[32]", 0),
	FIELD(wbsim_trace_rec_bdp, limit, "unsigned long limit", 0),
	FIELD(wbsim_trace_rec_bdp, setpoint, "unsigned long setpoint", 0),
	FIELD(wbsim_trace_rec_bdp, dirty, "unsigned long dirty", 0),
	FIELD(wbsim_trace_rec_bdp, wb_setpoint, "unsigned long wb_setpoint", 0),
	FIELD(wbsim_trace_rec_bdp, wb_dirty, "unsigned long wb_dirty", 0),
	FIELD(wbsim_trace_rec_bdp, dirty_ratelimit, "unsigned long dirty_ratelimit", 0),
	FIELD(wbsim_trace_rec_bdp, task_ratelimit, "unsigned long task_ratelimit", 0),
	FIELD(wbsim_trace_rec_bdp, dirtied, "unsigned int dirtied", 0),
	FIELD(wbsim_trace_rec_bdp, dirtied_pause, "unsigned int dirtied_pause", 0),
	FIELD(wbsim_trace_rec_bdp, paused, "unsigned long paused", 0),
	FIELD(wbsim_trace_rec_bdp, pause, "long pause", 1),
	FIELD(wbsim_trace_rec_bdp, period, "unsigned long period", 0),
	FIELD(wbsim_trace_rec_bdp, think, "long think", 1),
	FIELD(wbsim_trace_rec_bdp, cgroup_ino, "ino_t cgroup_ino", 0),
	{ NULL, 0, 0, 0 }
};

static const struct trace_field global_dirty_fields[] = {
	FIELD(wbsim_trace_rec_global_dirty, nr_dirty, "unsigned long nr_dirty", 0),
	FIELD(wbsim_trace_rec_global_dirty, nr_writeback, "unsigned long nr_writeback", 0),
	FIELD(wbsim_trace_rec_global_dirty, background_thresh, "unsigned long background_thresh", 0),
	FIELD(wbsim_trace_rec_global_dirty, dirty_thresh, "unsigned long dirty_thresh", 0),
	FIELD(wbsim_trace_rec_global_dirty, dirty_limit, "unsigned long dirty_limit", 0),
	FIELD(wbsim_trace_rec_global_dirty, nr_dirtied, "unsigned long nr_dirtied", 0),
	FIELD(wbsim_trace_rec_global_dirty, nr_written, "unsigned long nr_written", 0),
	{ NULL, 0, 0, 0 }
};

/* The field lines of a record declared by a field list (trace-format.h). */
#define LIST_FIELD(rec, ctype, ktype, member, dim, sgn) \
	{ ktype " " #member #dim, offsetof(struct rec, member), \
	  sizeof(((struct rec *)0)->member), sgn },
#define LIST_FIELDS(tag, LIST) \
	static const struct trace_field tag##_fields[] = { \
		LIST(LIST_FIELD, wbsim_trace_rec_##tag) \
		{ NULL, 0, 0, 0 } \
	}

LIST_FIELDS(pages_written, WBSIM_TRACE_PAGES_WRITTEN);
LIST_FIELDS(folio, WBSIM_TRACE_FOLIO);
LIST_FIELDS(dirty_inode, WBSIM_TRACE_DIRTY_INODE);
LIST_FIELDS(inode, WBSIM_TRACE_INODE);
LIST_FIELDS(single_inode, WBSIM_TRACE_SINGLE_INODE);
LIST_FIELDS(sb_inodes_requeue, WBSIM_TRACE_SB_INODES_REQUEUE);
LIST_FIELDS(foreign_history, WBSIM_TRACE_FOREIGN_HISTORY);
LIST_FIELDS(switch_wbs_queue, WBSIM_TRACE_SWITCH_WBS_QUEUE);
LIST_FIELDS(switch_wbs, WBSIM_TRACE_SWITCH_WBS);
LIST_FIELDS(track_foreign_dirty, WBSIM_TRACE_TRACK_FOREIGN_DIRTY);
LIST_FIELDS(flush_foreign, WBSIM_TRACE_FLUSH_FOREIGN);

/* show_inode_state()'s flags, in its order (trace-format.h) */
#define STATE_ROW(name, value) { #name, value },
static const struct {
	const char *name;
	unsigned int value;
} inode_states[] = { WBSIM_TRACE_INODE_STATES(STATE_ROW) };

void wbsim_trace_inode_state_text(GString *s, uint64_t state)
{
	gboolean first = TRUE;

	/* trace_print_flags_seq() */
	for (size_t i = 0; i < G_N_ELEMENTS(inode_states) && state; i++) {
		if ((state & inode_states[i].value) != inode_states[i].value)
			continue;
		state &= ~(uint64_t)inode_states[i].value;
		if (!first)
			g_string_append_c(s, '|');
		first = FALSE;
		g_string_append(s, inode_states[i].name);
	}
	if (state)
		g_string_append_printf(s, "%s0x%" G_GINT64_MODIFIER "x", first ? "" : "|", state);
}

/*
 * The print fmts, as the kernel's format files give them: "@REASONS@"
 * stands for the writeback reason names (WB_WORK_REASON), "@STATES@" for
 * show_inode_state()'s flags (the enum's names: the kernel exports no
 * values for them, so a reader such as trace-cmd prints a state in hex)
 * and "@HZ@" for CONFIG_HZ. jiffies in an age is read when the trace is
 * (a kernel's text trace prints the age at its reading).
 */
#define WORK_FMT "\"bdi %s: sb_dev %d:%d nr_pages=%ld sync_mode=%d kupdate=%d range_cyclic=%d " \
	"background=%d reason=%s cgroup_ino=%lu\", REC->name, " \
	"((unsigned int) ((REC->sb_dev) >> 20)), ((unsigned int) ((REC->sb_dev) & ((1U << 20) - 1))), " \
	"REC->nr_pages, REC->sync_mode, REC->for_kupdate, REC->range_cyclic, REC->for_background, " \
	"__print_symbolic(REC->reason, @REASONS@), (unsigned long)REC->cgroup_ino"
#define STATE_FMT(field) "__print_flags(REC->" field ", \"|\", @STATES@)"
#define SINGLE_INODE_FMT "\"bdi %s: ino=%lu state=%s dirtied_when=%lu age=%lu index=%lu " \
	"to_write=%ld wrote=%lu cgroup_ino=%lu\", REC->name, (unsigned long)REC->ino, " \
	STATE_FMT("state") ", REC->dirtied_when, (jiffies - REC->dirtied_when) / @HZ@, " \
	"REC->writeback_index, REC->nr_to_write, REC->wrote, (unsigned long)REC->cgroup_ino"

/* each event's fields and print fmt (its name: wbsim_trace_event_names) */
static const struct {
	const struct trace_field *fields;
	const char *print_fmt;
} events[WBSIM_TRACE_NR_EVENTS] = {
	[WBSIM_TRACE_WRITEBACK_QUEUE] = { work_fields, WORK_FMT },
	[WBSIM_TRACE_WRITEBACK_EXEC] = { work_fields, WORK_FMT },
	[WBSIM_TRACE_WRITEBACK_START] = { work_fields, WORK_FMT },
	[WBSIM_TRACE_WRITEBACK_WRITTEN] = { work_fields, WORK_FMT },
	[WBSIM_TRACE_WRITEBACK_WAIT] = { work_fields, WORK_FMT },
	[WBSIM_TRACE_WRITEBACK_QUEUE_IO] = { queue_io_fields,
		"\"bdi %s: older=%lu age=%ld enqueue=%d reason=%s cgroup_ino=%lu\", REC->name, "
		"REC->older, REC->age, REC->moved, __print_symbolic(REC->reason, @REASONS@), "
		"(unsigned long)REC->cgroup_ino" },
	[WBSIM_TRACE_WRITEBACK_WAKE_BACKGROUND] = { wake_background_fields,
		"\"bdi %s: cgroup_ino=%lu\", REC->name, (unsigned long)REC->cgroup_ino" },
	[WBSIM_TRACE_BDI_DIRTY_RATELIMIT] = { ratelimit_fields,
		"\"bdi %s: write_bw=%lu awrite_bw=%lu dirty_rate=%lu dirty_ratelimit=%lu "
		"task_ratelimit=%lu balanced_dirty_ratelimit=%lu cgroup_ino=%lu\", REC->bdi, "
		"REC->write_bw, REC->avg_write_bw, REC->dirty_rate, REC->dirty_ratelimit, "
		"REC->task_ratelimit, REC->balanced_dirty_ratelimit, (unsigned long)REC->cgroup_ino" },
	[WBSIM_TRACE_BALANCE_DIRTY_PAGES] = { bdp_fields,
		"\"bdi %s: limit=%lu setpoint=%lu dirty=%lu wb_setpoint=%lu wb_dirty=%lu "
		"dirty_ratelimit=%lu task_ratelimit=%lu dirtied=%u dirtied_pause=%u paused=%lu "
		"pause=%ld period=%lu think=%ld cgroup_ino=%lu\", REC->bdi, REC->limit, REC->setpoint, "
		"REC->dirty, REC->wb_setpoint, REC->wb_dirty, REC->dirty_ratelimit, REC->task_ratelimit, "
		"REC->dirtied, REC->dirtied_pause, REC->paused, REC->pause, REC->period, REC->think, "
		"(unsigned long)REC->cgroup_ino" },
	[WBSIM_TRACE_GLOBAL_DIRTY_STATE] = { global_dirty_fields,
		"\"dirty=%lu writeback=%lu bg_thresh=%lu thresh=%lu limit=%lu dirtied=%lu "
		"written=%lu\", REC->nr_dirty, REC->nr_writeback, REC->background_thresh, "
		"REC->dirty_thresh, REC->dirty_limit, REC->nr_dirtied, REC->nr_written" },
	[WBSIM_TRACE_WRITEBACK_PAGES_WRITTEN] = { pages_written_fields,
		"\"%ld\", REC->pages" },
	[WBSIM_TRACE_WRITEBACK_DIRTY_FOLIO] = { folio_fields,
		"\"bdi %s: ino=%lu index=%lu\", REC->name, (unsigned long)REC->ino, REC->index" },
	[WBSIM_TRACE_WRITEBACK_MARK_INODE_DIRTY] = { dirty_inode_fields,
		"\"bdi %s: ino=%lu state=%s flags=%s\", REC->name, (unsigned long)REC->ino, "
		STATE_FMT("state") ", " STATE_FMT("flags") },
	[WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE] = { inode_fields,
		"\"dev %d,%d ino %lu dirtied %lu state %s mode 0%o\", "
		"((unsigned int) ((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), "
		"(unsigned long)REC->ino, REC->dirtied_when, " STATE_FMT("state") ", REC->mode" },
	[WBSIM_TRACE_WRITEBACK_SINGLE_INODE_START] = { single_inode_fields, SINGLE_INODE_FMT },
	[WBSIM_TRACE_WRITEBACK_SINGLE_INODE] = { single_inode_fields,
		SINGLE_INODE_FMT },
	[WBSIM_TRACE_WRITEBACK_SB_INODES_REQUEUE] = { sb_inodes_requeue_fields,
		"\"bdi %s: ino=%lu state=%s dirtied_when=%lu age=%lu cgroup_ino=%lu\", REC->name, "
		"(unsigned long)REC->ino, " STATE_FMT("state") ", REC->dirtied_when, "
		"(jiffies - REC->dirtied_when) / @HZ@, (unsigned long)REC->cgroup_ino" },
	[WBSIM_TRACE_INODE_FOREIGN_HISTORY] = { foreign_history_fields,
		"\"bdi %s: ino=%lu cgroup_ino=%lu history=0x%x\", REC->name, (unsigned long)REC->ino, "
		"(unsigned long)REC->cgroup_ino, REC->history" },
	[WBSIM_TRACE_INODE_SWITCH_WBS_QUEUE] = { switch_wbs_queue_fields,
		"\"bdi %s: old_cgroup_ino=%lu new_cgroup_ino=%lu count=%u\", REC->name, "
		"(unsigned long)REC->old_cgroup_ino, (unsigned long)REC->new_cgroup_ino, REC->count" },
	[WBSIM_TRACE_INODE_SWITCH_WBS] = { switch_wbs_fields,
		"\"bdi %s: ino=%lu old_cgroup_ino=%lu new_cgroup_ino=%lu\", REC->name, "
		"(unsigned long)REC->ino, (unsigned long)REC->old_cgroup_ino, "
		"(unsigned long)REC->new_cgroup_ino" },
	[WBSIM_TRACE_TRACK_FOREIGN_DIRTY] = { track_foreign_dirty_fields,
		"\"bdi %s[%llu]: ino=%lu memcg_id=%u cgroup_ino=%lu page_cgroup_ino=%lu\", REC->name, "
		"REC->bdi_id, (unsigned long)REC->ino, REC->memcg_id, (unsigned long)REC->cgroup_ino, "
		"(unsigned long)REC->page_cgroup_ino" },
	[WBSIM_TRACE_FLUSH_FOREIGN] = { flush_foreign_fields,
		"\"bdi %s: cgroup_ino=%lu frn_bdi_id=%u frn_memcg_id=%u\", REC->name, "
		"(unsigned long)REC->cgroup_ino, REC->frn_bdi_id, REC->frn_memcg_id" },
};

/* IDs above those of the ftrace events a kernel numbers first */
#define FIRST_EVENT_ID 1000

uint16_t wbsim_trace_event_id(enum wbsim_trace_event ev)
{
	return (uint16_t)(FIRST_EVENT_ID + ev);
}

static void append_fields(GString *s, const struct trace_field *f)
{
	for (; f->decl; f++)
		g_string_append_printf(s, "\tfield:%s;\toffset:%zu;\tsize:%zu;\tsigned:%d;\n",
				       f->decl, f->offset, f->size, f->is_signed);
}

char *wbsim_trace_event_format(enum wbsim_trace_event ev, unsigned int hz)
{
	GString *s = g_string_new(NULL);
	GString *reasons = g_string_new(NULL);
	GString *states = g_string_new(NULL);
	char hz_text[16];

	g_return_val_if_fail(ev < WBSIM_TRACE_NR_EVENTS, NULL);
	for (int r = 0; r < WB_REASON_MAX; r++)
		g_string_append_printf(reasons, "%s{ %d, \"%s\" }", r ? ", " : "", r,
				       wbsim_wb_reason_name((enum wbsim_wb_reason)r));
	for (size_t i = 0; i < G_N_ELEMENTS(inode_states); i++)
		g_string_append_printf(states, "%s{%s, \"%s\"}", i ? ", " : "",
				       inode_states[i].name, inode_states[i].name);
	g_snprintf(hz_text, sizeof(hz_text), "%u", hz);
	g_string_append_printf(s, "name: %s\nID: %u\nformat:\n", wbsim_trace_event_names[ev],
			       wbsim_trace_event_id(ev));
	append_fields(s, common_fields);
	g_string_append_c(s, '\n');
	append_fields(s, events[ev].fields);
	g_string_append(s, "\nprint fmt: ");
	g_string_append(s, events[ev].print_fmt);
	g_string_replace(s, "@REASONS@", reasons->str, 0);
	g_string_replace(s, "@STATES@", states->str, 0);
	g_string_replace(s, "@HZ@", hz_text, 0);
	g_string_append_c(s, '\n');
	g_string_free(reasons, TRUE);
	g_string_free(states, TRUE);
	return g_string_free(s, FALSE);
}

/* The layouts of Linux 6.18 on x86-64 (events/writeback/<event>/format) */
G_STATIC_ASSERT(sizeof(struct wbsim_trace_entry) == 8);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_work, cgroup_ino) == 72);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_queue_io, cgroup_ino) == 64);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_wake_background, cgroup_ino) == 40);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_ratelimit, cgroup_ino) == 88);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_bdp, paused) == 104);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_bdp, cgroup_ino) == 136);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_global_dirty, nr_written) == 56);
G_STATIC_ASSERT(sizeof(struct wbsim_trace_rec_pages_written) == 16);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_folio, index) == 48);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_dirty_inode, flags) == 56);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_inode, ino) == 16);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_inode, mode) == 32);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_inode, dirtied_when) == 40);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_single_inode, cgroup_ino) == 88);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_sb_inodes_requeue, cgroup_ino) == 64);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_foreign_history, history) == 56);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_switch_wbs_queue, count) == 56);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_switch_wbs, new_cgroup_ino) == 56);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_track_foreign_dirty, cgroup_ino) == 64);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_track_foreign_dirty, page_cgroup_ino) == 72);
G_STATIC_ASSERT(offsetof(struct wbsim_trace_rec_flush_foreign, frn_memcg_id) == 52);
