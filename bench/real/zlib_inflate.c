/*
 * zlib_inflate.c - bench/coverage.sh's harness for Debian's zlib: inflate
 * the file named by argv[1] (zlib, gzip or raw deflate by its first byte)
 * into a small window, as a streaming reader would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zlib.h"

int main(int argc, char **argv)
{
    static unsigned char in[1 << 20], out[4096];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(in, 1, sizeof in, f);
    fclose(f);
    z_stream s;
    memset(&s, 0, sizeof s);
    /* First byte picks the wrapper so all three formats are reachable. */
    int wbits = n && (in[0] & 3) == 0 ? -15 : n && (in[0] & 3) == 1 ? 31 : 15;
    if (inflateInit2(&s, wbits) != Z_OK)
        return 1;
    s.next_in = in + (n ? 1 : 0);
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
