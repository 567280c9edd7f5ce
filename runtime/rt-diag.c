/*
 * rt-diag.c - tells fz-fuzz about program behaviour it cannot see from wait
 * statuses and coverage maps: a child that forks, a run that execs another
 * program, a crash-signal handler of the program's own, exit() inside
 * __AFL_LOOP, descriptors 198/199 closed or replaced by the program.  Each
 * silently costs the fuzzer crashes or coverage (or, for the descriptors
 * before start-up, gets misdiagnosed), so fz-fuzz turns these bits into
 * one warning or error each (fz-fuzz/diag.c, core/fsrv.c).
 *
 * The channel is a small SysV segment the fuzzer names in
 * FZ_ENV_DIAG_SHM_ID (include/fz-protocol.h).  Without it (outside a
 * fuzzer, or under afl-fuzz) every function here returns at once.  Nothing
 * here sits on the per-run path except in the first few children: the
 * checks run once per forkserver, once per child, or at a child's exit.
 *
 * What each check can and cannot see:
 *  - fork: a pthread_atfork() child handler, so fork() in a run is seen;
 *    vfork(), posix_spawn() and system() do not run atfork handlers.
 *  - exec: an instrumented program started inside a run finds the page
 *    already claimed by another pid (its counters would land on top of the
 *    target's); an uninstrumented one is caught by comparing the name of
 *    the first children (/proc/PID/comm, read before they are reaped) with
 *    the forkserver's.
 *  - handlers: compared with what was installed when the runtime loaded,
 *    so sanitizer runtimes (which install theirs earlier) are not flagged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-protocol.h"
#include "runtime/rt-diag.h"

/* Signals whose handler decides whether a crash is seen at all. */
static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define N_CRASH_SIGS (sizeof crash_sigs / sizeof crash_sigs[0])

/* Children of the forkserver whose name is compared with its own: an
 * exec is almost always input-independent, so the first few tell. */
#define FZ_DIAG_PEEKS 32

static struct {
    fz_diag_t *page;                  /* NULL: nobody listens */
    void *at_load[N_CRASH_SIGS];      /* handlers when the runtime loaded */
    const void *own;                  /* the runtime's crash handler (rt-crash.c) */
    volatile sig_atomic_t in_run;     /* this process is a fuzzed child */
    unsigned peeks_left;              /* forkserver: comm comparisons to go */
    char comm[16];                    /* forkserver: its own /proc comm */
} dg;

static void *handler_of(const struct sigaction *sa)
{
    return sa->sa_flags & SA_SIGINFO ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
}

static void flag(uint32_t bits)
{
    __atomic_or_fetch(&dg.page->flags, bits, __ATOMIC_RELAXED);
}

static void set_name(const char *name)
{
    size_t n = strnlen(name, sizeof dg.page->exec_name - 1);
    memcpy(dg.page->exec_name, name, n);
    dg.page->exec_name[n] = 0;
}

/* Reads /proc/<pid>/comm (pid 0: self) into buf without stdio. */
static int read_comm(pid_t pid, char *buf, size_t len)
{
    char path[32] = "/proc/self/comm";
    if (pid > 0) {
        char digits[12];
        int n = 0;
        for (unsigned v = (unsigned)pid; v; v /= 10)
            digits[n++] = (char)('0' + v % 10);
        char *p = path + 6; /* after "/proc/" */
        while (n)
            *p++ = digits[--n];
        memcpy(p, "/comm", 6);
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t r = read(fd, buf, len - 1);
    close(fd);
    if (r <= 0)
        return -1;
    buf[r] = 0;
    char *nl = memchr(buf, '\n', (size_t)r);
    if (nl)
        *nl = 0;
    return 0;
}

/* Runs in a process about to fork: a run's fork is counted before it
 * happens, so the fuzzer knows about the new process even if the run ends
 * before the new process is scheduled. */
static void on_fork_prepare(void)
{
    if (dg.in_run)
        __atomic_add_fetch(&dg.page->forks, 1, __ATOMIC_RELAXED);
}

/* Runs in every process a child forks (and in the forkserver's own
 * children, where in_run is still 0). */
static void on_fork_child(void)
{
    if (dg.in_run)
        flag(FZ_DIAG_FORK);
    dg.in_run = 0; /* the grandchild is not the run */
}

/* Early (before the program's default-priority constructors): attach the
 * page, remember the handlers already there, and notice being a program
 * that a run started. */
__attribute__((constructor(101))) static void fz_diag_load(void)
{
    const char *id = getenv(FZ_ENV_DIAG_SHM_ID);
    if (!id || !*id)
        return;
    char *end;
    long v = strtol(id, &end, 10);
    if (*end || v < 0)
        return;
    void *mem = shmat((int)v, NULL, 0);
    if (mem == (void *)-1)
        return;
    dg.page = mem;
    for (size_t i = 0; i < N_CRASH_SIGS; i++) {
        struct sigaction sa;
        if (sigaction(crash_sigs[i], NULL, &sa) == 0)
            dg.at_load[i] = handler_of(&sa);
    }
    uint32_t fsrv = dg.page->fsrv_pid;
    if (fsrv && fsrv != (uint32_t)getpid()) {
        extern char *program_invocation_short_name;
        set_name(program_invocation_short_name);
        flag(FZ_DIAG_EXEC | FZ_DIAG_EXEC_INSTR);
    }
}

void __fz_rt_diag_check_handlers(void)
{
    if (!dg.page)
        return;
    uint32_t sigs = 0;
    for (size_t i = 0; i < N_CRASH_SIGS; i++) {
        struct sigaction sa;
        if (sigaction(crash_sigs[i], NULL, &sa) != 0)
            continue;
        void *h = handler_of(&sa);
        if (h != (void *)SIG_DFL && h != (void *)SIG_IGN && h != dg.at_load[i] &&
            h != dg.own)
            sigs |= 1u << crash_sigs[i];
    }
    if (sigs) {
        __atomic_or_fetch(&dg.page->handler_sigs, sigs, __ATOMIC_RELAXED);
        flag(FZ_DIAG_HANDLER);
    }
}

void __fz_rt_diag_own_handler(const void *h)
{
    dg.own = h;
}

fz_diag_t *__fz_rt_diag_page(void)
{
    return dg.page;
}

void __fz_rt_diag_fsrv_started(void)
{
    if (!dg.page)
        return;
    dg.page->fsrv_pid = (uint32_t)getpid();
    __fz_rt_diag_check_handlers(); /* installed before the fork point */
    if (read_comm(0, dg.comm, sizeof dg.comm) == 0)
        dg.peeks_left = FZ_DIAG_PEEKS;
    pthread_atfork(on_fork_prepare, NULL, on_fork_child);
}

void __fz_rt_diag_child_started(void)
{
    dg.in_run = 1;
    /* Its own process group: what the run forks can be killed with it
     * (fz-protocol.h).  Only under fz-fuzz, which knows to do that. */
    if (dg.page)
        setpgid(0, 0);
}

void __fz_rt_diag_nomem(int err)
{
    if (dg.page && err == ENOMEM)
        flag(FZ_DIAG_NOMEM);
}

void __fz_rt_diag_exit_in_loop(void)
{
    if (dg.page && dg.in_run)
        flag(FZ_DIAG_EXIT_IN_LOOP);
}

void __fz_rt_diag_fds_early(void)
{
    if (dg.page)
        flag(FZ_DIAG_FDS_EARLY);
}

void __fz_rt_diag_exited_in_run(void)
{
    /* A child that exec'd ends with the new program's exit; that has its
     * own, more precise, warning. */
    if (dg.page && !(dg.page->flags & FZ_DIAG_EXEC))
        flag(FZ_DIAG_EXIT_IN_LOOP);
}

void __fz_rt_diag_peek(pid_t child, int stops)
{
    if (!dg.page || !dg.peeks_left)
        return;
    dg.peeks_left--;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int r;
    while ((r = waitid(P_PID, (id_t)child, &si, WEXITED | (stops ? WSTOPPED : 0) | WNOWAIT)) < 0 &&
           errno == EINTR)
        ;
    if (r < 0 || si.si_code == CLD_STOPPED || si.si_code == CLD_TRAPPED)
        return;
    char comm[16];
    if (read_comm(child, comm, sizeof comm) == 0 && strcmp(comm, dg.comm) != 0) {
        set_name(comm);
        flag(FZ_DIAG_EXEC);
    }
}
