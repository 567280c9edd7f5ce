/*
 * stats.h - the campaign's counters and the two files monitoring tools read:
 * fuzzer_stats (AFL++ 4.04c's "key : value" lines, so afl-whatsup reads it)
 * and plot_data (AFL++'s columns and header, so afl-plot draws it).
 */
#ifndef FZ_FUZZ_STATS_H
#define FZ_FUZZ_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "fz-clock.h"
#include "fz-fuzz/stats-types.h"

/* Every value fuzzer_stats and plot_data show, gathered in one place so the
 * formatting can be tested without a running campaign. */
typedef struct fz_stats_report {
    uint64_t start_time, last_update, run_time; /* seconds */
    int fuzzer_pid;
    uint64_t cycles_done, cycles_wo_finds, execs_done;
    double execs_per_sec, execs_ps_last_min;
    uint32_t corpus_count, corpus_favored, corpus_found, corpus_imported, corpus_variable;
    uint32_t max_depth, cur_item, pending_favs, pending_total;
    double stability, bitmap_cvg; /* percent */
    uint64_t saved_crashes, saved_hangs;
    uint64_t last_find, last_crash, last_hang; /* seconds since the epoch, 0 = never */
    uint64_t execs_since_crash;
    uint32_t exec_timeout, slowest_exec_ms;
    unsigned long peak_rss_mb;
    int cpu_affinity; /* the CPU fz-fuzz and the target are bound to, -1 none */
    uint32_t edges_found, total_edges, var_byte_count;
    uint32_t havoc_expansion;   /* 0: fz's havoc never grows its stack (AFL++'s expand_havoc) */
    uint32_t auto_dict_entries; /* tokens collected from the target's comparisons (i2s.h) */
    uint64_t testcache_size;    /* bytes of queue inputs held in memory (fz keeps them all) */
    uint32_t testcache_count, testcache_evict;
    const char *afl_banner, *target_mode, *command_line;
    const char *fsrv_protocol; /* fz extra: "v1 direct", "v1", "legacy" or "blind" */
    /* fz extras (afl-whatsup ignores unknown keys). */
    double execs_per_fork;
    double execs_per_request; /* runs per request to the target: above 1 with batches */
    uint64_t calibration_execs, minimization_execs, total_crashes, total_hangs;
    uint64_t slow_inputs; /* timeouts a confirming run saw finish (this session) */
    uint64_t flaky_crashes; /* saved unminimized: they did not crash again at once
                               (the whole campaign's, across resumes) */
    uint32_t unique_crash_sites; /* distinct crash sites seen (sites.h), resumed ones too */
    uint64_t flaky_crash_sites;  /* crashes whose site moved when rerun (campaign total) */
    uint64_t seed;
    uint64_t sync_execs;         /* target runs spent on other instances' files (sync.c) */
    const char *target_warnings; /* diag.h's short form; "" or NULL: "none" */
    const char *cmplog;          /* comparison feedback: "on" or "off (why)" (i2s.h) */
    uint64_t cmplog_execs;       /* target runs of the input-to-state stage */
    uint64_t cmplog_finds;       /* queue entries and crashes those runs found */
    uint64_t colour_execs;       /* of cmplog_execs: the colour sweep's runs */
    uint64_t colour_finds;       /* of cmplog_finds: the colour sweep's */
    int modules_known;           /* the runtime reported its modules (an fz-cc target) */
    uint32_t instrumented_mods;  /* loaded objects with fz instrumentation (diag.h) */
    uint32_t uninstr_libs;       /* the program's shared libraries without it */
} fz_stats_report_t;

/* The header line of plot_data, as AFL++ 4.04c writes it. */
#define FZ_PLOT_HEADER                                                                             \
    "# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, "          \
    "map_size, saved_crashes, saved_hangs, max_depth, execs_per_sec, total_execs, edges_found\n"

/* FZ_VERSION, which afl_version shows. */
#include "fz-version.h"

/* Format fuzzer_stats / one plot_data line into buf; return snprintf's value. */
int fz_stats_format(char *buf, size_t n, const fz_stats_report_t *r);
int fz_stats_plot_line(char *buf, size_t n, const fz_stats_report_t *r);

/* fuzzer_stats text as one JSON object, the same keys in the same order
 * with the same values: numbers as JSON numbers, the rest (percentages,
 * names, the command line) as strings.  Returns the length written to buf
 * (NUL-terminated), -1 if it does not fit.  fz_stats_write writes it as
 * fuzzer_stats.json beside fuzzer_stats, each atomically. */
int fz_stats_json(const char *stats, char *buf, size_t n);

struct fz_state;

/* Gather r from the running campaign. */
void fz_stats_collect(const struct fz_state *st, fz_stats_report_t *r);

/* Write fuzzer_stats now; append a line to plot_data now.  Both die with
 * the reason (e.g. a full disk) when the write fails. */
void fz_stats_write(struct fz_state *st);
void fz_stats_plot(struct fz_state *st);

/* The same without dying (for the exit paths of a run that is ending on an
 * error anyway); fuzzer_stats uses the output directory's spare on a full
 * disk.  Return 0 or -errno. */
int fz_stats_try_write(struct fz_state *st);
int fz_stats_try_plot(struct fz_state *st);

/* Load an earlier plot_data when resuming, so the history is kept; its last
 * relative_time, when later than fuzzer_stats' run_time (a kill between
 * the two writes), becomes the run time carried over, so relative_time
 * never goes back. */
void fz_stats_plot_resume(struct fz_state *st);

void fz_stats_free(fz_stats_t *s);

/* Record that `execs` runs had been done this session at time now_ms (at
 * most one sample per second is useful); and the run rate over the last
 * FZ_STATS_RATE_WINDOW_MS: from the oldest sample inside that window (or
 * the session start, execs 0, when there is none) to now. */
void fz_stats_rate_sample(fz_stats_t *s, uint64_t now_ms, uint64_t execs);
double fz_stats_rate_last_min(const fz_stats_t *s, uint64_t now_ms, uint64_t execs);

#endif
