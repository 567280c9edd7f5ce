/*
 * dict.c - dictionary tokens: the in-memory set and the AFL-format parser.
 *
 * The parser works on a buffer (reading files and directories is
 * fz-fuzz/dictfile.c's job, so mutators/ stays free of I/O).  It reports
 * every problem as a one-line message in the caller's buffer, in the
 * "file:line: what is wrong; how to fix it" shape compilers use, so fz-fuzz
 * can print it with fz_die and the user can jump to the line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutators/dict.h"

void fz_dict_init(fz_dict_t *d)
{
    memset(d, 0, sizeof(*d));
}

void fz_dict_free(fz_dict_t *d)
{
    free(d->tokens);
    fz_dict_init(d);
}

int fz_dict_add(fz_dict_t *d, const uint8_t *tok, size_t len)
{
    if (len == 0 || len > FZ_DICT_TOKEN_MAX)
        return -1;
    /* A linear scan: dictionaries hold hundreds of tokens and are built
     * once, so this costs nothing worth a hash table. */
    for (size_t i = 0; i < d->count; i++)
        if (d->tokens[i].len == len && memcmp(d->tokens[i].data, tok, len) == 0)
            return 0;
    if (d->count == FZ_DICT_MAX_TOKENS)
        return -1;
    if (d->count == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        fz_dict_token_t *t = realloc(d->tokens, cap * sizeof(*t));
        if (!t)
            return -1;
        d->tokens = t;
        d->cap = cap;
    }
    fz_dict_token_t *t = &d->tokens[d->count++];
    t->len = (uint32_t)len;
    memcpy(t->data, tok, len);
    return 1;
}

int fz_dict_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Where a parse error is reported: "file:line". */
typedef struct {
    const char *file;
    unsigned line;
    char *err;
    size_t errlen;
} where_t;

/*
 * Decode the quoted value starting at *p (just after the opening quote)
 * into tok; on success *p points just past the closing quote.  Returns the
 * token length, or -1 with the error reported.
 */
static int parse_value(const where_t *w, const char **p, uint8_t *tok)
{
    const char *s = *p;
    size_t n = 0;
    for (;; s++) {
        int c = (unsigned char)*s;
        if (c == '\0' || c == '\n' || c == '\r')
            return fz_dict_error(w->err, w->errlen,
                                 "%s:%u: unterminated string; end the value with a double quote",
                                 w->file, w->line);
        if (c == '"')
            break;
        if (c == '\\') {
            s++;
            if (*s == '\\' || *s == '"') {
                c = *s;
            } else if (*s == 'x' && hex_value(s[1]) >= 0 && hex_value(s[2]) >= 0) {
                c = hex_value(s[1]) * 16 + hex_value(s[2]);
                s += 2;
            } else {
                return fz_dict_error(
                    w->err, w->errlen,
                    "%s:%u: bad escape in value; use \\\\, \\\" or \\xNN (two hex digits)", w->file,
                    w->line);
            }
        } else if (c < 32 || c > 126) {
            return fz_dict_error(
                w->err, w->errlen,
                "%s:%u: byte 0x%02x in value is not printable; write it as \\x%02x", w->file,
                w->line, c, c);
        }
        if (n == FZ_DICT_TOKEN_MAX)
            return fz_dict_error(
                w->err, w->errlen,
                "%s:%u: token is longer than %d bytes; shorten it or split it in two", w->file,
                w->line, FZ_DICT_TOKEN_MAX);
        tok[n++] = (uint8_t)c;
    }
    *p = s + 1;
    return (int)n;
}

/*
 * Parse one line.  Returns 1 with the token in tok and *len, 0 for a line with
 * nothing to load (blank, comment, or a level above max_level), -1 on error.
 */
static int parse_line(const where_t *w, const char *s, long max_level, uint8_t *tok, size_t *len)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0' || *s == '#' || *s == '\n' || *s == '\r')
        return 0;
    long level = 0;
    if (*s != '"') { /* name, optional @level, '=' */
        while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
               *s == '_' || *s == '-' || *s == '.')
            s++;
        if (*s == '@') {
            char *end;
            level = strtol(s + 1, &end, 10);
            if (end == s + 1)
                return fz_dict_error(w->err, w->errlen,
                                     "%s:%u: '@' must be followed by a level number", w->file,
                                     w->line);
            s = end;
        }
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s++ != '=')
            return fz_dict_error(
                w->err, w->errlen,
                "%s:%u: expected name=\"value\" or \"value\"; check the line's syntax", w->file,
                w->line);
        while (*s == ' ' || *s == '\t')
            s++;
    }
    if (*s++ != '"')
        return fz_dict_error(w->err, w->errlen, "%s:%u: the value must start with a double quote",
                             w->file, w->line);
    int n = parse_value(w, &s, tok);
    if (n < 0)
        return -1;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    if (*s != '\0' && *s != '#')
        return fz_dict_error(
            w->err, w->errlen,
            "%s:%u: unexpected text after the closing quote; escape quotes inside the "
            "value as \\\"",
            w->file, w->line);
    if (n == 0)
        return fz_dict_error(w->err, w->errlen, "%s:%u: empty value; remove the line", w->file,
                             w->line);
    *len = (size_t)n;
    return level <= max_level;
}

int fz_dict_parse(fz_dict_t *d, const char *buf, size_t len, const char *name, long level,
                  char *err, size_t errlen)
{
    /* One NUL-terminated copy, cut into lines in place: parse_line works on
     * C strings, and the caller's buffer stays untouched. */
    char *text = malloc(len + 1);
    if (!text)
        return fz_dict_error(err, errlen, "%s: out of memory", name);
    memcpy(text, buf, len);
    text[len] = 0;
    where_t w = {name, 0, err, errlen};
    int added = 0, rc = 0;
    for (char *line = text; line < text + len;) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        if (nl)
            *nl = 0;
        uint8_t tok[FZ_DICT_TOKEN_MAX];
        size_t n = 0;
        w.line++;
        rc = parse_line(&w, line, level, tok, &n);
        if (rc < 0)
            break;
        if (rc == 1 && fz_dict_add(d, tok, n) == 1) {
            added++;
        } else if (rc == 1 && d->count == FZ_DICT_MAX_TOKENS) {
            rc = fz_dict_error(err, errlen, "%s:%u: more than %d tokens; use a smaller dictionary",
                               name, w.line, FZ_DICT_MAX_TOKENS);
            break;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    free(text);
    return rc < 0 ? -1 : added;
}
