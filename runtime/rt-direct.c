/*
 * rt-direct.c - direct mode and batches, the forkserver's fast path (fz-fuzz
 * only, negotiated in the version-1 handshake; the words are in
 * include/fz-protocol.h).  The persistent child and the fuzzer hand each
 * run over through a shared control page (fz_ctl_t), so a run costs a
 * store and at most one futex wake-up each way, and nothing at all in the
 * forkserver.  The forkserver only forks when a request finds no live
 * child, and reports a child that died in a run.  With batches, one
 * request carries several inputs, and the child moves on to the next one
 * without a word to the fuzzer while a pass finds nothing new.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fz-protocol.h"
#include "runtime/rt-diag.h"
#include "runtime/rt-direct.h"
#include "runtime/rt-input.h"
#include "runtime/rt-map.h"
#include "runtime/rt-proc.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* Direct mode: how long a sleeper on the control page sleeps before it
 * checks that the other side still lives, in ms.  Only idle processes
 * wake up this often, so the cost is nil; the delay only matters when the
 * fuzzer died, and the forkserver notices that at once anyway. */
#define CTL_CHECK_MS 1000

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

/* The machine has more than one CPU online (spinning can pay). */
static int multi_cpu;

/* Direct mode is offered when the fuzzer asked for it and named a control
 * page we can attach, and the kernel has pidfds (Linux 5.3), which let the
 * forkserver wait for its child and for the fuzzer's end at once. */
int __fz_rt_direct_attach(void)
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
    multi_cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1;
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
int __fz_rt_direct_batch_attach(void)
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
    if (getppid() != __fz_rt_proc.server)
        _exit(0);
}

/* Spin only where it can pay: the fuzzer asked (it gave the target a CPU
 * of its own) and there is a second CPU to spin on. */
static uint32_t spin_budget(void)
{
    return multi_cpu ? ld(&ctl->spin) : 0;
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
    __fz_rt_proc_child_begin();
    close(CTL_FD);
    close(ST_FD);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != __fz_rt_proc.server)
        _exit(0); /* the forkserver died before prctl took effect */
    st(&ctl->pid, (uint32_t)__fz_rt_proc.me);
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
void __fz_rt_direct_serve(void)
{
    __fz_rt_proc.server = getpid();
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

/* Direct mode, between two passes.  In a batch whose pass found nothing
 * new, moves on to the next input without a word to the fuzzer.
 * Otherwise reports the finished run, waits for the next request and
 * marks the child busy with it (cur before taken: see serve_ctl).  errno
 * is the program's. */
void __fz_rt_direct_next(void)
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

void __fz_rt_direct_done(void)
{
    post_ans(FZ_FS_DIRECT_OK | ld(&ctl->cur));
    st(&ctl->cur, 0);
}
