/*
 * fuzz.c - the loop.  Each turn takes the next entry of the round-robin
 * walk and runs the stage table on it; every candidate goes through
 * fz_fuzz_run_one, the one place that runs the target and decides what to
 * keep.  No decision here reads the clock (only -V's stop test and the
 * status screen do), so -s SEED -E N always produces the same queue.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/custom.h"
#include "fz-fuzz/i2s.h"
#include "fz-fuzz/lfmut.h"
#include "fz-fuzz/jobs.h"
#include "mutators/text.h"
#include "core/coverage.h"
#include "fz-fuzz/calibrate.h"
#include "core/minimize.h"
#include "fz-fuzz/status.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/run.h"
#include "fz-fuzz/sync.h"
#include "fz-fuzz/triage.h"
#include "fz-log.h"
#include "mutators/chain.h"

int fz_fuzz_found_crash(const fz_state_t *st)
{
    return st->cfg.until_crash && st->stats.saved_crashes > st->stats.crashes_at_start;
}

int fz_fuzz_should_stop(fz_state_t *st)
{
    if (*st->stop || fz_fuzz_found_crash(st))
        return 1;
    if (st->cfg.max_execs && fz_state_execs(st) >= st->cfg.max_execs)
        return 1;
    return st->ui.time_up; /* -V, set by fz_status_tick when it reads the clock */
}

int fz_fuzz_min_poll(void *ctx)
{
    fz_state_t *st = ctx;
    fz_status_tick(st);
    /* Only a signal or -V cut a minimization short: -E budgets keep their
     * exact, reproducible overshoot (the minimizer's own budget bounds it). */
    return *st->stop || st->ui.time_up;
}

int fz_fuzz_name(const fz_state_t *st, char *buf, size_t n, uint32_t id, int sig,
                 const fz_origin_t *o, int new_edge)
{
    fz_origin_t named = *o;
    if (!o->peer)
        named.src = st->queue.e[o->src]->file_id; /* names carry the parent's file id */
    /* A resumed campaign's names go on from its earlier runs' totals. */
    return fz_name_find(buf, n, id, sig, &named,
                        st->stats.prev_run_time * 1000 + fz_now_ms() - st->stats.start_ms,
                        st->stats.prev_execs + fz_state_execs(st), new_edge);
}

/* A new entry: calibrate it, add it to the queue and save it.  It is
 * trimmed on its first turn (trim_entry), so an entry that never gets one
 * costs nothing; a peer's import is kept as it is: its finder trimmed it
 * already, and an import byte-identical to its source is easy to trace. */
static void add_entry(fz_state_t *st, const uint8_t *buf, uint32_t len, int kind,
                      const fz_origin_t *o)
{
    fz_calib_t c;
    fz_calibrate(st, buf, len, o, &c);

    char name[256];
    fz_fuzz_name(st, name, sizeof(name), st->next_queue_id++, 0, o, kind == FZ_COV_NEW_EDGE);
    char *fname = strdup(name);
    if (!fname)
        fz_die("out of memory");
    uint32_t depth = o->peer ? 1 : st->queue.e[o->src]->depth + 1;
    fz_entry_t *e = fz_queue_add(&st->queue, fname, buf, len, c.work, st->calib.edges,
                                 c.result == FZ_RUN_OK ? c.n_edges : 0, depth);
    e->var_behavior = c.variable;
    e->exec_us = c.exec_us;
    e->trimmed = o->peer != NULL;
    fz_outdir_save(&st->out, "queue", name, buf, len);
    fz_custom_new_entry(st, e, o->peer ? NULL : st->queue.e[o->src]->fname);
    fz_jobs_share(st, name, st->next_queue_id - 1, buf, len); /* -j: to the others at once */
    st->len.quiet_since = fz_state_execs(st);
    if (o->peer) {
        st->stats.corpus_imported++; /* a peer's find, counted apart as AFL++ does */
        return;
    }
    st->stats.corpus_found++;
    st->stats.last_find_ms = fz_now_ms();
    if (kind == FZ_COV_NEW_EDGE)
        st->stats.last_edge_ms = st->stats.last_find_ms;
}

/* An entry's first turn starts by shrinking it while it keeps every bucket
 * of its map (not only what it added: a smaller input that lost coverage
 * would be a different entry), within FZ_TRIM_MAX_EXECS runs.  The smaller
 * input replaces the entry and its file. */
static void trim_entry(fz_state_t *st, fz_entry_t *e)
{
    fz_exec_t *x = &st->exec;
    e->trimmed = 1;
    if (x->blind || e->len < 2 || fz_custom_trim(st, e))
        return; /* an AFL++ custom mutator's trim replaces this one */
    if (e->depth <= 1 && e->len < FZ_TRIM_MIN_BYTES)
        return;
    fz_exec_rec_t rec;
    fz_origin_t o = {.op = "trim", .src = e->id};
    fz_run_result_t r = fz_run_again(st, e->data, e->len, 0, &rec, &o, "trimming");
    st->stats.min_execs++;
    if (r != FZ_RUN_OK)
        return; /* flaky: it crashed or hung now; keep it as it is */
    uint8_t *want = malloc(x->map_size);
    if (!want)
        fz_die("out of memory");
    memcpy(want, rec.map, x->map_size);
    /* Slots calibration saw change between runs of one input (a harness's
     * first-call set-up, a timer) are no part of what the input does: a
     * candidate that misses one has lost nothing. */
    for (uint32_t k = 0; k < x->map_size; k++)
        if (st->calib.var_map[k])
            want[k] = 0;
    fz_min_cfg_t mc = {.mode = FZ_MIN_COVERAGE,
                       .want_bits = want,
                       .max_execs = FZ_TRIM_MAX_EXECS,
                       .remove_only = 1,
                       .poll = fz_fuzz_min_poll,
                       .poll_ctx = st};
    fz_min_stats_t ms = {0};
    size_t out_len = e->len;
    fz_min_result_t mr = fz_minimize(x, &mc, e->data, e->len, st->min_buf, &out_len, &ms);
    st->stats.min_execs += ms.execs;
    free(want);
    if (mr == FZ_MIN_ERROR) /* the entry is saved; the candidate that broke it is too */
        fz_run_broke(st, st->min_buf, (uint32_t)out_len, ms.error_signal, &o, "trimming");
    if (mr != FZ_MIN_OK || out_len >= e->len)
        return;
    if (fz_fuzz_should_stop(st)) {
        /* -V or a signal: keep the smaller input, skip the run that would
         * measure its work (one more run time past the limit). */
        fz_queue_shrink(&st->queue, e, st->min_buf, (uint32_t)out_len, e->work);
        fz_outdir_save(&st->out, "queue", e->fname, e->data, e->len);
        return;
    }
    /* Its work (the cost proxy) from one run of the trimmed input. */
    r = fz_run_again(st, st->min_buf, (uint32_t)out_len, 0, &rec, &o, "trimming");
    st->stats.min_execs++;
    if (r != FZ_RUN_OK)
        return;
    fz_queue_shrink(&st->queue, e, st->min_buf, (uint32_t)out_len, fz_calib_work(rec.map, rec.map_size));
    fz_outdir_save(&st->out, "queue", e->fname, e->data, e->len);
}

/* Without -l, the maximum length grows by half when enough runs found
 * nothing: FZ_MAXLEN_STALL_EXECS, four times that after the first growth,
 * and so on (see fuzz.h).  Counted in runs, not seconds, so -s reproduces it. */
static void grow_max_len(fz_state_t *st)
{
    fz_len_ctl_t *l = &st->len;
    uint64_t now = fz_state_execs(st);
    uint64_t wait = (uint64_t)FZ_MAXLEN_STALL_EXECS << (l->grows < 12 ? 2 * l->grows : 24);
    if (l->fixed || l->max >= l->cap || now - l->quiet_since < wait)
        return;
    uint64_t grown = (uint64_t)l->max + l->max / 2;
    l->max = grown > l->cap ? l->cap : (uint32_t)grown;
    l->grows++;
    l->quiet_since = now;
    if (!st->ui.tty)
        fz_info("no find in %llu runs: inputs may now grow to %u bytes", (unsigned long long)wait,
                l->max);
}

/* A logging run crashed: runs the input again without the log and returns
 * that run's result in *rec.  When the plain run does not crash (the crash
 * needs outside state and happened once, or only the logging copies
 * crash), the logging run's own record is kept instead, its map copied to
 * *map (the caller frees it) and its site cleared, since no plain run
 * shows that site: triage then judges it by coverage, and its reruns save
 * it as a flaky crash rather than losing it. */
static fz_run_result_t rerun_logged_crash(fz_state_t *st, const uint8_t *buf, uint32_t len,
                                          fz_exec_rec_t *rec, uint8_t **map)
{
    fz_exec_rec_t logged = *rec;
    if (logged.map && (*map = malloc(logged.map_size)))
        memcpy(*map, logged.map, logged.map_size);
    fz_run_result_t res = fz_exec_run(&st->exec, buf, len, 0, rec);
    if (res == FZ_RUN_CRASH || res == FZ_RUN_ERROR || (logged.map && !*map))
        return res;
    logged.map = *map;
    logged.site = 0;
    *rec = logged;
    return FZ_RUN_CRASH;
}

/* What a run's record means for the campaign: a crash or a hang goes to
 * triage, an exit with something new becomes an entry.  Returns non-zero
 * when the queue grew.  Every run that is not a plain exit with nothing
 * new comes through here (a batch's others need nothing). */
static int judge(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o,
                 const fz_exec_rec_t *rec)
{
    int grew = 0;
    switch (rec->result) {
    case FZ_RUN_ERROR:
        fz_run_broke(st, buf, len, rec->signal, o, o->peer ? "a sync import" : "fuzzing");
    case FZ_RUN_CRASH:
        fz_triage_crash(st, buf, len, rec, o);
        break;
    case FZ_RUN_HANG:
        fz_triage_hang(st, buf, len, rec, o);
        break;
    case FZ_RUN_OK:
        if (rec->exec_us > st->stats.slowest_exec_us)
            st->stats.slowest_exec_us = rec->exec_us;
        if (!rec->new_bits)
            break;
        add_entry(st, buf, len, fz_exec_commit(&st->exec, rec, NULL), o);
        grew = 1;
        break;
    }
    fz_status_tick(st);
    return grew;
}

/* The one place a single candidate is run.  With log set the comparison
 * log is on for exactly this run (not for the minimization and
 * calibration of what it finds), so it still holds this run afterwards. */
static int run_one(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o, int log)
{
    fz_exec_t *x = &st->exec;
    fz_exec_rec_t rec;
    log = log && st->i2s.shm.log; /* no log (feedback off): a plain run */
    if (log)
        fz_cmplog_begin(&st->i2s.shm);
    fz_run_result_t res = fz_exec_run(x, buf, len, 0, &rec);
    uint8_t *logged_map = NULL;
    if (log) {
        fz_cmplog_end(&st->i2s.shm);
        /* A logging run executes the hooks' logging copies of functions,
         * so a crash's site (return addresses) is not the one every plain
         * run of the input shows: judge a plain run of it instead.  Its
         * log stays (plain runs do not touch it). */
        if (res == FZ_RUN_CRASH)
            rerun_logged_crash(st, buf, len, &rec, &logged_map);
    }
    int grew = judge(st, buf, len, o, &rec);
    free(logged_map);
    return grew;
}

/* Runs the candidates waiting in the batch, in order, and judges each
 * run that stopped it, exactly as if each had gone through run_one: the
 * same runs, the same records, the same -E count (a stop test before each
 * part, which is cut to the runs left).  Only the hand-over differs: the
 * target runs the boring ones without a word. */
static void flush_batch(fz_state_t *st)
{
    fz_exec_t *x = &st->exec;
    uint32_t n = x->batch_n;
    for (uint32_t from = 0; from < n && !fz_fuzz_should_stop(st);) {
        uint32_t k = n - from;
        if (st->cfg.max_execs && k > st->cfg.max_execs - fz_state_execs(st))
            k = (uint32_t)(st->cfg.max_execs - fz_state_execs(st));
        fz_exec_rec_t rec;
        uint32_t at, len;
        fz_exec_run_batch(x, from, k, &rec, &at);
        const uint8_t *buf = fz_exec_batch_is_request(x, at) ? fz_lfmut_ran(st, at, &len)
                                                              : fz_exec_batch_input(x, at, &len);
        judge(st, buf, len, &st->batch.origin[at], &rec);
        /* The next batch lasts about FZ_BATCH_TARGET_US at this part's
         * pace (rec.exec_us: its mean run).  Only the grouping of runs
         * reads the clock, never which runs are made. */
        uint64_t want = rec.exec_us ? FZ_BATCH_TARGET_US / rec.exec_us : FZ_BATCH_RUNS;
        st->batch.size = want < 1 ? 1 : want > FZ_BATCH_RUNS ? FZ_BATCH_RUNS : (uint32_t)want;
        from = at + 1;
    }
    fz_exec_batch_clear(x);
}

/* A candidate of a batched stage (havoc and the walks; not input-to-state,
 * whose next candidates depend on each run's log): queued when the target
 * takes batches, run at once otherwise. */
static void push(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o)
{
    fz_exec_t *x = &st->exec;
    if (x->post) {
        /* An AFL++ post_process may refuse the input (no run); batches
         * would save what it made of the input instead of the input. */
        if (!fz_custom_post_refuses(st, buf, len))
            run_one(st, buf, len, o, 0);
        return;
    }
    if (!x->batch) {
        run_one(st, buf, len, o, 0);
        return;
    }
    if (fz_exec_batch_add(x, buf, len) != 0) {
        flush_batch(st);
        if (fz_exec_batch_add(x, buf, len) != 0)
            fz_die("a %u-byte input does not fit in an empty batch", len);
    }
    st->batch.origin[x->batch_n - 1] = *o;
    if (x->batch_n >= st->batch.size || x->batch_used >= FZ_BATCH_BYTES)
        flush_batch(st);
}

void fz_fuzz_push_request(fz_state_t *st, const uint8_t *req, uint32_t len, const fz_origin_t *o)
{
    fz_exec_t *x = &st->exec;
    if (fz_exec_batch_add_request(x, req, len) != 0) {
        flush_batch(st);
        if (fz_exec_batch_add_request(x, req, len) != 0)
            fz_die("a %u-byte request does not fit in an empty batch", len);
    }
    st->batch.origin[x->batch_n - 1] = *o;
    if (x->batch_n >= st->batch.size || x->batch_used >= FZ_BATCH_BYTES)
        flush_batch(st);
}

void fz_fuzz_push(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o)
{
    push(st, buf, len, o);
}

void fz_fuzz_flush(fz_state_t *st)
{
    flush_batch(st);
}

int fz_fuzz_run_one(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o)
{
    return run_one(st, buf, len, o, 0);
}

int fz_fuzz_run_logged(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o)
{
    return run_one(st, buf, len, o, 1);
}

/* The havoc stage: a chain of mutations (mutators/chain.h) over the entry,
 * with a splice partner drawn from the queue for each turn. */
static void stage_havoc(fz_state_t *st, fz_entry_t *e, uint8_t *buf)
{
    if (fz_lfmut_owns(st)) {
        fz_lfmut_stage(st, e); /* the harness's LLVMFuzzerCustomMutator makes them all */
        return;
    }
    fz_mut_env_t env = {.dict = st->dict.count ? &st->dict : NULL,
                        .auto_dict = st->i2s.dict.count ? &st->i2s.dict : NULL};
    if (st->queue.n > 1) {
        uint32_t other = fz_rng_below(&st->rng, st->queue.n - 1);
        fz_entry_t *p = st->queue.e[other >= e->id ? other + 1 : other];
        env.splice = p->data;
        env.splice_len = p->len;
    }
    fz_chain_t chain;
    fz_chain_init(&chain, &st->rng, &env, e->data, e->len, buf, st->len.max);
    uint32_t rounds = fz_queue_energy(&st->queue, e);
    /* -j: another instance's find cuts the turn short, so it is taken
     * between turns within a few runs rather than after hundreds. */
    for (uint32_t i = 0; i < rounds && !fz_fuzz_should_stop(st) && !fz_jobs_pending(st); i++) {
        if (fz_lfmut_maybe_xover(st, e))
            continue; /* the harness's LLVMFuzzerCustomCrossOver took this one */
        size_t len = fz_chain_next(&chain);
        len = fz_custom_havoc(st, buf, len, st->len.max); /* AFL++ havoc_mutation */
        if (st->cfg.input_text) /* -a text: printable bytes (mutators/text.h) */
            fz_text_bias(&st->rng, buf, len, e->data, e->len);
        fz_origin_t o = {.op = fz_chain_stage(&chain), .src = e->id};
        push(st, buf, (uint32_t)len, &o);
    }
    flush_batch(st);
}

/* The deterministic stages run on an entry's first turn only, over its
 * first FZ_DET_MAX_BYTES bytes: every single-bit flip (a command or flag
 * byte one bit away from the next branch, e.g. 'P' -> 'X'), then each byte
 * +1, -1, 0 and 0xff (a counter, length or index that must move one step,
 * like a loop count crossing a hit-count bucket or an off-by-one bound).
 * Both are found here in a few runs per byte where havoc needs luck; the
 * cap keeps large inputs from starving the rest of the queue. */
static uint8_t det_value(uint8_t orig, int k)
{
    if (k < 8)
        return orig ^ (uint8_t)(1u << k); /* bitflip */
    static const uint8_t fixed[] = {0x00, 0xff};
    return k == 8 ? orig + 1 : k == 9 ? orig - 1 : fixed[k - 10];
}

static void det_walk(fz_state_t *st, fz_entry_t *e, uint8_t *buf, int k_from, int k_to,
                     const char *op)
{
    if (e->was_fuzzed)
        return;
    uint32_t n = e->len < FZ_DET_MAX_BYTES ? e->len : FZ_DET_MAX_BYTES;
    fz_origin_t o = {.op = op, .src = e->id};
    memcpy(buf, e->data, e->len);
    for (uint32_t i = 0; i < n && !fz_fuzz_should_stop(st); i++) {
        uint8_t orig = buf[i];
        /* The stop test runs before every run, not once per byte: on a
         * slow target 12 runs can be seconds past -V. */
        for (int k = k_from; k < k_to && !fz_fuzz_should_stop(st); k++) {
            uint8_t v = det_value(orig, k);
            if (v == orig || (k >= 10 && (v ^ orig) && !((v ^ orig) & ((v ^ orig) - 1))))
                continue; /* no change, or a value the bit flips already tried */
            buf[i] = v;
            push(st, buf, e->len, &o);
        }
        buf[i] = orig;
    }
    flush_batch(st);
}

/* Tiny inputs (at most FZ_SWEEP_MAX_BYTES) get every value at every
 * position on their first turn: a magic byte compared directly (a command
 * letter, the last byte of a short keyword) is then found in at most 256
 * runs instead of by a 1-in-thousands havoc draw.  Values the two walks
 * above already ran are skipped. */
static void stage_sweep(fz_state_t *st, fz_entry_t *e, uint8_t *buf)
{
    if (e->was_fuzzed || e->len > FZ_SWEEP_MAX_BYTES)
        return;
    fz_origin_t o = {.op = "sweep", .src = e->id};
    memcpy(buf, e->data, e->len);
    for (uint32_t i = 0; i < e->len && !fz_fuzz_should_stop(st); i++) {
        uint8_t orig = buf[i];
        for (unsigned v = 0; v < 256 && !fz_fuzz_should_stop(st); v++) {
            uint8_t d = (uint8_t)(v ^ orig);
            if (!d || !(d & (d - 1)) || v == 0 || v == 0xff || (uint8_t)(orig + 1) == v ||
                (uint8_t)(orig - 1) == v)
                continue; /* unchanged, or already run by flip1 / arith8 */
            buf[i] = (uint8_t)v;
            push(st, buf, e->len, &o);
        }
        buf[i] = orig;
    }
    flush_batch(st);
}

static void stage_bitflip(fz_state_t *st, fz_entry_t *e, uint8_t *buf)
{
    det_walk(st, e, buf, 0, 8, "flip1");
}

static void stage_arith(fz_state_t *st, fz_entry_t *e, uint8_t *buf)
{
    det_walk(st, e, buf, 8, 12, "arith8");
}

/* The stages each turn runs, in order.  A new stage is one row.  A -S
 * secondary skips the deterministic ones (as AFL++'s do): they walk the
 * same inputs the same way in every instance, so one instance, the main or
 * a lone one, doing them is enough.  -d skips them everywhere, -D runs
 * them on every first turn; by default they have a budget (want_det).
 * Input-to-state comes first: a magic value it solves in a few runs makes
 * the walks after it start past the check; it is not a deterministic walk
 * and runs on every instance (as afl-fuzz -c does on -S too). */
static const struct fz_stage {
    const char *name;
    void (*run)(fz_state_t *st, fz_entry_t *e, uint8_t *buf);
    int deterministic;
} fz_stages[] = {
    {"i2s", fz_i2s_stage, 0},
    {"flip1", stage_bitflip, 1},
    {"arith8", stage_arith, 1},
    {"sweep", stage_sweep, 1},
    {"custom", fz_custom_stage, 0}, /* AFL++ custom mutators, right before havoc as in AFL++ */
    {"havoc", stage_havoc, 0},
};

/* Custom mutators decide which stages run: a harness's
 * LLVMFuzzerCustomMutator makes every candidate (havoc's turn; libFuzzer
 * runs nothing else), AFL_CUSTOM_MUTATOR_ONLY leaves only the AFL++
 * custom stage. */
static int stage_allowed(const fz_state_t *st, const struct fz_stage *s)
{
    if (fz_custom_only(st))
        return s->run == fz_custom_stage;
    if (fz_lfmut_owns(st))
        return s->run == stage_havoc;
    return 1;
}

/* Whether this turn runs the deterministic stages (first turns only; the
 * stages check that themselves): never on a -S secondary or with -d,
 * always with -D, else within the FZ_DET_SHARE budget (fuzz.h). */
static int want_det(const fz_state_t *st)
{
    if (st->cfg.is_secondary || st->cfg.det_off)
        return 0;
    if (st->cfg.det_on)
        return 1;
    uint64_t all = fz_state_execs(st);
    return st->stats.det_execs <= FZ_DET_FREE_EXECS ||
           st->stats.det_execs * FZ_DET_SHARE <= all;
}

uint64_t fz_fuzz_i2s_budget(const fz_state_t *st)
{
    uint64_t used = st->i2s.execs;
    if (used <= FZ_I2S_FREE_EXECS || used * FZ_I2S_SHARE <= fz_state_execs(st))
        return FZ_I2S_MAX_EXECS;
    return FZ_I2S_LEAN_EXECS;
}

void fz_fuzz_loop(fz_state_t *st)
{
    uint8_t *buf = malloc(FZ_MAX_INPUT);
    if (!buf)
        fz_die("out of memory");
    while (!fz_fuzz_should_stop(st)) {
        fz_sync_maybe(st); /* between turns, as afl-fuzz does; nothing for a lone instance */
        if (fz_fuzz_should_stop(st))
            break;
        fz_entry_t *e = fz_queue_next(&st->queue);
        st->cur_entry = e->id;
        if (st->queue.cycles != st->stats.last_cycle) {
            /* A cycle ended: count it as dry if it found nothing. */
            st->stats.cycles_wo_finds = st->stats.corpus_found == st->stats.found_at_cycle
                                            ? st->stats.cycles_wo_finds + 1
                                            : 0;
            st->stats.found_at_cycle = st->stats.corpus_found;
            st->stats.last_cycle = st->queue.cycles;
        }
        grow_max_len(st);
        if (fz_custom_skip_entry(st, e))
            continue; /* an AFL++ mutator's queue_get said no */
        if (!e->trimmed)
            trim_entry(st, e);
        int det = want_det(st);
        for (size_t i = 0; i < sizeof(fz_stages) / sizeof(fz_stages[0]); i++) {
            if ((fz_stages[i].deterministic && !det) || !stage_allowed(st, &fz_stages[i]) ||
                fz_fuzz_should_stop(st))
                continue;
            uint64_t before = fz_state_execs(st);
            fz_stages[i].run(st, e, buf);
            if (fz_stages[i].deterministic)
                st->stats.det_execs += fz_state_execs(st) - before;
        }
        e->was_fuzzed = 1;
        e->turns++;
    }
    free(buf);
}
