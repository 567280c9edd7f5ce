/*
 * cmp_chain.c - a packet header with chained checks, as real formats have:
 *
 *   offset 0  'F' 'Z'            two magic bytes
 *          2  u16 len (LE)       must equal the payload length (file - 6)
 *          4  u16 sum (LE)       additive checksum of the payload bytes
 *          6  u16 tag (LE)       first payload bytes; a switch picks the handler
 *
 * Setting the tag changes the payload, so the checksum that passed before
 * fails: solving one comparison breaks another.  A fuzzer must fix the
 * checksum after the tag (and the length after anything that resizes the
 * payload) to reach the crash.
 */
#include <stdint.h>

#include "cmp_common.h"

int main(int argc, char **argv)
{
    unsigned char buf[4096];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 8 || buf[0] != 'F' || buf[1] != 'Z')
        return 0;
    unsigned len = buf[2] | buf[3] << 8;
    if (len != n - 6)
        return 0;
    uint16_t sum = 0;
    for (size_t i = 6; i < n; i++)
        sum = (uint16_t)(sum + buf[i]);
    if ((unsigned)(buf[4] | buf[5] << 8) != sum)
        return 0;
    switch (buf[6] | buf[7] << 8) {
    case 0x0001:
        puts("hello");
        break;
    case 0x0002:
        puts("data");
        break;
    case 0xa55a:
        abort();
    default:
        puts("unknown tag");
    }
    return 0;
}
