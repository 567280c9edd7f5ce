/*
 * triage.h - crashes and hangs.
 *
 * A crash's identity is its site (include/fz-protocol.h, "Crash sites":
 * the faulting address and two return addresses, module-relative, from
 * the fz runtime's handler or the sanitizer's report).  A crash at a new
 * site is saved whatever its coverage; one at a known site never is.  It
 * is minimized keeping that site, not merely "a crash", so a deep bug's
 * input does not shrink into a shallow bug's.  Its input then runs
 * FZ_SITE_RECHECKS more times: one that crashes at another site (a flaky
 * site) is saved once, and both sites map to that file; if the other site
 * was saved already, it is not saved at all.  A crash with no site (a target without the fz
 * runtime, or with its own handler) is unique when its coverage reaches a
 * bucket no earlier crash reached, as in AFL, and is minimized keeping its
 * signal.
 *
 * A hang is unique when it reaches an edge no earlier hang reached; hit
 * counts do not count (the kill comes at an arbitrary point of a loop).
 * A new hang is run once more with FZ_HANG_CONFIRM_MS (or FZ_HANG_TMOUT)
 * before it is saved: one that then finishes was only slow, and the edges
 * its killed run reached stop counting as new for hangs (afl-fuzz's rule:
 * otherwise every slow input through them costs another confirming run,
 * up to a second each); one that then crashes is a crash.  In blind mode (-n) the first crash per signal and
 * the first hang are saved.
 */
#ifndef FZ_FUZZ_TRIAGE_H
#define FZ_FUZZ_TRIAGE_H

#include <stdint.h>

#include "core/exec.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/options.h"
#include "fz-fuzz/outdir.h"
#include "fz-fuzz/sites.h"
#include "fz-fuzz/stats.h"

struct fz_state;

/* Most runs spent minimizing one crash; crashes are rare, so this can be
 * generous next to a new queue entry's budget. */
#define FZ_CRASH_MIN_EXECS 2000

/* Extra runs of a crash at a new site, to see whether its site moves
 * (flaky site) before it is saved: a site that moves half the time shows
 * it within 8 runs but for 1 time in 256.  New sites are rare, so this
 * costs nothing measurable. */
#define FZ_SITE_RECHECKS 8

/* The timeout of the confirming run (AFL++'s default hang timeout), unless
 * the per-run timeout is already longer. */
#define FZ_HANG_CONFIRM_MS 1000

/* What triage reads and writes, and no more (run.c's fz_run_triage fills
 * it from the campaign's state). */
typedef struct fz_triage {
    fz_exec_t *x;              /* the target: crash/hang virgin maps, minimizer runs */
    const fz_cfg_t *cfg;       /* the target command, -m, the hang timeout, artifacts */
    fz_outdir_t *out;          /* crashes/, hangs/ */
    fz_stats_t *stats;         /* crash and hang counters */
    fz_sites_t *sites;         /* crash sites seen */
    uint8_t *min_buf;          /* FZ_MAX_INPUT bytes: the minimizer's output */
    uint32_t *next_crash_id;   /* id:N of the next file in crashes/ */
    uint32_t *next_hang_id;    /* id:N of the next file in hangs/ */
    const char *command_line;  /* the whole command line, for crashes/README.txt */
    /* The campaign's state, opaque here: only handed back to run-again.h, which
     * names finds, polls and makes the re-runs (and decides what a lost
     * forkserver means). */
    struct fz_state *st;
} fz_triage_t;

/* Judge the record of the run that just happened on input buf (its
 * new_bits against the crash / hang virgin map) and save the input if it
 * is unique.  o names where it came from.  Returns 1 if a file was
 * saved. */
int fz_triage_crash(fz_triage_t *t, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                    const fz_origin_t *o);
int fz_triage_hang(fz_triage_t *t, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                   const fz_origin_t *o);

/* End of a run: one line per crash site this run found, with the command
 * that reproduces it (the same list is in crashes/README.txt) and, for the
 * first max_reports of them, the report a rerun prints (crashinfo.h). */
void fz_triage_summary(const fz_triage_t *t, uint32_t max_reports);

/* Non-zero when the crash file name was reported by fz_triage_summary
 * (t is the triage context, as a void * for fz_crashinfo_dir's skip). */
int fz_triage_summarized(void *t, const char *name);

#endif
