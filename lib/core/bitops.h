/* SPDX-License-Identifier: MIT */
/*
 * core/bitops.h - population count of a 64-bit word (kernel: hweight64()).
 *
 * __builtin_popcountll() without -mpopcnt is a call into libgcc
 * (__popcountdi2, a table walk), and the page-cache bitmaps count bits on
 * every dirtying and every writeback: that call was 3-5% of an E1 run.
 * Where the compiler may use the instruction (__POPCNT__: -mpopcnt,
 * -march=native) the builtin is one instruction. Otherwise, on x86-64, the
 * instruction is used when the CPU reports it at start-up (CPUID, once, in
 * a constructor; the branch on it is always predicted); the portable
 * fallback is the branch-free SWAR count of hweight64().
 */
#ifndef WBSIM_CORE_BITOPS_H
#define WBSIM_CORE_BITOPS_H

#include <stdbool.h>
#include <stdint.h>

/* Portable: the bit-parallel sum of lib/hweight.c. */
static inline uint64_t wbsim_hweight64_soft(uint64_t w)
{
	w -= (w >> 1) & UINT64_C(0x5555555555555555);
	w = (w & UINT64_C(0x3333333333333333)) + ((w >> 2) & UINT64_C(0x3333333333333333));
	w = (w + (w >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (w * UINT64_C(0x0101010101010101)) >> 56;
}

#if !defined(__POPCNT__) && defined(__x86_64__) && defined(__GNUC__)
#define WBSIM_HWEIGHT_RUNTIME 1
/* Set before main() when the CPU has POPCNT (core/bitops.c). */
extern bool wbsim_have_popcnt;
#endif

static inline uint64_t wbsim_hweight64(uint64_t w)
{
#if defined(__POPCNT__)
	return (uint64_t)__builtin_popcountll(w);
#elif defined(WBSIM_HWEIGHT_RUNTIME)
	if (__builtin_expect(wbsim_have_popcnt, 1)) {
		uint64_t r;

		__asm__("popcntq %1, %0" : "=r"(r) : "rm"(w) : "cc");
		return r;
	}
	return wbsim_hweight64_soft(w);
#else
	return wbsim_hweight64_soft(w);
#endif
}

#endif /* WBSIM_CORE_BITOPS_H */
