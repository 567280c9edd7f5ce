/*
 * lf-corpus.c - the driver's runs of whole file lists, in this process
 * (lf-run.c runs each input): reproduction (`./harness FILE...`), the
 * corpus run before fuzzing (all of `-runs=0 DIR`), and the listing of
 * corpus directories smallest first that merge uses too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fz-config.h"
#include "runtime/lf-corpus.h"
#include "runtime/lf-run.h"
#include "runtime/lf-util.h"

/* ---- Reproduction: ./harness FILE... ---- */

int __fz_lf_reproduce(const lf_opts_t *o, const char *argv0)
{
    for (int i = 0; i < o->n_files; i++) {
        struct stat sb;
        if (stat(o->files[i], &sb) != 0) {
            fprintf(stderr, "ERROR: The required directory \"%s\" does not exist\n", o->files[i]);
            return 1;
        }
    }
    long runs = o->runs >= 0 ? o->runs : 1;
    fprintf(stderr, "%s: Running %d inputs %ld time(s) each.\n", argv0, o->n_files, runs);
    for (int i = 0; i < o->n_files; i++) {
        size_t len;
        uint8_t *buf = __fz_lf_read_file(o->files[i], &len);
        if (!buf) {
            fprintf(stderr, "ERROR: cannot read '%s': %s\n", o->files[i], strerror(errno));
            return 1;
        }
        if (o->max_len > 0 && len > (size_t)o->max_len)
            len = (size_t)o->max_len;
        fprintf(stderr, "Running: %s\n", o->files[i]);
        uint64_t t0 = __fz_lf_now_us();
        for (long k = 0; k < runs; k++)
            __fz_lf_execute(buf, len, NULL);
        fprintf(stderr, "Executed %s in %llu ms\n", o->files[i],
                (unsigned long long)((__fz_lf_now_us() - t0) / 1000));
        free(buf);
    }
    fprintf(stderr, "***\n*** NOTE: fuzzing was not performed, you have only\n"
                    "***       executed the target code on a fixed set of inputs.\n***\n");
    __fz_lf_final_stats();
    return 0;
}

/* ---- The corpus run ---- */

static int by_size(const void *a, const void *b)
{
    const lf_file_t *x = a, *y = b;
    return x->size != y->size ? (x->size < y->size ? -1 : 1) : strcmp(x->path, y->path);
}

/* The regular files of the directories (one level, as libFuzzer without
 * recursion into hidden names), sorted by size; *n of them. */
lf_file_t *__fz_lf_collect(char **dirs, int n_dirs, size_t *n, int say_counts)
{
    lf_file_t *v = NULL;
    size_t cap = 0;
    *n = 0;
    for (int d = 0; d < n_dirs; d++) {
        size_t before = *n;
        char **names = NULL;
        size_t m = __fz_lf_list(dirs[d], &names);
        for (size_t i = 0; i < m; i++) {
            char *p = __fz_lf_path_join(dirs[d], names[i]);
            struct stat sb;
            if (p && stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
                if (*n == cap) {
                    cap = cap ? cap * 2 : 64;
                    lf_file_t *t = realloc(v, cap * sizeof *v);
                    if (!t)
                        abort();
                    v = t;
                }
                v[(*n)++] = (lf_file_t){p, (size_t)sb.st_size};
            } else {
                free(p);
            }
            free(names[i]);
        }
        free(names);
        if (say_counts)
            fprintf(stderr, "INFO: %8zu files found in %s\n", *n - before, dirs[d]);
    }
    qsort(v, *n, sizeof *v, by_size);
    return v;
}

void __fz_lf_free_files(lf_file_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].path);
    free(v);
}

/* Runs the empty input and every corpus file once (smallest first), as
 * libFuzzer does before it mutates; a crash there ends the process with
 * its artifact.  Returns the max_len that applies. */
long __fz_lf_run_corpus(const lf_opts_t *o, size_t *corp_n, size_t *corp_bytes)
{
    size_t n;
    lf_file_t *v = __fz_lf_collect(o->dirs, o->n_dirs, &n, 1);
    size_t total = 0, maxs = 0, mins = n ? v[0].size : 0;
    for (size_t i = 0; i < n; i++) {
        total += v[i].size;
        if (v[i].size > maxs)
            maxs = v[i].size;
    }
    long max_len = o->max_len;
    if (max_len <= 0) {
        max_len = maxs > 4096 ? (long)maxs : 4096;
        if (max_len > FZ_MAX_INPUT)
            max_len = FZ_MAX_INPUT;
        fprintf(stderr, "INFO: -max_len is not provided; libFuzzer will not generate inputs "
                        "larger than %ld bytes\n", max_len);
    }
    fprintf(stderr, "INFO: seed corpus: files: %zu min: %zub max: %zub total: %zub rss: %ldMb\n", n,
            mins, maxs, total, __fz_lf_rss_now_mb());
    __fz_lf_corpus_phase(1);
    __fz_lf_execute((const uint8_t *)"", 0, NULL);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *buf = __fz_lf_read_file(v[i].path, &len);
        if (!buf)
            continue;
        if (len > (size_t)max_len)
            len = (size_t)max_len;
        if (__fz_lf_execute(buf, len, NULL) > 0 || !__fz_lf_has_map()) {
            (*corp_n)++;
            *corp_bytes += len;
        }
        free(buf);
        uint64_t runs = __fz_lf_runs();
        if (runs && (runs & (runs - 1)) == 0 && runs >= 1024)
            __fz_lf_status("pulse", *corp_n, *corp_bytes, runs);
    }
    __fz_lf_corpus_phase(0);
    __fz_lf_free_files(v, n);
    if (!*corp_n && n == 0) {
        *corp_n = 1; /* the empty input */
    }
    __fz_lf_status("INITED", *corp_n, *corp_bytes, __fz_lf_runs());
    return max_len;
}
