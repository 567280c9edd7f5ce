/*
 * fsrv.h - the forkserver client: starts an instrumented target, speaks the
 * AFL++ forkserver protocol with it (include/fz-protocol.h, both the
 * version-1 and the legacy handshake), delivers each input (file, stdin or
 * shared memory) and reports each run's outcome and coverage map.
 *
 * Blind mode (cfg.blind, fz-fuzz -n) forks and execs the target per run with
 * no handshake and no coverage, for targets built without fz-cc / afl-cc.
 *
 * This header is what programs see: the configuration, a run's result
 * and crash site, and program lookup.  They start and run a target
 * through core/exec.h (fz_exec_start with an fz_fsrv_cfg_t); the client's
 * state and functions are core/'s own (core/fsrv-priv.h, whose head maps
 * the files that implement it).
 *
 * Typical use:
 *     fz_fsrv_cfg_t cfg; fz_fsrv_cfg_init(&cfg); cfg.argv = argv; ...
 *     fz_exec_t x; fz_exec_start(&x, &cfg, 0, err, sizeof err);  // core/exec.h
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
    FZ_RUN_CRASH, /* the target died of a signal (the record's signal) */
    FZ_RUN_HANG,  /* the timeout expired; the child was killed */
    FZ_RUN_ERROR  /* the forkserver broke; fz_exec_errmsg says why */
} fz_run_result_t;

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

/* The forkserver client's state: private to core/ (core/fsrv-priv.h).
 * Programs run targets through core/exec.h, which owns one. */
typedef struct fz_fsrv fz_fsrv_t;

/* Fills cfg with defaults (no argv, 1000 ms, no memory limit; no_direct
 * and no_affinity from the environment). */
void fz_fsrv_cfg_init(fz_fsrv_cfg_t *cfg);

/* Non-zero if the file at path contains the byte string sig (as afl-fuzz
 * scans a binary for the persistent / deferred signatures). */
int fz_fsrv_file_has(const char *path, const char *sig);

/* Resolves a program name like execvp does (PATH search when it has no
 * '/').  Returns a malloc'ed path or NULL if not found. */
char *fz_fsrv_find_program(const char *name);

#endif
