/*
 * plotdata.h - reading plot_data as fz-fuzz and afl-fuzz write it.  Pure:
 * the caller reads the file; this turns its text into columns.
 *
 * Formats understood, by their header line (columns are found by name, so
 * order and extra columns do not matter):
 *   AFL++ 4.x / fz:  # relative_time, cycles_done, cur_item, corpus_count,
 *                    pending_total, pending_favs, map_size, saved_crashes,
 *                    saved_hangs, max_depth, execs_per_sec, total_execs,
 *                    edges_found
 *   AFL++ 3.x:       the same with cur_path, paths_total, unique_crashes,
 *                    unique_hangs
 *   AFL 2.x:         # unix_time, cycles_done, cur_path, paths_total, ...
 *                    execs_per_sec  (absolute times, no total_execs and no
 *                    edges_found)
 * A file without a header is taken by its number of fields (13: AFL++ 4,
 * 11: AFL 2).  Lines that do not parse (a truncated last line of a file
 * being written, garbage) are skipped and counted.
 */
#ifndef FZ_REPORT_PLOTDATA_H
#define FZ_REPORT_PLOTDATA_H

#include <stddef.h>

typedef enum {
    FZ_PLOT_TIME,    /* seconds since the instance started */
    FZ_PLOT_CYCLES,  /* cycles_done */
    FZ_PLOT_CORPUS,  /* corpus_count / paths_total */
    FZ_PLOT_PENDING, /* pending_total */
    FZ_PLOT_MAP,     /* map_size, percent of the map */
    FZ_PLOT_CRASHES, /* saved_crashes / unique_crashes */
    FZ_PLOT_HANGS,   /* saved_hangs / unique_hangs */
    FZ_PLOT_EPS,     /* execs_per_sec */
    FZ_PLOT_EXECS,   /* total_execs */
    FZ_PLOT_EDGES,   /* edges_found */
    FZ_PLOT_NCOLS
} fz_plot_col_t;

typedef struct {
    size_t rows;
    double *col[FZ_PLOT_NCOLS]; /* col[c][row]; NULL for a column the file lacks */
    double unix_start;          /* AFL 2.x files: the first row's unix time; else 0 */
    size_t bad_lines;           /* lines skipped */
    int has_header;
} fz_plot_t;

/* Parses text[0..len) into p.  Returns 0, or -1 with a reason in err when
 * the text holds no usable row (empty, header only, unknown format). */
int fz_plot_parse(const char *text, size_t len, fz_plot_t *p, char *err, size_t errlen);

void fz_plot_free(fz_plot_t *p);

/* The column's name as AFL++ 4.x writes it, for messages. */
const char *fz_plot_col_name(fz_plot_col_t c);

#endif
