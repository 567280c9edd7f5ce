/*
 * resume.h - what a resumed campaign (-i - or FZ_AUTORESUME=1) takes over
 * from the earlier run besides its queue (campaign.c loads that):
 *
 *  - the running totals users and scripts watch: execs_done, run_time,
 *    cycles_done, total_crashes and total_hangs continue from the earlier
 *    fuzzer_stats instead of starting at zero (as afl-fuzz does on resume);
 *    -E and execs_per_sec still count this session only;
 *  - which crashes are already known: every saved crash is run once more
 *    and its coverage marked in the crash virgin map, so the same crash is
 *    not saved again under a new id (a crash that no longer reproduces,
 *    e.g. after a fix, is simply not marked).
 */
#ifndef FZ_FUZZ_RESUME_H
#define FZ_FUZZ_RESUME_H

#include <stddef.h>

#include "fz-fuzz/stats.h"

/* Parses fuzzer_stats text into s->prev_* (keys missing or malformed stay
 * 0).  Returns how many of the keys it found. */
int fz_resume_parse_stats(const char *text, fz_stats_t *s);

struct fz_state;

/* Reads OUT/NAME/fuzzer_stats of the resumed campaign, if any. */
void fz_resume_load_stats(struct fz_state *st);

/* Re-runs up to FZ_RESUME_MAX_CRASHES saved crashes to rebuild the crash
 * virgin map (after calibration: it needs the timeout).  The runs count as
 * calibration runs.  Returns how many still crash: the campaign then
 * exits 3 (a resumed CI cache must not go green with the bug still there). */
#define FZ_RESUME_MAX_CRASHES 1000
uint32_t fz_resume_known_crashes(struct fz_state *st);

#endif
