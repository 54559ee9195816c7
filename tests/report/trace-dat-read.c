/* SPDX-License-Identifier: MIT */
/* trace-dat-read.c - read a trace.dat for the tests (trace-dat-read.h). */
#include <stdlib.h>
#include <string.h>

#include "trace-dat-read.h"

/* the kernel ring buffer's event header (kernel/trace/ring_buffer.c) */
#define TYPE_LEN_MASK	31u
#define DELTA_SHIFT	5
#define TYPE_PADDING	29u
#define TYPE_TIME_EXTEND 30u
#define TYPE_TIME_STAMP	31u
#define PAGE_HEADER	16u	/* u64 time stamp, local_t commit */

struct cursor {
	const char *p, *end;
	const char *what;	/* the section being read, for messages */
	GError **error;
};

static gboolean bad(struct cursor *c, const char *why)
{
	if (!*c->error)
		g_set_error(c->error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "trace.dat: %s: %s",
			    c->what, why);
	return FALSE;
}

static gboolean take(struct cursor *c, void *out, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return bad(c, "the file ends inside it");
	if (out)
		memcpy(out, c->p, n);
	c->p += n;
	return TRUE;
}

/* @s and its '\0' */
static gboolean expect_str(struct cursor *c, const char *s)
{
	size_t n = strlen(s) + 1;

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return bad(c, "not where expected");
	c->p += n;
	return TRUE;
}

/* a block of @size_bytes (4 or 8) length, then the text: a copy */
static char *sized(struct cursor *c, size_t size_bytes)
{
	uint64_t n = 0;
	uint32_t n32;

	if (size_bytes == 4) {
		if (!take(c, &n32, 4))
			return NULL;
		n = n32;
	} else if (!take(c, &n, 8)) {
		return NULL;
	}
	if ((uint64_t)(c->end - c->p) < n) {
		bad(c, "its size goes past the file's end");
		return NULL;
	}
	c->p += n;
	return g_strndup(c->p - n, (gsize)n);
}

/* a format file's "name: NAME" and "ID: N" lines */
static gboolean add_format(struct tdr_file *f, struct cursor *c, const char *fmt)
{
	const char *name = strstr(fmt, "name: "), *id = strstr(fmt, "\nID: ");

	if (!name || !id)
		return bad(c, "a format file without name: or ID:");
	g_hash_table_insert(f->event_names, GUINT_TO_POINTER(strtoul(id + 5, NULL, 10)),
			    g_strndup(name + 6, strcspn(name + 6, "\n")));
	return TRUE;
}

static gboolean read_header(struct tdr_file *f, struct cursor *c)
{
	static const char magic[] = "\x17\x08\x44tracing";
	uint32_t n, systems;
	guint8 endian, long_size;
	g_autofree char *text = NULL;

	c->what = "magic";
	if ((size_t)(c->end - c->p) < 10 || memcmp(c->p, magic, 10) != 0)
		return bad(c, "not \\x17\\x08\\x44tracing");
	c->p += 10;
	c->what = "version";
	if (!expect_str(c, "6") || !take(c, &endian, 1) || !take(c, &long_size, 1) ||
	    !take(c, &f->page_size, 4))
		return FALSE;
	if (endian != (G_BYTE_ORDER == G_BIG_ENDIAN) || long_size != 8 || !f->page_size)
		return bad(c, "another byte order, long size or no page size");
	c->what = "header_page";
	if (!expect_str(c, "header_page") || !(text = sized(c, 8)))
		return FALSE;
	g_clear_pointer(&text, g_free);
	c->what = "header_event";
	if (!expect_str(c, "header_event") || !(text = sized(c, 8)))
		return FALSE;
	g_clear_pointer(&text, g_free);
	c->what = "ftrace event formats";
	if (!take(c, &n, 4))
		return FALSE;
	for (uint32_t i = 0; i < n; i++) {
		if (!(text = sized(c, 8)))
			return FALSE;
		g_clear_pointer(&text, g_free);
	}
	c->what = "event systems";
	if (!take(c, &systems, 4))
		return FALSE;
	for (uint32_t s = 0; s < systems; s++) {
		const char *nul = memchr(c->p, '\0', (size_t)(c->end - c->p));

		if (!nul)
			return bad(c, "a system name without its end");
		c->p = nul + 1;
		if (!take(c, &n, 4))
			return FALSE;
		for (uint32_t i = 0; i < n; i++) {
			if (!(text = sized(c, 8)) || !add_format(f, c, text))
				return FALSE;
			g_clear_pointer(&text, g_free);
		}
	}
	c->what = "kallsyms";
	if (!(text = sized(c, 4)))
		return FALSE;
	g_clear_pointer(&text, g_free);
	c->what = "trace_printk formats";
	if (!(text = sized(c, 4)))
		return FALSE;
	g_clear_pointer(&text, g_free);
	c->what = "saved_cmdlines";
	if (!(text = sized(c, 8)))
		return FALSE;
	{
		g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

		for (char **l = lines; *l; l++) {
			char *sp = strchr(*l, ' ');

			if (**l && !sp)
				return bad(c, "a line that is not \"PID COMM\"");
			if (sp)
				g_hash_table_insert(f->comms, GUINT_TO_POINTER(strtoul(*l, NULL, 10)),
						    g_strdup(sp + 1));
		}
	}
	c->what = "CPU count";
	if (!take(c, &f->nr_cpus, 4) || !f->nr_cpus)
		return bad(c, "no CPU");
	c->what = "options";
	if (!expect_str(c, "options  "))
		return FALSE;
	for (;;) {
		uint16_t id;
		uint32_t size;

		if (!take(c, &id, 2))
			return FALSE;
		if (!id)
			break;
		if (!take(c, &size, 4) || !take(c, NULL, size))
			return FALSE;
	}
	c->what = "flyrecord";
	if (!expect_str(c, "flyrecord"))
		return FALSE;
	f->cpu_offset = g_new0(uint64_t, f->nr_cpus);
	f->cpu_size = g_new0(uint64_t, f->nr_cpus);
	for (uint32_t i = 0; i < f->nr_cpus; i++) {
		if (!take(c, &f->cpu_offset[i], 8) || !take(c, &f->cpu_size[i], 8))
			return FALSE;
		if (f->cpu_offset[i] > f->len || f->cpu_size[i] > f->len - f->cpu_offset[i])
			return bad(c, "a CPU's section goes past the file's end");
		if (f->cpu_size[i] % f->page_size || f->cpu_offset[i] % f->page_size)
			return bad(c, "a CPU's section is not in whole, aligned pages");
		if (f->cpu_size[i] && f->cpu_offset[i] < (uint64_t)(c->p - f->bin))
			return bad(c, "a CPU's section starts inside the header");
	}
	return TRUE;
}

gboolean tdr_open(const char *path, struct tdr_file *f, GError **error)
{
	struct cursor c = { .error = error };

	memset(f, 0, sizeof(*f));
	f->event_names = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	f->comms = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	if (!g_file_get_contents(path, &f->bin, &f->len, error))
		return FALSE;
	c.p = f->bin;
	c.end = f->bin + f->len;
	return read_header(f, &c);
}

void tdr_close(struct tdr_file *f)
{
	g_free(f->bin);
	g_hash_table_destroy(f->event_names);
	g_hash_table_destroy(f->comms);
	g_free(f->cpu_offset);
	g_free(f->cpu_size);
	memset(f, 0, sizeof(*f));
}

/* the events of one page, appended to @out */
static gboolean page_events(const struct tdr_file *f, const char *page, GArray *out,
			    uint64_t *last_ts, struct cursor *c)
{
	uint64_t ts;
	int64_t commit;
	const char *p = page + PAGE_HEADER, *end;

	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, 8);
	if (commit < 0 || (uint64_t)commit > f->page_size - PAGE_HEADER)
		return bad(c, "a page's commit is past its end");
	end = p + commit;
	while (p < end) {
		uint32_t h, type_len, delta, len;
		struct tdr_event ev = { 0 };

		if (end - p < 4)
			return bad(c, "an event header cut by the commit");
		memcpy(&h, p, 4);
		p += 4;
		type_len = h & TYPE_LEN_MASK;
		delta = h >> DELTA_SHIFT;
		if (type_len == TYPE_TIME_EXTEND || type_len == TYPE_TIME_STAMP) {
			uint32_t hi;

			if (end - p < 4)
				return bad(c, "a time extend cut by the commit");
			memcpy(&hi, p, 4);
			p += 4;
			if (type_len == TYPE_TIME_EXTEND)
				ts += ((uint64_t)hi << 27) + delta;
			else
				ts = ((uint64_t)hi << 27) + delta;
			continue;
		}
		if (type_len == TYPE_PADDING)
			return bad(c, "a padding event (wbsim writes none)");
		if (type_len == 0) {
			if (end - p < 4)
				return bad(c, "a long event's length cut by the commit");
			memcpy(&len, p, 4);
			p += 4;
			if (len < 4)
				return bad(c, "a long event's length below 4");
			len -= 4;
		} else {
			len = type_len * 4;
		}
		if ((uint32_t)(end - p) < len || len < 8)
			return bad(c, "an event cut by the commit, or without its entry");
		ts += delta;
		if (ts < *last_ts)
			return bad(c, "time runs backwards");
		*last_ts = ts;
		ev.ts = ts;
		memcpy(&ev.type, p, 2);
		memcpy(&ev.pid, p + 4, 4);
		ev.data = (const guint8 *)p;
		ev.size = len;
		g_array_append_val(out, ev);
		p += len;
	}
	/* the rest of the page is zeros */
	for (p = end; p < page + f->page_size; p++)
		if (*p)
			return bad(c, "bytes after a page's commit");
	return TRUE;
}

GArray *tdr_events(const struct tdr_file *f, unsigned int cpu, guint *pages, GError **error)
{
	g_autoptr(GArray) out = g_array_new(FALSE, FALSE, sizeof(struct tdr_event));
	struct cursor c = { .what = "ring-buffer pages", .error = error };
	uint64_t last_ts = 0;
	guint n = 0;

	if (cpu >= f->nr_cpus) {
		bad(&c, "no such CPU");
		return NULL;
	}
	for (uint64_t off = 0; off < f->cpu_size[cpu]; off += f->page_size, n++) {
		const char *page = f->bin + f->cpu_offset[cpu] + off;
		uint64_t page_ts;

		memcpy(&page_ts, page, 8);
		if (page_ts < last_ts) {
			bad(&c, "a page starts before the last event of the page before");
			return NULL;
		}
		if (!page_events(f, page, out, &last_ts, &c))
			return NULL;
	}
	if (pages)
		*pages = n;
	return g_steal_pointer(&out);
}
