/*
 * rt-fsrv.c - the forkserver, persistent mode and deferred init.
 *
 * Under a fuzzer (descriptors 198/199 are its pipes) the program stops
 * before main, speaks the AFL++ handshake (legacy, or version 1 when
 * __FZ_FSRV_VERSION=1; include/fz-protocol.h) and then forks one child per
 * request, reporting each child's pid and raw wait status.  Only the child
 * returns from here to the program.  Between fork() and that return the
 * code calls async-signal-safe functions only: the program may have threads
 * or locks we know nothing about.
 *
 * Persistent mode (__AFL_LOOP) keeps a child for many inputs: it stops
 * itself with SIGSTOP after each one, the forkserver sees WIFSTOPPED (it
 * waits with WUNTRACED), reports that status, and resumes the child with
 * SIGCONT on the next request.  This is exactly what afl-fuzz expects.
 *
 * Direct mode (fz-fuzz only, negotiated in the version-1 handshake; the
 * words are in include/fz-protocol.h): the persistent child keeps 198/199
 * and talks to the fuzzer itself, reading each request and answering "ok"
 * when the pass is done, so a run costs one pipe round trip between two
 * processes instead of a trip through the forkserver plus SIGSTOP/SIGCONT.
 * The forkserver parent only forks when the fuzzer asks and no child is
 * listening, and reports each child's death.  A MAP_SHARED page tells it
 * which run the child was in when it died (0: between runs).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "runtime/rt.h"

#define FZ_RT_EXPORT __attribute__((visibility("default")))
#define CTL_FD FZ_FORKSRV_FD
#define ST_FD (FZ_FORKSRV_FD + 1)

static struct {
    int started;     /* forkserver start attempted (at most once) */
    int in_child;    /* this process is a fuzzed child */
    int persistent;  /* the fuzzer said the binary is persistent */
    int fds_seen;    /* 198/199 were the fuzzer's pipes at start-up */
    int direct;      /* direct mode was negotiated (see the top) */
    int fds_checked; /* direct child: 198/199 checked after its first pass */
    pid_t me;        /* in a child: its pid (processes it forks are not it) */
    struct stat ctl_st, st_st;
} fs;

/* Shared between the forkserver parent and its child in direct mode: the
 * sequence number of the run the child is in, 0 while it is between runs.
 * The child writes it, the parent reads it after the child died. */
static volatile uint32_t *fz_direct_cur;

static void say(const char *msg)
{
    /* write(2) only: this may run where stdio is not safe. */
    if (write(2, msg, strlen(msg)) < 0)
        return;
}

static int is_pipe(int fd, struct stat *st)
{
    return fstat(fd, st) == 0 && (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode));
}

/* Runs before the program's own constructors: remembers the fuzzer's pipes,
 * so a program that closes or replaces them before the forkserver starts
 * gets a diagnosis instead of silently running outside the fuzzer. */
__attribute__((constructor(101))) static void fz_rt_early(void)
{
    fs.fds_seen = is_pipe(CTL_FD, &fs.ctl_st) && is_pipe(ST_FD, &fs.st_st);
}

/* Non-zero when 198/199 are the pipes remembered in fs (async-signal-safe:
 * two fstat calls). */
static int fds_ours(void)
{
    struct stat c, s;
    return is_pipe(CTL_FD, &c) && is_pipe(ST_FD, &s) && c.st_ino == fs.ctl_st.st_ino &&
           s.st_ino == fs.st_st.st_ino && c.st_dev == fs.ctl_st.st_dev &&
           s.st_dev == fs.st_st.st_dev;
}

/* Non-zero when 198/199 are (still) the fuzzer's pipes.  When the early
 * constructor did not see them, they are recorded now, for direct mode's
 * later checks.  Losing them before the handshake is fatal, and the fuzzer
 * hears why through the diagnostics page: our stderr usually goes to
 * /dev/null, and without the flag all it would see is a program that exits
 * without a handshake. */
static int fds_usable(void)
{
    if (!fs.fds_seen)
        return fs.fds_seen = is_pipe(CTL_FD, &fs.ctl_st) && is_pipe(ST_FD, &fs.st_st);
    if (fds_ours())
        return 1;
    __fz_rt_diag_fds_lost(FZ_DIAG_FDS_EARLY);
    say("fz-rt: error: the program closed or replaced descriptors 198/199 (the fuzzer's "
        "forkserver pipes) before the forkserver started; leave them open, or call "
        "__AFL_INIT() before the code that closes them\n");
    _exit(1);
}

/* A direct-mode child could not talk on 198/199.  If they are still the
 * fuzzer's pipes the fuzzer went away and the child just ends; if the
 * program closed or replaced them, the child ends too (it cannot answer)
 * but says so, since each input would then silently cost a fork.  The
 * exit is the run's result: status 0, reported by the parent. */
static void direct_fds_failed(void)
{
    if (!fds_ours()) {
        __fz_rt_diag_fds_lost(FZ_DIAG_FDS_IN_LOOP);
        say("fz-rt: error: the program closed or replaced descriptors 198/199 inside "
            "__AFL_LOOP; every input now costs a new process\n");
    }
    _exit(0);
}

static int write_u32(uint32_t v)
{
    return write(ST_FD, &v, 4) == 4 ? 0 : -1;
}

/* Several words in one write(2): a pipe write of up to PIPE_BUF bytes is
 * atomic, so the fuzzer never sees half a message. */
static int write_words(const uint32_t *w, size_t n)
{
    return write(ST_FD, w, n * 4) == (ssize_t)(n * 4) ? 0 : -1;
}

static int read_u32(uint32_t *v)
{
    size_t got = 0;
    while (got < 4) {
        ssize_t r = read(CTL_FD, (char *)v + got, 4 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* Legacy handshake (AFL++ 4.04c and older): one options word, and a reply
 * only when we asked for shared-memory input.  Returns 0 to serve runs. */
static int handshake_legacy(int err, uint32_t size, int want_shm)
{
    if (!err && size > FZ_FS_OPT_MAX_MAPSIZE)
        err = FZ_FS_ERROR_MAP_SIZE; /* the legacy word cannot express it */
    if (err) {
        write_u32(FZ_FS_OPT_ERROR | FZ_FS_OPT_SET_ERROR(err));
        _exit(1);
    }
    uint32_t opt = FZ_FS_OPT_ENABLED | FZ_FS_OPT_MAPSIZE | FZ_FS_OPT_SET_MAPSIZE(size);
    if (want_shm)
        opt |= FZ_FS_OPT_SHDMEM_FUZZ;
    if (write_u32(opt))
        return -1; /* nobody listening after all: run normally */
    if (!want_shm)
        return 0;
    uint32_t reply;
    if (read_u32(&reply))
        _exit(1);
    uint32_t yes = FZ_FS_OPT_ENABLED | FZ_FS_OPT_SHDMEM_FUZZ;
    if ((reply & yes) == yes && (err = __fz_rt_input_attach()) != 0) {
        __fz_rt_diag_nomem(errno);
        write_u32(FZ_FS_OPT_ERROR | FZ_FS_OPT_SET_ERROR(err));
        _exit(1);
    }
    return 0;
}

/* Version-1 handshake (AFL++ 4.20+, fz-fuzz): version, echo, options, map
 * size, version.  Shared-memory input is used when the fuzzer named a
 * segment in the environment.  Direct mode is offered to a fuzzer that
 * asked for it (FZ_ENV_FSRV_DIRECT) when the binary is persistent. */
static int handshake_v1(int err, uint32_t size, int want_shm)
{
    if (write_u32(FZ_FS_NEW_VERSION))
        return -1;
    uint32_t reply;
    if (read_u32(&reply))
        _exit(1);
    if (reply != (FZ_FS_NEW_VERSION ^ 0xffffffffu)) {
        say("fz-rt: error: the fuzzer answered the version-1 forkserver handshake wrongly; "
            "unset __FZ_FSRV_VERSION for AFL++ releases before 4.20\n");
        _exit(1);
    }
    int shm = 0;
    if (!err && want_shm && getenv(FZ_ENV_SHM_FUZZ_ID)) {
        err = __fz_rt_input_attach();
        shm = !err;
        if (err)
            __fz_rt_diag_nomem(errno);
    }
    if (err) {
        write_u32(FZ_FS_NEW_ERROR | (uint32_t)err);
        _exit(1);
    }
    const char *d = getenv(FZ_ENV_FSRV_DIRECT);
    if (fs.persistent && d && d[0] == '1' && !d[1]) {
        void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (page != MAP_FAILED) {
            fz_direct_cur = page;
            fs.direct = 1;
        }
    }
    uint32_t opt = FZ_FS_NEW_OPT_MAPSIZE | (shm ? FZ_FS_NEW_OPT_SHDMEM_FUZZ : 0) |
                   (fs.direct ? FZ_FS_NEW_OPT_FZ_DIRECT : 0);
    if (write_u32(opt) || write_u32(size) || write_u32(FZ_FS_NEW_VERSION))
        _exit(1);
    return 0;
}

/* Direct mode's forkserver: each request it reads finds no live child
 * (the child reads requests itself while it lives), so it forks one (which
 * says its own pid), waits for it to die and reports the death with the run it was
 * in.  Returns only in a new child, which keeps 198/199. */
static void serve_direct(void)
{
    for (;;) {
        uint32_t req;
        int status;
        if (read_u32(&req))
            _exit(0);
        *fz_direct_cur = req & FZ_FS_DIRECT_SEQ;
        pid_t child = fork();
        if (child < 0)
            _exit(1);
        if (child == 0) {
            fs.in_child = 1;
            fs.me = getpid();
            __fz_rt_diag_child_started();
            /* The child announces itself: were it the parent's word, the
             * child's own "ok" could overtake it in the pipe. */
            if (write_u32((uint32_t)fs.me))
                _exit(1);
            return;
        }
        __fz_rt_diag_peek(child, 0);
        int r;
        while ((r = waitpid(child, &status, 0)) < 0 && errno == EINTR)
            ;
        if (r < 0)
            _exit(1);
        /* Mid-run, a child only exits on its own through exit(), _exit()
         * or a return from main inside the loop; the child's exit handler
         * cannot see _exit(), so the parent tells. */
        if (WIFEXITED(status) && (*fz_direct_cur & FZ_FS_DIRECT_SEQ) != 0)
            __fz_rt_diag_exited_in_run();
        uint32_t msg[3] = {FZ_FS_DIRECT_DIED | (*fz_direct_cur & FZ_FS_DIRECT_SEQ), (uint32_t)child,
                           (uint32_t)status};
        if (write_words(msg, 3))
            _exit(1);
    }
}

/* Serves runs until the fuzzer goes away.  Returns only in a new child. */
static void serve(void)
{
    pid_t child = -1;
    int stopped = 0, status;
    for (;;) {
        uint32_t was_killed;
        if (read_u32(&was_killed)) {
            if (stopped)
                kill(child, SIGKILL); /* never leave a paused child behind */
            _exit(0);
        }
        /* The fuzzer killed our paused child (e.g. a timeout): reap it. */
        if (stopped && was_killed) {
            stopped = 0;
            while (waitpid(child, &status, 0) < 0 && errno == EINTR)
                ;
        }
        if (!stopped) {
            child = fork();
            if (child < 0)
                _exit(1);
            if (child == 0) {
                close(CTL_FD);
                close(ST_FD);
                fs.in_child = 1;
                fs.me = getpid();
                __fz_rt_diag_child_started();
                return;
            }
        } else {
            kill(child, SIGCONT);
            stopped = 0;
        }
        if (write_u32((uint32_t)child))
            _exit(1);
        __fz_rt_diag_peek(child, fs.persistent);
        int r;
        while ((r = waitpid(child, &status, fs.persistent ? WUNTRACED : 0)) < 0 && errno == EINTR)
            ;
        if (r < 0)
            _exit(1);
        stopped = WIFSTOPPED(status);
        if (write_u32((uint32_t)status))
            _exit(1);
    }
}

static void fsrv_start(void)
{
    if (!fds_usable())
        return;
    const char *v = getenv(FZ_ENV_FSRV_VERSION);
    const char *p = getenv(FZ_ENV_PERSISTENT);
    fs.persistent = p && *p && *p != '0';
    int err = __fz_rt_map_attach();
    if (err)
        __fz_rt_diag_nomem(__fz_rt_map_errno());
    uint32_t size = __fz_rt_map_size();
    int want_shm = __fz_rt_wants_shm_input();
    int rc = v && v[0] == '1' && !v[1] ? handshake_v1(err, size, want_shm)
                                       : handshake_legacy(err, size, want_shm);
    if (rc)
        return;
    /* A program that ignores SIGCHLD would make waitpid() fail; the
     * forkserver needs the default, the child gets the program's back. */
    struct sigaction dfl = {.sa_handler = SIG_DFL}, old;
    sigaction(SIGCHLD, &dfl, &old);
    __fz_rt_diag_fsrv_started();
    if (fs.direct) {
        /* The child keeps 198/199; a program it execs must not. */
        fcntl(CTL_FD, F_SETFD, FD_CLOEXEC);
        fcntl(ST_FD, F_SETFD, FD_CLOEXEC);
        serve_direct();
    } else {
        serve();
    }
    sigaction(SIGCHLD, &old, NULL);
}

FZ_RT_EXPORT void __fz_manual_init(void)
{
    if (fs.started)
        return;
    fs.started = 1;
    fsrv_start();
}
FZ_RT_EXPORT void __afl_manual_init(void) __attribute__((alias("__fz_manual_init")));

/* Default priority and linked last: runs after the program's constructors,
 * so their work is part of the snapshot every child starts from. */
__attribute__((constructor)) static void fz_rt_init(void)
{
    const char *d = getenv(FZ_ENV_DEFER);
    if (d && *d)
        return; /* __AFL_INIT() will start it */
    __fz_manual_init();
}

/* Direct mode, between two passes: reports the finished run, waits for the
 * next request and marks the child busy with it.  The fuzzer going away
 * ends the child. */
static void direct_next(void)
{
    uint32_t ok = FZ_FS_DIRECT_OK | (*fz_direct_cur & FZ_FS_DIRECT_SEQ), req;
    /* A program that replaced 198/199 with, say, a file would take our
     * words without an error; checking once per child, after the pass
     * where set-up code usually runs, catches that for one fstat pair.
     * Later closing shows as a failed write or read below. */
    if (!fs.fds_checked) {
        fs.fds_checked = 1;
        if (!fds_ours())
            direct_fds_failed();
    }
    if (write_u32(ok))
        direct_fds_failed();
    /* Idle from here: dying now is not the fuzzer's current run. */
    *fz_direct_cur = 0;
    if (read_u32(&req))
        direct_fds_failed();
    *fz_direct_cur = req & FZ_FS_DIRECT_SEQ;
}

/* __AFL_LOOP's state in this process: passes still allowed, and whether
 * the loop was entered at all. */
static int loop_first = 1;
static unsigned int loop_left;

/* A child's exit: a persistent child leaving while its loop still wanted
 * passes exited inside the loop (each such input costs a fork); any child
 * may have installed a crash handler during its run. */
__attribute__((destructor)) static void fz_rt_child_exit(void)
{
    if (!fs.in_child || getpid() != fs.me)
        return;
    if (fs.persistent && !loop_first && loop_left > 0)
        __fz_rt_diag_exit_in_loop();
    __fz_rt_diag_check_handlers();
}

FZ_RT_EXPORT int __fz_persistent_loop(unsigned int max)
{
    int live = fs.in_child && fs.persistent;
    /* A process the harness forked is not the fuzzer's child: it must not
     * read requests or answer them (direct mode), nor stop itself with
     * SIGSTOP (classic mode), where nobody would ever resume it and the
     * harness waiting for it would hang.  Its loop just ends. */
    if (live && getpid() != fs.me)
        return 0;
    if (loop_first) {
        loop_first = 0;
        loop_left = max ? max : 1;
        /* Coverage of the set-up before the loop is not the input's. */
        if (live)
            __fz_rt_map_clear();
        return 1;
    }
    if (live && loop_left > 1) {
        /* Handlers a harness installs usually come with its first pass. */
        if (loop_left-- == (max ? max : 1))
            __fz_rt_diag_check_handlers();
        if (fs.direct)
            direct_next();
        else
            raise(SIGSTOP);
        __fz_rt_map_clear();
        return 1;
    }
    /* What runs after the loop (exit handlers) is not the input's either. */
    if (live && loop_left == 1) {
        loop_left = 0; /* ended: later calls return 0 and say nothing */
        __fz_rt_map_detach();
        __fz_rt_diag_check_handlers();
        /* The last pass is done too; the child's exit comes after it and
         * belongs to no run (the parent reports it with seq 0). */
        if (fs.direct) {
            if (write_u32(FZ_FS_DIRECT_OK | (*fz_direct_cur & FZ_FS_DIRECT_SEQ)))
                direct_fds_failed();
            *fz_direct_cur = 0;
        }
    }
    return 0;
}
FZ_RT_EXPORT int __afl_persistent_loop(unsigned int max)
    __attribute__((alias("__fz_persistent_loop")));
