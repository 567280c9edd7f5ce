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

#include "fz-fuzz/state.h"

/* Most runs spent minimizing one crash; crashes are rare, so this can be
 * generous next to a new queue entry's budget. */
#define FZ_CRASH_MIN_EXECS 2000

/* The timeout of the confirming run (AFL++'s default hang timeout), unless
 * the per-run timeout is already longer. */
#define FZ_HANG_CONFIRM_MS 1000

/* Judge the run that just happened (st->exec.fs holds its raw map and
 * signal) on input buf; save it if unique.  src/op name where it came
 * from.  Returns 1 if a file was saved. */
int fz_triage_crash(fz_state_t *st, const uint8_t *buf, uint32_t len, uint32_t src, const char *op);
int fz_triage_hang(fz_state_t *st, const uint8_t *buf, uint32_t len, uint32_t src, const char *op);

#endif
