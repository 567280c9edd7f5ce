/*
 * cov.c - the coverage model and its two readers (cov.h).
 */
#define _GNU_SOURCE
#include "report/cov.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"

static fz_cov_file_t *file_of(fz_cov_t *c, const char *path)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->files[i].path, path) == 0)
            return &c->files[i];
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        fz_cov_file_t *n = realloc(c->files, c->cap * sizeof *n);
        if (!n)
            return NULL;
        c->files = n;
    }
    fz_cov_file_t *f = &c->files[c->n++];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    return f;
}

/* The same line from several units (a header, an inline function) or
 * entries is one line: counts and branches add up. */
static int add_line(fz_cov_file_t *f, uint32_t line, uint64_t count, uint32_t br, uint32_t taken)
{
    for (size_t i = f->n_lines; i-- > 0;)
        if (f->lines[i].line == line) {
            f->lines[i].count += count;
            f->lines[i].br_total += br;
            f->lines[i].br_taken += taken;
            return 0;
        }
    if (f->n_lines == f->cap_lines) {
        f->cap_lines = f->cap_lines ? f->cap_lines * 2 : 64;
        fz_cov_line_t *n = realloc(f->lines, f->cap_lines * sizeof *n);
        if (!n)
            return -1;
        f->lines = n;
    }
    f->lines[f->n_lines++] = (fz_cov_line_t){line, count, br, taken};
    return 0;
}

static int add_func(fz_cov_file_t *f, const char *name, uint32_t start, uint32_t end,
                    uint64_t calls)
{
    for (size_t i = 0; i < f->n_funcs; i++)
        if (f->funcs[i].start == start && strcmp(f->funcs[i].name, name) == 0) {
            f->funcs[i].calls += calls;
            return 0;
        }
    if (f->n_funcs == f->cap_funcs) {
        f->cap_funcs = f->cap_funcs ? f->cap_funcs * 2 : 16;
        fz_cov_func_t *n = realloc(f->funcs, f->cap_funcs * sizeof *n);
        if (!n)
            return -1;
        f->funcs = n;
    }
    f->funcs[f->n_funcs++] = (fz_cov_func_t){strdup(name), start, end, calls};
    return 0;
}

static int gcov_file(fz_cov_t *c, const fz_json_t *jf, const char *cwd)
{
    const char *name = fz_json_str(jf, "file");
    if (!name)
        return -1;
    char *path = NULL;
    if (name[0] == '/' || !cwd)
        path = strdup(name);
    else if (asprintf(&path, "%s/%s", cwd, name) < 0)
        path = NULL;
    fz_cov_file_t *f = path ? file_of(c, path) : NULL;
    free(path);
    if (!f)
        return -1;
    const fz_json_t *funcs = fz_json_get(jf, "functions"), *lines = fz_json_get(jf, "lines");
    for (size_t i = 0; funcs && i < funcs->n; i++) {
        const fz_json_t *fn = &funcs->kids[i];
        const char *n = fz_json_str(fn, "demangled_name");
        if (!n)
            n = fz_json_str(fn, "name");
        if (n && add_func(f, n, (uint32_t)fz_json_num(fn, "start_line", 0),
                          (uint32_t)fz_json_num(fn, "end_line", 0),
                          (uint64_t)fz_json_num(fn, "execution_count", 0)))
            return -1;
    }
    for (size_t i = 0; lines && i < lines->n; i++) {
        const fz_json_t *l = &lines->kids[i], *br = fz_json_get(l, "branches");
        uint32_t total = 0, taken = 0;
        for (size_t b = 0; br && b < br->n; b++) {
            /* gcov -b counts exception edges only with -a; neither do we. */
            if (fz_json_num(&br->kids[b], "throw", 0))
                continue;
            total++;
            taken += fz_json_num(&br->kids[b], "count", 0) > 0;
        }
        if (add_line(f, (uint32_t)fz_json_num(l, "line_number", 0),
                     (uint64_t)fz_json_num(l, "count", 0), total, taken))
            return -1;
    }
    return 0;
}

int fz_cov_read_gcov_json(fz_cov_t *c, const char *text, char *err, size_t errlen)
{
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
            p++;
        if (!*p)
            return 0;
        fz_json_t doc;
        if (fz_json_parse(&p, &doc) || doc.type != FZ_JSON_OBJ) {
            fz_json_free(&doc);
            snprintf(err, errlen, "gcov's JSON does not parse near offset %zu", (size_t)(p - text));
            return -1;
        }
        const fz_json_t *files = fz_json_get(&doc, "files");
        const char *cwd = fz_json_str(&doc, "current_working_directory");
        for (size_t i = 0; files && i < files->n; i++)
            if (gcov_file(c, &files->kids[i], cwd)) {
                fz_json_free(&doc);
                snprintf(err, errlen, "gcov's JSON has a file entry without its fields");
                return -1;
            }
        fz_json_free(&doc);
    }
}

/* One lcov record line ("KEY:value") into the current file. */
static int lcov_line(fz_cov_t *c, fz_cov_file_t **cur, char *l)
{
    char *v = strchr(l, ':');
    if (!v)
        return 0; /* end_of_record, TN and the like */
    *v++ = 0;
    if (strcmp(l, "SF") == 0)
        return (*cur = file_of(c, v)) ? 0 : -1;
    if (!*cur)
        return 0;
    fz_cov_file_t *f = *cur;
    if (strcmp(l, "FN") == 0) {
        char *name = strchr(v, ',');
        return name ? add_func(f, name + 1, (uint32_t)strtoul(v, NULL, 10), 0, 0) : 0;
    }
    if (strcmp(l, "FNDA") == 0) {
        char *name = strchr(v, ',');
        for (size_t i = 0; name && i < f->n_funcs; i++)
            if (strcmp(f->funcs[i].name, name + 1) == 0)
                f->funcs[i].calls += strtoull(v, NULL, 10);
        return 0;
    }
    if (strcmp(l, "DA") == 0) {
        char *cnt = strchr(v, ',');
        return cnt ? add_line(f, (uint32_t)strtoul(v, NULL, 10), strtoull(cnt + 1, NULL, 10), 0, 0)
                   : 0;
    }
    if (strcmp(l, "BRDA") == 0) { /* line,block,branch,taken ('-': never reached) */
        char *taken = strrchr(v, ',');
        if (!taken)
            return 0;
        return add_line(f, (uint32_t)strtoul(v, NULL, 10), 0, 1,
                        taken[1] != '-' && strtoull(taken + 1, NULL, 10) > 0);
    }
    return 0;
}

int fz_cov_read_lcov(fz_cov_t *c, const char *text, char *err, size_t errlen)
{
    char *copy = strdup(text), *save = NULL;
    fz_cov_file_t *cur = NULL;
    int rc = copy ? 0 : -1;
    for (char *l = copy ? strtok_r(copy, "\n", &save) : NULL; l && !rc;
         l = strtok_r(NULL, "\n", &save))
        rc = lcov_line(c, &cur, l);
    free(copy);
    if (rc)
        snprintf(err, errlen, "out of memory reading the lcov export");
    return rc;
}

static int by_line(const void *a, const void *b)
{
    uint32_t x = ((const fz_cov_line_t *)a)->line, y = ((const fz_cov_line_t *)b)->line;
    return x < y ? -1 : x > y;
}

static int by_start(const void *a, const void *b)
{
    uint32_t x = ((const fz_cov_func_t *)a)->start, y = ((const fz_cov_func_t *)b)->start;
    return x < y ? -1 : x > y;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const fz_cov_file_t *)a)->path, ((const fz_cov_file_t *)b)->path);
}

void fz_cov_finish(fz_cov_t *c)
{
    qsort(c->files, c->n, sizeof *c->files, by_path);
    for (size_t i = 0; i < c->n; i++) {
        fz_cov_file_t *f = &c->files[i];
        qsort(f->lines, f->n_lines, sizeof *f->lines, by_line);
        qsort(f->funcs, f->n_funcs, sizeof *f->funcs, by_start);
        uint32_t last = f->n_lines ? f->lines[f->n_lines - 1].line : 0;
        for (size_t k = 0; k < f->n_funcs; k++)
            if (!f->funcs[k].end)
                f->funcs[k].end = k + 1 < f->n_funcs && f->funcs[k + 1].start > f->funcs[k].start
                                      ? f->funcs[k + 1].start - 1
                                      : last;
    }
}

fz_cov_sum_t fz_cov_range_sum(const fz_cov_file_t *f, uint32_t start, uint32_t end)
{
    fz_cov_sum_t s = {0};
    for (size_t i = 0; i < f->n_lines; i++) {
        const fz_cov_line_t *l = &f->lines[i];
        if (end && (l->line < start || l->line > end))
            continue;
        s.lines++;
        s.lines_hit += l->count > 0;
        s.br += l->br_total;
        s.br_taken += l->br_taken;
    }
    return s;
}

fz_cov_sum_t fz_cov_file_sum(const fz_cov_file_t *f)
{
    fz_cov_sum_t s = fz_cov_range_sum(f, 0, 0);
    s.funcs = (uint32_t)f->n_funcs;
    for (size_t i = 0; i < f->n_funcs; i++)
        s.funcs_hit += f->funcs[i].calls > 0;
    return s;
}

void fz_cov_free(fz_cov_t *c)
{
    for (size_t i = 0; i < c->n; i++) {
        for (size_t k = 0; k < c->files[i].n_funcs; k++)
            free(c->files[i].funcs[k].name);
        free(c->files[i].funcs);
        free(c->files[i].lines);
        free(c->files[i].path);
    }
    free(c->files);
    memset(c, 0, sizeof *c);
}
