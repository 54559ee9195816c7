/* SPDX-License-Identifier: MIT */
/*
 * fio-random.c - fio 3.33's offset generator (fio/fio-random.h).
 *
 * The generators are L'Ecuyer's maximally equidistributed combined
 * Tausworthe generators (Math. Comp. 65 (1996) 203-213 for taus88; 68
 * (1999) 261-269 for taus258), with fio's seeding: each word from an LCG
 * over the seed, raised to the generator's minimum (s1 > 1, s2 > 7, s3 >
 * 15, and for taus258 s4 > 33, s5 > 49), then six draws discarded. The LCG
 * starts from fio's (2^31) + (2^17) + (2^7), which C reads as XORs: 53.
 * Block numbers come from fio's scaling of a draw to the file's blocks, in
 * doubles, so they agree with fio's bit for bit.
 */
#include "fio/fio-random.h"

/* init.c: FIO_RANDSEED, and the multiplier setup_random_seeds() applies */
#define FIO_RANDSEED UINT64_C(0xb1899bed)
#define FIO_SEED_MUL UINT64_C(0x9e370001)
/* fio.h: the offsets' generator is the seventh of the job's seeds */
#define FIO_RAND_BLOCK_OFF 6
/* setup_random_seeds() multiplies randseed= four times before the first */
#define FIO_SEED_PRE_MULS 4
#define FIO_SEED_CRANKS 6
#define FIO_LCG_START 53u

/* One taus88 step of a word: the bits kept by @mask shifted up by @d, and
 * the feedback (s << a ^ s) >> b. */
static inline uint32_t taus32(uint32_t s, unsigned int a, unsigned int b, uint32_t mask,
			      unsigned int d)
{
	return ((s & mask) << d) ^ (((s << a) ^ s) >> b);
}

static inline uint64_t taus64(uint64_t s, unsigned int a, unsigned int b, uint64_t mask,
			      unsigned int d)
{
	return ((s & mask) << d) ^ (((s << a) ^ s) >> b);
}

static uint32_t taus88_next(uint32_t *s)
{
	s[0] = taus32(s[0], 13, 19, ~UINT32_C(0x1), 12);
	s[1] = taus32(s[1], 2, 25, ~UINT32_C(0x7), 4);
	s[2] = taus32(s[2], 3, 11, ~UINT32_C(0xf), 17);
	return s[0] ^ s[1] ^ s[2];
}

static uint64_t taus258_next(uint64_t *s)
{
	s[0] = taus64(s[0], 1, 53, ~UINT64_C(0x1), 10);
	s[1] = taus64(s[1], 24, 50, ~UINT64_C(0x1ff), 5);
	s[2] = taus64(s[2], 3, 23, ~UINT64_C(0xfff), 29);
	s[3] = taus64(s[3], 5, 24, ~UINT64_C(0x1ffff), 23);
	s[4] = taus64(s[4], 3, 33, ~UINT64_C(0x7fffff), 8);
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
}

/* fio's __seed(): a word below the generator's minimum @m is raised by it */
static inline uint64_t seed_min(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

void wbsim_fio_rand_seed(struct wbsim_fio_rand *r, uint64_t seed, bool use64)
{
	*r = (struct wbsim_fio_rand){ .use64 = use64 };
	if (!use64) {
		static const uint32_t min32[3] = { 1, 7, 15 };
		uint32_t s = (uint32_t)seed;
		uint32_t x = FIO_LCG_START;

		for (int i = 0; i < 3; i++) {
			x = (uint32_t)seed_min((x * UINT32_C(69069)) ^ s, min32[i]);
			r->s32[i] = x;
		}
	} else {
		static const uint64_t min64[5] = { 1, 7, 15, 33, 49 };
		uint64_t x = FIO_LCG_START;

		for (int i = 0; i < 5; i++) {
			x = seed_min((x * UINT64_C(6906969069)) ^ seed, min64[i]);
			r->s64[i] = x;
		}
	}
	for (int i = 0; i < FIO_SEED_CRANKS; i++)
		(void)wbsim_fio_rand_next(r);
}

uint64_t wbsim_fio_rand_next(struct wbsim_fio_rand *r)
{
	return r->use64 ? taus258_next(r->s64) : taus88_next(r->s32);
}

uint64_t wbsim_fio_rand_block(struct wbsim_fio_rand *r, uint64_t lastb)
{
	uint64_t draw = wbsim_fio_rand_next(r);
	uint64_t b = (uint64_t)((double)lastb *
				((double)draw / ((double)wbsim_fio_rand_max(r) + 1.0)));

	return b < lastb ? b : lastb - 1;
}

bool wbsim_fio_rand_repeatable(const struct wbsim_fio_job *fio)
{
	return fio->randrepeat && !fio->randseed_set;
}

bool wbsim_fio_rand_from_entropy(const struct wbsim_fio_job *fio)
{
	return !fio->randrepeat && !fio->randseed_set && !fio->allrandrepeat;
}

/*
 * Whether randrepeat holds when fio seeds the job: add_job() seeds
 * (setup_random_seeds()) before fixup_options() lets randseed= clear
 * randrepeat, so the first clone seeds as randrepeat says; the other
 * clones are copies of the first made after, with randrepeat cleared.
 */
static bool repeatable_at_seeding(const struct wbsim_fio_job *fio)
{
	return fio->clone ? wbsim_fio_rand_repeatable(fio) : fio->randrepeat;
}

uint64_t wbsim_fio_offset_seed(const struct wbsim_fio_job *fio, uint64_t entropy)
{
	uint64_t tn = fio->thread_number;
	uint64_t seed = fio->randseed;

	/* td_fill_rand_seeds_internal(): randrepeat's seed overrides the rest */
	if (repeatable_at_seeding(fio))
		return FIO_RANDSEED * tn;
	/* td_fill_rand_seeds(): allrandrepeat replaces every seed */
	if (fio->allrandrepeat)
		return FIO_RANDSEED * tn + FIO_RAND_BLOCK_OFF;
	if (!fio->randseed_set)
		return entropy;
	/* setup_random_seeds(): seed i is seed x K^(4+i) x thread number + i */
	for (int i = 0; i < FIO_SEED_PRE_MULS + FIO_RAND_BLOCK_OFF; i++)
		seed *= FIO_SEED_MUL;
	return seed * tn + FIO_RAND_BLOCK_OFF;
}

void wbsim_fio_offset_rand_init(struct wbsim_fio_rand *r, const struct wbsim_fio_job *fio,
				uint64_t entropy, bool use64)
{
	wbsim_fio_rand_seed(r, wbsim_fio_offset_seed(fio, entropy),
			    use64 || fio->random_generator == WBSIM_FIO_RAND_TAUSWORTHE64);
}

bool wbsim_fio_rand_switches_to_64(const struct wbsim_fio_job *fio, uint64_t blocks)
{
	return blocks > UINT32_MAX && fio->random_generator == WBSIM_FIO_RAND_TAUSWORTHE &&
	       !fio->random_generator_set;
}
