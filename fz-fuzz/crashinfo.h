/*
 * crashinfo.h - what a CI log needs to know about a crash without
 * downloading anything: the first lines of the sanitizer's report, or,
 * for a plain crash, the signal and the frame it hit.
 *
 * The crash is run once more, outside the forkserver (its children's
 * output is thrown away for speed), with the sanitizers set to report
 * (symbolized when llvm-symbolizer is on PATH) and under ptrace, which
 * sees the faulting instruction before any handler does; addr2line (when
 * installed) names its function and line.
 */
#ifndef FZ_FUZZ_CRASHINFO_H
#define FZ_FUZZ_CRASHINFO_H

#include <stdint.h>

#include "fz-fuzz/options.h"

/* Lines of a sanitizer report printed, from its ERROR / runtime error line. */
#define FZ_CRASHINFO_LINES 8

/* Longest a report run may take (sanitizer symbolization can be slow). */
#define FZ_CRASHINFO_TIMEOUT_MS 10000

/* Runs the target of cfg on the file at path and prints, each indented
 * by four spaces on stdout, the report's first lines or "signal N (NAME)
 * at FUNCTION (FILE:LINE)".  Prints nothing more when the file no longer
 * crashes outside the fuzzer (it says so). */
void fz_crashinfo_print(const fz_cfg_t *cfg, const char *path);

/* The same, under a "crash: PATH" line, for every crash file in dir whose
 * id:N is at least from_id (those of this run), at most max of them;
 * files for which skip (when not NULL) returns non-zero were reported
 * already and are left out. */
void fz_crashinfo_dir(const fz_cfg_t *cfg, const char *dir, uint32_t from_id, uint32_t max,
                      int (*skip)(void *ctx, const char *name), void *ctx);

/* --artifact-prefix PREFIX: also write a saved crash (kind "crash") or
 * hang ("timeout") as PREFIX<kind>-<sha1 of the bytes>, libFuzzer's names:
 * no ':' or ',', which CI artifact uploaders reject, and the same input
 * always gets the same name.  Nothing without the option; a failed write
 * is warned about, never fatal. */
/* --artifact-prefix P: 0 when P's directory exists and is writable, else
 * -1 with a one-line message: checked at the start, not at the first
 * crash. */
int fz_crashinfo_artifact_check(const fz_cfg_t *cfg, char *err, size_t n);

void fz_crashinfo_artifact(const fz_cfg_t *cfg, const char *kind, const uint8_t *buf,
                           uint32_t len);

/* Pure helper (tests): the offset in report of the line where the
 * sanitizer's report starts ("ERROR: ...Sanitizer", "runtime error:",
 * "ERROR: libFuzzer"), or -1. */
long fz_crashinfo_report_start(const char *report);

#endif
