/*
 * status.h - what the user sees while fz-fuzz runs: a live screen when
 * stdout is a terminal, or one log line every FZ_STATUS_LOG_MS otherwise
 * (and with -q).  Also the periodic fuzzer_stats / plot_data writes and the
 * -V clock, because they share the one place that reads the clock.
 */
#ifndef FZ_FUZZ_STATUS_H
#define FZ_FUZZ_STATUS_H

#include <stdint.h>

struct fz_state;

/* The clock is read about every FZ_STATUS_CHECK_MS: the number of runs
 * until the next reading is re-estimated from the speed at each reading
 * (fz_status_interval), so a fast target pays one compare per run and a
 * slow one is still looked at several times a second.  A run that alone
 * took FZ_STATUS_SLOW_RUN_US or more triggers a reading at once, so a
 * target that turns slow (deep inputs, minimization of a slow crash) does
 * not freeze the screen or overshoot -V by a whole interval. */
#define FZ_STATUS_CHECK_MS 50
#define FZ_STATUS_CHECK_EXECS_MAX 4096
#define FZ_STATUS_SLOW_RUN_US 20000

#define FZ_STATUS_DRAW_MS 250   /* screen refresh: 4 per second */
#define FZ_STATUS_LOG_MS 5000   /* one log line per 5 s without a screen */
#define FZ_STATUS_STATS_MS 2000 /* fuzzer_stats rewrite */
#define FZ_STATUS_PLOT_MS 5000  /* plot_data line (AFL++ also uses 5 s) */

/* 1 if a terminal of this TERM can show the live screen: set, not "dumb",
 * and known to the terminfo database.  Otherwise fz-fuzz prints its plain
 * log lines, with no escape codes, even on a terminal. */
int fz_status_term_ok(const char *term);

/* Set up the screen (or not) for this run. */
void fz_status_init(struct fz_state *st);

/* Called after every run (fuzzing, calibration, minimization); cheap
 * unless the interval ran out or the run was slow.  Before
 * st->ui.files_ready it only draws: the seeds are still being checked and
 * nothing may be written to the output directory yet. */
void fz_status_tick(struct fz_state *st);

/* Runs until the next clock reading, given that the last `execs` runs took
 * `ms` milliseconds: about FZ_STATUS_CHECK_MS worth, at least 1 and at most
 * FZ_STATUS_CHECK_EXECS_MAX. */
uint64_t fz_status_interval(uint64_t execs, uint64_t ms);

/* Draw or log now, write the stats files, restore the terminal.  why says
 * why the run ended ("done", "interrupted", ...). */
void fz_status_final(struct fz_state *st, const char *why);

/* Give the terminal back (cursor shown) when the run ends without
 * fz_status_final; nothing more is drawn afterwards. */
void fz_status_restore(struct fz_state *st);

/* A one-line log message that does not fight the live screen. */
void fz_status_line(struct fz_state *st);

#endif
