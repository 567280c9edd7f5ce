/*
 * fsrv-wait.c - waiting for the target (core/fsrv-priv.h): its protocol
 * words within a timeout that the caller's interrupt test may cut short,
 * a process's end, and what a run's end means (result, crash site, the
 * processes it left).
 */
#define _GNU_SOURCE
#include "core/fsrv-priv.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/proc.h"
#include "fz-protocol.h"

int fz_fsrv_interrupted(fz_fsrv_t *fs)
{
    if (!fs || !fs->interrupt || fs->last_cut || !fs->interrupt(fs->interrupt_ctx))
        return 0;
    fs->last_cut = 1;
    return 1;
}

int fz_fsrv_read_u32(fz_fsrv_t *fs, int fd, uint32_t *out, uint64_t timeout_ms)
{
    uint8_t *p = (uint8_t *)out;
    size_t got = 0;
    uint64_t deadline = fz_clock_us() + timeout_ms * 1000u;
    while (got < 4) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int64_t left = (int64_t)(deadline - fz_clock_us()) / 1000;
        int cut = fs && fs->interrupt && !fs->last_cut && left > INTERRUPT_SLICE_MS;
        if (left > INT_MAX || cut)
            left = cut ? INTERRUPT_SLICE_MS : INT_MAX;
        int r = poll(&pfd, 1, left > 0 ? (int)left : 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0 && (fz_clock_us() < deadline)) {
            if (fz_fsrv_interrupted(fs))
                return 1;
            continue;
        }
        if (r == 0)
            return 1;
        if (r < 0)
            return -1;
        ssize_t n = read(fd, p + got, 4 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

int fz_fsrv_wait_pid(pid_t pid, int *status, int ms)
{
    for (int waited = 0;; waited++) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 1;
        if (r < 0 || waited >= ms)
            return 0;
        usleep(1000);
    }
}

/* Its pid, free for reuse now, is no longer ours to kill at exit; what it
 * left in its session (a run's child that killed it, say) goes now. */
void fz_fsrv_gone(fz_fsrv_t *fs)
{
    fz_proc_kill_session(fs->fsrv_pid);
    fz_proc_track_session(fs->track_slot, 0);
    fs->fsrv_pid = -1;
}

/* The crash site the runtime left on the diagnostics page for the child
 * pid (include/fz-protocol.h, "Crash sites"), consumed so that a later
 * crash without one is never given a stale site. */
static void read_site(fz_fsrv_t *fs, pid_t pid)
{
    fz_diag_t *d = fs->shm.diag;
    memset(&fs->last_site, 0, sizeof fs->last_site);
    if (!d || pid <= 0)
        return;
    uint32_t who = __atomic_load_n(&d->site_pid, __ATOMIC_ACQUIRE);
    if (!who)
        return;
    if (who == (uint32_t)pid && d->site) {
        fs->last_site.hash = d->site;
        fs->last_site.from = d->site_from;
        fs->last_site.nframes = d->site_nframes < FZ_SITE_FRAMES ? d->site_nframes : FZ_SITE_FRAMES;
        memcpy(fs->last_site.off, d->site_off, sizeof fs->last_site.off);
        memcpy(fs->last_site.module, d->site_module, sizeof fs->last_site.module);
        for (int i = 0; i < FZ_SITE_FRAMES; i++)
            fs->last_site.module[i][sizeof fs->last_site.module[i] - 1] = 0;
    }
    d->site_pid = 0;
}

/* pid: the child the status belongs to (for its crash site). */
fz_run_result_t fz_fsrv_judge(fz_fsrv_t *fs, int status, int timed_out, pid_t pid)
{
    fs->last_status = status;
    fs->last_site.hash = 0;
    fs->last_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    fs->last_exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (timed_out) {
        fs->total_hangs++;
        return FZ_RUN_HANG;
    }
    if (fs->last_signal) {
        read_site(fs, pid);
        fs->total_crashes++;
        return FZ_RUN_CRASH;
    }
    return FZ_RUN_OK;
}
