/*
 * rt-diag.h - what the fuzzer cannot see for itself (rt-diag.c;
 * include/fz-protocol.h, "Target diagnostics").  All are no-ops unless
 * fz-fuzz named a page.
 */
#ifndef FZ_RT_DIAG_H
#define FZ_RT_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

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

/* The program closed or replaced fds 198/199 before the forkserver
 * started (FZ_DIAG_FDS_EARLY).  Async-signal-safe (one atomic or). */
FZ_RT_HIDDEN void __fz_rt_diag_fds_early(void);

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

/* The page, NULL when fz-fuzz did not name one. */
FZ_RT_HIDDEN fz_diag_t *__fz_rt_diag_page(void);

#endif
