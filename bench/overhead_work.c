/*
 * overhead_work.c - the CPU-bound workload bench/overhead builds plain and
 * instrumented: an LZ77 compressor and decompressor and a tokenizer, run
 * over generated text.  Branchy byte-at-a-time code like a typical fuzz
 * target, so it shows what the edge counters cost.
 *
 * Prints "CPU_NS CHECKSUM": the process CPU time of the work loop alone
 * (start-up excluded, so fork/exec noise does not count) and a checksum the
 * script compares between builds, so a miscompiled build cannot look fast.
 *
 *   overhead_work [ROUNDS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEXT_LEN (256 * 1024)
#define HASH_BITS 12
#define MIN_MATCH 4
#define MAX_MATCH 130
#define WINDOW 4096

static const char *const words[] = {"fuzz",  "edge", "counter", "map",   "queue", "crash",
                                    "input", "seed", "(",       ")",     "{",     "}",
                                    "42",    "0x1f", "\"str\"", "while", "if",    "+="};

/* Deterministic text: words, numbers and punctuation from an LCG. */
static void make_text(unsigned char *t, size_t n)
{
    uint32_t x = 12345;
    size_t i = 0;
    while (i < n) {
        x = x * 1103515245u + 12345u;
        const char *w = words[(x >> 16) % (sizeof(words) / sizeof(words[0]))];
        for (; *w && i < n; w++)
            t[i++] = (unsigned char)*w;
        if (i < n)
            t[i++] = (x >> 8) % 7 ? ' ' : '\n';
    }
}

/* Greedy LZ77: literal runs and (distance, length) matches found through a
 * hash of the next four bytes.  Format: 0x00 LEN BYTES... | 0x01 LEN DIST2. */
static size_t compress(const unsigned char *in, size_t n, unsigned char *out)
{
    static int32_t head[1 << HASH_BITS];
    memset(head, -1, sizeof(head));
    size_t o = 0, lit = 0, i = 0;
    while (i < n) {
        size_t best = 0, dist = 0;
        if (i + MIN_MATCH <= n) {
            uint32_t h = (in[i] | in[i + 1] << 8 | in[i + 2] << 16 | (uint32_t)in[i + 3] << 24);
            h = (h * 2654435761u) >> (32 - HASH_BITS);
            int32_t cand = head[h];
            head[h] = (int32_t)i;
            if (cand >= 0 && i - (size_t)cand <= WINDOW) {
                size_t len = 0;
                while (i + len < n && len < MAX_MATCH && in[cand + len] == in[i + len])
                    len++;
                if (len >= MIN_MATCH)
                    best = len, dist = i - (size_t)cand;
            }
        }
        if (best && lit) {
            out[o++] = 0, out[o++] = (unsigned char)lit;
            memcpy(out + o, in + i - lit, lit), o += lit, lit = 0;
        }
        if (best) {
            out[o++] = 1, out[o++] = (unsigned char)best;
            out[o++] = (unsigned char)(dist & 0xff), out[o++] = (unsigned char)(dist >> 8);
            i += best;
        } else if (++lit, ++i, lit == 255 || i == n) {
            out[o++] = 0, out[o++] = (unsigned char)lit;
            memcpy(out + o, in + i - lit, lit), o += lit, lit = 0;
        }
    }
    return o;
}

static size_t decompress(const unsigned char *in, size_t n, unsigned char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t len = in[i + 1];
        if (in[i] == 0) {
            memcpy(out + o, in + i + 2, len);
            o += len, i += 2 + len;
        } else {
            size_t dist = in[i + 2] | in[i + 3] << 8;
            for (size_t k = 0; k < len; k++, o++) /* may overlap: byte by byte */
                out[o] = out[o - dist];
            i += 4;
        }
    }
    return o;
}

/* Counts identifiers, numbers, strings and punctuation: a lexer's shape. */
static uint32_t tokenize(const unsigned char *t, size_t n)
{
    uint32_t ids = 0, nums = 0, strs = 0, punct = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = t[i];
        if (c == ' ' || c == '\n') {
            i++;
        } else if ((c >= 'a' && c <= 'z') || c == '_') {
            while (i < n && ((t[i] >= 'a' && t[i] <= 'z') || t[i] == '_'))
                i++;
            ids++;
        } else if (c >= '0' && c <= '9') {
            i += (c == '0' && i + 1 < n && t[i + 1] == 'x') ? 2 : 0;
            while (i < n && ((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f')))
                i++;
            nums++;
        } else if (c == '"') {
            for (i++; i < n && t[i] != '"'; i++)
                ;
            i++, strs++;
        } else {
            i++, punct++;
        }
    }
    return ids * 7 + nums * 5 + strs * 3 + punct;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 40;
    unsigned char *text = malloc(TEXT_LEN), *packed = malloc(TEXT_LEN * 2),
                  *back = malloc(TEXT_LEN);
    if (!text || !packed || !back)
        return 1;
    make_text(text, TEXT_LEN);
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    uint32_t sum = 0;
    for (int r = 0; r < rounds; r++) {
        text[r % TEXT_LEN] ^= (unsigned char)r; /* each round differs a little */
        size_t n = compress(text, TEXT_LEN, packed);
        if (decompress(packed, n, back) != TEXT_LEN || memcmp(back, text, TEXT_LEN) != 0)
            return 2;
        sum = sum * 31 + (uint32_t)n + tokenize(text, TEXT_LEN);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
    printf("%lld %u\n", ns, sum);
    free(text), free(packed), free(back);
    return 0;
}
