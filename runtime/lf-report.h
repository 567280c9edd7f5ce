/*
 * lf-report.h - what fz's libFuzzer driver prints and writes when a run
 * ends (lf-report.c).  Everything here is safe in a signal handler.
 */
#ifndef FZ_RT_LF_REPORT_H
#define FZ_RT_LF_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/lf.h"

/* stderr without stdio. */
__attribute__((format(printf, 1, 2))) void __fz_lf_say(const char *fmt, ...);
/* The input as PREFIX<kind>-<sha1> (or -exact_artifact_path), with
 * libFuzzer's MS:, byte dump, "Test unit written to" and Base64: lines. */
void __fz_lf_write_artifact(const lf_opts_t *o, const char *kind, const uint8_t *p, size_t n);

#endif
