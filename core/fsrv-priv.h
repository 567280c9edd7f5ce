/*
 * fsrv-priv.h - the forkserver client's state and the functions its files
 * share; included by core/ files only (programs see core/fsrv.h and run
 * targets through core/exec.h).  The client is split by job:
 *
 *   fsrv.c            start, restart, stop; each run's delivery; one classic or
 *                     blind run
 *   fsrv-spawn.c      program lookup, argv, the child's environment, fork+exec
 *   fsrv-input.c      the input file's creation (-f FILE or a private temp file)
 *   fsrv-handshake.c  starting the forkserver: version-1 and legacy handshakes
 *   fsrv-wait.c       waiting for the target's words and judging a run's end
 *   fsrv-direct.c     direct persistent mode: futex hand-over, batches, spinning
 *   fsrv-diag.c       the messages for a target that fails to start or breaks
 *
 * and uses core/proc.h (the sessions and files to clean up at exit) and
 * core/cpu.h (CPU binding).  Calls go down that list's dependencies only:
 * fsrv.c calls the others; handshake calls spawn, wait and diag; direct
 * calls wait and diag; diag calls wait; none calls back into fsrv.c.
 */
#ifndef FZ_CORE_FSRV_PRIV_H
#define FZ_CORE_FSRV_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "core/cpu.h"
#include "core/fsrv.h"
#include "core/shm.h"
#include "fz-clock.h"

/* The handshake may take this many times the run timeout (AFL++ uses 10x
 * too), but never less than HANDSHAKE_MIN_MS: sanitizer start-up is slow. */
#define HANDSHAKE_MULT 10
#define HANDSHAKE_MIN_MS 10000

/* How long to wait for a killed child's status before giving up. */
#define KILL_WAIT_MS 5000

/* A wait longer than this is cut into slices of it, and between two the
 * caller's interrupt test runs (fz_fsrv_t.interrupt): a long timeout never
 * keeps -V or Ctrl-C waiting.  Shorter waits, every ordinary run's, pay
 * nothing. */
#define INTERRUPT_SLICE_MS 200

typedef enum {
    FZ_DELIVER_FILE,  /* argv holds @@: the input is written to input_path */
    FZ_DELIVER_STDIN, /* no @@: input_path is the child's stdin (rewound) */
    FZ_DELIVER_SHM    /* the target reads the test-case shared memory */
} fz_deliver_t;

struct fz_fsrv {
    fz_fsrv_cfg_t cfg; /* copy of the configuration (argv is borrowed) */
    fz_shm_t shm;
    uint8_t *trace_bits; /* == shm.map: raw counts of the last run */
    uint32_t map_size;   /* bytes the target uses (rounded to FZ_MAP_SIZE_MIN) */
    fz_deliver_t delivery;
    int handshake_version; /* 1, 0 = legacy, -1 = blind mode */
    int persistent;        /* binary has FZ_SIG_PERSISTENT */
    int deferred;          /* binary has FZ_SIG_DEFER */
    int direct;            /* direct persistent mode negotiated (fz-protocol.h) */
    int bound_cpu;         /* CPU this process (and the target) is bound to, -1 none */
    int target_cpu;        /* direct mode: the target's own CPU when it has one, else -1 */
    uint32_t spin;         /* direct mode: polls before sleeping on an answer (0: none) */
    int cmplog;            /* the handshake said the target fills the comparison log
                              (FZ_FS_NEW_OPT_FZ_CMPLOG, include/fz-cmplog.h) */
    int batch;             /* batches negotiated: fz_fsrv_run_batch hands the target
                              many inputs at once (shm.batch, shm.virgin) */
    uint32_t custom;       /* FZ_FS_NEW_OPT_FZ_CUSTOM / _XOVER: the harness has its own
                              mutator, which takes requests when batch is set too
                              (include/fz-protocol.h, "Harness-side mutation") */

    /* Last run. */
    int last_status;       /* waitpid() status */
    int last_signal;       /* signal that killed it, 0 if none */
    int last_exit_code;    /* exit code if it exited, else -1 */
    uint64_t last_exec_us; /* wall time of the run, microseconds */
    /* When set, a run waiting longer than a moment calls it every
     * INTERRUPT_SLICE_MS
     * and ends like a timeout (last_cut set) when it returns non-zero:
     * core/exec.h, fz_exec_run_polled. */
    int (*interrupt)(void *ctx);
    void *interrupt_ctx;
    int last_cut;            /* the last run was cut short by interrupt */
    int broke_signal;        /* FZ_RUN_ERROR: the signal that killed the forkserver
                                while it ran an input (the input did it), else 0 */
    uint32_t run_timeout_ms; /* the timeout the last run had */
    uint32_t last_runs;      /* runs the last call made (a batch: up to its stop) */
    fz_site_t last_site;     /* a crash's site (hash 0 for other results) */

    /* Counters since start. */
    uint64_t total_execs;
    uint64_t total_forks;     /* new children: execs/forks = persistent reuse */
    uint64_t total_handovers; /* requests: execs/handovers = runs per batch */
    uint64_t total_crashes;
    uint64_t total_hangs;

    char errmsg[FZ_FSRV_ERRLEN]; /* why the last FZ_RUN_ERROR happened */

    /* Private state. */
    char **child_argv;
    char *input_path;
    int owns_input_path;
    int input_fd;
    int input_named; /* the target knows input_path (@@ or -f): checked per run */
    dev_t input_dev; /* ...and the file it must name */
    ino_t input_ino;
    int dev_null_fd;
    pid_t fsrv_pid;
    pid_t child_pid;        /* current child (a stopped persistent one too) */
    int child_stopped;      /* persistent child paused itself (WIFSTOPPED) */
    int last_killed;        /* we killed the previous child */
    uint32_t seen_forks;    /* fz_diag_t.forks after the last cleanup */
    int track_slot;         /* this forkserver's slot in the exit-time list */
    uint32_t direct_seq;    /* direct mode: sequence number of the last request */
    uint32_t split_runs;    /* direct mode on two CPUs: runs in this window... */
    uint32_t split_sleeps;  /* ...and how many of them needed a futex sleep */
    int ctl_fd;             /* we write commands here (target's fd 198) */
    int st_fd;              /* we read replies here (target's fd 199) */
    fz_cpuset_t saved_cpus; /* affinity before binding (core/cpu.h) */
};

/* A word of the direct-mode control page, as the other side left it. */
static inline uint32_t fz_fsrv_ld(volatile uint32_t *w)
{
    return __atomic_load_n(w, __ATOMIC_SEQ_CST);
}

/* ---- fsrv.c: the client's entry points (core/exec.c calls them) ---- */

/* Creates the shared memory, starts the target and completes the
 * handshake.  Unless cfg->no_affinity, first binds the calling process (and
 * so the target it forks) to one CPU that no other process is bound to, as
 * afl-fuzz does: the fuzzer and the target hand the turn to each other once
 * or twice per run, and a wake-up on the same CPU is several times cheaper
 * than one across CPUs (an inter-processor interrupt; worse in a VM).
 * A process already restricted to one CPU (taskset) is left alone.
 * In direct mode (a persistent fz target), when a second CPU is free too
 * (cfg.spin 1) or at least SPLIT_FREE_MIN are (cfg.spin -1, the default,
 * which leaves a CPU for the next campaign, and only without batches),
 * the target gets one of them
 * and both sides spin briefly before they sleep: a hand-over then costs no
 * system call at all.  Where the spinning does not pay (runs longer than
 * the spin, a busy CPU), the target is moved back to ours and nobody
 * spins.
 * Returns 0, or -1 with a one-line message (cause and fix) in err; nothing
 * is left running on failure. */
int fz_fsrv_start(fz_fsrv_t *fs, const fz_fsrv_cfg_t *cfg, char *err, size_t errlen);

/* Runs the target once on buf: clears map[0..map_size), delivers the input,
 * waits up to timeout_ms (0 = cfg.timeout_ms; killing the child if it
 * expires) and records the outcome in fs->last_*.  The raw map is then in
 * fs->trace_bits.  After FZ_RUN_ERROR the forkserver is gone; see
 * fs->errmsg.  Programs call it through core/exec.h, which owns the
 * timeout in force and turns the outcome into a record. */
fz_run_result_t fz_fsrv_run(fz_fsrv_t *fs, const uint8_t *buf, size_t len, uint32_t timeout_ms);

/* Batches (include/fz-protocol.h, "Batches"; fs->batch set): runs inputs
 * from .. from + n - 1 of fs->shm.batch in order and stops after the first
 * run that is not a plain run with nothing new for fs->shm.virgin: a
 * crash, a hang (timeout_ms per run), an exit in the loop, a new bucket;
 * or after the last one, or where the target's __AFL_LOOP count ends.
 * Returns that run's result, its index in *at and its raw map in
 * fs->trace_bits; fs->last_* describe it, fs->last_runs = *at - from + 1
 * (every run before *at exited normally and found nothing new).
 * fs->last_exec_us is the mean time of those runs. */
fz_run_result_t fz_fsrv_run_batch(fz_fsrv_t *fs, uint32_t from, uint32_t n, uint32_t timeout_ms,
                                  uint32_t *at);

/* Starts the forkserver again after FZ_RUN_ERROR (an input made the target
 * kill it), with the same shared memory, input file and options.  Returns
 * 0, or -1 with a one-line message in err and no forkserver. */
int fz_fsrv_restart(fz_fsrv_t *fs, char *err, size_t errlen);

/* Kills the forkserver, any child and every process they left in the
 * target's session (forking targets), removes the input file, detaches the
 * shared memory and restores the CPU affinity.  Safe to call twice.  A
 * process that exits (fz_die included) without calling it gets the
 * process killing and the file removal from an atexit handler. */
void fz_fsrv_stop(fz_fsrv_t *fs);

/* ---- fsrv-spawn.c ---- */

/* Checks the program before any fork, so the common mistakes get a precise
 * message instead of a failed handshake: returns its malloc'ed path, or
 * NULL with the message in err. */
char *fz_fsrv_check_program(const char *name, char *err, size_t errlen);

/* Builds the child's argv with every "@@" replaced by the input path and
 * argv[0] = prog; decides file vs stdin delivery.  Returns 0 or -1. */
int fz_fsrv_build_argv(fz_fsrv_t *fs, const char *prog);

/* Forks the target (and, when fs has a handshake, wires up the protocol
 * pipes to fs->ctl_fd / st_fd).  Returns the pid, or -1 with err. */
pid_t fz_fsrv_spawn(fz_fsrv_t *fs, char *err, size_t errlen);

/* ---- fsrv-input.c ---- */

/* Creates the input file (-f FILE, which must not exist, or a private
 * temp file).  Returns 0, or -1 with the message in err. */
int fz_fsrv_open_input(fz_fsrv_t *fs, char *err, size_t errlen);

/* ---- fsrv-handshake.c ---- */

/* Spawns the forkserver and completes its handshake.  Returns 0, or -1
 * with the diagnosis in err (the forkserver may still run: stop it). */
int fz_fsrv_start_server(fz_fsrv_t *fs, char *err, size_t errlen);

/* Ends a forkserver that failed to start, so another attempt can run. */
void fz_fsrv_stop_server(fz_fsrv_t *fs);

/* ---- fsrv-wait.c ---- */

/* Non-zero when the wait of the run in progress is to be cut short. */
int fz_fsrv_interrupted(fz_fsrv_t *fs);

/* Reads exactly 4 bytes within timeout_ms.  Returns 0, 1 on timeout (or
 * when fs's interrupt test cut it short; fs may be NULL), -1 on EOF or
 * error. */
int fz_fsrv_read_u32(fz_fsrv_t *fs, int fd, uint32_t *out, uint64_t timeout_ms);

/* Writes 4 bytes.  Returns 0 or -1. */
static inline int fz_fsrv_write_u32(int fd, uint32_t v)
{
    return write(fd, &v, 4) == 4 ? 0 : -1;
}

/* Waits up to ms for pid to end; returns 1 with *status, 0 if still alive. */
int fz_fsrv_wait_pid(pid_t pid, int *status, int ms);

/* The forkserver was reaped: what it left in its session goes too. */
void fz_fsrv_gone(fz_fsrv_t *fs);

/* Records a run's end (status, timed out, the child pid for its crash
 * site) in fs->last_* and returns its result. */
fz_run_result_t fz_fsrv_judge(fz_fsrv_t *fs, int status, int timed_out, pid_t pid);

/* After a run's child ended: under an fz runtime the child led its own
 * process group (fz-protocol.h), so whatever it forked and left running is
 * killed with the group.  Only when the run forked (the runtime's count
 * moved) or was killed: the common run pays one read of the diagnostics
 * page, no system call. */
static inline void fz_fsrv_reap_group(fz_fsrv_t *fs, pid_t pgid, int force)
{
    if (pgid <= 0)
        return;
    uint32_t forks = fs->shm.diag ? fs->shm.diag->forks : 0;
    if (!force && forks == fs->seen_forks)
        return;
    fs->seen_forks = forks;
    kill(-pgid, SIGKILL);
}

/* ---- fsrv-direct.c ---- */

/* One direct-mode request: n == 0 runs the test-case segment, n > 0 batch
 * inputs from .. from + n - 1 (*at: the one answered for). */
fz_run_result_t fz_fsrv_run_direct(fz_fsrv_t *fs, uint64_t t0, uint32_t from, uint32_t n,
                                   uint32_t *at);

/* Gives the target a CPU of its own and lets both sides spin, when that
 * pays (see fz_fsrv_start). */
void fz_fsrv_split_cpus(fz_fsrv_t *fs);

/* ---- fsrv-diag.c ---- */

/* Explains why the handshake did not happen: why < 0 the pipe closed (or
 * the forkserver exited), > 0 it timed out. */
void fz_fsrv_no_handshake(fz_fsrv_t *fs, int why, char *err, size_t errlen);

/* The forkserver broke while it did what (a run's step): fills
 * fs->errmsg (and fs->broke_signal when the input killed it) and returns
 * FZ_RUN_ERROR. */
fz_run_result_t fz_fsrv_run_error(fz_fsrv_t *fs, const char *what);

/* The message for a start that failed under -m: nomem when the runtime
 * flagged ENOMEM, else a start without the limit worked. */
void fz_fsrv_mem_limit_message(const fz_fsrv_t *fs, int nomem, char *err, size_t errlen);

/* The message for a set-up error word the target sent at the handshake. */
void fz_fsrv_setup_error(const fz_fsrv_t *fs, uint32_t code, char *err, size_t errlen);

#endif
