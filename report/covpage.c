/*
 * covpage.c - fz-cov's pages (covpage.h).
 */
#define _GNU_SOURCE
#include "report/covpage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "report/html.h"

static void pct(FILE *f, uint32_t hit, uint32_t total)
{
    if (!total) {
        fputs("<td>-</td><td></td>", f);
        return;
    }
    double p = 100.0 * hit / total;
    fprintf(f,
            "<td>%u / %u</td><td><span class=\"barbg\"><span class=\"bar\" "
            "style=\"width:%.0fpx\"></span></span> %.1f%%</td>",
            hit, total, p * 0.8, p);
}

static void sum_cells(FILE *f, const fz_cov_sum_t *s, int with_funcs)
{
    pct(f, s->lines_hit, s->lines);
    pct(f, s->br_taken, s->br);
    if (with_funcs)
        pct(f, s->funcs_hit, s->funcs);
}

static int save(const char *path, FILE *mem, char **buf, size_t *len)
{
    if (fclose(mem))
        return -1;
    int rc = fz_file_write_atomic(path, *buf, *len, 0644);
    free(*buf);
    return rc;
}

static void functions(FILE *f, const fz_cov_file_t *cf)
{
    fputs("<h2>Functions</h2>\n<table><tr><th class=\"l\">function</th><th>line</th>"
          "<th>calls</th><th>lines</th><th></th><th>branches</th><th></th></tr>\n",
          f);
    for (size_t i = 0; i < cf->n_funcs; i++) {
        const fz_cov_func_t *fn = &cf->funcs[i];
        fz_cov_sum_t s = fz_cov_range_sum(cf, fn->start, fn->end);
        fprintf(f, "<tr><td class=\"l\"><a href=\"#L%u\">", fn->start);
        fz_html_escape(f, fn->name);
        fprintf(f, "</a></td><td>%u</td><td>%llu</td>", fn->start, (unsigned long long)fn->calls);
        sum_cells(f, &s, 0);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void line_span(FILE *f, const fz_cov_line_t *cl, uint32_t n, const char *text, size_t len)
{
    const char *cls = !cl ? "" : !cl->count ? "miss" : cl->br_taken < cl->br_total ? "part" : "hit";
    fprintf(f, "<span id=\"L%u\" class=\"%s\"><i>", n, cls);
    if (cl)
        fprintf(f, "%llu", (unsigned long long)cl->count);
    fprintf(f, "</i>%5u  ", n);
    char *line = strndup(text, len);
    fz_html_escape(f, line ? line : "");
    free(line);
    fputs("</span>", f);
}

/* The source, one <span> per line: green reached, red never reached,
 * yellow reached with a branch outcome never taken; no count on lines
 * without code.  Without the source, the counted lines alone. */
static void listing(FILE *f, const fz_cov_file_t *cf, const char *src)
{
    fputs("<h2>Source</h2>\n<pre class=\"src\">", f);
    if (!src)
        for (size_t k = 0; k < cf->n_lines; k++)
            line_span(f, &cf->lines[k], cf->lines[k].line, "", 0);
    size_t k = 0;
    uint32_t n = 1;
    for (const char *l = src; l && *l; n++) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        while (k < cf->n_lines && cf->lines[k].line < n)
            k++;
        line_span(f, k < cf->n_lines && cf->lines[k].line == n ? &cf->lines[k] : NULL, n, l, len);
        l += len + (e != NULL);
    }
    fputs("</pre>\n", f);
}

static int file_page(const fz_cov_file_t *cf, const char *path, int *missing)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return -1;
    fz_html_begin(f, cf->path);
    fputs("<p><a href=\"../index.html\">all files</a></p>\n", f);
    size_t slen;
    uint8_t *raw = fz_file_read(cf->path, 0, FZ_FILE_REGULAR, &slen);
    char *src = raw ? strndup((const char *)raw, slen) : NULL;
    free(raw);
    uint32_t last = cf->n_lines ? cf->lines[cf->n_lines - 1].line : 0;
    if (!src) {
        (*missing)++;
        fputs("<p class=\"note\">The source is not at this path any more (moved since the "
              "build?): counts by line number only.</p>\n",
              f);
    } else {
        uint32_t lines = 0;
        for (const char *q = src; *q; q++)
            lines += *q == '\n';
        if (lines + 1 < last)
            fputs("<p class=\"note\">The source is shorter than the build's line numbers: it "
                  "changed since the build, so marks may sit on the wrong lines.</p>\n",
                  f);
    }
    functions(f, cf);
    listing(f, cf, src);
    free(src);
    fz_html_end(f);
    return save(path, f, &buf, &len);
}

/* Length of the directory prefix all paths share ("/src/proj/"), so the
 * table shows "lib/a.c" rather than the same long prefix on every row. */
static size_t common_dir(const fz_cov_t *c)
{
    if (!c->n)
        return 0;
    size_t n = strlen(c->files[0].path);
    for (size_t i = 1; i < c->n; i++) {
        size_t k = 0;
        while (k < n && c->files[i].path[k] == c->files[0].path[k])
            k++;
        n = k;
    }
    while (n && c->files[0].path[n - 1] != '/')
        n--;
    return n;
}

static void index_rows(FILE *f, const fz_cov_t *c)
{
    fz_cov_sum_t all = {0};
    size_t skip = common_dir(c);
    if (skip) {
        fputs("<p>Sources under <code>", f);
        char *dir = strndup(c->files[0].path, skip);
        fz_html_escape(f, dir ? dir : "");
        free(dir);
        fputs("</code></p>\n", f);
    }
    fputs("<table><tr><th class=\"l\">file</th><th>lines</th><th></th><th>branches</th><th></th>"
          "<th>functions</th><th></th></tr>\n",
          f);
    for (size_t i = 0; i < c->n; i++) {
        fz_cov_sum_t s = fz_cov_file_sum(&c->files[i]);
        fprintf(f, "<tr><td class=\"l\"><a href=\"files/%zu.html\">", i);
        fz_html_escape(f, c->files[i].path + skip);
        fputs("</a></td>", f);
        sum_cells(f, &s, 1);
        fputs("</tr>\n", f);
        all.lines += s.lines, all.lines_hit += s.lines_hit, all.br += s.br;
        all.br_taken += s.br_taken, all.funcs += s.funcs, all.funcs_hit += s.funcs_hit;
    }
    fputs("<tr><th class=\"l\">total</th>", f);
    sum_cells(f, &all, 1);
    fputs("</tr></table>\n", f);
}

int fz_covpage_write(const fz_cov_t *c, const char *dir, const fz_covpage_info_t *info,
                     int *missing)
{
    char *p;
    if (asprintf(&p, "%s/files", dir) < 0)
        return -1;
    if (mkdir(p, 0755) && errno != EEXIST) {
        free(p);
        return -1;
    }
    free(p);
    for (size_t i = 0; i < c->n; i++) {
        if (asprintf(&p, "%s/files/%zu.html", dir, i) < 0)
            return -1;
        int rc = file_page(&c->files[i], p, missing);
        free(p);
        if (rc)
            return -1;
    }
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return -1;
    fz_html_begin(f, info->title);
    fputs("<p>Program: <code>", f);
    fz_html_escape(f, info->program);
    fputs("</code><br>Replayed: ", f);
    fz_html_escape(f, info->replayed);
    fputs("<br>Counts from: ", f);
    fz_html_escape(f, info->tool);
    fputs("</p>\n", f);
    if (info->note) {
        fputs("<p class=\"note\">", f);
        fz_html_escape(f, info->note);
        fputs("</p>\n", f);
    }
    index_rows(f, c);
    fputs("<p>Lines: lines with code that ran at least once. Branches: branch outcomes taken "
          "at least once. Functions: called at least once.</p>\n",
          f);
    fz_html_end(f);
    if (asprintf(&p, "%s/index.html", dir) < 0)
        return -1;
    int rc = save(p, f, &buf, &len);
    free(p);
    return rc;
}
