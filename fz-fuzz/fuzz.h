/*
 * fuzz.h - the fuzz loop: pick an entry, run its stages (a table), judge
 * each candidate through one shared helper, save what is interesting.
 */
#ifndef FZ_FUZZ_FUZZ_H
#define FZ_FUZZ_FUZZ_H

#include <stdint.h>

#include "fz-fuzz/names.h"
#include "fz-fuzz/state.h"

/* Havoc candidates per turn: fz_queue_energy (queue.h), the power
 * schedule, from FZ_ENERGY_BASE = 256. */

/* The maximum input length without -l: the largest seed, but at least this
 * (libFuzzer's rule; 4 KiB leaves room for a chunk or two beyond a small
 * seed).  It grows by half, up to FZ_MAX_INPUT, each time this many runs
 * pass without a find: a target that needs longer inputs gets them once
 * short ones are exhausted, and one that does not is never fed megabytes
 * (on zlib's inflate, unbounded growth made 1 MB entries and 10x fewer
 * execs/s). */
#define FZ_MAXLEN_MIN 4096
#define FZ_MAXLEN_STALL_EXECS 100000

/* Deterministic stages by default (without -D / -d): see docs/options.md
 * for the measurement behind the choice. */
#define FZ_DET_DEFAULT 1

/* Bytes the deterministic stages walk on an entry's first turn (up to 12
 * runs each): headers, commands and length fields live at the front, and
 * 64 bytes cost at most 768 runs, a few havoc turns' worth. */
#define FZ_DET_MAX_BYTES 64

/* Entries up to this many bytes also get every byte value at every
 * position on their first turn (at most ~1000 runs at 4 bytes). */
#define FZ_SWEEP_MAX_BYTES 4

/* Most runs spent trimming one queue entry on its first turn, keeping all
 * its coverage (AFL's trimming takes a few dozen; blocks of len/2 .. 1 then
 * byte simplification fit in this on small inputs, and larger ones stop
 * early rather than stall the loop). */
#define FZ_TRIM_MAX_EXECS 256

/* Entries shorter than this are not trimmed: a run on a few dozen bytes
 * costs about what a run on none does, and on short inputs every byte is
 * likely structure (a version or length field that is wrong today) that a
 * later mutation builds on; trimming the demo's 8-byte seed "FZ\1\3Pabc"
 * to "FZabc" (same coverage) made its bug four times harder to find. */
#define FZ_TRIM_MIN_BYTES 64

/* The same floor for entries fz-fuzz found itself (not seeds).  Havoc
 * grows inputs with bytes that do nothing ("LLLL...Lo" where only "L.." is
 * read), and until such an entry is cut back to what it needs, the
 * per-byte sweep (FZ_SWEEP_MAX_BYTES) never reaches it and havoc must hit
 * one position of dozens: a 3-byte "LF!" chain went unfound in 300,000
 * runs.  Just above the sweep's size, so every found entry is either swept
 * or trimmed. */
#define FZ_TRIM_MIN_FOUND_BYTES (FZ_SWEEP_MAX_BYTES + 1)

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
