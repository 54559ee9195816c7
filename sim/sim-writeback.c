/* SPDX-License-Identifier: MIT */
/* sim-writeback - placeholder until the scenario loader lands. */
#include <stdio.h>
#include <wbsim/wbsim.h>

int main(void)
{
	fprintf(stderr, "sim-writeback %s: not built yet\n", wbsim_version_string());
	return 2;
}
