/*
 * rt_branches.c - a small branchy target for interoperability tests: reads
 * the file named by argv[1] (or stdin) and walks a few nested comparisons,
 * so different inputs light different edges.  Input "BUG" aborts.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    unsigned char buf[64] = {0};
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    size_t n = fread(buf, 1, sizeof buf, f);
    int score = 0;
    if (n >= 1 && buf[0] == 'B') {
        score++;
        if (n >= 2 && buf[1] == 'U') {
            score++;
            if (n >= 3 && buf[2] == 'G')
                abort();
        }
    } else if (n >= 1 && buf[0] >= '0' && buf[0] <= '9') {
        score += 10;
    }
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\n')
            score += 100;
    printf("%zu bytes, score %d\n", n, score);
    return 0;
}
