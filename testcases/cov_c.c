/*
 * cov_c.c - a small C target for the instrumentation tests: it reads its
 * input (the file named by argv[1], or stdin), takes different branches on
 * the bytes it sees, prints a summary and exits with a status that depends
 * on the input.  An instrumented build must behave exactly like a plain one,
 * and different inputs must light different edges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t read_input(int argc, char **argv, unsigned char *buf, size_t cap)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f) {
        perror(argv[1]);
        exit(2);
    }
    size_t n = fread(buf, 1, cap, f);
    if (f != stdin)
        fclose(f);
    return n;
}

/* A switch on the first byte: a jump table at -O2. */
static const char *classify(unsigned char c)
{
    switch (c) {
    case 'a':
        return "letter-a";
    case 'b':
        return "letter-b";
    case '0':
        return "digit-0";
    case '\n':
        return "newline";
    case 0xff:
        return "ff";
    default:
        return c < 0x20 ? "control" : "other";
    }
}

/* Nested byte tests, the classic magic-value ladder a fuzzer climbs. */
static int magic(const unsigned char *b, size_t n)
{
    int depth = 0;
    if (n > 0 && b[0] == 'F') {
        depth++;
        if (n > 1 && b[1] == 'U') {
            depth++;
            if (n > 2 && b[2] == 'Z')
                depth++;
        }
    }
    return depth;
}

/* A loop whose trip count depends on the input, to exercise counts > 1. */
static unsigned checksum(const unsigned char *b, size_t n)
{
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] & 1)
            sum = sum * 31 + b[i];
        else
            sum ^= b[i] << (i % 8);
    }
    return sum;
}

int main(int argc, char **argv)
{
    static unsigned char buf[4096];
    size_t n = read_input(argc, argv, buf, sizeof(buf));

    if (n == 0) {
        puts("empty");
        return 0;
    }
    int depth = magic(buf, n);
    printf("len=%zu first=%s magic=%d sum=%08x\n", n, classify(buf[0]), depth, checksum(buf, n));
    if (memchr(buf, '!', n))
        puts("bang");
    return depth; /* 0..3: the exit status depends on the input too */
}
