/* SPDX-License-Identifier: MIT */
/* spool.c - streams kept in one unlinked temporary file (core/spool.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <wbsim/error.h>
#include "core/spool.h"

/* The file's first bytes: no chunk is at offset 0, which ends a chain. */
static const char spool_magic[16] = "wbsim spool\n";

/* A chunk's header, in the host's byte order (the file is the process's own). */
struct chunk_head {
	uint64_t next;	/* offset of the next chunk of the stream, 0: none */
	uint64_t len;	/* bytes after this header */
};

struct wbsim_spool {
	int fd;
	uint64_t end;	/* where the next chunk goes */
	int err;	/* errno of the first failed write */
	char *dir;
};

static int pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
	const char *p = buf;

	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : ENOSPC;
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	char *p = buf;

	while (n) {
		ssize_t r = pread(fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? errno : EIO;	/* shorter than its chain says */
		p += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

struct wbsim_spool *wbsim_spool_new(const char *dir, GError **error)
{
	const char *d = dir ? dir : g_get_tmp_dir();
	g_autofree char *tmpl = g_build_filename(d, ".wbsim-spool-XXXXXX", NULL);
	struct wbsim_spool *sp;
	int fd = g_mkstemp_full(tmpl, O_RDWR | O_CLOEXEC, 0600);
	int e = errno;

	if (fd >= 0 && g_unlink(tmpl) != 0) {
		e = errno;
		close(fd);
		fd = -1;
	}
	if (fd >= 0 && (e = pwrite_all(fd, spool_magic, sizeof(spool_magic), 0)) != 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
			    "%s: cannot make a temporary file there: %s: expected a directory "
			    "where files can be made", d, g_strerror(e));
		return NULL;
	}
	sp = g_new0(struct wbsim_spool, 1);
	sp->fd = fd;
	sp->end = sizeof(spool_magic);
	sp->dir = g_strdup(d);
	return sp;
}

void wbsim_spool_free(struct wbsim_spool *sp)
{
	if (!sp)
		return;
	close(sp->fd);
	g_free(sp->dir);
	g_free(sp);
}

const char *wbsim_spool_dir(const struct wbsim_spool *sp)
{
	return sp->dir;
}

int wbsim_spool_errno(const struct wbsim_spool *sp)
{
	return sp->err;
}

gboolean wbsim_spool_append(struct wbsim_spool *sp, struct wbsim_spool_chain *c,
			    const void *data, size_t n)
{
	struct chunk_head h = { 0, n };
	uint64_t off = sp->end;

	if (sp->err)
		return FALSE;
	if (!n)
		return TRUE;
	/* the chunk, then the link to it: a chain never points past the
	 * file's end */
	sp->err = pwrite_all(sp->fd, &h, sizeof(h), off);
	if (!sp->err)
		sp->err = pwrite_all(sp->fd, data, n, off + sizeof(h));
	if (!sp->err && c->first)
		sp->err = pwrite_all(sp->fd, &off, sizeof(off),
				     c->last + G_STRUCT_OFFSET(struct chunk_head, next));
	if (sp->err)
		return FALSE;
	if (!c->first)
		c->first = off;
	c->last = off;
	c->bytes += n;
	sp->end = off + sizeof(h) + n;
	return TRUE;
}

static int read_chain(const struct wbsim_spool *sp, const struct wbsim_spool_chain *c,
		      wbsim_spool_read_fn fn, void *arg, gboolean punch)
{
	g_autofree char *buf = NULL;
	size_t cap = 0;
	uint64_t off = c->first, left = c->bytes;
	int e = 0;

	while (off && !e) {
		struct chunk_head h;

		e = pread_all(sp->fd, &h, sizeof(h), off);
		/* chunks only follow their predecessors, and hold what the chain counted */
		if (!e && (h.len > left || (h.next && h.next <= off)))
			e = EIO;
		if (e)
			break;
		if (h.len + 1 > cap) {
			cap = (size_t)h.len + 1;
			g_free(buf);
			buf = g_malloc(cap);
		}
		e = pread_all(sp->fd, buf, (size_t)h.len, off + sizeof(h));
		if (e)
			break;
		buf[h.len] = '\0';
		if (!fn(buf, (size_t)h.len, arg))
			return -1;
		if (punch)	/* a file system without holes keeps the space */
			(void)fallocate(sp->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)off, (off_t)(sizeof(h) + h.len));
		left -= h.len;
		off = h.next;
	}
	if (!e && left)
		e = EIO;
	return e;
}

int wbsim_spool_read(const struct wbsim_spool *sp, const struct wbsim_spool_chain *c,
		     wbsim_spool_read_fn fn, void *arg)
{
	return read_chain(sp, c, fn, arg, FALSE);
}

int wbsim_spool_drain(struct wbsim_spool *sp, struct wbsim_spool_chain *c,
		      wbsim_spool_read_fn fn, void *arg)
{
	int e = read_chain(sp, c, fn, arg, TRUE);

	if (e > 0 && !sp->err)
		sp->err = e;
	memset(c, 0, sizeof(*c));
	return e;
}
