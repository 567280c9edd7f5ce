/*
 * html.h - the few pieces every fz report page shares: escaping, one page
 * frame with its inline style sheet, and line charts drawn as inline SVG.
 * The pages need no network, no JavaScript and no other file: fz-plot's and
 * fz-cov's index.html open as they are from a CI artifact.
 */
#ifndef FZ_REPORT_HTML_H
#define FZ_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Writes s with &, <, >, " escaped. */
void fz_html_escape(FILE *f, const char *s);

/* Opens a page: doctype, title (escaped), style sheet, <body>, <h1>. */
void fz_html_begin(FILE *f, const char *title);
void fz_html_end(FILE *f);

/* One line of a chart: n points (x[i], y[i]), x ascending. */
typedef struct {
    const char *name;
    const double *x, *y;
    size_t n;
    int dashed; /* drawn dashed (the total of several instances) */
} fz_svg_series_t;

typedef struct {
    const char *title;  /* "edges found" */
    const char *y_unit; /* shown after the last value, "" for none */
    const fz_svg_series_t *series;
    size_t n_series;
    int y_from_data; /* the y axis starts at a round number at or below the data's
                        minimum instead of 0 (a count that only grows from a
                        large start, such as edges) */
} fz_svg_chart_t;

/* At most this many points of a series are drawn; a longer series is
 * thinned to evenly spaced rows that keep its first and last point (a
 * week of plot_data at 5 s has 120,000 rows, more than a 560-pixel-wide
 * chart can show). */
#define FZ_SVG_MAX_POINTS 1000

/* Draws one chart as an inline <svg> with axes, ticks in round numbers, a
 * legend holding each series' last value, and one <polyline> per series
 * (a series of one point also gets a dot: a one-point line is invisible).
 * Each polyline carries data-name, data-x and data-y: the numbers it was
 * drawn from, so a reader (or a test) can check the picture against its
 * source.  The time axis (x, seconds) is labelled in s, min, h or days. */
void fz_svg_chart(FILE *f, const fz_svg_chart_t *c);

/* A number for people: integers without decimals, others with two. */
void fz_html_num(FILE *f, double v);

#endif
