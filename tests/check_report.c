/*
 * check_report.c - the report library: plot_data formats (AFL++ 4, AFL 2
 * with unix times, headerless, truncated, empty), the JSON reader, the
 * coverage model from gcov's JSON and from an lcov export, and the SVG
 * chart's promise that each line carries exactly the numbers it was drawn
 * from.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cov.h"
#include "report/html.h"
#include "report/json.h"
#include "report/plotdata.h"
#include "tests/check-run.h"

static const char AFLPP4[] =
    "# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, "
    "map_size, saved_crashes, saved_hangs, max_depth, execs_per_sec, total_execs, edges_found\n"
    "0, 0, 0, 2, 2, 0, 9.38%, 0, 0, 1, 4000.00, 8, 6\n"
    "5, 5, 3, 13, 0, 0, 28.12%, 1, 0, 5, 8609.56, 20000, 18\n";

START_TEST(test_plot_aflpp4)
{
    fz_plot_t p;
    char err[128];
    ck_assert_int_eq(fz_plot_parse(AFLPP4, strlen(AFLPP4), &p, err, sizeof err), 0);
    ck_assert_uint_eq(p.rows, 2);
    ck_assert(p.col[FZ_PLOT_TIME][1] == 5);
    ck_assert(p.col[FZ_PLOT_CORPUS][1] == 13);
    ck_assert(p.col[FZ_PLOT_EDGES][1] == 18);
    ck_assert(p.col[FZ_PLOT_MAP][0] == 9.38);
    ck_assert(p.col[FZ_PLOT_EPS][1] == 8609.56);
    ck_assert_uint_eq(p.bad_lines, 0);
    fz_plot_free(&p);
    /* The same rows without the header: taken by their 13 fields. */
    const char *rows = strchr(AFLPP4, '\n') + 1;
    ck_assert_int_eq(fz_plot_parse(rows, strlen(rows), &p, err, sizeof err), 0);
    ck_assert(p.col[FZ_PLOT_EDGES][0] == 6);
    fz_plot_free(&p);
}
END_TEST

START_TEST(test_plot_afl2_truncated)
{
    const char *t = "# unix_time, cycles_done, cur_path, paths_total, pending_total, pending_favs, "
                    "map_size, unique_crashes, unique_hangs, max_depth, execs_per_sec\n"
                    "1500000000, 0, 0, 2, 2, 0, 1.00%, 0, 0, 1, 100.00\n"
                    "1500000005, 1, 1, 3, 1, 0, 2.00%, 1, 0, 2, 200.00\n"
                    "garbage line\n"
                    "1500000010, 1, 1, 3";
    fz_plot_t p;
    char err[128];
    ck_assert_int_eq(fz_plot_parse(t, strlen(t), &p, err, sizeof err), 0);
    ck_assert_uint_eq(p.rows, 2);
    ck_assert_uint_eq(p.bad_lines, 2); /* the garbage and the unfinished last line */
    ck_assert(p.unix_start == 1500000000);
    ck_assert(p.col[FZ_PLOT_TIME][1] == 5);
    ck_assert(p.col[FZ_PLOT_CRASHES][1] == 1);
    ck_assert_ptr_null(p.col[FZ_PLOT_EDGES]);
    ck_assert_ptr_null(p.col[FZ_PLOT_EXECS]);
    fz_plot_free(&p);
}
END_TEST

START_TEST(test_plot_empty)
{
    fz_plot_t p;
    char err[128];
    ck_assert_int_eq(fz_plot_parse("", 0, &p, err, sizeof err), -1);
    ck_assert_str_eq(err, "empty file");
    const char *hdr = "# relative_time, cycles_done\n";
    ck_assert_int_eq(fz_plot_parse(hdr, strlen(hdr), &p, err, sizeof err), -1);
    ck_assert_str_eq(err, "no data rows yet");
    ck_assert_int_eq(fz_plot_parse("1, 2, 3\n", 8, &p, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "1 line(s) skipped"));
    /* A garbage first line (issue 26) is skipped and counted; the rows
     * after it still chart. */
    const char *g = "garbage!!\n"
                    "1, 0, 0, 1, 0, 0.0%, 0, 0, 0, 0, 100.0\n"
                    "2, 0, 0, 1, 0, 0.0%, 0, 0, 0, 0, 150.0\n";
    ck_assert_int_eq(fz_plot_parse(g, strlen(g), &p, err, sizeof err), 0);
    ck_assert_uint_eq(p.rows, 2);
    ck_assert_uint_eq(p.bad_lines, 1);
    fz_plot_free(&p);
}
END_TEST

START_TEST(test_json)
{
    const char *t = " {\"a\": [1, -2.5e1, true, null], \"s\": \"x\\\"y\\u00e9\\n\", \"o\": {}}";
    fz_json_t v;
    ck_assert_int_eq(fz_json_parse(&t, &v), 0);
    ck_assert_int_eq(v.type, FZ_JSON_OBJ);
    const fz_json_t *a = fz_json_get(&v, "a");
    ck_assert_uint_eq(a->n, 4);
    ck_assert(a->kids[1].num == -25);
    ck_assert_int_eq(a->kids[2].type, FZ_JSON_BOOL);
    ck_assert_int_eq(a->kids[3].type, FZ_JSON_NULL);
    ck_assert_str_eq(fz_json_str(&v, "s"), "x\"y\xc3\xa9\n");
    ck_assert_uint_eq(fz_json_get(&v, "o")->n, 0);
    ck_assert(fz_json_num(&v, "missing", 7) == 7);
    fz_json_free(&v);
    const char *bad = "{\"a\": [1, 2";
    ck_assert_int_eq(fz_json_parse(&bad, &v), -1);
    fz_json_free(&v);
}
END_TEST

/* Two units holding the same header line: counts and branches add up. */
START_TEST(test_cov_gcov_json)
{
    const char *t =
        "{\"current_working_directory\": \"/b\", \"files\": [{\"file\": \"a.c\", \"functions\": "
        "[{\"name\": \"f\", \"demangled_name\": \"f\", \"start_line\": 1, \"end_line\": 4, "
        "\"execution_count\": 3}], \"lines\": [{\"line_number\": 2, \"count\": 3, \"branches\": "
        "[{\"count\": 3, \"throw\": false}, {\"count\": 0, \"throw\": false}, {\"count\": 1, "
        "\"throw\": true}]}, {\"line_number\": 3, \"count\": 0, \"branches\": []}]}, "
        "{\"file\": \"/i/h.h\", \"functions\": [], \"lines\": [{\"line_number\": 5, \"count\": 1, "
        "\"branches\": []}]}]}\n"
        "{\"current_working_directory\": \"/b\", \"files\": [{\"file\": \"/i/h.h\", \"functions\": "
        "[], \"lines\": [{\"line_number\": 5, \"count\": 2, \"branches\": []}]}]}\n";
    fz_cov_t c = {0};
    char err[128];
    ck_assert_int_eq(fz_cov_read_gcov_json(&c, t, err, sizeof err), 0);
    fz_cov_finish(&c);
    ck_assert_uint_eq(c.n, 2);
    ck_assert_str_eq(c.files[0].path, "/b/a.c");
    ck_assert_str_eq(c.files[1].path, "/i/h.h");
    fz_cov_sum_t s = fz_cov_file_sum(&c.files[0]);
    ck_assert_uint_eq(s.lines, 2);
    ck_assert_uint_eq(s.lines_hit, 1);
    ck_assert_uint_eq(s.br, 2); /* the exception edge is not counted, as gcov -b */
    ck_assert_uint_eq(s.br_taken, 1);
    ck_assert_uint_eq(s.funcs_hit, 1);
    ck_assert_uint_eq(c.files[1].lines[0].count, 3);
    fz_cov_free(&c);
    ck_assert_int_eq(fz_cov_read_gcov_json(&c, "{\"files\": [", err, sizeof err), -1);
    fz_cov_free(&c);
}
END_TEST

START_TEST(test_cov_lcov)
{
    const char *t = "TN:\nSF:/s/x.c\nFN:3,main\nFN:10,g\nFNDA:1,main\nFNDA:0,g\nDA:3,1\nDA:4,1\n"
                    "DA:10,0\nDA:11,0\nBRDA:4,0,0,1\nBRDA:4,0,1,0\nBRDA:11,0,0,-\nend_of_record\n";
    fz_cov_t c = {0};
    char err[128];
    ck_assert_int_eq(fz_cov_read_lcov(&c, t, err, sizeof err), 0);
    fz_cov_finish(&c);
    ck_assert_uint_eq(c.n, 1);
    fz_cov_sum_t s = fz_cov_file_sum(&c.files[0]);
    ck_assert_uint_eq(s.lines, 4);
    ck_assert_uint_eq(s.lines_hit, 2);
    ck_assert_uint_eq(s.br, 3);
    ck_assert_uint_eq(s.br_taken, 1);
    ck_assert_uint_eq(s.funcs, 2);
    ck_assert_uint_eq(s.funcs_hit, 1);
    /* lcov gives no end line: main runs up to the line before g. */
    ck_assert_uint_eq(c.files[0].funcs[0].end, 9);
    ck_assert_uint_eq(c.files[0].funcs[1].end, 11);
    fz_cov_sum_t m = fz_cov_range_sum(&c.files[0], 3, 9);
    ck_assert_uint_eq(m.lines_hit, 2);
    fz_cov_free(&c);
}
END_TEST

static char *chart_from(const double *x, const double *y, size_t n, int from_data)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    fz_svg_series_t s = {"a<b", x, y, n, 0};
    fz_svg_chart_t c = {"t", "", &s, 1, from_data};
    fz_svg_chart(f, &c);
    fclose(f);
    char *copy = strdup(buf); /* GCC 12 takes open_memstream's buffer for a local */
    free(buf);
    return copy;
}

static char *chart(const double *x, const double *y, size_t n)
{
    return chart_from(x, y, n, 0);
}

/* Issue 23: the edges chart's y axis starts near the data, not at 0; a
 * series of one row is drawn as a dot. */
START_TEST(test_svg_axis_and_point)
{
    double x[] = {0, 5, 10}, y[] = {247, 250, 260};
    char *svg = chart_from(x, y, 3, 1);
    ck_assert_msg(strstr(svg, "text-anchor=\"end\" font-size=\"11\">245<"), "%s", svg);
    ck_assert_ptr_null(strstr(svg, "text-anchor=\"end\" font-size=\"11\">0<"));
    free(svg);
    svg = chart_from(x, y, 3, 0); /* the other charts still start at 0 */
    ck_assert_ptr_nonnull(strstr(svg, "text-anchor=\"end\" font-size=\"11\">0<"));
    ck_assert_ptr_null(strstr(svg, "<circle"));
    free(svg);
    double x1[] = {3}, y1[] = {81};
    svg = chart_from(x1, y1, 1, 1);
    ck_assert_msg(strstr(svg, "<circle class=\"point\""), "%s", svg);
    ck_assert_ptr_null(strstr(svg, "nan"));
    free(svg);
    double z[] = {0};
    svg = chart_from(x1, z, 1, 1); /* a zero value: the axis from 0 */
    ck_assert_ptr_nonnull(strstr(svg, "<circle class=\"point\""));
    ck_assert_ptr_null(strstr(svg, "nan"));
    free(svg);
}
END_TEST

START_TEST(test_svg_numbers)
{
    double x[] = {0, 5, 10}, y[] = {1, 2.5, 7};
    char *svg = chart(x, y, 3);
    ck_assert_ptr_nonnull(strstr(svg, "data-name=\"a&lt;b\" data-x=\"0 5 10\" data-y=\"1 2.50 7\""));
    ck_assert_ptr_null(strstr(svg, "<script"));
    free(svg);
    /* A long series is thinned to FZ_SVG_MAX_POINTS, first and last kept. */
    size_t n = 5000;
    double *bx = malloc(n * sizeof *bx), *by = malloc(n * sizeof *by);
    for (size_t i = 0; i < n; i++)
        bx[i] = (double)i, by[i] = (double)(i * 2);
    svg = chart(bx, by, n);
    char *dy = strstr(svg, "data-y=\"");
    ck_assert_ptr_nonnull(dy);
    size_t points = 1;
    for (char *p = dy + 8; *p != '"'; p++)
        points += *p == ' ';
    ck_assert_uint_eq(points, FZ_SVG_MAX_POINTS);
    ck_assert(strncmp(dy, "data-y=\"0 ", 10) == 0);
    ck_assert_ptr_nonnull(strstr(dy, " 9998\""));
    free(svg);
    free(bx);
    free(by);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_plot_aflpp4);
    tcase_add_test(tc, test_plot_afl2_truncated);
    tcase_add_test(tc, test_plot_empty);
    tcase_add_test(tc, test_json);
    tcase_add_test(tc, test_cov_gcov_json);
    tcase_add_test(tc, test_cov_lcov);
    tcase_add_test(tc, test_svg_numbers);
    tcase_add_test(tc, test_svg_axis_and_point);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
