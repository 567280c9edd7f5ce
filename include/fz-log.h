/*
 * fz-log.h - the one way fz's tools speak to the user on stderr.
 *
 * fz_die() prints "PROG: error: MESSAGE" and exits with FZ_EXIT_ERROR; the
 * message should name the cause and the fix.  fz_warn() and fz_info() print
 * and return.  Header-only so that every program (fz-cc, fz-fuzz, tools) can
 * use it without a shared library; fz_log_prog must be set once in main().
 */
#ifndef FZ_LOG_H
#define FZ_LOG_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "fz-config.h"

/* The program name printed before every message; set by main(). */
extern const char *fz_log_prog;

/* One line, written with one write(2) when it fits in the buffer: stderr
 * is unbuffered, and the instances of `fz-fuzz -j N` share it, so a line
 * printed piece by piece gets mixed with the others' lines. */
static inline void fz_vlog(const char *level, const char *fmt, va_list ap)
{
    const char *prog = fz_log_prog ? fz_log_prog : "fz", *sep = level[0] ? ": " : "";
    char line[4096];
    int n = snprintf(line, sizeof line, "%s: %s%s", prog, level, sep), m = -1;
    if (n >= 0 && (size_t)n < sizeof line) {
        va_list aq;
        va_copy(aq, ap);
        m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, aq);
        va_end(aq);
    }
    if (m >= 0 && (size_t)n + (size_t)m + 1 < sizeof line) {
        line[n + m] = '\n';
        fwrite(line, 1, (size_t)n + (size_t)m + 1, stderr);
        return;
    }
    fprintf(stderr, "%s: %s%s", prog, level, sep);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

/* What a program must still do when fz_die ends it from deep inside a
 * module (fz-fuzz: show the cursor again, flush fuzzer_stats, exit 3 when
 * crashes were saved).  main registers it with fz_log_on_die(fn, ctx) and
 * takes it back with fz_log_on_die(NULL, NULL); fn may exit itself, and
 * is taken back before it runs, so an fz_die inside it just exits.  Nothing
 * here names a function of any program: the registration is the only way
 * in.  The slot lives in this header-only module as a mergeable (common)
 * object, one per program, so programs that never register need no extra
 * object file. */
typedef void (*fz_log_die_fn)(void *ctx);
struct fz_log_die_slot {
    fz_log_die_fn fn;
    void *ctx;
};
extern struct fz_log_die_slot fz_log_die_slot;
struct fz_log_die_slot fz_log_die_slot __attribute__((common));

static inline void fz_log_on_die(fz_log_die_fn fn, void *ctx)
{
    fz_log_die_slot.fn = fn;
    fz_log_die_slot.ctx = ctx;
}

__attribute__((format(printf, 1, 2), noreturn)) static inline void fz_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fz_vlog("error", fmt, ap);
    va_end(ap);
    struct fz_log_die_slot on_die = fz_log_die_slot;
    fz_log_on_die(NULL, NULL);
    if (on_die.fn)
        on_die.fn(on_die.ctx);
    exit(FZ_EXIT_ERROR);
}

__attribute__((format(printf, 1, 2))) static inline void fz_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fz_vlog("warning", fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 1, 2))) static inline void fz_info(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fz_vlog("", fmt, ap);
    va_end(ap);
}

#endif
