/* SPDX-License-Identifier: MIT */
/* read-file.c - bounded reads of regular input files (core/read-file.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <wbsim/error.h>
#include "core/read-file.h"

const char *wbsim_file_kind(unsigned int st_mode)
{
	if (S_ISDIR(st_mode))
		return "a directory";
	if (S_ISFIFO(st_mode))
		return "a FIFO";
	if (S_ISCHR(st_mode))
		return "a character device";
	if (S_ISBLK(st_mode))
		return "a block device";
	if (S_ISSOCK(st_mode))
		return "a socket";
	if (S_ISREG(st_mode))
		return "a regular file";
	return "not a regular file";
}

static void size_text(char *buf, size_t n, gsize bytes)
{
	if (bytes % (1 << 20) == 0)
		g_snprintf(buf, n, "%" G_GSIZE_FORMAT " MiB", bytes >> 20);
	else
		g_snprintf(buf, n, "%" G_GSIZE_FORMAT " bytes", bytes);
}

/*
 * Open @path for reading if it is a regular file: the descriptor, or -1
 * with @error set as wbsim_read_file() says; its size in *@size.
 */
static int open_regular(const char *path, goffset *size, GError **error)
{
	struct stat st;
	int fd, saved;

	/*
	 * O_NONBLOCK: opening a FIFO without a writer returns at once (and
	 * the file is refused below); it changes nothing for regular files.
	 */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		saved = errno;
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(saved),
			    "Failed to open file “%s”: %s", path, g_strerror(saved));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		saved = errno;
		close(fd);
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(saved),
			    "Failed to get attributes of file “%s”: %s", path,
			    g_strerror(saved));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (S_ISDIR(st.st_mode))
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
				    "is a directory: expected a regular file");
		else
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "not a regular file (%s): expected a regular file",
				    wbsim_file_kind(st.st_mode));
		return -1;
	}
	*size = st.st_size;
	return fd;
}

/* read(), retried on EINTR; -1 with @error set on failure */
static gssize read_some(int fd, const char *path, char *buf, gsize n, GError **error)
{
	for (;;) {
		gssize got = read(fd, buf, n);
		int saved = errno;

		if (got >= 0)
			return got;
		if (saved == EINTR)
			continue;
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(saved),
			    "Failed to read from file “%s”: %s", path, g_strerror(saved));
		return -1;
	}
}

gboolean wbsim_read_file(const char *path, gsize max, char **contents,
			 gsize *length, GError **error)
{
	char limit[64];
	goffset size = 0;
	GString *buf;
	int fd;

	g_return_val_if_fail(path && contents, FALSE);
	fd = open_regular(path, &size, error);
	if (fd < 0)
		return FALSE;
	size_text(limit, sizeof(limit), max);
	if ((guint64)size > max) {
		close(fd);
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
			    "%" G_GUINT64_FORMAT " bytes: expected a file of at most %s",
			    (guint64)size, limit);
		return FALSE;
	}
	/* read to the end, not to the size: the file may have grown */
	buf = g_string_sized_new((gsize)size + 1);
	for (;;) {
		char chunk[65536];
		gssize n = read_some(fd, path, chunk, sizeof(chunk), error);

		if (n < 0) {
			close(fd);
			g_string_free(buf, TRUE);
			return FALSE;
		}
		if (n == 0)
			break;
		if (buf->len + (gsize)n > max) {
			close(fd);
			g_string_free(buf, TRUE);
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
				    "more than %s: expected a file of at most %s",
				    limit, limit);
			return FALSE;
		}
		g_string_append_len(buf, chunk, n);
	}
	close(fd);
	if (length)
		*length = buf->len;
	*contents = g_string_free(buf, FALSE);
	return TRUE;
}

gboolean wbsim_read_file_head(const char *path, gsize max, char **contents,
			      gsize *length, GError **error)
{
	goffset size = 0;
	char *buf;
	gsize len = 0;
	int fd;

	g_return_val_if_fail(path && contents, FALSE);
	fd = open_regular(path, &size, error);
	if (fd < 0)
		return FALSE;
	buf = g_malloc(max + 1);
	while (len < max) {
		gssize n = read_some(fd, path, buf + len, max - len, error);

		if (n < 0) {
			close(fd);
			g_free(buf);
			return FALSE;
		}
		if (n == 0)
			break;
		len += (gsize)n;
	}
	close(fd);
	buf[len] = '\0';
	if (length)
		*length = len;
	*contents = buf;
	return TRUE;
}

void wbsim_read_file_error(GError **error, const char *path, const GError *local)
{
	if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_ISDIR) ||
	    g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_INVAL) ||
	    g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_FAILED))
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "%s: %s", path,
			    local->message);
	else
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "%s", local->message);
}
