/*
 * zlib_clients.c - the harness bench/clients.sh hands to ClusterFuzz's
 * libFuzzer engine and OSS-Fuzz's scripts, built once with fz-clang and
 * once with clang's libFuzzer: bench/real/zlib_fuzzer.c's work (inflate
 * the input) with a planted heap over-read when the inflated data starts
 * with "BUG", the kind of bug those clients exist to file.
 *
 * With ZC_TRIGGERS=1 in the environment (the reproduction jobs only, so
 * fuzzing never stumbles on them) an input that starts with "ZC:" followed
 * by OOM, LEAK, HANG, ABRT or SEGV allocates 3 GiB, leaks, loops for ever,
 * aborts or writes through a null pointer.  ZC_NOBUG=1 turns the planted
 * bug off (bench/clients.sh's speed rows time -runs=N, which must not end
 * at the bug).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zlib.h"

static int triggers, nobug;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *t = getenv("ZC_TRIGGERS");
    triggers = t && *t == '1';
    t = getenv("ZC_NOBUG");
    nobug = t && *t == '1';
    return 0;
}

static void trigger(const uint8_t *d, size_t n)
{
    if (n < 7 || memcmp(d, "ZC:", 3) != 0)
        return;
    if (!memcmp(d + 3, "OOM", 3)) {
        size_t sz = (size_t)3 << 30;
        char *volatile p = malloc(sz);
        for (size_t i = 0; p && i < sz; i += 4096)
            p[i] = 1;
        free(p);
    } else if (n >= 7 && !memcmp(d + 3, "LEAK", 4)) {
        char *volatile p = malloc(64);
        p[0] = 1;
        p = NULL;
    } else if (n >= 7 && !memcmp(d + 3, "HANG", 4)) {
        for (volatile int k = 0;; k++)
            ;
    } else if (n >= 7 && !memcmp(d + 3, "ABRT", 4)) {
        abort();
    } else if (n >= 7 && !memcmp(d + 3, "SEGV", 4)) {
        volatile int *volatile p = NULL; /* volatile: no compiler drops the write */
        *p = 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (triggers)
        trigger(data, n);
    unsigned char out[4096];
    z_stream s;
    memset(&s, 0, sizeof s);
    int wbits = n && (data[0] & 3) == 0 ? -15 : n && (data[0] & 3) == 1 ? 31 : 15;
    if (inflateInit2(&s, wbits) != Z_OK)
        return 0;
    s.next_in = (unsigned char *)data + (n ? 1 : 0);
    s.avail_in = (uInt)(n ? n - 1 : 0);
    size_t got = 0;
    int r;
    do {
        s.next_out = out;
        s.avail_out = sizeof out;
        r = inflate(&s, Z_NO_FLUSH);
        if (!got && s.avail_out < sizeof out) {
            got = sizeof out - s.avail_out;
            if (!nobug && got >= 3 && !memcmp(out, "BUG", 3)) {
                /* The planted bug: a copy of what was inflated, read one
                 * byte past its end. */
                unsigned char *copy = malloc(got);
                memcpy(copy, out, got);
                volatile unsigned char past = copy[got];
                (void)past;
                free(copy);
            }
        }
    } while (r == Z_OK && s.avail_in);
    inflateEnd(&s);
    return 0;
}
