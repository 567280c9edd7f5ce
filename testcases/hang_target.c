/*
 * hang_target.c - a target with a real hang and a merely slow input, for
 * tests/e2e/fuzz_hangs.sh: input starting with 'H' loops forever, input
 * starting with 'S' takes 300 ms and then exits normally, anything else
 * returns at once.  With -t 100 both time out; only the 'H' one is a hang.
 */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    int c = f ? fgetc(f) : EOF;
    if (c == 'H')
        for (volatile unsigned long i = 0;; i++)
            ;
    if (c == 'S')
        usleep(300 * 1000);
    return 0;
}
