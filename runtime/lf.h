/*
 * lf.h - the types every file of fz's libFuzzer driver shares (the driver
 * is lib/fz/fz-libfuzzer.o: libfuzzer.c's main() and the lf-*.c files;
 * docs/internals.md maps them).  Types only: each lf-*.c file has its own
 * header for what it exports.
 */
#ifndef FZ_RT_LF_H
#define FZ_RT_LF_H

#include <stddef.h>

/* The options, named as libFuzzer names them (lf-cli.c reads them). */
typedef struct lf_opts {
    long runs, max_total_time, max_len, timeout, rss_limit_mb, seed, jobs, workers;
    long print_final_stats, merge, minimize_crash, error_exitcode, timeout_exitcode, help;
    long malloc_limit_mb, detect_leaks, cleanse_crash, fork, report_slow_units;
    const char *dict, *artifact_prefix, *exact_artifact_path, *merge_control_file;
    char **dirs, **files;
    int n_dirs, n_files;
} lf_opts_t;

/* A corpus file (lf-corpus.c lists them). */
typedef struct {
    char *path;
    size_t size;
} lf_file_t;

/* Functions on the path from main() to the harness get libFuzzer-style
 * symbol names (fuzzer::fz::NAME()), so crash-state tools that skip
 * libFuzzer's own frames skip fz's driver too; len is strlen(name). */
#define LF_FRAME(len, name) __asm__("_ZN6fuzzer2fz" #len #name "Ev")

#endif
