/*
 * cmp_sized.c - a record whose checks compare transforms of input bytes,
 * not copies, as real formats do:
 *
 *   offset 0  u32 magic (big-endian)   0x7f465a31
 *          4  u16 words (big-endian)   words * 4 + 10 == file size
 *          6  2-byte key               "k9"
 *          8  payload
 *        n-1  checksum byte            xor of every byte before it
 *
 * The size check compares words * 4 + 10 with the file's length: neither
 * operand is in the input as it stands (the input holds `words`).  The
 * checksum byte is compared with a value computed over the whole record,
 * so every solved check before it breaks it again.
 */
#include <stdint.h>

#include "cmp_common.h"

int main(int argc, char **argv)
{
    unsigned char buf[4096];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 12)
        return 0;
    uint32_t magic = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 | buf[2] << 8 | buf[3];
    if (magic != 0x7f465a31)
        return 0;
    unsigned words = (unsigned)(buf[4] << 8 | buf[5]);
    if (words * 4 + 10 != n)
        return 0;
    if (memcmp(buf + 6, "k9", 2))
        return 0;
    uint8_t x = 0;
    for (size_t i = 0; i + 1 < n; i++)
        x ^= buf[i];
    if (buf[n - 1] != x)
        return 0;
    abort();
}
