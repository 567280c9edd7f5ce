/*
 * run.h - the one place that runs the target, judges what came back and
 * decides what it means for the campaign.
 *
 * A candidate (a mutation, an import from a peer) goes through fz_run_one
 * (fz_run_push for the batched stages): run, judge the record (a crash or
 * hang to triage, new coverage into the queue), save.  Every other run
 * fz-fuzz makes of an input it holds (trimming, crash minimization's
 * rechecks, calibration, a hang's confirmation, the seeds, re-running
 * saved crashes on resume, --replay) goes through fz_run_again (or
 * fz_run_kept, for --replay's own execution module), and every run that
 * ends in FZ_RUN_ERROR, wherever it was made, ends in fz_run_broke or, for
 * an input that is saved already, in a new forkserver: no module decides
 * that by itself, so no found crash or queue entry is lost to it.
 *
 * The rule (AFL++'s: a campaign whose forkserver is gone ends): when the
 * forkserver was killed while it ran an input, the input made the target
 * kill it (kill(getppid()), kill(0), killpg), which is a crash of the
 * target like any other.  A find not saved yet is saved in crashes/ as
 * sig:NN (as a fork-mode target's own death would be), counted, and the
 * campaign ends with exit status 3; what was saved before stays (resume
 * with -i -).  An input that is saved already (a seed, a saved crash)
 * counts as crashing and the campaign goes on with a new forkserver.  A
 * forkserver that died of anything else ends the run, naming what it was
 * doing.
 */
#ifndef FZ_FUZZ_RUN_H
#define FZ_FUZZ_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "fz-fuzz/names.h"

struct fz_state;
struct fz_triage;

/* Batches (core/exec.h): a target that takes them gets up to FZ_BATCH_RUNS
 * candidates (FZ_BATCH_BYTES of them at most) per hand-over, as many as
 * run in about FZ_BATCH_TARGET_US by the last batch's pace, so -V, the
 * screen and -j's imports never wait long.  Which runs are made does not
 * depend on it (run.c, flush_batch). */
#define FZ_BATCH_RUNS 256
#define FZ_BATCH_BYTES (256u << 10)
#define FZ_BATCH_TARGET_US 2000

/* Run buf once, judge the record and save what is new: crash/hang via
 * triage, new coverage into the queue (calibrated; trimmed on its first
 * turn unless it is a peer's).  o says where buf came from (stage, parent,
 * peer) for the file name and the entry's depth.  Returns 1 if the queue
 * grew. */
int fz_run_one(struct fz_state *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o);

/* The same with the comparison log on for exactly this run (not for the
 * minimization and calibration of what it finds), so it still holds this
 * run afterwards (fz-fuzz/i2s.c reads it). */
int fz_run_logged(struct fz_state *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o);

/* A candidate for the batched stages (the target runs it now, or later
 * in a batch; fz_run_flush runs what waits, judged as fz_run_one would),
 * and a request for the harness's own mutator (lfmut.h), always batched. */
void fz_run_push(struct fz_state *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o);
void fz_run_push_request(struct fz_state *st, const uint8_t *req, uint32_t len,
                         const fz_origin_t *o);
void fz_run_flush(struct fz_state *st);

/* Non-zero when the run must end: signal, -E or -V reached, or the first
 * crash with --until-crash. */
int fz_run_should_stop(struct fz_state *st);

/* Non-zero with --until-crash once this run saved a crash. */
int fz_run_found_crash(const struct fz_state *st);

/* The minimizer's poll (fz_min_cfg_t.poll, ctx = the state): ticks the
 * status screen and asks to stop on a signal or when -V is up. */
int fz_run_poll(void *ctx);

/* The file name of a find (queue entry, crash or hang; sig > 0 for a
 * crash) from its origin (o->src a queue id), with the time and exec count
 * of now: fz_name_find in the running campaign. */
int fz_run_name(const struct fz_state *st, char *buf, size_t n, uint32_t id, int sig,
                const fz_origin_t *o, int new_edge);

/* Fills *t, triage's narrow context (triage.h), from the state. */
void fz_run_triage(struct fz_state *st, struct fz_triage *t);

/* Runs buf once more (timeout_ms 0: the timeout in force) and returns the
 * result, as fz_exec_run does.  o: where a find not saved yet came from;
 * a run of it that loses the target goes to fz_run_broke with o and doing
 * (a noun: "trimming", "calibration"), so FZ_RUN_ERROR never comes back.
 * NULL for an input that is saved already (a seed, a saved crash): when
 * it made the target kill its forkserver, a new forkserver is started and
 * FZ_RUN_ERROR comes back with rec->signal set (the input crashes); a
 * forkserver lost otherwise ends the run (fz_run_broke, naming doing). */
fz_run_result_t fz_run_again(struct fz_state *st, const uint8_t *buf, uint32_t len,
                             uint32_t timeout_ms, fz_exec_rec_t *rec, const fz_origin_t *o,
                             const char *doing);

/* fz_run_again for a hang's confirmation (timeout_ms, a long one): -V
 * and a stop signal cut it short within a moment; then rec->cut is set
 * and the result is FZ_RUN_HANG. */
fz_run_result_t fz_run_again_polled(struct fz_state *st, const uint8_t *buf, uint32_t len,
                                    uint32_t timeout_ms, fz_exec_rec_t *rec, const fz_origin_t *o,
                                    const char *doing);

/* A run that lost the target while something it found is still to be
 * saved (a crash being minimized: the minimizer's runs and the rechecks):
 * the death waits here until that is saved, then fz_run_end ends the run. */
typedef struct fz_run_death {
    const uint8_t *buf; /* the input of the run that lost the target; NULL: none */
    uint32_t len;
    int sig; /* the signal that killed the forkserver, 0 if none */
} fz_run_death_t;

/* fz_run_again whose FZ_RUN_ERROR is kept in *death (once: the first
 * counts) instead of ending the run. */
fz_run_result_t fz_run_again_deferred(struct fz_state *st, const uint8_t *buf, uint32_t len,
                                      fz_exec_rec_t *rec, fz_run_death_t *death);

/* Ends the run for a deferred death: fz_run_broke(death's input, its
 * signal, o, doing). */
__attribute__((noreturn)) void fz_run_end(struct fz_state *st, const fz_run_death_t *death,
                                          const fz_origin_t *o, const char *doing);

/* The run of buf lost the target (FZ_RUN_ERROR; sig: its record's
 * signal, the one that killed the forkserver, 0 if none) while fz-fuzz was
 * doing what doing names.  With o, buf is saved in crashes/ when its run
 * killed the forkserver; without o, buf is kept already (a seed, a queue
 * entry, a saved crash) and the message says so.  Ends the run (fz_die:
 * exit 3 when a crash is saved). */
__attribute__((noreturn)) void fz_run_broke(struct fz_state *st, const uint8_t *buf, uint32_t len,
                                            int sig, const fz_origin_t *o, const char *doing);

/* The rule for an input that is saved already, on any execution module
 * (--replay has its own): runs it; when it made the target kill its
 * forkserver, a new one is started (fz_die when that fails) and
 * FZ_RUN_ERROR comes back with rec->signal set.  FZ_RUN_ERROR with
 * rec->signal 0: the forkserver was lost otherwise, and the caller ends
 * the run naming the input. */
fz_run_result_t fz_run_kept(fz_exec_t *x, const uint8_t *buf, uint32_t len, uint32_t timeout_ms,
                            fz_exec_rec_t *rec);

#endif
