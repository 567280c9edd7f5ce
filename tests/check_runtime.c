/*
 * check_runtime.c - the runtime's side of the forkserver protocol, checked
 * word by word by a minimal fuzzer written here (include/fz-protocol.h):
 * both handshakes, the map size report, error words, the per-run loop,
 * persistent pauses (WIFSTOPPED), was_killed, shared-memory input, deferred
 * init and the closed-descriptor diagnosis; and fz's direct persistent mode
 * over the shared control page (negotiation, ok runs, crash and exit
 * mid-run, loop end, kill while idle, timeout kills at any moment, the
 * fuzzer dying first while idle or mid-run, sleeping instead of spinning
 * when idle or with no spin budget); and batches over direct mode
 * (negotiation, runs back to back until a new bucket, a crash, an exit or
 * a hang mid-batch, the loop count ending mid-batch, a bad range, the
 * fuzzer dying while a batch's run hangs).
 *
 * Targets (built by runtime/module.mk, hand-instrumented, no fz-cc needed):
 *   build/rt/rt_edges  testcases/rt_edges.c, 16 slots, stdin/file input
 *   build/rt/rt_loop   testcases/rt_loop.c, persistent (4 per child) + shm
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fz-config.h"
#include "fz-protocol.h"
#include "tests/check-run.h"

#define EDGES "build/rt/rt_edges"
#define LOOP "build/rt/rt_loop"

typedef struct {
    pid_t pid;
    int ctl, st, in_fd, err_fd;
    uint8_t *map, *fuzz;
    int map_id, fuzz_id, ctl_id;
    fz_ctl_t *cp; /* direct mode's control page */
    int batch_id, virgin_id;
    fz_batch_t *batch; /* batches: the inputs... */
    uint8_t *virgin;   /* ...and the virgin map the target judges them by */
} tgt_t;

/* tgt_start names the batch segments to the target (off: it is not told). */
static int tgt_batch_env = 1;

/* Starts path with the fuzzer's pipes on 198/199, a map of map_bytes and
 * the test-case shm; env is a NULL-terminated list of NAME=VALUE. */
static void tgt_start(tgt_t *t, const char *path, uint32_t map_bytes, const char *const *env)
{
    memset(t, 0, sizeof *t);
    t->map_id = shmget(IPC_PRIVATE, map_bytes, IPC_CREAT | 0600);
    t->fuzz_id = shmget(IPC_PRIVATE, FZ_MAX_INPUT + FZ_SHM_FUZZ_HDR, IPC_CREAT | 0600);
    ck_assert(t->map_id >= 0 && t->fuzz_id >= 0);
    t->ctl_id = shmget(IPC_PRIVATE, FZ_CTL_SIZE, IPC_CREAT | 0600);
    ck_assert(t->ctl_id >= 0);
    t->batch_id = shmget(IPC_PRIVATE, sizeof(fz_batch_t), IPC_CREAT | 0600);
    t->virgin_id = shmget(IPC_PRIVATE, map_bytes, IPC_CREAT | 0600);
    ck_assert(t->batch_id >= 0 && t->virgin_id >= 0);
    t->map = shmat(t->map_id, NULL, 0);
    t->fuzz = shmat(t->fuzz_id, NULL, 0);
    t->cp = shmat(t->ctl_id, NULL, 0);
    t->batch = shmat(t->batch_id, NULL, 0);
    t->virgin = shmat(t->virgin_id, NULL, 0);
    memset(t->virgin, 0xff, map_bytes);
    shmctl(t->map_id, IPC_RMID, NULL);
    shmctl(t->fuzz_id, IPC_RMID, NULL);
    shmctl(t->ctl_id, IPC_RMID, NULL);
    shmctl(t->batch_id, IPC_RMID, NULL);
    shmctl(t->virgin_id, IPC_RMID, NULL);
    char in_name[] = "/tmp/check_runtime.XXXXXX", err_name[] = "/tmp/check_runtime.XXXXXX";
    t->in_fd = mkstemp(in_name);
    t->err_fd = mkstemp(err_name);
    unlink(in_name);
    unlink(err_name);
    int ctl[2], st[2];
    ck_assert(pipe(ctl) == 0 && pipe(st) == 0);
    t->pid = fork();
    ck_assert(t->pid >= 0);
    if (t->pid == 0) {
        dup2(ctl[0], FZ_FORKSRV_FD);
        dup2(st[1], FZ_FORKSRV_FD + 1);
        dup2(t->in_fd, 0);
        dup2(t->err_fd, 2);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        close(ctl[0]), close(ctl[1]), close(st[0]), close(st[1]), close(null);
        char buf[32];
        snprintf(buf, sizeof buf, "%d", t->map_id);
        setenv(FZ_ENV_SHM_ID, buf, 1);
        snprintf(buf, sizeof buf, "%d", t->fuzz_id);
        setenv(FZ_ENV_SHM_FUZZ_ID, buf, 1);
        snprintf(buf, sizeof buf, "%d", t->ctl_id);
        setenv(FZ_ENV_CTL_SHM_ID, buf, 1);
        if (tgt_batch_env) {
            snprintf(buf, sizeof buf, "%d", t->batch_id);
            setenv(FZ_ENV_BATCH_SHM_ID, buf, 1);
            snprintf(buf, sizeof buf, "%d", t->virgin_id);
            setenv(FZ_ENV_VIRGIN_SHM_ID, buf, 1);
        }
        for (; env && *env; env++)
            putenv((char *)*env);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(ctl[0]);
    close(st[1]);
    t->ctl = ctl[1];
    t->st = st[0];
}

/* Reads a word with a 5 s guard, so a broken runtime fails, not hangs. */
static int rd(tgt_t *t, uint32_t *v)
{
    struct pollfd p = {.fd = t->st, .events = POLLIN};
    if (poll(&p, 1, 5000) != 1)
        return -2;
    return read(t->st, v, 4) == 4 ? 0 : -1;
}

static uint32_t rd_ok(tgt_t *t)
{
    uint32_t v = 0;
    ck_assert_int_eq(rd(t, &v), 0);
    return v;
}

static void wr(tgt_t *t, uint32_t v)
{
    ck_assert_int_eq(write(t->ctl, &v, 4), 4);
}

/* One run: input into the stdin file and the test-case shm, clear the map,
 * then was_killed -> pid -> status. */
static int run(tgt_t *t, const char *input, uint32_t was_killed, uint32_t *pid)
{
    uint32_t len = (uint32_t)strlen(input);
    ck_assert(ftruncate(t->in_fd, 0) == 0);
    ck_assert(pwrite(t->in_fd, input, len, 0) == (ssize_t)len);
    lseek(t->in_fd, 0, SEEK_SET);
    memcpy(t->fuzz, &len, 4);
    memcpy(t->fuzz + FZ_SHM_FUZZ_HDR, input, len);
    memset(t->map, 0, 64);
    wr(t, was_killed);
    *pid = rd_ok(t);
    return (int)rd_ok(t);
}

/* Closes what is left of the fuzzer's side: descriptors and segments. */
static void tgt_release(tgt_t *t)
{
    close(t->ctl), close(t->st), close(t->in_fd), close(t->err_fd);
    shmdt(t->map), shmdt(t->fuzz), shmdt(t->cp), shmdt(t->batch), shmdt(t->virgin);
}

static void tgt_stop(tgt_t *t)
{
    kill(t->pid, SIGKILL);
    waitpid(t->pid, NULL, 0);
    pid_t live = (pid_t)t->cp->pid;
    if (live > 0)
        kill(live, SIGKILL);
    tgt_release(t);
}

static int map_count(tgt_t *t)
{
    int n = 0;
    for (int i = 0; i < 64; i++)
        n += t->map[i] != 0;
    return n;
}

START_TEST(legacy_handshake_and_runs)
{
    tgt_t t;
    tgt_start(&t, EDGES, 65536, NULL);
    uint32_t opt = rd_ok(&t), pid, pid2;
    ck_assert_uint_eq(opt & FZ_FS_OPT_ENABLED, FZ_FS_OPT_ENABLED);
    ck_assert_uint_eq(opt & FZ_FS_OPT_MAPSIZE, FZ_FS_OPT_MAPSIZE);
    ck_assert_uint_eq(opt & FZ_FS_OPT_SHDMEM_FUZZ, 0);
    ck_assert_uint_eq(FZ_FS_OPT_GET_MAPSIZE(opt), 64); /* 1 + 16 slots, rounded */
    int s = run(&t, "aaa", 0, &pid);
    ck_assert(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    ck_assert_int_eq(t.map[0], 0); /* slot 0 stays AFL++'s */
    ck_assert_int_eq(map_count(&t), 2);
    s = run(&t, "FUx", 0, &pid2);
    ck_assert_uint_ne(pid, pid2);
    ck_assert_int_eq(map_count(&t), 4);
    s = run(&t, "FUZ!", 0, &pid);
    ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT);
    tgt_stop(&t);
}
END_TEST

START_TEST(v1_handshake)
{
    tgt_t t;
    const char *env[] = {FZ_ENV_FSRV_VERSION "=1", NULL};
    tgt_start(&t, EDGES, 65536, env);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_NEW_VERSION);
    wr(&t, FZ_FS_NEW_VERSION ^ 0xffffffffu);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_NEW_OPT_MAPSIZE);
    ck_assert_uint_eq(rd_ok(&t), 64);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_NEW_VERSION);
    uint32_t pid;
    int s = run(&t, "FU", 0, &pid);
    ck_assert(WIFEXITED(s));
    ck_assert_int_eq(map_count(&t), 3);
    tgt_stop(&t);
}
END_TEST

START_TEST(map_too_small_reports_needed_size)
{
    /* The fuzzer offers 8 bytes; the module needs 17: it keeps its scratch
     * counters (the map stays clean) and the handshake says 64. */
    tgt_t t;
    const char *env[] = {FZ_ENV_MAP_SIZE "=8", NULL};
    tgt_start(&t, EDGES, 65536, env);
    uint32_t opt = rd_ok(&t), pid;
    ck_assert_uint_eq(FZ_FS_OPT_GET_MAPSIZE(opt), 64);
    run(&t, "FUx", 0, &pid);
    ck_assert_int_eq(map_count(&t), 0);
    tgt_stop(&t);
}
END_TEST

START_TEST(bad_shm_id_is_an_error_word)
{
    tgt_t t;
    const char *env[] = {FZ_ENV_SHM_ID "=2147483000", NULL};
    tgt_start(&t, EDGES, 65536, env);
    uint32_t w = rd_ok(&t);
    ck_assert_uint_eq(w & FZ_FS_OPT_ERROR, FZ_FS_OPT_ERROR);
    ck_assert_uint_eq(FZ_FS_OPT_GET_ERROR(w), FZ_FS_ERROR_SHM_OPEN);
    tgt_stop(&t);

    const char *env1[] = {FZ_ENV_SHM_ID "=2147483000", FZ_ENV_FSRV_VERSION "=1", NULL};
    tgt_start(&t, EDGES, 65536, env1);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_NEW_VERSION);
    wr(&t, FZ_FS_NEW_VERSION ^ 0xffffffffu);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_NEW_ERROR | FZ_FS_ERROR_SHM_OPEN);
    tgt_stop(&t);
}
END_TEST

/* Legacy handshake for rt_loop with shared memory accepted. */
static void loop_start(tgt_t *t, const char *const *env)
{
    tgt_start(t, LOOP, 65536, env);
    uint32_t opt = rd_ok(t);
    ck_assert_uint_eq(opt & FZ_FS_OPT_SHDMEM_FUZZ, FZ_FS_OPT_SHDMEM_FUZZ);
    wr(t, FZ_FS_OPT_ENABLED | FZ_FS_OPT_SHDMEM_FUZZ);
}

START_TEST(persistent_stops_and_resumes)
{
    tgt_t t;
    const char *env[] = {FZ_ENV_PERSISTENT "=1", FZ_ENV_DEFER "=1", NULL};
    loop_start(&t, env);
    uint32_t pid[6];
    int s[6];
    const char *in[] = {"a", "b", "c", "d", "e", "!"};
    for (int i = 0; i < 6; i++) {
        s[i] = run(&t, in[i], 0, &pid[i]);
        if (i < 5)
            ck_assert_int_eq(map_count(&t), 1); /* each input alone, nothing from exit */
    }
    /* Iterations 1-3 pause; the 4th returns from __AFL_LOOP and exits. */
    ck_assert(WIFSTOPPED(s[0]) && WIFSTOPPED(s[1]) && WIFSTOPPED(s[2]));
    ck_assert(WIFEXITED(s[3]));
    ck_assert_uint_eq(pid[0], pid[1]);
    ck_assert_uint_eq(pid[0], pid[3]);
    ck_assert_uint_ne(pid[3], pid[4]); /* a new child */
    ck_assert(WIFSIGNALED(s[5]) && WTERMSIG(s[5]) == SIGABRT);
    ck_assert_uint_eq(pid[4], pid[5]);
    tgt_stop(&t);
}
END_TEST

START_TEST(persistent_was_killed_and_exit_in_loop)
{
    tgt_t t;
    const char *env[] = {FZ_ENV_PERSISTENT "=1", NULL};
    loop_start(&t, env);
    uint32_t p1, p2, p3;
    int s = run(&t, "a", 0, &p1);
    ck_assert(WIFSTOPPED(s));
    kill((pid_t)p1, SIGKILL); /* as a fuzzer does on a timeout */
    s = run(&t, "b", 1, &p2);
    ck_assert_uint_ne(p1, p2);
    ck_assert(WIFSTOPPED(s));
    ck_assert_int_eq(t.map[2], 1);
    /* exit() inside the loop: the fuzzer sees an exit where a stop was
     * expected, and the next run needs a fresh child. */
    s = run(&t, "x", 0, &p3);
    ck_assert_uint_eq(p2, p3);
    ck_assert(WIFEXITED(s));
    s = run(&t, "c", 0, &p3);
    ck_assert_uint_ne(p2, p3);
    tgt_stop(&t);
}
END_TEST

/* A process the harness forks inside the loop must not stop itself with
 * SIGSTOP (nobody would resume it, and the harness waiting for it would
 * hang): its __AFL_LOOP returns 0, it exits, and the pass finishes as a
 * normal pause of the real child. */
START_TEST(persistent_forked_process_leaves_the_loop)
{
    tgt_t t;
    const char *env[] = {FZ_ENV_PERSISTENT "=1", FZ_ENV_DEFER "=1", NULL};
    loop_start(&t, env);
    uint32_t p1, p2;
    ck_assert(WIFSTOPPED(run(&t, "f", 0, &p1)));
    ck_assert(WIFSTOPPED(run(&t, "a", 0, &p2)));
    ck_assert_uint_eq(p1, p2);
    ck_assert_int_eq(t.map[1], 1); /* 'a' (slot 0 is never handed out) */
    tgt_stop(&t);
}
END_TEST

START_TEST(closed_fds_before_init_are_diagnosed)
{
    tgt_t t;
    const char *env[] = {FZ_ENV_DEFER "=1", "RT_CLOSE_FDS=1", NULL};
    tgt_start(&t, LOOP, 65536, env);
    uint32_t w;
    ck_assert_int_eq(rd(&t, &w), -1); /* EOF, no handshake */
    int s;
    waitpid(t.pid, &s, 0);
    ck_assert(WIFEXITED(s) && WEXITSTATUS(s) == 1);
    char msg[512] = {0};
    ck_assert(pread(t.err_fd, msg, sizeof msg - 1, 0) > 0);
    ck_assert_ptr_nonnull(strstr(msg, "descriptors 198/199"));
    tgt_stop(&t);
}
END_TEST

/* ---- Direct persistent mode (include/fz-protocol.h) ---- */

static const char *const direct_env[] = {FZ_ENV_FSRV_VERSION "=1", FZ_ENV_FSRV_DIRECT "=1",
                                         FZ_ENV_PERSISTENT "=1", FZ_ENV_DEFER "=1", NULL};

/* Version-1 handshake with rt_loop; returns the options word. */
static uint32_t v1_start(tgt_t *t, const char *path, const char *const *env)
{
    tgt_start(t, path, 65536, env);
    ck_assert_uint_eq(rd_ok(t), FZ_FS_NEW_VERSION);
    wr(t, FZ_FS_NEW_VERSION ^ 0xffffffffu);
    uint32_t opt = rd_ok(t);
    ck_assert_uint_eq(opt & FZ_FS_NEW_OPT_MAPSIZE, FZ_FS_NEW_OPT_MAPSIZE);
    rd_ok(t); /* map size */
    ck_assert_uint_eq(rd_ok(t), FZ_FS_NEW_VERSION);
    return opt;
}

/* Puts input in the test-case shm, clears the map, posts request seq (and
 * wakes the target if it sleeps), as fz-fuzz does. */
static void dreq(tgt_t *t, uint32_t seq, const char *input)
{
    uint32_t len = (uint32_t)strlen(input);
    memcpy(t->fuzz, &len, 4);
    memcpy(t->fuzz + FZ_SHM_FUZZ_HDR, input, len);
    memset(t->map, 0, 64);
    t->cp->req_n = 0; /* one run, not a batch */
    __atomic_store_n(&t->cp->req, seq, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&t->cp->req_sleeping, __ATOMIC_SEQ_CST))
        syscall(SYS_futex, &t->cp->req, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
}

#define TAG(w) ((w)&FZ_FS_DIRECT_TAG_MASK)
#define SEQ(w) ((w)&FZ_FS_DIRECT_SEQ)

/* Polls until cond holds, with a 5 s guard so a broken runtime fails. */
#define WAIT_FOR(cond)                                                    \
    do {                                                                  \
        int waited_ = 0;                                                  \
        while (!(cond) && waited_++ < 5000)                               \
            usleep(1000);                                                 \
        ck_assert_msg(cond, "timed out waiting for " #cond);              \
    } while (0)

/* The answer to run seq (OK or DIED). */
static uint32_t dans(tgt_t *t, uint32_t seq)
{
    WAIT_FOR(SEQ(t->cp->ans) == seq);
    return t->cp->ans;
}

/* The answer to run seq must be DIED; returns the status, checks the pid. */
static int died(tgt_t *t, uint32_t seq, uint32_t pid)
{
    uint32_t w = dans(t, seq);
    ck_assert_uint_eq(TAG(w), FZ_FS_DIRECT_DIED);
    ck_assert_uint_eq(t->cp->dead_pid, pid);
    return (int)t->cp->dead_status;
}

/* Process state letter from /proc/PID/stat ('R' running, 'S' sleeping,
 * 'Z' zombie), 0 when the process is gone. */
static char proc_state(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : 0;
}

/* A process that is gone or a zombie (reparented, awaiting its reaper). */
static int ended(pid_t pid)
{
    char c = proc_state(pid);
    return c == 0 || c == 'Z' || c == 'X';
}

/* Sleeping, judged over 20 samples: a spinner is almost always 'R'. */
static int sleeping(pid_t pid)
{
    int s = 0;
    for (int i = 0; i < 20; i++, usleep(2000))
        s += proc_state(pid) == 'S';
    return s >= 18;
}

/* The fuzzer goes away (closing 198 is what its death does, SIGKILL
 * included): the forkserver must exit and child (0: none) end; then the
 * rest of t is released.  k names the case in a failure. */
static void fuzzer_leaves(tgt_t *t, uint32_t child, int k)
{
    close(t->ctl);
    t->ctl = -1;
    int s, waited = 0;
    while (waitpid(t->pid, &s, WNOHANG) == 0 && waited++ < 5000)
        usleep(1000);
    ck_assert_msg(waited < 5000, "the forkserver outlived the fuzzer (case %d)", k);
    if (child)
        WAIT_FOR(ended((pid_t)child));
    tgt_release(t);
}

START_TEST(direct_negotiation)
{
    tgt_t t;
    /* Only when asked, only for persistent binaries, only in version 1. */
    const char *no_ask[] = {FZ_ENV_FSRV_VERSION "=1", FZ_ENV_PERSISTENT "=1", FZ_ENV_DEFER "=1",
                            NULL};
    ck_assert_uint_eq(v1_start(&t, LOOP, no_ask) & FZ_FS_NEW_OPT_FZ_DIRECT, 0);
    tgt_stop(&t);
    const char *not_pers[] = {FZ_ENV_FSRV_VERSION "=1", FZ_ENV_FSRV_DIRECT "=1", NULL};
    ck_assert_uint_eq(v1_start(&t, EDGES, not_pers) & FZ_FS_NEW_OPT_FZ_DIRECT, 0);
    tgt_stop(&t);
    /* A control page that cannot be attached: the classic protocol. */
    const char *bad_page[] = {FZ_ENV_FSRV_VERSION "=1", FZ_ENV_FSRV_DIRECT "=1",
                              FZ_ENV_PERSISTENT "=1", FZ_ENV_DEFER "=1",
                              FZ_ENV_CTL_SHM_ID "=-1", NULL};
    ck_assert_uint_eq(v1_start(&t, LOOP, bad_page) & FZ_FS_NEW_OPT_FZ_DIRECT, 0);
    uint32_t pid;
    ck_assert(WIFSTOPPED(run(&t, "a", 0, &pid)));
    tgt_stop(&t);
    const char *legacy[] = {FZ_ENV_FSRV_DIRECT "=1", FZ_ENV_PERSISTENT "=1", NULL};
    loop_start(&t, legacy); /* legacy options word, no direct bit, SIGSTOP as before */
    ck_assert(WIFSTOPPED(run(&t, "a", 0, &pid)));
    tgt_stop(&t);
    uint32_t opt = v1_start(&t, LOOP, direct_env);
    ck_assert_uint_eq(opt & FZ_FS_NEW_OPT_FZ_DIRECT, FZ_FS_NEW_OPT_FZ_DIRECT);
    ck_assert_uint_eq(opt & FZ_FS_NEW_OPT_SHDMEM_FUZZ, FZ_FS_NEW_OPT_SHDMEM_FUZZ);
    tgt_stop(&t);
}
END_TEST

START_TEST(direct_ok_runs_and_loop_end)
{
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    /* A fresh child: it says its pid on the page and answers ok. */
    dreq(&t, 1, "a");
    ck_assert_uint_eq(dans(&t, 1), FZ_FS_DIRECT_OK | 1);
    uint32_t p1 = t.cp->pid;
    ck_assert_uint_ne(p1, 0);
    ck_assert_int_eq(map_count(&t), 1);
    ck_assert_int_eq(t.map[1], 1);
    /* Passes 2..4 in the same child: one slot each. */
    const char *in[] = {"b", "c", "d"};
    for (uint32_t i = 0; i < 3; i++) {
        dreq(&t, 2 + i, in[i]);
        ck_assert_uint_eq(dans(&t, 2 + i), FZ_FS_DIRECT_OK | (2 + i));
        ck_assert_int_eq(map_count(&t), 1);
        ck_assert_int_eq(t.map[2 + i], 1);
        if (i < 2) /* after the 4th pass the child may be gone already */
            ck_assert_uint_eq(t.cp->pid, p1);
    }
    /* The 4th pass ended the loop: the child exits by itself, which is no
     * run's result; the forkserver only clears the pid. */
    WAIT_FOR(t.cp->pid == 0);
    ck_assert_uint_eq(t.cp->ans, FZ_FS_DIRECT_OK | 4);
    ck_assert_int_eq(map_count(&t), 1); /* exit handlers left the map alone */
    dreq(&t, 5, "e");
    ck_assert_uint_eq(dans(&t, 5), FZ_FS_DIRECT_OK | 5);
    ck_assert_uint_ne(t.cp->pid, p1);
    ck_assert_int_eq(t.map[5], 1);
    tgt_stop(&t);
}
END_TEST

START_TEST(direct_crash_and_exit_mid_run)
{
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    dreq(&t, 1, "a");
    ck_assert_uint_eq(dans(&t, 1), FZ_FS_DIRECT_OK | 1);
    uint32_t p1 = t.cp->pid;
    /* A crash in a live child: the forkserver reports it for run 2. */
    dreq(&t, 2, "!");
    int s = died(&t, 2, p1);
    ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT);
    ck_assert_uint_eq(t.cp->pid, 0);
    /* A crash in the first pass of a fresh child. */
    dreq(&t, 3, "!");
    ck_assert_uint_eq(TAG(dans(&t, 3)), FZ_FS_DIRECT_DIED);
    uint32_t p2 = t.cp->dead_pid;
    ck_assert_uint_ne(p1, p2);
    s = (int)t.cp->dead_status;
    ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT);
    /* exit() inside the loop: an exit status for that run, then a fork. */
    dreq(&t, 4, "b");
    ck_assert_uint_eq(dans(&t, 4), FZ_FS_DIRECT_OK | 4);
    uint32_t p3 = t.cp->pid;
    dreq(&t, 5, "x");
    s = died(&t, 5, p3);
    ck_assert(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    dreq(&t, 6, "c");
    ck_assert_uint_eq(dans(&t, 6), FZ_FS_DIRECT_OK | 6);
    ck_assert_uint_ne(t.cp->pid, p3);
    ck_assert_int_eq(t.map[3], 1);
    tgt_stop(&t);
}
END_TEST

START_TEST(direct_was_killed_while_idle)
{
    /* The fuzzer's timer can fire just after the child said ok: it kills an
     * idle child.  That death is no run's: nothing is reported, and the
     * next request gets a fresh child. */
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    dreq(&t, 7, "a");
    ck_assert_uint_eq(dans(&t, 7), FZ_FS_DIRECT_OK | 7);
    uint32_t p1 = t.cp->pid;
    kill((pid_t)p1, SIGKILL);
    WAIT_FOR(t.cp->pid == 0);
    ck_assert_uint_eq(t.cp->ans, FZ_FS_DIRECT_OK | 7);
    dreq(&t, 8, "b");
    ck_assert_uint_eq(dans(&t, 8), FZ_FS_DIRECT_OK | 8);
    ck_assert_uint_ne(t.cp->pid, p1);
    ck_assert_int_eq(t.map[2], 1);
    tgt_stop(&t);
}
END_TEST

/* A timeout as fz-fuzz handles it: kill the child serving the run (the
 * page's pid) until run seq has an answer, and return that answer. */
static uint32_t kill_run(tgt_t *t, uint32_t seq)
{
    for (int tries = 0; tries < 250; tries++) {
        pid_t p = (pid_t)t->cp->pid;
        if (p > 0)
            kill(p, SIGKILL);
        for (int i = 0; i < 20 && SEQ(t->cp->ans) != seq; i++)
            usleep(1000);
        if (SEQ(t->cp->ans) == seq)
            return t->cp->ans;
    }
    ck_abort_msg("run %u never answered", seq);
    return 0;
}

START_TEST(direct_timeout_kill_at_any_moment)
{
    /* A timeout kill can land before the child took the request, during
     * the pass, or after its ok.  Whatever the interleaving, run seq gets
     * exactly one answer: DIED (SIGKILL), or OK when the pass won the race
     * or a new child served the request the killed one had not taken; a
     * hanging pass always ends DIED.  The next run works in any case. */
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    uint32_t seq = 1;
    dreq(&t, seq, "a");
    ck_assert_uint_eq(dans(&t, seq++), FZ_FS_DIRECT_OK | 1);
    for (int i = 0; i < 40; i++) {
        int hang = i % 3 == 0;
        dreq(&t, seq, hang ? "h" : "b");
        if (i & 1)
            usleep(50);
        uint32_t w = kill_run(&t, seq++);
        if (TAG(w) == FZ_FS_DIRECT_DIED) {
            int s = (int)t.cp->dead_status;
            ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL);
        } else {
            ck_assert_msg(!hang, "a hanging pass answered ok");
        }
        dreq(&t, seq, "c");
        ck_assert_uint_eq(dans(&t, seq), FZ_FS_DIRECT_OK | seq);
        seq++;
        ck_assert_int_eq(t.map[3], 1);
    }
    tgt_stop(&t);
}
END_TEST

START_TEST(direct_fuzzer_dies_first)
{
    /* The fuzzer goes away (closing 198 is what its death does, SIGKILL
     * included): an idle child and its forkserver end, and so do a
     * forkserver with no child and one whose child hangs mid-run. */
    const char *inputs[] = {"a", NULL, "h"};
    for (int k = 0; k < 3; k++) {
        tgt_t t;
        v1_start(&t, LOOP, direct_env);
        uint32_t child = 0;
        if (inputs[k]) {
            dreq(&t, 1, inputs[k]);
            if (inputs[k][0] == 'h')
                WAIT_FOR(t.cp->pid != 0 && t.cp->cur == 1);
            else
                ck_assert_uint_eq(dans(&t, 1), FZ_FS_DIRECT_OK | 1);
            child = t.cp->pid;
            ck_assert_uint_ne(child, 0);
        }
        fuzzer_leaves(&t, child, k);
    }
}
END_TEST

START_TEST(direct_sleeps_when_idle_or_told_not_to_spin)
{
    /* With no spin budget the idle child sleeps at once; with one it spins
     * at most that long, then sleeps too.  The forkserver sleeps while its
     * child runs, however long the pass takes. */
    for (uint32_t spin = 0; spin <= 4096; spin += 4096) {
        tgt_t t;
        v1_start(&t, LOOP, direct_env);
        t.cp->spin = spin;
        dreq(&t, 1, "a");
        ck_assert_uint_eq(dans(&t, 1), FZ_FS_DIRECT_OK | 1);
        usleep(10000);
        ck_assert(sleeping((pid_t)t.cp->pid));
        ck_assert(t.cp->req_sleeping);
        ck_assert(sleeping(t.pid));
        dreq(&t, 2, "h");
        WAIT_FOR(t.cp->cur == 2);
        ck_assert(sleeping(t.pid));
        tgt_stop(&t);
    }
}
END_TEST


/* ---- Batches over direct mode (include/fz-protocol.h, "Batches") ---- */

/* Lays the inputs (NULL-terminated) out in the batch segment from index 0. */
static void bput(tgt_t *t, const char *const *inputs)
{
    uint32_t off = 0;
    for (uint32_t i = 0; inputs[i]; i++) {
        uint32_t len = (uint32_t)strlen(inputs[i]);
        t->batch->off[i] = off;
        t->batch->len[i] = len;
        memcpy(t->batch->data + off, inputs[i], len);
        off += len;
    }
}

/* Posts request seq for batch inputs from .. from + n - 1. */
static void breq(tgt_t *t, uint32_t seq, uint32_t from, uint32_t n)
{
    t->cp->req_from = from;
    t->cp->req_n = n;
    memset(t->map, 0, 64);
    __atomic_store_n(&t->cp->req, seq, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&t->cp->req_sleeping, __ATOMIC_SEQ_CST))
        syscall(SYS_futex, &t->cp->req, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
}

/* Marks slot's hit count 1 as seen (rt_loop bumps slot 1 + k once for
 * input 'a' + k), as fz-fuzz's commit of a find does. */
static void seen(tgt_t *t, int slot)
{
    t->virgin[slot] &= (uint8_t)~1u;
}

START_TEST(batch_negotiation)
{
    tgt_t t;
    uint32_t opt = v1_start(&t, LOOP, direct_env);
    ck_assert_uint_eq(opt & FZ_FS_NEW_OPT_FZ_BATCH, FZ_FS_NEW_OPT_FZ_BATCH);
    tgt_stop(&t);
    /* Not told of the segments, or not in direct mode: no batches. */
    tgt_batch_env = 0;
    opt = v1_start(&t, LOOP, direct_env);
    tgt_batch_env = 1;
    ck_assert_uint_eq(opt & FZ_FS_NEW_OPT_FZ_DIRECT, FZ_FS_NEW_OPT_FZ_DIRECT);
    ck_assert_uint_eq(opt & FZ_FS_NEW_OPT_FZ_BATCH, 0);
    tgt_stop(&t);
    const char *no_direct[] = {FZ_ENV_FSRV_VERSION "=1", FZ_ENV_PERSISTENT "=1",
                               FZ_ENV_DEFER "=1", NULL};
    ck_assert_uint_eq(v1_start(&t, LOOP, no_direct) & FZ_FS_NEW_OPT_FZ_BATCH, 0);
    tgt_stop(&t);
    const char *bad_virgin[] = {FZ_ENV_FSRV_VERSION "=1", FZ_ENV_FSRV_DIRECT "=1",
                                FZ_ENV_PERSISTENT "=1", FZ_ENV_DEFER "=1",
                                FZ_ENV_VIRGIN_SHM_ID "=-1", NULL};
    opt = v1_start(&t, LOOP, bad_virgin);
    ck_assert_uint_eq(opt & FZ_FS_NEW_OPT_FZ_DIRECT, FZ_FS_NEW_OPT_FZ_DIRECT);
    ck_assert_uint_eq(opt & FZ_FS_NEW_OPT_FZ_BATCH, 0);
    tgt_stop(&t);
}
END_TEST

START_TEST(batch_runs_until_a_new_bucket)
{
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    const char *in[] = {"a", "a", "b", "a", NULL};
    bput(&t, in);
    /* Nothing seen yet: the first run is new, and stops the batch. */
    breq(&t, 1, 0, 4);
    ck_assert_uint_eq(dans(&t, 1), FZ_FS_DIRECT_OK | 1);
    ck_assert_uint_eq(t.cp->bcur, 0);
    ck_assert_int_eq(t.map[1], 1);
    uint32_t p1 = t.cp->pid;
    /* "a" seen: run 1 is boring, run 2 ("b") is new; the map is its own. */
    seen(&t, 1);
    breq(&t, 2, 1, 3);
    ck_assert_uint_eq(dans(&t, 2), FZ_FS_DIRECT_OK | 2);
    ck_assert_uint_eq(t.cp->bcur, 2);
    ck_assert_int_eq(map_count(&t), 1);
    ck_assert_int_eq(t.map[2], 1);
    ck_assert_uint_eq(t.cp->pid, p1); /* one child, three passes so far */
    /* The rest: run 3 is boring and the batch's last. */
    seen(&t, 2);
    breq(&t, 3, 3, 1);
    ck_assert_uint_eq(dans(&t, 3), FZ_FS_DIRECT_OK | 3);
    ck_assert_uint_eq(t.cp->bcur, 3);
    ck_assert_int_eq(t.map[1], 1);
    /* A single run after batches still reads the test-case segment. */
    WAIT_FOR(t.cp->pid == 0); /* that was the 4th pass: the child ended */
    dreq(&t, 4, "c");
    ck_assert_uint_eq(dans(&t, 4), FZ_FS_DIRECT_OK | 4);
    ck_assert_int_eq(t.map[3], 1);
    tgt_stop(&t);
}
END_TEST

START_TEST(batch_crash_exit_and_hang_mid_batch)
{
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    seen(&t, 1);
    const char *in[] = {"a", "!", "a", "x", "a", "h", "a", NULL};
    bput(&t, in);
    /* A crash in run 1: DIED, and bcur names the input. */
    breq(&t, 1, 0, 7);
    uint32_t w = dans(&t, 1);
    ck_assert_uint_eq(TAG(w), FZ_FS_DIRECT_DIED);
    ck_assert_uint_eq(t.cp->bcur, 1);
    int s = (int)t.cp->dead_status;
    ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT);
    /* From run 2: exit() in run 3, a fresh child for run 2. */
    breq(&t, 2, 2, 5);
    w = dans(&t, 2);
    ck_assert_uint_eq(TAG(w), FZ_FS_DIRECT_DIED);
    ck_assert_uint_eq(t.cp->bcur, 3);
    s = (int)t.cp->dead_status;
    ck_assert(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    /* From run 4: run 5 hangs; the fuzzer kills it once bcur stays on it. */
    breq(&t, 3, 4, 3);
    WAIT_FOR(t.cp->bcur == 5 && t.cp->pid != 0);
    usleep(20000);
    ck_assert_uint_eq(t.cp->bcur, 5);
    ck_assert_uint_ne(SEQ(t.cp->ans), 3); /* no answer while it hangs */
    w = kill_run(&t, 3);
    ck_assert_uint_eq(TAG(w), FZ_FS_DIRECT_DIED);
    ck_assert_uint_eq(t.cp->bcur, 5);
    s = (int)t.cp->dead_status;
    ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL);
    /* And the last one runs in a new child. */
    breq(&t, 4, 6, 1);
    ck_assert_uint_eq(dans(&t, 4), FZ_FS_DIRECT_OK | 4);
    ck_assert_uint_eq(t.cp->bcur, 6);
    ck_assert_int_eq(t.map[1], 1);
    tgt_stop(&t);
}
END_TEST

START_TEST(batch_loop_end_and_bad_range)
{
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    seen(&t, 1);
    const char *in[] = {"a", "a", "a", "a", "a", "a", NULL};
    bput(&t, in);
    /* rt_loop's __AFL_LOOP(4): the child answers after its 4th pass (run
     * 3); the fuzzer posts the rest, which a new child serves. */
    breq(&t, 1, 0, 6);
    ck_assert_uint_eq(dans(&t, 1), FZ_FS_DIRECT_OK | 1);
    ck_assert_uint_eq(t.cp->bcur, 3);
    WAIT_FOR(t.cp->pid == 0);
    breq(&t, 2, 4, 2);
    ck_assert_uint_eq(dans(&t, 2), FZ_FS_DIRECT_OK | 2);
    ck_assert_uint_eq(t.cp->bcur, 5);
    /* A range outside the segment is one run of the test-case segment. */
    uint32_t len = 1;
    memcpy(t.fuzz, &len, 4);
    t.fuzz[FZ_SHM_FUZZ_HDR] = 'd';
    breq(&t, 3, FZ_BATCH_MAX - 1, 2);
    ck_assert_uint_eq(dans(&t, 3), FZ_FS_DIRECT_OK | 3);
    ck_assert_int_eq(t.map[4], 1);
    ck_assert_int_eq(map_count(&t), 1);
    tgt_stop(&t);
}
END_TEST

START_TEST(batch_fuzzer_dies_mid_batch)
{
    /* The fuzzer goes away while a batch's run hangs: the forkserver and
     * the child end all the same; nothing keeps running the batch. */
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    seen(&t, 1);
    const char *in[] = {"a", "a", "h", "a", NULL};
    bput(&t, in);
    breq(&t, 1, 0, 4);
    WAIT_FOR(t.cp->bcur == 2 && t.cp->pid != 0);
    fuzzer_leaves(&t, t.cp->pid, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("runtime");
    TCase *tc = tcase_create("protocol");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, legacy_handshake_and_runs);
    tcase_add_test(tc, v1_handshake);
    tcase_add_test(tc, map_too_small_reports_needed_size);
    tcase_add_test(tc, bad_shm_id_is_an_error_word);
    tcase_add_test(tc, persistent_stops_and_resumes);
    tcase_add_test(tc, persistent_was_killed_and_exit_in_loop);
    tcase_add_test(tc, persistent_forked_process_leaves_the_loop);
    tcase_add_test(tc, closed_fds_before_init_are_diagnosed);
    tcase_add_test(tc, direct_negotiation);
    tcase_add_test(tc, direct_ok_runs_and_loop_end);
    tcase_add_test(tc, direct_crash_and_exit_mid_run);
    tcase_add_test(tc, direct_was_killed_while_idle);
    tcase_add_test(tc, direct_timeout_kill_at_any_moment);
    tcase_add_test(tc, direct_fuzzer_dies_first);
    tcase_add_test(tc, direct_sleeps_when_idle_or_told_not_to_spin);
    tcase_add_test(tc, batch_negotiation);
    tcase_add_test(tc, batch_runs_until_a_new_bucket);
    tcase_add_test(tc, batch_crash_exit_and_hang_mid_batch);
    tcase_add_test(tc, batch_loop_end_and_bad_range);
    tcase_add_test(tc, batch_fuzzer_dies_mid_batch);
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
