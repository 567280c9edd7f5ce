/*
 * sanitizer_target.c - planted bugs that only a sanitizer turns into a
 * crash (tests/e2e/runtime_sanitizers.sh): input "AS..." reads one byte past
 * a heap buffer (ASan: heap-buffer-overflow), input "UB<c>" with c >= 8
 * overflows a signed int (UBSan: signed integer overflow).  Neither faults
 * without its sanitizer, so a crash saved by the fuzzer proves the
 * sanitizer's report reached it as a signal.  Reads stdin.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A store between the byte tests keeps clang from merging them into one
 * two-byte compare (MergeICmps), which would leave the fuzzer no edge for
 * the first byte alone. */
static volatile int progress;

int main(void)
{
    unsigned char in[64];
    size_t len = fread(in, 1, sizeof in, stdin);
    if (len >= 2 && in[0] == 'A') {
        progress = 1;
        if (in[1] == 'S') {
            char *heap = malloc(len);
            memcpy(heap, in, len);
            /* One past the end: the bytes after heap are ASan's redzone. */
            volatile char c = heap[len];
            (void)c;
            free(heap);
        }
    }
    if (len >= 3 && in[0] == 'U') {
        progress = 2;
        if (in[1] == 'B') {
            int big = INT_MAX - 7;
            volatile int sum = big + (int)in[2]; /* overflows for in[2] >= 8 */
            (void)sum;
        }
    }
    puts("ok");
    return 0;
}
