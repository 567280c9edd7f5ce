/*
 * triage.h - crashes and hangs.  Each has its own virgin map: a crash (or
 * hang) is unique, and saved, when its coverage reaches a bucket no earlier
 * crash (hang) reached, as AFL does.  In blind mode (-n, no coverage) the
 * first crash per signal and the first hang are saved.  Crashes are
 * minimized first, keeping the same signal.  A new hang is run once more
 * with FZ_HANG_CONFIRM_MS (or FZ_HANG_TMOUT) before it is saved: one that
 * then finishes was only slow; one that then crashes is a crash.
 */
#ifndef FZ_FUZZ_TRIAGE_H
#define FZ_FUZZ_TRIAGE_H

#include <stdint.h>

#include "fz-fuzz/names.h"
#include "fz-fuzz/state.h"

/* Most runs spent minimizing one crash; crashes are rare, so this can be
 * generous next to a new queue entry's budget. */
#define FZ_CRASH_MIN_EXECS 2000

/* The timeout of the confirming run (AFL++'s default hang timeout), unless
 * the per-run timeout is already longer. */
#define FZ_HANG_CONFIRM_MS 1000

/* Judge the record of the run that just happened on input buf (its
 * new_bits against the crash / hang virgin map) and save the input if it
 * is unique.  o names where it came from.  Returns 1 if a file was
 * saved. */
int fz_triage_crash(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                    const fz_origin_t *o);
int fz_triage_hang(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                   const fz_origin_t *o);

#endif
