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

static inline void fz_vlog(const char *level, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: %s%s", fz_log_prog ? fz_log_prog : "fz", level, level[0] ? ": " : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

/* A program that must still do something when fz_die ends it from deep
 * inside a module defines this (fz-fuzz: show the cursor again, flush
 * fuzzer_stats, exit 3 when crashes were saved); it may exit itself.  Weak:
 * programs that do not define it need not know it exists. */
void fz_log_die_hook(void) __attribute__((weak));

__attribute__((format(printf, 1, 2), noreturn)) static inline void fz_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fz_vlog("error", fmt, ap);
    va_end(ap);
    if (fz_log_die_hook)
        fz_log_die_hook();
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
