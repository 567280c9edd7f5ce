/*
 * chain.h - the chained ("havoc") mutation that produces fz-fuzz's
 * candidates.
 *
 * Each call to fz_chain_next applies one more mutator to the current
 * candidate.  After a random number of chained steps (1..FZ_CHAIN_MAX_STEPS)
 * the candidate goes back to a fresh copy of the original, as Go's fuzzer
 * does: a short chain reaches combinations a single mutation cannot, and the
 * reset keeps candidates close enough to the original that they still
 * exercise what made it interesting.  docs/mutations.md has the full rule and
 * the reasons.
 */
#ifndef FZ_CHAIN_H
#define FZ_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "mutators/mutate.h"
#include "mutators/rng.h"

/* Longest chain before the candidate is reset to the original. */
#define FZ_CHAIN_MAX_STEPS 5

/* Treat as opaque: read it through the accessors below. */
typedef struct {
    fz_rng_t *rng;
    const fz_mut_env_t *env;
    const uint8_t *orig;
    size_t orig_len;
    uint8_t *buf;      /* the candidate; capacity max */
    size_t len;        /* its length */
    size_t max;        /* largest candidate */
    unsigned step;     /* steps applied since the last reset */
    unsigned steps;    /* this chain's length */
    int spliced;       /* the current candidate includes a splice step */
} fz_chain_t;

/*
 * Start a chain over ORIG (ORIG_LEN bytes; the chain reads it, never writes
 * it, and it must stay valid while the chain is used).  Candidates are built
 * in BUF, which has room for MAX bytes (MAX >= 1; an original longer than MAX
 * is cut to MAX).  RNG and ENV (may be NULL) are borrowed, not copied: the
 * caller may change env->splice between calls to pick a new partner.
 */
void fz_chain_init(fz_chain_t *c, fz_rng_t *rng, const fz_mut_env_t *env, const uint8_t *orig,
                   size_t orig_len, uint8_t *buf, size_t max);

/* Produce the next candidate in BUF and return its length (in [0, MAX]). */
size_t fz_chain_next(fz_chain_t *c);

/* The stage name for AFL-style file names: "splice" if the current candidate
 * was crossed over with a partner since the last reset, else "havoc". */
const char *fz_chain_stage(const fz_chain_t *c);

#endif
