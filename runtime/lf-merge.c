/*
 * lf-merge.c - `-merge=1 OUT IN...`, in process and crash-resistant: an
 * inner process runs the files of OUT, then those of IN smallest first,
 * and reports each file's new features; a file that kills it is skipped
 * and a new inner process goes on after it.  Files of IN that add
 * features are copied into OUT under their SHA-1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-config.h"
#include "runtime/lf-corpus.h"
#include "runtime/lf-merge.h"
#include "runtime/lf-run.h"
#include "runtime/lf-util.h"

/* The inner process: runs the files from `from` on, each after telling
 * the outer one it started it ("S i"), then reports what it added ("R i
 * features edges"); the files before `from` that were kept (initial ones
 * and mark[i] & 1) run silently first, so the coverage seen so far is the
 * outer one's.  A file that kills the process is the last one started. */
static void merge_inner(lf_file_t *v, size_t n, size_t initial, const uint8_t *mark, size_t from,
                        int fd) LF_FRAME(10, MergeInner);
static void merge_inner(lf_file_t *v, size_t n, size_t initial, const uint8_t *mark, size_t from,
                        int fd)
{
    FILE *out = fdopen(fd, "w");
    if (!out)
        _exit(1);
    setvbuf(out, NULL, _IOLBF, 0);
    __fz_lf_rss_thread();
    for (size_t i = 0; i < n; i++) {
        if (i < from && !(i < initial || (mark[i] & 1)))
            continue;
        size_t len = 0, edges = 0;
        uint8_t *buf = __fz_lf_read_file(v[i].path, &len);
        if (!buf)
            len = 0;
        if (i >= from)
            fprintf(out, "S %zu\n", i);
        size_t f = __fz_lf_execute(buf ? buf : (const uint8_t *)"", len, &edges);
        if (i >= from)
            fprintf(out, "R %zu %zu %zu\n", i, f, edges);
        free(buf);
    }
    fprintf(out, "D %zu %zu\n", __fz_lf_cov(), __fz_lf_ft());
    fclose(out);
    exit(0); /* a normal exit: a coverage build writes its profile */
}

/* -merge_control_file: the files, then one line per file done. */
static void mcf_write(const char *path, lf_file_t *v, size_t n, size_t initial,
                      const uint8_t *mark)
{
    if (!path)
        return;
    char *tmp;
    if (asprintf(&tmp, "%s.tmp", path) < 0)
        return;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "WARNING: cannot write -merge_control_file=%s: %s\n", path,
                strerror(errno));
        free(tmp);
        return;
    }
    fprintf(f, "%zu\n%zu\n", n, initial);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\n", v[i].path);
    for (size_t i = 0; i < n; i++)
        if (mark[i] & 2)
            fprintf(f, "DONE %zu %s\n", i, (mark[i] & 1) ? "kept" : "-");
    if (fclose(f) == 0)
        rename(tmp, path);
    free(tmp);
}

int __fz_lf_merge(const lf_opts_t *o)
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
    size_t initial, rest;
    lf_file_t *a = __fz_lf_collect(o->dirs, 1, &initial, 0);
    lf_file_t *b = __fz_lf_collect(o->dirs + 1, o->n_dirs - 1, &rest, 0);
    size_t n = initial + rest;
    lf_file_t *v = malloc((n ? n : 1) * sizeof *v);
    uint8_t *mark = calloc(n ? n : 1, 1); /* 1: kept, 2: done */
    if (!v || !mark)
        return 1;
    if (initial)
        memcpy(v, a, initial * sizeof *v);
    if (rest)
        memcpy(v + initial, b, rest * sizeof *v); /* smallest first, as libFuzzer prefers */
    free(a);
    free(b);
    fprintf(stderr, "MERGE-OUTER: %zu files, %zu in the initial corpus, 0 processed earlier\n", n,
            initial);
    size_t from = 0, new_files = 0, new_ft = 0, new_cov = 0, cov = 0, ft = 0;
    int attempt = 0, ok = 0;
    while (!ok) {
        fprintf(stderr, "MERGE-OUTER: attempt %d\n", ++attempt);
        int p[2];
        if (pipe(p) != 0)
            return 1;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            fprintf(stderr, "MERGE-INNER: %zu total files; %zu processed earlier; will process "
                            "%zu files now\n", n, from, n - from);
            merge_inner(v, n, initial, mark, from, p[1]);
        }
        close(p[1]);
        FILE *in = fdopen(p[0], "r");
        char line[128];
        long started = -1;
        while (in && fgets(line, sizeof line, in)) {
            size_t i, f, e;
            if (sscanf(line, "S %zu", &i) == 1) {
                started = (long)i;
            } else if (sscanf(line, "R %zu %zu %zu", &i, &f, &e) == 3 && i < n) {
                mark[i] |= 2;
                started = -1;
                if (i >= initial && f > 0) {
                    mark[i] |= 1;
                    new_files++;
                    new_ft += f;
                    new_cov += e;
                }
            } else if (sscanf(line, "D %zu %zu", &f, &e) == 2) {
                cov = f;
                ft = e;
            }
        }
        if (in)
            fclose(in);
        int status = __fz_lf_wait_status(pid);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && started < 0) {
            ok = 1;
        } else if (started >= 0) {
            fprintf(stderr, "MERGE-OUTER: '%s' ends the inner process; skipping it\n",
                    v[started].path);
            mark[started] |= 2;
            from = (size_t)started + 1;
        } else {
            fprintf(stderr, "ERROR: the merge's inner process failed (status %d)\n", status);
            return 1;
        }
        mcf_write(o->merge_control_file, v, n, initial, mark);
    }
    fprintf(stderr, "MERGE-OUTER: successful in %d attempt(s)\n", attempt);
    fprintf(stderr, "#%zu\tDONE   cov: %zu ft: %zu corp: %zu exec/s: 0 rss: %ldMb\n", n, cov, ft,
            new_files, __fz_lf_rss_mb());
    for (size_t i = initial; i < n; i++) {
        if (!(mark[i] & 1))
            continue;
        size_t len;
        uint8_t *buf = __fz_lf_read_file(v[i].path, &len);
        char hex[41];
        if (!buf || __fz_lf_save_by_hash(o->dirs[0], buf, len, hex) < 0)
            fprintf(stderr, "WARNING: cannot copy '%s' into %s\n", v[i].path, o->dirs[0]);
        free(buf);
    }
    fprintf(stderr, "MERGE-OUTER: %zu new files with %zu new features added; %zu new coverage "
                    "edges\n", new_files, new_ft, new_cov);
    __fz_lf_free_files(v, n);
    free(mark);
    return 0;
}
