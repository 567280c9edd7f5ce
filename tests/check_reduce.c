/*
 * check_reduce.c - unit tests for the minimizer's reduction steps
 * (mutators/reduce.h).  The "target" is simulated: a property function
 * stands in for running the program and comparing its crash or coverage.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mutators/reduce.h"
#include "mutators/rng.h"
#include "tests/check-run.h"

/* The simulated crash: the input holds DE AD BE EF in that order, anywhere
 * (not necessarily adjacent), like a parser that crashes once it has seen
 * four particular bytes. */
static int has_magic(const uint8_t *b, size_t n)
{
    static const uint8_t want[4] = {0xde, 0xad, 0xbe, 0xef};
    size_t k = 0;
    for (size_t i = 0; i < n && k < 4; i++)
        k += b[i] == want[k];
    return k == 4;
}

/* Drive the reducer to the end with property PROP; return executions. */
static uint64_t run(fz_reduce_t *r, size_t cap, int (*prop)(const uint8_t *, size_t))
{
    uint8_t *cand = malloc(cap ? cap : 1);
    size_t n;
    while (fz_reduce_next(r, cand, &n)) {
        ck_assert_uint_le(n, cap);
        fz_reduce_result(r, prop(cand, n));
    }
    free(cand);
    return fz_reduce_execs(r);
}

START_TEST(ten_kb_crash_to_four_bytes)
{
    enum { N = 10 * 1024 };
    uint8_t *in = malloc(N);
    fz_rng_t rng;
    fz_rng_seed(&rng, 1);
    for (size_t i = 0; i < N; i++)
        in[i] = (uint8_t)fz_rng_below(&rng, 0x80); /* never one of the magic bytes */
    in[1000] = 0xde;
    in[4000] = 0xad;
    in[4001] = 0xbe;
    in[9999] = 0xef;
    ck_assert(has_magic(in, N));
    fz_reduce_t r;
    ck_assert_int_eq(fz_reduce_init(&r, in, N, 0), 0);
    uint64_t execs = run(&r, N, has_magic);
    size_t len;
    const uint8_t *best = fz_reduce_best(&r, &len);
    ck_assert_uint_le(len, 16);
    ck_assert_uint_eq(len, 4);
    ck_assert(has_magic(best, len));
    /* Well below one execution per byte: block removal is logarithmic-ish. */
    ck_assert_msg(execs < 2000, "%llu executions", (unsigned long long)execs);
    fz_reduce_free(&r);
    free(in);
}
END_TEST

static int at_least_three(const uint8_t *b, size_t n)
{
    (void)b;
    return n >= 3;
}

/* Once nothing more can be removed, bytes become '0'. */
START_TEST(simplifies_bytes)
{
    fz_reduce_t r;
    ck_assert_int_eq(fz_reduce_init(&r, (const uint8_t *)"hello world", 11, 0), 0);
    run(&r, 11, at_least_three);
    size_t len;
    const uint8_t *best = fz_reduce_best(&r, &len);
    ck_assert_uint_eq(len, 3);
    ck_assert(memcmp(best, "000", 3) == 0);
    fz_reduce_free(&r);
}
END_TEST

/* A flaky target: kept/not-kept at random.  The result must be the original
 * or the last candidate reported kept, no longer than the original, and the
 * reducer must finish. */
START_TEST(flaky_property_leaves_valid_result)
{
    enum { N = 2048 };
    uint8_t in[N], cand[N], last_kept[N];
    size_t last_kept_len = N;
    fz_rng_t rng;
    fz_rng_seed(&rng, 42);
    for (size_t i = 0; i < N; i++)
        in[i] = (uint8_t)fz_rng_next(&rng);
    memcpy(last_kept, in, N);
    fz_reduce_t r;
    ck_assert_int_eq(fz_reduce_init(&r, in, N, 0), 0);
    size_t n;
    while (fz_reduce_next(&r, cand, &n)) {
        int kept = fz_rng_below(&rng, 2);
        if (kept) {
            memcpy(last_kept, cand, n);
            last_kept_len = n;
        }
        fz_reduce_result(&r, kept);
        size_t blen;
        const uint8_t *best = fz_reduce_best(&r, &blen); /* valid at any time */
        ck_assert_uint_eq(blen, last_kept_len);
        ck_assert(memcmp(best, last_kept, blen) == 0);
    }
    size_t len;
    fz_reduce_best(&r, &len);
    ck_assert_uint_le(len, N);
    fz_reduce_free(&r);
}
END_TEST

/* The budget bounds the candidates exactly; the best so far stays valid. */
START_TEST(budget_is_respected)
{
    uint8_t in[1000];
    memset(in, 'x', sizeof(in));
    fz_reduce_t r;
    ck_assert_int_eq(fz_reduce_init(&r, in, sizeof(in), 10), 0);
    uint8_t cand[1000];
    size_t n;
    int calls = 0;
    while (fz_reduce_next(&r, cand, &n)) {
        calls++;
        fz_reduce_result(&r, 0);
    }
    ck_assert_int_eq(calls, 10);
    ck_assert_uint_eq(fz_reduce_execs(&r), 10);
    ck_assert_int_eq(fz_reduce_next(&r, cand, &n), 0);
    size_t len;
    fz_reduce_best(&r, &len);
    ck_assert_uint_eq(len, 1000);
    fz_reduce_free(&r);
}
END_TEST

static int never(const uint8_t *b, size_t n)
{
    (void)b, (void)n;
    return 0;
}

static int always(const uint8_t *b, size_t n)
{
    (void)b, (void)n;
    return 1;
}

/* Edge cases: empty input needs no candidate; a one-byte input; a property
 * that always holds ends empty; one that never holds keeps the input; an
 * unanswered candidate counts as not kept. */
START_TEST(edge_cases)
{
    fz_reduce_t r;
    uint8_t cand[64];
    size_t n, len;
    ck_assert_int_eq(fz_reduce_init(&r, (const uint8_t *)"", 0, 0), 0);
    ck_assert_int_eq(fz_reduce_next(&r, cand, &n), 0);
    fz_reduce_free(&r);

    ck_assert_int_eq(fz_reduce_init(&r, (const uint8_t *)"z", 1, 0), 0);
    run(&r, 1, never);
    ck_assert(memcmp(fz_reduce_best(&r, &len), "z", 1) == 0 && len == 1);
    fz_reduce_free(&r);

    ck_assert_int_eq(fz_reduce_init(&r, (const uint8_t *)"abcdefgh", 8, 0), 0);
    ck_assert_uint_le(run(&r, 8, always), 2);
    fz_reduce_best(&r, &len);
    ck_assert_uint_eq(len, 0);
    fz_reduce_free(&r);

    ck_assert_int_eq(fz_reduce_init(&r, (const uint8_t *)"abcdefgh", 8, 0), 0);
    while (fz_reduce_next(&r, cand, &n))
        ; /* never answered */
    ck_assert(memcmp(fz_reduce_best(&r, &len), "abcdefgh", 8) == 0 && len == 8);
    fz_reduce_free(&r);
}
END_TEST

static Suite *reduce_suite(void)
{
    Suite *s = suite_create("reduce");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ten_kb_crash_to_four_bytes);
    tcase_add_test(tc, simplifies_bytes);
    tcase_add_test(tc, flaky_property_leaves_valid_result);
    tcase_add_test(tc, budget_is_respected);
    tcase_add_test(tc, edge_cases);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return fz_check_run(reduce_suite());
}
