/*
 * fz-cov-rt.c - lib/fz/fz-cov-rt.so, preloaded by fz-cov into the coverage
 * build it replays a queue through.  It makes any dynamically linked
 * program a forkserver (the plain-AFL handshake: fz-cov's forkserver client
 * in core/fsrv.c needs nothing more), so a queue of thousands of files is
 * replayed with one fork per file instead of one exec per file, and no
 * special build is needed: plain `gcc --coverage` or clang's
 * `-fprofile-instr-generate` will do.
 *
 * Its constructor runs before the program's own (a preloaded object is
 * initialised before the executable), so the coverage runtimes register
 * in each child, which then runs main() as usual and writes its counts
 * when it exits: gcov merges them into the .gcda files, clang's runtime
 * into the %m profile.  A child that crashes would die without writing,
 * so the child turns the usual crash signals into exit(), which runs the
 * coverage runtimes' exit handlers.  (Not async-signal-safe: a crash
 * inside malloc may then hang, and fz-cov's timeout kills it; that input's
 * counts are lost, as they would be without the handler.)
 *
 * Only active when FZ_COV_FSRV=1 and fd 199 is open; it removes
 * LD_PRELOAD and FZ_COV_FSRV at once so the program's own children run
 * without it.  An instrumented fz-cc or afl-cc build also works: the child
 * closes 198/199, so that build's forkserver stays dormant.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-protocol.h"

static void crash_to_exit(int sig)
{
    exit(128 + sig);
}

static int put_u32(uint32_t v)
{
    return write(FZ_FORKSRV_FD + 1, &v, 4) == 4 ? 0 : -1;
}

__attribute__((constructor)) static void fz_cov_fsrv(void)
{
    const char *on = getenv("FZ_COV_FSRV");
    if (!on || strcmp(on, "1") != 0)
        return;
    unsetenv("FZ_COV_FSRV");
    unsetenv("LD_PRELOAD");
    if (fcntl(FZ_FORKSRV_FD + 1, F_GETFD) < 0 || put_u32(0)) /* 0: plain AFL, no options */
        return;
    for (;;) {
        uint32_t was_killed;
        if (read(FZ_FORKSRV_FD, &was_killed, 4) != 4)
            _exit(0);
        pid_t pid = fork();
        if (pid < 0)
            _exit(1);
        if (pid == 0) {
            close(FZ_FORKSRV_FD);
            close(FZ_FORKSRV_FD + 1);
            static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
            for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
                signal(sigs[i], crash_to_exit);
            return; /* the program's constructors and main() follow */
        }
        int status = 0;
        if (put_u32((uint32_t)pid))
            _exit(0);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (put_u32((uint32_t)status))
            _exit(0);
    }
}
