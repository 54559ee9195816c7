/* SPDX-License-Identifier: MIT */
/*
 * trace-dat.c - trace-cmd's trace.dat, version 6 (see report/trace-dat.h).
 *
 * Written by hand rather than through libtracecmd: Debian's libtracecmd
 * 3.1 declares only its reading API, and its undeclared tracecmd_output_*
 * functions take the headers and event formats from the running kernel's
 * tracefs, not from the caller, so a simulated trace could not describe its
 * own records. Numbers are in the host's byte order, which the file states.
 */
#include <errno.h>
#include <string.h>
#include <wbsim/error.h>
#include "core/spool.h"
#include "report/trace-dat.h"
#include "report/trace-format.h"
#include "report/trace.h"

/* The kernel ring buffer's event header (kernel/trace/ring_buffer.c). */
#define RB_TYPE_LEN_BITS	5
#define RB_DELTA_BITS		27
#define RB_DELTA_MAX		((1u << RB_DELTA_BITS) - 1)
#define RB_MAX_SMALL_DATA	(4u * 28)	/* type_len 1..28: 4-byte words */
#define RB_TYPE_TIME_EXTEND	30
#define RB_PAGE_HEADER		16u		/* u64 time stamp, local_t commit */
#define RB_PAGE_DATA		(WBSIM_TRACE_DAT_PAGE_SIZE - RB_PAGE_HEADER)

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

G_STATIC_ASSERT(RB_PAGE_DATA == 4080);

/*
 * Pages of one CPU held in memory before they go to the spool, at most;
 * with many CPUs fewer (TRACE_DAT_HELD_BYTES in all), at least one.
 */
#define TRACE_DAT_BATCH_PAGES	16u
#define TRACE_DAT_HELD_BYTES	(1u << 20)

/*
 * One CPU's ring buffer: the pages written to the spool, then the ones in
 * @buf, whose last is being filled (the bytes after @len are zeros).
 */
struct cpu_buffer {
	guint8 *buf;
	size_t len;		/* bytes of @buf used */
	size_t page;		/* offset in @buf of the page being filled */
	struct wbsim_spool_chain spooled;
	uint64_t last_ts;	/* time of the last event written */
	gboolean open;		/* a page is being filled */
};

struct wbsim_trace_dat {
	GArray *cpus;			/* struct cpu_buffer */
	GHashTable *comm_of;		/* pid -> comm */
	struct wbsim_spool *spool;	/* the pages of every CPU, but those in memory */
	size_t batch;			/* bytes of a CPU's @buf */
	unsigned int hz;		/* CONFIG_HZ, for the format files */
};

struct wbsim_trace_dat *wbsim_trace_dat_new(unsigned int nr_cpus, unsigned int hz,
					    const char *dir, GError **error)
{
	struct wbsim_spool *spool = wbsim_spool_new(dir, error);
	struct wbsim_trace_dat *dat;

	if (!spool) {
		g_prefix_error(error, "trace.dat: its pages wait until the end in a temporary file: ");
		return NULL;
	}
	dat = g_new0(struct wbsim_trace_dat, 1);
	dat->cpus = g_array_new(FALSE, TRUE, sizeof(struct cpu_buffer));
	dat->comm_of = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	dat->spool = spool;
	dat->hz = hz;
	dat->batch = (size_t)CLAMP(TRACE_DAT_HELD_BYTES / WBSIM_TRACE_DAT_PAGE_SIZE /
				   MAX(nr_cpus, 1u), 1u, TRACE_DAT_BATCH_PAGES) *
		     WBSIM_TRACE_DAT_PAGE_SIZE;
	return dat;
}

void wbsim_trace_dat_free(struct wbsim_trace_dat *dat)
{
	if (!dat)
		return;
	for (guint i = 0; i < dat->cpus->len; i++)
		g_free(g_array_index(dat->cpus, struct cpu_buffer, i).buf);
	g_array_free(dat->cpus, TRUE);
	g_hash_table_destroy(dat->comm_of);
	wbsim_spool_free(dat->spool);
	g_free(dat);
}

/* The 32-bit event header: type_len in the low 5 bits of a little-endian
 * word, in the high 5 bits of a big-endian one. */
static uint32_t event_header(unsigned int type_len, uint32_t delta)
{
	if (G_BYTE_ORDER == G_BIG_ENDIAN)
		return ((uint32_t)type_len << RB_DELTA_BITS) | delta;
	return (delta << RB_TYPE_LEN_BITS) | type_len;
}

static void append(struct cpu_buffer *cb, const void *p, size_t n)
{
	memcpy(cb->buf + cb->len, p, n);
	cb->len += n;
}

static void append_u32(struct cpu_buffer *cb, uint32_t v)
{
	append(cb, &v, sizeof(v));
}

/*
 * A new page after the last one (which ends in zeros); when the pages in
 * memory fill @dat's batch, they go to the spool first.
 */
static void start_page(struct wbsim_trace_dat *dat, struct cpu_buffer *cb, uint64_t ts)
{
	if (!cb->buf)
		cb->buf = g_malloc0(dat->batch);
	if (cb->open)
		cb->len = cb->page + WBSIM_TRACE_DAT_PAGE_SIZE;
	if (cb->len == dat->batch) {
		/* a failure is the spool's error, said when the file is written */
		wbsim_spool_append(dat->spool, &cb->spooled, cb->buf, cb->len);
		memset(cb->buf, 0, dat->batch);
		cb->len = 0;
	}
	cb->page = cb->len;
	memcpy(cb->buf + cb->page, &ts, sizeof(ts));
	cb->len += RB_PAGE_HEADER;
	cb->last_ts = ts;
	cb->open = TRUE;
}

/* The page's commit: the bytes of events after its header. */
static void commit_page(struct cpu_buffer *cb)
{
	int64_t commit = (int64_t)(cb->len - cb->page - RB_PAGE_HEADER);

	memcpy(cb->buf + cb->page + 8, &commit, sizeof(commit));
}

void wbsim_trace_dat_add(struct wbsim_trace_dat *dat, uint64_t ts_ns, unsigned int cpu,
			 unsigned int pid, const char *comm, const void *rec, size_t size)
{
	static const guint8 pad[4];
	struct cpu_buffer *cb;
	size_t data = (size + 3) & ~(size_t)3;
	gboolean small = data <= RB_MAX_SMALL_DATA;
	size_t need = 4 + (small ? 0 : 4) + data;
	uint64_t delta;

	g_return_if_fail(need <= RB_PAGE_DATA - 8);
	if (cpu >= dat->cpus->len)
		g_array_set_size(dat->cpus, cpu + 1);
	cb = &g_array_index(dat->cpus, struct cpu_buffer, cpu);
	if (pid && !g_hash_table_contains(dat->comm_of, GUINT_TO_POINTER(pid)))
		g_hash_table_insert(dat->comm_of, GUINT_TO_POINTER(pid), g_strdup(comm));

	delta = cb->open && ts_ns >= cb->last_ts ? ts_ns - cb->last_ts : 0;
	if (!cb->open || cb->len - cb->page - RB_PAGE_HEADER +
			 (delta > RB_DELTA_MAX ? 8 : 0) + need > RB_PAGE_DATA) {
		start_page(dat, cb, ts_ns);
		delta = 0;
	}
	if (delta > RB_DELTA_MAX) {	/* a time extend: the delta's high bits in array[0] */
		append_u32(cb, event_header(RB_TYPE_TIME_EXTEND, (uint32_t)(delta & RB_DELTA_MAX)));
		append_u32(cb, (uint32_t)(delta >> RB_DELTA_BITS));
		delta = 0;
	}
	if (small) {
		append_u32(cb, event_header((unsigned int)(data / 4), (uint32_t)delta));
	} else {	/* type_len 0: array[0] holds the length, itself included */
		append_u32(cb, event_header(0, (uint32_t)delta));
		append_u32(cb, (uint32_t)(data + 4));
	}
	append(cb, rec, size);
	append(cb, pad, data - size);
	cb->last_ts = ts_ns;
	commit_page(cb);
}

/* A CPU's pages in memory, the last one whole. */
static size_t held_bytes(const struct cpu_buffer *cb)
{
	return cb->open ? cb->page + WBSIM_TRACE_DAT_PAGE_SIZE : 0;
}

static void put(GByteArray *a, const void *p, size_t n)
{
	g_byte_array_append(a, p, (guint)n);
}

static void put_u16(GByteArray *a, uint16_t v) { put(a, &v, sizeof(v)); }
static void put_u32(GByteArray *a, uint32_t v) { put(a, &v, sizeof(v)); }
static void put_u64(GByteArray *a, uint64_t v) { put(a, &v, sizeof(v)); }
static void put_str(GByteArray *a, const char *s) { put(a, s, strlen(s) + 1); }

/* A block: its size in @size_bytes (4 or 8), then the text. */
static void put_sized(GByteArray *a, const char *text, size_t size_bytes)
{
	size_t n = strlen(text);

	if (size_bytes == 4)
		put_u32(a, (uint32_t)n);
	else
		put_u64(a, n);
	put(a, text, n);
}

static gint compare_pid(gconstpointer a, gconstpointer b)
{
	unsigned int x = GPOINTER_TO_UINT(a), y = GPOINTER_TO_UINT(b);

	return (x > y) - (x < y);
}

/* saved_cmdlines: "PID COMM" lines, by pid */
static char *cmdlines(const struct wbsim_trace_dat *dat)
{
	GList *pids = g_list_sort(g_hash_table_get_keys(dat->comm_of), compare_pid);
	GString *s = g_string_new(NULL);

	for (GList *l = pids; l; l = l->next)
		g_string_append_printf(s, "%u %s\n", GPOINTER_TO_UINT(l->data),
				       (const char *)g_hash_table_lookup(dat->comm_of, l->data));
	g_list_free(pids);
	return g_string_free(s, FALSE);
}

/* @ev is one of @events (NULL: every event) */
static gboolean event_selected(const char *const *events, int ev)
{
	return !events || g_strv_contains(events, wbsim_trace_event_names[ev]);
}

/* wbsim_spool_read_fn: a CPU's spooled pages into the file */
static gboolean write_pages(const void *data, size_t n, void *f)
{
	return fwrite(data, 1, n, f) == n;
}

gboolean wbsim_trace_dat_write(const struct wbsim_trace_dat *dat, FILE *f, const char *path,
			       unsigned int nr_cpus, const char *const *events, GError **error)
{
	g_autoptr(GByteArray) h = g_byte_array_new();
	g_autofree char *cmds = cmdlines(dat);
	const guint8 magic[] = { 0x17, 0x08, 0x44 };
	guint8 endian = G_BYTE_ORDER == G_BIG_ENDIAN, long_size = 8;
	uint64_t offset;
	uint32_t nr_events = 0;
	gboolean ok = TRUE;
	int e = 0;

	if ((e = wbsim_spool_errno(dat->spool)) != 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
			    "%s: the trace's pages were kept in a temporary file in %s until the end, "
			    "and writing it failed: %s", path, wbsim_spool_dir(dat->spool),
			    g_strerror(e));
		return FALSE;
	}
	nr_cpus = MAX(nr_cpus, dat->cpus->len);
	put(h, magic, sizeof(magic));
	put(h, "tracing", 7);
	put_str(h, "6");
	put(h, &endian, 1);
	put(h, &long_size, 1);
	put_u32(h, WBSIM_TRACE_DAT_PAGE_SIZE);
	put_str(h, "header_page");
	put_sized(h, header_page, 8);
	put_str(h, "header_event");
	put_sized(h, header_event, 8);
	put_u32(h, 0);				/* no ftrace event formats */
	put_u32(h, 1);				/* one event system */
	put_str(h, WBSIM_TRACE_SYSTEM);
	/* the selected events' formats only, as trace-cmd record -e stores them */
	for (int ev = 0; ev < WBSIM_TRACE_NR_EVENTS; ev++)
		nr_events += event_selected(events, ev);
	put_u32(h, nr_events);
	for (int ev = 0; ev < WBSIM_TRACE_NR_EVENTS; ev++) {
		g_autofree char *fmt = NULL;

		if (!event_selected(events, ev))
			continue;
		fmt = wbsim_trace_event_format((enum wbsim_trace_event)ev, dat->hz);
		put_sized(h, fmt, 8);
	}
	put_u32(h, 0);				/* kallsyms: none */
	put_u32(h, 0);				/* trace_printk formats: none */
	put_sized(h, cmds, 8);
	put_u32(h, nr_cpus);
	put(h, "options  ", 10);
	put_u16(h, 0);				/* no option */
	put(h, "flyrecord", 10);
	/* each CPU's pages at a page-aligned offset, the last page written whole */
	offset = h->len + 16ull * nr_cpus;
	offset = (offset + WBSIM_TRACE_DAT_PAGE_SIZE - 1) / WBSIM_TRACE_DAT_PAGE_SIZE *
		 WBSIM_TRACE_DAT_PAGE_SIZE;
	for (unsigned int c = 0; c < nr_cpus; c++) {
		const struct cpu_buffer *cb = c < dat->cpus->len ?
			&g_array_index(dat->cpus, struct cpu_buffer, c) : NULL;
		uint64_t size = cb ? cb->spooled.bytes + held_bytes(cb) : 0;

		put_u64(h, offset);
		put_u64(h, size);
		offset += size;
	}
	while (h->len % WBSIM_TRACE_DAT_PAGE_SIZE)
		put(h, "", 1);
	ok = fwrite(h->data, 1, h->len, f) == h->len;
	/* each CPU's pages: those in the spool, then those in memory */
	for (guint c = 0; ok && c < dat->cpus->len; c++) {
		const struct cpu_buffer *cb = &g_array_index(dat->cpus, struct cpu_buffer, c);
		size_t held = held_bytes(cb);

		e = wbsim_spool_read(dat->spool, &cb->spooled, write_pages, f);
		if (e > 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
				    "%s: reading the trace's pages back from a temporary file in %s: %s",
				    path, wbsim_spool_dir(dat->spool), g_strerror(e));
			return FALSE;
		}
		ok = e == 0 && (!held || fwrite(cb->buf, 1, held, f) == held);
	}
	if (!ok || fflush(f) != 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "%s: %s", path,
			    g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}
