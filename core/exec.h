/*
 * exec.h - a run is a value.  The execution module owns the forkserver
 * client (core/fsrv.h), the virgin maps (what no input has reached yet:
 * one for queue inputs, one for crashes, one for hangs) and the per-run
 * timeout in force.  One call runs an input and returns a record: result,
 * signal, exit code, time, the classified coverage map and whether that
 * map holds something new for the virgin map of its kind.  "Run, classify,
 * compare with virgin" exists here and nowhere else; fz-fuzz's calibration,
 * stages, triage, resume and sync, the minimizer and the tools all consume
 * the record.
 *
 * Typical use:
 *     fz_exec_t x; char err[512];
 *     if (fz_exec_start(&x, &fcfg, FZ_EXEC_VIRGIN, err, sizeof err)) fz_die("%s", err);
 *     fz_exec_rec_t r;
 *     fz_exec_run(&x, buf, len, 0, &r);        // 0 = the timeout in force
 *     if (r.new_bits) fz_exec_commit(&x, &r, mask);
 *     fz_exec_stop(&x);
 */
#ifndef FZ_CORE_EXEC_H
#define FZ_CORE_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "core/fsrv.h"

/* What the target negotiated at its start and what it has run since:
 * fz_exec_info.  Everything a caller reads about the forkserver is here,
 * in a run's record or behind fz_exec_execs / fz_exec_last_us. */
typedef struct fz_exec_info {
    const char *protocol;  /* "blind", "legacy", "v1" or "v1 direct" */
    const char *mode;      /* AFL++'s target_mode: "default", "persistent", ... */
    int bound_cpu;         /* the CPU fz and the target are bound to, -1 none */
    int cmplog;            /* the target fills the comparison log (core/cmplog.h) */
    uint32_t custom;       /* its harness has its own mutator: FZ_FS_NEW_OPT_FZ_CUSTOM /
                              _XOVER (include/fz-protocol.h, "Harness-side mutation") */
    uint64_t execs;        /* runs since start (batch runs included) */
    uint64_t forks;        /* new children: execs / forks = persistent reuse */
    uint64_t handovers;    /* requests: execs / handovers = runs per batch */
    const fz_diag_t *diag; /* the runtime's report page (fz-protocol.h), NULL none */
} fz_exec_info_t;

/* Which virgin map a record is judged against: its result's. */
typedef enum {
    FZ_VIRGIN_QUEUE, /* runs that exited: a new bit makes a queue entry */
    FZ_VIRGIN_CRASH, /* crashing runs: a new bit makes a crash unique */
    FZ_VIRGIN_HANG,  /* hanging runs (their hit counts bucketed like the others) */
    FZ_VIRGIN_KINDS
} fz_virgin_kind_t;

/* The runs whose inputs direct mode keeps for fz_exec_find_killer, bounded
 * by count and by bytes.  A child whose input made the target kill its
 * forkserver goes on answering until the kernel has the forkserver exit
 * and PR_SET_PDEATHSIG kills the child too; on a busy machine that was
 * seen to take more than 64 runs.  The byte bound holds at least eight
 * inputs of the largest size. */
#define FZ_EXEC_SUSPECTS 4096u
#define FZ_EXEC_SUSPECT_BYTES (8u * FZ_MAX_INPUT)

/* fz_exec_start flags. */
#define FZ_EXEC_VIRGIN 1 /* keep virgin maps and judge every run (fz-fuzz) */
#define FZ_EXEC_RAW 2    /* rec.map holds raw hit counts, not buckets (fz-showmap) */

typedef struct fz_exec_rec {
    fz_run_result_t result; /* ok / crash / hang / error (fsrv errmsg says why) */
    int signal;             /* the signal that killed it, 0 if none; for an error, the
                               signal that killed the forkserver while it ran this input
                               (the input made the target kill it) */
    int exit_code;          /* its exit code, -1 if it did not exit */
    uint64_t exec_us;       /* wall time of the run (never used for decisions under -s) */
    uint32_t timeout_ms;    /* the timeout it ran under */
    /* The classified map (bucket bits, map_size bytes; raw counts with
     * FZ_EXEC_RAW), valid until the next run; NULL in blind mode (-n),
     * which has no coverage. */
    const uint8_t *map;
    uint32_t map_size;
    /* FZ_COV_NOTHING / _NEW_COUNT / _NEW_EDGE against the virgin map of
     * its kind (queue for ok, crash, hang), not yet marked as seen: call
     * fz_exec_commit to keep it.  Blind mode: _NEW_EDGE for the first crash
     * per signal and the first hang.  Always NOTHING without
     * FZ_EXEC_VIRGIN and for errors. */
    int new_bits;
    /* Where a crash happened (a hash of the faulting address and a few
     * return addresses, include/fz-protocol.h "Crash sites"), 0 when
     * unknown (not a crash, no fz runtime, the program's own handler).
     * where holds it with the frames behind it (hash 0 when unknown),
     * valid until the next run like map. */
    uint64_t site;
    const fz_site_t *where;
    int cut; /* fz_exec_run_polled: stop said stop before the run ended (result HANG) */
} fz_exec_rec_t;

typedef struct fz_exec {
    fz_fsrv_t *fs;       /* the forkserver client (core/fsrv-priv.h: core/ only) */
    uint32_t map_size;   /* bytes of the map the target uses */
    uint32_t timeout_ms; /* the per-run timeout in force: the only copy */
    int blind;           /* no coverage (fs blind mode) */
    int batch;           /* the target takes batches (fz_exec_batch_add) */
    int raw;             /* FZ_EXEC_RAW */
    uint8_t *virgin[FZ_VIRGIN_KINDS]; /* 0xff = unseen; NULL without FZ_EXEC_VIRGIN */
    uint64_t blind_seen[FZ_VIRGIN_KINDS]; /* blind mode: bit per signal (hang: bit 0) seen */
    /* A transformation of every input fz_exec_run runs (fz-fuzz's AFL++
     * custom mutators' post_process): returns the length of what to run
     * in *out (valid until the next call), or 0 to run the input as it
     * is.  NULL: none.  Batches are not transformed. */
    size_t (*post)(void *ctx, const uint8_t *buf, size_t len, const uint8_t **out);
    void *post_ctx;
    /* Batches: the inputs waiting in the target's batch segment. */
    uint32_t batch_n;    /* inputs in it */
    uint32_t batch_used; /* bytes of batch->data in use */
    fz_batch_t *seg;     /* the batch segment (include/fz-protocol.h), NULL without batches */
    /* Direct mode: the inputs of the last runs since the forkserver
     * started, the suspects of fz_exec_find_killer.  The inputs follow one
     * another in an endless stream of bytes, of which sus_bytes holds the
     * last FZ_EXEC_SUSPECT_BYTES (an input never wraps round its end);
     * sus is a ring of up to FZ_EXEC_SUSPECTS records, oldest at
     * sus_first.  Both are allocated at the first direct run. */
    uint8_t *sus_bytes;
    struct fz_exec_suspect {
        uint64_t at; /* where the input starts in the stream */
        uint32_t len;
    } *sus;
    uint32_t sus_first, sus_n;
    uint64_t sus_end; /* where the next input goes in the stream */
    /* A batch that ended with the forkserver's death: its runs broke_from ..
     * + broke_n - 1, still in the segment, are suspects too (broke_n 0: none). */
    uint32_t broke_from, broke_n;
    /* The client's counters as the last run left them (they stay after
     * fz_exec_stop): fz_exec_execs, fz_exec_last_us. */
    uint64_t execs;
    uint64_t last_exec_us;
} fz_exec_t;

/* Starts the target (fz_fsrv_start) with cfg->timeout_ms as the timeout in
 * force and, with FZ_EXEC_VIRGIN, all-unseen virgin maps.  Returns 0, or -1
 * with the one-line message in err and nothing left running. */
int fz_exec_start(fz_exec_t *x, const fz_fsrv_cfg_t *cfg, int flags, char *err, size_t errlen);

/* Stops the target and frees the maps.  Safe to call twice. */
void fz_exec_stop(fz_exec_t *x);

/* Starts the target again after FZ_RUN_ERROR (fz_fsrv_restart); the
 * virgin maps stay.  Returns 0, or -1 with the message in err. */
int fz_exec_restart(fz_exec_t *x, char *err, size_t errlen);

/* Changes the timeout in force (after calibration chose one). */
void fz_exec_set_timeout(fz_exec_t *x, uint32_t timeout_ms);

/* Runs buf once with timeout_ms (0 = the timeout in force), fills rec and
 * returns rec->result.  The map is classified and judged (see
 * fz_exec_rec_t.new_bits); virgin maps are not changed. */
fz_run_result_t fz_exec_run(fz_exec_t *x, const uint8_t *buf, size_t len, uint32_t timeout_ms,
                            fz_exec_rec_t *rec);

/* fz_exec_run for a run with a long timeout (a hang's confirmation): while
 * it waits, stop(ctx) is asked every 200 ms, and when it returns non-zero
 * the run is ended like a timeout, with rec->cut set: the time limit and
 * Ctrl-C are honoured within a moment however long the timeout. */
fz_run_result_t fz_exec_run_polled(fz_exec_t *x, const uint8_t *buf, size_t len,
                                   uint32_t timeout_ms, int (*stop)(void *ctx), void *ctx,
                                   fz_exec_rec_t *rec);

/* Batches, for a target that takes them (x->batch; core/fsrv-priv.h,
 * fz_fsrv_run_batch).  A stage queues its candidates with
 * fz_exec_batch_add and runs them with fz_exec_run_batch, which gives the
 * same record as running them one by one with fz_exec_run and stopping at
 * the first that is not an exit with nothing new: the target runs them
 * back to back and judges them itself.  The caller sees only the run that
 * stopped the batch; the runs before it are counted (fz_exec_execs) and
 * need nothing done.  A target that takes no batches gets fz_exec_run.
 *
 * fz_exec_batch_add queues len bytes (len <= FZ_MAX_INPUT) and returns 0,
 * or -1 when the batch is full (FZ_BATCH_MAX inputs or FZ_BATCH_DATA / 2
 * bytes: batches take turns in the two halves of the data area)
 * or the target takes no batches: run it and clear it first. */
int fz_exec_batch_add(fz_exec_t *x, const uint8_t *buf, uint32_t len);

/* A request for the harness's own mutator (fz_exec_info custom set; include/
 * fz-protocol.h, "Harness-side mutation"): queued like an input, but the
 * target builds the input it runs from it.  Returns 0, or -1 as
 * fz_exec_batch_add (and when the target takes no requests). */
int fz_exec_batch_add_request(fz_exec_t *x, const uint8_t *buf, uint32_t len);

/* Non-zero when queued input i is a request. */
int fz_exec_batch_is_request(const fz_exec_t *x, uint32_t i);

/* After a batch run of a request: the bytes the target ran, as it left
 * them in the test-case segment (valid until the next run), or NULL when
 * it left none (its mutator died first). */
const uint8_t *fz_exec_ran_input(const fz_exec_t *x, uint32_t *len);

/* Queued input i (a request's bytes for a request) and its length. */
const uint8_t *fz_exec_batch_input(const fz_exec_t *x, uint32_t i, uint32_t *len);

/* Empties the batch. */
void fz_exec_batch_clear(fz_exec_t *x);

/* Runs queued inputs from .. from + n - 1 (n >= 1) with the timeout in
 * force per run; fills rec for the run that stopped the batch and returns
 * its result; *at is its index. */
fz_run_result_t fz_exec_run_batch(fz_exec_t *x, uint32_t from, uint32_t n, fz_exec_rec_t *rec,
                                  uint32_t *at);

/* After a run ended in FZ_RUN_ERROR because the forkserver was killed
 * (rec.signal set), finds the input that killed it.  A fork-mode run's is
 * the input of that run (buf).  In direct mode (a persistent fz target)
 * the child answers for itself and can go on answering for a while after
 * its input killed the forkserver, until it dies with it: the killer is
 * one of the runs kept since the forkserver started (batch runs included;
 * FZ_EXEC_SUSPECTS, FZ_EXEC_SUSPECT_BYTES) or, when a batch broke, any
 * run of that batch (a child can get through hundreds of batch inputs
 * before the kernel kills it).  Those are run again, newest first (the
 * killer is a few runs back, the runs kept go back thousands), on a new
 * forkserver that speaks AFL++'s SIGSTOP protocol, where the forkserver
 * itself reports every run and a kill shows at once; the first that kills
 * it is the one: returns it (its length in *out_len), or buf when none
 * does.  The forkserver is left stopped or running; the caller ends the
 * campaign. */
const uint8_t *fz_exec_find_killer(fz_exec_t *x, const uint8_t *buf, uint32_t len,
                                   uint32_t *out_len);

/* Marks rec's map as seen in the virgin map of its kind.  With mask (map_size
 * bytes) not NULL, first writes the bits it adds there (map & virgin).
 * rec must be the last run's record.  Returns what was new
 * (FZ_COV_*). */
int fz_exec_commit(fz_exec_t *x, const fz_exec_rec_t *rec, uint8_t *mask);

/* Marks a classified map (e.g. a calibrated seed's, copied before later
 * runs) as seen in the virgin map of kind. */
void fz_exec_mark_seen(fz_exec_t *x, fz_virgin_kind_t kind, const uint8_t *map);

/* Edges the queue virgin map has seen (0 without FZ_EXEC_VIRGIN). */
size_t fz_exec_edges_found(const fz_exec_t *x);

/* Why the last FZ_RUN_ERROR happened (at most FZ_FSRV_ERRLEN bytes). */
const char *fz_exec_errmsg(const fz_exec_t *x);

/* The target's protocol, capabilities and counters (fz_exec_info_t). */
fz_exec_info_t fz_exec_info(const fz_exec_t *x);

/* Runs since start (fz_exec_info's execs), for callers that ask per run. */
static inline uint64_t fz_exec_execs(const fz_exec_t *x)
{
    return x->execs;
}

/* The wall time of the last run, microseconds. */
static inline uint64_t fz_exec_last_us(const fz_exec_t *x)
{
    return x->last_exec_us;
}

#endif
