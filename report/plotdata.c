/*
 * plotdata.c - plot_data into columns (plotdata.h).
 */
#include "report/plotdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each column's names across AFL generations; the first is today's. */
static const char *const NAMES[FZ_PLOT_NCOLS][3] = {
    [FZ_PLOT_TIME] = {"relative_time", "unix_time", NULL},
    [FZ_PLOT_CYCLES] = {"cycles_done", NULL, NULL},
    [FZ_PLOT_CORPUS] = {"corpus_count", "paths_total", NULL},
    [FZ_PLOT_PENDING] = {"pending_total", NULL, NULL},
    [FZ_PLOT_MAP] = {"map_size", NULL, NULL},
    [FZ_PLOT_CRASHES] = {"saved_crashes", "unique_crashes", NULL},
    [FZ_PLOT_HANGS] = {"saved_hangs", "unique_hangs", NULL},
    [FZ_PLOT_EPS] = {"execs_per_sec", NULL, NULL},
    [FZ_PLOT_EXECS] = {"total_execs", NULL, NULL},
    [FZ_PLOT_EDGES] = {"edges_found", NULL, NULL},
};

/* Headerless files: column positions of the two common layouts. */
static const char *const AFLPP4[] = {
    "relative_time", "cycles_done", "cur_item",      "corpus_count", "pending_total",
    "pending_favs",  "map_size",    "saved_crashes", "saved_hangs",  "max_depth",
    "execs_per_sec", "total_execs", "edges_found"};
static const char *const AFL2[] = {
    "unix_time", "cycles_done",    "cur_path",     "paths_total", "pending_total", "pending_favs",
    "map_size",  "unique_crashes", "unique_hangs", "max_depth",   "execs_per_sec"};

#define MAX_FIELDS 32

const char *fz_plot_col_name(fz_plot_col_t c)
{
    return NAMES[c][0];
}

static int col_of(const char *name)
{
    for (int c = 0; c < FZ_PLOT_NCOLS; c++)
        for (int k = 0; k < 3 && NAMES[c][k]; k++)
            if (strcmp(name, NAMES[c][k]) == 0)
                return c;
    return -1;
}

/* Splits a line at commas, trimming blanks; returns the field count. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *s = line; n < max;) {
        while (*s == ' ' || *s == '\t')
            s++;
        f[n++] = s;
        char *c = strchr(s, ',');
        char *end = c ? c : s + strlen(s);
        while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
            end--;
        *end = 0;
        if (!c)
            break;
        s = c + 1;
    }
    return n;
}

/* map[i] = column of field i (-1: not charted). */
static void layout(const char *const *names, int n, int *map, int *nfields)
{
    *nfields = n;
    for (int i = 0; i < n; i++)
        map[i] = col_of(names[i]);
}

static int push_row(fz_plot_t *p, size_t *cap, const double *v)
{
    if (p->rows == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        for (int c = 0; c < FZ_PLOT_NCOLS; c++) {
            double *n = realloc(p->col[c], *cap * sizeof(double));
            if (!n)
                return -1;
            p->col[c] = n;
        }
    }
    for (int c = 0; c < FZ_PLOT_NCOLS; c++)
        p->col[c][p->rows] = v[c];
    p->rows++;
    return 0;
}

/* One data line into v; 0 if every field is a number (map_size may end in
 * '%') and the count matches the layout. */
static int parse_row(char *line, const int *map, int nfields, double *v, int *seen)
{
    char *f[MAX_FIELDS];
    if (split(line, f, MAX_FIELDS) != nfields)
        return -1;
    for (int i = 0; i < nfields; i++) {
        char *end;
        double d = strtod(f[i], &end);
        if (end == f[i] || (*end && strcmp(end, "%") != 0))
            return -1;
        if (map[i] >= 0) {
            v[map[i]] = d;
            seen[map[i]] = 1;
        }
    }
    return 0;
}

static int parse_lines(char *text, fz_plot_t *p)
{
    int map[MAX_FIELDS], nfields = 0, seen[FZ_PLOT_NCOLS] = {0};
    size_t cap = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') {
            char *f[MAX_FIELDS];
            int n = split(line + 1, f, MAX_FIELDS);
            layout((const char *const *)f, n, map, &nfields);
            p->has_header = 1;
            continue;
        }
        if (!nfields) { /* no header: guess from the first line's width */
            char tmp[1024];
            snprintf(tmp, sizeof(tmp), "%s", line);
            char *f[MAX_FIELDS];
            int n = split(tmp, f, MAX_FIELDS);
            if (n == 13)
                layout(AFLPP4, 13, map, &nfields);
            else if (n == 11)
                layout(AFL2, 11, map, &nfields);
            else {
                /* Garbage (a damaged first line): skipped and counted;
                 * the next line may tell the layout. */
                p->bad_lines++;
                continue;
            }
        }
        double v[FZ_PLOT_NCOLS] = {0};
        if (parse_row(line, map, nfields, v, seen) || push_row(p, &cap, v))
            p->bad_lines++;
    }
    for (int c = 0; c < FZ_PLOT_NCOLS; c++)
        if (!seen[c]) {
            free(p->col[c]);
            p->col[c] = NULL;
        }
    return 0;
}

int fz_plot_parse(const char *text, size_t len, fz_plot_t *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    /* A last line without its newline is a row being written: drop it. */
    size_t use = len;
    while (use && text[use - 1] != '\n')
        use--;
    if (use < len)
        p->bad_lines++;
    char *copy = malloc(use + 1);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(copy, text, use);
    copy[use] = 0;
    int rc = parse_lines(copy, p);
    free(copy);
    if (rc == 0 && (!p->rows || !p->col[FZ_PLOT_TIME])) {
        if (p->bad_lines && !p->rows)
            snprintf(err, errlen,
                     "no usable rows: %zu line(s) skipped (damaged, or without a header line "
                     "and not AFL 2.x's 11 or AFL++ 4.x's 13 fields)",
                     p->bad_lines);
        else
            snprintf(err, errlen, "%s", len ? "no data rows yet" : "empty file");
        rc = -1;
    }
    if (rc) {
        fz_plot_free(p);
        return -1;
    }
    /* AFL 2.x writes unix times: make them relative to the first row. */
    if (p->rows && p->col[FZ_PLOT_TIME][0] > 1e9) {
        p->unix_start = p->col[FZ_PLOT_TIME][0];
        for (size_t i = 0; i < p->rows; i++)
            p->col[FZ_PLOT_TIME][i] -= p->unix_start;
    }
    return 0;
}

void fz_plot_free(fz_plot_t *p)
{
    for (int c = 0; c < FZ_PLOT_NCOLS; c++)
        free(p->col[c]);
    memset(p, 0, sizeof *p);
}
