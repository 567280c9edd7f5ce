/*
 * forkrate.c - this machine's raw fork() + waitpid() rate: the ceiling for
 * forkserver mode, where every execution costs at least one of each.
 * Usage: forkrate [N]   (default 20000 forks a round); prints "forks/s: R".
 *
 * Measured the way the fuzzers run: bound to one CPU (fz-fuzz and afl-fuzz
 * both bind themselves and the target; unbound, the scheduler's migrations
 * made this number swing 2x between runs), after a warm-up, best of three
 * rounds, since a ceiling is what the machine can do when nothing else
 * interferes.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Forks n children that exit at once; returns the rate, or -1 on error. */
static double fork_round(long n)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        pid_t p = fork();
        if (p < 0) {
            perror("fork");
            return -1;
        }
        if (p == 0)
            _exit(0);
        waitpid(p, NULL, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    return (double)n / s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    int cpu = sched_getcpu();
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof(set), &set); /* best effort, as the fuzzers */
    }
    if (fork_round(n / 10 + 1) < 0)
        return 1;
    double best = 0;
    for (int r = 0; r < 3; r++) {
        double rate = fork_round(n);
        if (rate < 0)
            return 1;
        if (rate > best)
            best = rate;
    }
    printf("forks/s: %.0f\n", best);
    return 0;
}
