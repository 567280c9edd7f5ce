/*
 * crash_flaky_site.c - a crash whose site moves from run to run, for
 * tests/e2e/fuzz_crash_sites.sh: an input starting "F" aborts in one of
 * two functions, chosen by the parity of the clock's microseconds (a
 * stand-in for uninitialized memory or timing), so each run picks one at
 * random.  One bug: the fuzzer must save it once, and say it is flaky.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) static void here(void)
{
    abort();
}

__attribute__((noinline)) static void there(void)
{
    abort();
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    int c = f ? fgetc(f) : EOF;
    if (c == 'F') {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        if ((ts.tv_nsec / 1000) & 1)
            here();
        else
            there();
    }
    return 0;
}
