/*
 * replay.h - fz-fuzz --replay DIR: run every file in DIR once, as a CI
 * regression check (like `go test` running testdata/), and say which crash
 * or hang.
 */
#ifndef FZ_FUZZ_REPLAY_H
#define FZ_FUZZ_REPLAY_H

#include "core/exec.h"
#include "fz-fuzz/options.h"

/* Returns the exit status: FZ_EXIT_CRASH if any file crashes, else
 * FZ_EXIT_HANG if any hangs, else FZ_EXIT_OK.  Dies on set-up errors. */
int fz_replay(const fz_cfg_t *cfg, const fz_fsrv_cfg_t *fcfg);

#endif
