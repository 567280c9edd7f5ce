/*
 * cmp_behind.c - a check on a transform of an input field, behind a
 * header the seeds already pass:
 *
 *   offset 0  "FZB1"
 *          4  u32 little-endian x   x * 3 + 0x1111 == 0x369d1479
 *
 * Neither operand of the second check is in the input (the input holds
 * x), so the solver needs a coloured run that reaches the check to see
 * which bytes feed it and how.  A copy of the input with every byte
 * changed breaks the header and never gets there; a copy coloured only
 * where that keeps the seed's way (the colour sweep's) does.  The empty
 * asm keeps the compiler from folding the sum into the constant.
 */
#include <stdint.h>

#include "cmp_common.h"

int main(int argc, char **argv)
{
    unsigned char buf[4096];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 8 || memcmp(buf, "FZB1", 4))
        return 0;
    uint32_t x = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 | (uint32_t)buf[6] << 16 |
                 (uint32_t)buf[7] << 24;
    uint32_t v = x * 3 + 0x1111;
    __asm__("" : "+r"(v));
    if (v == 0x369d1479) /* x == 0x12345678 */
        abort();
    return 0;
}
