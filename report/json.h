/*
 * json.h - a small JSON reader for the coverage tools' reports (gcov
 * --json-format).  Parses a whole document into a tree; no writer (fz
 * writes its JSON with printf).
 */
#ifndef FZ_REPORT_JSON_H
#define FZ_REPORT_JSON_H

#include <stddef.h>

typedef enum {
    FZ_JSON_NULL,
    FZ_JSON_BOOL,
    FZ_JSON_NUM,
    FZ_JSON_STR,
    FZ_JSON_ARR,
    FZ_JSON_OBJ
} fz_json_type_t;

typedef struct fz_json {
    fz_json_type_t type;
    double num;           /* NUM; BOOL: 0 or 1 */
    char *str;            /* STR */
    char *key;            /* member name when inside an object */
    struct fz_json *kids; /* ARR elements / OBJ members */
    size_t n;
} fz_json_t;

/* Parses one value starting at *p (leading blanks skipped) and advances *p
 * past it.  Returns 0, or -1 with *p at the error. */
int fz_json_parse(const char **p, fz_json_t *out);
void fz_json_free(fz_json_t *v);

/* Member key of an object, or NULL. */
const fz_json_t *fz_json_get(const fz_json_t *obj, const char *key);
/* Shorthands: the member's number / string, or def / NULL. */
double fz_json_num(const fz_json_t *obj, const char *key, double def);
const char *fz_json_str(const fz_json_t *obj, const char *key);

#endif
