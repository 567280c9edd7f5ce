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
 * words are in include/fz-protocol.h): the persistent child and the fuzzer
 * hand each run over through a shared control page (fz_ctl_t), so a run
 * costs a store and at most one futex wake-up each way, and nothing at all
 * in the forkserver.  The forkserver only forks when a request finds no
 * live child, and reports a child that died in a run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fz-cmplog.h"
#include "fz-config.h"
#include "fz-protocol.h"
#include "runtime/rt-san.h"
#include "runtime/rt.h"

#define FZ_RT_EXPORT __attribute__((visibility("default")))
#define CTL_FD FZ_FORKSRV_FD
#define ST_FD (FZ_FORKSRV_FD + 1)
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* Direct mode: how long a sleeper on the control page sleeps before it
 * checks that the other side still lives, in ms.  Only idle processes
 * wake up this often, so the cost is nil; the delay only matters when the
 * fuzzer died, and the forkserver notices that at once anyway. */
#define CTL_CHECK_MS 1000

static struct {
    int started;     /* forkserver start attempted (at most once) */
    int in_child;    /* this process is a fuzzed child */
    int persistent;  /* the fuzzer said the binary is persistent */
    int fds_seen;    /* 198/199 were the fuzzer's pipes at start-up */
    int direct;      /* direct mode was negotiated (see the top) */
    int multi_cpu;   /* the machine has more than one CPU online */
    int cmp_preset;  /* the forkserver set the comparison flags before fork */
    volatile int forked; /* this process was forked by the program */
    pid_t me;        /* in a child: its pid (processes it forks are not it) */
    pid_t server;    /* the forkserver's pid */
    struct stat ctl_st, st_st;
} fs;

/* Direct mode's control page (include/fz-protocol.h), shared by the
 * fuzzer, the forkserver and its child. */
static fz_ctl_t *ctl;

/* Batches (include/fz-protocol.h, "Batches"): the fuzzer's inputs and its
 * virgin map (read-only), and the request being served: input b_idx runs
 * now, b_end is one past the last (0: a single run, no batch). */
static struct {
    const fz_batch_t *in;
    const uint8_t *virgin;
    size_t virgin_len;
    uint32_t idx, end;
} batch;

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

/* Direct mode is offered when the fuzzer asked for it and named a control
 * page we can attach, and the kernel has pidfds (Linux 5.3), which let the
 * forkserver wait for its child and for the fuzzer's end at once. */
static int ctl_attach(void)
{
    const char *d = getenv(FZ_ENV_FSRV_DIRECT), *id_str = getenv(FZ_ENV_CTL_SHM_ID);
    if (!d || d[0] != '1' || d[1] || !id_str || !*id_str)
        return 0;
    char *end;
    long id = strtol(id_str, &end, 10);
    struct shmid_ds ds;
    if (*end || id < 0 || shmctl((int)id, IPC_STAT, &ds) < 0 || ds.shm_segsz < sizeof(fz_ctl_t))
        return 0;
    int pfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    if (pfd < 0)
        return 0;
    close(pfd);
    void *mem = shmat((int)id, NULL, 0);
    if (mem == (void *)-1)
        return 0;
    ctl = mem;
    fs.multi_cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1;
    return 1;
}

/* Attaches one segment named by an environment variable, at least min
 * bytes; NULL if it cannot. */
static void *attach_named(const char *var, size_t min, int flags, size_t *len)
{
    const char *id_str = getenv(var);
    if (!id_str || !*id_str)
        return NULL;
    char *end;
    long id = strtol(id_str, &end, 10);
    struct shmid_ds ds;
    if (*end || id < 0 || shmctl((int)id, IPC_STAT, &ds) < 0 || ds.shm_segsz < min)
        return NULL;
    void *mem = shmat((int)id, NULL, flags);
    if (mem == (void *)-1)
        return NULL;
    *len = ds.shm_segsz;
    return mem;
}

/* Batches are offered when the fuzzer named both segments and they
 * attach: the inputs, and a virgin map as large as our map. */
static int batch_attach(void)
{
    size_t len;
    const void *in = attach_named(FZ_ENV_BATCH_SHM_ID, sizeof(fz_batch_t), SHM_RDONLY, &len);
    if (!in)
        return 0;
    const void *v = attach_named(FZ_ENV_VIRGIN_SHM_ID, __fz_rt_map_size(), SHM_RDONLY, &len);
    if (!v) {
        shmdt(in);
        return 0;
    }
    batch.in = in;
    batch.virgin = v;
    batch.virgin_len = len;
    return 1;
}

static uint32_t ld(volatile uint32_t *w)
{
    return __atomic_load_n(w, __ATOMIC_SEQ_CST);
}

static void st(volatile uint32_t *w, uint32_t v)
{
    __atomic_store_n(w, v, __ATOMIC_SEQ_CST);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Sets the fuzzer's answer word and wakes it if it sleeps.  The store and
 * the flag load are both sequentially consistent, as are the fuzzer's flag
 * store and word load, so either it sees the word or we see the flag. */
static void post_ans(uint32_t v)
{
    st(&ctl->ans, v);
    if (ld(&ctl->ans_sleeping))
        syscall(SYS_futex, &ctl->ans, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Waits until the fuzzer posts a request other than old and returns it:
 * spins up to spin polls, then sleeps on the word, calling check() each
 * time a sleep of CTL_CHECK_MS ends with nothing new. */
static uint32_t wait_req(uint32_t old, uint32_t spin, void (*check)(void))
{
    uint32_t v;
    for (uint32_t i = 0; i < spin; i++) {
        if ((v = ld(&ctl->req)) != old)
            return v;
        cpu_relax();
    }
    for (;;) {
        st(&ctl->req_sleeping, 1);
        if ((v = ld(&ctl->req)) != old)
            break;
        struct timespec ts = {CTL_CHECK_MS / 1000, (CTL_CHECK_MS % 1000) * 1000000L};
        long r = syscall(SYS_futex, &ctl->req, FUTEX_WAIT, old, &ts, NULL, 0);
        if ((v = ld(&ctl->req)) != old)
            break;
        if (r < 0 && errno == ETIMEDOUT)
            check();
    }
    st(&ctl->req_sleeping, 0);
    return v;
}

/* Non-zero when the fuzzer is gone: nobody holds the writing end of 198
 * any more (a fuzzer killed with SIGKILL included). */
static int fuzzer_gone(void)
{
    struct pollfd p = {CTL_FD, 0, 0};
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}

static void server_check(void)
{
    if (fuzzer_gone())
        _exit(0);
}

/* A child whose forkserver died (PR_SET_PDEATHSIG normally kills it first)
 * has nobody to answer to. */
static void child_check(void)
{
    if (getppid() != fs.server)
        _exit(0);
}

/* Spin only where it can pay: the fuzzer asked (it gave the target a CPU
 * of its own) and there is a second CPU to spin on. */
static uint32_t spin_budget(void)
{
    return fs.multi_cpu ? ld(&ctl->spin) : 0;
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
    fs.direct = fs.persistent && ctl_attach();
    int batches = fs.direct && shm && batch_attach();
    uint32_t opt = FZ_FS_NEW_OPT_MAPSIZE | (shm ? FZ_FS_NEW_OPT_SHDMEM_FUZZ : 0) |
                   (fs.direct ? FZ_FS_NEW_OPT_FZ_DIRECT : 0) |
                   (batches ? FZ_FS_NEW_OPT_FZ_BATCH : 0) |
                   /* fz's tools only (they name a diagnostics page): the
                    * fuzzer uses them with batches, and can say why not. */
                   (batches || getenv(FZ_ENV_DIAG_SHM_ID) ? fs_custom_opts : 0) |
                   (__fz_rt_cmp_ready() ? FZ_FS_NEW_OPT_FZ_CMPLOG : 0);
    if (write_u32(opt) || write_u32(size) || write_u32(FZ_FS_NEW_VERSION))
        _exit(1);
    return 0;
}

/* Reads the request just taken: a batch, or a single run (req_n 0, or a
 * range outside the segment, which a correct fuzzer never sends).  Sets
 * bcur to the batch's first input. */
static void take_batch(void)
{
    uint32_t n = batch.in ? ld(&ctl->req_n) : 0, from = ld(&ctl->req_from);
    if (n == 0 || from >= FZ_BATCH_MAX || n > FZ_BATCH_MAX - from) {
        batch.end = 0;
        return;
    }
    batch.idx = from;
    batch.end = from + n;
    st(&ctl->bcur, from);
}

/* Puts batch input idx where the harness reads its input.  Offsets and
 * lengths are the fuzzer's: checked against the segment. */
static void batch_load(void)
{
    if (!batch.end)
        return;
    uint32_t off = batch.in->off[batch.idx], len = batch.in->len[batch.idx];
    uint32_t req = len & FZ_BATCH_CUSTOM; /* a request for the harness's mutator */
    len &= ~FZ_BATCH_CUSTOM;
    if (off > FZ_BATCH_DATA || len > FZ_BATCH_DATA - off)
        off = len = 0;
    __fz_rt_input_set(batch.in->data + off, len | req);
}

/* A direct-mode child, right after fork(): it needs no descriptors (the
 * control page carries everything), dies with the forkserver and says its
 * pid.  Async-signal-safe calls only. */
static void ctl_child_start(void)
{
    fs.in_child = 1;
    fs.forked = 0;
    fs.me = getpid();
    close(CTL_FD);
    close(ST_FD);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != fs.server)
        _exit(0); /* the forkserver died before prctl took effect */
    st(&ctl->pid, (uint32_t)fs.me);
    __fz_rt_diag_child_started();
    batch_load();
}

/* Waits for child to exit (without reaping it).  If the fuzzer goes away
 * meanwhile, kills the child and ends the forkserver: nothing is left
 * behind a fuzzer killed with SIGKILL. */
static void ctl_wait_child(pid_t child)
{
    int pfd = (int)syscall(SYS_pidfd_open, child, 0);
    if (pfd < 0)
        return; /* out of descriptors: the caller's waitpid() blocks instead */
    struct pollfd p[2] = {{pfd, POLLIN, 0}, {CTL_FD, 0, 0}};
    for (;;) {
        int r = poll(p, 2, -1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 || p[1].revents) {
            kill(child, SIGKILL);
            _exit(0);
        }
        if (p[0].revents)
            break;
    }
    close(pfd);
}

/* Direct mode's forkserver: forks a child whenever the fuzzer posted a
 * request no child took, and reports a child that died in a run.  Returns
 * only in a new child. */
static void serve_ctl(void)
{
    fs.server = getpid();
    for (;;) {
        uint32_t s = wait_req(ld(&ctl->taken), 0, server_check);
        st(&ctl->cur, s);
        st(&ctl->taken, s);
        take_batch(); /* the child inherits the request */
        /* The fuzzer leaves clearing to us: a child that dies before its
         * first pass must not report the previous run's coverage. */
        __fz_rt_map_clear();
        pid_t child = fork();
        if (child == 0) {
            ctl_child_start();
            return;
        }
        if (child < 0) {
            st(&ctl->dead_pid, 0); /* the fuzzer reports a failed fork */
            post_ans(FZ_FS_DIRECT_DIED | s);
            _exit(1);
        }
        st(&ctl->pid, (uint32_t)child);
        ctl_wait_child(child);
        __fz_rt_diag_peek(child, 0);
        /* Cleared before the reap: the fuzzer must never kill a pid that
         * may already belong to someone else. */
        st(&ctl->pid, 0);
        int status, r;
        while ((r = waitpid(child, &status, 0)) < 0 && errno == EINTR)
            ;
        if (r < 0)
            _exit(1);
        uint32_t d = ld(&ctl->cur);
        if (d == 0)
            continue; /* died between runs: no run's result */
        /* Mid-run, a child only exits on its own through exit(), _exit()
         * or a return from main inside the loop; the child's exit handler
         * cannot see _exit(), so the parent tells. */
        if (WIFEXITED(status))
            __fz_rt_diag_exited_in_run();
        /* The child sets cur before taken: a death between the two must
         * not make us fork again for the run it was in. */
        st(&ctl->taken, d);
        st(&ctl->cur, 0);
        if (ld(&ctl->ans) == (FZ_FS_DIRECT_OK | d))
            continue; /* it answered, then died before it marked itself idle */
        st(&ctl->dead_pid, (uint32_t)child);
        st(&ctl->dead_status, (uint32_t)status);
        post_ans(FZ_FS_DIRECT_DIED | d);
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
                fs.in_child = 1;
                fs.forked = 0;
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

/* Runs in every process fork() makes after the forkserver started (its
 * own children reset it): such a process is the program's, not a run. */
static void note_fork(void)
{
    fs.forked = 1;
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
    pthread_atfork(NULL, NULL, note_fork);
    if (fs.direct) {
            serve_ctl();
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

/* Direct mode, between two passes.  In a batch whose pass found nothing
 * new, moves on to the next input without a word to the fuzzer.
 * Otherwise reports the finished run, waits for the next request and
 * marks the child busy with it (cur before taken: see serve_ctl).  errno
 * is the program's. */
static void ctl_next(void)
{
    int e = errno;
    if (batch.end && batch.idx + 1 < batch.end &&
        !__fz_rt_map_any_new(batch.virgin, batch.virgin_len)) {
        st(&ctl->bcur, ++batch.idx);
        batch_load();
        errno = e;
        return;
    }
    uint32_t s = ld(&ctl->cur);
    post_ans(FZ_FS_DIRECT_OK | s);
    /* Idle from here: dying now is not the fuzzer's current run. */
    st(&ctl->cur, 0);
    s = wait_req(s, spin_budget(), child_check);
    st(&ctl->cur, s);
    st(&ctl->taken, s);
    take_batch();
    batch_load();
    errno = e;
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
    if (live && fs.forked)
        return 0;
    if (loop_first) {
        loop_first = 0;
        loop_left = max ? max : 1;
        /* Coverage of the set-up before the loop is not the input's. */
        if (live) {
            __fz_rt_map_clear();
            __fz_rt_cmp_run_start(1);
        }
        return 1;
    }
    if (live && loop_left > 1) {
        /* Handlers a harness installs usually come with its first pass. */
        if (loop_left-- == (max ? max : 1))
            __fz_rt_diag_check_handlers();
        if (fs.direct)
            ctl_next();
        else
            raise(SIGSTOP);
        __fz_rt_map_clear();
        __fz_rt_san_new_run();
        __fz_rt_cmp_run_start(0);
        return 1;
    }
    /* What runs after the loop (exit handlers) is not the input's either. */
    if (live && loop_left == 1) {
        loop_left = 0; /* ended: later calls return 0 and say nothing */
        __fz_rt_map_detach();
        __fz_rt_cmp_stop();
        __fz_rt_diag_check_handlers();
        /* The last pass is done too; the child's exit comes after it and
         * belongs to no run (the parent reports it with seq 0). */
        if (fs.direct) {
            post_ans(FZ_FS_DIRECT_OK | ld(&ctl->cur));
            st(&ctl->cur, 0);
        }
    }
    return 0;
}
FZ_RT_EXPORT int __afl_persistent_loop(unsigned int max)
    __attribute__((alias("__fz_persistent_loop")));
