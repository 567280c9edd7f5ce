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
 * The re-runs and the rule for a lost forkserver are run-again.h's
 * (below this module, so what run.c calls can use them).
 */
#ifndef FZ_FUZZ_RUN_H
#define FZ_FUZZ_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "fz-fuzz/i2s.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/run-again.h"

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

/* The same, with the comparison log on for exactly this run when log is
 * set (not for the minimization and calibration of what it finds), so it
 * still holds this run afterwards (fz-fuzz/i2s.c reads it).  With way
 * set, *way gets the way the run went (i2s.h). */
int fz_run_traced(struct fz_state *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o,
                  int log, fz_run_way_t *way);

/* A candidate for the batched stages (the target runs it now, or later
 * in a batch; fz_run_flush runs what waits, judged as fz_run_one would),
 * and a request for the harness's own mutator (lfmut.h), always batched. */
void fz_run_push(struct fz_state *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o);
void fz_run_push_request(struct fz_state *st, const uint8_t *req, uint32_t len,
                         const fz_origin_t *o);
void fz_run_flush(struct fz_state *st);

/* Fills *t, triage's narrow context (triage.h), from the state. */
void fz_run_triage(struct fz_state *st, struct fz_triage *t);

#endif
