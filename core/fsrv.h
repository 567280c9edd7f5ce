/*
 * fsrv.h - the forkserver client: starts an instrumented target, speaks the
 * AFL++ forkserver protocol with it (include/fz-protocol.h, both the
 * version-1 and the legacy handshake), delivers each input (file, stdin or
 * shared memory) and reports each run's outcome and coverage map.
 *
 * Blind mode (cfg.blind, fz-fuzz -n) forks and execs the target per run with
 * no handshake and no coverage, for targets built without fz-cc / afl-cc.
 *
 * Typical use:
 *     fz_fsrv_cfg_t cfg; fz_fsrv_cfg_init(&cfg); cfg.argv = argv; ...
 *     fz_fsrv_t fs; char err[512];
 *     if (fz_fsrv_start(&fs, &cfg, err, sizeof err)) fz_die("%s", err);
 *     r = fz_fsrv_run(&fs, buf, len, 0);   // fs.trace_bits[0..fs.map_size) raw counts
 *     fz_fsrv_stop(&fs);
 */
#ifndef FZ_FSRV_H
#define FZ_FSRV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/shm.h"

/* The longest message a failed run leaves (fz_exec_errmsg), with its NUL. */
#define FZ_FSRV_ERRLEN 512

typedef enum {
    FZ_RUN_OK,    /* the target ran and exited (any exit code) */
    FZ_RUN_CRASH, /* the target died of a signal (see last_signal) */
    FZ_RUN_HANG,  /* the timeout expired; the child was killed */
    FZ_RUN_ERROR  /* the forkserver broke; fz_fsrv_t.errmsg says why */
} fz_run_result_t;

typedef enum {
    FZ_DELIVER_FILE,  /* argv holds @@: the input is written to input_path */
    FZ_DELIVER_STDIN, /* no @@: input_path is the child's stdin (rewound) */
    FZ_DELIVER_SHM    /* the target reads the test-case shared memory */
} fz_deliver_t;

typedef struct {
    char **argv;            /* NULL-terminated target command; "@@" = input path */
    const char *input_path; /* -f FILE (created, must not exist; removed at stop);
                               NULL = a private temp file in $TMPDIR */
    uint32_t timeout_ms;    /* start-up (x HANDSHAKE_MULT) and the run default; 0 = 1000 ms */
    uint32_t mem_limit_mb;  /* RLIMIT_AS for the target; 0 = none */
    int blind;              /* -n: fork+exec per run, no handshake, no coverage */
    int debug_child;        /* keep the target's stdout/stderr (FZ_DEBUG_CHILD=1 or
                               AFL_DEBUG_CHILD=1; fz_fsrv_cfg_init reads them) */
    int no_shm_input;       /* never use shared-memory input even if offered */
    int no_direct;          /* keep AFL++'s SIGSTOP persistent protocol even with an
                               fz runtime (FZ_NO_DIRECT=1; fz_fsrv_cfg_init reads it) */
    uint32_t legacy_map_size; /* map bytes of a target that reports no size (AFL_MAP_SIZE);
                                 0 = AFL's 64 KiB */
    int no_affinity;        /* do not bind to a free CPU (FZ_NO_AFFINITY=1 or
                               AFL_NO_AFFINITY=1; fz_fsrv_cfg_init reads them) */
    int spin;               /* direct mode: give the target a second free CPU and
                               spin: 1 whenever one is free, 0 never, -1 (default)
                               only when the machine has CPUs to spare (FZ_SPIN=1
                               or 0; fz_fsrv_cfg_init reads it) */
    int cmplog;             /* offer the comparison log (core/cmplog.h) whose SysV id
                               is cmplog_shm_id; 0: the target is not told of one */
    int cmplog_shm_id;
    int batch;              /* offer batches (fz_fsrv_run_batch) to a persistent fz
                               target with shared-memory input; FZ_NO_BATCH=1 clears
                               it after the caller set it (fz_fsrv_start reads it) */
} fz_fsrv_cfg_t;

/* Where a crashing run died (include/fz-protocol.h, "Crash sites"), as the
 * runtime's handler or the sanitizer's report gave it. */
typedef struct {
    uint64_t hash;                /* the site; 0 = unknown (no fz runtime, the
                                     program's own handler, a fault in ours) */
    uint32_t from;                /* FZ_SITE_FROM_* */
    uint32_t nframes;             /* frames in off */
    uint64_t off[FZ_SITE_FRAMES]; /* module-relative addresses (UBSan: line, column) */
    char module[FZ_SITE_FRAMES][24]; /* each frame's module (UBSan: [0] the source file) */
} fz_site_t;

typedef struct {
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
    /* When set, a run waiting longer than a moment calls it every 200 ms
     * and ends like a timeout (last_cut set) when it returns non-zero:
     * core/exec.h, fz_exec_run_polled. */
    int (*interrupt)(void *ctx);
    void *interrupt_ctx;
    int last_cut;          /* the last run was cut short by interrupt */
    int broke_signal;      /* FZ_RUN_ERROR: the signal that killed the forkserver
                              while it ran an input (the input did it), else 0 */
    uint32_t run_timeout_ms; /* the timeout the last run had */
    uint32_t last_runs;    /* runs the last call made (a batch: up to its stop) */
    fz_site_t last_site;   /* a crash's site (hash 0 for other results) */

    /* Counters since start. */
    uint64_t total_execs;
    uint64_t total_forks; /* new children: execs/forks = persistent reuse */
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
    pid_t child_pid;              /* current child (a stopped persistent one too) */
    int child_stopped;            /* persistent child paused itself (WIFSTOPPED) */
    int last_killed;              /* we killed the previous child */
    uint32_t seen_forks;          /* fz_diag_t.forks after the last cleanup */
    int track_slot;               /* this forkserver's slot in the exit-time list */
    uint32_t direct_seq;          /* direct mode: sequence number of the last request */
    uint32_t split_runs;          /* direct mode on two CPUs: runs in this window... */
    uint32_t split_sleeps;        /* ...and how many of them needed a futex sleep */
    int ctl_fd;                   /* we write commands here (target's fd 198) */
    int st_fd;                    /* we read replies here (target's fd 199) */
    unsigned long saved_cpus[16]; /* affinity before binding (a cpu_set_t) */
} fz_fsrv_t;

/* The CPUs this process may run on that no other user process is bound to
 * alone (another fuzzer or its target): at most max CPU numbers into cpus,
 * ascending; returns how many.  fz-fuzz -j gives each instance one. */
int fz_fsrv_free_cpus(int *cpus, int max);

/* Fills cfg with defaults (no argv, 1000 ms, no memory limit; no_direct
 * and no_affinity from the environment). */
void fz_fsrv_cfg_init(fz_fsrv_cfg_t *cfg);

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

/* Non-zero if the file at path contains the byte string sig (as afl-fuzz
 * scans a binary for the persistent / deferred signatures). */
int fz_fsrv_file_has(const char *path, const char *sig);

/* Resolves a program name like execvp does (PATH search when it has no
 * '/').  Returns a malloc'ed path or NULL if not found. */
char *fz_fsrv_find_program(const char *name);

#endif
