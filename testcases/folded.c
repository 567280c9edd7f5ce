/*
 * folded.c - branches the optimiser turns into straight-line code at -O2,
 * for tests/e2e/instrument_folded.sh: a minimum (a conditional move or a
 * min instruction), a choice between two constants, a comparison kept
 * as a value, and comparisons joined before one branch (`(x && y) || z`,
 * which GCC and clang compute as (x & y) | z without a branch between).
 * Each decides on input bytes; nothing else branches on them, so without
 * folded-branch slots two inputs that differ in one of those decisions
 * give the same map; and without a slot per pair of outcomes, x and y in
 * one run (with z) is x in one run and y in another.  Last, two integers
 * tested for zero together, `(u | v) == 0`: what GCC makes of
 * `u == 0 && v == 0` (clang too when neither half can be poison), one
 * branch whose false edge is u nonzero, v nonzero or both.
 */
#include <stdio.h>
#include <unistd.h>

volatile unsigned sink;

/* Not inlined, so the compiler cannot see through u and v below. */
__attribute__((noinline)) static unsigned rem7(unsigned c)
{
    return c % 7;
}

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
    unsigned x = b[3], y = b[4], z = b[5];
    if ((x == 'x' && y == 'y') || z == 'z') /* joined comparisons */
        sink = 7;
    unsigned u = rem7(b[6]), v = rem7(b[7]);
    if ((u | v) == 0) /* zero-tested halves: 'p' % 7 == 0, 'a' % 7 != 0 */
        sink = 9;
    return 0;
}
