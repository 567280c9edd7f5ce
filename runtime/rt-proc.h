/*
 * rt-proc.h - what this process is to the forkserver protocol: the
 * forkserver, one of its fuzzed children, or a process the program forked
 * (rt-proc.c).  Shared by the classic forkserver (rt-fsrv.c), direct mode
 * (rt-direct.c) and the persistent loop (rt-loop.c).
 */
#ifndef FZ_RT_PROC_H
#define FZ_RT_PROC_H

#include <sys/types.h>

#include "fz-protocol.h"
#include "runtime/rt.h"

/* The fuzzer's pipes: it writes requests to CTL_FD, reads answers on ST_FD. */
#define CTL_FD FZ_FORKSRV_FD
#define ST_FD (FZ_FORKSRV_FD + 1)

typedef struct {
    int in_child;        /* this process is a fuzzed child */
    int persistent;      /* the fuzzer said the binary is persistent */
    int direct;          /* direct mode was negotiated (rt-direct.c) */
    volatile int forked; /* this process was forked by the program */
    pid_t me;            /* in a child: its pid (processes it forks are not it) */
    pid_t server;        /* the forkserver's pid */
} fz_rt_proc_t;

/* This process's state.  Set by the forkserver before and after fork();
 * read by everything that must tell a run from the program's own work. */
FZ_RT_HIDDEN extern fz_rt_proc_t __fz_rt_proc;

/* In a new fuzzed child right after fork(): it is the run (async-signal-
 * safe: getpid and stores). */
FZ_RT_HIDDEN void __fz_rt_proc_child_begin(void);

/* Forkserver, before its first fork: every process fork() makes from here
 * on is the program's, unless __fz_rt_proc_child_begin says otherwise. */
FZ_RT_HIDDEN void __fz_rt_proc_watch_forks(void);

#endif
