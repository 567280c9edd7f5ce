/*
 * rng.c - seeding for the xoshiro256** generator in rng.h.
 */
#include "mutators/rng.h"

/* splitmix64: one step turns a counter into a well-mixed 64-bit value.  Four
 * steps fill xoshiro's state; the result is never all zero (the only state
 * xoshiro cannot leave), whatever the seed. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void fz_rng_seed(fz_rng_t *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}
