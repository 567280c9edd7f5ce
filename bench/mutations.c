/*
 * bench/mutations.c - how fast the mutation engine produces candidates,
 * without running any target: the engine must never be what limits
 * executions per second (goal: >= 10M simple mutations/s).  Also reports
 * how many candidates the reducer spends on a 10 KB input whose property
 * needs 4 bytes.  Fixed seeds and counts; only the wall time varies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mutators/chain.h"
#include "mutators/mutate.h"
#include "mutators/reduce.h"

#define INPUT_LEN 1024
#define SIMPLE_ITERS 20000000L
#define CHAIN_ITERS 5000000L

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sink so the compiler cannot drop the work. */
static volatile uint64_t sink;

static void report(const char *what, long n, double secs)
{
    printf("%-24s %10.1f M/s  (%ld in %.3f s)\n", what, n / secs / 1e6, n, secs);
}

static void bench_simple(fz_rng_t *rng, uint8_t *buf)
{
    static const int simple[] = {FZ_MUT_FLIP_BIT,      FZ_MUT_RANDOM_BYTE,   FZ_MUT_INTERESTING8,
                                 FZ_MUT_INTERESTING16, FZ_MUT_INTERESTING32, FZ_MUT_ARITH8,
                                 FZ_MUT_ARITH16,       FZ_MUT_ARITH32};
    const int nsimple = (int)(sizeof(simple) / sizeof(simple[0]));
    for (int k = 0; k < nsimple; k++) {
        double t = now();
        for (long i = 0; i < SIMPLE_ITERS / 4; i++)
            sink += fz_mut_apply(simple[k], rng, buf, INPUT_LEN, INPUT_LEN, NULL);
        report(fz_mut_name(simple[k]), SIMPLE_ITERS / 4, now() - t);
    }
    double t = now();
    for (long i = 0; i < SIMPLE_ITERS; i++)
        sink += fz_mut_apply(simple[i & 7], rng, buf, INPUT_LEN, INPUT_LEN, NULL);
    report("simple (mixed)", SIMPLE_ITERS, now() - t);
}

static void bench_chain(fz_rng_t *rng, const uint8_t *orig, const fz_mut_env_t *env)
{
    uint8_t *buf = malloc(4 * INPUT_LEN);
    fz_chain_t c;
    fz_chain_init(&c, rng, env, orig, INPUT_LEN, buf, 4 * INPUT_LEN);
    double t = now();
    for (long i = 0; i < CHAIN_ITERS; i++)
        sink += fz_chain_next(&c);
    report("chain (havoc, 1 KiB)", CHAIN_ITERS, now() - t);
    free(buf);
}

static int has_magic(const uint8_t *b, size_t n)
{
    static const uint8_t want[4] = {0xde, 0xad, 0xbe, 0xef};
    size_t k = 0;
    for (size_t i = 0; i < n && k < 4; i++)
        k += b[i] == want[k];
    return k == 4;
}

static void bench_reduce(fz_rng_t *rng)
{
    enum { N = 10 * 1024 };
    uint8_t *in = malloc(N), *cand = malloc(N);
    for (size_t i = 0; i < N; i++)
        in[i] = (uint8_t)fz_rng_below(rng, 0x80);
    in[1000] = 0xde, in[4000] = 0xad, in[4001] = 0xbe, in[9999] = 0xef;
    fz_reduce_t r;
    if (fz_reduce_init(&r, in, N, 0) != 0)
        exit(1);
    size_t n, len;
    while (fz_reduce_next(&r, cand, &n))
        fz_reduce_result(&r, has_magic(cand, n));
    fz_reduce_best(&r, &len);
    printf("%-24s %10llu candidates (10240 -> %zu bytes)\n", "reduce (4 magic bytes)",
           (unsigned long long)fz_reduce_execs(&r), len);
    fz_reduce_free(&r);
    free(in);
    free(cand);
}

int main(void)
{
    fz_rng_t rng;
    fz_rng_seed(&rng, 1);
    uint8_t *orig = malloc(INPUT_LEN), *buf = malloc(INPUT_LEN);
    for (size_t i = 0; i < INPUT_LEN; i++)
        orig[i] = (uint8_t)(i % 10 ? fz_rng_next(&rng) : '0' + i % 7);
    memcpy(buf, orig, INPUT_LEN);
    fz_dict_t d;
    fz_dict_init(&d);
    fz_dict_add(&d, (const uint8_t *)"IHDR", 4);
    fz_dict_add(&d, (const uint8_t *)"Content-Length: ", 16);
    fz_mut_env_t env = {&d, orig, INPUT_LEN};

    bench_simple(&rng, buf);
    bench_chain(&rng, orig, &env);
    bench_reduce(&rng);
    fz_dict_free(&d);
    free(orig);
    free(buf);
    return 0;
}
