/* SPDX-License-Identifier: MIT */
/*
 * test-trace-format.c - each writeback tracepoint's format file (what
 * trace.dat tells a reader) against its text line (what --trace FILE.txt
 * prints), both made from the one declaration of the event
 * (defs/writeback-events.h). For every event:
 *
 * - the field lines lay the fields out as the kernel's compiler does for
 *   the kernel types they name (Linux 6.18 on x86-64: each at the next
 *   offset its type's alignment allows, of its type's size and sign), and
 *   the record is as long as its last field's end, rounded to 8;
 * - the print fmt has as many conversions as arguments, each argument
 *   reads a field of the list, with a conversion that fits the field's
 *   type, and every field is printed;
 * - the print fmt evaluated here on a record whose every field holds a
 *   value of its own, read at the offsets the format file gives (as
 *   trace-cmd would, with C's printf for the conversions), is the text
 *   line the library prints of the same bytes.
 *
 * A field printed from the wrong member, at the wrong offset, with the
 * wrong conversion or not at all, fails here (issue 37). And the writer
 * the model's fills hand their records to (wbsim_trace_event()): the
 * entry, the columns and the line it makes of one record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>
#include "report/trace-format.h"
#include "report/trace.h"

G_STATIC_ASSERT(sizeof(long) == 8);	/* the conversions are printed with the host's printf */

#define HZ 250
#define JIFFIES 4295000000ull

/* A field line: "\tfield:TYPE NAME[DIM];\toffset:N;\tsize:N;\tsigned:N;" */
struct field {
	char *type;
	char *name;
	size_t dim;		/* 0: not an array */
	size_t offset, size;
	int is_signed;
	gboolean printed;
};

static void field_clear(gpointer p)
{
	struct field *f = p;

	g_free(f->type);
	g_free(f->name);
}

/* The kernel types the declarations use: size (= alignment) and sign. */
static gboolean kernel_type(const char *type, size_t *size, int *is_signed)
{
	static const struct {
		const char *type;
		size_t size;
		int is_signed;
	} types[] = {
		{ "char", 1, 0 },	/* only in arrays, which the kernel gives unsigned */
		{ "__u16", 2, 0 },
		{ "int", 4, 1 },
		{ "unsigned int", 4, 0 },
		{ "dev_t", 4, 0 },
		{ "long", 8, 1 },
		{ "unsigned long", 8, 0 },
		{ "ino_t", 8, 0 },
		{ "pgoff_t", 8, 0 },
		{ "u64", 8, 0 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(types); i++)
		if (!strcmp(type, types[i].type)) {
			*size = types[i].size;
			*is_signed = types[i].is_signed;
			return TRUE;
		}
	return FALSE;
}

/* The event's own fields (after the common ones) and its print fmt. */
static GArray *parse_format(const char *fmt, enum wbsim_trace_event ev, char **print_fmt)
{
	g_autoptr(GRegex) rx = g_regex_new("^\tfield:(.+) (\\w+)(?:\\[(\\d+)\\])?;\toffset:(\\d+);"
					   "\tsize:(\\d+);\tsigned:(\\d);$", 0, 0, NULL);
	g_auto(GStrv) lines = g_strsplit(fmt, "\n", -1);
	GArray *fields = g_array_new(FALSE, TRUE, sizeof(struct field));
	g_autofree char *head = g_strdup_printf("name: %s", wbsim_trace_event_names[ev]);
	guint i = 0;

	g_array_set_clear_func(fields, field_clear);
	assert_string_equal(lines[0], head);
	/* the common fields, then an empty line, then the event's */
	while (lines[i] && *lines[i])
		i++;
	assert_non_null(lines[i]);
	for (i++; lines[i] && *lines[i]; i++) {
		g_autoptr(GMatchInfo) m = NULL;
		g_auto(GStrv) g = NULL;
		struct field f = { 0 };

		if (!g_regex_match(rx, lines[i], 0, &m))
			fail_msg("%s: not a field line: '%s'", wbsim_trace_event_names[ev], lines[i]);
		g = g_match_info_fetch_all(m);
		f.type = g_strdup(g[1]);
		f.name = g_strdup(g[2]);
		f.dim = *g[3] ? g_ascii_strtoull(g[3], NULL, 10) : 0;
		f.offset = g_ascii_strtoull(g[4], NULL, 10);
		f.size = g_ascii_strtoull(g[5], NULL, 10);
		f.is_signed = g[6][0] - '0';
		g_array_append_val(fields, f);
	}
	assert_non_null(lines[i]);
	assert_true(g_str_has_prefix(lines[i + 1], "print fmt: "));
	*print_fmt = g_strdup(lines[i + 1] + strlen("print fmt: "));
	return fields;
}

/* The fields where the kernel's compiler puts them: natural alignment. */
static void check_layout(GArray *fields, enum wbsim_trace_event ev)
{
	size_t end = sizeof(struct wbsim_trace_entry);

	assert_int_equal(end, 8);
	for (guint i = 0; i < fields->len; i++) {
		struct field *f = &g_array_index(fields, struct field, i);
		size_t size = 0;
		int sgn = 0;

		if (!kernel_type(f->type, &size, &sgn))
			fail_msg("%s: field %s of unknown kernel type '%s'",
				 wbsim_trace_event_names[ev], f->name, f->type);
		end = (end + size - 1) / size * size;
		if (f->offset != end || f->size != size * (f->dim ? f->dim : 1) || f->is_signed != sgn)
			fail_msg("%s: field %s %s: offset %zu size %zu signed %d, where the kernel has "
				 "offset %zu size %zu signed %d", wbsim_trace_event_names[ev], f->type,
				 f->name, f->offset, f->size, f->is_signed, end,
				 size * (f->dim ? f->dim : 1), sgn);
		end += f->size;
	}
	assert_int_equal(wbsim_trace_event_size(ev), (end + 7) / 8 * 8);
}

static struct field *find_field(GArray *fields, const char *name)
{
	for (guint i = 0; i < fields->len; i++)
		if (!strcmp(g_array_index(fields, struct field, i).name, name))
			return &g_array_index(fields, struct field, i);
	return NULL;
}

/* Split @s at the commas outside parentheses, braces and quotes. */
static GPtrArray *split_args(const char *s)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	const char *start = s;
	int depth = 0;
	gboolean quoted = FALSE;

	for (const char *p = s;; p++) {
		if (*p == '\0' || (*p == ',' && !depth && !quoted)) {
			g_autofree char *arg = g_strndup(start, (gsize)(p - start));

			g_ptr_array_add(a, g_strdup(g_strstrip(arg)));
			if (!*p)
				break;
			start = p + 1;
		} else if (*p == '"') {
			quoted = !quoted;
		} else if (!quoted && (*p == '(' || *p == '{')) {
			depth++;
		} else if (!quoted && (*p == ')' || *p == '}')) {
			depth--;
		}
	}
	return a;
}

/* The value a field holds in the test's record: its own, by its place. */
static uint64_t value_of(const struct field *f, guint i, const char *arg)
{
	if (g_str_has_prefix(arg, "__print_symbolic("))
		return 1 + i % 7;		/* a writeback reason */
	if (g_str_has_prefix(arg, "__print_flags("))
		return i % 2 ? (WBSIM_K_I_DIRTY_PAGES | WBSIM_K_I_SYNC) : WBSIM_K_I_WB_SWITCH;
	if (g_str_has_prefix(arg, "(jiffies - "))
		return JIFFIES - 1000 * (i + 1);
	if (g_str_has_prefix(arg, "((unsigned int) ((REC->"))
		return (259u << 20) | (0x12345u + i);	/* a dev_t, minor of 17 bits */
	if (f->is_signed)
		return (uint64_t)-(int64_t)(1000 * (i + 1) + 7);
	/* the top bit set: a signed conversion of it prints differently */
	return (1ull << (f->size * 8 - 1)) | (0x1000 * (i + 1) + i);
}

/* show_inode_state()'s names: their values are the test's own (the
 * format file gives names only) */
#define STATE_ROW(name, value) { #name, value },
static const struct {
	const char *name;
	unsigned int value;
} states[] = { WBSIM_TRACE_INODE_STATES(STATE_ROW) };

static uint64_t read_field(const guint8 *rec, const struct field *f)
{
	uint64_t v = 0;

	memcpy(&v, rec + f->offset, f->size);	/* little-endian host */
	if (f->is_signed && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
		v |= ~0ull << (f->size * 8);
	return v;
}

/* One argument of the print fmt, evaluated on @rec and printed by @conv. */
static void eval_arg(GString *out, const char *conv, const char *arg, GArray *fields,
		     const guint8 *rec, enum wbsim_trace_event ev)
{
	g_autoptr(GRegex) rx = g_regex_new("REC->(\\w+)", 0, 0, NULL);
	g_autoptr(GMatchInfo) m = NULL;
	g_autofree char *member = NULL;
	struct field *f;
	uint64_t v;
	char c = conv[strlen(conv) - 1];

	if (!g_regex_match(rx, arg, 0, &m))
		fail_msg("%s: argument '%s' reads no field", wbsim_trace_event_names[ev], arg);
	member = g_match_info_fetch(m, 1);
	f = find_field(fields, member);
	if (!f)
		fail_msg("%s: argument '%s' reads %s, not a field of the format file",
			 wbsim_trace_event_names[ev], arg, member);
	f->printed = TRUE;
	if (f->dim) {
		g_autofree char *want = g_strdup_printf("REC->%s", member);

		assert_int_equal(c, 's');
		assert_string_equal(arg, want);
		g_string_append_len(out, (const char *)rec + f->offset,
				    (gssize)strnlen((const char *)rec + f->offset, f->size));
		return;
	}
	v = read_field(rec, f);
	if (g_str_has_prefix(arg, "__print_symbolic(")) {
		g_autofree char *want = g_strdup_printf("{ %" G_GUINT64_FORMAT ", \"", v);
		const char *at = strstr(arg, want);

		assert_int_equal(c, 's');
		assert_non_null(at);
		at += strlen(want);
		g_string_append_len(out, at, (gssize)strcspn(at, "\""));
		return;
	}
	if (g_str_has_prefix(arg, "__print_flags(")) {
		gboolean first = TRUE;

		assert_int_equal(c, 's');
		for (size_t i = 0; i < G_N_ELEMENTS(states) && v; i++) {
			g_autofree char *row = g_strdup_printf("{%s, \"%s\"}", states[i].name,
							       states[i].name);

			if ((v & states[i].value) != states[i].value)
				continue;
			assert_non_null(strstr(arg, row));
			v &= ~(uint64_t)states[i].value;
			g_string_append_printf(out, "%s%s", first ? "" : "|", states[i].name);
			first = FALSE;
		}
		assert_int_equal(v, 0);
		return;
	}
	if (g_str_has_prefix(arg, "((unsigned int) ((REC->")) {
		if (strstr(arg, ") >> 20))"))
			v = (unsigned int)(v >> 20);
		else if (strstr(arg, ") & ((1U << 20) - 1)))"))
			v = (unsigned int)(v & ((1u << 20) - 1));
		else
			fail_msg("%s: argument '%s'", wbsim_trace_event_names[ev], arg);
	} else if (g_str_has_prefix(arg, "(jiffies - REC->")) {
		g_autofree char *want = g_strdup_printf("(jiffies - REC->%s) / %d", member, HZ);

		assert_string_equal(arg, want);
		v = (JIFFIES - v) / HZ;
	} else if (g_str_has_prefix(arg, "(unsigned long)REC->")) {
		assert_string_equal(arg + strlen("(unsigned long)"), g_strrstr(arg, "REC->"));
	} else {
		g_autofree char *want = g_strdup_printf("REC->%s", member);

		assert_string_equal(arg, want);
		/* what -Wformat checks in the kernel: the conversion fits the type */
		if ((c == 'd') != f->is_signed || (strchr(conv, 'l') != NULL) != (f->size == 8))
			fail_msg("%s: %s printed with %s", wbsim_trace_event_names[ev], member, conv);
	}
	/* the conversion, as the kernel's vsnprintf (and trace-cmd) apply it */
	if (!strcmp(conv, "%ld"))
		g_string_append_printf(out, "%ld", (long)v);
	else if (!strcmp(conv, "%lu"))
		g_string_append_printf(out, "%lu", (unsigned long)v);
	else if (!strcmp(conv, "%llu"))
		g_string_append_printf(out, "%llu", (unsigned long long)v);
	else if (!strcmp(conv, "%d"))
		g_string_append_printf(out, "%d", (int)v);
	else if (!strcmp(conv, "%u"))
		g_string_append_printf(out, "%u", (unsigned int)v);
	else if (!strcmp(conv, "%x"))
		g_string_append_printf(out, "%x", (unsigned int)v);
	else if (!strcmp(conv, "%o"))
		g_string_append_printf(out, "%o", (unsigned int)v);
	else
		fail_msg("%s: conversion %s", wbsim_trace_event_names[ev], conv);
}

/*
 * The print fmt evaluated on @rec: its format string, each conversion
 * replaced by its argument's value.
 */
static char *eval_print_fmt(const char *print_fmt, GArray *fields, const guint8 *rec,
			    enum wbsim_trace_event ev)
{
	g_autoptr(GRegex) conv_rx = g_regex_new("%(?:ld|lu|llu|d|u|x|o|s)", 0, 0, NULL);
	const char *end;
	g_autofree char *format = NULL;
	g_autoptr(GPtrArray) args = NULL;
	g_autoptr(GMatchInfo) m = NULL;
	GString *out = g_string_new(NULL);
	gint last = 0, start = 0, stop = 0;
	guint n = 0;

	assert_int_equal(print_fmt[0], '"');
	end = strchr(print_fmt + 1, '"');
	assert_non_null(end);
	format = g_strndup(print_fmt + 1, (gsize)(end - print_fmt - 1));
	assert_true(g_str_has_prefix(end, "\", "));
	args = split_args(end + 3);
	g_regex_match(conv_rx, format, 0, &m);
	for (; g_match_info_matches(m); g_match_info_next(m, NULL), n++) {
		g_autofree char *conv = g_match_info_fetch(m, 0);

		g_match_info_fetch_pos(m, 0, &start, &stop);
		g_string_append_len(out, format + last, start - last);
		if (n >= args->len)
			fail_msg("%s: more conversions than arguments in %s",
				 wbsim_trace_event_names[ev], print_fmt);
		eval_arg(out, conv, args->pdata[n], fields, rec, ev);
		last = stop;
	}
	g_string_append(out, format + last);
	if (n != args->len)
		fail_msg("%s: %u conversions, %u arguments in %s", wbsim_trace_event_names[ev], n,
			 args->len, print_fmt);
	return g_string_free(out, FALSE);
}

/* A record of @ev whose fields hold the values value_of() gives. */
static guint8 *make_record(GArray *fields, const char *print_fmt, enum wbsim_trace_event ev)
{
	guint8 *rec = g_malloc0(wbsim_trace_event_size(ev));
	g_autoptr(GPtrArray) args = split_args(strstr(print_fmt, "\", ") + 3);

	for (guint i = 0; i < fields->len; i++) {
		const struct field *f = &g_array_index(fields, struct field, i);
		g_autofree char *rec_m = g_strdup_printf("REC->%s", f->name);
		const char *arg = "";
		uint64_t v;

		if (f->dim) {
			g_snprintf((char *)rec + f->offset, f->size, "%u:%u", 250 + i, i);
			continue;
		}
		/* the first argument that reads the field says what it holds */
		for (guint a = 0; a < args->len; a++) {
			const char *p = strstr(args->pdata[a], rec_m);

			if (p && !g_ascii_isalnum(p[strlen(rec_m)]) && p[strlen(rec_m)] != '_') {
				arg = args->pdata[a];
				break;
			}
		}
		v = value_of(f, i, arg);
		memcpy(rec + f->offset, &v, f->size);	/* little-endian host */
	}
	return rec;
}

static void test_text_is_the_format(void **state)
{
	(void)state;
	for (int e = 0; e < WBSIM_TRACE_NR_EVENTS; e++) {
		enum wbsim_trace_event ev = (enum wbsim_trace_event)e;
		g_autofree char *fmt = wbsim_trace_event_format(ev, HZ);
		g_autofree char *print_fmt = NULL, *want = NULL;
		g_autofree guint8 *rec = NULL;
		g_autoptr(GArray) fields = parse_format(fmt, ev, &print_fmt);
		g_autoptr(GString) text = g_string_new(NULL);

		assert_true(fields->len > 0);
		check_layout(fields, ev);
		rec = make_record(fields, print_fmt, ev);
		want = eval_print_fmt(print_fmt, fields, rec, ev);
		for (guint i = 0; i < fields->len; i++)
			if (!g_array_index(fields, struct field, i).printed)
				fail_msg("%s: field %s is not printed", wbsim_trace_event_names[ev],
					 g_array_index(fields, struct field, i).name);
		wbsim_trace_event_text(text, ev, rec, JIFFIES, HZ);
		if (strcmp(text->str, want))
			fail_msg("%s: the text '%s', the format file's print fmt '%s' on the same "
				 "record", wbsim_trace_event_names[ev], text->str, want);
	}
}

/* Two events' lines and format files, pinned: what the kernel prints. */
static void test_known_lines(void **state)
{
	struct wbsim_trace_rec_work w = {
		.name = "259:0", .nr_pages = 9223372036854775807, .sb_dev = (259u << 20) | 3,
		.sync_mode = 0, .for_kupdate = 0, .range_cyclic = 1, .for_background = 1,
		.reason = 0, .cgroup_ino = 1,
	};
	struct wbsim_trace_rec_inode in = {
		.dev = (8u << 20) | 16, .ino = 131, .state = WBSIM_K_I_DIRTY_PAGES | WBSIM_K_I_SYNC,
		.mode = 0100644, .dirtied_when = JIFFIES - 7,
	};
	g_autoptr(GString) s = g_string_new(NULL);
	g_autofree char *fmt = wbsim_trace_event_format(WBSIM_TRACE_WRITEBACK_START, HZ);

	(void)state;
	wbsim_trace_event_text(s, WBSIM_TRACE_WRITEBACK_START, &w, JIFFIES, HZ);
	assert_string_equal(s->str, "bdi 259:0: sb_dev 259:3 nr_pages=9223372036854775807 "
			    "sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background "
			    "cgroup_ino=1");
	g_string_truncate(s, 0);
	wbsim_trace_event_text(s, WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE, &in, JIFFIES, HZ);
	assert_string_equal(s->str, "dev 8,16 ino 131 dirtied 4294999993 state I_DIRTY_PAGES|I_SYNC "
			    "mode 0100644");
	assert_non_null(strstr(fmt, "name: writeback_start\nID: 1002\nformat:\n"
				    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"));
	assert_non_null(strstr(fmt, "\tfield:long nr_pages;\toffset:40;\tsize:8;\tsigned:1;\n"
				    "\tfield:dev_t sb_dev;\toffset:48;\tsize:4;\tsigned:0;\n"));
	assert_non_null(strstr(fmt, "\tfield:ino_t cgroup_ino;\toffset:72;\tsize:8;\tsigned:0;\n"
				    "\nprint fmt: \"bdi %s: sb_dev %d:%d nr_pages=%ld sync_mode=%d "));
	assert_non_null(strstr(fmt, "__print_symbolic(REC->reason, { 0, \"background\" }, "
				    "{ 1, \"vmscan\" }"));
	assert_int_equal(wbsim_trace_event_size(WBSIM_TRACE_WRITEBACK_START), 80);
	assert_int_equal(wbsim_trace_event_size(WBSIM_TRACE_BALANCE_DIRTY_PAGES), 144);
}

/* What the writer was handed: the last line and record. */
struct written {
	char line[512];
	unsigned int lines;
	struct wbsim_trace_rec_inode rec;
	enum wbsim_trace_event ev;
	wbsim_time_t now;
	unsigned int cpu, pid, records;
	char comm[32];
	size_t size;
};

static void write_line(void *arg, const char *line)
{
	struct written *w = arg;

	g_strlcpy(w->line, line, sizeof(w->line));
	w->lines++;
}

static void write_record(void *arg, enum wbsim_trace_event ev, wbsim_time_t now, unsigned int cpu,
			 unsigned int pid, const char *comm, const void *rec, size_t size)
{
	struct written *w = arg;

	assert_int_equal(size, sizeof(w->rec));
	memcpy(&w->rec, rec, size);
	w->ev = ev;
	w->now = now;
	w->cpu = cpu;
	w->pid = pid;
	g_strlcpy(w->comm, comm, sizeof(w->comm));
	w->size = size;
	w->records++;
}

/*
 * The writer the model's fills hand their records to (wbsim_trace_event()):
 * the entry it fills (ID, irqs-off flag, preempt depth, pid), the task's
 * columns (comm, pid, CPU: the one it runs on, else the one it last ran
 * on; the idle task without one), the latency flags of the context, the
 * time rounded to the microsecond, and the fields after the event's name.
 */
static void test_writer(void **state)
{
	struct written w = { 0 };
	struct wbsim_trace tr = { .emit = write_line, .record = write_record, .arg = &w };
	struct wbsim_trace_clock clock = { .now = 1234567500, .jiffies = JIFFIES, .hz = HZ };
	wbsim_task fio = { .name = "fio", .pid = 102, .cpu = 3, .last_cpu = 1 };
	struct wbsim_trace_rec_inode in = {
		.dev = (8u << 20) | 16, .ino = 131, .state = WBSIM_K_I_DIRTY_PAGES,
		.mode = 0100644, .dirtied_when = JIFFIES - 7,
	};

	(void)state;
	wbsim_trace_event(&tr, &clock, &fio, WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE,
			  WBSIM_TRACE_CTX_XA_LOCK, &in, sizeof(in));
	assert_string_equal(w.line, "             fio-102     [003] d..1.     1.234568: "
			    "writeback_dirty_inode_enqueue: dev 8,16 ino 131 dirtied 4294999993 "
			    "state I_DIRTY_PAGES mode 0100644");
	assert_int_equal(w.records, 1);
	assert_int_equal(w.ev, WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE);
	assert_int_equal(w.rec.ent.type, 1013);
	assert_int_equal(w.rec.ent.flags, 1);
	assert_int_equal(w.rec.ent.preempt_count, 1);
	assert_int_equal(w.rec.ent.pid, 102);
	assert_int_equal(w.rec.ino, 131);
	assert_int_equal(w.now, 1234567500);
	assert_int_equal(w.cpu, 3);
	assert_int_equal(w.pid, 102);
	assert_string_equal(w.comm, "fio");

	/* off CPU: the CPU it last ran on; a spinlock held, interrupts on */
	fio.cpu = -1;
	wbsim_trace_event(&tr, &clock, &fio, WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE,
			  WBSIM_TRACE_CTX_LIST_LOCK, &in, sizeof(in));
	assert_true(g_str_has_prefix(w.line, "             fio-102     [001] ...1.     1.234568: "));
	assert_int_equal(w.rec.ent.flags, 0);
	assert_int_equal(w.cpu, 1);

	/* no task: the idle task; inode_switch_wbs's four locks, irqs off */
	clock.now = 999;
	wbsim_trace_event(&tr, &clock, NULL, WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE,
			  WBSIM_TRACE_CTX_SWITCH, &in, sizeof(in));
	assert_true(g_str_has_prefix(w.line, "          <idle>-0       [000] d..4.     0.000001: "));
	assert_int_equal(w.rec.ent.preempt_count, 4);
	assert_int_equal(w.rec.ent.pid, 0);
	assert_string_equal(w.comm, "<idle>");

	/* a text trace only: no record asked for */
	tr.record = NULL;
	wbsim_trace_event(&tr, &clock, &fio, WBSIM_TRACE_WRITEBACK_DIRTY_INODE_ENQUEUE,
			  WBSIM_TRACE_CTX_TASK, &in, sizeof(in));
	assert_int_equal(w.records, 3);
	assert_int_equal(w.lines, 4);
	assert_true(g_str_has_prefix(w.line, "             fio-102     [001] .....     0.000001: "));
	g_string_free(tr.buf, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_is_the_format),
		cmocka_unit_test(test_known_lines),
		cmocka_unit_test(test_writer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
