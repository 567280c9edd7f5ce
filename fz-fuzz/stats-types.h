/*
 * stats-types.h - the campaign's counters (stats.h), apart from the
 * functions that take the state, so state.h can hold them without
 * importing stats.
 */
#ifndef FZ_FUZZ_STATS_TYPES_H
#define FZ_FUZZ_STATS_TYPES_H

#include <stdint.h>

#include "fz-clock.h"

/* Ring size of the execs-per-second samples: at most one per second, so
 * 64 always reach back past the minute execs_ps_last_min averages over. */
#define FZ_STATS_RATE_SLOTS 64
#define FZ_STATS_RATE_WINDOW_MS 60000

/* Counters fz-fuzz keeps while it runs (times in ms since the epoch). */
typedef struct fz_stats {
    uint64_t start_ms;
    uint64_t last_find_ms, last_crash_ms, last_hang_ms; /* 0 = never */
    uint64_t last_edge_ms; /* last own find that reached an edge never seen (not
                              only a new count); 0 = never */
    uint64_t execs_at_last_crash;
    uint64_t calib_execs;      /* runs spent calibrating */
    uint64_t min_execs;        /* runs spent trimming queue entries and minimizing crashes */
    uint64_t det_execs;        /* runs spent in the deterministic stages */
    uint64_t saved_crashes;    /* unique crashes saved in crashes/ */
    uint64_t crashes_at_start; /* saved_crashes after the seeds (resumed ones included) */
    uint64_t saved_hangs;      /* unique hangs saved in hangs/ */
    uint64_t total_crashes;    /* every crashing run */
    uint64_t total_hangs;      /* every run that timed out */
    uint64_t slow_inputs;      /* timed out, then finished within the hang timeout */
    uint32_t corpus_found;     /* entries found by fuzzing (not seeds) */
    uint32_t corpus_imported;  /* entries imported from other instances (sync.c) */
    uint64_t slowest_exec_us;  /* slowest run that did not time out */
    uint32_t var_bytes;        /* map slots calibration saw change between runs */
    uint64_t cycles_wo_finds;  /* queue cycles completed without a new entry */
    uint64_t last_cycle;       /* queue cycle count when this was last updated */
    uint32_t found_at_cycle;   /* corpus_found when the cycle started */
    uint64_t last_plot_ms;     /* when plot_data last got a line */
    uint64_t last_stats_ms;    /* when fuzzer_stats was last written */
    uint64_t crashes_written;  /* saved_crashes in the last fuzzer_stats written: a new
                                  crash is written at once (status.c) */
    uint64_t plot_last_time;   /* relative_time of plot_data's last line (never goes back) */
    uint64_t flaky_crashes;    /* unique crashes that did not crash again when
                                  minimized: saved as found, unminimized */
    /* Samples of (time, session execs), one per second at most (status.c),
     * for execs_ps_last_min: FZ_STATS_RATE_SLOTS cover more than a minute. */
    uint64_t rate_ms[FZ_STATS_RATE_SLOTS], rate_execs[FZ_STATS_RATE_SLOTS];
    uint32_t rate_head, rate_n;
    /* Totals of the campaign this run resumed (resume.c), 0 otherwise:
     * added to this session's for execs_done, run_time, cycles_done,
     * total_crashes, total_hangs and flaky_crashes. */
    uint64_t prev_execs, prev_run_time, prev_cycles, prev_total_crashes, prev_total_hangs;
    uint64_t prev_flaky_crashes, prev_flaky_sites;
    char *plot;                /* plot_data so far (rewritten whole, atomically) */
    size_t plot_len, plot_cap;
} fz_stats_t;

#endif
