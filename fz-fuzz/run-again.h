/*
 * run-again.h - every run fz-fuzz makes of an input it holds already
 * (trimming, crash minimization's rechecks, calibration, a hang's
 * confirmation, the seeds, re-running saved crashes on resume, --replay),
 * the stop test and the name of a find: the part of running the target
 * that judges nothing, below run.h (which runs candidates and judges them)
 * so calibrate.c and triage.c use it without calling back up into run.c.
 * Every run that ends in FZ_RUN_ERROR, wherever it was made, ends in
 * fz_run_broke or, for an input that is saved already, in a new
 * forkserver: no module decides that by itself, so no found crash or queue
 * entry is lost to it.
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
#ifndef FZ_FUZZ_RUN_AGAIN_H
#define FZ_FUZZ_RUN_AGAIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "fz-fuzz/names.h"

struct fz_state;

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
