/*
 * maxlen.h - the maximum input length, the one policy for how long the
 * inputs fz-fuzz makes may be: where it starts, whether an input fits,
 * when it grows, how much room a candidate has.  One function per
 * question; the callers (calibrate.c, fuzz.c, run.c, i2s.c, sync.c, the
 * mutator front ends) only ask.
 *
 * Without -l it starts at the largest seed, but at least FZ_MAXLEN_MIN
 * (libFuzzer's rule; 4 KiB leaves room for a chunk or two beyond a small
 * seed).  It grows by half when FZ_MAXLEN_STALL_EXECS runs pass without a
 * find, then after four times as many, sixteen times as many, and so on,
 * never past FZ_MAXLEN_AUTO_MAX (or the largest seed): a target that needs
 * longer inputs gets them once short ones are exhausted, and one that does
 * not is never fed big ones.  Counted in runs (so -s reproduces it), and
 * growing waits because a fast target makes 100,000 runs in a tenth of a
 * second: with a fixed wait, a persistent zlib harness at a million runs a
 * second grew its limit 11 times in a minute, to 354 KB, its entries to
 * 316 KB and its speed fell eightfold; on inflate, unbounded growth once
 * made 1 MB entries.  -l sets any limit up to FZ_MAX_INPUT, which never
 * grows.
 */
#ifndef FZ_FUZZ_MAXLEN_H
#define FZ_FUZZ_MAXLEN_H

#include <stddef.h>
#include <stdint.h>

#include "fz-fuzz/outdir.h"

#define FZ_MAXLEN_MIN 4096
#define FZ_MAXLEN_AUTO_MAX (64u << 10)
#define FZ_MAXLEN_STALL_EXECS 100000

typedef struct fz_len_ctl {
    uint32_t max;         /* the maximum length in force */
    int fixed;            /* -l given: it never grows */
    uint32_t cap;         /* it grows no further than this */
    uint32_t grows;       /* times it grew: each makes the next wait twice as long */
    uint64_t quiet_since; /* execs at the last find or growth */
} fz_len_ctl_t;

/* Where it starts: -l (cfg_max, non-zero) or from the inputs' lengths
 * (what: "seed" or "queue entry", for the message).  Under -l, inputs
 * over it are skipped (fz_maxlen_fits); if that would leave none, -l is
 * below the smallest and nothing can run: fz_die naming the fix. */
void fz_maxlen_start(fz_len_ctl_t *l, uint32_t cfg_max, const fz_files_t *inputs,
                     const char *what);

/* The limit in force: the longest input the mutators make, a peer's
 * file imported, a harness's own mutator asked for. */
static inline uint32_t fz_maxlen_now(const fz_len_ctl_t *l)
{
    return l->max;
}

/* Whether an input of len bytes may join the campaign (a seed). */
int fz_maxlen_fits(const fz_len_ctl_t *l, uint32_t len);

/* The room a candidate edited from an input of len bytes has: the limit,
 * but never less than the input itself (input-to-state's edits). */
size_t fz_maxlen_room(const fz_len_ctl_t *l, size_t len);

/* The most an AFL++ custom mutator may return: -l when given, else
 * FZ_MAX_INPUT (the automatic limit is for fz's own mutators). */
size_t fz_maxlen_custom(const fz_len_ctl_t *l);

/* A find (a new queue entry) at execs runs: growth waits again. */
void fz_maxlen_found(fz_len_ctl_t *l, uint64_t execs);

/* Between turns, at execs runs: without -l, the limit grows by half when
 * enough runs found nothing.  Returns the runs waited when it grew, else
 * 0.  Counted in runs, not seconds, so -s reproduces it. */
uint64_t fz_maxlen_grow(fz_len_ctl_t *l, uint64_t execs);

#endif
