/*
 * run.h - what a run that lost the target means.  The loop's candidates
 * are judged in fuzz.c (judge); every other run fz-fuzz makes of an input
 * it holds (trimming, crash minimization and rechecks, calibration, a
 * hang's confirmation, re-running saved crashes on resume) goes through
 * fz_run_again, and every run that ends in FZ_RUN_ERROR, wherever it was
 * made, ends in fz_run_broke.  That is the one place that decides what the
 * forkserver's death means, so no found crash or queue entry is lost to it.
 *
 * The rule (AFL++'s: a campaign whose forkserver is gone ends): when the
 * forkserver was killed while it ran an input, the input made the target
 * kill it (kill(getppid()), kill(0), killpg), which is a crash of the
 * target like any other: it is saved in crashes/ as sig:NN (as a fork-mode
 * target's own death would be), counted, and the campaign ends with exit
 * status 3.  What was saved before stays; resume with -i -.
 */
#ifndef FZ_FUZZ_RUN_H
#define FZ_FUZZ_RUN_H

#include <stdint.h>

#include "fz-fuzz/names.h"
#include "fz-fuzz/state.h"

/* Runs buf once more (timeout_ms 0: the timeout in force) and returns the
 * result, as fz_exec_run does; never returns FZ_RUN_ERROR: a run that
 * lost the target goes to fz_run_broke with o and doing. */
fz_run_result_t fz_run_again(fz_state_t *st, const uint8_t *buf, uint32_t len, uint32_t timeout_ms,
                             fz_exec_rec_t *rec, const fz_origin_t *o, const char *doing);

/* fz_run_again for a hang's confirmation (timeout_ms, a long one): -V
 * and a stop signal cut it short within a moment; then rec->cut is set
 * and the result is FZ_RUN_HANG. */
fz_run_result_t fz_run_again_polled(fz_state_t *st, const uint8_t *buf, uint32_t len,
                                    uint32_t timeout_ms, fz_exec_rec_t *rec, const fz_origin_t *o,
                                    const char *doing);

/* The run of buf lost the target (FZ_RUN_ERROR; sig: its record's
 * signal, the one that killed the forkserver, 0 if none) while fz-fuzz was
 * doing what doing names (a noun: "trimming", "crash minimization").
 * With o, buf is saved in crashes/ when its run killed the forkserver; without o, buf is kept
 * already (a seed, a queue entry, a saved crash) and the message says so.  Ends the run (fz_die:
 * exit 3 when a crash is saved). */
__attribute__((noreturn)) void fz_run_broke(fz_state_t *st, const uint8_t *buf, uint32_t len,
                                            int sig, const fz_origin_t *o, const char *doing);

#endif
