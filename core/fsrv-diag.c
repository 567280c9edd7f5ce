/*
 * fsrv-diag.c - what to tell the user when the target does not start or
 * its forkserver breaks (core/fsrv-priv.h): each message names the cause
 * and the fix.
 */
#define _GNU_SOURCE
#include "core/fsrv-priv.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "fz-protocol.h"

void fz_fsrv_no_handshake(fz_fsrv_t *fs, int why, char *err, size_t errlen)
{
    const char *prog = fs->child_argv[0];
    int status = 0;
    if (why < 0 && fz_fsrv_wait_pid(fs->fsrv_pid, &status, 1000)) {
        fz_fsrv_gone(fs);
        why = -2; /* exited: status holds how */
    }
    /* The runtime flags this before it exits: the program's own stderr
     * (where it also says so) usually goes to /dev/null. */
    if (fs->shm.diag && (fs->shm.diag->flags & FZ_DIAG_FDS_EARLY)) {
        snprintf(err, errlen,
                 "'%s' closed or replaced fds %d/%d (the forkserver's pipes) before the "
                 "forkserver started; leave them open in fuzzing builds (#ifdef __AFL_COMPILER), "
                 "or call __AFL_INIT() before the code that closes them",
                 prog, FZ_FORKSRV_FD, FZ_FORKSRV_FD + 1);
        return;
    }
    if (why > 0) {
        snprintf(err, errlen,
                 "no forkserver handshake from '%s' within %u ms: it is not instrumented (build "
                 "it with fz-cc or afl-cc, or run with -n for blind mode) or its start-up is "
                 "very slow (raise -t)",
                 prog,
                 HANDSHAKE_MULT * fs->cfg.timeout_ms > HANDSHAKE_MIN_MS
                     ? HANDSHAKE_MULT * fs->cfg.timeout_ms
                     : HANDSHAKE_MIN_MS);
        return;
    }
    if (why != -2) {
        snprintf(err, errlen,
                 "'%s' closed the forkserver descriptors %d/%d without a handshake; the program "
                 "must not close or reuse fds %d and %d (or run with -n)",
                 prog, FZ_FORKSRV_FD, FZ_FORKSRV_FD + 1, FZ_FORKSRV_FD, FZ_FORKSRV_FD + 1);
        return;
    }
    if (WIFSIGNALED(status)) {
        snprintf(err, errlen,
                 "'%s' crashed at start-up with signal %d (%s) before the forkserver handshake "
                 "(in a constructor or early initialisation?); run it by hand to see why",
                 prog, WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else {
        snprintf(err, errlen,
                 "'%s' exited (code %d) without a forkserver handshake: it is not instrumented; "
                 "build it with fz-cc (or afl-cc), or use -n for blind mode without coverage",
                 prog, WEXITSTATUS(status));
    }
}

void fz_fsrv_setup_error(const fz_fsrv_t *fs, uint32_t code, char *err, size_t errlen)
{
    const char *why = "an unknown set-up error";
    char map_why[256];
    if (code & FZ_FS_ERROR_MAP_SIZE) {
        /* We always offer the whole of FZ_MAP_SIZE_MAX (and so does the
         * AFL_MAP_SIZE we set), so the map is bigger than fz can give. */
        snprintf(map_why, sizeof map_why,
                 "its coverage map is bigger than the %u bytes fz offers; instrument fewer files "
                 "(FZ_DENYLIST) or rebuild fz with a larger FZ_MAP_SIZE_MAX",
                 (unsigned)fs->shm.map_alloc);
        why = map_why;
    } else if (code & FZ_FS_ERROR_MAP_ADDR)
        why = "it was built for a fixed map address it could not map";
    else if (code & FZ_FS_ERROR_SHM_OPEN)
        why = "it could not open the shared memory";
    else if (code & FZ_FS_ERROR_SHMAT)
        why = "it could not attach the shared memory (shmat failed)";
    else if (code & FZ_FS_ERROR_MMAP)
        why = "it could not mmap the shared memory";
    snprintf(err, errlen, "'%s' reported a forkserver set-up error %u: %s", fs->child_argv[0], code,
             why);
}

fz_run_result_t fz_fsrv_run_error(fz_fsrv_t *fs, const char *what)
{
    int status = 0;
    const char *prog = fs->child_argv ? fs->child_argv[0] : "target";
    fs->broke_signal = 0;
    if (fs->fsrv_pid > 0 && fz_fsrv_wait_pid(fs->fsrv_pid, &status, 200)) {
        fz_fsrv_gone(fs);
        if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            /* Nothing but the run can kill the forkserver between two
             * words of the protocol: the input made the target kill its
             * parent or its process group (or, under -m, starve it). */
            fs->broke_signal = sig;
            char limit[96] = "";
            if (fs->cfg.mem_limit_mb)
                snprintf(limit, sizeof limit, ", or the -m %u MiB memory limit starved it",
                         fs->cfg.mem_limit_mb);
            snprintf(fs->errmsg, sizeof fs->errmsg,
                     "the forkserver of '%s' was killed by signal %d (%s) while %s: the input "
                     "made the target kill its own forkserver (kill(getppid(), ...), kill(0, "
                     "...) or killpg)%s",
                     prog, sig, strsignal(sig), what, limit);
        } else {
            snprintf(fs->errmsg, sizeof fs->errmsg,
                     "the forkserver of '%s' exited (code %d) while %s; does the program call "
                     "exit() itself before main, or close fds 198/199?",
                     prog, WIFEXITED(status) ? WEXITSTATUS(status) : -1, what);
        }
    } else {
        snprintf(fs->errmsg, sizeof fs->errmsg,
                 "the forkserver of '%s' stopped answering while %s; the target must not close "
                 "or reuse fds 198/199",
                 prog, what);
    }
    return FZ_RUN_ERROR;
}

void fz_fsrv_mem_limit_message(const fz_fsrv_t *fs, int nomem, char *err, size_t errlen)
{
    uint32_t mb = fs->cfg.mem_limit_mb;
    const char *prog = fs->child_argv[0];
    if (fz_fsrv_file_has(prog, "__asan_init"))
        snprintf(err, errlen,
                 "'%s' cannot start under the -m %u MiB memory limit: it is an AddressSanitizer "
                 "build, which reserves terabytes of address space at start-up; leave -m out for "
                 "sanitizer builds (ASan limits memory itself: ASAN_OPTIONS=hard_rss_limit_mb=N)",
                 prog, mb);
    else
        snprintf(err, errlen,
                 "'%s' cannot start under the -m %u MiB memory limit (%s); raise -m (the limit "
                 "is on address space, which shared libraries and the %u MiB coverage map count "
                 "against) or leave it out",
                 prog, mb,
                 nomem ? "it could not map the fuzzer's shared memory"
                       : "without the limit it starts",
                 (unsigned)(fs->shm.map_alloc >> 20));
}
