/*
 * cmp_colour.c - a crash behind many changed bytes at once: after the
 * magic "CW", none of the next 1,000 bytes may be an 'A' (the seed is all
 * 'A').  The scan stops at the first 'A', so changing the bytes after it
 * never changes the way a run goes; changing the magic does.  No compare
 * says what is wanted, and havoc changes a few bytes per chain (its widest
 * random overwrite would have to start exactly at byte 2 and reach the
 * last 3 of 1,002 bytes): it takes tens of thousands of runs.  The
 * input-to-state stage's colour sweep keeps every range whose colour leaves
 * the way unchanged and finds it in a few dozen (tests/e2e/cmplog_colour.sh).
 */
#include "cmp_common.h"

#define SPAN 1000

int main(int argc, char **argv)
{
    static unsigned char buf[4096];
    size_t n = cmp_read_input(argc, argv, buf, sizeof buf);
    if (n < 2 + SPAN || buf[0] != 'C' || buf[1] != 'W')
        return 0;
    for (size_t i = 2; i < 2 + SPAN; i++)
        if (buf[i] == 'A')
            return 0;
    abort();
}
