/*
 * crash_flaky_site.c - a crash whose site moves from run to run, for
 * tests/e2e/fuzz_crash_sites.sh: an input starting "F" aborts in one of
 * two functions, chosen by the parity of the process id (a stand-in for
 * uninitialized memory or timing).  Consecutive runs usually get
 * consecutive pids, so a rerun usually crashes at the other site.  One bug:
 * the fuzzer must save it once, and say it is flaky.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
        if (getpid() & 1)
            here();
        else
            there();
    }
    return 0;
}
