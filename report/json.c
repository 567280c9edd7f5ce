/*
 * json.c - recursive-descent JSON reader (json.h).
 */
#include "report/json.h"

#include <stdlib.h>
#include <string.h>

static void skip_ws(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

static void put_utf8(char **o, unsigned c)
{
    if (c < 0x80) {
        *(*o)++ = (char)c;
    } else if (c < 0x800) {
        *(*o)++ = (char)(0xc0 | c >> 6);
        *(*o)++ = (char)(0x80 | (c & 0x3f));
    } else {
        *(*o)++ = (char)(0xe0 | c >> 12);
        *(*o)++ = (char)(0x80 | (c >> 6 & 0x3f));
        *(*o)++ = (char)(0x80 | (c & 0x3f));
    }
}

/* *p at the opening quote; a malloc'ed unescaped copy, or NULL. */
static char *parse_string(const char **p)
{
    const char *s = *p + 1, *e = s;
    while (*e && *e != '"')
        e += (*e == '\\' && e[1]) ? 2 : 1;
    if (*e != '"')
        return NULL;
    char *out = malloc((size_t)(e - s) + 1), *o = out;
    if (!out)
        return NULL;
    while (s < e) {
        if (*s != '\\') {
            *o++ = *s++;
            continue;
        }
        s++;
        switch (*s) {
        case 'n':
            *o++ = '\n';
            break;
        case 't':
            *o++ = '\t';
            break;
        case 'r':
            *o++ = '\r';
            break;
        case 'b':
            *o++ = '\b';
            break;
        case 'f':
            *o++ = '\f';
            break;
        case 'u': {
            unsigned c = 0;
            for (int i = 1; i <= 4 && s[i]; i++)
                c = c * 16 + (unsigned)(s[i] <= '9' ? s[i] - '0' : (s[i] | 32) - 'a' + 10);
            put_utf8(&o, c);
            s += 4;
            break;
        }
        default:
            *o++ = *s;
        }
        s++;
    }
    *o = 0;
    *p = e + 1;
    return out;
}

static int parse_items(const char **p, fz_json_t *out, char close, int with_keys)
{
    size_t cap = 0;
    (*p)++;
    skip_ws(p);
    if (**p == close) {
        (*p)++;
        return 0;
    }
    for (;;) {
        if (out->n == cap) {
            cap = cap ? cap * 2 : 8;
            fz_json_t *k = realloc(out->kids, cap * sizeof *k);
            if (!k)
                return -1;
            out->kids = k;
        }
        fz_json_t *kid = &out->kids[out->n];
        memset(kid, 0, sizeof *kid);
        char *key = NULL;
        if (with_keys) {
            skip_ws(p);
            if (**p != '"' || !(key = parse_string(p)))
                return -1;
            skip_ws(p);
            if (*(*p)++ != ':') {
                free(key);
                return -1;
            }
        }
        int rc = fz_json_parse(p, kid);
        kid->key = key;
        out->n++;
        if (rc)
            return -1;
        skip_ws(p);
        if (**p == ',') {
            (*p)++;
            continue;
        }
        if (**p != close)
            return -1;
        (*p)++;
        return 0;
    }
}

int fz_json_parse(const char **p, fz_json_t *out)
{
    memset(out, 0, sizeof *out);
    skip_ws(p);
    switch (**p) {
    case '{':
        out->type = FZ_JSON_OBJ;
        return parse_items(p, out, '}', 1);
    case '[':
        out->type = FZ_JSON_ARR;
        return parse_items(p, out, ']', 0);
    case '"':
        out->type = FZ_JSON_STR;
        return (out->str = parse_string(p)) ? 0 : -1;
    case 't':
    case 'f':
    case 'n': {
        static const char *const words[] = {"true", "false", "null"};
        for (int i = 0; i < 3; i++)
            if (strncmp(*p, words[i], strlen(words[i])) == 0) {
                out->type = i == 2 ? FZ_JSON_NULL : FZ_JSON_BOOL;
                out->num = i == 0;
                *p += strlen(words[i]);
                return 0;
            }
        return -1;
    }
    default: {
        char *end;
        out->type = FZ_JSON_NUM;
        out->num = strtod(*p, &end);
        if (end == *p)
            return -1;
        *p = end;
        return 0;
    }
    }
}

void fz_json_free(fz_json_t *v)
{
    for (size_t i = 0; i < v->n; i++)
        fz_json_free(&v->kids[i]);
    free(v->kids);
    free(v->str);
    free(v->key);
    memset(v, 0, sizeof *v);
}

const fz_json_t *fz_json_get(const fz_json_t *obj, const char *key)
{
    if (!obj || obj->type != FZ_JSON_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (obj->kids[i].key && strcmp(obj->kids[i].key, key) == 0)
            return &obj->kids[i];
    return NULL;
}

double fz_json_num(const fz_json_t *obj, const char *key, double def)
{
    const fz_json_t *v = fz_json_get(obj, key);
    return v && (v->type == FZ_JSON_NUM || v->type == FZ_JSON_BOOL) ? v->num : def;
}

const char *fz_json_str(const fz_json_t *obj, const char *key)
{
    const fz_json_t *v = fz_json_get(obj, key);
    return v && v->type == FZ_JSON_STR ? v->str : NULL;
}
