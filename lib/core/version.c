/* SPDX-License-Identifier: MIT */
/* version.c - run-time version query. */
#include <wbsim/version.h>

const char *wbsim_version_string(void)
{
	return WBSIM_VERSION_STRING;
}
