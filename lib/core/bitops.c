/* SPDX-License-Identifier: MIT */
/*
 * core/bitops.c - whether the CPU has POPCNT, for wbsim_hweight64().
 */
#include "core/bitops.h"

#ifdef WBSIM_HWEIGHT_RUNTIME
bool wbsim_have_popcnt;

/* Before main(), so that threads running simulations only ever read it. */
__attribute__((constructor)) static void wbsim_detect_popcnt(void)
{
	__builtin_cpu_init();
	wbsim_have_popcnt = __builtin_cpu_supports("popcnt");
}
#endif
