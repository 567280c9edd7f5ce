/*
 * tmin_flaky.c - a deliberately flaky target for minimizer tests: it crashes
 * on inputs holding "BUG!" only for its first FLAKY_CRASHES runs (counted
 * in the file named by FLAKY_STATE), then never again, as a crash that
 * depends on outside state would.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int runs_so_far(void)
{
    const char *path = getenv("FLAKY_STATE");
    if (!path)
        return 0;
    int n = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = 0;
        fclose(f);
    }
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "%d\n", n + 1);
        fclose(f);
    }
    return n;
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 2;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    const char *limit = getenv("FLAKY_CRASHES");
    if (memmem(buf, n, "BUG!", 4) && runs_so_far() < (limit ? atoi(limit) : 1))
        abort();
    return 0;
}
