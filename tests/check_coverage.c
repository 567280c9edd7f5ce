/*
 * check_coverage.c - unit tests for core/coverage.c: bucket boundaries,
 * new-edge vs new-count verdicts, and the word-at-a-time code against a
 * byte-at-a-time reference on random and sparse maps.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/coverage.h"
#include "tests/check-run.h"

/* A tiny deterministic generator so failures reproduce. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint8_t ref_bucket(unsigned c)
{
    if (c == 0)
        return 0;
    if (c <= 3)
        return (uint8_t)(c == 3 ? 4 : c);
    if (c <= 7)
        return 8;
    if (c <= 15)
        return 16;
    if (c <= 31)
        return 32;
    if (c <= 127)
        return 64;
    return 128;
}

START_TEST(test_bucket_boundaries)
{
    static const struct {
        unsigned count;
        uint8_t bucket;
    } cases[] = {{0, 0},   {1, 1},   {2, 2},   {3, 4},   {4, 8},    {7, 8},     {8, 16},
                 {15, 16}, {16, 32}, {31, 32}, {32, 64}, {127, 64}, {128, 128}, {255, 128}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_uint_eq(fz_cov_bucket((uint8_t)cases[i].count), cases[i].bucket);
    for (unsigned c = 0; c < 256; c++)
        ck_assert_uint_eq(fz_cov_bucket((uint8_t)c), ref_bucket(c));
}
END_TEST

START_TEST(test_classify_matches_reference)
{
    uint64_t s = 0x1234567u;
    enum { N = 4096 };
    static uint8_t map[N] __attribute__((aligned(8))), ref[N];
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < N; i++) {
            /* Mostly zero with bursts, like a real map. */
            uint64_t r = rnd(&s);
            map[i] = (r % 5 == 0) ? (uint8_t)(r >> 8) : 0;
            ref[i] = ref_bucket(map[i]);
        }
        fz_cov_classify(map, N);
        ck_assert(memcmp(map, ref, N) == 0);
    }
    /* Every count at every byte of a word, beside random neighbours (the
     * word-at-a-time code must not carry between bytes). */
    for (unsigned c = 0; c < 256; c++)
        for (int at = 0; at < 8; at++) {
            uint8_t w[8] __attribute__((aligned(8))), want[8];
            for (int k = 0; k < 8; k++)
                w[k] = k == at ? (uint8_t)c : (uint8_t)rnd(&s);
            for (int k = 0; k < 8; k++)
                want[k] = ref_bucket(w[k]);
            fz_cov_classify(w, 8);
            ck_assert(memcmp(w, want, 8) == 0);
        }
}
END_TEST

/* fz_cov_new_bits's answer, virgin left as it was. */
static int peek_new_bits(const uint8_t *virgin, const uint8_t *map, size_t n)
{
    uint8_t *copy = aligned_alloc(64, (n + 63) & ~(size_t)63);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, virgin, n);
    int r = fz_cov_new_bits(copy, map, n);
    free(copy);
    return r;
}

START_TEST(test_new_edge_vs_new_count)
{
    uint8_t virgin[64] __attribute__((aligned(8))), map[64] __attribute__((aligned(8)));
    fz_cov_virgin_init(virgin, 64);
    memset(map, 0, 64);
    ck_assert_int_eq(fz_cov_new_bits(virgin, map, 64), FZ_COV_NOTHING);
    map[10] = 1;
    ck_assert_int_eq(peek_new_bits(virgin, map, 64), FZ_COV_NEW_EDGE);
    ck_assert_uint_eq(virgin[10], 0xff); /* peek_new_bits does not update */
    ck_assert_int_eq(fz_cov_new_bits(virgin, map, 64), FZ_COV_NEW_EDGE);
    ck_assert_uint_eq(virgin[10], 0xfe);
    ck_assert_int_eq(fz_cov_new_bits(virgin, map, 64), FZ_COV_NOTHING);
    map[10] = 8; /* same edge, new bucket */
    ck_assert_int_eq(fz_cov_new_bits(virgin, map, 64), FZ_COV_NEW_COUNT);
    map[10] = 9; /* bucket 1 and 8 both seen: nothing new */
    ck_assert_int_eq(fz_cov_new_bits(virgin, map, 64), FZ_COV_NOTHING);
    map[63] = 128; /* last byte: a new edge beats a new count */
    map[10] = 2;
    ck_assert_int_eq(fz_cov_new_bits(virgin, map, 64), FZ_COV_NEW_EDGE);
    ck_assert_uint_eq(fz_cov_count_found(virgin, 64), 2);
    ck_assert_uint_eq(fz_cov_count_set(map, 64), 2);
}
END_TEST

/* Byte-wise reference of fz_cov_new_bits. */
static int ref_new_bits(uint8_t *virgin, const uint8_t *map, size_t n)
{
    int ret = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(map[i] & virgin[i]))
            continue;
        int v = virgin[i] == 0xff ? 2 : 1;
        if (v > ret)
            ret = v;
        virgin[i] &= (uint8_t)~map[i];
    }
    return ret;
}

START_TEST(test_new_bits_matches_reference)
{
    enum { N = 1024 };
    static uint8_t v1[N] __attribute__((aligned(8))), v2[N], map[N] __attribute__((aligned(8)));
    uint64_t s = 99;
    fz_cov_virgin_init(v1, N);
    fz_cov_virgin_init(v2, N);
    for (int round = 0; round < 500; round++) {
        memset(map, 0, N);
        for (int k = 0; k < 6; k++)
            map[rnd(&s) % N] = (uint8_t)(rnd(&s) & 0xff);
        fz_cov_classify(map, N);
        uint8_t mask[N] __attribute__((aligned(8)));
        fz_cov_new_mask(v1, map, mask, N);
        for (int i = 0; i < N; i++)
            ck_assert_uint_eq(mask[i], map[i] & v1[i]);
        int peek = peek_new_bits(v1, map, N);
        int got = fz_cov_new_bits(v1, map, N);
        ck_assert_int_eq(got, ref_new_bits(v2, map, N));
        ck_assert_int_eq(peek, got);
        ck_assert(memcmp(v1, v2, N) == 0);
    }
}
END_TEST

/* The one-pass classify-and-judge every run uses gives the two-step
 * answer and the same classified map, on maps of every fill, with hits
 * at the ends of 32-byte blocks and in a size that is not a multiple of 32. */
START_TEST(test_classify_judge_matches_two_steps)
{
    enum { N = 1000 }; /* a multiple of 8, not of 32 */
    static uint8_t v[N] __attribute__((aligned(8))), a[N] __attribute__((aligned(8))),
        b[N] __attribute__((aligned(8)));
    uint64_t s = 7;
    fz_cov_virgin_init(v, N);
    for (int round = 0; round < 2000; round++) {
        memset(a, 0, N);
        int hits = round % 3 == 0 ? 1 : (int)(rnd(&s) % 40);
        for (int k = 0; k < hits; k++) {
            size_t at = round % 5 == 0 ? N - 1 - rnd(&s) % 8 : rnd(&s) % N;
            a[at] = (uint8_t)(rnd(&s) | 1);
        }
        memcpy(b, a, N);
        fz_cov_classify(b, N);
        int want = peek_new_bits(v, b, N);
        int got = fz_cov_classify_judge(v, a, N);
        ck_assert_int_eq(got, want);
        ck_assert(memcmp(a, b, N) == 0);
        ck_assert_uint_eq(fz_cov_count_set(a, N), fz_cov_count_set(b, N));
        if (round % 4 == 0) /* see some of them, so later verdicts vary */
            fz_cov_new_bits(v, b, N);
    }
}
END_TEST

START_TEST(test_sparse_big_map)
{
    size_t n = 8u << 20;
    uint8_t *map = aligned_alloc(64, n), *virgin = aligned_alloc(64, n);
    ck_assert_ptr_nonnull(map);
    memset(map, 0, n);
    fz_cov_virgin_init(virgin, n);
    map[0] = 1;
    map[n / 2 + 3] = 200;
    map[n - 1] = 5;
    fz_cov_classify(map, n);
    ck_assert_uint_eq(map[0], 1);
    ck_assert_uint_eq(map[n / 2 + 3], 128);
    ck_assert_uint_eq(map[n - 1], 8);
    ck_assert_int_eq(fz_cov_new_bits(virgin, map, n), FZ_COV_NEW_EDGE);
    ck_assert_uint_eq(fz_cov_count_found(virgin, n), 3);
    ck_assert(fz_cov_covers(map, map, n));
    uint8_t *want = calloc(1, n);
    want[n - 1] = 16;
    ck_assert(!fz_cov_covers(map, want, n));
    free(want);
    free(map);
    free(virgin);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coverage");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_bucket_boundaries);
    tcase_add_test(tc, test_classify_matches_reference);
    tcase_add_test(tc, test_new_edge_vs_new_count);
    tcase_add_test(tc, test_new_bits_matches_reference);
    tcase_add_test(tc, test_classify_judge_matches_two_steps);
    tcase_add_test(tc, test_sparse_big_map);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
