/*
 * zlib_fuzzer.c - bench/coverage.sh's libFuzzer-style harness for Debian's
 * zlib (target zlib-lf): the work of zlib_inflate.c, in process, on each
 * input: inflate it (zlib, gzip or raw deflate by its first byte) into a
 * small window, as a streaming reader would.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "zlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static unsigned char out[4096];
    z_stream s;
    memset(&s, 0, sizeof s);
    /* First byte picks the wrapper so all three formats are reachable. */
    int wbits = n && (data[0] & 3) == 0 ? -15 : n && (data[0] & 3) == 1 ? 31 : 15;
    if (inflateInit2(&s, wbits) != Z_OK)
        return 0;
    s.next_in = (unsigned char *)data + (n ? 1 : 0);
    s.avail_in = (uInt)(n ? n - 1 : 0);
    int r;
    do {
        s.next_out = out;
        s.avail_out = sizeof out;
        r = inflate(&s, Z_NO_FLUSH);
    } while (r == Z_OK && s.avail_in);
    inflateEnd(&s);
    return 0;
}
