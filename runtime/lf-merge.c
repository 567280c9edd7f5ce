/*
 * lf-merge.c - `-merge=1 OUT IN...`, in process and crash-resistant: an
 * inner process runs the files of OUT, then those of IN smallest first,
 * and reports each file's new features; a file that kills it is skipped
 * and a new inner process goes on after it.  Files of IN that add
 * features are copied into OUT under their SHA-1.
 *
 * -merge_control_file=F keeps the merge's progress in F as it goes: the
 * file list, then a line per file started and per file done.  A merge that
 * was killed resumes from F when it is run again with the same files, as
 * libFuzzer's does: the files done are not run again (those kept run
 * silently first, for their coverage), and the file it was killed on is
 * skipped as "unlucky".  F written for other files is started afresh.
 *
 *   N                 files
 *   M                 of them in the initial corpus (OUT)
 *   PATH              N lines, in merge order
 *   STARTED I
 *   DONE I F E        file I added F features and E edges (F > 0: kept)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-config.h"
#include "runtime/lf-corpus.h"
#include "runtime/lf-merge.h"
#include "runtime/lf-run.h"
#include "runtime/lf-util.h"

/* The merge: its files (OUT's first, then IN's, each smallest first), and
 * per file what it added. */
typedef struct {
    lf_file_t *v;
    size_t n, initial;
    uint8_t *mark;      /* 1: kept, 2: done */
    size_t *ft, *edges; /* per file: features and edges it added */
    FILE *cf;           /* the control file, appended to as files are done */
} lf_merge_t;

/* Reads an earlier run's control file for the same files; returns the
 * first file not yet done, 0 to start afresh; *unlucky the file it
 * stumbled on (skipped now), or -1. */
static size_t mcf_resume(lf_merge_t *m, const char *path, long *unlucky)
{
    struct stat sb;
    *unlucky = -1;
    FILE *f = stat(path, &sb) == 0 && sb.st_size > 0 ? fopen(path, "r") : NULL;
    if (!f)
        return 0;
    fprintf(stderr, "MERGE-OUTER: non-empty control file provided: '%s'\n", path);
    char line[8192];
    size_t n = 0, initial = 0, i = 0, done = 0;
    long started = -1;
    int ok = fgets(line, sizeof line, f) && sscanf(line, "%zu", &n) == 1 && n == m->n &&
         fgets(line, sizeof line, f) && sscanf(line, "%zu", &initial) == 1 &&
         initial == m->initial;
    for (i = 0; ok && i < n; i++) {
        ok = fgets(line, sizeof line, f) != NULL;
        line[strcspn(line, "\n")] = 0;
        ok = ok && strcmp(line, m->v[i].path) == 0;
    }
    while (ok && fgets(line, sizeof line, f)) {
        size_t k, ft, e;
        if (sscanf(line, "STARTED %zu", &k) == 1 && k < n) {
            started = (long)k;
        } else if (sscanf(line, "DONE %zu %zu %zu", &k, &ft, &e) == 3 && k < n) {
            m->mark[k] = (uint8_t)(2 | (k >= initial && ft > 0));
            m->ft[k] = ft;
            m->edges[k] = e;
            started = -1;
        }
    }
    fclose(f);
    if (!ok) {
        memset(m->mark, 0, m->n);
        fprintf(stderr, "MERGE-OUTER: the control file %s is for other files; starting afresh\n",
                path);
        return 0;
    }
    while (done < n && (m->mark[done] & 2))
        done++;
    fprintf(stderr, "MERGE-OUTER: control file ok, %zu files total, first not processed file %zu\n",
            n, done);
    if (started >= 0 && (size_t)started == done) {
        fprintf(stderr, "MERGE-OUTER: '%s' will be skipped as unlucky (merge has stumbled on it "
                        "the last time)\n", m->v[done].path);
        m->mark[done] = 2;
        *unlucky = (long)done++;
    }
    if (done >= n)
        fprintf(stderr, "MERGE-OUTER: nothing to do, merge has been completed before\n");
    return done;
}

/* Starts a fresh control file (the file list) or, resuming, appends to
 * the one there; m->cf stays NULL without -merge_control_file. */
static void mcf_open(lf_merge_t *m, const char *path, int resume)
{
    if (!path)
        return;
    if (!resume) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (mem) {
            fprintf(mem, "%zu\n%zu\n", m->n, m->initial);
            for (size_t i = 0; i < m->n; i++)
                fprintf(mem, "%s\n", m->v[i].path);
            fclose(mem);
        }
        int bad = !mem || __fz_lf_write_atomic(path, (const uint8_t *)text, len) != 0;
        free(text);
        if (bad) {
            fprintf(stderr, "WARNING: cannot write -merge_control_file=%s: %s\n", path,
                    strerror(errno));
            return;
        }
    }
    m->cf = fopen(path, "a");
}

/* One progress line; flushed at once, so a killed merge leaves it. */
__attribute__((format(printf, 2, 3))) static void mcf_note(lf_merge_t *m, const char *fmt, ...)
{
    if (!m->cf)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(m->cf, fmt, ap);
    va_end(ap);
    fflush(m->cf);
}

/* The inner process: runs the files from `from` on, each after telling
 * the outer one it started it ("S i"), then reports what it added ("R i
 * features edges"); the files before `from` that were kept (initial ones
 * and those marked kept) run silently first, so the coverage seen so far
 * is the outer one's.  A file that kills the process is the last one
 * started.  The control file gets the same news from here, before the
 * outer process reads it, so that a merge killed as a whole (outer and
 * inner) leaves every file it finished in it. */
static void merge_inner(lf_merge_t *m, size_t from, int fd) LF_FRAME(10, MergeInner);
static void merge_inner(lf_merge_t *m, size_t from, int fd)
{
    FILE *out = fdopen(fd, "w");
    if (!out)
        _exit(1);
    setvbuf(out, NULL, _IOLBF, 0);
    __fz_lf_rss_thread();
    for (size_t i = 0; i < m->n; i++) {
        if (i < from && !(i < m->initial || (m->mark[i] & 1)))
            continue;
        size_t len = 0, edges = 0;
        uint8_t *buf = __fz_lf_read_file(m->v[i].path, &len);
        if (!buf)
            len = 0;
        if (i >= from) {
            mcf_note(m, "STARTED %zu\n", i);
            fprintf(out, "S %zu\n", i);
        }
        size_t f = __fz_lf_execute(buf ? buf : (const uint8_t *)"", len, &edges);
        if (i >= from) {
            int counts = i >= m->initial && f > 0;
            mcf_note(m, "DONE %zu %zu %zu\n", i, counts ? f : 0, counts ? edges : 0);
            fprintf(out, "R %zu %zu %zu\n", i, f, edges);
        }
        free(buf);
    }
    fprintf(out, "D %zu %zu\n", __fz_lf_cov(), __fz_lf_ft());
    fclose(out);
    if (m->cf)
        fclose(m->cf);
    exit(0); /* a normal exit: a coverage build writes its profile */
}

/* One inner process from file `from` on; what it reports goes into m.  Returns the file that ended it (-1: none), and
 * *status its exit status; cov/ft its totals when it finished. */
static long merge_attempt(lf_merge_t *m, size_t from, int *status, size_t *cov, size_t *ft)
{
    int p[2];
    if (pipe(p) != 0) {
        *status = -1;
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        fprintf(stderr, "MERGE-INNER: %zu total files; %zu processed earlier; will process "
                        "%zu files now\n", m->n, from, m->n - from);
        merge_inner(m, from, p[1]);
    }
    close(p[1]);
    FILE *in = pid > 0 ? fdopen(p[0], "r") : NULL;
    char line[128];
    long started = -1;
    while (in && fgets(line, sizeof line, in)) {
        size_t i, f, e;
        if (sscanf(line, "S %zu", &i) == 1 && i < m->n) {
            started = (long)i;
        } else if (sscanf(line, "R %zu %zu %zu", &i, &f, &e) == 3 && i < m->n) {
            m->mark[i] |= 2;
            started = -1;
            if (i >= m->initial && f > 0) {
                m->mark[i] |= 1;
                m->ft[i] = f;
                m->edges[i] = e;
            }
        } else if (sscanf(line, "D %zu %zu", &f, &e) == 2) {
            *cov = f;
            *ft = e;
        }
    }
    if (in)
        fclose(in);
    else
        close(p[0]);
    *status = pid > 0 ? __fz_lf_wait_status(pid) : -1;
    return started;
}

/* The files of the directories in merge order: OUT's, then IN's, each
 * smallest first (as libFuzzer prefers); NULL if out of memory. */
static lf_file_t *merge_files(const lf_opts_t *o, size_t *n, size_t *initial)
{
    size_t rest;
    lf_file_t *a = __fz_lf_collect(o->dirs, 1, initial, 0);
    lf_file_t *b = __fz_lf_collect(o->dirs + 1, o->n_dirs - 1, &rest, 0);
    *n = *initial + rest;
    lf_file_t *v = malloc((*n ? *n : 1) * sizeof *v);
    if (v && *initial)
        memcpy(v, a, *initial * sizeof *v);
    if (v && rest)
        memcpy(v + *initial, b, rest * sizeof *v);
    free(a);
    free(b);
    return v;
}

static int merge_check(const lf_opts_t *o)
{
    if (o->n_dirs < 2) {
        fprintf(stderr, "ERROR: -merge=1 needs the corpus to merge into and at least one "
                        "directory to merge from: -merge=1 CORPUS NEW_DIR...\n");
        return 1;
    }
    for (int d = 0; d < o->n_dirs; d++)
        if (!__fz_lf_is_dir(o->dirs[d])) {
            fprintf(stderr, "No such file or directory: %s; exiting\n", o->dirs[d]);
            return 1;
        }
    if (access(o->dirs[0], W_OK | X_OK) != 0) {
        fprintf(stderr, "ERROR: the corpus directory \"%s\" is not writable (%s)\n", o->dirs[0],
                strerror(errno));
        return 1;
    }
    return 0;
}

int __fz_lf_merge(const lf_opts_t *o)
{
    if (merge_check(o))
        return 1;
    lf_merge_t m = {0};
    m.v = merge_files(o, &m.n, &m.initial);
    m.mark = calloc(m.n ? m.n : 1, 1);
    m.ft = calloc(m.n ? m.n : 1, sizeof *m.ft);
    m.edges = calloc(m.n ? m.n : 1, sizeof *m.edges);
    if (!m.v || !m.mark || !m.ft || !m.edges)
        return 1;
    long unlucky = -1;
    size_t from = o->merge_control_file ? mcf_resume(&m, o->merge_control_file, &unlucky) : 0;
    fprintf(stderr, "MERGE-OUTER: %zu files, %zu in the initial corpus, %zu processed earlier\n",
            m.n, m.initial, from);
    mcf_open(&m, o->merge_control_file, from > 0);
    if (unlucky >= 0)
        mcf_note(&m, "DONE %ld 0 0\n", unlucky);
    size_t cov = 0, ft = 0;
    int attempt = 0, ok = 0;
    while (!ok) {
        fprintf(stderr, "MERGE-OUTER: attempt %d\n", ++attempt);
        int status;
        long started = merge_attempt(&m, from, &status, &cov, &ft);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && started < 0) {
            ok = 1;
        } else if (started >= 0) {
            fprintf(stderr, "MERGE-OUTER: '%s' ends the inner process; skipping it\n",
                    m.v[started].path);
            m.mark[started] |= 2;
            mcf_note(&m, "DONE %ld 0 0\n", started);
            from = (size_t)started + 1;
        } else {
            fprintf(stderr, "ERROR: the merge's inner process failed (status %d)\n", status);
            return 1;
        }
    }
    if (m.cf)
        fclose(m.cf);
    size_t new_files = 0, new_ft = 0, new_cov = 0;
    for (size_t i = m.initial; i < m.n; i++) {
        if (!(m.mark[i] & 1))
            continue;
        new_files++;
        new_ft += m.ft[i];
        new_cov += m.edges[i];
    }
    fprintf(stderr, "MERGE-OUTER: successful in %d attempt(s)\n", attempt);
    fprintf(stderr, "#%zu\tDONE   cov: %zu ft: %zu corp: %zu exec/s: 0 rss: %ldMb\n", m.n, cov, ft,
            new_files, __fz_lf_rss_mb());
    for (size_t i = m.initial; i < m.n; i++) {
        if (!(m.mark[i] & 1))
            continue;
        size_t len;
        uint8_t *buf = __fz_lf_read_file(m.v[i].path, &len);
        char hex[41];
        if (!buf || __fz_lf_save_by_hash(o->dirs[0], buf, len, hex) < 0)
            fprintf(stderr, "WARNING: cannot copy '%s' into %s\n", m.v[i].path, o->dirs[0]);
        free(buf);
    }
    fprintf(stderr, "MERGE-OUTER: %zu new files with %zu new features added; %zu new coverage "
                    "edges\n", new_files, new_ft, new_cov);
    __fz_lf_free_files(m.v, m.n);
    free(m.mark);
    free(m.ft);
    free(m.edges);
    return 0;
}
