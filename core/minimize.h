/*
 * minimize.h - the minimization driver: runs the mutators' reduction steps
 * (mutators/reduce.h) through the execution module (core/exec.h) and keeps each smaller input
 * that still has the property being preserved: the same crash, or the
 * given coverage bits.  Used by fz-fuzz (new queue entries, crashes) and by
 * fz-tmin.
 */
#ifndef FZ_MINIMIZE_H
#define FZ_MINIMIZE_H

#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"

typedef enum {
    FZ_MIN_CRASH,   /* keep a crash (signal crash_signal, or any if 0) */
    FZ_MIN_COVERAGE /* keep every bit of want_bits set in the classified map */
} fz_min_mode_t;

typedef struct {
    fz_min_mode_t mode;
    int crash_signal;         /* FZ_MIN_CRASH: signal to keep; 0 = any crash */
    const uint8_t *want_bits; /* FZ_MIN_COVERAGE: fsrv map_size bytes of bucket bits */
    uint64_t max_execs;       /* budget; 0 = unlimited */
    int remove_only;          /* only remove blocks, never rewrite bytes to '0' (a queue
                                 entry's trim: the values are what mutations build on) */
    /* When set, a run that has the property must also pass this test (the
     * crash triage: the same crash site).  0 rejects the candidate. */
    int (*accept)(void *ctx, const fz_exec_rec_t *rec);
    void *accept_ctx;
    /* Called after every run when set (fz-fuzz: the status screen and the
     * -V clock); a non-zero return ends the reduction at once with the
     * best input so far, which has shown the property. */
    int (*poll)(void *ctx);
    void *poll_ctx;
} fz_min_cfg_t;

typedef struct {
    uint64_t execs; /* target runs used */
    size_t in_len;  /* length before */
    size_t out_len; /* length after */
    int flaky;      /* some candidate or the final check did not reproduce */
    int hit_budget; /* stopped because max_execs ran out */
    int stopped;    /* stopped because poll asked to */
    int error_signal; /* FZ_MIN_ERROR: the failed run's signal (fz_exec_rec_t.signal) */
} fz_min_stats_t;

typedef enum {
    FZ_MIN_OK,             /* out holds the smallest input found (maybe == in) */
    FZ_MIN_NOT_REPRODUCED, /* the input did not show the property at the start */
    FZ_MIN_ERROR           /* the forkserver failed (see fz_exec_errmsg) while it ran the
                              input now in out: the caller must not lose it */
} fz_min_result_t;

/* Minimizes in[0..len) into out (capacity >= len; len may be 0).  out
 * receives an input known to have the property (in itself at worst), or,
 * with FZ_MIN_ERROR, the input whose run lost the target (a target can
 * kill its own forkserver on some input).  Runs use the timeout in force; the last record is of an
 * unrelated run afterwards.  Virgin maps are not touched. */
fz_min_result_t fz_minimize(fz_exec_t *x, const fz_min_cfg_t *cfg, const uint8_t *in, size_t len,
                            uint8_t *out, size_t *out_len, fz_min_stats_t *stats);

#endif
