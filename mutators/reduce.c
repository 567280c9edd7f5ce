/*
 * reduce.c - the minimizer's reduction steps (see reduce.h for the contract
 * and docs/mutations.md for why these steps, in this order).
 *
 * Phase 0 removes blocks: sizes len/2, len/4, ..., 1, each slid over the
 * input; a kept removal stays at the same offset (the next block has moved
 * into it).  A sweep that removed anything is followed by another, from the
 * new len/2, because a removal can make others possible.  Phase 1 replaces
 * blocks of the same decreasing sizes with '0' characters, once: fewer
 * distinct bytes make a crash easier to read, and a block already all '0'
 * costs no execution.
 */
#include <stdlib.h>
#include <string.h>

#include "mutators/reduce.h"

enum { PHASE_REMOVE, PHASE_SIMPLIFY, PHASE_DONE };

/* The byte phase 1 writes: printable, so a minimized text input stays
 * text, and afl-tmin's choice, so results look alike. */
#define SIMPLE_BYTE '0'

static size_t first_block(size_t len)
{
    return len / 2 ? len / 2 : 1;
}

int fz_reduce_init(fz_reduce_t *r, const uint8_t *buf, size_t len, uint64_t max_execs)
{
    memset(r, 0, sizeof(*r));
    r->best = malloc(len ? len : 1);
    if (!r->best)
        return -1;
    memcpy(r->best, buf, len);
    r->len = len;
    r->orig_len = len;
    r->max_execs = max_execs;
    r->phase = len ? PHASE_REMOVE : PHASE_DONE;
    r->block = first_block(len);
    return 0;
}

/* Advance the removal phase to its next block; 0 when it has finished. */
static int remove_advance(fz_reduce_t *r)
{
    while (r->pos >= r->len) {
        r->pos = 0;
        if (r->block > 1) {
            r->block /= 2;
        } else if (r->sweep_changed && r->len > 0) {
            r->sweep_changed = 0;
            r->block = first_block(r->len);
        } else {
            return 0;
        }
    }
    return 1;
}

/* Advance the simplify phase to a block that is not all SIMPLE_BYTE yet. */
static int simplify_advance(fz_reduce_t *r)
{
    for (;;) {
        if (r->pos >= r->len) {
            if (r->block <= 1)
                return 0;
            r->block /= 2;
            r->pos = 0;
            continue;
        }
        size_t n = r->len - r->pos < r->block ? r->len - r->pos : r->block;
        for (size_t i = 0; i < n; i++)
            if (r->best[r->pos + i] != SIMPLE_BYTE)
                return 1;
        r->pos += n;
    }
}

int fz_reduce_next(fz_reduce_t *r, uint8_t *cand, size_t *cand_len)
{
    if (r->pending)
        fz_reduce_result(r, 0);
    if (r->max_execs && r->produced >= r->max_execs)
        r->phase = PHASE_DONE;
    if (r->phase == PHASE_REMOVE && !remove_advance(r)) {
        r->phase = r->remove_only ? PHASE_DONE : PHASE_SIMPLIFY;
        r->block = first_block(r->len);
        r->pos = 0;
    }
    if (r->phase == PHASE_SIMPLIFY && !simplify_advance(r))
        r->phase = PHASE_DONE;
    if (r->phase == PHASE_DONE)
        return 0;

    size_t pos = r->pos;
    size_t n = r->len - pos < r->block ? r->len - pos : r->block;
    if (r->phase == PHASE_REMOVE) {
        memcpy(cand, r->best, pos);
        memcpy(cand + pos, r->best + pos + n, r->len - pos - n);
        *cand_len = r->len - n;
    } else {
        memcpy(cand, r->best, r->len);
        memset(cand + pos, SIMPLE_BYTE, n);
        *cand_len = r->len;
    }
    r->cand_pos = pos;
    r->cand_n = n;
    r->pending = 1;
    r->produced++;
    return 1;
}

void fz_reduce_result(fz_reduce_t *r, int kept)
{
    if (!r->pending)
        return;
    r->pending = 0;
    size_t pos = r->cand_pos, n = r->cand_n;
    if (kept)
        r->kept++;
    if (r->phase == PHASE_REMOVE) {
        if (kept) {
            memmove(r->best + pos, r->best + pos + n, r->len - pos - n);
            r->len -= n;
            r->sweep_changed = 1;
        } else {
            r->pos += n;
        }
    } else if (r->phase == PHASE_SIMPLIFY) {
        if (kept)
            memset(r->best + pos, SIMPLE_BYTE, n);
        r->pos += n;
    }
}

const uint8_t *fz_reduce_best(const fz_reduce_t *r, size_t *len)
{
    *len = r->len;
    return r->best;
}

uint64_t fz_reduce_execs(const fz_reduce_t *r)
{
    return r->produced;
}

void fz_reduce_free(fz_reduce_t *r)
{
    free(r->best);
    r->best = NULL;
    r->len = 0;
    r->phase = PHASE_DONE;
}
