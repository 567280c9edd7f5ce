/*
 * state.h - the whole state of one fz-fuzz campaign, grouped by who owns
 * it (docs/internals.md lists every member): cfg (options.c, read-only
 * after parsing), out (outdir.c), exec (the target, its virgin maps and
 * timeout: core/exec.h), calib (calibrate.c's working maps), len
 * (maxlen.c), batch (run.c), queue (queue.c), stats (stats.c), ui
 * (status.c), sync (sync.c), and so on.  main.c owns the one instance and
 * passes it explicitly; there are no file-level globals.  Module headers
 * do not include this file (they forward-declare struct fz_state), and
 * modules that need only part of it take a narrow context (triage.h,
 * i2s.h).
 */
#ifndef FZ_FUZZ_STATE_H
#define FZ_FUZZ_STATE_H

#include <signal.h>
#include <stdint.h>

#include "fz-fuzz/diag.h"
#include "fz-fuzz/i2s.h"
#include "fz-fuzz/jobs.h"
#include "fz-fuzz/maxlen.h"
#include "core/exec.h"
#include "fz-fuzz/options.h"
#include "fz-fuzz/outdir.h"
#include "fz-fuzz/queue.h"
#include "fz-fuzz/sites.h"
#include "fz-fuzz/stats.h"
#include "fz-fuzz/sync.h"
#include "mutators/dict.h"
#include "mutators/rng.h"

/* Calibration's working maps (calibrate.c), map_size each. */
typedef struct fz_calib_maps {
    uint8_t *first;  /* the first calibration run's classified map */
    uint8_t *var_map; /* slots that changed between calibration runs */
    uint32_t *edges; /* the calibrated input's slot list */
} fz_calib_maps_t;

/* The live screen / periodic log line. */
typedef struct fz_ui {
    int tty;             /* stdout is a terminal and -q was not given */
    int files_ready;     /* the campaign's files may be written (after the seeds) */
    uint64_t next_check; /* execs count at which to look at the clock again */
    uint64_t last_check_execs, last_check_ms; /* the last clock reading */
    uint64_t last_draw_ms;
    uint64_t last_log_ms;
    uint64_t last_execs; /* for the recent execs/s */
    uint64_t last_rate_ms;
    double recent_eps;
    int time_up; /* -V seconds have passed */
} fz_ui_t;

/* Candidates waiting in the exec batch (run.c; core/exec.h, "Batches"). */
typedef struct fz_batch_ctl {
    struct fz_origin *origin; /* FZ_BATCH_MAX: where each queued candidate came from */
    uint32_t size;       /* run the batch when it holds this many */
} fz_batch_ctl_t;

typedef struct fz_state {
    fz_cfg_t cfg;
    fz_outdir_t out;
    fz_exec_t exec;
    fz_calib_maps_t calib;
    fz_len_ctl_t len;  /* the maximum input length (maxlen.h) */
    uint8_t *min_buf; /* FZ_MAX_INPUT bytes: the minimizer's output */
    fz_batch_ctl_t batch;
    fz_queue_t queue;
    fz_stats_t stats;
    fz_ui_t ui;
    fz_sync_t sync;
    fz_jobs_link_t jobs; /* -j: this instance's link to its campaign (jobs.c) */
    fz_diag_seen_t diag; /* target warnings given so far (diag.c) */
    fz_sites_t sites;    /* crash sites seen (triage.c, resume.c) */
    fz_rng_t rng;
    fz_dict_t dict;              /* -x tokens */
    fz_i2s_t i2s;                /* comparison feedback (i2s.c) */
    struct fz_custom *custom;    /* AFL++ custom mutator libraries, NULL: none (custom.c) */
    struct fz_lfmut *lfmut;      /* the harness's own libFuzzer mutator, NULL: none (lfmut.c) */
    uint32_t cur_entry;          /* id of the entry being fuzzed */
    uint32_t next_queue_id;      /* id:N of the next file in queue/ */
    uint32_t next_crash_id;      /* id:N of the next file in crashes/ */
    uint32_t next_hang_id;       /* id:N of the next file in hangs/ */
    uint32_t crashes_still;      /* resumed: saved crashes that still crash (resume.c) */
    int target_changed;          /* resumed: the target binary is not the one the
                                    campaign ran before (cmdline.c) */
    const char *command_line;    /* the whole command line, for cmdline/stats */
    volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM (main.c's handler) */
} fz_state_t;

/* Total target runs so far (fuzzing, calibration, minimization). */
static inline uint64_t fz_state_execs(const fz_state_t *st)
{
    return fz_exec_execs(&st->exec);
}

#endif
