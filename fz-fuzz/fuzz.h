/*
 * fuzz.h - the fuzz loop: pick an entry, run its stages (a table); each
 * candidate goes to run.h's fz_run_push / fz_run_one, which run, judge and
 * save it.
 */
#ifndef FZ_FUZZ_FUZZ_H
#define FZ_FUZZ_FUZZ_H

#include <stdint.h>

struct fz_state;

/* Havoc candidates per turn: fz_queue_energy (queue.h), the power
 * schedule, from FZ_ENERGY_BASE = 256. */

/* Without -D / -d the deterministic stages run on an entry's first turn
 * only while they have used at most 1/FZ_DET_SHARE of all runs so far (the
 * first FZ_DET_FREE_EXECS are free).  On small targets with magic bytes
 * (the demo, the sanitizer tests) they find in a few hundred runs what
 * havoc needs thousands for; on zlib and expat, where every entry's first
 * turn would spend up to 768 runs on them, a run without them reached more
 * edges in 90 s (docs/options.md has the numbers).  A count, not a time:
 * -s reproduces it. */
#define FZ_DET_SHARE 10
#define FZ_DET_FREE_EXECS 20000

/* The input-to-state stage (i2s.h) spends up to FZ_I2S_MAX_EXECS logging
 * runs on an entry while it has used at most 1/FZ_I2S_SHARE of all runs
 * (the first FZ_I2S_FREE_EXECS are free), else FZ_I2S_LEAN_EXECS: its
 * best-ranked comparisons (input-driven first).  Every candidate of the
 * stage is a logging run, which on a large program costs 2-3 plain runs
 * (a page fault per comparison site hit, and the hooks); on sqlite (35k
 * edges, ~250 runs/s on a loaded machine) the full budget took 52% of
 * the first minute's runs and three quarters of its time, on 4 entries of
 * 244.  Fast targets rarely reach the cap: havoc's runs outnumber it. */
#define FZ_I2S_SHARE 3
#define FZ_I2S_FREE_EXECS 4096
#define FZ_I2S_LEAN_EXECS 256

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

/* Seeds shorter than this are not trimmed: a short seed's bytes are likely
 * structure the user put there (a version or length field that is wrong
 * today) that a later mutation builds on; trimming the demo's 8-byte seed
 * "FZ\1\3Pabc" to "FZabc" (same coverage) made its bug twice as hard to
 * find.  Found entries are trimmed at any length: a find shrunk to a few
 * bytes gets the byte sweep, which finds the sanitizer test's "AS" in ~2800
 * runs where havoc alone needs 2-4 times that. */
#define FZ_TRIM_MIN_BYTES 64

/* The main loop; returns when fz_run_should_stop (run-again.h) says so. */
void fz_fuzz_loop(struct fz_state *st);

#endif
