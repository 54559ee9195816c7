/* SPDX-License-Identifier: MIT */
/*
 * fio-test-util.h - helpers shared by the fio job-file tests: parse a
 * string that must load, or must fail with a given code and message.
 */
#ifndef WBSIM_TESTS_FIO_TEST_UTIL_H
#define WBSIM_TESTS_FIO_TEST_UTIL_H

#include <string.h>
#include <wbsim/error.h>
#include "defs/fio.h"

/* The simulated machine of experiment E1: 12 CPUs, 16 GiB, 4 KiB pages. */
static const struct wbsim_fio_env test_env_e1 = {
	.ncpus = 12, .mb_memory = 16384, .pagesize = 4096,
};

static inline struct wbsim_fio_file *fio_load(const char *text)
{
	struct wbsim_fio_file *f = NULL;
	GError *err = NULL;

	if (!wbsim_fio_parse_string(text, -1, "t.fio", NULL, &test_env_e1, &f,
				    &err))
		fail_msg("unexpected error: %s", err->message);
	return f;
}

static inline struct wbsim_fio_job *fio_job(struct wbsim_fio_file *f,
					    guint i)
{
	assert_true(i < f->jobs->len);
	return g_ptr_array_index(f->jobs, i);
}

/* Parse @text, expect failure with @code and @msg (exact unless @sub). */
static inline void fio_fails(const char *text, int code, const char *msg,
			     gboolean sub)
{
	struct wbsim_fio_file *f = NULL;
	GError *err = NULL;

	if (wbsim_fio_parse_string(text, -1, "t.fio", NULL, &test_env_e1, &f,
				   &err)) {
		wbsim_fio_file_free(f);
		fail_msg("parse succeeded, expected: %s", msg);
	}
	assert_non_null(err);
	if (err->domain != WBSIM_ERROR || err->code != code)
		fail_msg("code %d, expected %d: %s", err->code, code,
			 err->message);
	if (sub ? !strstr(err->message, msg) : strcmp(err->message, msg) != 0)
		fail_msg("message '%s', expected '%s'", err->message, msg);
	g_error_free(err);
}

/* Does any warning contain @s? */
static inline gboolean fio_warned(struct wbsim_fio_file *f, const char *s)
{
	guint i;

	for (i = 0; i < f->warnings->len; i++)
		if (strstr(f->warnings->pdata[i], s))
			return TRUE;
	return FALSE;
}

#endif
