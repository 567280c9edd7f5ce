/*
 * lf_target.c - a libFuzzer-style harness for bench/execs.sh: a small
 * JSON-like parser (objects, arrays, strings with escapes, numbers,
 * literals) with depth limits, so each input does some branchy work, as a
 * real parser harness would, and no planted crash, so a fixed number of
 * runs always completes.  Built twice from the same source: with
 * `clang -fsanitize=fuzzer` (libFuzzer itself, in-process) and with
 * `fz-clang -fsanitize=fuzzer` (fz's driver under fz-fuzz).
 */
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const uint8_t *p, *end;
    int depth;
} parser_t;

static int value(parser_t *ps);

static void skip_ws(parser_t *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\t' || *ps->p == '\r'))
        ps->p++;
}

static int literal(parser_t *ps, const char *word)
{
    for (; *word; word++, ps->p++)
        if (ps->p >= ps->end || *ps->p != (uint8_t)*word)
            return -1;
    return 0;
}

static int string(parser_t *ps)
{
    ps->p++; /* the opening quote */
    while (ps->p < ps->end) {
        uint8_t c = *ps->p++;
        if (c == '"')
            return 0;
        if (c != '\\')
            continue;
        if (ps->p >= ps->end)
            return -1;
        c = *ps->p++;
        if (c == 'u') {
            for (int i = 0; i < 4; i++, ps->p++) {
                if (ps->p >= ps->end)
                    return -1;
                uint8_t h = *ps->p;
                if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                    return -1;
            }
        } else if (c != '"' && c != '\\' && c != '/' && c != 'b' && c != 'f' && c != 'n' &&
                   c != 'r' && c != 't') {
            return -1;
        }
    }
    return -1;
}

static int number(parser_t *ps)
{
    if (*ps->p == '-')
        ps->p++;
    int digits = 0;
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
        ps->p++, digits++;
    if (ps->p < ps->end && *ps->p == '.') {
        ps->p++;
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++, digits++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
            ps->p++;
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    }
    return digits ? 0 : -1;
}

/* Elements of an array (close ']') or members of an object (close '}'). */
static int items(parser_t *ps, uint8_t close)
{
    if (++ps->depth > 64)
        return -1;
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        ps->depth--;
        return 0;
    }
    for (;;) {
        skip_ws(ps);
        if (close == '}') {
            if (ps->p >= ps->end || *ps->p != '"' || string(ps))
                return -1;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p++ != ':')
                return -1;
        }
        if (value(ps))
            return -1;
        skip_ws(ps);
        if (ps->p >= ps->end)
            return -1;
        uint8_t c = *ps->p++;
        if (c == close) {
            ps->depth--;
            return 0;
        }
        if (c != ',')
            return -1;
    }
}

static int value(parser_t *ps)
{
    skip_ws(ps);
    if (ps->p >= ps->end)
        return -1;
    switch (*ps->p) {
    case '{':
        return items(ps, '}');
    case '[':
        return items(ps, ']');
    case '"':
        return string(ps);
    case 't':
        return literal(ps, "true");
    case 'f':
        return literal(ps, "false");
    case 'n':
        return literal(ps, "null");
    default:
        return (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) ? number(ps) : -1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parser_t ps = {data, data + size, 0};
    if (value(&ps) == 0) {
        skip_ws(&ps);
        return ps.p == ps.end ? 0 : 0;
    }
    return 0;
}
