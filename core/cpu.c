/*
 * cpu.c - CPU binding (see cpu.h).
 */
#define _GNU_SOURCE
#include "core/cpu.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(sizeof(fz_cpuset_t) >= sizeof(cpu_set_t), "fz_cpuset_t too small");

/* Marks in taken every CPU that some other user process is bound to alone
 * (its Cpus_allowed_list is a single number): another fuzzer or target.
 * Kernel threads (no VmSize line) are bound per CPU and do not count. */
static void cpus_taken(cpu_set_t *taken)
{
    CPU_ZERO(taken);
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    char path[300], line[256];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == (int)getpid())
            continue;
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        int user = 0;
        while (fgets(line, sizeof line, f)) {
            char *end;
            if (strncmp(line, "VmSize:", 7) == 0)
                user = 1;
            if (strncmp(line, "Cpus_allowed_list:", 18) != 0)
                continue;
            long cpu = strtol(line + 18, &end, 10);
            if (user && end != line + 18 && (*end == '\n' || *end == 0) && cpu >= 0 &&
                cpu < CPU_SETSIZE)
                CPU_SET((int)cpu, taken);
            break;
        }
        fclose(f);
    }
    closedir(d);
}

int fz_cpu_free(int *cpus, int max)
{
    cpu_set_t mine, taken;
    if (sched_getaffinity(0, sizeof mine, &mine))
        return 0;
    cpus_taken(&taken);
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &mine) && !CPU_ISSET(c, &taken))
            cpus[n++] = c;
    return n;
}

int fz_cpu_bind(fz_cpuset_t *saved)
{
    cpu_set_t cur, taken;
    if (sched_getaffinity(0, sizeof cur, &cur) || CPU_COUNT(&cur) <= 1)
        return -1;
    cpus_taken(&taken);
    int pick = sched_getcpu();
    if (pick < 0 || !CPU_ISSET(pick, &cur) || CPU_ISSET(pick, &taken)) {
        pick = -1;
        for (int c = 0; c < CPU_SETSIZE && pick < 0; c++)
            if (CPU_ISSET(c, &cur) && !CPU_ISSET(c, &taken))
                pick = c;
    }
    if (pick < 0 || fz_cpu_move(0, pick))
        return -1;
    memcpy(saved, &cur, sizeof cur);
    return pick;
}

int fz_cpu_spare(const fz_cpuset_t *allowed, int ours, int *n_free)
{
    cpu_set_t can, taken;
    memcpy(&can, allowed, sizeof can);
    cpus_taken(&taken);
    int pick = -1;
    *n_free = 1; /* ours */
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (c == ours || !CPU_ISSET(c, &can) || CPU_ISSET(c, &taken))
            continue;
        ++*n_free;
        if (pick < 0)
            pick = c;
    }
    return pick;
}

int fz_cpu_move(pid_t pid, int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(pid, sizeof one, &one) ? -1 : 0;
}

void fz_cpu_restore(const fz_cpuset_t *saved)
{
    cpu_set_t cur;
    memcpy(&cur, saved, sizeof cur);
    sched_setaffinity(0, sizeof cur, &cur);
}
