/*
 * coverage_target.c - the target of bench/coverage.sh: a tokenizer and
 * checker for a tiny statement language ("let x = 3 + (y * 2);", "if",
 * "while", "print", strings with escapes, comments).  It has enough
 * branches (~150 edges) that coverage keeps growing for a while, so two
 * fuzzers can be compared over time rather than both saturating at once.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum { T_END, T_NUM, T_ID, T_KW, T_STR, T_OP, T_BAD };
static const char *keywords[] = {"let", "if", "else", "while", "print", "return", "fn", NULL};

static int next_token(const char **pp, const char *end)
{
    const char *p = *pp;
    while (p < end && (isspace((unsigned char)*p) || *p == '#')) {
        if (*p == '#')
            while (p < end && *p != '\n')
                p++;
        else
            p++;
    }
    int t = T_END;
    if (p >= end) {
        t = T_END;
    } else if (isdigit((unsigned char)*p)) {
        int hex = p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
        p += hex ? 2 : 0;
        while (p < end && (hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
            p++;
        t = T_NUM;
    } else if (isalpha((unsigned char)*p) || *p == '_') {
        const char *s = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        t = T_ID;
        for (int k = 0; keywords[k]; k++)
            if ((size_t)(p - s) == strlen(keywords[k]) && !memcmp(s, keywords[k], p - s))
                t = T_KW;
    } else if (*p == '"') {
        for (p++; p < end && *p != '"'; p++)
            if (*p == '\\' && p + 1 < end) {
                p++;
                if (*p == 'x' && p + 2 < end && isxdigit((unsigned char)p[1]))
                    p += 2;
                else if (!strchr("nt\"\\", *p))
                    return T_BAD;
            }
        t = p < end ? T_STR : T_BAD;
        p++;
    } else if (strchr("+-*/%=<>!&|", *p)) {
        if (p + 1 < end && (p[1] == '=' || (p[1] == *p && strchr("&|", *p))))
            p++;
        p++;
        t = T_OP;
    } else if (strchr("(){};,", *p)) {
        p++;
        t = T_OP + 1 + (int)(strchr("(){};,", p[-1]) - "(){};,");
    } else {
        t = T_BAD;
    }
    *pp = p;
    return t;
}

/* Checks one program; returns 0 (fine), 1 (a bad token) or 3 (unbalanced);
 * *stmts_out and *tokens_out get what main prints. */
static int check_program(const char *p, const char *end, int *stmts_out, int *tokens_out)
{
    int depth = 0, stmts = 0, counts[16] = {0}, t;
    while ((t = next_token(&p, end)) != T_END && t != T_BAD) {
        counts[t]++;
        if (t == T_OP + 1)
            depth++;
        else if (t == T_OP + 2 && --depth < 0)
            return 3;
        else if (t == T_OP + 5 && depth == 0)
            stmts++;
    }
    *stmts_out = stmts;
    *tokens_out = counts[T_ID] + counts[T_NUM] + counts[T_OP];
    return (depth > 3 && stmts > 2 && counts[T_KW] > 3) ? (t == T_BAD) | 4 : t == T_BAD;
}

#ifdef BENCH_HARNESS
/* The same checker as a libFuzzer-style harness (bench/scaling.sh builds it
 * with fz-cc -fsanitize=fuzzer and with clang's libFuzzer). */
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int stmts, tokens;
    check_program((const char *)data, (const char *)data + size, &stmts, &tokens);
    return 0;
}
#else
int main(int argc, char **argv)
{
    static char buf[8192];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 2;
    size_t n = fread(buf, 1, sizeof(buf), f);
    int stmts = 0, tokens = 0, r = check_program(buf, buf + n, &stmts, &tokens);
    if (r == 3)
        return 3;
    if (r & 4)
        puts("deep program");
    printf("%d statements, %d tokens\n", stmts, tokens);
    return r & 1;
}
#endif
