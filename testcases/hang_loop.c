/*
 * hang_loop.c - one infinite loop that most inputs reach the same way
 * (first byte 'L' or above), for tests/e2e/fuzz_hang_once.sh.  Every hang
 * has the same edges; only the loop's hit counts differ, by when the
 * fuzzer killed it.  Anything else returns at once.
 */
#include <stdio.h>

static volatile unsigned long spins, odd;

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    int c = f ? fgetc(f) : EOF;
    if (c >= 'L')
        for (;;) {
            if (++spins & 1)
                odd++;
        }
    return 0;
}
