/* SPDX-License-Identifier: MIT */
/*
 * rng.c - the simulation's random generator: xoshiro256** 1.0 seeded through
 * splitmix64 (both by Blackman and Vigna, public domain algorithms, written
 * here from their published description). Integer-exact, so the same seed
 * gives the same stream on every machine.
 */
#include <math.h>
#include <wbsim/sim.h>
#include "core/sim.h"

static uint64_t splitmix64_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void wbsim_rng_seed(wbsim_rng *rng, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64_next(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t wbsim_rng_next(wbsim_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double wbsim_rng_uniform(wbsim_rng *rng)
{
	return (double)(wbsim_rng_next(rng) >> 11) * 0x1.0p-53;
}

__extension__ typedef unsigned __int128 u128;

/* Lemire, "Fast random integer generation in an interval" (2019). */
uint64_t wbsim_rng_below(wbsim_rng *rng, uint64_t bound)
{
	u128 m;
	uint64_t low;

	if (bound == 0)
		return 0;
	m = (u128)wbsim_rng_next(rng) * bound;
	low = (uint64_t)m;
	if (low < bound) {
		uint64_t threshold = -bound % bound;

		while (low < threshold) {
			m = (u128)wbsim_rng_next(rng) * bound;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double wbsim_rng_exponential(wbsim_rng *rng, double mean)
{
	/* 1 - u is in (0, 1], so the logarithm is finite. */
	return -mean * log1p(-wbsim_rng_uniform(rng));
}
