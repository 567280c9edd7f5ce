/*
 * diag_target.c - a target that does, on purpose, what the runtime's
 * diagnostics (runtime/rt-diag.c) must report to fz-fuzz; DIAG_MODE picks
 * the behaviour (tests/e2e/runtime_diag.sh):
 *
 *   none       nothing unusual: no warning may appear (the control)
 *   handler    installs a SIGSEGV handler that exits 0; input "!!!!" faults
 *   fork       forks a process in every run
 *   exec       execs /bin/true in every run
 *   exec_self  execs itself (instrumented) with DIAG_MODE=none
 *   exit       calls exit(0) in the run (inside __AFL_LOOP when persistent)
 *   _exit      calls _exit(0) in the run (no exit handlers run)
 *   close_fds  closes fds 198/199 in the run (a daemon closing descriptors)
 *   dup_fds    puts /dev/null on fds 198/199 in the run (dup2)
 *   grandchild forks in the run; the forked process carries on with the
 *              harness's loop (a harness that forgot to _exit it) and the
 *              run waits for it
 *   close_early, dup_early  the same as close_fds / dup_fds, but in a
 *              constructor, before the forkserver starts
 *   close_init, dup_init  the same in main, before __AFL_INIT() (the
 *              persistent build defers the forkserver to there)
 *
 * Built with -DPERSISTENT it is an __AFL_LOOP harness reading shared
 * memory; without, a plain stdin program run once per fork.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef PERSISTENT
__AFL_FUZZ_INIT();
#endif

static const char *mode = "none";
static char *self;

static void swallow(int sig)
{
    (void)sig;
    _exit(0); /* the mistake: a crash turned into a clean exit */
}

/* Takes fds 198/199 away: closes them, or reuses them for /dev/null. */
static void lose_fds(int reuse)
{
    if (reuse) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 198);
        dup2(null, 199);
        close(null);
    } else {
        close(198);
        close(199);
    }
}

__attribute__((constructor)) static void early(void)
{
    const char *m = getenv("DIAG_MODE");
    if (m && !strcmp(m, "close_early"))
        lose_fds(0);
    if (m && !strcmp(m, "dup_early"))
        lose_fds(1);
}

/* Returns 1 in a process forked by the run that should carry on with the
 * loop instead of ending. */
static int one_run(const unsigned char *buf, size_t len)
{
    volatile int *nowhere = NULL;
    if (len > 1 && buf[0] == 'a' && buf[1] == 'b')
        puts("ab");
    if (!strcmp(mode, "handler") && len >= 4 && !memcmp(buf, "!!!!", 4))
        *nowhere = 1;
    if (!strcmp(mode, "fork")) {
        pid_t p = fork();
        if (p == 0)
            _exit(0);
        if (p > 0)
            waitpid(p, NULL, 0);
    }
    if (!strcmp(mode, "exec"))
        execl("/bin/true", "true", (char *)NULL);
    if (!strcmp(mode, "exec_self")) {
        setenv("DIAG_MODE", "none", 1);
        execl(self, self, (char *)NULL);
    }
    if (!strcmp(mode, "exit"))
        exit(0);
    if (!strcmp(mode, "_exit"))
        _exit(0);
    if (!strcmp(mode, "close_fds") || !strcmp(mode, "dup_fds"))
        lose_fds(mode[0] == 'd');
    if (!strcmp(mode, "grandchild")) {
        pid_t p = fork();
        if (p == 0)
            return 1;
        if (p > 0)
            waitpid(p, NULL, 0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    (void)argc;
    self = argv[0];
    const char *m = getenv("DIAG_MODE");
    if (m && *m)
        mode = m;
    if (!strcmp(mode, "handler"))
        signal(SIGSEGV, swallow);
#ifdef PERSISTENT
    if (!strcmp(mode, "close_init") || !strcmp(mode, "dup_init"))
        lose_fds(mode[0] == 'd');
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(1000))
        if (one_run(buf, __AFL_FUZZ_TESTCASE_LEN))
            continue; /* the forked process: its __AFL_LOOP must return 0 */
#else
    unsigned char buf[4096];
    size_t len = fread(buf, 1, sizeof buf, stdin);
    one_run(buf, len);
#endif
    return 0;
}
