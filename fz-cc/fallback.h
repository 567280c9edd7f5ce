/*
 * fallback.h - fz-cc's guarded run of a build step that loads fz's plugin:
 * "the build never breaks because of fz".  If the compiler crashes with
 * the plugin loaded, the step is run again without the comparison pass,
 * then without any instrumentation; one stderr line says so, and
 * FZ_CC_FALLBACK_LOG counts it.  FZ_CC_NO_FALLBACK=1 keeps a crash an
 * error.  Users' view: docs/fz-cc.md, "When the compiler crashes".
 */
#ifndef FZ_CC_FALLBACK_H
#define FZ_CC_FALLBACK_H

#include <stdbool.h>

typedef struct {
    const char *path;   /* the compiler to run */
    const char *name;   /* its name as the user gave it (gcc, clang), for messages */
    char **argv;        /* the instrumented command line, NULL-terminated */
    int plugin_at;      /* index in argv of the plugin flag (> 0) */
    const char *source; /* the (first) source file compiled, or NULL for a link */
    int n_sources;
    bool quiet;      /* a configure probe: count a fallback, print nothing */
    bool out_stdout; /* output to stdout: a retry would repeat it, so none */
} fz_fallback_cfg_t;

/* Runs the step (with retries when the compiler crashes) and returns the
 * exit status fz-cc should exit with; a compiler killed by a signal that is
 * not a crash (SIGINT, SIGTERM, SIGKILL) kills fz-cc the same way. */
int fz_fallback_run(const fz_fallback_cfg_t *cfg);

/* Whether a failed compiler run crashed (rather than rejected the code):
 * killed by SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE or SIGTRAP, or a
 * non-zero exit whose stderr holds GCC's "internal compiler error" or
 * clang's "PLEASE submit a bug report" / "LLVM ERROR:".  Exposed for
 * tests/check_fzcc.c. */
bool fz_fallback_crashed(int wait_status, const char *err);

#endif
