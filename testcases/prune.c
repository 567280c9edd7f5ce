/*
 * prune.c - a target for the coverage-pruning test (tests/e2e/
 * instrument_prune.sh): the control-flow shapes whose blocks the pruning
 * rule drops or keeps (if/else chains, nested ifs, short-circuit tests,
 * loops with break and continue, a switch large enough for a jump table,
 * a do-while, a goto to a shared exit), each steered by the input bytes.
 * It reads stdin and prints one number, so that an instrumented build can
 * be compared with a plain one; inputs that take different edges must give
 * different coverage maps whether pruning is on or off.
 */
#include <stdio.h>
#include <string.h>

/* An if/else-if chain with a nested test in one arm. */
static int chain(int c)
{
    int r;
    if (c == 'a')
        r = 1;
    else if (c == 'b')
        r = 2;
    else if (c >= '0' && c <= '9') {
        if (c & 1)
            r = 3;
        else
            r = 4;
    } else if (c == 'x' || c == 'y')
        r = 5;
    else
        r = 6;
    return r * 7 + c;
}

/* A switch with enough cases for a jump table, and a fall-through. */
static __attribute__((noinline)) int sw(int c, int acc)
{
    switch (c) {
    case 'a':
        acc += 3;
        break;
    case 'b':
        acc *= 5;
        /* fall through */
    case 'c':
        acc ^= 0x55;
        break;
    case 'd':
        acc -= 11;
        break;
    case 'e':
        acc <<= 1;
        break;
    case 'f':
        return acc + 1000;
    case 'g':
        acc = ~acc;
        break;
    default:
        acc += c;
        break;
    }
    return acc;
}

/* A loop with continue and break, a nested loop, and a do-while. */
static __attribute__((noinline)) unsigned loops(const unsigned char *b, size_t n)
{
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] == ' ')
            continue;
        if (b[i] == '.')
            break;
        if (b[i] == '*') {
            for (size_t j = 0; j < i; j++)
                acc += b[j];
        }
        acc = sw(b[i], (int)acc);
    }
    unsigned k = n ? b[0] % 4 : 0;
    do {
        acc = acc * 3 + k;
    } while (k-- > 0);
    return acc;
}

/* Nested magic checks with a goto to a shared exit. */
static __attribute__((noinline)) int magic(const unsigned char *b, size_t n)
{
    int depth = 0;
    if (n < 2)
        goto out;
    if (b[0] != 'P')
        goto out;
    depth++;
    if (b[1] != 'R')
        goto out;
    depth++;
    if (n > 2 && (b[2] == 'U' || b[2] == 'N'))
        depth += b[2] == 'U' ? 1 : 2;
out:
    return depth;
}

int main(void)
{
    static unsigned char buf[256];
    size_t n = fread(buf, 1, sizeof(buf), stdin);
    if (n == 0) {
        puts("empty");
        return 0;
    }
    int r = chain(buf[0]);
    if (n > 1)
        r += chain(buf[1]);
    unsigned acc = loops(buf, n);
    int depth = magic(buf, n);
    if (depth > 1 && memchr(buf, '!', n))
        r = -r;
    printf("%d %u %d\n", r, acc, depth);
    return 0;
}
