/*
 * fz-denylist.h - the deny-list shared by both instrumentation back ends
 * (fz-gcc-plugin.cc and the LLVM pass): functions and source files that get
 * no edge counters.
 *
 * The file is named by the environment variable FZ_DENYLIST and read once per
 * compiler run.  One entry a line:
 *
 *     # a comment (also after leading blanks); blank lines are ignored
 *     fun:PATTERN    a function, matched by its source name (e.g. "parse" or
 *                    "ns::Parser::parse") and by its assembler name (the
 *                    mangled "_ZN2ns6Parser5parseEv" in C++)
 *     src:PATTERN    a source file, matched by the path as given to the
 *                    compiler and by its basename
 *     PATTERN        a bare pattern means fun:PATTERN
 *
 * Patterns are fnmatch(3) globs with no flags, so '*' also crosses '/' and
 * ':' ("src:*third_party*", "fun:std::*").  Leading and trailing blanks of a
 * line are dropped.  A line that starts with a lower-case word and a single
 * colon ("foo:bar") but is neither fun: nor src: is an error, so a misspelt
 * kind is reported instead of silently matching nothing; "ns::f" is a bare
 * function pattern.
 *
 * Header-only plain C that also compiles as C++, because both plugins (one
 * built by g++ against GCC's headers, one against LLVM's) include it.  Errors
 * are returned as a message in the caller's buffer, so each plugin reports
 * them its own way.
 */
#ifndef FZ_DENYLIST_H
#define FZ_DENYLIST_H

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The environment variable that names the deny-list file. */
#define FZ_ENV_DENYLIST "FZ_DENYLIST"

enum fz_deny_kind { FZ_DENY_FUN, FZ_DENY_SRC };

struct fz_deny_entry {
    enum fz_deny_kind kind;
    char *pattern;
};

typedef struct fz_denylist {
    struct fz_deny_entry *entries;
    size_t n, cap;
} fz_denylist_t;

static inline void fz_denylist_free(fz_denylist_t *dl)
{
    for (size_t i = 0; i < dl->n; i++)
        free(dl->entries[i].pattern);
    free(dl->entries);
    dl->entries = NULL;
    dl->n = dl->cap = 0;
}

static inline int fz_denylist_push(fz_denylist_t *dl, enum fz_deny_kind kind, const char *pat)
{
    if (dl->n == dl->cap) {
        size_t cap = dl->cap ? dl->cap * 2 : 16;
        struct fz_deny_entry *e = (struct fz_deny_entry *)realloc(dl->entries, cap * sizeof(*e));
        if (!e)
            return -1;
        dl->entries = e;
        dl->cap = cap;
    }
    char *copy = strdup(pat);
    if (!copy)
        return -1;
    dl->entries[dl->n].kind = kind;
    dl->entries[dl->n].pattern = copy;
    dl->n++;
    return 0;
}

/* Parses one line (already stripped of blanks, not empty, not a comment).
 * Returns 0, or -1 with a message in err. */
static inline int fz_denylist_parse_line(fz_denylist_t *dl, char *s, const char *file,
                                         unsigned lineno, char *err, size_t errlen)
{
    enum fz_deny_kind kind = FZ_DENY_FUN;
    const char *pat = s;
    size_t w = 0;

    while (islower((unsigned char)s[w]))
        w++;
    if (w > 0 && s[w] == ':' && s[w + 1] != ':') {
        if (w == 3 && strncmp(s, "fun", 3) == 0) {
            kind = FZ_DENY_FUN;
        } else if (w == 3 && strncmp(s, "src", 3) == 0) {
            kind = FZ_DENY_SRC;
        } else {
            snprintf(err, errlen,
                     "%s:%u: unknown entry kind '%.*s:' (write fun:PATTERN or src:PATTERN)", file,
                     lineno, (int)w, s);
            return -1;
        }
        pat = s + w + 1;
        while (*pat == ' ' || *pat == '\t')
            pat++;
    }
    if (!*pat) {
        snprintf(err, errlen, "%s:%u: empty pattern (write fun:PATTERN or src:PATTERN)", file,
                 lineno);
        return -1;
    }
    if (fz_denylist_push(dl, kind, pat) != 0) {
        snprintf(err, errlen, "%s:%u: out of memory", file, lineno);
        return -1;
    }
    return 0;
}

/* Reads the deny-list file at path into dl (which must be zeroed).
 * Returns 0, or -1 with a one-line message naming the file (and line) in err;
 * dl is then empty. */
static inline int fz_denylist_load(fz_denylist_t *dl, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen,
                 "cannot read the deny-list '%s' named by " FZ_ENV_DENYLIST
                 ": %s; fix the path or unset " FZ_ENV_DENYLIST,
                 path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0;
    int rc = 0;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        size_t len = strlen(s);
        while (len > 0 && isspace((unsigned char)s[len - 1]))
            s[--len] = '\0';
        if (!*s || *s == '#')
            continue;
        if (fz_denylist_parse_line(dl, s, path, lineno, err, errlen) != 0) {
            rc = -1;
            break;
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "error reading the deny-list '%s': %s", path, strerror(errno));
        rc = -1;
    }
    free(line);
    fclose(f);
    if (rc != 0)
        fz_denylist_free(dl);
    return rc;
}

/* Loads the file named by FZ_DENYLIST, if the variable is set and not empty.
 * Returns 0 (dl possibly empty) or -1 with a message in err. */
static inline int fz_denylist_from_env(fz_denylist_t *dl, char *err, size_t errlen)
{
    const char *path = getenv(FZ_ENV_DENYLIST);
    memset(dl, 0, sizeof(*dl));
    if (!path || !*path)
        return 0;
    return fz_denylist_load(dl, path, err, errlen);
}

/* True if any entry of this kind matches one of the names (NULL names are
 * skipped). */
static inline int fz_denylist_match(const fz_denylist_t *dl, enum fz_deny_kind kind, const char *a,
                                    const char *b)
{
    for (size_t i = 0; i < dl->n; i++) {
        if (dl->entries[i].kind != kind)
            continue;
        if (a && fnmatch(dl->entries[i].pattern, a, 0) == 0)
            return 1;
        if (b && fnmatch(dl->entries[i].pattern, b, 0) == 0)
            return 1;
    }
    return 0;
}

/* True if the function, by source name or assembler (mangled) name, is
 * denied.  Either name may be NULL. */
static inline int fz_denylist_deny_function(const fz_denylist_t *dl, const char *name,
                                            const char *asm_name)
{
    return fz_denylist_match(dl, FZ_DENY_FUN, name, asm_name);
}

/* True if the source file, by the path as given or by its basename, is
 * denied. */
static inline int fz_denylist_deny_source(const fz_denylist_t *dl, const char *path)
{
    if (!path)
        return 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return fz_denylist_match(dl, FZ_DENY_SRC, path, base != path ? base : NULL);
}

#endif
