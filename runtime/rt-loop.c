/*
 * rt-loop.c - persistent mode: __AFL_LOOP in a fuzzed child.
 *
 * A persistent child runs many inputs.  Between two passes it hands the
 * finished run back: in classic mode it stops itself with SIGSTOP (the
 * forkserver sees WIFSTOPPED, reports that status and resumes the child
 * with SIGCONT on the next request, exactly what afl-fuzz expects), in
 * direct mode through the control page (rt-direct.c).  Each pass starts
 * from an empty map; the set-up before the loop and the exit handlers
 * after it belong to no run.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>

#include "runtime/rt-cmp.h"
#include "runtime/rt-diag.h"
#include "runtime/rt-direct.h"
#include "runtime/rt-map.h"
#include "runtime/rt-proc.h"
#include "runtime/rt-san.h"

#define FZ_RT_EXPORT __attribute__((visibility("default")))

/* __AFL_LOOP's state in this process: passes still allowed, and whether
 * the loop was entered at all. */
static int loop_first = 1;
static unsigned int loop_left;

/* A child's exit: a persistent child leaving while its loop still wanted
 * passes exited inside the loop (each such input costs a fork); any child
 * may have installed a crash handler during its run. */
__attribute__((destructor)) static void fz_rt_child_exit(void)
{
    if (!__fz_rt_proc.in_child || getpid() != __fz_rt_proc.me)
        return;
    if (__fz_rt_proc.persistent && !loop_first && loop_left > 0)
        __fz_rt_diag_exit_in_loop();
    __fz_rt_diag_check_handlers();
}

FZ_RT_EXPORT int __fz_persistent_loop(unsigned int max)
{
    int live = __fz_rt_proc.in_child && __fz_rt_proc.persistent;
    /* A process the harness forked is not the fuzzer's child: it must not
     * read requests or answer them (direct mode), nor stop itself with
     * SIGSTOP (classic mode), where nobody would ever resume it and the
     * harness waiting for it would hang.  Its loop just ends. */
    if (live && __fz_rt_proc.forked)
        return 0;
    if (loop_first) {
        loop_first = 0;
        loop_left = max ? max : 1;
        /* Coverage of the set-up before the loop is not the input's. */
        if (live) {
            __fz_rt_map_clear();
            __fz_rt_cmp_run_start(1);
        }
        return 1;
    }
    if (live && loop_left > 1) {
        /* Handlers a harness installs usually come with its first pass. */
        if (loop_left-- == (max ? max : 1))
            __fz_rt_diag_check_handlers();
        if (__fz_rt_proc.direct)
            __fz_rt_direct_next();
        else
            raise(SIGSTOP);
        __fz_rt_map_clear();
        __fz_rt_san_new_run();
        __fz_rt_cmp_run_start(0);
        return 1;
    }
    /* What runs after the loop (exit handlers) is not the input's either. */
    if (live && loop_left == 1) {
        loop_left = 0; /* ended: later calls return 0 and say nothing */
        __fz_rt_map_detach();
        __fz_rt_cmp_stop();
        __fz_rt_diag_check_handlers();
        /* The last pass is done too; the child's exit comes after it and
         * belongs to no run (the parent reports it with seq 0). */
        if (__fz_rt_proc.direct)
            __fz_rt_direct_done();
    }
    return 0;
}
FZ_RT_EXPORT int __afl_persistent_loop(unsigned int max)
    __attribute__((alias("__fz_persistent_loop")));
