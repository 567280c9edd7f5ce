/*
 * i2s.h - comparison feedback in fz-fuzz: the input-to-state stage, the
 * chained-check repair and the automatic dictionary, over the comparison
 * log the target's compare hooks fill (include/fz-cmplog.h, core/cmplog.h;
 * the pure parts are in mutators/cmpedit.h).
 *
 * On an entry's first turn the stage logs one run of it (and one of a
 * "coloured" copy, every byte changed, to see which comparisons follow the
 * input), sweeps the coloured bytes over ranges of the entry (the colour
 * sweep: wide changes narrowing onto the bytes that decide the way a run
 * goes), then for each comparison puts one operand where the input holds
 * the other.  Every candidate is a logging run through fz_run_traced,
 * so what it finds is judged and saved like any other find, and its log
 * is there to look at: a candidate that found something is solved further
 * (the next check of a header), and one that broke a check its parent
 * passed (a length or checksum over the bytes just changed) is repaired
 * for a few rounds.  Compared constants and strings that look like tokens
 * join havoc's dictionary.
 *
 * On by default; FZ_NO_CMPLOG=1 turns it off, and it turns itself off
 * (one line in the log, `cmplog` in fuzzer_stats) for a target whose
 * handshake does not say it has compare hooks.
 */
#ifndef FZ_FUZZ_I2S_H
#define FZ_FUZZ_I2S_H

#include <stdint.h>

#include "core/cmplog.h"
#include "core/fsrv.h"
#include "fz-fuzz/maxlen.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/options.h"
#include "mutators/dict.h"
#include "mutators/cmpedit.h"
#include "mutators/rng.h"

/* Target runs the stage spends on one entry at most (the entry's logging
 * run, the coloured run, the colour sweep, candidates and repairs; finds'
 * minimization is counted as such).  Comparable to the deterministic
 * stages' 768 on a 64-byte entry: the stage runs once per entry, and one
 * solved magic value is worth more than any number of havoc rounds. */
#define FZ_I2S_MAX_EXECS 2048

/* The colour sweep's runs on one entry at most (i2s.c, colour_sweep). */
#define FZ_I2S_COLOUR_RUNS 1024

/* The colour sweep's hangs on one entry that end it (each cost a timeout). */
#define FZ_I2S_COLOUR_HANGS 2

/* Candidates tried per comparison.  Confirmed positions come first, so the
 * right one is nearly always among the first few; the rest are for
 * operands that occur many times in the input. */
#define FZ_I2S_EDITS 24

/* How many finds deep one entry's stage follows (each find's log solved
 * at once, without waiting for its turn): a header of magic, length,
 * checksum and tag is 4-6 steps. */
#define FZ_I2S_DEPTH 8

/* Repair rounds after a candidate broke a check its parent passed, broken
 * checks looked at per round, and candidates per broken check. */
#define FZ_I2S_REPAIR_ROUNDS 6
#define FZ_I2S_REPAIR_CHECKS 2
#define FZ_I2S_REPAIR_EDITS 8

/* Distinct comparisons kept per logging run. */
#define FZ_I2S_RECORDS 4096

/* Most tokens the automatic dictionary holds (deduplicated).  Havoc picks
 * tokens uniformly; a few hundred keeps each one likely to be tried. */
#define FZ_I2S_DICT_MAX 512

/* Comparisons (site and operands) remembered across entries as tried
 * without a find; past half of this the set is emptied and starts again. */
#define FZ_I2S_FAILED_CAP (1u << 18)

/* A set of 64-bit keys (open addressing; 0 marks a free slot). */
typedef struct {
    uint64_t *k;
    uint32_t cap, n; /* cap: a power of two */
} fz_i2s_keys_t;

/* Lists: the entry's log, the coloured log, the swept log, and per depth
 * the candidate's log and the repair's current and trial logs. */
#define FZ_I2S_LISTS (3 + 3 * FZ_I2S_DEPTH)

typedef struct fz_i2s {
    int on;               /* the stage runs */
    char state[96];       /* "on", or "off (why)": the log line and fuzzer_stats */
    fz_cmplog_shm_t shm;  /* the log segment (id -1 when off from the start) */
    fz_dict_t dict;       /* the automatic dictionary */
    uint64_t execs;       /* target runs of the stage */
    uint64_t finds;       /* queue entries and crashes its runs saved */
    uint64_t stop_execs;  /* this entry's budget ends at this execs value */
    uint64_t colour_execs; /* of execs: the colour sweep's runs */
    uint64_t colour_finds; /* of finds: the colour sweep's */
    fz_cmp_list_t lists[FZ_I2S_LISTS];
    /* per depth a candidate and a repair's two, then the coloured input
     * and the swept one */
    uint8_t *bufs[3 * FZ_I2S_DEPTH + 2];
    fz_i2s_keys_t seen;   /* tried on this entry: pairs and candidate hashes */
    fz_i2s_keys_t failed; /* site + pair tried on some entry without a find */
    uint64_t skipped;     /* comparisons skipped for that */
} fz_i2s_t;

/* The way a run went (fz_run_traced): its result, and a hash of its
 * classified map (bucketed counts), equal for two runs that took the same
 * edges about as often (blind mode: 0).  A hang's map is cut off wherever
 * the kill found the target. */
typedef struct fz_run_way {
    fz_run_result_t result;
    uint64_t map_hash;
} fz_run_way_t;

/* What the stage needs from the campaign, and no more (fuzz.c fills it
 * for an entry's first turn). */
typedef struct fz_i2s_ctx {
    fz_i2s_t *i2s;
    fz_rng_t *rng;            /* the campaign's: the coloured copy's bytes */
    const fz_len_ctl_t *len;  /* the room an edit has (maxlen.h) */
    uint64_t budget;          /* target runs this entry's stage may take */
    /* One run of a candidate, judged and saved like any other, a logging
     * run when log is set (run.h, fz_run_traced); returns 1 if it found
     * something: a queue entry or a new unique crash.  With way set,
     * *way gets the way the run went. */
    int (*run)(void *ctx, const uint8_t *buf, uint32_t len, const fz_origin_t *o, int log,
               fz_run_way_t *way);
    int (*stop)(void *ctx); /* the campaign must end (fz_run_should_stop) */
    void *ctx;
} fz_i2s_ctx_t;

/* Before the forkserver starts: decides whether comparison feedback is
 * wanted (FZ_NO_CMPLOG, -n, -c), creates the log and tells the forkserver
 * client to offer it (fcfg->cmplog). */
void fz_i2s_setup(fz_i2s_t *i2s, const fz_cfg_t *cfg, fz_fsrv_cfg_t *fcfg);

/* After the handshake: keeps the stage on only if the target said it
 * fills the log (has_hooks), and says once which it is. */
void fz_i2s_started(fz_i2s_t *i2s, int has_hooks);

/* The stage on queue entry id (data, len bytes), on its first turn. */
void fz_i2s_stage(const fz_i2s_ctx_t *c, uint32_t id, const uint8_t *data, uint32_t len);

void fz_i2s_free(fz_i2s_t *i);

#endif
