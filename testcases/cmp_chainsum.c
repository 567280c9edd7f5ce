/*
 * cmp_chainsum.c - a header whose checksum is checked before the fields it
 * covers, so it must be fixed again after every solved compare:
 *
 *   offset 0  'T'                 tag
 *          1  u16 len (LE)        must equal the payload length (file - 5)
 *          3  u16 sum (LE)        additive checksum of the payload bytes
 *          5  u32 magic (LE)      0xfeedc0de, the first payload bytes
 *          9  u16 kind (LE)       0x1337 crashes
 *
 * Writing the magic changes the payload, so the checksum that passed
 * fails; so does writing the kind afterwards.  Each step needs the edit
 * and a checksum repair together before anything new is covered.
 */
#include <stdint.h>

#include "cmp_common.h"

int main(int argc, char **argv)
{
    unsigned char buf[4096];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 11 || buf[0] != 'T')
        return 0;
    unsigned len = buf[1] | buf[2] << 8;
    if (len != n - 5)
        return 0;
    uint16_t sum = 0;
    for (size_t i = 5; i < n; i++)
        sum = (uint16_t)(sum + buf[i]);
    if ((unsigned)(buf[3] | buf[4] << 8) != sum)
        return 0;
    uint32_t magic = buf[5] | buf[6] << 8 | buf[7] << 16 | (uint32_t)buf[8] << 24;
    if (magic != 0xfeedc0de)
        return 0;
    if ((buf[9] | buf[10] << 8) == 0x1337)
        abort();
    return 0;
}
