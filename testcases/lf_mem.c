/*
 * lf_mem.c - a libFuzzer-style harness for tests/e2e/libfuzzer_clients.sh:
 * an input starting with BIGM makes one 100 MB malloc, one starting with
 * LEAK leaks 64 bytes; nothing else goes wrong, so fuzzing from "BIGx" or
 * "LEAx" ends at that bug (found while fuzzing, named in process: oom-,
 * leak-).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n >= 4 && !memcmp(d, "BIGM", 4)) {
        char *volatile p = malloc((size_t)100 << 20);
        free(p);
    }
    if (n >= 4 && !memcmp(d, "LEAK", 4)) {
        char *volatile p = malloc(64);
        p[0] = 1;
        p = NULL;
    }
    return 0;
}
