/*
 * nz_loop.c - runs one loop body argv[1] times, for the counter overflow
 * rule (tests/e2e/instrument_maps.sh): with NeverZero an edge taken a
 * multiple of 256 times still reads non-zero, so 256 runs of the body must
 * hit the same slots as 255.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    volatile int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    printf("%d\n", s);
    return 0;
}
