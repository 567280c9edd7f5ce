/*
 * mutate.h - the byte mutators: pure functions that change a buffer in place
 * and return its new length.  No I/O, no global state; every random choice
 * comes from the rng passed in, so a run is reproducible from its seed.
 *
 * They are chosen through a table (mutate.c) that pairs each with a name and
 * a weight; docs/mutations.md says what each does and why it weighs what it
 * does.  Most callers want the chain (chain.h), which stacks these.
 */
#ifndef FZ_MUTATE_H
#define FZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#include "mutators/dict.h"
#include "mutators/rng.h"

/* What a mutator may draw on besides the input itself.  Both parts are
 * optional: a NULL or empty dictionary, or no splice partner, just means the
 * mutators that need them do not apply. */
typedef struct {
    const fz_dict_t *dict;      /* -x tokens; may be NULL */
    const uint8_t *splice; /* another corpus entry to cross over with; may be NULL */
    size_t splice_len;     /* its length in bytes */
    const fz_dict_t *auto_dict; /* tokens collected from the target's comparisons
                                   (fz-fuzz/i2s.h); may be NULL */
} fz_mut_env_t;

/* The mutators, in table order. */
typedef enum {
    FZ_MUT_FLIP_BIT,       /* flip one bit */
    FZ_MUT_RANDOM_BYTE,    /* set one byte to a different random value */
    FZ_MUT_INTERESTING8,   /* write an interesting 8-bit value */
    FZ_MUT_INTERESTING16,  /* ... 16-bit, either byte order */
    FZ_MUT_INTERESTING32,  /* ... 32-bit, either byte order */
    FZ_MUT_ARITH8,         /* add or subtract 1..35 to a byte */
    FZ_MUT_ARITH16,        /* ... to a 16-bit word, either byte order */
    FZ_MUT_ARITH32,        /* ... to a 32-bit word, either byte order */
    FZ_MUT_DELETE,         /* delete a block */
    FZ_MUT_INSERT,         /* insert random bytes, a repeated byte, or a copy from the input */
    FZ_MUT_OVERWRITE,      /* overwrite a block with another part of the input, or with random bytes */
    FZ_MUT_SHUFFLE,        /* shuffle a few adjacent bytes */
    FZ_MUT_ASCII_INT,      /* find a decimal integer, change it arithmetically */
    FZ_MUT_SPLICE,         /* cross over with the splice partner */
    FZ_MUT_DICT_INSERT,    /* insert a dictionary token */
    FZ_MUT_DICT_OVERWRITE, /* overwrite with a dictionary token */
    FZ_MUT_COUNT
} fz_mut_op_t;

/* Returned by fz_mut_apply when the mutator cannot apply to this input
 * (e.g. delete on an empty buffer); the buffer is then unchanged. */
#define FZ_MUT_NA ((size_t)-1)

/*
 * Apply one mutator.  BUF holds LEN bytes and has room for MAX (LEN <= MAX;
 * a larger LEN is treated as MAX).  Returns the new length, in [0, MAX], or
 * FZ_MUT_NA.  ENV may be NULL.
 */
size_t fz_mut_apply(int op, fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                    const fz_mut_env_t *env);

/*
 * Apply one mutator picked at random by weight.  When the pick cannot apply,
 * others are tried, ending with one that always can (insert while there is
 * room, else set a byte), so only LEN == MAX == 0 leaves the buffer as it
 * was.  Stores the mutator used in *op_out (if not NULL; -1 when none could
 * apply).  Returns the new length, in [0, MAX].
 */
size_t fz_mutate(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max, const fz_mut_env_t *env,
                 int *op_out);

/* Short name of a mutator ("flip_bit", "splice", ...); "none" for -1 or any
 * out-of-range value. */
const char *fz_mut_name(int op);

/* The mutator's relative weight in fz_mutate (0 = never picked at random). */
unsigned fz_mut_weight(int op);

#endif
