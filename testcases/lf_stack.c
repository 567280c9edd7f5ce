/*
 * lf_stack.c - a libFuzzer-style harness for tests/e2e/libfuzzer_stack.sh:
 * "ABRT" aborts and "SEGV" writes through a null pointer two named
 * functions below LLVMFuzzerTestOneInput, so the stack the driver prints
 * for a build without a sanitizer can be checked frame by frame.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void lf_stack_parse_header(const uint8_t *d, size_t n)
{
    if (n >= 4 && !memcmp(d, "ABRT", 4))
        abort();
    if (n >= 4 && !memcmp(d, "SEGV", 4)) {
        volatile int *volatile p = NULL; /* volatile: no compiler drops the write */
        *p = 1;
    }
}

__attribute__((noinline)) void lf_stack_process_input(const uint8_t *d, size_t n)
{
    lf_stack_parse_header(d, n);
    __asm__ volatile("" ::: "memory"); /* not a tail call: the frame stays */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lf_stack_process_input(data, size);
    return 0;
}
