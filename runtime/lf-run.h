/*
 * lf-run.h - one input run in the driver's process, as libFuzzer runs it
 * (lf-run.c): set-up (handlers, limits, the private coverage map), the
 * run with what ends it, coverage counts, status and stat:: lines.
 */
#ifndef FZ_RT_LF_RUN_H
#define FZ_RT_LF_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/lf.h"

void __fz_lf_init(int *argc, char ***argv) LF_FRAME(10, Initialize);
/* keep: write artifacts (not in reproduction). */
void __fz_lf_setup(const lf_opts_t *o, int keep);
/* The -rss_limit_mb watcher (again in a forked child). */
void __fz_lf_rss_thread(void);
/* A detached thread running FN with every signal blocked. */
void __fz_lf_watcher(void *(*fn)(void *));
/* The process's resident size now, and its peak, in MiB (0 if unknown). */
long __fz_lf_rss_now_mb(void);
long __fz_lf_rss_mb(void);
/* Runs one input; returns how many features it added (*new_edges: edges). */
size_t __fz_lf_execute(const uint8_t *data, size_t len, size_t *new_edges)
    LF_FRAME(15, ExecuteCallback);
size_t __fz_lf_cov(void);
size_t __fz_lf_ft(void);
uint64_t __fz_lf_runs(void);
void __fz_lf_add_runs(uint64_t n);
void __fz_lf_note_added(void);
void __fz_lf_corpus_phase(int on);
int __fz_lf_has_map(void);
void __fz_lf_status(const char *what, size_t corp_n, size_t corp_bytes, uint64_t runs);
/* The running input as an artifact (lf-report.c); not in reproduction. */
void __fz_lf_dump_unit(const char *kind);
/* These bytes as an artifact (an input the fuzzer found). */
void __fz_lf_dump_bytes(const char *kind, const uint8_t *p, size_t n);
void __fz_lf_final_stats(void);

#endif
