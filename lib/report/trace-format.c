/* SPDX-License-Identifier: MIT */
/*
 * trace-format.c - the writeback tracepoints' tracefs format files and
 * text lines (see report/trace-format.h), both made from the one
 * declaration of each event (defs/writeback-events.h): the field lines
 * from the record structs it declares, so that the offsets and sizes a
 * reader is told are those of the bytes written, and the print fmt and
 * the text from its print rows, so that the text is what a reader of the
 * format file prints of the record.
 */
#include <inttypes.h>
#include <string.h>
#include "report/trace-format.h"
#include "report/trace.h"
#include "defs/backing-dev-defs.h"

/* One field line of a format file. */
struct trace_field {
	const char *decl;	/* as the kernel declares it: "char name[32]" */
	size_t offset;
	size_t size;
	int is_signed;
};

/* How a print row's argument reads its field (defs/writeback-events.h). */
enum print_how {
	PRINT_FIELD,	/* REC->member */
	PRINT_ULONG,	/* (unsigned long)REC->member */
	PRINT_MAJOR,	/* MAJOR(REC->member) */
	PRINT_MINOR,	/* MINOR(REC->member) */
	PRINT_REASON,	/* __print_symbolic(REC->member, WB_WORK_REASON) */
	PRINT_STATE,	/* __print_flags(REC->member, "|", show_inode_state's) */
	PRINT_AGE,	/* (jiffies - REC->member) / HZ */
};

/* One conversion of a print fmt, with the text before it. */
struct trace_print {
	const char *text;
	const char *conv;	/* "%lu" */
	const char *member;
	unsigned int field;	/* the member's index in the class's fields */
	enum print_how how;
};

/* A record layout: its fields, its print fmt, its size. */
struct trace_class {
	const struct trace_field *fields;
	size_t nr_fields;
	const struct trace_print *print;
	size_t nr_print;
	size_t size;
};

#define FIELD(rec, member, decl, sgn) \
	{ decl, offsetof(struct rec, member), sizeof(((struct rec *)0)->member), sgn }

static const struct trace_field common_fields[] = {
	FIELD(wbsim_trace_entry, type, "unsigned short common_type", 0),
	FIELD(wbsim_trace_entry, flags, "unsigned char common_flags", 0),
	FIELD(wbsim_trace_entry, preempt_count, "unsigned char common_preempt_count", 0),
	FIELD(wbsim_trace_entry, pid, "int common_pid", 1),
};

/* each class's fields numbered: a print row names a declared field or
 * does not compile */
#define FIELD_INDEX(x, ctype, ktype, member, dim, sgn) FIELD_##x##_##member,
#define CLASS_FIELD_INDEXES(class) enum { WBSIM_TRACE_FIELDS_##class(FIELD_INDEX, class) };
WBSIM_TRACE_CLASSES(CLASS_FIELD_INDEXES)

/* each class's field lines, from its record struct */
#define FIELD_ROW(x, ctype, ktype, member, dim, sgn) \
	{ ktype " " #member #dim, offsetof(struct wbsim_trace_rec_##x, member), \
	  sizeof(((struct wbsim_trace_rec_##x *)0)->member), sgn },
#define CLASS_FIELDS(class) \
	static const struct trace_field class##_fields[] = { \
		WBSIM_TRACE_FIELDS_##class(FIELD_ROW, class) \
	};
WBSIM_TRACE_CLASSES(CLASS_FIELDS)

/* each class's print rows */
#define PRINT_ROW(x, text, conv, member, how) \
	{ text, conv, #member, FIELD_##x##_##member, PRINT_##how },
#define CLASS_PRINT(class) \
	static const struct trace_print class##_print[] = { \
		WBSIM_TRACE_PRINT_##class(PRINT_ROW, class) \
	};
WBSIM_TRACE_CLASSES(CLASS_PRINT)

#define CLASS_ENUM(class) CLASS_##class,
enum { WBSIM_TRACE_CLASSES(CLASS_ENUM) NR_CLASSES };

#define CLASS_ROW(class) \
	[CLASS_##class] = { class##_fields, G_N_ELEMENTS(class##_fields), class##_print, \
			    G_N_ELEMENTS(class##_print), sizeof(struct wbsim_trace_rec_##class) },
static const struct trace_class classes[NR_CLASSES] = { WBSIM_TRACE_CLASSES(CLASS_ROW) };

/* each event's class (its name: wbsim_trace_event_names) */
#define EVENT_CLASS(id, name, class) [WBSIM_TRACE_##id] = &classes[CLASS_##class],
static const struct trace_class *const event_class[WBSIM_TRACE_NR_EVENTS] = {
	WBSIM_TRACE_EVENTS(EVENT_CLASS)
};

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

/* IDs above those of the ftrace events a kernel numbers first */
#define FIRST_EVENT_ID 1000

uint16_t wbsim_trace_event_id(enum wbsim_trace_event ev)
{
	return (uint16_t)(FIRST_EVENT_ID + ev);
}

size_t wbsim_trace_event_size(enum wbsim_trace_event ev)
{
	g_return_val_if_fail(ev < WBSIM_TRACE_NR_EVENTS, 0);
	return event_class[ev]->size;
}

/* A field's value, sign-extended if the field is signed. */
static uint64_t field_value(const void *rec, const struct trace_field *f)
{
	const guint8 *p = (const guint8 *)rec + f->offset;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64 = 0;

	switch (f->size) {
	case 1:
		memcpy(&u8, p, 1);
		return f->is_signed ? (uint64_t)(int64_t)(int8_t)u8 : u8;
	case 2:
		memcpy(&u16, p, 2);
		return f->is_signed ? (uint64_t)(int64_t)(int16_t)u16 : u16;
	case 4:
		memcpy(&u32, p, 4);
		return f->is_signed ? (uint64_t)(int64_t)(int32_t)u32 : u32;
	default:
		memcpy(&u64, p, MIN(f->size, sizeof(u64)));
		return u64;
	}
}

/* @v printed by @conv ("%d", "%lu", "%llu", "%x", "%o"): an int's width without an l */
static void append_number(GString *s, const char *conv, uint64_t v)
{
	gboolean wide = strchr(conv, 'l') != NULL;

	switch (conv[strlen(conv) - 1]) {
	case 'd':
		g_string_append_printf(s, "%" PRId64, wide ? (int64_t)v : (int64_t)(int32_t)v);
		break;
	case 'x':
		g_string_append_printf(s, "%" PRIx64, wide ? v : (uint32_t)v);
		break;
	case 'o':
		g_string_append_printf(s, "%" PRIo64, wide ? v : (uint32_t)v);
		break;
	default:	/* 'u' */
		g_string_append_printf(s, "%" PRIu64, wide ? v : (uint32_t)v);
		break;
	}
}

/* MAJOR(), MINOR() of a dev_t, as the kernel's (20 bits of minor) */
#define DEV_MINOR_BITS 20

void wbsim_trace_event_text(GString *s, enum wbsim_trace_event ev, const void *rec,
			    uint64_t jiffies, unsigned int hz)
{
	const struct trace_class *c;

	g_return_if_fail(ev < WBSIM_TRACE_NR_EVENTS);
	c = event_class[ev];
	for (size_t i = 0; i < c->nr_print; i++) {
		const struct trace_print *p = &c->print[i];
		const struct trace_field *f = &c->fields[p->field];
		uint64_t v;

		g_string_append(s, p->text);
		if (p->how == PRINT_FIELD && p->conv[strlen(p->conv) - 1] == 's') {
			const char *str = (const char *)rec + f->offset;

			g_string_append_len(s, str, (gssize)strnlen(str, f->size));
			continue;
		}
		v = field_value(rec, f);
		switch (p->how) {
		case PRINT_FIELD:
			append_number(s, p->conv, v);
			break;
		case PRINT_ULONG:
			g_string_append_printf(s, "%" PRIu64, v);
			break;
		case PRINT_MAJOR:
			g_string_append_printf(s, "%u", (unsigned int)(v >> DEV_MINOR_BITS));
			break;
		case PRINT_MINOR:
			g_string_append_printf(s, "%u",
					       (unsigned int)(v & ((1u << DEV_MINOR_BITS) - 1)));
			break;
		case PRINT_REASON:
			g_string_append(s, wbsim_wb_reason_name((enum wbsim_wb_reason)v));
			break;
		case PRINT_STATE:
			wbsim_trace_inode_state_text(s, v);
			break;
		case PRINT_AGE:
			g_string_append_printf(s, "%" PRIu64, (jiffies - v) / hz);
			break;
		}
	}
}

static void append_fields(GString *s, const struct trace_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		g_string_append_printf(s, "\tfield:%s;\toffset:%zu;\tsize:%zu;\tsigned:%d;\n",
				       f[i].decl, f[i].offset, f[i].size, f[i].is_signed);
}

/*
 * The print fmt, as the kernel's format file gives it: the format string,
 * then each conversion's argument, @reasons the writeback reason names
 * (WB_WORK_REASON) and @states show_inode_state()'s flags (the enum's
 * names: the kernel exports no values for them, so a reader such as
 * trace-cmd prints a state in hex). jiffies in an age is read when the
 * trace is (a kernel's text trace prints the age at its reading).
 */
static void append_print_fmt(GString *s, const struct trace_class *c, const char *reasons,
			     const char *states, unsigned int hz)
{
	g_string_append_c(s, '"');
	for (size_t i = 0; i < c->nr_print; i++)
		g_string_append_printf(s, "%s%s", c->print[i].text, c->print[i].conv);
	g_string_append_c(s, '"');
	for (size_t i = 0; i < c->nr_print; i++) {
		const char *m = c->print[i].member;

		g_string_append(s, ", ");
		switch (c->print[i].how) {
		case PRINT_FIELD:
			g_string_append_printf(s, "REC->%s", m);
			break;
		case PRINT_ULONG:
			g_string_append_printf(s, "(unsigned long)REC->%s", m);
			break;
		case PRINT_MAJOR:
			g_string_append_printf(s, "((unsigned int) ((REC->%s) >> %d))", m,
					       DEV_MINOR_BITS);
			break;
		case PRINT_MINOR:
			g_string_append_printf(s, "((unsigned int) ((REC->%s) & ((1U << %d) - 1)))",
					       m, DEV_MINOR_BITS);
			break;
		case PRINT_REASON:
			g_string_append_printf(s, "__print_symbolic(REC->%s, %s)", m, reasons);
			break;
		case PRINT_STATE:
			g_string_append_printf(s, "__print_flags(REC->%s, \"|\", %s)", m, states);
			break;
		case PRINT_AGE:
			g_string_append_printf(s, "(jiffies - REC->%s) / %u", m, hz);
			break;
		}
	}
}

char *wbsim_trace_event_format(enum wbsim_trace_event ev, unsigned int hz)
{
	GString *s = g_string_new(NULL);
	GString *reasons = g_string_new(NULL);
	GString *states = g_string_new(NULL);

	g_return_val_if_fail(ev < WBSIM_TRACE_NR_EVENTS, NULL);
	for (int r = 0; r < WB_REASON_MAX; r++)
		g_string_append_printf(reasons, "%s{ %d, \"%s\" }", r ? ", " : "", r,
				       wbsim_wb_reason_name((enum wbsim_wb_reason)r));
	for (size_t i = 0; i < G_N_ELEMENTS(inode_states); i++)
		g_string_append_printf(states, "%s{%s, \"%s\"}", i ? ", " : "",
				       inode_states[i].name, inode_states[i].name);
	g_string_append_printf(s, "name: %s\nID: %u\nformat:\n", wbsim_trace_event_names[ev],
			       wbsim_trace_event_id(ev));
	append_fields(s, common_fields, G_N_ELEMENTS(common_fields));
	g_string_append_c(s, '\n');
	append_fields(s, event_class[ev]->fields, event_class[ev]->nr_fields);
	g_string_append(s, "\nprint fmt: ");
	append_print_fmt(s, event_class[ev], reasons->str, states->str, hz);
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
