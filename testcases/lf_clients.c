/*
 * lf_clients.c - a libFuzzer-style harness for tests/e2e/libfuzzer_clients.sh:
 * each way a run can end, chosen by the input's first four bytes.
 *   CRSH  abort()                     HANG  loops for ever
 *   RSSM  touches 300 MB              BIGM  one malloc of 100 MB
 *   LEAK  leaks 64 bytes              OVER  reads one byte past a heap copy
 *   WRIT  writes to its const input   anything else: returns
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    if (!memcmp(data, "CRSH", 4))
        abort();
    if (!memcmp(data, "HANG", 4))
        for (volatile int i = 0;; i++)
            ;
    if (!memcmp(data, "RSSM", 4)) {
        size_t n = (size_t)300 << 20;
        char *volatile p = malloc(n);
        for (size_t i = 0; p && i < n; i += 4096)
            p[i] = 1;
        free(p);
    }
    if (!memcmp(data, "BIGM", 4)) {
        char *volatile p = malloc((size_t)100 << 20);
        free(p);
    }
    if (!memcmp(data, "LEAK", 4)) {
        char *volatile p = malloc(64);
        p[0] = 1;
        p = NULL;
    }
    if (!memcmp(data, "OVER", 4)) {
        char *copy = malloc(size);
        memcpy(copy, data, size);
        volatile char past = copy[size];
        (void)past;
        free(copy);
    }
    if (!memcmp(data, "WRIT", 4))
        ((uint8_t *)data)[0] = 'w';
    return 0;
}
