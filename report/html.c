/*
 * html.c - page frame, escaping and SVG line charts of the fz reports
 * (html.h).
 */
#include "report/html.h"

#include <math.h>
#include <string.h>

void fz_html_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* One small style sheet, inline: the page must stand alone. */
static const char *const STYLE =
    "body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;background:#fff}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
    "th{background:#f0f0f0}td.l,th.l{text-align:left}"
    ".charts{display:flex;flex-wrap:wrap;gap:12px}"
    ".chart{border:1px solid #ddd}"
    ".note{color:#a40}"
    ".bar{display:block;height:10px;background:#4a4}"
    ".barbg{display:inline-block;width:80px;height:10px;background:#e44;vertical-align:middle}"
    "pre.src{font:12px/1.35 monospace;border:1px solid #ddd;padding:0;overflow-x:auto}"
    "pre.src span{display:block;padding:0 6px;white-space:pre}"
    "pre.src .hit{background:#e6ffe6}pre.src .miss{background:#ffd6d6}"
    "pre.src .part{background:#fff3c0}"
    "pre.src i{font-style:normal;color:#888;display:inline-block;width:10ch;text-align:right;"
    "margin-right:1ch}";

void fz_html_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    fz_html_escape(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head><body>\n<h1>", STYLE);
    fz_html_escape(f, title);
    fputs("</h1>\n", f);
}

void fz_html_end(FILE *f)
{
    fputs("</body></html>\n", f);
}

void fz_html_num(FILE *f, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.2f", v);
}

/* The chart's geometry, in SVG user units. */
enum { W = 560, H = 280, ML = 64, MR = 16, MT = 30, MB = 58 };

static const char *const COLORS[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                     "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
#define N_COLORS (sizeof(COLORS) / sizeof(COLORS[0]))

/* A round tick step (1, 2 or 5 times a power of ten) giving about 5 ticks. */
static double nice_step(double range)
{
    if (range <= 0)
        return 1;
    double raw = range / 5, p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* The time axis unit that keeps its labels short. */
static double time_unit(double max_s, const char **name)
{
    if (max_s >= 3 * 86400) {
        *name = "days";
        return 86400;
    }
    if (max_s >= 3 * 3600) {
        *name = "h";
        return 3600;
    }
    if (max_s >= 180) {
        *name = "min";
        return 60;
    }
    *name = "s";
    return 1;
}

static void axes(FILE *f, double xmax, double ymin, double ymax, double ystep)
{
    const char *uname;
    double unit = time_unit(xmax, &uname);
    double xstep = nice_step(xmax / unit) * unit;
    int pw = W - ML - MR, ph = H - MT - MB;
    fprintf(f,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
            ML, MT, pw, ph);
    for (double y = ymin; y <= ymax + (ymax - ymin) * 0.0001; y += ystep) {
        double py = MT + ph - (y - ymin) / (ymax - ymin) * ph;
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", ML,
                ML + pw, py, py);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">", ML - 4,
                py + 4);
        fz_html_num(f, y);
        fputs("</text>\n", f);
    }
    for (double x = 0; x <= xmax * 1.0001; x += xstep) {
        double px = ML + x / xmax * pw;
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\"/>", px, px,
                MT + ph, MT + ph + 4);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">", px,
                MT + ph + 16);
        fz_html_num(f, x / unit);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">time (%s)</text>\n",
            ML + pw / 2, MT + ph + 30, uname);
}

/* The rows of a series that are drawn: all, or FZ_SVG_MAX_POINTS evenly
 * spaced ones including the last. */
static size_t point_row(size_t n, size_t k, size_t shown)
{
    if (shown == n)
        return k;
    return k == shown - 1 ? n - 1 : k * (n - 1) / (shown - 1);
}

static void series(FILE *f, const fz_svg_series_t *s, const char *color, double xmax,
                   double ymin, double ymax)
{
    int pw = W - ML - MR, ph = H - MT - MB;
    size_t shown = s->n > FZ_SVG_MAX_POINTS ? FZ_SVG_MAX_POINTS : s->n;
    fputs("<polyline class=\"series\" data-name=\"", f);
    fz_html_escape(f, s->name);
    fputs("\" data-x=\"", f);
    for (size_t k = 0; k < shown; k++) {
        fputs(k ? " " : "", f);
        fz_html_num(f, s->x[point_row(s->n, k, shown)]);
    }
    fputs("\" data-y=\"", f);
    for (size_t k = 0; k < shown; k++) {
        fputs(k ? " " : "", f);
        fz_html_num(f, s->y[point_row(s->n, k, shown)]);
    }
    fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s points=\"", color,
            s->dashed ? " stroke-dasharray=\"5,3\"" : "");
    for (size_t k = 0; k < shown; k++) {
        size_t i = point_row(s->n, k, shown);
        fprintf(f, "%s%.1f,%.1f", k ? " " : "", ML + s->x[i] / xmax * pw,
                MT + ph - (s->y[i] - ymin) / (ymax - ymin) * ph);
    }
    fputs("\"/>\n", f);
    if (s->n == 1)
        fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
                ML + s->x[0] / xmax * pw, MT + ph - (s->y[0] - ymin) / (ymax - ymin) * ph, color);
}

/* Three entries per row under the plot; the picture grows by a row for
 * every three more series. */
static void legend(FILE *f, const fz_svg_chart_t *c)
{
    for (size_t i = 0; i < c->n_series; i++) {
        const fz_svg_series_t *s = &c->series[i];
        int x = ML - 40 + (int)(i % 3) * 170, y = H - 14 + (int)(i / 3) * 16;
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, y - 9,
                COLORS[i % N_COLORS]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x + 13, y);
        fz_html_escape(f, s->name);
        fputs(": ", f);
        if (s->n)
            fz_html_num(f, s->y[s->n - 1]);
        else
            fputs("no data", f);
        fprintf(f, "%s%s</text>\n", c->y_unit[0] ? " " : "", c->y_unit);
    }
}

void fz_svg_chart(FILE *f, const fz_svg_chart_t *c)
{
    double xmax = 0, ymax = 0, dmin = INFINITY;
    int whole = 1; /* counts: ticks at whole numbers only */
    for (size_t i = 0; i < c->n_series; i++)
        for (size_t k = 0; k < c->series[i].n; k++) {
            xmax = fmax(xmax, c->series[i].x[k]);
            ymax = fmax(ymax, c->series[i].y[k]);
            dmin = fmin(dmin, c->series[i].y[k]);
            whole &= c->series[i].y[k] == floor(c->series[i].y[k]);
        }
    if (xmax <= 0)
        xmax = 1;
    double ymin = 0;
    if (c->y_from_data && dmin > 0 && dmin < INFINITY) {
        /* Round ticks over the data's own range, starting one step below
         * its minimum when that is above 0 (a flat series gets a range of
         * its own: its value is the top of one step). */
        double ystep = nice_step(ymax > dmin ? ymax - dmin : fmax(dmin, 1) / 5);
        if (whole && ystep < 1)
            ystep = 1;
        ymin = floor(dmin / ystep) * ystep;
        if (ymin >= dmin)
            ymin -= ystep;
        if (ymin < 0)
            ymin = 0;
    }
    double ystep = nice_step(ymax > ymin ? ymax - ymin : 1);
    if (whole && ystep < 1)
        ystep = 1;
    if (ymin > 0)
        ymin = floor(ymin / ystep) * ystep;
    ymax = ymax > ymin ? ymin + ceil((ymax - ymin) / ystep) * ystep : ymin + ystep * 5;
    if ((ymax - ymin) / ystep < 2 && !whole)
        ystep = (ymax - ymin) / 2;
    int h = H + (c->n_series > 3 ? (int)((c->n_series - 1) / 3) * 16 : 0);
    fprintf(f,
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-title=\"",
            W, h, W, h);
    fz_html_escape(f, c->title);
    fputs("\">\n<title>", f);
    fz_html_escape(f, c->title);
    fprintf(f, "</title>\n<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", ML);
    fz_html_escape(f, c->title);
    fputs("</text>\n", f);
    axes(f, xmax, ymin, ymax, ystep);
    for (size_t i = 0; i < c->n_series; i++)
        if (c->series[i].n)
            series(f, &c->series[i], COLORS[i % N_COLORS], xmax, ymin, ymax);
    legend(f, c);
    fputs("</svg>\n", f);
}
