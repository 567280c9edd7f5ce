/*
 * covpage.h - fz-cov's HTML report: REPORT_DIR/index.html (per file:
 * lines, branches and functions reached) and one page per source file,
 * REPORT_DIR/files/N.html (its functions, then the source with each line's
 * count, unreached lines marked).
 */
#ifndef FZ_REPORT_COVPAGE_H
#define FZ_REPORT_COVPAGE_H

#include "report/cov.h"

typedef struct {
    const char *title;    /* "fz-cov: out" */
    const char *program;  /* the coverage build */
    const char *replayed; /* "312 inputs (300 queue, 12 crashes) from 2 instances" */
    const char *tool;     /* "gcov 12.2.0" / "llvm-cov" */
    const char *note;     /* a warning shown at the top (mismatch), or NULL */
} fz_covpage_info_t;

/* Writes the pages (each atomically).  A source file that cannot be read
 * (moved since the build) gets its counts by line number and a note; its
 * path is added to *missing (a count).  Returns 0 or -1 with errno. */
int fz_covpage_write(const fz_cov_t *c, const char *dir, const fz_covpage_info_t *info,
                     int *missing);

#endif
