/*
 * lf-fuzz.h - `./harness CORPUS_DIR...`: the corpus run, then fuzzing
 * through fz-fuzz (lf-fuzz.c); libFuzzer's dictionary check.
 */
#ifndef FZ_RT_LF_FUZZ_H
#define FZ_RT_LF_FUZZ_H

#include "runtime/lf.h"

int __fz_lf_fuzz(const lf_opts_t *o) LF_FRAME(4, Loop);
/* 0, or 1 after naming the bad line as libFuzzer does. */
int __fz_lf_check_dict(const char *path);

#endif
