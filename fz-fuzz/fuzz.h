/*
 * fuzz.h - the fuzz loop: pick an entry, run its stages (a table), judge
 * each candidate through one shared helper, save what is interesting.
 */
#ifndef FZ_FUZZ_FUZZ_H
#define FZ_FUZZ_FUZZ_H

#include <stdint.h>

#include "fz-fuzz/names.h"
#include "fz-fuzz/state.h"

/* Candidates per turn of an entry.  AFL's havoc does 256 x a performance
 * factor; a fixed 256 (doubled for an entry's first turn, when it is most
 * likely to lead somewhere new) keeps turns short so the whole queue gets
 * round-robin attention, and keeps the schedule free of timing. */
#define FZ_HAVOC_ROUNDS 256

/* Bytes the deterministic stages walk on an entry's first turn (up to 12
 * runs each): headers, commands and length fields live at the front, and
 * 64 bytes cost at most 768 runs, a few havoc turns' worth. */
#define FZ_DET_MAX_BYTES 64

/* Entries up to this many bytes also get every byte value at every
 * position on their first turn (at most ~1000 runs at 4 bytes). */
#define FZ_SWEEP_MAX_BYTES 4

/* Most runs spent minimizing one new queue entry (AFL's trimming takes a
 * few dozen; blocks of len/2 .. 1 then byte simplification fit in this on
 * small inputs, and larger ones stop early rather than stall the loop). */
#define FZ_ENTRY_MIN_EXECS 256

/* Run buf once, judge the record and save what is new: crash/hang via
 * triage, new coverage into the queue (minimized unless it is a peer's,
 * calibrated).  o says where buf came from (stage, parent, peer) for the
 * file name and the entry's depth.  Returns 1 if the queue grew. */
int fz_fuzz_run_one(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o);

/* The file name of a find (queue entry, crash or hang; sig > 0 for a
 * crash) from its origin (o->src a queue id), with the time and exec count
 * of now: fz_name_find in the running campaign. */
int fz_fuzz_name(const fz_state_t *st, char *buf, size_t n, uint32_t id, int sig,
                 const fz_origin_t *o, int new_edge);

/* Non-zero with --until-crash once this run saved a crash. */
int fz_fuzz_found_crash(const fz_state_t *st);

/* Non-zero when the run must end: signal, -E or -V reached, or the first
 * crash with --until-crash. */
int fz_fuzz_should_stop(fz_state_t *st);

/* The minimizer's poll (fz_min_cfg_t.poll, ctx = the state): ticks the
 * status screen and asks to stop on a signal or when -V is up. */
int fz_fuzz_min_poll(void *ctx);

/* The main loop; returns when fz_fuzz_should_stop says so. */
void fz_fuzz_loop(fz_state_t *st);

#endif
