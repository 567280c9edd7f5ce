/*
 * len_loop.c - a target whose coverage grows with the input's length: one
 * loop runs once per 16 bytes and another once per 'A', so every doubling
 * of the length (up to 2 KiB, 128 iterations) reaches a new hit-count
 * bucket.  A fuzzer without a length limit keeps adding longer inputs; the
 * tests of fz-fuzz's maximum length (fuzz_maxlen.sh) run it.  Reads the
 * file named by argv[1].
 */
#include <stdio.h>

static volatile unsigned sink;

int main(int argc, char **argv)
{
    static unsigned char buf[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    for (size_t i = 0; i + 16 <= n; i += 16)
        sink += buf[i];
    for (size_t i = 0; i < n; i++)
        if (buf[i] == 'A')
            sink++;
    return 0;
}
