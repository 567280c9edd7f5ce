/*
 * cmp_debug_labels.c - functions shaped like those on which GCC's
 * comparison pass crashed under -g -O1 and up (issue 19: zlib's
 * inflate_fast, libxml2's xmlEncodeSpecialChars, expat's storeEntityValue):
 * loops over input bytes full of compares, with user labels that the
 * optimiser removes.  With -g GCC keeps a debug bind of each removed label,
 * which gimple_duplicate_bb does not copy, so a function's logging copy
 * had fewer statements than the original.  main() runs them all on stdin
 * and prints the results, to compare an fz build with a plain one
 * (tests/e2e/fzcc_debug_opt.sh).
 */
#include <string.h>
/* Shapes of zlib's inflate_fast, libxml2's xmlEncodeSpecialChars, expat's
 * storeEntityValue: loops over input bytes with compares, and user labels
 * that optimisation removes (with -g, GCC keeps a debug bind of each). */
int scan(const unsigned char *p, int n)
{
    int i = 0, acc = 0;
again:
    while (i < n) {
        if (p[i] == 'x') {
            i++;
            goto again;
        }
        if (p[i] == 0x42)
            goto done;
        acc += p[i++] * 3;
    }
done:
    return acc;
}

int decode(const unsigned char *in, int len, unsigned char *out)
{
    int o = 0;
    unsigned hold = 0, bits = 0;
    for (int i = 0; i < len; i++) {
        hold |= (unsigned)in[i] << bits;
        bits += 8;
    dolen:
        if (bits < 3)
            continue;
        unsigned op = hold & 7;
        hold >>= 3;
        bits -= 3;
        if (op == 0) {
            out[o++] = (unsigned char)hold;
        } else if (op == 5) {
            goto dolen;
        } else if (op == 6) {
            if (memcmp(in + i, "END", 3) == 0)
                break;
            goto dolen;
        } else {
            out[o++] = (unsigned char)op;
        }
    }
    return o;
}

int escape(const char *s, char *buf, int size)
{
    int n = 0;
    while (*s) {
        if (n + 6 > size) {
            goto grow;
        }
        if (*s == '<') {
            memcpy(buf + n, "&lt;", 4);
            n += 4;
        } else if (*s == '&') {
            memcpy(buf + n, "&amp;", 5);
            n += 5;
        } else if (*s == '\r') {
            memcpy(buf + n, "&#13;", 5);
            n += 5;
        } else {
            buf[n++] = *s;
        }
        s++;
        continue;
    grow:
        if (size > 1000)
            return -1;
        size *= 2;
    }
    buf[n] = 0;
    return n;
}

int entity(const char *p, const char *end, int (*tok)(const char *, const char *, const char **))
{
    int result = 0;
    for (;;) {
        const char *next;
        int t = tok(p, end, &next);
        switch (t) {
        case 1:
            if (strncmp(p, "ENTITY", 6) == 0) {
                result = 2;
                goto endEntityValue;
            }
            break;
        case 4:
        case 5:
            result += t;
            break;
        case 9:
            goto endEntityValue;
        case -1:
            result = -1;
            goto endEntityValue;
        default:
            if (t > 100)
                goto endEntityValue;
            break;
        }
        p = next;
    }
endEntityValue:
    return result;
}

static int tok(const char *p, const char *end, const char **next)
{
    if (p >= end)
        return 9;
    *next = p + 1;
    if (*p == 'E')
        return 1;
    if (*p == '%' || *p == '&')
        return *p == '%' ? 4 : 5;
    return (unsigned char)*p > 'z' ? 101 : 0;
}

#include <stdio.h>

int main(void)
{
    static unsigned char in[4096];
    size_t n = fread(in, 1, sizeof(in) - 1, stdin);
    unsigned char out[8 * sizeof(in)];
    char buf[2000];
    in[n] = 0;
    printf("scan %d\n", scan(in, (int)n));
    printf("decode %d\n", decode(in, (int)n, out));
    printf("escape %d\n", escape((const char *)in, buf, 64));
    printf("entity %d\n", entity((const char *)in, (const char *)in + n, tok));
    return 0;
}
