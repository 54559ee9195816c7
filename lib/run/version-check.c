/* SPDX-License-Identifier: MIT */
/* version-check.c - wbsim_check_version(): is the running library new enough? */
#include <wbsim/version.h>


gboolean wbsim_check_version(unsigned int major, unsigned int minor, unsigned int micro)
{
	/* Within one major version, a later minor or micro only adds. */
	if (major != WBSIM_VERSION_MAJOR)
		return FALSE;
	if (minor != WBSIM_VERSION_MINOR)
		return minor < WBSIM_VERSION_MINOR;
	return micro <= WBSIM_VERSION_MICRO;
}
