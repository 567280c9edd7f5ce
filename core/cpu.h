/*
 * cpu.h - CPU binding: which CPUs no other fuzzer holds, binding this
 * process (and so the target it forks) to one of them, and moving a
 * process to one CPU.  The forkserver client binds (core/fsrv.h) and
 * fz-fuzz -j gives each instance a CPU of its own.
 */
#ifndef FZ_CORE_CPU_H
#define FZ_CORE_CPU_H

#include <sys/types.h>

/* A set of CPUs as sched_getaffinity gives it (the bytes of a cpu_set_t,
 * so that this header needs no _GNU_SOURCE). */
typedef struct {
    unsigned long bits[1024 / (8 * sizeof(unsigned long))];
} fz_cpuset_t;

/* The CPUs this process may run on that no other user process is bound to
 * alone (another fuzzer or its target): at most max CPU numbers into cpus,
 * ascending; returns how many.  fz-fuzz -j gives each instance one. */
int fz_cpu_free(int *cpus, int max);

/* Binds this process to one free CPU (the one it runs on if that is free)
 * and returns it, with the affinity it had in *saved; returns -1 and
 * changes nothing when it may run on one CPU only (taskset) or every CPU
 * has its fuzzer (sharing one would be worse). */
int fz_cpu_bind(fz_cpuset_t *saved);

/* A free CPU in allowed other than ours, the lowest, or -1; *n_free counts
 * the free CPUs of allowed, ours included. */
int fz_cpu_spare(const fz_cpuset_t *allowed, int ours, int *n_free);

/* Binds process pid (0: this one) to cpu.  Returns 0 or -1. */
int fz_cpu_move(pid_t pid, int cpu);

/* Gives this process the affinity saved by fz_cpu_bind back. */
void fz_cpu_restore(const fz_cpuset_t *saved);

#endif
