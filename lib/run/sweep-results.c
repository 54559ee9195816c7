/* SPDX-License-Identifier: MIT */
/*
 * sweep-results.c - the results file of a resumable sweep
 * (run/sweep-results.h): reading what an earlier run finished,
 * checking it belongs to this sweep, and appending each finished point.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <json-glib/json-glib.h>
#include <wbsim/error.h>
#include "core/arg-check.h"
#include "core/read-file.h"
#include "run/sweep-results.h"

/* The largest --results file read back (a point line is a few KiB). */
#define WBSIM_RESULTS_FILE_MAX ((gsize)1 << 30)

struct wbsim_sweep_results {
	char *path;
	const struct wbsim_sweep *sw;
	FILE *f;
	GMutex lock;
	size_t n;
	char **texts;		/* per point: its output, once known */
	unsigned int *lines;	/* per point: the line it was read from (0: none) */
	size_t n_done;		/* points read from the file */
};

static JsonNode *parse_object(const char *text)
{
	JsonNode *node = json_from_string(text, NULL);

	if (node && !JSON_NODE_HOLDS_OBJECT(node))
		g_clear_pointer(&node, json_node_unref);
	return node;
}

/* The point's {KEY: VALUE} object, as one line of JSON. */
static char *values_text(const struct wbsim_sweep *sw, size_t point)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;

	wbsim_sweep_add_values_json(sw, point, b);
	root = json_builder_get_root(b);
	return json_to_string(root, FALSE);
}

/* Line 1 differs from @identity: say which member, and how. */
static void identity_error(const struct wbsim_sweep_results *res,
			   const char *line, const char *identity,
			   GError **error)
{
	g_autoptr(JsonNode) have = parse_object(line);
	g_autoptr(JsonNode) want = parse_object(identity);
	JsonObject *h, *w;
	g_autoptr(GList) members = NULL;

	if (!have || !json_object_has_member(json_node_get_object(have),
					     "wbsim_sweep_results")) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "wbsim_sweep_opts.results %s:1: not a wbsim sweep results file: expected a first line {\"wbsim_sweep_results\": ...} (give another file)",
			    res->path);
		return;
	}
	h = json_node_get_object(have);
	w = json_node_get_object(want);
	members = json_object_get_members(w);
	for (GList *m = members; m; m = m->next) {
		JsonNode *a = json_object_get_member(h, m->data);
		g_autofree char *at = a ? json_to_string(a, FALSE) : g_strdup("nothing");
		g_autofree char *bt = json_to_string(json_object_get_member(w, m->data), FALSE);

		if (strcmp(at, bt) != 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "wbsim_sweep_opts.results %s: holds the results of another sweep: its %s is %s, this run's is %s (give another file, or remove it to start again)",
				    res->path, (const char *)m->data, at, bt);
			return;
		}
	}
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
		    "wbsim_sweep_opts.results %s: holds the results of another sweep: its first line differs from this run's (give another file, or remove it to start again)",
		    res->path);
}

/* One whole point line (@lineno from 1): its output into res->texts. */
static gboolean read_point(struct wbsim_sweep_results *res, const char *line,
			   unsigned int lineno, GError **error)
{
	g_autoptr(JsonNode) node = parse_object(line);
	JsonObject *o = node ? json_node_get_object(node) : NULL;
	JsonNode *pn = o ? json_object_get_member(o, "point") : NULL;
	JsonNode *sn = o ? json_object_get_member(o, "sweep") : NULL;
	JsonNode *tn = o ? json_object_get_member(o, "text") : NULL;
	g_autofree char *have = NULL, *want = NULL;
	gint64 point;

	if (!pn || !sn || !tn || json_node_get_value_type(pn) != G_TYPE_INT64 ||
	    json_node_get_value_type(tn) != G_TYPE_STRING) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "wbsim_sweep_opts.results %s:%u: not a point's result: expected {\"point\": N, \"sweep\": {...}, \"text\": \"...\"}",
			    res->path, lineno);
		return FALSE;
	}
	point = json_node_get_int(pn);
	if (point < 1 || (guint64)point > res->n) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "wbsim_sweep_opts.results %s:%u: point %" G_GINT64_FORMAT ": expected a point from 1 to %zu",
			    res->path, lineno, point, res->n);
		return FALSE;
	}
	have = json_to_string(sn, FALSE);
	want = values_text(res->sw, (size_t)point - 1);
	if (strcmp(have, want) != 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "wbsim_sweep_opts.results %s:%u: point %" G_GINT64_FORMAT " has the values %s: expected %s",
			    res->path, lineno, point, have, want);
		return FALSE;
	}
	if (res->texts[point - 1]) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "wbsim_sweep_opts.results %s:%u: point %" G_GINT64_FORMAT " again (first at line %u): expected each point once",
			    res->path, lineno, point, res->lines[point - 1]);
		return FALSE;
	}
	res->n_done++;
	res->lines[point - 1] = lineno;
	res->texts[point - 1] = g_strdup(json_node_get_string(tn));
	return TRUE;
}

/*
 * Read @contents: check line 1, read the whole point lines, and set
 * @keep to the length of the part to keep (0: start the file again).
 */
static gboolean read_file(struct wbsim_sweep_results *res, const char *contents,
			  gsize len, const char *identity, gsize *keep,
			  GError **error)
{
	const char *p = contents, *end = contents + len;
	unsigned int lineno = 0;

	/*
	 * The same file after an editor or a copy through another system:
	 * a UTF-8 byte order mark first and CRLF line ends are read as the
	 * plain file (the lines appended next end in LF, also read back)
	 */
	if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	*keep = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl;
		g_autofree char *line = NULL;

		if (!nl)
			break;		/* cut short while being written */
		if (le > p && le[-1] == '\r')
			le--;
		line = g_strndup(p, (gsize)(le - p));
		lineno++;
		if (lineno == 1 && strcmp(line, identity) != 0) {
			identity_error(res, line, identity, error);
			return FALSE;
		}
		if (lineno > 1 && !read_point(res, line, lineno, error))
			return FALSE;
		p = nl + 1;
		*keep = (gsize)(p - contents);
	}
	/* a first line cut short is tolerated only if it is this sweep's */
	if (lineno == 0 && p < end && !g_str_has_prefix(identity, p)) {
		identity_error(res, p, identity, error);
		return FALSE;
	}
	return TRUE;
}

struct wbsim_sweep_results *wbsim_sweep_results_open_as(const char *path,
							const char *identity,
							const struct wbsim_sweep *sw,
							GError **error)
{
	struct wbsim_sweep_results *res = g_new0(struct wbsim_sweep_results, 1);
	g_autofree char *contents = NULL;
	g_autoptr(GError) e = NULL;
	gsize len = 0, keep = 0;
	struct stat st;
	int fd = -1;

	res->path = g_strdup(path);
	res->sw = sw;
	res->n = wbsim_sweep_n_points(sw);
	res->texts = g_new0(char *, res->n);
	res->lines = g_new0(unsigned int, res->n);
	g_mutex_init(&res->lock);
	/*
	 * A regular file (it is truncated and appended to), or none yet:
	 * anything else is refused by wbsim_read_file(), never opened.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (!wbsim_read_file(path, WBSIM_RESULTS_FILE_MAX, &contents, &len, &e))
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "wbsim_sweep_opts.results %s: %s",
				    path, e->message);
		goto fail;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
	if (fd < 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "wbsim_sweep_opts.results %s: %s",
			    path, g_strerror(errno));
		goto fail;
	}
	/*
	 * One writer at a time: the lock is held until the file is closed
	 * (wbsim_sweep_results_close()); another sweep appending to the same
	 * file would tear its lines and read points half written.
	 */
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
				    "another sim-writeback is appending to %s (pid unknown): wait for "
				    "it or name another results file", path);
		else
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "wbsim_sweep_opts.results %s: %s",
				    path, g_strerror(errno));
		goto fail;
	}
	if (!wbsim_read_file(path, WBSIM_RESULTS_FILE_MAX, &contents, &len, &e)) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "wbsim_sweep_opts.results %s: %s",
			    path, e->message);
		goto fail;
	}
	if (!read_file(res, contents, len, identity, &keep, error))
		goto fail;
	if ((keep < len && ftruncate(fd, (off_t)keep) != 0) ||
	    lseek(fd, 0, SEEK_END) < 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "wbsim_sweep_opts.results %s: %s",
			    path, g_strerror(errno));
		goto fail;
	}
	res->f = fdopen(fd, "a");
	if (res->f)
		fd = -1;
	if (!res->f || (!keep && (fprintf(res->f, "%s\n", identity) < 0 ||
				  fflush(res->f) != 0))) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "wbsim_sweep_opts.results %s: %s",
			    path, g_strerror(errno));
		goto fail;
	}
	return res;
fail:
	if (fd >= 0)
		close(fd);
	wbsim_sweep_results_close(res);
	return NULL;
}

const char *wbsim_sweep_results_text(const struct wbsim_sweep_results *res,
				     size_t point)
{
	g_return_val_if_fail(res != NULL, NULL);
	return point < res->n ? res->texts[point] : NULL;
}

size_t wbsim_sweep_results_n_done(const struct wbsim_sweep_results *res)
{
	g_return_val_if_fail(res != NULL, 0);
	return res->n_done;
}

gboolean wbsim_sweep_results_add(struct wbsim_sweep_results *res, size_t point,
				 const char *text, GError **error)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *line = NULL;
	gboolean ok;

	wbsim_check_arg(res != NULL && text != NULL, FALSE, error);
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "point");
	json_builder_add_int_value(b, (gint64)point + 1);
	json_builder_set_member_name(b, "sweep");
	wbsim_sweep_add_values_json(res->sw, point, b);
	json_builder_set_member_name(b, "text");
	json_builder_add_string_value(b, text);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	line = json_to_string(root, FALSE);

	g_mutex_lock(&res->lock);
	ok = fprintf(res->f, "%s\n", line) >= 0 && fflush(res->f) == 0;
	g_mutex_unlock(&res->lock);
	if (!ok)
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "wbsim_sweep_opts.results %s: %s",
			    res->path, g_strerror(errno));
	return ok;
}

void wbsim_sweep_results_close(struct wbsim_sweep_results *res)
{
	if (!res)
		return;
	if (res->f)
		fclose(res->f);
	for (size_t i = 0; i < res->n; i++)
		g_free(res->texts[i]);
	g_free(res->texts);
	g_free(res->lines);
	g_mutex_clear(&res->lock);
	g_free(res->path);
	g_free(res);
}
