/*
 * cmp_switch.c - a record whose 16-bit big-endian tag at offset 2 selects
 * the handler in a switch; one tag crashes.
 */
#include <stdint.h>

#include "cmp_common.h"

int main(int argc, char **argv)
{
    unsigned char buf[256];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 4)
        return 0;
    uint16_t tag = (uint16_t)(buf[2] << 8 | buf[3]);
    switch (tag) {
    case 0x0101:
        puts("text");
        break;
    case 0x0202:
        puts("image");
        break;
    case 0x1f8b:
        puts("gzip");
        break;
    case 0xc0de:
        abort();
    default:
        break;
    }
    return 0;
}
