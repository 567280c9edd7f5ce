/*
 * chain.c - the chained (havoc) mutation: one more mutator per candidate,
 * reset to the original after a short random chain.  The rule and its
 * reasons are in docs/mutations.md.
 */
#include <string.h>

#include "mutators/chain.h"

/* When the candidate has grown past the original, one step in this many is
 * a delete, on top of delete's own weight: candidates drift back toward the
 * original's size instead of away from it, and smaller inputs run faster. */
#define CHAIN_SHRINK_ONE_IN 4

void fz_chain_init(fz_chain_t *c, fz_rng_t *rng, const fz_mut_env_t *env, const uint8_t *orig,
                   size_t orig_len, uint8_t *buf, size_t max)
{
    memset(c, 0, sizeof(*c));
    c->rng = rng;
    c->env = env;
    c->orig = orig;
    c->orig_len = orig_len < max ? orig_len : max;
    c->buf = buf;
    c->max = max;
    /* step == steps == 0: the first call starts a fresh chain. */
}

static void chain_reset(fz_chain_t *c)
{
    memcpy(c->buf, c->orig, c->orig_len);
    c->len = c->orig_len;
    c->step = 0;
    c->steps = 1 + fz_rng_below(c->rng, FZ_CHAIN_MAX_STEPS);
    c->spliced = 0;
}

size_t fz_chain_next(fz_chain_t *c)
{
    if (c->step >= c->steps)
        chain_reset(c);
    size_t out = FZ_MUT_NA;
    int op = -1;
    if (c->len > c->orig_len && fz_rng_one_in(c->rng, CHAIN_SHRINK_ONE_IN)) {
        op = FZ_MUT_DELETE;
        out = fz_mut_apply(op, c->rng, c->buf, c->len, c->max, c->env);
    }
    if (out == FZ_MUT_NA)
        out = fz_mutate(c->rng, c->buf, c->len, c->max, c->env, &op);
    c->len = out;
    c->spliced |= op == FZ_MUT_SPLICE;
    c->step++;
    return c->len;
}

const char *fz_chain_stage(const fz_chain_t *c)
{
    return c->spliced ? "splice" : "havoc";
}
