/*
 * fz-plot.c - fz-plot OUT_DIR DEST_DIR: DEST_DIR/index.html with charts of
 * a campaign's plot_data (execs/s, corpus, edges, crashes, hangs over
 * time), drawn as inline SVG by fz itself: no gnuplot, no network, no
 * JavaScript.  One line per instance of a -j / -M / -S directory, plus
 * their total.  Reads afl-fuzz's output directories too (docs/tools.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "fz-log.h"
#include "fz-version.h"
#include "report/campaign.h"
#include "report/html.h"
#include "report/plotdata.h"

const char *fz_log_prog = "fz-plot";

typedef struct {
    fz_instance_t *inst;
    fz_plot_t plot;
    double start; /* unix time the instance started (0: unknown) */
    char note[256];
    int ok;
    /* From the queue's file names, for the corpus total: entries imported
     * from other instances (",sync:"), each at the time of the own find
     * before it (a synced name has no time: field), and the seeds. */
    double *imported; /* seconds, ascending */
    size_t n_imported;
    double seeds;
} plot_inst_t;

/* What the charts show, and how the instances add up: a sum for rates and
 * counts, the best instance for edges (instances share most edges, and
 * plot_data holds no union). */
typedef struct {
    fz_plot_col_t col;
    const char *title, *unit;
    int take_max;
} chart_spec_t;

static const chart_spec_t CHARTS[] = {
    {FZ_PLOT_EPS, "executions per second", "/s", 0}, {FZ_PLOT_CORPUS, "corpus size", "entries", 0},
    {FZ_PLOT_EDGES, "edges found", "edges", 1},      {FZ_PLOT_CRASHES, "crashes saved", "", 0},
    {FZ_PLOT_HANGS, "hangs saved", "", 0},
};

static void usage(void)
{
    fprintf(stderr,
            "usage: fz-plot OUT_DIR DEST_DIR\n"
            "  writes DEST_DIR/index.html: charts of OUT_DIR's plot_data (execs/s, corpus,\n"
            "  edges, crashes, hangs over time); every instance of a -j/-M/-S directory and\n"
            "  their total.  OUT_DIR may be an fz-fuzz or an afl-fuzz output directory.\n"
            "  --version  print fz's version\n");
    exit(FZ_EXIT_ERROR);
}

static void load(plot_inst_t *pi)
{
    size_t len;
    char *text = fz_campaign_read(pi->inst->dir, "plot_data", &len);
    if (!text) {
        snprintf(pi->note, sizeof pi->note, "no plot_data (%s)", strerror(errno));
        return;
    }
    char err[200];
    if (fz_plot_parse(text, len, &pi->plot, err, sizeof err)) {
        snprintf(pi->note, sizeof pi->note, "plot_data: %s", err);
        free(text);
        return;
    }
    free(text);
    pi->ok = 1;
    if (pi->plot.bad_lines)
        snprintf(pi->note, sizeof pi->note,
                 "%zu line(s) of plot_data skipped (truncated or "
                 "not numbers)",
                 pi->plot.bad_lines);
    pi->start = pi->plot.unix_start;
    char *stats = fz_campaign_read(pi->inst->dir, "fuzzer_stats", NULL);
    char v[64];
    if (!pi->start && stats && fz_stats_value(stats, "start_time", v, sizeof v))
        pi->start = strtod(v, NULL);
    free(stats);
}

/* The time: field of a queue file name in seconds, or -1 without one. */
static double name_time(const char *name)
{
    const char *t = strstr(name, ",time:");
    return t ? strtod(t + 6, NULL) / 1000.0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the queue's names (never a file: names are all it needs) into
 * pi->imported and pi->seeds.  A missing queue leaves both empty. */
static void load_queue(plot_inst_t *pi)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/queue", pi->inst->dir);
    DIR *d = opendir(path);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "id:", 3) != 0)
            continue;
        if (n == cap && !(names = realloc(names, (cap = cap ? 2 * cap : 256) * sizeof *names)))
            fz_die("out of memory");
        if (!(names[n++] = strdup(e->d_name)))
            fz_die("out of memory");
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str); /* id order: ids are zero-padded */
    pi->imported = malloc((n ? n : 1) * sizeof *pi->imported);
    if (!pi->imported)
        fz_die("out of memory");
    double last = 0;
    for (size_t i = 0; i < n; i++) {
        double t = name_time(names[i]);
        if (t >= 0)
            last = t;
        if (strstr(names[i], ",sync:"))
            pi->imported[pi->n_imported++] = last;
        else if (strstr(names[i], ",orig:"))
            pi->seeds++;
        free(names[i]);
    }
    free(names);
}

/* Imports of an instance at or before t (its own clock). */
static double imported_by(const plot_inst_t *pi, double t)
{
    size_t k = 0;
    while (k < pi->n_imported && pi->imported[k] <= t)
        k++;
    return (double)k;
}

/* The value of a step function (the instance's rows) at time t: the last
 * row at or before t; 0 before the first.  A rate stops at the last row. */
static double value_at(const fz_plot_t *p, fz_plot_col_t c, double t, size_t *cursor, int rate)
{
    const double *x = p->col[FZ_PLOT_TIME];
    while (*cursor < p->rows && x[*cursor] <= t)
        (*cursor)++;
    if (!*cursor || (rate && *cursor == p->rows && t > x[p->rows - 1]))
        return 0;
    return p->col[c][*cursor - 1];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The total over instances on the union of their (aligned) row times. */
static size_t total(plot_inst_t *pi, int n, const chart_spec_t *cs, double t0, double **tx,
                    double **ty)
{
    size_t rows = 0;
    for (int i = 0; i < n; i++)
        rows += pi[i].ok && pi[i].plot.col[cs->col] ? pi[i].plot.rows : 0;
    double *x = malloc((rows + 1) * sizeof *x), *y = malloc((rows + 1) * sizeof *y);
    if (!x || !y)
        fz_die("out of memory");
    size_t k = 0;
    for (int i = 0; i < n; i++)
        if (pi[i].ok && pi[i].plot.col[cs->col])
            for (size_t r = 0; r < pi[i].plot.rows; r++)
                x[k++] = pi[i].plot.col[FZ_PLOT_TIME][r] + (pi[i].start ? pi[i].start - t0 : 0);
    qsort(x, k, sizeof *x, cmp_double);
    size_t u = 0;
    for (size_t r = 0; r < k; r++)
        if (!u || x[r] != x[u - 1])
            x[u++] = x[r];
    size_t cursor[n];
    memset(cursor, 0, sizeof cursor);
    int corpus = cs->col == FZ_PLOT_CORPUS;
    for (size_t r = 0; r < u; r++) {
        double seeds = 0;
        y[r] = 0;
        for (int i = 0; i < n; i++) {
            if (!pi[i].ok || !pi[i].plot.col[cs->col])
                continue;
            double off = pi[i].start ? pi[i].start - t0 : 0;
            double v =
                value_at(&pi[i].plot, cs->col, x[r] - off, &cursor[i], cs->col == FZ_PLOT_EPS);
            if (corpus && v > 0) {
                /* Each instance's own finds: what it imported is another's
                 * find, and the seeds are everyone's (counted once below),
                 * as the -j status line counts. */
                v -= imported_by(&pi[i], x[r] - off) + pi[i].seeds;
                if (v < 0)
                    v = 0;
                if (pi[i].seeds > seeds)
                    seeds = pi[i].seeds;
            }
            y[r] = cs->take_max ? (v > y[r] ? v : y[r]) : y[r] + v;
        }
        y[r] += seeds;
    }
    *tx = x;
    *ty = y;
    return u;
}

static void chart(FILE *f, plot_inst_t *pi, int n, const chart_spec_t *cs, double t0)
{
    fz_svg_series_t s[n + 1];
    double *shifted[n + 1];
    int ns = 0, have = 0;
    for (int i = 0; i < n; i++) {
        shifted[i] = NULL;
        if (!pi[i].ok || !pi[i].plot.col[cs->col])
            continue;
        const fz_plot_t *p = &pi[i].plot;
        /* Every instance on the campaign's clock, so -j lines line up. */
        double off = pi[i].start && n > 1 ? pi[i].start - t0 : 0;
        shifted[i] = malloc(p->rows * sizeof(double));
        if (!shifted[i])
            fz_die("out of memory");
        for (size_t r = 0; r < p->rows; r++)
            shifted[i][r] = p->col[FZ_PLOT_TIME][r] + off;
        s[ns++] = (fz_svg_series_t){pi[i].inst->name, shifted[i], p->col[cs->col], p->rows, 0};
        have++;
    }
    double *tx = NULL, *ty = NULL;
    if (have > 1) {
        size_t m = total(pi, n, cs, t0, &tx, &ty);
        s[ns++] = (fz_svg_series_t){cs->take_max                 ? "best instance"
                                    : cs->col == FZ_PLOT_CORPUS ? "total (own finds)"
                                                                : "total",
                                    tx, ty, m, 1};
    }
    if (!have) {
        fprintf(f,
                "<p class=\"note\">%s: not in this plot_data (an older format has no %s "
                "column).</p>\n",
                cs->title, fz_plot_col_name(cs->col));
        return;
    }
    /* Edges only grow, from the seeds' count: an axis from 0 would flatten
     * the curve into a line at the top. */
    fz_svg_chart(f, &(fz_svg_chart_t){cs->title, cs->unit, s, (size_t)ns,
                                      cs->col == FZ_PLOT_EDGES});
    for (int i = 0; i < n; i++)
        free(shifted[i]);
    free(tx);
    free(ty);
}

static void summary(FILE *f, plot_inst_t *pi, int n)
{
    fputs("<table><tr><th class=\"l\">instance</th><th>rows</th><th>run time (s)</th>"
          "<th>execs</th><th>execs/s</th><th>corpus</th><th>edges</th><th>crashes</th>"
          "<th>hangs</th><th>cycles</th><th class=\"l\">note</th></tr>\n",
          f);
    static const fz_plot_col_t cols[] = {FZ_PLOT_TIME,   FZ_PLOT_EXECS, FZ_PLOT_EPS,
                                         FZ_PLOT_CORPUS, FZ_PLOT_EDGES, FZ_PLOT_CRASHES,
                                         FZ_PLOT_HANGS,  FZ_PLOT_CYCLES};
    for (int i = 0; i < n; i++) {
        fputs("<tr><td class=\"l\">", f);
        fz_html_escape(f, pi[i].inst->name);
        fprintf(f, "</td><td>%zu</td>", pi[i].ok ? pi[i].plot.rows : 0);
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            fputs("<td>", f);
            if (pi[i].ok && pi[i].plot.col[cols[c]])
                fz_html_num(f, pi[i].plot.col[cols[c]][pi[i].plot.rows - 1]);
            else
                fputs("-", f);
            fputs("</td>", f);
        }
        fputs("<td class=\"l note\">", f);
        fz_html_escape(f, pi[i].note);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void page(FILE *f, const char *out, plot_inst_t *pi, int n)
{
    char title[512];
    snprintf(title, sizeof title, "fz-plot: %s", out);
    fz_html_begin(f, title);
    double t0 = 0;
    for (int i = 0; i < n; i++)
        if (pi[i].ok && pi[i].start && (!t0 || pi[i].start < t0))
            t0 = pi[i].start;
    summary(f, pi, n);
    fputs("<div class=\"charts\">\n", f);
    for (size_t c = 0; c < sizeof CHARTS / sizeof CHARTS[0]; c++)
        chart(f, pi, n, &CHARTS[c], t0);
    fputs("</div>\n<p>Values are the instances' last plot_data rows; "
          "a total adds the instances up on the campaign's clock (corpus: each instance's "
          "own finds, imports left out and the seeds counted once, as the -j status line "
          "counts; edges: the best instance, since instances share most of theirs).</p>\n",
          f);
    fz_html_end(f);
}

int main(int argc, char **argv)
{
    fz_version_check(argc, argv, "fz-plot");
    if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-')
        usage();
    const char *out = argv[1], *dest = argv[2];
    fz_instance_t *list;
    int n = fz_campaign_instances(out, &list);
    if (n < 0)
        fz_die("cannot read '%s': %m; give the -o directory of fz-fuzz or afl-fuzz", out);
    if (n == 0)
        fz_die("'%s' holds no fuzzer instance (no plot_data, fuzzer_stats or queue/ in it or "
               "its subdirectories); give the -o directory of fz-fuzz or afl-fuzz",
               out);
    plot_inst_t pi[n];
    memset(pi, 0, sizeof pi);
    int ok = 0;
    for (int i = 0; i < n; i++) {
        pi[i].inst = &list[i];
        load(&pi[i]);
        load_queue(&pi[i]);
        ok += pi[i].ok;
        if (pi[i].note[0])
            fz_warn("%s: %s", pi[i].inst->dir, pi[i].note);
    }
    if (mkdir(dest, 0755) && errno != EEXIST)
        fz_die("cannot create '%s': %m; check the path", dest);
    char *html = NULL, *path = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&html, &len);
    if (!f)
        fz_die("out of memory");
    page(f, out, pi, n);
    if (fclose(f) || asprintf(&path, "%s/index.html", dest) < 0)
        fz_die("out of memory");
    if (fz_file_write_atomic(path, html, len, 0644))
        fz_die("cannot write '%s': %m; check that the directory is writable", path);
    printf("fz-plot: %s: %d instance(s), %d with data\n", path, n, ok);
    for (int i = 0; i < n; i++) {
        fz_plot_free(&pi[i].plot);
        free(pi[i].imported);
    }
    fz_campaign_free(list, n);
    free(html);
    free(path);
    return ok ? 0 : FZ_EXIT_ERROR;
}
