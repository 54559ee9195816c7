/* SPDX-License-Identifier: MIT */
/*
 * fio/fio-random.h - fio 3.33's random generators, as far as they choose
 * the offsets of a job's random I/O: the combined Tausworthe generators
 * (lib/rand.[ch]: taus88, 32-bit, and taus258, 64-bit), how a job's offset
 * generator is seeded (init.c setup_random_seeds(), td_fill_rand_seeds())
 * and how one draw becomes a block (io_u.c __get_next_rand_offset()).
 *
 * With fio's default randrepeat=1 every run of a job file draws the same
 * offsets: the seed is a constant times the job's thread number.
 */
#ifndef WBSIM_FIO_FIO_RANDOM_H
#define WBSIM_FIO_FIO_RANDOM_H

#include <stdbool.h>
#include <stdint.h>
#include "defs/fio.h"

/**
 * struct wbsim_fio_rand - fio's struct frand_state
 * @use64: taus258 (random_generator=tausworthe64) rather than taus88
 * @s32: taus88's three words
 * @s64: taus258's five words
 *
 * A plain value: copying it copies the generator (wbsim_job's peek at the
 * next offset draws from a copy).
 */
struct wbsim_fio_rand {
	bool use64;
	uint32_t s32[3];
	uint64_t s64[5];
};

/**
 * wbsim_fio_rand_seed() - fio's init_rand_seed()
 * @r: the generator
 * @seed: the seed (taus88 takes its low 32 bits, as fio's unsigned int)
 * @use64: taus258 rather than taus88
 *
 * The words come from an LCG over the seed, each kept above the minimum
 * the generator needs, then six draws are thrown away.
 */
void wbsim_fio_rand_seed(struct wbsim_fio_rand *r, uint64_t seed, bool use64);

/** wbsim_fio_rand_next() - fio's __rand(): the next draw, 32 or 64 bits. */
uint64_t wbsim_fio_rand_next(struct wbsim_fio_rand *r);

/** wbsim_fio_rand_max() - fio's rand_max(): the largest draw of @r. */
static inline uint64_t wbsim_fio_rand_max(const struct wbsim_fio_rand *r)
{
	return r->use64 ? UINT64_MAX : UINT32_MAX;
}

/**
 * wbsim_fio_rand_block() - one draw scaled to a block below @lastb
 * @r: the job's offset generator
 * @lastb: the number of blocks of the file (fio's last_block())
 *
 * fio's `lastb * (r / (rand_max + 1.0))`, in doubles as fio computes it,
 * so that block numbers agree bit for bit. Only a taus258 draw can make
 * it @lastb (one that rounds to 2^64 as a double, about one in 2^54,
 * where fio's I/O would fail); the last block is returned then.
 *
 * Return: the block, in [0, @lastb).
 */
uint64_t wbsim_fio_rand_block(struct wbsim_fio_rand *r, uint64_t lastb);

/**
 * wbsim_fio_rand_repeatable() - whether fio reseeds the job's offsets at
 * every loop: randrepeat=1 (the default) and no randseed= (fio's
 * fixup_options() clears rand_repeatable when randseed is set).
 */
bool wbsim_fio_rand_repeatable(const struct wbsim_fio_job *fio);

/**
 * wbsim_fio_rand_from_entropy() - whether fio seeds the job's offsets from
 * the system's entropy (randrepeat=0, no randseed=, no allrandrepeat=1):
 * the simulator then takes the seed from the simulation's seed.
 */
bool wbsim_fio_rand_from_entropy(const struct wbsim_fio_job *fio);

/**
 * wbsim_fio_offset_seed() - the seed of the job's offset generator, fio's
 * td->rand_seeds[FIO_RAND_BLOCK_OFF]
 * @fio: the job (its @thread_number, randrepeat, randseed, allrandrepeat)
 * @entropy: the seed used when wbsim_fio_rand_from_entropy() is true
 *
 * randrepeat=1: 0xb1899bed x thread number. randseed=N: N x 0x9e370001^10
 * x thread number + 6 (fio derives one seed per generator, the offsets'
 * being the seventh). allrandrepeat=1 without randrepeat: 0xb1899bed x
 * thread number + 6. All modulo 2^64.
 *
 * fio 3.33 seeds a job before randseed= clears its randrepeat, so with
 * randrepeat=1 (the default) and randseed=N the job's first clone draws
 * randrepeat's offsets and only its other clones (copies made after) draw
 * N's; randrepeat=0 with randseed=N draws N's in every clone.
 */
uint64_t wbsim_fio_offset_seed(const struct wbsim_fio_job *fio, uint64_t entropy);

/**
 * wbsim_fio_offset_rand_init() - seed @r as fio seeds the job's
 * random_state: wbsim_fio_offset_seed(), taus258 if random_generator=
 * tausworthe64 was set or @use64 (fio switches a job whose file has more
 * than 2^32 - 1 blocks to it, which its reseeds at later loops use).
 */
void wbsim_fio_offset_rand_init(struct wbsim_fio_rand *r, const struct wbsim_fio_job *fio,
				uint64_t entropy, bool use64);

/**
 * wbsim_fio_rand_switches_to_64() - fio's check_rand_gen_limits(): a file
 * of more than 2^32 - 1 blocks switches the job to tausworthe64 unless
 * random_generator= was set. The switch happens after the job's generator
 * was seeded, so fio 3.33 draws the first loop's offsets from taus88 still
 * and only a reseed (the next loop with randrepeat=1) takes taus258.
 */
bool wbsim_fio_rand_switches_to_64(const struct wbsim_fio_job *fio, uint64_t blocks);

#endif
