/*
 * lf_crossover.c - a libFuzzer harness with LLVMFuzzerCustomCrossOver but
 * no custom mutator, and functions named like fz's own mutation engine
 * (fz_mutate, fz_rng_seed): the driver's engine must neither clash with
 * them at link time nor call them.  Its crossover joins the halves of two
 * inputs with an 8-byte marker between them; the planted bug needs the
 * marker, which byte mutations alone do not guess in a small budget
 * (tests/e2e/custom_libfuzzer.sh runs it with FZ_NO_CMPLOG=1).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MARK "XOVER!!!"

/* Same names as fz's engine: a clash would be a link error. */
int fz_mutate(int x)
{
    return x + 1;
}
void fz_rng_seed(void *rng, unsigned long long seed)
{
    (void)rng;
    (void)seed;
    abort(); /* the driver calling this instead of its own would crash */
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t n1, const uint8_t *d2, size_t n2,
                                 uint8_t *out, size_t max, unsigned int seed)
{
    size_t a = n1 / 2, b = n2 - n2 / 2, m = sizeof MARK - 1;
    (void)seed;
    if (a + m + b > max)
        return 0;
    memcpy(out, d1, a);
    memcpy(out + a, MARK, m);
    memcpy(out + a + m, d2 + n2 / 2, b);
    return a + m + b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fz_mutate(1) != 2)
        return 0;
    if (size >= 12 && data[0] == 'Q' && memmem(data, size, MARK, sizeof MARK - 1))
        abort();
    return 0;
}
