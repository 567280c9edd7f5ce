/*
 * cmp_colour_hang.c - a target that hangs when its last byte changes:
 * after the magic "CH" and at least 1,000 more bytes (the seed is all
 * 'A'), a last byte that is not 'A' starts a loop of 2^40 turns or more,
 * which no timeout waits out.  No
 * other byte after the magic is read, so the input-to-state stage's
 * colour sweep keeps every range that leaves out the last byte coloured,
 * and every range that holds it hangs: without a stop it would split each
 * of those and hang again at each size, ten timeouts or so per entry
 * (tests/e2e/cmplog_colour_hang.sh).
 */
#include "cmp_common.h"

static volatile unsigned long spins;

int main(int argc, char **argv)
{
    static unsigned char buf[4096];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 1002 || buf[0] != 'C' || buf[1] != 'H')
        return 0;
    /* No compare of the last byte for the input-to-state solver to flip:
     * a bound of 0 for 'A', else one no timeout waits out. */
    unsigned long bound = (unsigned long)(buf[n - 1] ^ 'A') << 40;
    for (unsigned long i = 0; i < bound; i++)
        spins++;
    return 0;
}
