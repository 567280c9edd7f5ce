/*
 * cov.h - source coverage of a replayed campaign, per file, line and
 * function, read from the compilers' own tools: gcov's JSON
 * (`gcov --json-format --stdout`, GCC >= 9) for `gcc --coverage` builds,
 * and LLVM's lcov export (`llvm-cov export -format=lcov`) for clang
 * `-fprofile-instr-generate -fcoverage-mapping` builds.  Pure: the caller
 * runs the tools and hands over their text.
 */
#ifndef FZ_REPORT_COV_H
#define FZ_REPORT_COV_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t line;
    uint64_t count;    /* times the line ran (summed over the units that hold it) */
    uint32_t br_total; /* branch outcomes on the line */
    uint32_t br_taken; /* of them, taken at least once */
} fz_cov_line_t;

typedef struct {
    char *name;          /* as the tool names it (demangled when it can) */
    uint32_t start, end; /* lines; end 0 when the tool does not say (lcov) */
    uint64_t calls;
} fz_cov_func_t;

typedef struct {
    char *path; /* as the build recorded it, made absolute when the tool gives a cwd */
    fz_cov_line_t *lines;
    size_t n_lines, cap_lines;
    fz_cov_func_t *funcs;
    size_t n_funcs, cap_funcs;
} fz_cov_file_t;

typedef struct {
    fz_cov_file_t *files;
    size_t n, cap;
} fz_cov_t;

/* Totals of a file (or of lines start..end of it when end != 0). */
typedef struct {
    uint32_t lines, lines_hit, br, br_taken, funcs, funcs_hit;
} fz_cov_sum_t;

/* Adds the files of gcov's JSON output (one document per data file, as
 * `gcov --json-format --stdout a.gcda b.gcda` prints them).  Returns 0 or
 * -1 with err. */
int fz_cov_read_gcov_json(fz_cov_t *c, const char *text, char *err, size_t errlen);

/* Adds the records of an lcov tracefile (SF/FN/FNDA/DA/BRDA lines). */
int fz_cov_read_lcov(fz_cov_t *c, const char *text, char *err, size_t errlen);

/* Sorts files by path and lines by number; fills function end lines the
 * tool left out (up to the line before the next function). */
void fz_cov_finish(fz_cov_t *c);

fz_cov_sum_t fz_cov_file_sum(const fz_cov_file_t *f);
fz_cov_sum_t fz_cov_range_sum(const fz_cov_file_t *f, uint32_t start, uint32_t end);

void fz_cov_free(fz_cov_t *c);

#endif
