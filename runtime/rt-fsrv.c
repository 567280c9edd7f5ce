/*
 * rt-fsrv.c - the forkserver: start-up, handshake, classic runs and
 * deferred init.
 *
 * Under a fuzzer (descriptors 198/199 are its pipes) the program stops
 * before main, speaks the AFL++ handshake (legacy, or version 1 when
 * __FZ_FSRV_VERSION=1; include/fz-protocol.h) and then forks one child per
 * request, reporting each child's pid and raw wait status.  Only the child
 * returns from here to the program.  Between fork() and that return the
 * code calls async-signal-safe functions only: the program may have threads
 * or locks we know nothing about.
 *
 * Persistent mode (__AFL_LOOP) keeps a child for many inputs (rt-loop.c);
 * the forkserver waits with WUNTRACED, reports the stopped child's status
 * and resumes it with SIGCONT on the next request.  Direct mode and
 * batches (rt-direct.c) replace the pipes by a shared control page.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-cmplog.h"
#include "fz-protocol.h"
#include "runtime/rt-cmp.h"
#include "runtime/rt-crash.h"
#include "runtime/rt-diag.h"
#include "runtime/rt-direct.h"
#include "runtime/rt-fsrv.h"
#include "runtime/rt-input.h"
#include "runtime/rt-map.h"
#include "runtime/rt-proc.h"

#define FZ_RT_EXPORT __attribute__((visibility("default")))

static struct {
    int started;     /* forkserver start attempted (at most once) */
    int fds_seen;    /* 198/199 were the fuzzer's pipes at start-up */
    int cmp_preset;  /* the forkserver set the comparison flags before fork */
    struct stat ctl_st, st_st;
} fs;

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
    __fz_rt_diag_fds_early();
    say("fz-rt: error: the program closed or replaced descriptors 198/199 (the fuzzer's "
        "forkserver pipes) before the forkserver started; leave them open, or call "
        "__AFL_INIT() before the code that closes them\n");
    _exit(1);
}

static int write_u32(uint32_t v)
{
    return write(ST_FD, &v, 4) == 4 ? 0 : -1;
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

/* Harness-side mutation (include/fz-protocol.h): the option bits fz's
 * libFuzzer driver asked for before the fork point, offered with batches. */
static uint32_t fs_custom_opts;

void __fz_rt_set_custom(uint32_t opts)
{
    fs_custom_opts = opts & (FZ_FS_NEW_OPT_FZ_CUSTOM | FZ_FS_NEW_OPT_FZ_XOVER);
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
    __fz_rt_proc.direct = __fz_rt_proc.persistent && __fz_rt_direct_attach();
    int batches = __fz_rt_proc.direct && shm && __fz_rt_direct_batch_attach();
    uint32_t opt = FZ_FS_NEW_OPT_MAPSIZE | (shm ? FZ_FS_NEW_OPT_SHDMEM_FUZZ : 0) |
                   (__fz_rt_proc.direct ? FZ_FS_NEW_OPT_FZ_DIRECT : 0) |
                   (batches ? FZ_FS_NEW_OPT_FZ_BATCH : 0) |
                   /* fz's tools only (they name a diagnostics page): the
                    * fuzzer uses them with batches, and can say why not. */
                   (batches || getenv(FZ_ENV_DIAG_SHM_ID) ? fs_custom_opts : 0) |
                   (__fz_rt_cmp_ready() ? FZ_FS_NEW_OPT_FZ_CMPLOG : 0);
    if (write_u32(opt) || write_u32(size) || write_u32(FZ_FS_NEW_VERSION))
        _exit(1);
    return 0;
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
            /* The run's comparison flags are set here, before fork(), so
             * the child inherits them instead of reading the log's page
             * itself: one page fault less per run.  The fuzzer set the
             * log's enabled word before it sent this request. */
            __fz_rt_cmp_run_start(0);
            fs.cmp_preset = 1;
            child = fork();
            if (child < 0)
                _exit(1);
            if (child == 0) {
                close(CTL_FD);
                close(ST_FD);
                __fz_rt_proc_child_begin();
                __fz_rt_diag_child_started();
                return;
            }
        } else {
            kill(child, SIGCONT);
            stopped = 0;
        }
        if (write_u32((uint32_t)child))
            _exit(1);
        __fz_rt_diag_peek(child, __fz_rt_proc.persistent);
        int r;
        while ((r = waitpid(child, &status, __fz_rt_proc.persistent ? WUNTRACED : 0)) < 0 && errno == EINTR)
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
    __fz_rt_proc.persistent = p && *p && *p != '0';
    int err = __fz_rt_map_attach();
    if (err)
        __fz_rt_diag_nomem(__fz_rt_map_errno());
    __fz_rt_cmp_ready(); /* attach the log once, before any child is forked */
    uint32_t size = __fz_rt_map_size();
    __fz_rt_map_report_modules(); /* read by fz-fuzz once the handshake is done */
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
    __fz_rt_crash_install();
    /* Set malloc up once here, so that a child's first malloc() (stdio's
     * buffers, fopen) does not initialise the arena and grow the heap in
     * every run: that is a few system calls and page faults per child. */
    void *volatile warm = malloc(1);
    free(warm);
    __fz_rt_proc_watch_forks();
    if (__fz_rt_proc.direct)
        __fz_rt_direct_serve();
    else
        serve();
    sigaction(SIGCHLD, &old, NULL);
}

FZ_RT_EXPORT void __fz_manual_init(void)
{
    if (fs.started)
        return;
    fs.started = 1;
    fsrv_start();
    /* Here in a new child, or in a program running without a forkserver:
     * the run starts, and so may the comparison log (a classic forkserver
     * already did that before it forked this child). */
    if (!fs.cmp_preset)
        __fz_rt_cmp_run_start(0);
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
