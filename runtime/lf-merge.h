/*
 * lf-merge.h - `-merge=1 OUT IN...`, with or without
 * -merge_control_file (lf-merge.c).
 */
#ifndef FZ_RT_LF_MERGE_H
#define FZ_RT_LF_MERGE_H

#include "runtime/lf.h"

int __fz_lf_merge(const lf_opts_t *o) LF_FRAME(5, Merge);

#endif
