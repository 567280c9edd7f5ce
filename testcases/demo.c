/*
 * demo.c - the bundled target of `make demo` and the fz-fuzz end-to-end
 * tests: a tiny "record" parser with a bug behind three nested checks.
 *
 *   bytes 0-1  magic "FZ"
 *   byte  2    version, must be 2
 *   byte  3    payload length n, must equal the bytes that follow
 *   byte  4    command: 'P' prints the payload, 'X' looks up an entry
 *
 * The bug: command 'X' takes payload byte 0 as an index into a 4-entry
 * table and only rejects indexes above 4 (an off-by-one), so index 4 reads
 * the NULL sentinel and dereferences it: SIGSEGV.  Each check compares one
 * byte, so each passed check is a new edge a coverage-guided fuzzer sees;
 * the seeds get it past the magic, and it finds the rest in a few thousand
 * runs.  Reads the input from the file named by argv[1], or stdin.
 */
#include <stdio.h>
#include <string.h>

static const char *names[] = {"alpha", "beta", "gamma", "delta", NULL};

/* noinline: keep the NULL load a real load the optimizer cannot fold. */
__attribute__((noinline)) static size_t name_len(unsigned idx)
{
    return strlen(names[idx]);
}

static int parse(const unsigned char *buf, size_t len)
{
    if (len < 5 || buf[0] != 'F' || buf[1] != 'Z')
        return 1; /* not a record */
    if (buf[2] != 2)
        return 2; /* unsupported version */
    if (buf[3] != len - 5)
        return 3; /* length field does not match */
    if (buf[4] == 'P') {
        fwrite(buf + 5, 1, len - 5, stdout);
        return 0;
    }
    if (buf[4] == 'X' && len > 5) {
        unsigned idx = buf[5];
        if (idx > 4) /* BUG: should be idx > 3 */
            return 4;
        printf("%s has %zu letters\n", names[idx] ? names[idx] : "?", name_len(idx));
        return 0;
    }
    return 5;
}

int main(int argc, char **argv)
{
    static unsigned char buf[4096];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    size_t len = fread(buf, 1, sizeof(buf), f);
    if (f != stdin)
        fclose(f);
    parse(buf, len);
    return 0;
}
