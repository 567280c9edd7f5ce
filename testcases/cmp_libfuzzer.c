/*
 * cmp_libfuzzer.c - a libFuzzer harness (LLVMFuzzerTestOneInput) with a
 * crash behind a 32-bit magic and a memcmp'd key, to show comparison
 * feedback reaches harnesses built with -fsanitize=fuzzer too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t m;
    if (size < 16)
        return 0;
    memcpy(&m, data, 4);
    if (m == 0x46555a5au && memcmp(data + 4, "HARNESS_KEY!", 12) == 0)
        abort();
    return 0;
}
