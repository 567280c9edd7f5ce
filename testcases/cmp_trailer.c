/*
 * cmp_trailer.c - a record whose size field counts the bytes after an
 * 8-byte header and whose bytes must add up to zero (a trailer byte makes
 * them), as many file formats and packets do:
 *
 *   offset 0  'Z' 'c'            two magic bytes
 *          2  u32 size (LE)      size + 8 == file size
 *          6  2-byte key         "q7"
 *          8  payload
 *   (all)     sum of every byte  0xa5 (mod 256)
 *
 * The size check compares size + 8 with the length, the checksum a sum
 * over the whole file with a constant: neither is a copy of input bytes,
 * and every edit before the checksum breaks it again.  (The constant is
 * not 0: neither compiler back end hooks compares with 0, which no input
 * steers in most programs, so a sum compared with 0 is not in the log.)
 */
#include <stdint.h>

#include "cmp_common.h"

int main(int argc, char **argv)
{
    unsigned char buf[4096];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 10 || buf[0] != 'Z' || buf[1] != 'c')
        return 0;
    uint32_t size = buf[2] | buf[3] << 8 | buf[4] << 16 | (uint32_t)buf[5] << 24;
    if ((size_t)size + 8 != n)
        return 0;
    if (memcmp(buf + 6, "q7", 2))
        return 0;
    uint8_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum = (uint8_t)(sum + buf[i]);
    if (sum != 0xa5)
        return 0;
    abort();
}
