/*
 * diag.h - turns what the runtime noticed about the target (the
 * diagnostics page, include/fz-protocol.h) into one warning per kind: a
 * target that forks, runs another program, catches its own crashes, or
 * exits inside __AFL_LOOP.  Each of these silently loses crashes, coverage
 * or speed, so fz-fuzz says so, once, in words that name the fix.
 *
 * Without a live screen a warning is printed on stderr as soon as it is
 * seen; with one it shows on the screen and is printed again at the end.
 * fuzzer_stats carries the short form (target_warnings) for scripts.
 */
#ifndef FZ_FUZZ_DIAG_H
#define FZ_FUZZ_DIAG_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"
#include "fz-fuzz/diag-types.h"

/* Short form: space-separated words "fork", "exec:NAME",
 * "exec_instrumented:NAME", "handler:SIGSEGV,SIGABRT", "exit_in_loop".
 * NAME holds only [A-Za-z0-9._+-] (others become '_'), so the line stays a
 * safe shell assignment for afl-whatsup. */
void fz_diag_summary(uint32_t flags, uint32_t sigs, const char *exec_name, char *buf, size_t n);

/* The warning for one FZ_DIAG_* bit (without the "fz-fuzz: warning: "). */
void fz_diag_message(uint32_t bit, uint32_t flags, uint32_t sigs, const char *exec_name,
                     double execs_per_fork, char *buf, size_t n);

struct fz_state;

/* Reads the page; warns about anything new (now, unless a screen is up). */
void fz_diag_poll(struct fz_state *st);

/* After the target's first start: reads the module report and warns once
 * (on instance 0 of -j only) when the program loads shared libraries that
 * carry no fz instrumentation, naming them and the fix.  The message is
 * built by fz_diag_libs_message from the page's newline-separated list. */
void fz_diag_modules(struct fz_state *st);
void fz_diag_libs_message(uint32_t n, const char *list, char *buf, size_t len);

/* After the screen is gone: every warning of the run, once more. */
void fz_diag_final(struct fz_state *st);

#endif
