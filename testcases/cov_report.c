/*
 * cov_report.c - target of tests/e2e/cov_basic.sh: a few functions and
 * branches that different inputs reach, one function no input reaches,
 * and an abort() on inputs starting with '!' (fz-cov must still count the
 * lines a crashing input ran).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vowels(const char *s, size_t n)
{
    int v = 0;
    for (size_t i = 0; i < n; i++)
        if (strchr("aeiou", s[i]))
            v++;
    return v;
}

static int digits(const char *s, size_t n)
{
    int d = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] >= '0' && s[i] <= '9')
            d++;
    return d;
}

static int never_called(int x)
{
    return x * 3 + 1;
}

int main(int argc, char **argv)
{
    char buf[256];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 2;
    size_t n = fread(buf, 1, sizeof buf, f);
    if (n && buf[0] == '!') {
        fprintf(stderr, "planted crash\n");
        abort();
    }
    int score = 0;
    if (n > 3 && buf[0] == 'v')
        score = vowels(buf, n);
    else if (n > 3 && buf[0] == 'd')
        score = digits(buf, n);
    if (score > 100)
        score = never_called(score);
    printf("%d\n", score);
    return 0;
}
