/*
 * cmp_magic.c - a crash behind a 32-bit magic at offset 0 and a 64-bit
 * magic at offset 4 (the file's first 12 bytes), read as integers.  Random
 * mutation needs ~2^96 tries; input-to-state needs two.
 */
#include <stdint.h>

#include "cmp_common.h"

int main(int argc, char **argv)
{
    unsigned char buf[256];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    uint32_t m32;
    uint64_t m64;
    if (n < 12)
        return 0;
    memcpy(&m32, buf, 4);
    memcpy(&m64, buf + 4, 8);
    if (m32 == 0xdeadbeefu) {
        puts("first magic");
        if (m64 == 0x0123456789abcdefull)
            abort();
    }
    return 0;
}
