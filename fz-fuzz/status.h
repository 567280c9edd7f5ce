/*
 * status.h - what the user sees while fz-fuzz runs: a live screen when
 * stdout is a terminal, or one log line every FZ_STATUS_LOG_MS otherwise
 * (and with -q).  Also the periodic fuzzer_stats / plot_data writes and the
 * -V clock, because they share the one place that reads the clock.
 */
#ifndef FZ_FUZZ_STATUS_H
#define FZ_FUZZ_STATUS_H

#include "fz-fuzz/state.h"

/* The clock is read once per this many runs: at thousands of runs per
 * second that is still many checks per second, and it keeps the per-run
 * cost to one compare. */
#define FZ_STATUS_CHECK_EXECS 64

#define FZ_STATUS_DRAW_MS 250   /* screen refresh: 4 per second */
#define FZ_STATUS_LOG_MS 5000   /* one log line per 5 s without a screen */
#define FZ_STATUS_STATS_MS 2000 /* fuzzer_stats rewrite */
#define FZ_STATUS_PLOT_MS 5000  /* plot_data line (AFL++ also uses 5 s) */

/* Set up the screen (or not) for this run. */
void fz_status_init(fz_state_t *st);

/* Called after every run; cheap unless FZ_STATUS_CHECK_EXECS runs passed. */
void fz_status_tick(fz_state_t *st);

/* Draw or log now, write the stats files, restore the terminal.  why says
 * why the run ended ("done", "interrupted", ...). */
void fz_status_final(fz_state_t *st, const char *why);

/* A one-line log message that does not fight the live screen. */
void fz_status_line(fz_state_t *st);

#endif
