/*
 * rt-proc.c - what this process is (rt-proc.h): the forkserver's fuzzed
 * child, or a process the program forked, which must neither answer the
 * fuzzer nor stop itself in __AFL_LOOP.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include "runtime/rt-proc.h"

fz_rt_proc_t __fz_rt_proc;

void __fz_rt_proc_child_begin(void)
{
    __fz_rt_proc.in_child = 1;
    __fz_rt_proc.forked = 0;
    __fz_rt_proc.me = getpid();
}

/* Runs in every process fork() makes after the forkserver started (its
 * own children reset it): such a process is the program's, not a run. */
static void note_fork(void)
{
    __fz_rt_proc.forked = 1;
}

void __fz_rt_proc_watch_forks(void)
{
    pthread_atfork(NULL, NULL, note_fork);
}
