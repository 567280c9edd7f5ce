/*
 * cmp_common.h - input reading shared by the cmp_*.c targets (comparison
 * feedback tests and bench/cmplog.sh): the file named by argv[1], or stdin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t cmp_read_input(int argc, char **argv, unsigned char *buf, size_t cap)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    if (f != stdin)
        fclose(f);
    return n;
}
