/*
 * rng.h - the one random number generator every mutation draws from.
 *
 * xoshiro256** (Blackman & Vigna): 256 bits of state, a handful of
 * shifts/rotates/multiplies per draw, and good statistical quality.  The
 * state is seeded by running splitmix64 over the user's 64-bit seed, which
 * turns any seed (including 0) into a well-mixed, non-zero state.  Same seed,
 * same sequence: that is what makes a campaign reproducible with -s.
 *
 * The draw functions are inline because the mutators call them several times
 * per mutation and the engine must stay far from being the bottleneck.
 */
#ifndef FZ_RNG_H
#define FZ_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} fz_rng_t;

/* Seed the generator; any value is fine. */
void fz_rng_seed(fz_rng_t *rng, uint64_t seed);

static inline uint64_t fz_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The next 64 random bits. */
static inline uint64_t fz_rng_next(fz_rng_t *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = fz_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = fz_rng_rotl(s[3], 45);
    return result;
}

/*
 * A number in [0, n); 0 when n is 0.  Lemire's multiply-shift: the high 32
 * bits of a 32x32 product.  Without the rejection step the bias is at most
 * n / 2^32, far below anything a mutator could notice, and it costs no
 * division.
 */
static inline uint32_t fz_rng_below(fz_rng_t *rng, uint32_t n)
{
    return (uint32_t)(((fz_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

/* True with probability 1/n (n >= 1). */
static inline int fz_rng_one_in(fz_rng_t *rng, uint32_t n)
{
    return fz_rng_below(rng, n) == 0;
}

#endif
