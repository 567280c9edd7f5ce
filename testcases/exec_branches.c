/*
 * exec_branches.c - a small target for fz-showmap and forkserver tests:
 * reads its input (file argument, or stdin) and takes different branches
 * for different first bytes, so two inputs give two coverage maps.
 */
#include <stdio.h>
#include <string.h>

static int classify(const unsigned char *b, size_t n)
{
    int score = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] >= 'a' && b[i] <= 'z')
            score += 1;
        else if (b[i] >= '0' && b[i] <= '9')
            score += 2;
        else
            score += 3;
    }
    if (n > 0 && b[0] == 'X')
        score *= 2;
    return score;
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 2;
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    printf("%d\n", classify(buf, n));
    return 0;
}
