/*
 * mutate.c - the byte mutators and the weighted table that picks them.
 *
 * Every mutator has the same shape: (rng, buf, len, max, env) -> new length,
 * or FZ_MUT_NA when it cannot apply to this input (then buf is untouched).
 * buf always has room for max bytes, and no mutator writes past max or reads
 * past len (or past the splice partner's length).
 */
#include <stdio.h>
#include <string.h>

#include "mutators/mutate.h"

/* Values that often sit on a boundary in parsers and size checks: 0, +-1,
 * powers of two and their neighbours, the signed limits of each width.  The
 * wider widths also use every narrower value (sign-extended), so a 16-bit
 * field can be set to -1 or 127 as well.  The list is AFL's, which years of
 * fuzzing have shown to be worth trying. */
static const int8_t interesting8[] = {-128, -1, 0, 1, 16, 32, 64, 100, 127};
static const int16_t interesting16[] = {-128, -1,  0,   1,   16,  32,   64,   100,  127,  -32768,
                                        -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767};
static const int32_t interesting32[] = {
    -128,       -1,     0,     1,     16,    32,        64,        100,  127,   -32768,
    -129,       128,    255,   256,   512,   1000,      1024,      4096, 32767, -2147483647 - 1,
    -100663046, -32769, 32768, 65535, 65536, 100663045, 2147483647};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Largest value add/subtract uses: AFL's ARITH_MAX.  Small deltas hit
 * off-by-a-few length and counter checks; bigger jumps are the interesting
 * values' job. */
#define ARITH_MAX 35

static size_t min_sz(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t rand_below(fz_rng_t *rng, size_t n)
{
    if (n <= UINT32_MAX)
        return fz_rng_below(rng, (uint32_t)n);
    return (size_t)(fz_rng_next(rng) % n);
}

/*
 * A block length in [1, n] (n >= 1), biased toward small blocks as Go's
 * fuzzer does: most mutations that move whole blocks should be small, so the
 * input changes locally and stays small, but now and then a large block lets
 * structure be duplicated or cut wholesale.
 */
static size_t choose_len(fz_rng_t *rng, size_t n)
{
    uint32_t r = fz_rng_below(rng, 100);
    size_t cap = r < 90 ? 8 : r < 99 ? 32 : n;
    return 1 + rand_below(rng, min_sz(cap, n));
}

static uint16_t swap16(uint16_t v)
{
    return (uint16_t)((v << 8) | (v >> 8));
}

static uint32_t swap32(uint32_t v)
{
    return __builtin_bswap32(v);
}

static size_t mut_flip_bit(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                           const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len == 0)
        return FZ_MUT_NA;
    size_t bit = rand_below(rng, len * 8);
    buf[bit >> 3] ^= (uint8_t)(1u << (bit & 7));
    return len;
}

/* XOR with 1..255 so the byte always changes: a mutation that does nothing
 * wastes an execution. */
static size_t mut_random_byte(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                              const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len == 0)
        return FZ_MUT_NA;
    buf[rand_below(rng, len)] ^= (uint8_t)(1 + fz_rng_below(rng, 255));
    return len;
}

static size_t mut_interesting8(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                               const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len == 0)
        return FZ_MUT_NA;
    buf[rand_below(rng, len)] = (uint8_t)interesting8[fz_rng_below(rng, COUNT_OF(interesting8))];
    return len;
}

static size_t mut_interesting16(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                                const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len < 2)
        return FZ_MUT_NA;
    uint16_t v = (uint16_t)interesting16[fz_rng_below(rng, COUNT_OF(interesting16))];
    if (fz_rng_below(rng, 2))
        v = swap16(v);
    memcpy(buf + rand_below(rng, len - 1), &v, 2);
    return len;
}

static size_t mut_interesting32(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                                const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len < 4)
        return FZ_MUT_NA;
    uint32_t v = (uint32_t)interesting32[fz_rng_below(rng, COUNT_OF(interesting32))];
    if (fz_rng_below(rng, 2))
        v = swap32(v);
    memcpy(buf + rand_below(rng, len - 3), &v, 4);
    return len;
}

/* A delta in [-ARITH_MAX, -1] or [1, ARITH_MAX]. */
static int32_t arith_delta(fz_rng_t *rng)
{
    int32_t d = 1 + (int32_t)fz_rng_below(rng, ARITH_MAX);
    return fz_rng_below(rng, 2) ? d : -d;
}

static size_t mut_arith8(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                         const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len == 0)
        return FZ_MUT_NA;
    size_t pos = rand_below(rng, len);
    buf[pos] = (uint8_t)(buf[pos] + arith_delta(rng));
    return len;
}

/* The wider forms read the word in a random byte order, add, and write it
 * back in the same order, so both little- and big-endian length fields get
 * nudged by small amounts. */
static size_t mut_arith16(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                          const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len < 2)
        return FZ_MUT_NA;
    size_t pos = rand_below(rng, len - 1);
    int swap = (int)fz_rng_below(rng, 2);
    uint16_t v;
    memcpy(&v, buf + pos, 2);
    v = swap ? swap16((uint16_t)(swap16(v) + arith_delta(rng))) : (uint16_t)(v + arith_delta(rng));
    memcpy(buf + pos, &v, 2);
    return len;
}

static size_t mut_arith32(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                          const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len < 4)
        return FZ_MUT_NA;
    size_t pos = rand_below(rng, len - 3);
    int swap = (int)fz_rng_below(rng, 2);
    uint32_t v;
    memcpy(&v, buf + pos, 4);
    v = swap ? swap32(swap32(v) + (uint32_t)arith_delta(rng)) : v + (uint32_t)arith_delta(rng);
    memcpy(buf + pos, &v, 4);
    return len;
}

static size_t mut_delete(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                         const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len == 0)
        return FZ_MUT_NA;
    size_t n = choose_len(rng, len);
    size_t pos = rand_below(rng, len - n + 1);
    memmove(buf + pos, buf + pos + n, len - pos - n);
    return len - n;
}

/*
 * Open a gap of n bytes at pos, then fill it with the bytes that were at
 * [src, src + n) before the gap opened.  Source bytes before pos did not
 * move; those at or after pos moved up by n, so the copy is done in two
 * pieces, neither overlapping the gap.
 */
static void insert_copy(uint8_t *buf, size_t len, size_t pos, size_t n, size_t src)
{
    memmove(buf + pos + n, buf + pos, len - pos);
    size_t head = src < pos ? min_sz(pos - src, n) : 0;
    memcpy(buf + pos, buf + src, head);
    size_t from = src + head >= pos ? src + head + n : src + head;
    memcpy(buf + pos + head, buf + from, n - head);
}

/* Fill n bytes with random values, one draw each. */
static void fill_random(fz_rng_t *rng, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)fz_rng_next(rng);
}

static size_t mut_insert(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                         const fz_mut_env_t *env)
{
    (void)env;
    if (len >= max)
        return FZ_MUT_NA;
    size_t pos = rand_below(rng, len + 1);
    uint32_t mode = fz_rng_below(rng, len ? 3 : 2);
    if (mode == 2) { /* a copy of another part of the input */
        size_t n = choose_len(rng, min_sz(max - len, len));
        insert_copy(buf, len, pos, n, rand_below(rng, len - n + 1));
        return len + n;
    }
    size_t n = choose_len(rng, max - len);
    memmove(buf + pos + n, buf + pos, len - pos);
    if (mode == 0) { /* random bytes */
        fill_random(rng, buf + pos, n);
    } else { /* one byte repeated: a run of it, or of a byte already there */
        uint8_t b =
            len && fz_rng_below(rng, 2) ? buf[rand_below(rng, len)] : (uint8_t)fz_rng_next(rng);
        memset(buf + pos, b, n);
    }
    return len + n;
}

/* Random overwrites: the shortest input that gets them, which is also the
 * narrowest cap on their width; the widest cap is
 * OVERWRITE_RANDOM_MIN << (OVERWRITE_WIDE_STEPS - 1) bytes. */
#define OVERWRITE_RANDOM_MIN 16
#define OVERWRITE_WIDE_STEPS 9

/*
 * Overwrite a range with random bytes.  Its width is drawn under a cap of
 * 16, 32, ... 4096 bytes picked evenly, so narrow and wide ranges are
 * about as likely as each other.  The wide ones are what a compressed or
 * encoded stream needs: many random symbols in one candidate, enough to
 * meet a rare code that no few-byte change reaches (docs/mutations.md).
 */
static size_t overwrite_random(fz_rng_t *rng, uint8_t *buf, size_t len)
{
    size_t cap = (size_t)OVERWRITE_RANDOM_MIN << fz_rng_below(rng, OVERWRITE_WIDE_STEPS);
    size_t n = 1 + rand_below(rng, min_sz(cap, len));
    size_t pos = rand_below(rng, len - n + 1);
    fill_random(rng, buf + pos, n);
    return len;
}

/* Overwrite a block with another part of the input or, one time in three
 * on inputs of 16 bytes or more, a range with random bytes. */
static size_t mut_overwrite(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                            const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len >= OVERWRITE_RANDOM_MIN && fz_rng_below(rng, 3) == 0)
        return overwrite_random(rng, buf, len);
    if (len < 2)
        return FZ_MUT_NA;
    size_t n = choose_len(rng, len - 1);
    size_t span = len - n + 1; /* >= 2 */
    size_t src = rand_below(rng, span);
    size_t dst = rand_below(rng, span);
    if (dst == src)
        dst = (dst + 1 + rand_below(rng, span - 1)) % span;
    memmove(buf + dst, buf + src, n);
    return len;
}

/* Shuffle 2..8 adjacent bytes: reorders fields and byte orders locally. */
static size_t mut_shuffle(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                          const fz_mut_env_t *env)
{
    (void)max, (void)env;
    if (len < 2)
        return FZ_MUT_NA;
    size_t n = 2 + rand_below(rng, min_sz(len, 8) - 1);
    uint8_t *p = buf + rand_below(rng, len - n + 1);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = rand_below(rng, i + 1);
        uint8_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return len;
}

/* Most digits of an ASCII integer that are parsed; beyond this the value
 * would overflow int64_t, and the tail of a longer run is left as it is. */
#define ASCII_INT_DIGITS 18

/* How far find_digits looks from its random start, in bytes: enough for
 * any text format, and it keeps a large binary input without digits from
 * costing a full scan every time this mutator is picked. */
#define ASCII_INT_SCAN 4096

/* Find a run of decimal digits at or after a random position (wrapping,
 * looking at most ASCII_INT_SCAN bytes); store its start and length.
 * Returns 0 when none was found. */
static int find_digits(fz_rng_t *rng, const uint8_t *buf, size_t len, size_t *start, size_t *n)
{
    size_t from = rand_below(rng, len);
    size_t scan = min_sz(len, ASCII_INT_SCAN);
    for (size_t k = 0; k < scan; k++) {
        size_t i = from + k < len ? from + k : from + k - len;
        if (buf[i] < '0' || buf[i] > '9')
            continue;
        while (i > 0 && buf[i - 1] >= '0' && buf[i - 1] <= '9')
            i--;
        size_t e = i;
        while (e < len && e - i < ASCII_INT_DIGITS && buf[e] >= '0' && buf[e] <= '9')
            e++;
        *start = i;
        *n = e - i;
        return 1;
    }
    return 0;
}

static int64_t ascii_int_change(fz_rng_t *rng, int64_t v)
{
    switch (fz_rng_below(rng, 6)) {
    case 0:
        return v + 1 + fz_rng_below(rng, ARITH_MAX);
    case 1:
        return v - 1 - fz_rng_below(rng, ARITH_MAX);
    case 2:
        /* unsigned: a wrap is as good a value as any, and not undefined */
        return (int64_t)((uint64_t)v * (2 + fz_rng_below(rng, 15)));
    case 3:
        return v / (2 + fz_rng_below(rng, 15));
    case 4:
        return -v;
    default: /* a value near a boundary (0, -1, 255, 65536, ...) */
        return interesting32[fz_rng_below(rng, COUNT_OF(interesting32))];
    }
}

/* Text formats keep numbers as digits; nudging the number they spell is far
 * likelier to matter than flipping bits in the digits. */
static size_t mut_ascii_int(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                            const fz_mut_env_t *env)
{
    (void)env;
    size_t start, n;
    if (len == 0 || !find_digits(rng, buf, len, &start, &n))
        return FZ_MUT_NA;
    if (start > 0 && buf[start - 1] == '-') { /* the sign belongs to the number */
        start--;
        n++;
    }
    int64_t v = 0;
    for (size_t i = buf[start] == '-'; i < n; i++)
        v = v * 10 + (buf[start + i] - '0');
    if (buf[start] == '-')
        v = -v;
    char text[32];
    int tn = snprintf(text, sizeof(text), "%lld", (long long)ascii_int_change(rng, v));
    size_t new_len = len - n + (size_t)tn;
    if (new_len > max)
        return FZ_MUT_NA;
    memmove(buf + start + tn, buf + start + n, len - start - n);
    memcpy(buf + start, text, (size_t)tn);
    return new_len;
}

/*
 * Cross over with the splice partner, one of three ways: keep our head and
 * take the partner's tail from the same offset (AFL's splice), insert a chunk
 * of the partner, or write a chunk of the partner over ours.  Inputs from
 * different corners of the corpus combine what each reached.
 */
static size_t mut_splice(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                         const fz_mut_env_t *env)
{
    if (!env || !env->splice || env->splice_len == 0)
        return FZ_MUT_NA;
    const uint8_t *p = env->splice;
    size_t plen = env->splice_len;
    uint32_t mode = fz_rng_below(rng, 3);
    if (mode == 1 && len >= max)
        mode = 0;
    if (mode == 2 && len == 0)
        mode = 0;
    if (mode == 0) {
        size_t cut = rand_below(rng, min_sz(len, plen) + 1);
        size_t new_len = min_sz(plen, max);
        if (cut >= new_len)
            return FZ_MUT_NA; /* nothing of the partner would survive the cap */
        memcpy(buf + cut, p + cut, new_len - cut);
        return new_len;
    }
    size_t n = choose_len(rng, min_sz(plen, mode == 1 ? max - len : len));
    size_t src = rand_below(rng, plen - n + 1);
    if (mode == 1) {
        size_t pos = rand_below(rng, len + 1);
        memmove(buf + pos + n, buf + pos, len - pos);
        memcpy(buf + pos, p + src, n);
        return len + n;
    }
    memcpy(buf + rand_below(rng, len - n + 1), p + src, n);
    return len;
}

/* One token, uniformly over both dictionaries (-x and the automatic one). */
static const fz_dict_token_t *pick_token(fz_rng_t *rng, const fz_mut_env_t *env)
{
    size_t a = env && env->dict ? env->dict->count : 0;
    size_t b = env && env->auto_dict ? env->auto_dict->count : 0;
    if (!a && !b)
        return NULL;
    size_t k = rand_below(rng, a + b);
    return k < a ? &env->dict->tokens[k] : &env->auto_dict->tokens[k - a];
}

static size_t mut_dict_insert(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                              const fz_mut_env_t *env)
{
    const fz_dict_token_t *t = pick_token(rng, env);
    if (!t || t->len > max - len)
        return FZ_MUT_NA;
    size_t pos = rand_below(rng, len + 1);
    memmove(buf + pos + t->len, buf + pos, len - pos);
    memcpy(buf + pos, t->data, t->len);
    return len + t->len;
}

static size_t mut_dict_overwrite(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                                 const fz_mut_env_t *env)
{
    (void)max;
    const fz_dict_token_t *t = pick_token(rng, env);
    if (!t || t->len > len)
        return FZ_MUT_NA;
    memcpy(buf + rand_below(rng, len - t->len + 1), t->data, t->len);
    return len;
}

typedef size_t (*mut_fn_t)(fz_rng_t *, uint8_t *, size_t, size_t, const fz_mut_env_t *);

typedef struct {
    const char *name;
    unsigned weight;
    mut_fn_t fn;
} mut_desc_t;

/* Weights: see docs/mutations.md for the reasoning and the measurement.
 * In short: the mutators that move pieces of inputs (splice, insert with
 * its copies, overwrite) carry the most weight, then the cheap local
 * changes, then the value-level ones; the chain, not delete's weight,
 * keeps candidates near the original's size; and the mutators that depend
 * on the environment (splice, dictionary) drop out when it is empty. */
static const mut_desc_t mut_table[FZ_MUT_COUNT] = {
    [FZ_MUT_FLIP_BIT] = {"flip_bit", 3, mut_flip_bit},
    [FZ_MUT_RANDOM_BYTE] = {"random_byte", 3, mut_random_byte},
    [FZ_MUT_INTERESTING8] = {"interesting8", 1, mut_interesting8},
    [FZ_MUT_INTERESTING16] = {"interesting16", 1, mut_interesting16},
    [FZ_MUT_INTERESTING32] = {"interesting32", 1, mut_interesting32},
    [FZ_MUT_ARITH8] = {"arith8", 2, mut_arith8},
    [FZ_MUT_ARITH16] = {"arith16", 1, mut_arith16},
    [FZ_MUT_ARITH32] = {"arith32", 1, mut_arith32},
    [FZ_MUT_DELETE] = {"delete", 3, mut_delete},
    [FZ_MUT_INSERT] = {"insert", 5, mut_insert},
    [FZ_MUT_OVERWRITE] = {"overwrite", 4, mut_overwrite},
    [FZ_MUT_SHUFFLE] = {"shuffle", 1, mut_shuffle},
    [FZ_MUT_ASCII_INT] = {"ascii_int", 2, mut_ascii_int},
    [FZ_MUT_SPLICE] = {"splice", 6, mut_splice},
    [FZ_MUT_DICT_INSERT] = {"dict_insert", 3, mut_dict_insert},
    [FZ_MUT_DICT_OVERWRITE] = {"dict_overwrite", 3, mut_dict_overwrite},
};

/* Sum of the weights above; checked by the unit tests. */
#define MUT_TOTAL_WEIGHT 40

/* How many random picks fz_mutate tries before it falls back. */
#define MUT_TRIES 4

size_t fz_mut_apply(int op, fz_rng_t *rng, uint8_t *buf, size_t len, size_t max,
                    const fz_mut_env_t *env)
{
    if (op < 0 || op >= FZ_MUT_COUNT)
        return FZ_MUT_NA;
    if (len > max)
        len = max;
    return mut_table[op].fn(rng, buf, len, max, env);
}

static int pick_op(fz_rng_t *rng)
{
    uint32_t r = fz_rng_below(rng, MUT_TOTAL_WEIGHT);
    int op = 0;
    while (r >= mut_table[op].weight)
        r -= mut_table[op++].weight;
    return op;
}

size_t fz_mutate(fz_rng_t *rng, uint8_t *buf, size_t len, size_t max, const fz_mut_env_t *env,
                 int *op_out)
{
    if (len > max)
        len = max;
    int op = -1;
    size_t out = FZ_MUT_NA;
    for (int i = 0; i < MUT_TRIES && out == FZ_MUT_NA; i++) {
        op = pick_op(rng);
        out = mut_table[op].fn(rng, buf, len, max, env);
    }
    /* Insert always applies while there is room, and a full buffer is not
     * empty, so setting a byte applies; only len == max == 0 is left. */
    if (out == FZ_MUT_NA) {
        op = len < max ? FZ_MUT_INSERT : len ? FZ_MUT_RANDOM_BYTE : -1;
        out = op < 0 ? len : mut_table[op].fn(rng, buf, len, max, env);
    }
    if (op_out)
        *op_out = op;
    return out;
}

const char *fz_mut_name(int op)
{
    return op >= 0 && op < FZ_MUT_COUNT ? mut_table[op].name : "none";
}

unsigned fz_mut_weight(int op)
{
    return op >= 0 && op < FZ_MUT_COUNT ? mut_table[op].weight : 0;
}
