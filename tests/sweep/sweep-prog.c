/* SPDX-License-Identifier: MIT */
/* sweep-prog.c - helpers of the sweep tests that run the built programs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include "sweep-prog.h"

void tmpdir_remove(char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		g_unlink(p);
	}
	g_rmdir(dir);
	g_free(dir);
}

struct prog prog_spawn(const char *const *argv)
{
	return prog_spawn_in(g_getenv("WBSIM_SOURCE_ROOT"), argv);
}

struct prog prog_spawn_in(const char *cwd, const char *const *argv)
{
	g_autoptr(GError) e = NULL;
	struct prog r = { 0 };
	int wait_status = 0;

	if (!g_spawn_sync(cwd, (char **)argv, NULL,
			  0, NULL, NULL, &r.out, &r.err, &wait_status, &e))
		fail_msg("spawn %s: %s", argv[0], e->message);
	assert_true(WIFEXITED(wait_status));
	r.status = WEXITSTATUS(wait_status);
	return r;
}

struct prog prog_run_valist(const char *cwd, const char *arg, va_list ap)
{
	g_autofree char *program = built_program("sim-writeback");
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	g_ptr_array_add(argv, program);
	for (const char *a = arg; a; a = va_arg(ap, const char *))
		g_ptr_array_add(argv, (char *)a);
	g_ptr_array_add(argv, NULL);
	return prog_spawn_in(cwd, (const char *const *)argv->pdata);
}

void prog_clear(struct prog *r)
{
	g_free(r->out);
	g_free(r->err);
}

char *built_program(const char *name)
{
	const char *build = g_getenv("WBSIM_BUILD_ROOT");

	assert_non_null(build);
	return g_build_filename(build, "sim", name, NULL);
}

char *read_text(const char *path)
{
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		fail_msg("cannot read %s", path);
	return text;
}

unsigned int count_lines(const char *text)
{
	unsigned int n = 0;

	for (const char *p = text; (p = strchr(p, '\n')); p++)
		n++;
	return n;
}

void cut_results(const char *path, unsigned int keep)
{
	g_autofree char *text = read_text(path);
	const char *p = text, *next;
	size_t len;

	for (unsigned int i = 0; i < keep; i++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	next = strchr(p, '\n');
	assert_non_null(next);		/* there is a line to cut */
	len = (size_t)(p - text) + (size_t)(next - p) / 2;
	assert_true(g_file_set_contents(path, text, (gssize)len, NULL));
}
