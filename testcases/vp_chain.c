/*
 * vp_chain.c - a libFuzzer harness for value profile (bench/value-profile.sh,
 * tests/e2e/custom_value_profile.sh): a chain of VP_STAGES hash-like
 * 32-bit checks, each on a word of the input mixed by a bit permutation, so the compared
 * value appears nowhere in the input (input-to-state cannot copy it) but
 * each input bit still moves exactly one bit of it.  Edge coverage
 * sees only pass or fail (a 2^-32 guess per stage); value profile sees how
 * many bits are still wrong, so the fuzzer can walk to each value.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef VP_STAGES
#define VP_STAGES 4 /* at most 8 */
#endif

/* Adjacent bits swapped, then an xor: a bit permutation the compiler
 * does not fold into a compare with a constant (as it would a rotation),
 * where each input bit moves exactly one bit of the result. */
static uint32_t mix(uint32_t w, unsigned i)
{
    w = ((w & 0x55555555u) << 1) | ((w >> 1) & 0x55555555u);
    return w ^ (0x9e3779b9u * (i + 1));
}

static const uint32_t want[8] = {0x1badb002u, 0xcafef00du, 0x8badf00du, 0xdeadc0deu,
                                 0x0ddba11u,  0xfeedfaceu, 0xbaadf00du, 0xc001d00du};

/* One compare site per stage (a loop would be one site for all, whose
 * distances the first stage has already shown). */
#define STAGE(i)                                                                                   \
    do {                                                                                           \
        uint32_t w;                                                                                \
        memcpy(&w, data + 4 * (i), 4);                                                             \
        if ((i) < VP_STAGES && mix(w, (i)) != want[(i)])                                           \
            return 0;                                                                              \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 * VP_STAGES)
        return 0;
    STAGE(0);
    STAGE(1);
    STAGE(2);
    STAGE(3);
    STAGE(4);
    STAGE(5);
    STAGE(6);
    STAGE(7);
    abort();
}
