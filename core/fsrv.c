/*
 * fsrv.c - the forkserver client's entry points (core/fsrv-priv.h): start
 * (shared memory, input file, CPU, handshake), each run's delivery, one
 * run in the classic protocol (two words per run on the pipes) or blind
 * mode (a fork + exec per run), restart after the forkserver died, and
 * stop.  Direct mode and
 * batches are fsrv-direct.c's.
 */
#define _GNU_SOURCE
#include "core/fsrv-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/env.h"
#include "core/proc.h"
#include "fz-config.h"
#include "fz-protocol.h"

void fz_fsrv_cfg_init(fz_fsrv_cfg_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->timeout_ms = 1000;
    cfg->no_direct = fz_env_flag("FZ_NO_DIRECT", NULL);
    cfg->no_affinity = fz_env_flag("FZ_NO_AFFINITY", "AFL_NO_AFFINITY");
    const char *spin = getenv("FZ_SPIN");
    cfg->spin = spin && *spin ? fz_env_bool("FZ_SPIN", NULL, -1) : -1;
    cfg->debug_child = fz_env_flag("FZ_DEBUG_CHILD", "AFL_DEBUG_CHILD");
}

/* A start that failed under -m: the dynamic loader, the runtime's shared
 * memory, a constructor's malloc or a sanitizer's shadow memory may not fit
 * in the address-space limit, and each of those shows as a different
 * failure (no handshake, a set-up error word, a crash at start-up).
 * The runtime flags ENOMEM where it can; otherwise the start is tried once
 * more without the limit, and when that one works the limit was the cause.
 * Only on this error path: a good start pays nothing. */
static void explain_mem_limit(fz_fsrv_t *fs, char *err, size_t errlen)
{
    uint32_t mb = fs->cfg.mem_limit_mb;
    int nomem = fs->shm.diag && (fs->shm.diag->flags & FZ_DIAG_NOMEM);
    fz_fsrv_stop_server(fs);
    if (!nomem) {
        char again[FZ_FSRV_ERRLEN];
        fs->cfg.mem_limit_mb = 0;
        int ok = fz_fsrv_start_server(fs, again, sizeof again) == 0;
        fs->cfg.mem_limit_mb = mb;
        fz_fsrv_stop_server(fs);
        if (!ok)
            return; /* it fails without the limit too: the first diagnosis stands */
    }
    fz_fsrv_mem_limit_message(fs, nomem, err, errlen);
}

int fz_fsrv_start(fz_fsrv_t *fs, const fz_fsrv_cfg_t *cfg, char *err, size_t errlen)
{
    memset(fs, 0, sizeof *fs);
    fs->cfg = *cfg;
    if (!fs->cfg.timeout_ms)
        fs->cfg.timeout_ms = 1000;
    fs->fsrv_pid = fs->child_pid = -1;
    fs->ctl_fd = fs->st_fd = fs->input_fd = fs->dev_null_fd = -1;
    fs->shm.map_id = fs->shm.fuzz_id = -1;
    fs->handshake_version = cfg->blind ? -1 : 0;
    fs->bound_cpu = fs->target_cpu = -1;
    fs->track_slot = fz_proc_track();
    if (!cfg->argv || !cfg->argv[0]) {
        snprintf(err, errlen, "no target program given; put it after --, e.g. -- ./target @@");
        return -1;
    }
    /* A target that dies mid-write must give us EPIPE, not kill us. */
    signal(SIGPIPE, SIG_IGN);
    char *prog = fz_fsrv_check_program(cfg->argv[0], err, errlen);
    if (!prog)
        return -1;
    fs->persistent = fz_fsrv_file_has(prog, FZ_SIG_PERSISTENT);
    fs->deferred = fz_fsrv_file_has(prog, FZ_SIG_DEFER);
    int bad = fz_fsrv_open_input(fs, err, errlen) || fz_fsrv_build_argv(fs, prog);
    free(prog);
    if (bad) {
        if (!err[0])
            snprintf(err, errlen, "out of memory");
        goto fail;
    }
    fs->dev_null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fz_shm_create(&fs->shm, !cfg->blind && !cfg->no_shm_input, err, errlen))
        goto fail;
    fs->trace_bits = fs->shm.map;
    /* Batches need direct mode (a persistent fz target) and shared-memory
     * input; without their segments the target is simply not offered them. */
    if (cfg->batch && fs->persistent && !cfg->no_direct && fs->shm.fuzz &&
        !fz_env_flag("FZ_NO_BATCH", NULL) && fz_shm_add_batch(&fs->shm, err, errlen))
        err[0] = 0;
    if (!cfg->no_affinity)
        fs->bound_cpu = fz_cpu_bind(&fs->saved_cpus);
    if (cfg->blind) {
        fs->map_size = FZ_MAP_SIZE_MIN; /* stays all zero: no coverage */
        return 0;
    }
    if (fz_fsrv_start_server(fs, err, errlen)) {
        if (fs->cfg.mem_limit_mb)
            explain_mem_limit(fs, err, errlen);
        goto fail;
    }
    if (fs->direct)
        fz_fsrv_split_cpus(fs);
    return 0;
fail:
    fz_fsrv_stop(fs);
    return -1;
}

/* The target deleted, moved or replaced its input file (a program that
 * consumes its input: unlink(argv[1]) after reading it).  AFL++ writes a
 * new file for every run; here the path is checked before each run (one
 * stat) and the file made again only when it no longer names ours: what
 * is at the path now is removed, never followed (a link planted there
 * included), and a new file takes the old descriptor's number. */
static int renew_input(fz_fsrv_t *fs)
{
    struct stat sb;
    if (stat(fs->input_path, &sb) == 0 && sb.st_ino == fs->input_ino && sb.st_dev == fs->input_dev)
        return 0;
    for (int tries = 0;; tries++) {
        if (unlink(fs->input_path) != 0) {
            if (errno == EISDIR) {
                if (rmdir(fs->input_path))
                    return -1;
            } else if (errno != ENOENT) {
                return -1;
            }
        }
        int fd = open(fs->input_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno == EEXIST && tries < 3)
            continue; /* the target made it again meanwhile */
        if (fd < 0)
            return -1;
        if (dup3(fd, fs->input_fd, O_CLOEXEC) < 0) {
            close(fd);
            return -1;
        }
        close(fd);
        if (fstat(fs->input_fd, &sb))
            return -1;
        fs->input_dev = sb.st_dev;
        fs->input_ino = sb.st_ino;
        return 0;
    }
}

/* Puts buf where the target reads it: the test-case segment, or the
 * input file (which is also every child's stdin).  Returns 0, or -1 with
 * errno set. */
static int deliver(fz_fsrv_t *fs, const uint8_t *buf, size_t len)
{
    if (len > FZ_MAX_INPUT)
        len = FZ_MAX_INPUT;
    if (fs->delivery == FZ_DELIVER_SHM) {
        uint32_t l = (uint32_t)len;
        memcpy(fs->shm.fuzz, &l, sizeof l);
        memcpy(fs->shm.fuzz + FZ_SHM_FUZZ_HDR, buf, len);
        return 0;
    }
    /* Same file for every run, written in place with pwrite (the file
     * offset stays put: on ext4 that is a third of the cost of lseek,
     * write, ftruncate, lseek) and always truncated, since the target may
     * have changed the file.  It is every child's stdin too, and a child
     * reading stdin moves the offset they share: rewound. */
    if (fs->input_named && renew_input(fs))
        return -1;
    for (size_t off = 0; off < len;) {
        ssize_t n = pwrite(fs->input_fd, buf + off, len - off, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        off += (size_t)n;
    }
    if (ftruncate(fs->input_fd, (off_t)len))
        return -1;
    /* With @@ the target opens the path itself: the offset is the stdin
     * of nobody who reads it, and the stat above took this call's place. */
    if (fs->delivery != FZ_DELIVER_FILE && lseek(fs->input_fd, 0, SEEK_SET) < 0)
        return -1;
    return 0;
}

static fz_run_result_t run_blind(fz_fsrv_t *fs)
{
    char err[256] = "";
    uint64_t t0 = fz_clock_us();
    pid_t pid = fz_fsrv_spawn(fs, err, sizeof err);
    if (pid < 0) {
        snprintf(fs->errmsg, sizeof fs->errmsg, "%s", err);
        return FZ_RUN_ERROR;
    }
    fs->total_forks++;
    int status = 0, timed_out = 0;
    /* Poll with a growing sleep: blind mode pays a fork+exec per run
     * anyway, so a few hundred microseconds of latency do not matter. */
    uint64_t deadline = t0 + (uint64_t)fs->run_timeout_ms * 1000u;
    useconds_t nap = 50;
    uint64_t next_check = t0 + INTERRUPT_SLICE_MS * 1000u;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        uint64_t now = fz_clock_us();
        int cut = now >= next_check && fz_fsrv_interrupted(fs);
        if (now >= next_check)
            next_check = now + INTERRUPT_SLICE_MS * 1000u;
        if (now >= deadline || cut) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            timed_out = 1;
            break;
        }
        usleep(nap);
        if (nap < 2000)
            nap *= 2;
    }
    /* The target led its own session and group (child_exec): whatever it
     * left running goes with it.  One kill per fork+exec costs nothing. */
    kill(-pid, SIGKILL);
    fs->last_exec_us = fz_clock_us() - t0;
    return fz_fsrv_judge(fs, status, timed_out, pid);
}

fz_run_result_t fz_fsrv_run(fz_fsrv_t *fs, const uint8_t *buf, size_t len, uint32_t timeout_ms)
{
    fs->run_timeout_ms = timeout_ms ? timeout_ms : fs->cfg.timeout_ms;
    fs->last_cut = 0;
    /* A direct-mode child clears the slots it uses before each pass. */
    if (!fs->direct)
        memset(fs->trace_bits, 0, fs->map_size);
    if (deliver(fs, buf, len)) {
        snprintf(fs->errmsg, sizeof fs->errmsg, "cannot write the input to '%s': %s",
                 fs->input_path, strerror(errno));
        return FZ_RUN_ERROR;
    }
    fs->total_execs++;
    fs->total_handovers++;
    fs->last_runs = 1;
    if (fs->handshake_version < 0)
        return run_blind(fs);
    if (fs->fsrv_pid <= 0)
        return FZ_RUN_ERROR;

    uint64_t t0 = fz_clock_us();
    if (fs->direct) {
        uint32_t at;
        return fz_fsrv_run_direct(fs, t0, 0, 0, &at);
    }
    uint32_t pid, status;
    if (fz_fsrv_write_u32(fs->ctl_fd, (uint32_t)fs->last_killed))
        return fz_fsrv_run_error(fs, "asked to run");
    fs->last_killed = 0;
    if (fz_fsrv_read_u32(fs, fs->st_fd, &pid, (uint64_t)fs->run_timeout_ms + KILL_WAIT_MS))
        return fz_fsrv_run_error(fs, "starting a child");
    if ((pid_t)pid <= 0)
        return fz_fsrv_run_error(fs, "starting a child (fork failed in the target)");
    if ((pid_t)pid != fs->child_pid)
        fs->total_forks++;
    fs->child_pid = (pid_t)pid;

    int64_t left = (int64_t)fs->run_timeout_ms - (int64_t)(fz_clock_us() - t0) / 1000;
    int r = fz_fsrv_read_u32(fs, fs->st_fd, &status, left > 0 ? (uint64_t)left : 0);
    int timed_out = 0;
    if (r == 1) {
        /* The forkserver reports the killed child's status like any other. */
        kill(fs->child_pid, SIGKILL);
        fs->last_killed = 1;
        timed_out = 1;
        r = fz_fsrv_read_u32(NULL, fs->st_fd, &status, KILL_WAIT_MS);
    }
    fs->last_exec_us = fz_clock_us() - t0;
    if (r)
        return fz_fsrv_run_error(fs, "waiting for a child's status");
    fs->child_stopped = WIFSTOPPED(status);
    if (!fs->child_stopped) {
        fz_fsrv_reap_group(fs, fs->child_pid, timed_out);
        fs->child_pid = -1;
    }
    if (fs->child_stopped && !timed_out)
        return fz_fsrv_judge(fs, 0, 0, -1); /* a persistent iteration that finished */
    return fz_fsrv_judge(fs, (int)status, timed_out, (pid_t)pid);
}

int fz_fsrv_restart(fz_fsrv_t *fs, char *err, size_t errlen)
{
    if (fs->handshake_version < 0)
        return 0; /* blind mode: a fresh process every run anyway */
    uint32_t map_size = fs->map_size;
    pid_t live = fs->direct && fs->shm.ctl ? (pid_t)fz_fsrv_ld(&fs->shm.ctl->pid) : 0;
    if (live > 0)
        kill(-live, SIGKILL);
    if (fs->child_pid > 0)
        kill(-fs->child_pid, SIGKILL);
    fz_fsrv_stop_server(fs);
    fs->child_pid = -1;
    fs->child_stopped = fs->last_killed = 0;
    fs->broke_signal = 0;
    if (fs->shm.ctl) {
        /* The new forkserver must not take the last request, which the
         * old one may have left untaken, as a new one. */
        fz_ctl_t *c = fs->shm.ctl;
        c->taken = c->req;
        c->cur = c->pid = 0;
    }
    if (fz_fsrv_start_server(fs, err, errlen)) {
        fz_fsrv_stop_server(fs);
        return -1;
    }
    if (fs->map_size != map_size) {
        snprintf(err, errlen, "'%s' reported another map size when restarted (%u, was %u)",
                 fs->child_argv[0], fs->map_size, map_size);
        fz_fsrv_stop_server(fs);
        return -1;
    }
    return 0;
}

void fz_fsrv_stop(fz_fsrv_t *fs)
{
    if (fs->child_pid > 0) {
        kill(-fs->child_pid, SIGKILL);
        kill(fs->child_pid, SIGKILL);
    }
    pid_t live = fs->direct && fs->shm.ctl ? (pid_t)fz_fsrv_ld(&fs->shm.ctl->pid) : 0;
    if (live > 0) {
        kill(-live, SIGKILL);
        kill(live, SIGKILL);
    }
    if (fs->fsrv_pid > 0) {
        fz_proc_kill_session(fs->fsrv_pid);
        waitpid(fs->fsrv_pid, NULL, 0);
    }
    fs->child_pid = fs->fsrv_pid = -1;
    if (fs->ctl_fd >= 0)
        close(fs->ctl_fd);
    if (fs->st_fd >= 0)
        close(fs->st_fd);
    if (fs->input_fd >= 0)
        close(fs->input_fd);
    if (fs->dev_null_fd >= 0)
        close(fs->dev_null_fd);
    fs->ctl_fd = fs->st_fd = fs->input_fd = fs->dev_null_fd = -1;
    if (fs->owns_input_path && fs->input_path)
        unlink(fs->input_path);
    fs->owns_input_path = 0;
    free(fs->input_path);
    fs->input_path = NULL;
    fz_proc_untrack(fs->track_slot);
    fs->track_slot = -1;
    if (fs->child_argv) {
        for (size_t i = 0; fs->child_argv[i]; i++)
            free(fs->child_argv[i]);
        free(fs->child_argv);
        fs->child_argv = NULL;
    }
    fz_shm_destroy(&fs->shm);
    fs->trace_bits = NULL;
    if (fs->bound_cpu >= 0) {
        fz_cpu_restore(&fs->saved_cpus);
        fs->bound_cpu = -1;
    }
}
