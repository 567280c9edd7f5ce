/*
 * lf_inflate.c - a structure-aware libFuzzer harness: the input is a zlib
 * stream, and the planted bug (an abort) lies behind the *decompressed*
 * content starting with "FUZ".  Byte mutations of the compressed bytes
 * almost never give a stream that still inflates (the Adler-32 check at
 * its end must match too), so a fuzzer that only flips bytes stays at the
 * "does not inflate" edge.  The custom mutator below inflates the input,
 * lets the fuzzer mutate the plain bytes (LLVMFuzzerMutate) and deflates
 * them again, so every candidate is a valid stream: the classic example
 * of libFuzzer's structure-aware fuzzing, in fz's words
 * (docs/custom-mutators.md has the measurements).
 *
 * Build with -DLF_INFLATE_NO_MUTATOR for the same target without the
 * custom mutator (the comparison against plain libFuzzer).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Largest decompressed input: the bug needs three bytes, the rest is room. */
#define PLAIN_MAX 256

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#ifndef LF_INFLATE_NO_MUTATOR
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint8_t plain[PLAIN_MAX];
    uLongf plain_len = sizeof plain;
    (void)seed; /* LLVMFuzzerMutate draws from the fuzzer's generator, seeded per request */
    if (uncompress(plain, &plain_len, data, size) != Z_OK)
        plain_len = 0; /* not a stream (a seed, a crossover): start from nothing */
    plain_len = LLVMFuzzerMutate(plain, plain_len, sizeof plain);
    uLongf out_len = max_size;
    if (compress(data, &out_len, plain, plain_len) != Z_OK)
        return 0; /* no room for it: the fuzzer tries again */
    return out_len;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t plain[PLAIN_MAX];
    uLongf len = sizeof plain;
    if (uncompress(plain, &len, data, size) != Z_OK)
        return 0;
    /* One branch per byte, so coverage leads the way one byte at a time
     * (the empty asm keeps clang from merging the three tests into one
     * 3-byte compare, which no coverage can lead to). */
    if (len >= 3 && plain[0] == 'F') {
        __asm__ volatile("" ::: "memory");
        if (plain[1] == 'U') {
            __asm__ volatile("" ::: "memory");
            if (plain[2] == 'Z')
                abort();
        }
    }
    return 0;
}
