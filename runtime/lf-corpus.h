/*
 * lf-corpus.h - runs of whole file lists in the driver's process
 * (lf-corpus.c): reproduction, the corpus run, corpus listings.
 */
#ifndef FZ_RT_LF_CORPUS_H
#define FZ_RT_LF_CORPUS_H

#include <stddef.h>

#include "runtime/lf.h"

/* `./harness FILE...`: each file -runs times (default 1). */
int __fz_lf_reproduce(const lf_opts_t *o, const char *argv0) LF_FRAME(10, RunOneTest);
/* The empty input and every corpus file once, smallest first; a crash
 * ends the process with its artifact.  Returns the max_len that applies. */
long __fz_lf_run_corpus(const lf_opts_t *o, size_t *corp_n, size_t *corp_bytes)
    LF_FRAME(13, ReadAndRunAll);
/* The regular files of the directories, smallest first; *n of them. */
lf_file_t *__fz_lf_collect(char **dirs, int n_dirs, size_t *n, int say_counts);
void __fz_lf_free_files(lf_file_t *v, size_t n);

#endif
