/* SPDX-License-Identifier: MIT */
/*
 * fuzz/fuzz-fio-parser.c - libFuzzer target for the fio job-file parser:
 * wbsim_fio_parse_string() on the raw input (not NUL-terminated), which
 * must either succeed or return a WBSIM_ERROR with a message, never crash,
 * leak or hit undefined behaviour.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <wbsim/wbsim.h>
#include "defs/fio.h"

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the simulated machine of the E1 scenarios */
	static const struct wbsim_fio_env env = {
		.ncpus = 12, .mb_memory = 65536, .pagesize = 4096,
	};
	struct wbsim_fio_file *file = NULL;
	GError *error = NULL;
	char *copy;

	if (!fuzz_reads_no_file(data, size))
		return -1;	/* keep it out of the corpus */
	/* an exact-size heap copy lets ASan catch reads past the end */
	copy = g_malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (wbsim_fio_parse_string(copy, size, "fuzz.fio", fuzz_empty_dir(),
				   &env, &file, &error)) {
		if (error || !file || !file->jobs)
			abort();
		for (guint i = 0; i < file->jobs->len; i++) {
			const struct wbsim_fio_job *j = file->jobs->pdata[i];

			if (!j->name || !wbsim_fio_rw_name(j->rw))
				abort();
		}
		wbsim_fio_file_free(file);
	} else {
		/* a failure is a WBSIM_ERROR with a message, nothing else */
		if (file || !error || error->domain != WBSIM_ERROR ||
		    !error->message || !*error->message)
			abort();
		g_error_free(error);
	}
	g_free(copy);
	return 0;
}
