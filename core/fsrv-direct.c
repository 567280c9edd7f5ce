/*
 * fsrv-direct.c - direct persistent mode (core/fsrv-priv.h; include/
 * fz-protocol.h): a run is a sequence number posted on the shared control
 * page and an answer read there, with a futex to sleep on and, when the
 * target has a CPU of its own, a spin before it; batches are many runs
 * per request.
 */
#define _GNU_SOURCE
#include "core/fsrv-priv.h"

#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz-protocol.h"

/* Direct mode on two CPUs: polls of the other side's word before a side
 * sleeps on it.  A poll with the pause instruction takes 30-150 cycles, so
 * this is some tens of microseconds: longer than a fast harness's run or
 * the fuzzer's work between two runs, short enough that a slow target
 * costs little spinning.  A futex wake-up across CPUs costs an
 * inter-processor interrupt, 50-60 us on the development VM. */
#define SPIN_POLLS 4096

/* Direct mode on two CPUs is checked every SPLIT_WINDOW runs: when more
 * than one run in SPLIT_GIVE_UP needed a sleep, spinning does not pay and
 * the target goes back to the fuzzer's CPU. */
#define SPLIT_WINDOW 4096
#define SPLIT_GIVE_UP 8

/* By default the target gets a CPU of its own only when this many CPUs
 * (ours included) are free: taking two of two would leave a campaign
 * started later none (afl-fuzz then refuses to start).  FZ_SPIN=1 takes a
 * second free CPU whenever there is one. */
#define SPLIT_FREE_MIN 3

void fz_fsrv_split_cpus(fz_fsrv_t *fs)
{
    /* With batches the two sides take turns (one fills a batch, the other
     * runs it) and a hand-over is rare: a second CPU would only idle and
     * move the inputs and the map between caches (1.2M against 1.4M runs/s
     * on bench/'s persistent harness).  Only FZ_SPIN=1 asks for it then. */
    if (fs->cfg.spin == 0 || fs->bound_cpu < 0 || (fs->batch && fs->cfg.spin < 0))
        return;
    int n_free;
    int pick = fz_cpu_spare(&fs->saved_cpus, fs->bound_cpu, &n_free);
    if (pick < 0 || (fs->cfg.spin < 0 && n_free < (int)SPLIT_FREE_MIN))
        return;
    if (fz_cpu_move(fs->fsrv_pid, pick))
        return;
    fs->target_cpu = pick;
    fs->spin = SPIN_POLLS;
    __atomic_store_n(&fs->shm.ctl->spin, SPIN_POLLS, __ATOMIC_SEQ_CST);
}

/* Spinning did not pay: the target joins our CPU and nobody spins.  The
 * live child is moved too; later children inherit the forkserver's CPU. */
static void join_cpus(fz_fsrv_t *fs)
{
    __atomic_store_n(&fs->shm.ctl->spin, 0, __ATOMIC_SEQ_CST);
    fs->spin = 0;
    fs->target_cpu = -1;
    fz_cpu_move(fs->fsrv_pid, fs->bound_cpu);
    pid_t child = (pid_t)__atomic_load_n(&fs->shm.ctl->pid, __ATOMIC_SEQ_CST);
    if (child > 0)
        fz_cpu_move(child, fs->bound_cpu);
}

/* Direct mode: waits until the control page's answer is for run seq, or
 * until deadline (fz_clock_us() clock).  Spins first when the target has its
 * own CPU, then sleeps on the word; the flag beside it tells the target
 * to wake us (the protocol in include/fz-protocol.h).  Returns the answer,
 * or 0 at the deadline.  *slept says whether it had to sleep. */
static uint32_t wait_ans(fz_fsrv_t *fs, uint32_t seq, uint64_t deadline, int *slept)
{
    fz_ctl_t *c = fs->shm.ctl;
    uint32_t v;
    for (uint32_t i = 0; i < fs->spin; i++) {
        if (((v = fz_fsrv_ld(&c->ans)) & FZ_FS_DIRECT_SEQ) == seq)
            return v;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    *slept = 1;
    for (;;) {
        __atomic_store_n(&c->ans_sleeping, 1, __ATOMIC_SEQ_CST);
        if (((v = fz_fsrv_ld(&c->ans)) & FZ_FS_DIRECT_SEQ) == seq)
            break;
        uint64_t now = fz_clock_us();
        if (now >= deadline) {
            v = 0;
            break;
        }
        uint64_t left = deadline - now;
        int cut = fs->interrupt && !fs->last_cut && left > INTERRUPT_SLICE_MS * 1000u;
        if (cut)
            left = INTERRUPT_SLICE_MS * 1000u;
        struct timespec ts = {(time_t)(left / 1000000u), (long)(left % 1000000u) * 1000};
        syscall(SYS_futex, &c->ans, FUTEX_WAIT, v, &ts, NULL, 0);
        if (cut && ((v = fz_fsrv_ld(&c->ans)) & FZ_FS_DIRECT_SEQ) != seq &&
            fz_fsrv_interrupted(fs)) {
            v = 0;
            break;
        }
    }
    __atomic_store_n(&c->ans_sleeping, 0, __ATOMIC_SEQ_CST);
    return v;
}

/* Direct mode: the answer w for the current run becomes its result.  A
 * death reports the child's status; a new pid in an OK is a new child. */
static fz_run_result_t direct_result(fz_fsrv_t *fs, uint32_t w, int timed_out, uint64_t t0)
{
    fz_ctl_t *c = fs->shm.ctl;
    fs->last_exec_us = fz_clock_us() - t0;
    int status = 0;
    pid_t pid;
    if ((w & FZ_FS_DIRECT_TAG_MASK) == FZ_FS_DIRECT_DIED) {
        pid = (pid_t)fz_fsrv_ld(&c->dead_pid);
        status = (int)fz_fsrv_ld(&c->dead_status);
        if (pid <= 0)
            return fz_fsrv_run_error(fs, "starting a child (fork failed in the target)");
        fz_fsrv_reap_group(fs, pid, timed_out);
    } else {
        pid = (pid_t)fz_fsrv_ld(&c->pid);
    }
    if (pid > 0 && pid != fs->child_pid)
        fs->total_forks++;
    fs->child_pid = (w & FZ_FS_DIRECT_TAG_MASK) == FZ_FS_DIRECT_DIED ? -1 : pid;
    return fz_fsrv_judge(fs, status, timed_out, pid);
}

/* Direct mode: the run's time is up.  Kills the child serving it and waits
 * for the forkserver's report of that death (or an OK that raced with the
 * kill).  With no child yet, the fork itself is slow: it gets KILL_WAIT_MS
 * more, as the classic protocol allows for the pid word. */
static fz_run_result_t direct_timeout(fz_fsrv_t *fs, uint32_t seq, uint64_t t0)
{
    int slept;
    /* A forkserver that is gone (the input made the target kill it; its
     * child died with it) answers nothing: no use waiting for it. */
    siginfo_t si = {0};
    if (fs->fsrv_pid > 0 &&
        waitid(P_PID, (id_t)fs->fsrv_pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid)
        return fz_fsrv_run_error(fs, "waiting for a child's status");
    pid_t pid = (pid_t)fz_fsrv_ld(&fs->shm.ctl->pid);
    if (pid <= 0) {
        uint32_t w = wait_ans(fs, seq, fz_clock_us() + KILL_WAIT_MS * 1000u, &slept);
        if (w)
            return direct_result(fs, w, 0, t0);
        if ((pid = (pid_t)fz_fsrv_ld(&fs->shm.ctl->pid)) <= 0)
            return fz_fsrv_run_error(fs, "starting a child");
    }
    kill(pid, SIGKILL);
    uint32_t w = wait_ans(fs, seq, fz_clock_us() + KILL_WAIT_MS * 1000u, &slept);
    if (!w)
        return fz_fsrv_run_error(fs, "waiting for a killed child's status");
    return direct_result(fs, w, 1, t0);
}

fz_run_result_t fz_fsrv_run_direct(fz_fsrv_t *fs, uint64_t t0, uint32_t from, uint32_t n,
                                   uint32_t *at)
{
    fz_ctl_t *c = fs->shm.ctl;
    fs->direct_seq = fs->direct_seq >= FZ_FS_DIRECT_SEQ ? 1 : fs->direct_seq + 1;
    uint32_t seq = fs->direct_seq;
    c->req_from = from;
    c->req_n = n;
    __atomic_store_n(&c->req, seq, __ATOMIC_SEQ_CST);
    if (fz_fsrv_ld(&c->req_sleeping))
        syscall(SYS_futex, &c->req, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    int slept = 0;
    uint64_t start = t0, timeout_us = (uint64_t)fs->run_timeout_ms * 1000u;
    uint32_t seen = from, w;
    for (;;) {
        w = wait_ans(fs, seq, start + timeout_us, &slept);
        if (w || !n)
            break;
        uint32_t b = fz_fsrv_ld(&c->bcur);
        if (b == seen)
            break; /* no progress for a whole timeout: run b hangs */
        seen = b;
        start = fz_clock_us();
    }
    if (fs->target_cpu >= 0) {
        fs->split_sleeps += slept;
        if (++fs->split_runs == SPLIT_WINDOW) {
            if (fs->split_sleeps > SPLIT_WINDOW / SPLIT_GIVE_UP)
                join_cpus(fs);
            fs->split_runs = fs->split_sleeps = 0;
        }
    }
    fz_run_result_t r = w ? direct_result(fs, w, 0, t0) : direct_timeout(fs, seq, t0);
    *at = from;
    if (n) {
        /* The target's word: never trusted outside the request. */
        uint32_t b = fz_fsrv_ld(&c->bcur);
        *at = b >= from && b - from < n ? b : from + n - 1;
    }
    return r;
}

fz_run_result_t fz_fsrv_run_batch(fz_fsrv_t *fs, uint32_t from, uint32_t n, uint32_t timeout_ms,
                                  uint32_t *at)
{
    fs->run_timeout_ms = timeout_ms ? timeout_ms : fs->cfg.timeout_ms;
    fs->last_runs = 0;
    fs->last_cut = 0;
    *at = from;
    if (!fs->batch || n == 0 || from >= FZ_BATCH_MAX || n > FZ_BATCH_MAX - from) {
        snprintf(fs->errmsg, sizeof fs->errmsg,
                 "a batch of inputs %u..%u was asked of a target "
                 "that takes no batches",
                 from, from + n);
        return FZ_RUN_ERROR;
    }
    if (fs->fsrv_pid <= 0)
        return FZ_RUN_ERROR;
    fs->total_handovers++;
    fz_run_result_t r = fz_fsrv_run_direct(fs, fz_clock_us(), from, n, at);
    fs->last_runs = *at - from + 1;
    fs->total_execs += fs->last_runs;
    fs->last_exec_us /= fs->last_runs;
    return r;
}
