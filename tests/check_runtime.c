/*
 * check_runtime.c - the runtime's side of the forkserver protocol, checked
 * word by word by a minimal fuzzer written here (include/fz-protocol.h):
 * both handshakes, the map size report, error words, the per-run loop,
 * persistent pauses (WIFSTOPPED), was_killed, shared-memory input, deferred
 * init and the closed-descriptor diagnosis; and fz's direct persistent mode
 * (negotiation, ok runs, crash and exit mid-run, loop end, kill while idle,
 * timeout kills at any moment).
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
#include <sys/shm.h>
#include <sys/wait.h>
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
    int map_id, fuzz_id;
} tgt_t;

/* Starts path with the fuzzer's pipes on 198/199, a map of map_bytes and
 * the test-case shm; env is a NULL-terminated list of NAME=VALUE. */
static void tgt_start(tgt_t *t, const char *path, uint32_t map_bytes, const char *const *env)
{
    memset(t, 0, sizeof *t);
    t->map_id = shmget(IPC_PRIVATE, map_bytes, IPC_CREAT | 0600);
    t->fuzz_id = shmget(IPC_PRIVATE, FZ_MAX_INPUT + FZ_SHM_FUZZ_HDR, IPC_CREAT | 0600);
    ck_assert(t->map_id >= 0 && t->fuzz_id >= 0);
    t->map = shmat(t->map_id, NULL, 0);
    t->fuzz = shmat(t->fuzz_id, NULL, 0);
    shmctl(t->map_id, IPC_RMID, NULL);
    shmctl(t->fuzz_id, IPC_RMID, NULL);
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

static void tgt_stop(tgt_t *t)
{
    kill(t->pid, SIGKILL);
    waitpid(t->pid, NULL, 0);
    close(t->ctl), close(t->st), close(t->in_fd), close(t->err_fd);
    shmdt(t->map), shmdt(t->fuzz);
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

/* Puts input in the test-case shm, clears the map, sends request seq. */
static void dreq(tgt_t *t, uint32_t seq, const char *input)
{
    uint32_t len = (uint32_t)strlen(input);
    memcpy(t->fuzz, &len, 4);
    memcpy(t->fuzz + FZ_SHM_FUZZ_HDR, input, len);
    memset(t->map, 0, 64);
    wr(t, seq);
}

#define TAG(w) ((w)&FZ_FS_DIRECT_TAG_MASK)
#define SEQ(w) ((w)&FZ_FS_DIRECT_SEQ)

/* Reads a DIED message; returns the status, checks seq and pid. */
static int died(tgt_t *t, uint32_t seq, uint32_t pid)
{
    uint32_t w = rd_ok(t);
    ck_assert_uint_eq(TAG(w), FZ_FS_DIRECT_DIED);
    ck_assert_uint_eq(SEQ(w), seq);
    ck_assert_uint_eq(rd_ok(t), pid);
    return (int)rd_ok(t);
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
    const char *legacy[] = {FZ_ENV_FSRV_DIRECT "=1", FZ_ENV_PERSISTENT "=1", NULL};
    loop_start(&t, legacy); /* legacy options word, no direct bit, SIGSTOP as before */
    uint32_t pid;
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
    /* A fresh child: the forkserver says its pid, the child says ok. */
    dreq(&t, 1, "a");
    uint32_t p1 = rd_ok(&t);
    ck_assert_uint_eq(TAG(p1), 0);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_DIRECT_OK | 1);
    ck_assert_int_eq(map_count(&t), 1);
    ck_assert_int_eq(t.map[1], 1);
    /* Passes 2..4 in the same child: nothing but ok, one slot each. */
    const char *in[] = {"b", "c", "d"};
    for (uint32_t i = 0; i < 3; i++) {
        dreq(&t, 2 + i, in[i]);
        ck_assert_uint_eq(rd_ok(&t), FZ_FS_DIRECT_OK | (2 + i));
        ck_assert_int_eq(map_count(&t), 1);
        ck_assert_int_eq(t.map[2 + i], 1);
    }
    /* The 4th pass ended the loop: the child exits by itself and the
     * forkserver reports that with seq 0 (no run), before any request. */
    int s = died(&t, 0, p1);
    ck_assert(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    ck_assert_int_eq(map_count(&t), 1); /* exit handlers left the map alone */
    dreq(&t, 5, "e");
    uint32_t p2 = rd_ok(&t);
    ck_assert_uint_eq(TAG(p2), 0);
    ck_assert_uint_ne(p1, p2);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_DIRECT_OK | 5);
    ck_assert_int_eq(t.map[5], 1);
    tgt_stop(&t);
}
END_TEST

START_TEST(direct_crash_and_exit_mid_run)
{
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    dreq(&t, 1, "a");
    uint32_t p1 = rd_ok(&t);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_DIRECT_OK | 1);
    /* A crash in a live child: the forkserver reports it for run 2. */
    dreq(&t, 2, "!");
    int s = died(&t, 2, p1);
    ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT);
    /* A crash in the first pass of a fresh child. */
    dreq(&t, 3, "!");
    uint32_t p2 = rd_ok(&t);
    ck_assert_uint_ne(p1, p2);
    s = died(&t, 3, p2);
    ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT);
    /* exit() inside the loop: an exit status for that run, then a fork. */
    dreq(&t, 4, "b");
    uint32_t p3 = rd_ok(&t);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_DIRECT_OK | 4);
    dreq(&t, 5, "x");
    s = died(&t, 5, p3);
    ck_assert(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    dreq(&t, 6, "c");
    ck_assert_uint_ne(rd_ok(&t), p3);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_DIRECT_OK | 6);
    ck_assert_int_eq(t.map[3], 1);
    tgt_stop(&t);
}
END_TEST

START_TEST(direct_was_killed_while_idle)
{
    /* The fuzzer's timer can fire just after the child said ok: it kills an
     * idle child.  The forkserver still reports that death (seq 0), so the
     * fuzzer, which reads until the DIED of the pid it killed, never waits
     * in vain; the next request gets a fresh child. */
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    dreq(&t, 7, "a");
    uint32_t p1 = rd_ok(&t);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_DIRECT_OK | 7);
    kill((pid_t)p1, SIGKILL);
    /* Seq 0, or 7 if the kill landed between the child's OK and its
     * marking itself idle (fz-protocol.h): either is stale to the fuzzer. */
    uint32_t w = rd_ok(&t);
    ck_assert_uint_eq(TAG(w), FZ_FS_DIRECT_DIED);
    ck_assert(SEQ(w) == 0 || SEQ(w) == 7);
    ck_assert_uint_eq(rd_ok(&t), p1);
    int s = (int)rd_ok(&t);
    ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL);
    dreq(&t, 8, "b");
    uint32_t p2 = rd_ok(&t);
    ck_assert_uint_eq(TAG(p2), 0);
    ck_assert_uint_ne(p1, p2);
    ck_assert_uint_eq(rd_ok(&t), FZ_FS_DIRECT_OK | 8);
    tgt_stop(&t);
}
END_TEST

/* One run as fz-fuzz does it: skip words of other runs, follow new pids.
 * Returns -1 for ok, else the wait status; *pid is the current child. */
static int drun(tgt_t *t, uint32_t seq, const char *input, uint32_t *pid)
{
    dreq(t, seq, input);
    for (;;) {
        uint32_t w = rd_ok(t);
        if (TAG(w) == 0) {
            *pid = w;
        } else if (TAG(w) == FZ_FS_DIRECT_OK) {
            if (SEQ(w) == seq)
                return -1;
        } else {
            ck_assert_uint_eq(TAG(w), FZ_FS_DIRECT_DIED);
            uint32_t p = rd_ok(t), s = rd_ok(t);
            if (SEQ(w) == seq) {
                ck_assert_uint_eq(p, *pid);
                return (int)s;
            }
        }
    }
}

START_TEST(direct_timeout_kill_at_any_moment)
{
    /* A timeout kill can land before the child read the request, during the
     * pass, or after its ok.  Whatever the interleaving, exactly one DIED
     * of that pid follows, and the protocol carries on in step. */
    tgt_t t;
    v1_start(&t, LOOP, direct_env);
    uint32_t seq = 1, pid = 0;
    ck_assert_int_eq(drun(&t, seq++, "a", &pid), -1);
    for (int i = 0; i < 40; i++) {
        dreq(&t, seq++, "b");
        if (i & 1)
            usleep(50);
        kill((pid_t)pid, SIGKILL);
        uint32_t w, p, s;
        for (;;) {
            w = rd_ok(&t);
            if (TAG(w) == 0) { /* only a child that had ended may be replaced */
                pid = w;
                kill((pid_t)pid, SIGKILL);
            } else if (TAG(w) == FZ_FS_DIRECT_DIED) {
                p = rd_ok(&t), s = rd_ok(&t);
                if (p == pid)
                    break;
            }
        }
        ck_assert(WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL);
        uint32_t old = pid;
        ck_assert_int_eq(drun(&t, seq++, "c", &pid), -1);
        ck_assert_uint_ne(pid, old);
        ck_assert_int_eq(t.map[3], 1);
    }
    tgt_stop(&t);
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
    suite_add_tcase(s, tc);
    return fz_check_run(s);
}
