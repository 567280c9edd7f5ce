/*
 * reduce.h - the minimizer's reduction steps, as an iterator the caller
 * drives.  Pure: it proposes candidates, the caller runs the target on each
 * and reports whether the property held (same new coverage, or same crash).
 *
 *     fz_reduce_t r;
 *     fz_reduce_init(&r, in, len, max_execs);
 *     while (fz_reduce_next(&r, cand, &cand_len))
 *         fz_reduce_result(&r, still_interesting(cand, cand_len));
 *     best = fz_reduce_best(&r, &best_len);
 *
 * Steps, as afl-tmin: remove blocks of decreasing size (len/2, len/4, ..., 1)
 * keeping each removal that preserves the property, repeated while a sweep
 * removes something; then replace blocks of decreasing size, down to single
 * bytes, with '0' characters.  The best input so far is readable at any time
 * and is always the original or a candidate the caller said was kept, so a
 * flaky target or a budget that runs out still leaves a valid result no
 * larger than the original.
 */
#ifndef FZ_REDUCE_H
#define FZ_REDUCE_H

#include <stddef.h>
#include <stdint.h>

/* Treat as opaque: read it through the accessors below. */
typedef struct {
    uint8_t *best;      /* current best input (owned) */
    size_t len;         /* its length */
    size_t orig_len;    /* length given to init: the candidate buffer's size */
    int phase;          /* 0 remove, 1 simplify, 2 done */
    size_t block;       /* current block size */
    size_t pos;         /* current block start */
    int sweep_changed;  /* the current removal sweep removed something */
    int pending;        /* a candidate is out, waiting for fz_reduce_result */
    size_t cand_pos;    /* where the pending candidate changed best */
    size_t cand_n;      /* how many bytes it removed or simplified */
    uint64_t produced;  /* candidates produced */
    uint64_t kept;      /* candidates reported kept */
    uint64_t max_execs; /* budget; 0 = unbounded */
    int remove_only;    /* set after init: stop after the removal phase (a
                           queue entry's trim keeps its bytes' values) */
} fz_reduce_t;

/*
 * Start reducing BUF (LEN bytes; copied).  MAX_EXECS bounds how many
 * candidates fz_reduce_next hands out (0 = no bound).  Returns 0, or -1 if
 * memory ran out.
 */
int fz_reduce_init(fz_reduce_t *r, const uint8_t *buf, size_t len, uint64_t max_execs);

/*
 * Write the next candidate into CAND (room for the LEN given to init) and its
 * length into *CAND_LEN; return 1.  Return 0 when reduction is finished or
 * the budget is spent.  Every candidate must be answered with
 * fz_reduce_result before the next call (an unanswered one counts as not
 * kept).
 */
int fz_reduce_next(fz_reduce_t *r, uint8_t *cand, size_t *cand_len);

/* Report whether the last candidate kept the property (non-zero = kept, it
 * becomes the best). */
void fz_reduce_result(fz_reduce_t *r, int kept);

/* The best input so far (valid until fz_reduce_free). */
const uint8_t *fz_reduce_best(const fz_reduce_t *r, size_t *len);

/* Candidates produced so far (= executions the caller spent). */
uint64_t fz_reduce_execs(const fz_reduce_t *r);

void fz_reduce_free(fz_reduce_t *r);

#endif
