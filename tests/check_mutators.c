/*
 * check_mutators.c - unit tests for the rng, the byte mutators and the
 * havoc chain (mutators/rng.h, mutate.h, chain.h).
 *
 * Fixed seeds throughout.  Following libFuzzer's mutator tests, a mutator is
 * run many times and must reach every outcome it promises (every bit
 * position, every interesting value, both ends of the buffer).  Buffers are
 * allocated at their exact size and the suite is built with AddressSanitizer,
 * so any read or write out of bounds fails the test.
 */
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fz-config.h"
#include "mutators/chain.h"
#include "mutators/mutate.h"
#include "mutators/rng.h"
#include "tests/check-run.h"

#define SEED 12345

static uint8_t *xmalloc(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    ck_assert_ptr_nonnull(p);
    return p;
}

static void fill_random(fz_rng_t *rng, uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)fz_rng_next(rng);
}

/* ---- rng ---------------------------------------------------------------- */

START_TEST(rng_reproducible)
{
    fz_rng_t a, b, c;
    fz_rng_seed(&a, 1);
    fz_rng_seed(&b, 1);
    fz_rng_seed(&c, 2);
    int differs = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = fz_rng_next(&a);
        ck_assert_uint_eq(x, fz_rng_next(&b));
        differs |= x != fz_rng_next(&c);
    }
    ck_assert(differs);
}
END_TEST

START_TEST(rng_below_range_and_coverage)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, 0); /* seed 0 must work too */
    unsigned seen[37] = {0};
    for (int i = 0; i < 37000; i++) {
        uint32_t v = fz_rng_below(&rng, 37);
        ck_assert_uint_lt(v, 37);
        seen[v]++;
    }
    for (int v = 0; v < 37; v++) /* roughly uniform: expected 1000 each */
        ck_assert(seen[v] > 800 && seen[v] < 1200);
    ck_assert_uint_eq(fz_rng_below(&rng, 0), 0);
    ck_assert_uint_eq(fz_rng_below(&rng, 1), 0);
}
END_TEST

/* ---- every mutator: bounds ----------------------------------------------- */

static fz_dict_t test_dict;
static uint8_t partner_data[40];

static fz_mut_env_t full_env(void)
{
    fz_dict_init(&test_dict);
    fz_dict_add(&test_dict, (const uint8_t *)"TOKEN", 5);
    fz_dict_add(&test_dict, (const uint8_t *)"x", 1);
    fz_dict_add(&test_dict, (const uint8_t *)"0123456789abcdef0123456789abcdef", 32);
    for (size_t i = 0; i < sizeof(partner_data); i++)
        partner_data[i] = (uint8_t)(0xc0 + i);
    return (fz_mut_env_t){.dict = &test_dict, .splice = partner_data, .splice_len = sizeof(partner_data)};
}

/* Apply op to a LEN-byte input with capacity MAX, in an exact-size heap
 * buffer, and check the result length (or that NA left it unchanged). */
static void check_bounds_once(int op, fz_rng_t *rng, size_t len, size_t max,
                              const fz_mut_env_t *env)
{
    uint8_t *buf = xmalloc(max);
    uint8_t *copy = xmalloc(max);
    fill_random(rng, buf, len);
    if (len && fz_rng_below(rng, 2)) /* give ascii_int something to find */
        buf[fz_rng_below(rng, (uint32_t)len)] = '7';
    memcpy(copy, buf, len);
    size_t out = op < 0 ? fz_mutate(rng, buf, len, max, env, NULL)
                        : fz_mut_apply(op, rng, buf, len, max, env);
    if (out == FZ_MUT_NA) {
        ck_assert_int_ge(op, 0);
        ck_assert_msg(memcmp(buf, copy, len) == 0, "%s changed the buffer but said NA",
                      fz_mut_name(op));
    } else {
        ck_assert_msg(out <= max, "%s: length %zu > max %zu", fz_mut_name(op), out, max);
    }
    free(buf);
    free(copy);
}

/* op -1 is fz_mutate (the weighted pick). */
START_TEST(bounds_every_mutator)
{
    static const size_t lens[] = {0, 1, 2, 3, 4, 5, 7, 8, 16, 33, 100};
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    fz_mut_env_t envs[3] = {full_env(), {0}, {.splice = partner_data, .splice_len = 1}};
    for (int op = -1; op < FZ_MUT_COUNT; op++)
        for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
            for (size_t extra = 0; extra < 40; extra += 13)
                for (int e = 0; e < 3; e++)
                    for (int rep = 0; rep < 20; rep++) {
                        size_t len = lens[li];
                        size_t max = len + extra;
                        if (max == 0)
                            continue;
                        check_bounds_once(op, &rng, len, max, &envs[e]);
                        check_bounds_once(op, &rng, len, max, NULL);
                    }
    fz_dict_free(&test_dict);
}
END_TEST

/* Zero-length input with max 1 and one byte with max 1, for every mutator:
 * nothing may crash, and fz_mutate must always find something to do. */
START_TEST(tiny_inputs)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    fz_mut_env_t env = full_env();
    for (int op = 0; op < FZ_MUT_COUNT; op++)
        for (int rep = 0; rep < 200; rep++) {
            check_bounds_once(op, &rng, 0, 1, &env);
            check_bounds_once(op, &rng, 1, 1, &env);
        }
    for (int rep = 0; rep < 200; rep++) {
        uint8_t *b = xmalloc(1);
        int op;
        ck_assert_uint_eq(fz_mutate(&rng, b, 0, 1, &env, &op), 1); /* only growth applies */
        ck_assert_int_ge(op, 0);
        ck_assert_uint_le(fz_mutate(&rng, b, 1, 1, &env, &op), 1);
        ck_assert_int_ge(op, 0);
        free(b);
    }
    int op;
    uint8_t none;
    ck_assert_uint_eq(fz_mutate(&rng, &none, 0, 0, &env, &op), 0);
    ck_assert_int_eq(op, -1);
    ck_assert_str_eq(fz_mut_name(op), "none");
    fz_dict_free(&test_dict);
}
END_TEST

/* Inputs exactly at the fuzzer's size cap: growth must not apply, nothing
 * may write past the cap. */
START_TEST(inputs_at_size_cap)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    fz_mut_env_t env = full_env();
    size_t max = FZ_MAX_INPUT;
    uint8_t *buf = xmalloc(max);
    fill_random(&rng, buf, max);
    for (int op = -1; op < FZ_MUT_COUNT; op++)
        for (int rep = 0; rep < 8; rep++) {
            size_t out = op < 0 ? fz_mutate(&rng, buf, max, max, &env, NULL)
                                : fz_mut_apply(op, &rng, buf, max, max, &env);
            ck_assert(out == FZ_MUT_NA || out <= max);
            if (op == FZ_MUT_INSERT || op == FZ_MUT_DICT_INSERT)
                ck_assert(out == FZ_MUT_NA);
            if (out != FZ_MUT_NA && out < max)
                fill_random(&rng, buf + out, max - out); /* back to full size */
        }
    free(buf);
    fz_dict_free(&test_dict);
}
END_TEST

/* ---- outcomes ------------------------------------------------------------ */

START_TEST(flip_bit_reaches_every_bit)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    uint64_t seen = 0;
    for (int i = 0; i < 2000; i++) {
        uint8_t b[8] = {0};
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_FLIP_BIT, &rng, b, 8, 8, NULL), 8);
        uint64_t v;
        memcpy(&v, b, 8);
        ck_assert_int_eq(__builtin_popcountll(v), 1); /* exactly one bit */
        seen |= v;
    }
    ck_assert_uint_eq(seen, ~0ull);
}
END_TEST

START_TEST(random_byte_always_changes)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int seen[256] = {0};
    for (int i = 0; i < 20000; i++) {
        uint8_t b = 0x55;
        fz_mut_apply(FZ_MUT_RANDOM_BYTE, &rng, &b, 1, 1, NULL);
        ck_assert_uint_ne(b, 0x55);
        seen[b] = 1;
    }
    for (int v = 0; v < 256; v++)
        ck_assert(seen[v] || v == 0x55);
}
END_TEST

static const int32_t want8[] = {-128, -1, 0, 1, 16, 32, 64, 100, 127};
static const int32_t want16[] = {-32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767};
static const int32_t want32[] = {-2147483647 - 1, -100663046, -32769,    32768,
                                 65535,           65536,      100663045, 2147483647};

static int in_list(int32_t v, const int32_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (l[i] == v)
            return 1;
    return 0;
}

/* Every value of width W (and the narrower ones, sign-extended) must be
 * written in both byte orders. */
static void check_interesting(int op, size_t w)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int32_t all[32];
    size_t n = 0;
    for (size_t i = 0; i < 9; i++)
        all[n++] = want8[i];
    for (size_t i = 0; w >= 2 && i < 10; i++)
        all[n++] = want16[i];
    for (size_t i = 0; w >= 4 && i < 8; i++)
        all[n++] = want32[i];
    int seen_le[32] = {0}, seen_be[32] = {0};
    for (int it = 0; it < 20000; it++) {
        uint8_t b[4] = {0xaa, 0xaa, 0xaa, 0xaa};
        ck_assert_uint_eq(fz_mut_apply(op, &rng, b, w, w, NULL), w);
        int32_t le, be;
        if (w == 1) {
            le = be = (int8_t)b[0];
        } else if (w == 2) {
            le = (int16_t)(b[0] | b[1] << 8);
            be = (int16_t)(b[1] | b[0] << 8);
        } else {
            le = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                           (uint32_t)b[3] << 24);
            be = (int32_t)__builtin_bswap32((uint32_t)le);
        }
        /* Narrow values in a wider field: compare as that width. */
        ck_assert_msg(in_list(le, all, n) || in_list(be, all, n), "%s wrote %d / %d",
                      fz_mut_name(op), le, be);
        for (size_t i = 0; i < n; i++) {
            seen_le[i] |= le == all[i];
            seen_be[i] |= be == all[i];
        }
    }
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(seen_le[i] && seen_be[i], "%s never wrote %d in both orders", fz_mut_name(op),
                      all[i]);
}

START_TEST(interesting_values_all_used)
{
    check_interesting(FZ_MUT_INTERESTING8, 1);
    check_interesting(FZ_MUT_INTERESTING16, 2);
    check_interesting(FZ_MUT_INTERESTING32, 4);
}
END_TEST

/* Arithmetic reaches exactly +-1..35, in both byte orders for the wider
 * widths (a 16-bit add in the other order changes the high byte). */
START_TEST(arith_deltas)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int seen8[71] = {0};
    for (int i = 0; i < 20000; i++) {
        uint8_t b = 100;
        fz_mut_apply(FZ_MUT_ARITH8, &rng, &b, 1, 1, NULL);
        int d = (int)b - 100;
        ck_assert(d != 0 && d >= -35 && d <= 35);
        seen8[d + 35] = 1;
    }
    for (int d = -35; d <= 35; d++)
        ck_assert(d == 0 || seen8[d + 35]);
    int seen_le = 0, seen_be = 0;
    for (int i = 0; i < 2000; i++) {
        uint8_t b[2] = {0x80, 0x80};
        fz_mut_apply(FZ_MUT_ARITH16, &rng, b, 2, 2, NULL);
        int le = (b[0] | b[1] << 8) - 0x8080, be = (b[1] | b[0] << 8) - 0x8080;
        ck_assert((le >= -35 && le <= 35 && le) || (be >= -35 && be <= 35 && be));
        seen_le |= le >= -35 && le <= 35 && b[1] == 0x80;
        seen_be |= be >= -35 && be <= 35 && b[0] == 0x80;
    }
    ck_assert(seen_le && seen_be);
}
END_TEST

/* Insertion must reach the start, the end and the middle. */
START_TEST(insert_reaches_both_ends)
{
    static const uint8_t orig[4] = {0xa0, 0xa1, 0xa2, 0xa3};
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int at_start = 0, at_end = 0, middle = 0, modes_copy = 0;
    for (int i = 0; i < 5000; i++) {
        uint8_t b[16];
        memcpy(b, orig, 4);
        size_t out = fz_mut_apply(FZ_MUT_INSERT, &rng, b, 4, sizeof(b), NULL);
        ck_assert(out > 4 && out <= sizeof(b));
        int suffix = memcmp(b + out - 4, orig, 4) == 0;
        int prefix = memcmp(b, orig, 4) == 0;
        at_start |= suffix && !prefix;
        at_end |= prefix && !suffix;
        middle |= !prefix && !suffix && b[0] == 0xa0 && b[out - 1] == 0xa3;
        modes_copy |= out == 6 && !prefix && !suffix && b[0] == 0xa0 && b[1] >= 0xa0 &&
                      b[1] <= 0xa3 && b[2] >= 0xa0 && b[2] <= 0xa3;
    }
    ck_assert(at_start && at_end && middle && modes_copy);
}
END_TEST

/* Insertion into an empty buffer, and a copy insertion whose source straddles
 * the insertion point, must produce the bytes that were there. */
START_TEST(insert_copy_is_faithful)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    for (int i = 0; i < 5000; i++) {
        uint8_t b[12] = "abcdef";
        size_t out = fz_mut_apply(FZ_MUT_INSERT, &rng, b, 6, sizeof(b), NULL);
        ck_assert(out > 6 && out <= 12);
        /* Removing the inserted block must give back "abcdef" for some
         * position: the original bytes keep their order. */
        size_t n = out - 6;
        int found = 0;
        for (size_t pos = 0; pos <= 6 && !found; pos++)
            found =
                memcmp(b, "abcdef", pos) == 0 && memcmp(b + pos + n, &"abcdef"[pos], 6 - pos) == 0;
        ck_assert(found);
    }
}
END_TEST

START_TEST(delete_never_underflows)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    uint8_t b[64];
    int reached_zero = 0;
    for (int i = 0; i < 5000; i++) {
        size_t len = fz_rng_below(&rng, 10);
        size_t out = fz_mut_apply(FZ_MUT_DELETE, &rng, b, len, sizeof(b), NULL);
        if (len == 0) {
            ck_assert(out == FZ_MUT_NA);
        } else {
            ck_assert(out < len);
            reached_zero |= out == 0;
        }
    }
    ck_assert(reached_zero);
}
END_TEST

START_TEST(overwrite_and_shuffle_keep_length_and_bytes)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int changed = 0;
    for (int i = 0; i < 2000; i++) {
        uint8_t b[10] = "0123456789";
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_SHUFFLE, &rng, b, 10, 10, NULL), 10);
        int count[10] = {0};
        for (int k = 0; k < 10; k++)
            count[b[k] - '0']++;
        for (int k = 0; k < 10; k++)
            ck_assert_int_eq(count[k], 1); /* a permutation */
        uint8_t c[10] = "0123456789";
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_OVERWRITE, &rng, c, 10, 10, NULL), 10);
        changed |= memcmp(c, "0123456789", 10) != 0;
    }
    ck_assert(changed);
    uint8_t one = 1;
    ck_assert(fz_mut_apply(FZ_MUT_OVERWRITE, &rng, &one, 1, 1, NULL) == FZ_MUT_NA);
    ck_assert(fz_mut_apply(FZ_MUT_SHUFFLE, &rng, &one, 1, 1, NULL) == FZ_MUT_NA);
}
END_TEST

START_TEST(ascii_int_changes_the_number)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int plus = 0, minus = 0, neg = 0, mul = 0;
    for (int i = 0; i < 5000; i++) {
        uint8_t b[64] = "len=123;";
        size_t out = fz_mut_apply(FZ_MUT_ASCII_INT, &rng, b, 8, sizeof(b), NULL);
        ck_assert(out != FZ_MUT_NA && out <= sizeof(b));
        ck_assert(memcmp(b, "len=", 4) == 0 && b[out - 1] == ';');
        b[out - 1] = 0;
        long v = strtol((char *)b + 4, NULL, 10);
        plus |= v > 123 && v <= 158;
        minus |= v < 123 && v >= 88;
        neg |= v == -123;
        mul |= v == 246;
    }
    ck_assert(plus && minus && neg && mul);
    uint8_t t[4] = "abc";
    ck_assert(fz_mut_apply(FZ_MUT_ASCII_INT, &rng, t, 3, 4, NULL) == FZ_MUT_NA);
    /* A number that would grow past max is left alone. */
    for (int i = 0; i < 1000; i++) {
        uint8_t b[3] = "99";
        size_t out = fz_mut_apply(FZ_MUT_ASCII_INT, &rng, b, 2, 2, NULL);
        ck_assert(out == FZ_MUT_NA || out <= 2);
    }
}
END_TEST

/* Splicing with partners of every size against inputs of every size, in
 * exact-size buffers: ASan fails the test on any read past either. */
START_TEST(splice_stays_in_bounds)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int took_partner = 0;
    for (size_t plen = 1; plen < 24; plen++)
        for (size_t len = 0; len < 24; len++)
            for (size_t extra = 0; extra < 20; extra += 7)
                for (int rep = 0; rep < 10; rep++) {
                    size_t max = len + extra ? len + extra : 1;
                    uint8_t *p = xmalloc(plen), *b = xmalloc(max);
                    memset(p, 0xee, plen);
                    memset(b, 0x11, len);
                    fz_mut_env_t env = {.splice = p, .splice_len = plen};
                    size_t out = fz_mut_apply(FZ_MUT_SPLICE, &rng, b, len, max, &env);
                    ck_assert(out == FZ_MUT_NA || out <= max);
                    if (out != FZ_MUT_NA)
                        took_partner |= memchr(b, 0xee, out) != NULL;
                    free(p);
                    free(b);
                }
    ck_assert(took_partner);
    uint8_t b[4] = {0};
    ck_assert(fz_mut_apply(FZ_MUT_SPLICE, &rng, b, 4, 4, NULL) == FZ_MUT_NA);
}
END_TEST

/* ---- every outcome, libFuzzer style -------------------------------------
 * Each test below runs one mutator many times from a fixed seed on a small
 * input whose every possible result can be told apart, marks the outcome
 * each run produced, and expects every outcome marked.  A mutator that
 * silently lost a case (a byte order, an end of the buffer, a mode) fails. */

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint32_t be32(const uint8_t *b)
{
    return (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
}

/* Marks the delta d (-35..35, not 0) of byte order `order` (0 little, 1
 * big) in seen[order][d + 35]; fails on anything else. */
static void mark_delta(int seen[2][71], int64_t le, int64_t be)
{
    if (le != 0 && le >= -35 && le <= 35)
        seen[0][le + 35] = 1;
    else if (be != 0 && be >= -35 && be <= 35)
        seen[1][be + 35] = 1;
    else
        ck_abort_msg("not a small delta in either byte order: le %lld be %lld", (long long)le,
                     (long long)be);
}

static void expect_all_deltas(int seen[2][71], const char *what)
{
    for (int o = 0; o < 2; o++)
        for (int d = -35; d <= 35; d++)
            ck_assert_msg(d == 0 || seen[o][d + 35], "%s: delta %d in %s byte order never seen",
                          what, d, o ? "big" : "little");
}

START_TEST(arith32_every_delta_both_orders)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    static const uint8_t orig[4] = {0x50, 0x60, 0x70, 0x40};
    int seen[2][71] = {{0}};
    for (int i = 0; i < 30000; i++) {
        uint8_t b[4];
        memcpy(b, orig, 4);
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_ARITH32, &rng, b, 4, 4, NULL), 4);
        mark_delta(seen, (int32_t)(le32(b) - le32(orig)), (int32_t)(be32(b) - be32(orig)));
    }
    expect_all_deltas(seen, "arith32");
}
END_TEST

START_TEST(arith16_every_delta_both_orders)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    static const uint8_t orig[2] = {0x50, 0x60};
    int seen[2][71] = {{0}};
    for (int i = 0; i < 30000; i++) {
        uint8_t b[2] = {orig[0], orig[1]};
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_ARITH16, &rng, b, 2, 2, NULL), 2);
        int le = (b[0] | b[1] << 8) - (orig[0] | orig[1] << 8);
        int be = (b[1] | b[0] << 8) - (orig[1] | orig[0] << 8);
        mark_delta(seen, (int16_t)le, (int16_t)be);
    }
    expect_all_deltas(seen, "arith16");
}
END_TEST

/* On "abcdef" every block (start, length) can be deleted, from either end
 * and every position in between. */
START_TEST(delete_every_block)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int seen[6][7] = {{0}}; /* [start][length] */
    for (int i = 0; i < 20000; i++) {
        uint8_t b[6];
        memcpy(b, "abcdef", 6);
        size_t out = fz_mut_apply(FZ_MUT_DELETE, &rng, b, 6, 6, NULL);
        ck_assert(out < 6);
        size_t n = 6 - out, pos = 0;
        while (pos < out && b[pos] == "abcdef"[pos])
            pos++;
        ck_assert(memcmp(b + pos, "abcdef" + pos + n, out - pos) == 0);
        seen[pos][n] = 1;
    }
    for (size_t pos = 0; pos < 6; pos++)
        for (size_t n = 1; pos + n <= 6; n++)
            ck_assert_msg(seen[pos][n], "delete of %zu bytes at %zu never seen", n, pos);
}
END_TEST

/* On "abcde" every (source, destination, length) with source != destination:
 * the changed bytes are exactly the destination block, and the first of
 * them names the source. */
START_TEST(overwrite_every_block)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int seen[5][5][5] = {{{0}}}; /* [src][dst][n] */
    for (int i = 0; i < 40000; i++) {
        uint8_t b[5];
        memcpy(b, "abcde", 5);
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_OVERWRITE, &rng, b, 5, 5, NULL), 5);
        size_t dst = 0, end = 5;
        while (dst < 5 && b[dst] == "abcde"[dst])
            dst++;
        while (end > dst && b[end - 1] == "abcde"[end - 1])
            end--;
        ck_assert(dst < end);
        size_t n = end - dst, src = (size_t)(b[dst] - 'a');
        ck_assert(memcmp(b + dst, "abcde" + src, n) == 0);
        seen[src][dst][n] = 1;
    }
    for (size_t n = 1; n < 5; n++)
        for (size_t src = 0; src + n <= 5; src++)
            for (size_t dst = 0; dst + n <= 5; dst++)
                ck_assert_msg(src == dst || seen[src][dst][n],
                              "overwrite src %zu dst %zu len %zu never seen", src, dst, n);
}
END_TEST

/* The random mode of overwrite, seen on inputs of one repeated byte, where
 * a copy changes nothing: about one pick in three writes random bytes, the
 * widths reach from a few bytes to thousands, both ends of a short input
 * are reached, and inputs under 16 bytes only ever get copies. */
START_TEST(overwrite_random_ranges)
{
    enum { N = 8192, RUNS = 3000 };
    static uint8_t b[N];
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    static const size_t lens[] = {64, N};
    for (size_t l = 0; l < 2; l++) {
        size_t len = lens[l];
        int random = 0, narrow = 0, wide = 0, first = 0, last = 0;
        for (int i = 0; i < RUNS; i++) {
            memset(b, 'a', len);
            ck_assert_uint_eq(fz_mut_apply(FZ_MUT_OVERWRITE, &rng, b, len, len, NULL), len);
            size_t lo = 0, hi = len;
            while (lo < len && b[lo] == 'a')
                lo++;
            while (hi > lo && b[hi - 1] == 'a')
                hi--;
            if (lo == hi)
                continue;
            random++;
            narrow += hi - lo <= 16;
            wide += hi - lo > 1024;
            first |= lo == 0;
            last |= hi == len;
        }
        ck_assert_msg(random > RUNS / 4 && random < RUNS * 5 / 12, "random ranges %d of %d",
                      random, RUNS);
        ck_assert_msg(narrow > RUNS / 30, "narrow %d", narrow);
        if (len == N)
            ck_assert_msg(wide > RUNS / 60, "wide %d", wide);
        else
            ck_assert_msg(first && last, "an end of the input never overwritten");
    }
    for (int i = 0; i < 2000; i++) {
        uint8_t s[15];
        memset(s, 'a', sizeof s);
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_OVERWRITE, &rng, s, 15, 15, NULL), 15);
        for (size_t k = 0; k < sizeof s; k++)
            ck_assert_int_eq(s[k], 'a');
    }
}
END_TEST

/* The three splice modes, told apart by length with a partner shorter than
 * the input: the partner's tail from a cut (shorter result), a chunk of the
 * partner inserted (longer), a chunk written over ours (same length).  Each
 * mode must reach every cut / position / chunk length. */
START_TEST(splice_every_mode)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    static const uint8_t partner[6] = {'0', '1', '2', '3', '4', '5'};
    fz_mut_env_t env = {.splice = partner, .splice_len = sizeof(partner)};
    int cut_seen[6] = {0}, ins_seen[9][7] = {{0}}, over_seen[8][7] = {{0}}, src_seen[6] = {0};
    for (int i = 0; i < 40000; i++) {
        uint8_t b[32];
        memset(b, 'a', 8);
        size_t out = fz_mut_apply(FZ_MUT_SPLICE, &rng, b, 8, sizeof(b), &env);
        if (out == FZ_MUT_NA)
            continue; /* mode 0 with a cut at the partner's end */
        size_t pos = 0;
        while (pos < out && b[pos] == 'a')
            pos++;
        ck_assert(pos < out);
        if (out == sizeof(partner)) { /* our head, the partner's tail */
            ck_assert(memcmp(b + pos, partner + pos, out - pos) == 0);
            cut_seen[pos] = 1;
            continue;
        }
        size_t n = out > 8 ? out - 8 : 0;
        if (!n) /* overwrite: the chunk ends where the a's resume */
            while (pos + n < 8 && b[pos + n] != 'a')
                n++;
        size_t src = (size_t)(b[pos] - '0');
        ck_assert(src + n <= sizeof(partner) && memcmp(b + pos, partner + src, n) == 0);
        src_seen[src] = 1;
        if (out > 8)
            ins_seen[pos][n] = 1;
        else
            over_seen[pos][n] = 1;
    }
    for (size_t c = 0; c < 6; c++)
        ck_assert_msg(cut_seen[c], "splice tail from cut %zu never seen", c);
    for (size_t n = 1; n <= 6; n++) {
        for (size_t pos = 0; pos <= 8; pos++)
            ck_assert_msg(ins_seen[pos][n], "splice insert of %zu at %zu never seen", n, pos);
        for (size_t pos = 0; pos + n <= 8; pos++)
            ck_assert_msg(over_seen[pos][n], "splice overwrite of %zu at %zu never seen", n, pos);
    }
    for (size_t k = 0; k < 6; k++)
        ck_assert_msg(src_seen[k], "no chunk taken from partner offset %zu", k);
}
END_TEST

/* Every value ascii_int can write for "x=7000;": +1..35, -1..35, x2..x16,
 * /2../16, the negation and each interesting 32-bit value. */
START_TEST(ascii_int_every_outcome)
{
    enum { V = 7000 };
    int64_t want[160];
    size_t nw = 0;
    for (int d = 1; d <= 35; d++)
        want[nw++] = V + d, want[nw++] = V - d;
    for (int k = 2; k <= 16; k++)
        want[nw++] = (int64_t)V * k, want[nw++] = V / k;
    want[nw++] = -V;
    for (size_t i = 0; i < sizeof(want32) / sizeof(want32[0]); i++)
        want[nw++] = want32[i];
    for (size_t i = 0; i < sizeof(want16) / sizeof(want16[0]); i++)
        want[nw++] = want16[i];
    for (size_t i = 0; i < sizeof(want8) / sizeof(want8[0]); i++)
        want[nw++] = want8[i];
    int seen[160] = {0};
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    for (int i = 0; i < 60000; i++) {
        uint8_t b[32] = "x=7000;";
        size_t out = fz_mut_apply(FZ_MUT_ASCII_INT, &rng, b, 7, sizeof(b), NULL);
        ck_assert(out != FZ_MUT_NA && b[out - 1] == ';' && memcmp(b, "x=", 2) == 0);
        b[out - 1] = 0;
        char *end;
        long long v = strtoll((char *)b + 2, &end, 10);
        ck_assert(*end == 0);
        int known = 0;
        for (size_t k = 0; k < nw; k++)
            if (want[k] == v)
                seen[k] = known = 1;
        ck_assert_msg(known, "ascii_int wrote %lld, not one of its outcomes", v);
    }
    for (size_t k = 0; k < nw; k++)
        ck_assert_msg(seen[k], "ascii_int never wrote %lld", (long long)want[k]);
}
END_TEST

/* insert's three modes: random bytes, one byte repeated (new, or one that
 * is already in the input), a copy of part of the input; each must occur,
 * and random bytes must land at both ends. */
START_TEST(insert_every_mode)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int random_start = 0, random_end = 0, repeat_new = 0, repeat_old = 0, copy = 0;
    for (int i = 0; i < 20000; i++) {
        uint8_t b[64];
        memcpy(b, "abcd", 4);
        size_t out = fz_mut_apply(FZ_MUT_INSERT, &rng, b, 4, sizeof(b), NULL);
        size_t n = out - 4;
        if (n < 3)
            continue; /* too short to tell a repeat from chance */
        const uint8_t *blk = NULL;
        int at_start = memcmp(b + n, "abcd", 4) == 0, at_end = memcmp(b, "abcd", 4) == 0;
        if (at_start)
            blk = b;
        else if (at_end)
            blk = b + 4;
        else
            continue;
        int same = 1;
        for (size_t k = 1; k < n; k++)
            same &= blk[k] == blk[0];
        int old = blk[0] >= 'a' && blk[0] <= 'd';
        if (same && old)
            repeat_old = 1;
        else if (same)
            repeat_new = 1;
        else if (n <= 4 && memmem("abcd", 4, blk, n))
            copy = 1;
        else {
            random_start |= at_start;
            random_end |= at_end;
        }
    }
    ck_assert_msg(random_start && random_end, "random bytes at start %d, end %d", random_start,
                  random_end);
    ck_assert_msg(repeat_new && repeat_old, "repeated new byte %d, existing byte %d", repeat_new,
                  repeat_old);
    ck_assert(copy);
}
END_TEST

/* shuffle moves every position, over windows from 2 to 8 bytes. */
START_TEST(shuffle_every_position)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    int moved[10] = {0}, span[11] = {0};
    for (int i = 0; i < 20000; i++) {
        uint8_t b[10];
        memcpy(b, "0123456789", 10);
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_SHUFFLE, &rng, b, 10, 10, NULL), 10);
        int first = -1, last = -1;
        for (int k = 0; k < 10; k++)
            if (b[k] != '0' + k) {
                moved[k] = 1;
                last = k;
                if (first < 0)
                    first = k;
            }
        if (first >= 0) {
            ck_assert_int_le(last - first + 1, 8);
            span[last - first + 1] = 1;
        }
    }
    for (int k = 0; k < 10; k++)
        ck_assert_msg(moved[k], "shuffle never moved byte %d", k);
    for (int n = 2; n <= 8; n++)
        ck_assert_msg(span[n], "shuffle never changed a span of %d bytes", n);
}
END_TEST

START_TEST(dict_tokens_inserted_and_overwritten)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    fz_dict_t d;
    fz_dict_init(&d);
    ck_assert_int_eq(fz_dict_add(&d, (const uint8_t *)"MAGIC", 5), 1);
    fz_mut_env_t env = {.dict = &d};
    int start = 0, end = 0, over = 0;
    for (int i = 0; i < 2000; i++) {
        uint8_t b[16] = "abcdef";
        size_t out = fz_mut_apply(FZ_MUT_DICT_INSERT, &rng, b, 6, sizeof(b), &env);
        ck_assert_uint_eq(out, 11);
        start |= memcmp(b, "MAGICabcdef", 11) == 0;
        end |= memcmp(b, "abcdefMAGIC", 11) == 0;
        uint8_t c[6] = "abcdef";
        ck_assert_uint_eq(fz_mut_apply(FZ_MUT_DICT_OVERWRITE, &rng, c, 6, 6, &env), 6);
        over |= memcmp(c, "aMAGIC", 6) == 0;
    }
    ck_assert(start && end && over);
    uint8_t s[4] = "abc";
    ck_assert(fz_mut_apply(FZ_MUT_DICT_INSERT, &rng, s, 3, 4, &env) == FZ_MUT_NA); /* no room */
    ck_assert(fz_mut_apply(FZ_MUT_DICT_OVERWRITE, &rng, s, 3, 4, &env) ==
              FZ_MUT_NA); /* too short */
    fz_mut_env_t empty = {0};
    ck_assert(fz_mut_apply(FZ_MUT_DICT_INSERT, &rng, s, 3, 4, &empty) == FZ_MUT_NA);
    fz_dict_free(&d);
}
END_TEST

/* With everything available, the weighted pick reaches every mutator, and
 * each name is distinct. */
START_TEST(mutate_picks_every_op)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, SEED);
    fz_mut_env_t env = full_env();
    int seen[FZ_MUT_COUNT] = {0};
    for (int i = 0; i < 20000; i++) {
        uint8_t b[256] = "some text with 42 in it, and more bytes after";
        int op;
        size_t out = fz_mutate(&rng, b, 48, sizeof(b), &env, &op);
        ck_assert(op >= 0 && op < FZ_MUT_COUNT && out <= sizeof(b));
        seen[op] = 1;
    }
    for (int op = 0; op < FZ_MUT_COUNT; op++) {
        ck_assert_msg(seen[op], "%s never picked", fz_mut_name(op));
        ck_assert_uint_gt(fz_mut_weight(op), 0);
        for (int o = 0; o < op; o++)
            ck_assert_str_ne(fz_mut_name(op), fz_mut_name(o));
    }
    ck_assert_str_eq(fz_mut_name(FZ_MUT_COUNT), "none");
    fz_dict_free(&test_dict);
}
END_TEST

/* ---- chain --------------------------------------------------------------- */

START_TEST(chain_reproducible)
{
    fz_mut_env_t env = full_env();
    const uint8_t orig[] = "GET /index.html HTTP/1.1\r\nContent-Length: 12\r\n\r\n";
    uint8_t a[128], b[128];
    fz_rng_t ra, rb;
    fz_rng_seed(&ra, 7);
    fz_rng_seed(&rb, 7);
    fz_chain_t ca, cb;
    fz_chain_init(&ca, &ra, &env, orig, sizeof(orig) - 1, a, sizeof(a));
    fz_chain_init(&cb, &rb, &env, orig, sizeof(orig) - 1, b, sizeof(b));
    int spliced = 0;
    for (int i = 0; i < 5000; i++) {
        size_t la = fz_chain_next(&ca), lb = fz_chain_next(&cb);
        ck_assert_uint_eq(la, lb);
        ck_assert(la <= sizeof(a));
        ck_assert(memcmp(a, b, la) == 0);
        ck_assert_str_eq(fz_chain_stage(&ca), fz_chain_stage(&cb));
        spliced |= strcmp(fz_chain_stage(&ca), "splice") == 0;
    }
    ck_assert(spliced);
    fz_dict_free(&test_dict);
}
END_TEST

/*
 * The chain resets to the original: a candidate that starts a chain is
 * exactly one fz_mutate away from the original, given the rng state before
 * the call (the reset draws the chain length first).  Chains of every length
 * 1..FZ_CHAIN_MAX_STEPS occur, and none is longer.
 */
START_TEST(chain_resets_to_original)
{
    fz_mut_env_t env = full_env();
    const uint8_t orig[] = "0123456789abcdefghij";
    size_t olen = sizeof(orig) - 1;
    uint8_t buf[64], model[64];
    fz_rng_t rng;
    fz_rng_seed(&rng, 99);
    fz_chain_t c;
    fz_chain_init(&c, &rng, &env, orig, olen, buf, sizeof(buf));
    unsigned run = 0, seen_len[FZ_CHAIN_MAX_STEPS + 1] = {0};
    int resets = 0;
    for (int i = 0; i < 3000; i++) {
        fz_rng_t before = rng;
        size_t len = fz_chain_next(&c);
        /* Model a fresh chain from the saved state. */
        memcpy(model, orig, olen);
        fz_rng_below(&before, FZ_CHAIN_MAX_STEPS);
        size_t mlen = fz_mutate(&before, model, olen, sizeof(model), &env, NULL);
        if (c.step == 1) {
            ck_assert_uint_eq(len, mlen);
            ck_assert(memcmp(buf, model, len) == 0);
            if (i > 0) {
                ck_assert(run >= 1 && run <= FZ_CHAIN_MAX_STEPS);
                seen_len[run] = 1;
            }
            run = 0;
            resets++;
        }
        run++;
        ck_assert(run <= FZ_CHAIN_MAX_STEPS);
    }
    ck_assert_int_gt(resets, 3000 / FZ_CHAIN_MAX_STEPS);
    for (int k = 1; k <= FZ_CHAIN_MAX_STEPS; k++)
        ck_assert_msg(seen_len[k], "no chain of length %d", k);
    fz_dict_free(&test_dict);
}
END_TEST

/* An original longer than max is cut; candidates never exceed max, and an
 * empty original with max 1 works. */
START_TEST(chain_respects_max)
{
    fz_mut_env_t env = full_env();
    uint8_t orig[100];
    memset(orig, 'q', sizeof(orig));
    fz_rng_t rng;
    fz_rng_seed(&rng, 3);
    uint8_t *buf = xmalloc(10);
    fz_chain_t c;
    fz_chain_init(&c, &rng, &env, orig, sizeof(orig), buf, 10);
    for (int i = 0; i < 5000; i++)
        ck_assert_uint_le(fz_chain_next(&c), 10);
    free(buf);
    uint8_t one[1];
    fz_chain_init(&c, &rng, &env, orig, 0, one, 1);
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_le(fz_chain_next(&c), 1);
    fz_dict_free(&test_dict);
}
END_TEST

/* Chained candidates should not drift bigger than the original on average:
 * the delete bias keeps the mean length near the original's. */
START_TEST(chain_does_not_grow)
{
    fz_mut_env_t env = full_env();
    uint8_t orig[200], buf[4096];
    memset(orig, 'a', sizeof(orig));
    fz_rng_t rng;
    fz_rng_seed(&rng, 5);
    fz_chain_t c;
    fz_chain_init(&c, &rng, &env, orig, sizeof(orig), buf, sizeof(buf));
    double sum = 0;
    for (int i = 0; i < 20000; i++)
        sum += (double)fz_chain_next(&c);
    ck_assert_msg(sum / 20000 < 210, "mean candidate length %.1f", sum / 20000);
    fz_dict_free(&test_dict);
}
END_TEST

static Suite *mutators_suite(void)
{
    Suite *s = suite_create("mutators");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, rng_reproducible);
    tcase_add_test(tc, rng_below_range_and_coverage);
    tcase_add_test(tc, bounds_every_mutator);
    tcase_add_test(tc, tiny_inputs);
    tcase_add_test(tc, inputs_at_size_cap);
    tcase_add_test(tc, flip_bit_reaches_every_bit);
    tcase_add_test(tc, random_byte_always_changes);
    tcase_add_test(tc, interesting_values_all_used);
    tcase_add_test(tc, arith_deltas);
    tcase_add_test(tc, insert_reaches_both_ends);
    tcase_add_test(tc, insert_copy_is_faithful);
    tcase_add_test(tc, delete_never_underflows);
    tcase_add_test(tc, overwrite_and_shuffle_keep_length_and_bytes);
    tcase_add_test(tc, ascii_int_changes_the_number);
    tcase_add_test(tc, splice_stays_in_bounds);
    tcase_add_test(tc, dict_tokens_inserted_and_overwritten);
    tcase_add_test(tc, arith32_every_delta_both_orders);
    tcase_add_test(tc, arith16_every_delta_both_orders);
    tcase_add_test(tc, delete_every_block);
    tcase_add_test(tc, overwrite_every_block);
    tcase_add_test(tc, overwrite_random_ranges);
    tcase_add_test(tc, splice_every_mode);
    tcase_add_test(tc, ascii_int_every_outcome);
    tcase_add_test(tc, insert_every_mode);
    tcase_add_test(tc, shuffle_every_position);
    tcase_add_test(tc, mutate_picks_every_op);
    tcase_add_test(tc, chain_reproducible);
    tcase_add_test(tc, chain_resets_to_original);
    tcase_add_test(tc, chain_respects_max);
    tcase_add_test(tc, chain_does_not_grow);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fz_check_run(mutators_suite());
}
