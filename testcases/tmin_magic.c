/*
 * tmin_magic.c - a target for minimization tests: it crashes (SIGSEGV) when
 * its input holds the 4 bytes "BUG!" anywhere, and otherwise takes a few
 * branches that depend on the input's letters, so a non-crashing input has
 * coverage worth keeping.  The bundled testcases/tmin_magic.crash is a
 * 10 KB input with the magic buried in the middle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void crash(void)
{
    volatile int *volatile p = NULL; /* both volatile: no compiler may drop the fault */
    *p = 1;
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 2;
    static unsigned char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    int digits = 0, upper = 0;
    for (size_t i = 0; i < n; i++) {
        if (buf[i] >= '0' && buf[i] <= '9')
            digits++;
        else if (buf[i] >= 'A' && buf[i] <= 'Z')
            upper++;
        if (i + 4 <= n && buf[i] == 'B' && buf[i + 1] == 'U' && buf[i + 2] == 'G' &&
            buf[i + 3] == '!')
            crash();
    }
    if (digits > 3)
        puts("digits");
    if (upper > 2)
        puts("upper");
    return 0;
}
