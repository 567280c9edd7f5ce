/*
 * cmp_heavy.c - bad input for comparison feedback: every run makes about a
 * million integer comparisons in a tight loop and strcmp's two 2 MiB
 * strings built from the input, and the crash still sits behind an 8-byte
 * memcmp'd key.  The log must stay bounded (one site, latest pairs), the
 * long operands are cut to 32 bytes, and the key is still found.
 */
#include <stdint.h>

#include "cmp_common.h"

#define BIG (2u << 20)

int main(int argc, char **argv)
{
    unsigned char buf[256];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 8)
        return 0;
    unsigned hits = 0;
    for (uint32_t i = 0; i < 1000000; i++) /* a compare in a tight loop */
        hits += (i ^ buf[i & 7]) == 0x5a5a5a5au;
    char *a = malloc(BIG), *b = malloc(BIG);
    if (!a || !b)
        return 0;
    memset(a, buf[0] | 1, BIG - 1);
    memset(b, buf[1] | 1, BIG - 1);
    a[BIG - 1] = b[BIG - 1] = 0;
    hits += strcmp(a, b) == 0; /* multi-megabyte operands */
    free(a);
    free(b);
    if (memcmp(buf, "HEAVYKEY", 8) == 0)
        abort();
    return (int)hits;
}
