/*
 * crash_deep.c - crashes three calls deep (main -> top -> mid -> leaf), for
 * the crash-site unwinder: top's frame has a variable size (alloca, so its
 * CFA is computed from the frame pointer), mid's holds a buffer, and leaf
 * faults ("X") or aborts ("Y", through libc's frames, which the site skips).
 */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile int *nowhere;

__attribute__((noinline)) int leaf(const char *s)
{
    if (s[0] == 'X')
        return *nowhere;
    if (s[0] == 'Y')
        abort();
    return 1;
}

__attribute__((noinline)) int mid(const char *s)
{
    char buf[100];
    strcpy(buf, s);
    return leaf(buf) + buf[3];
}

__attribute__((noinline)) int top(const char *s)
{
    int *a = alloca(strlen(s) + 16);
    a[0] = 1;
    return mid(s) + a[0];
}

int main(int argc, char **argv)
{
    char b[64] = {0};
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 2;
    if (fread(b, 1, sizeof b - 1, f) == 0)
        return 0;
    return top(b) > 5;
}
