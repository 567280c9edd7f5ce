/*
 * rt.h - private interface between the runtime's files (map, forkserver,
 * test-case input).  Nothing here is for instrumented modules or harnesses:
 * those use the __fz_ / __afl_ names documented in docs/internals.md.
 *
 * Every symbol is hidden, so the combined lib/fz/fz-rt.o exports only the
 * documented entry points even from a shared-library build of the target.
 */
#ifndef FZ_RT_H
#define FZ_RT_H

#include <stddef.h>
#include <stdint.h>

#include "fz-protocol.h"

#define FZ_RT_HIDDEN __attribute__((visibility("hidden")))

/* rt-map.c: attaches the fuzzer's coverage map (once; safe to call again).
 * Returns 0, or an FZ_FS_ERROR_* code the forkserver reports. */
FZ_RT_HIDDEN int __fz_rt_map_attach(void);
/* errno of a failed attach (0 if none). */
FZ_RT_HIDDEN int __fz_rt_map_errno(void);

/* The libFuzzer driver outside a fuzzer (__fz_lf_local_map): its private
 * map, slots [0, *used) handed out to *nmods modules; NULL under a fuzzer
 * or without one. */
FZ_RT_HIDDEN uint8_t *__fz_rt_map_local(uint32_t *used, uint32_t *nmods);

/* Map size the program needs: sum of every registered module's slots,
 * rounded up to FZ_MAP_SIZE_MIN (never 0). */
FZ_RT_HIDDEN uint32_t __fz_rt_map_size(void);

/* Zeroes the slots handed out to modules, so a persistent iteration starts
 * from an empty map. */
FZ_RT_HIDDEN void __fz_rt_map_clear(void);

/* Batches (include/fz-protocol.h): non-zero when the map of the pass that
 * just ended holds a bucket virgin (the fuzzer's, read-only, virgin_len
 * bytes) has not seen. */
FZ_RT_HIDDEN int __fz_rt_map_any_new(const uint8_t *virgin, size_t virgin_len);

/* Points every module back at its scratch counters, so code that runs after
 * the last persistent iteration (exit handlers) leaves the map alone. */
FZ_RT_HIDDEN void __fz_rt_map_detach(void);

/* Fills the diagnostics page's module report (include/fz-protocol.h):
 * the loaded objects that registered edges, and the program's shared
 * libraries that carry no fz instrumentation.  Call before the handshake;
 * nothing without a page. */
FZ_RT_HIDDEN void __fz_rt_map_report_modules(void);

/* rt-input.c: non-zero when the harness defined __afl_sharedmem_fuzzing. */
FZ_RT_HIDDEN int __fz_rt_wants_shm_input(void);

/* Maps the test-case shared memory named by __AFL_SHM_FUZZ_ID.  Returns 0,
 * or an FZ_FS_ERROR_* code.  Async-signal-safe (getenv, shmat). */
FZ_RT_HIDDEN int __fz_rt_input_attach(void);

/* Batches: puts n bytes at p into the test-case shared memory, length word
 * and bytes, as the fuzzer does for a single run (n is cut to
 * FZ_MAX_INPUT; an FZ_BATCH_CUSTOM flag in n is kept in the length word).
 * Nothing without that memory. */
FZ_RT_HIDDEN void __fz_rt_input_set(const uint8_t *p, uint32_t n);

/* rt-fsrv.c: fz's libFuzzer driver, before the fork point, asks for
 * harness-side mutation (FZ_FS_NEW_OPT_FZ_CUSTOM / _XOVER, offered only
 * with batches; include/fz-protocol.h).  Declared, unhidden, in
 * runtime/lf-mutate.c too. */
FZ_RT_HIDDEN void __fz_rt_set_custom(uint32_t opts);

/* rt-diag.c: what the fuzzer cannot see for itself (include/fz-protocol.h,
 * "Target diagnostics").  All are no-ops unless fz-fuzz named a page. */
#include <sys/types.h>

/* Forkserver, after the handshake: claims the page, checks handlers
 * installed before the fork point, starts watching fork(). */
FZ_RT_HIDDEN void __fz_rt_diag_fsrv_started(void);

/* In a new child right after fork() (async-signal-safe: a store and, under
 * fz-fuzz, setpgid(0, 0)). */
FZ_RT_HIDDEN void __fz_rt_diag_child_started(void);

/* A set-up step failed with errno err: ENOMEM (the fuzzer's -m limit) is
 * flagged as FZ_DIAG_NOMEM so the fuzzer names -m. */
FZ_RT_HIDDEN void __fz_rt_diag_nomem(int err);

/* Flags crash-signal handlers the program installed since it loaded. */
FZ_RT_HIDDEN void __fz_rt_diag_check_handlers(void);

/* The child is exiting while its __AFL_LOOP still wanted more passes. */
FZ_RT_HIDDEN void __fz_rt_diag_exit_in_loop(void);

/* The program closed or replaced fds 198/199: bit is FZ_DIAG_FDS_EARLY
 * (before the forkserver started) or FZ_DIAG_FDS_IN_LOOP (a direct-mode
 * child inside __AFL_LOOP).  Async-signal-safe (one atomic or). */
FZ_RT_HIDDEN void __fz_rt_diag_fds_lost(uint32_t bit);

/* Direct-mode forkserver: its child exited (not killed) in the middle of a
 * run, which is exit(), _exit() or a return from main inside the loop. */
FZ_RT_HIDDEN void __fz_rt_diag_exited_in_run(void);

/* Forkserver, before reaping child: for its first few children, waits
 * (without reaping) and compares the child's name with its own, which
 * tells an exec.  stops: the child may also stop (persistent, SIGSTOP). */
FZ_RT_HIDDEN void __fz_rt_diag_peek(pid_t child, int stops);

/* The runtime's own crash handler (rt-crash.c registers it): not flagged
 * as the program's. */
FZ_RT_HIDDEN void __fz_rt_diag_own_handler(const void *h);

/* rt-diag.c: the page, NULL when fz-fuzz did not name one. */
FZ_RT_HIDDEN fz_diag_t *__fz_rt_diag_page(void);

/* rt-crash.c: crash sites (include/fz-protocol.h, "Crash sites").
 * Forkserver, before its first fork: installs the crash handler where the
 * program left the default action, and the sanitizers' report hooks. */
FZ_RT_HIDDEN void __fz_rt_crash_install(void);


/* rt-cmp.c: the comparison log (include/fz-cmplog.h).  Non-zero when the
 * fuzzer's log is attached and some module has comparison sites: the
 * version-1 handshake then sets FZ_FS_NEW_OPT_FZ_CMPLOG. */
FZ_RT_HIDDEN int __fz_rt_cmp_ready(void);

/* A run starts: copies the log's enabled word into every module's guard
 * flag (stores only on a change).  fresh: the first pass of a persistent
 * child, whose set-up compares are dropped from the log.  Async-signal-
 * safe (loads and stores). */
FZ_RT_HIDDEN void __fz_rt_cmp_run_start(int fresh);

/* The input's run is over (after the last __AFL_LOOP pass): flags off. */
FZ_RT_HIDDEN void __fz_rt_cmp_stop(void);

#endif
