/*
 * forkrate.c - this machine's raw fork() + waitpid() rate: the ceiling for
 * forkserver mode, where every execution costs at least one of each.
 * Usage: forkrate [N]   (default 20000 forks); prints "forks/s: R".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        pid_t p = fork();
        if (p < 0) {
            perror("fork");
            return 1;
        }
        if (p == 0)
            _exit(0);
        waitpid(p, NULL, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    printf("forks/s: %.0f\n", (double)n / s);
    return 0;
}
