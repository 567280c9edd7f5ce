/*
 * lf-crash.h - what the driver does to one crashing file:
 * -minimize_crash=1 (through fz-tmin) and -cleanse_crash=1 (lf-crash.c).
 */
#ifndef FZ_RT_LF_CRASH_H
#define FZ_RT_LF_CRASH_H

#include "runtime/lf.h"

int __fz_lf_minimize_crash(const lf_opts_t *o);
int __fz_lf_cleanse_crash(const lf_opts_t *o) LF_FRAME(12, CleanseCrash);

#endif
