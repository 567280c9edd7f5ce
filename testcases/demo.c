/*
 * demo.c - the bundled target of `make demo` and the fz-fuzz end-to-end
 * tests: a tiny "record" parser with a bug behind three nested checks.
 *
 *   bytes 0-1  magic "FZ"
 *   byte  2    version, must be 2
 *   byte  3    payload length n, must equal the bytes that follow
 *   byte  4    command: 'P' prints the payload, 'X' sums name lengths
 *
 * The bug: command 'X' sums the lengths of the first k names of a 4-name
 * table (k = payload byte 0) but only rejects k above 8, so k = 5..8 reaches
 * the NULL sentinel and strlen(NULL) crashes (SIGSEGV).  Each check is its
 * own branch (the volatile `depth` store keeps compilers from merging the
 * byte compares into one wide compare), so each passed check is a new edge a
 * coverage-guided fuzzer sees; the loop's trip count moves through AFL's
 * hit-count buckets on the way to k = 5.  The seeds get past the magic, and
 * fz-fuzz finds the crash in a few thousand runs.  Reads the input from the
 * file named by argv[1], or stdin.
 */
#include <stdio.h>
#include <string.h>

static const char *names[] = {"alpha", "beta", "gamma", "delta", NULL};

/* How far the parser got; volatile so every check stays a separate branch. */
static volatile int depth;

/* noinline and a volatile read: the NULL load must stay a real load that
 * no optimizer can fold or prove undefined. */
__attribute__((noinline)) static size_t name_len(unsigned i)
{
    const char *s = ((const char *volatile *)names)[i];
    return strlen(s);
}

static int parse(const unsigned char *buf, size_t len)
{
    if (len < 5 || buf[0] != 'F')
        return 1; /* not a record */
    depth = 1;
    if (buf[1] != 'Z')
        return 1;
    depth = 2;
    if (buf[2] != 2)
        return 2; /* unsupported version */
    depth = 3;
    if (buf[3] != len - 5)
        return 3; /* length field does not match */
    depth = 4;
    if (buf[4] == 'P') {
        fwrite(buf + 5, 1, len - 5, stdout);
        return 0;
    }
    if (buf[4] == 'X' && len > 5) {
        unsigned k = buf[5];
        if (k > 8) /* BUG: the table has 4 names; should be k > 4 */
            return 4;
        size_t total = 0;
        for (unsigned i = 0; i < k; i++)
            total += name_len(i);
        printf("%zu letters\n", total);
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
    /* The exit status says how far the record got (a fuzzer ignores it). */
    return parse(buf, len);
}
