/*
 * folded.c - branches the optimiser turns into straight-line code at -O2,
 * for tests/e2e/instrument_folded.sh: a minimum (a conditional move or a
 * min instruction), a choice between two constants, and a comparison kept
 * as a value.  Each decides on one input byte; nothing else branches on
 * them, so without folded-branch slots two inputs that differ in one of
 * those decisions give the same map.
 */
#include <stdio.h>
#include <unistd.h>

volatile unsigned sink;

int main(void)
{
    unsigned char b[8] = {0};
    if (read(0, b, sizeof b) < 3)
        return 0;
    unsigned n = b[0];
    if (n > 100)
        n = 100; /* a minimum */
    unsigned k = b[1] > 100 ? 3 : 9; /* a choice of constants */
    unsigned lt = b[2] < 100;        /* a comparison as a value */
    sink = n + k + lt;
    return 0;
}
