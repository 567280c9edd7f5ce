/*
 * calibrate.h - running an input several times to learn its speed, its
 * coverage and whether that coverage is stable, for every seed and every
 * new queue entry; and choosing the default timeout from the seeds.
 */
#ifndef FZ_FUZZ_CALIBRATE_H
#define FZ_FUZZ_CALIBRATE_H

#include <stdint.h>

#include "core/exec.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/outdir.h"

struct fz_state;

/* Runs per calibration.  AFL uses 8; 4 already catches most variable edges
 * (a slot that changes at all usually changes within a few runs) at half
 * the cost per new entry, which matters on short -E budgets. */
#define FZ_CALIB_RUNS 4

/* Bounds of the timeout chosen from calibration (5x the slowest seed,
 * rounded up to FZ_TIMEOUT_ROUND_MS).  Floor: AFL++'s, 20 ms, so that an
 * input that makes the program crawl (a png decoder's 40 ms image) times
 * out instead of joining the queue, where every mutant of it would cost as
 * much -- on libpng those entries took fz-fuzz to 0.85x AFL++'s runs per
 * second.  A campaign bounded by runs (-E) keeps 100 ms instead: there the
 * number of runs is the budget, not time, and a busy machine (a CI runner,
 * tests sharing two cores) must not turn an ordinary run into a false hang,
 * which would change the queue of a -s run.  Cap: real hangs cost too much
 * time each above 1000 ms (AFL++'s default cap too). */
#define FZ_TIMEOUT_MIN_MS 20
#define FZ_TIMEOUT_MIN_RUNS_MS 100
#define FZ_TIMEOUT_MAX_MS 1000
#define FZ_TIMEOUT_ROUND_MS 20

/* The timeout seeds are calibrated with when -t is not given. */
#define FZ_TIMEOUT_CALIB_MS 1000

typedef struct fz_calib {
    fz_run_result_t result; /* of the first run; OK when every run exited normally */
    int signal;             /* the crash signal, if result is FZ_RUN_CRASH */
    uint64_t exec_us;       /* mean run time */
    uint64_t max_us;        /* slowest run */
    uint32_t n_edges;       /* slots hit by the first run, listed in st->calib.edges */
    uint64_t work;          /* edges the first run executed (fz_calib_work) */
    int variable;           /* some slot changed between runs */
} fz_calib_t;

/* Run buf FZ_CALIB_RUNS times (once if the first run crashes or hangs,
 * fewer on a stop signal or when -V is up).  Leaves the first run's
 * classified map in st->calib.first and its slot list in st->calib.edges,
 * and marks changing slots in st->calib.var_map.  Every run goes through
 * fz_run_again (run-again.h) with o and doing ("calibration"): o is where a new
 * find came from, and a run of it that loses the target ends the campaign
 * with buf saved as a crash.  NULL for a seed (or a resumed queue entry),
 * which is kept already: a run of it that made the target kill its
 * forkserver gives result FZ_RUN_ERROR, with that signal, and a new
 * forkserver. */
void fz_calibrate(struct fz_state *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o,
                  const char *doing, fz_calib_t *out);

/* What fz_calibrate gives, from the record of the one run that found an
 * input (rec: a normal exit, its map still valid) instead of more runs:
 * for a find made once -V is up or a stop signal came, so that no run
 * starts after that; its slots count as stable. */
void fz_calibrate_record(struct fz_state *st, const fz_exec_rec_t *rec, fz_calib_t *out);

/* Roughly how many edges a run executed: each slot's bucket floor summed
 * over a classified map.  A clock-free stand-in for the run time. */
uint64_t fz_calib_work(const uint8_t *map, uint32_t size);

/* Calibrate every seed, add the good ones to the queue (in memory only),
 * report seeds that crash (skipped) and die on one that hangs or when none
 * is usable; then set the default timeout from the slowest seed.  Returns
 * 0, or -1 when a stop signal arrived first.  Nothing is written to the
 * output directory, so a seed error leaves no half-started campaign that
 * a rerun with the same -o would have to resume. */
int fz_calibrate_seeds(struct fz_state *st, const fz_files_t *seeds);

/* Save the calibrated seeds into queue/ (not when resuming: they are
 * already there).  Called once fz_calibrate_seeds has succeeded.  All or
 * nothing: when a write fails (a full disk) the seeds written so far are
 * removed again, so no campaign with part of the seeds is left for a
 * resume to continue without the rest.  Returns 0 or -errno. */
int fz_calibrate_save_seeds(struct fz_state *st);

/* Removes the seeds' queue files (rolling back a start that failed after
 * fz_calibrate_save_seeds). */
void fz_calibrate_unsave_seeds(struct fz_state *st);

#endif
