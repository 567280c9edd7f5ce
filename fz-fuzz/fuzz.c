/*
 * fuzz.c - the loop.  Each turn takes the next entry of the round-robin
 * walk and runs the stage table on it; every candidate goes through run.c
 * (fz_run_push, fz_run_one), the one place that runs the target and
 * decides what to keep.  No decision here reads the clock (only -V's stop
 * test and the status screen do), so -s SEED -E N always produces the
 * same queue.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz-fuzz/custom.h"
#include "fz-fuzz/i2s.h"
#include "fz-fuzz/lfmut.h"
#include "fz-fuzz/jobs-link.h"
#include "mutators/text.h"
#include "core/coverage.h"
#include "fz-fuzz/calibrate.h"
#include "core/minimize.h"
#include "fz-fuzz/state.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/run.h"
#include "fz-fuzz/sync.h"
#include "fz-log.h"
#include "mutators/chain.h"

/* An entry's first turn starts by shrinking it while it keeps every bucket
 * of its map (not only what it added: a smaller input that lost coverage
 * would be a different entry), within FZ_TRIM_MAX_EXECS runs.  The smaller
 * input replaces the entry and its file. */
static void trim_entry(fz_state_t *st, fz_entry_t *e)
{
    fz_exec_t *x = &st->exec;
    e->trimmed = 1;
    if (st->cfg.no_trim || x->blind || e->len < 2 || fz_custom_trim(st, e))
        return; /* switched off, nothing to trim, or a custom mutator trimmed it */
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
                       .poll = fz_run_poll,
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
    if (fz_run_should_stop(st)) {
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
    fz_queue_shrink(&st->queue, e, st->min_buf, (uint32_t)out_len,
                    fz_calib_work(rec.map, rec.map_size));
    fz_outdir_save(&st->out, "queue", e->fname, e->data, e->len);
}

/* Without -l, the maximum length grows when enough runs found nothing
 * (maxlen.h); said in the log when there is no screen. */
static void grow_max_len(fz_state_t *st)
{
    uint64_t waited = fz_maxlen_grow(&st->len, fz_state_execs(st));
    if (waited && !st->ui.tty)
        fz_info("no find in %llu runs: inputs may now grow to %u bytes",
                (unsigned long long)waited, fz_maxlen_now(&st->len));
}

/* The input-to-state stage's budget for the entry it starts on now. */
static uint64_t i2s_budget(const fz_state_t *st)
{
    uint64_t used = st->i2s.execs;
    if (used <= FZ_I2S_FREE_EXECS || used * FZ_I2S_SHARE <= fz_state_execs(st))
        return FZ_I2S_MAX_EXECS;
    return FZ_I2S_LEAN_EXECS;
}

/* The input-to-state stage's run (fz_i2s_ctx_t.run): found something
 * when the queue grew or a crash was saved. */
static int i2s_run(void *ctx, const uint8_t *buf, uint32_t len, const fz_origin_t *o, int log,
                   fz_run_way_t *way)
{
    fz_state_t *st = ctx;
    uint64_t crashes = st->stats.saved_crashes;
    int grew = fz_run_traced(st, buf, len, o, log, way);
    return grew || st->stats.saved_crashes > crashes;
}

static int i2s_stop(void *ctx)
{
    return fz_run_should_stop(ctx);
}

/* The input-to-state stage (i2s.h) on an entry's first turn, given only
 * what it needs. */
static void stage_i2s(fz_state_t *st, fz_entry_t *e, uint8_t *buf)
{
    (void)buf;
    if (e->was_fuzzed)
        return;
    fz_i2s_ctx_t c = {.i2s = &st->i2s,
                      .rng = &st->rng,
                      .len = &st->len,
                      .budget = i2s_budget(st),
                      .run = i2s_run,
                      .stop = i2s_stop,
                      .ctx = st};
    fz_i2s_stage(&c, e->id, e->data, e->len);
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
    fz_chain_init(&chain, &st->rng, &env, e->data, e->len, buf, fz_maxlen_now(&st->len));
    uint32_t rounds = fz_queue_energy(&st->queue, e);
    /* -j: another instance's find cuts the turn short, so it is taken
     * between turns within a few runs rather than after hundreds. */
    for (uint32_t i = 0; i < rounds && !fz_run_should_stop(st) && !fz_jobs_pending(st); i++) {
        if (fz_lfmut_maybe_xover(st, e))
            continue; /* the harness's LLVMFuzzerCustomCrossOver took this one */
        size_t len = fz_chain_next(&chain);
        len = fz_custom_havoc(st, buf, len, fz_maxlen_now(&st->len)); /* AFL++ havoc_mutation */
        if (st->cfg.input_text) /* -a text: printable bytes (mutators/text.h) */
            fz_text_bias(&st->rng, buf, len, e->data, e->len);
        fz_origin_t o = {.op = fz_chain_stage(&chain), .src = e->id};
        fz_run_push(st, buf, (uint32_t)len, &o);
    }
    fz_run_flush(st);
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
    for (uint32_t i = 0; i < n && !fz_run_should_stop(st); i++) {
        uint8_t orig = buf[i];
        /* The stop test runs before every run, not once per byte: on a
         * slow target 12 runs can be seconds past -V. */
        for (int k = k_from; k < k_to && !fz_run_should_stop(st); k++) {
            uint8_t v = det_value(orig, k);
            if (v == orig || (k >= 10 && (v ^ orig) && !((v ^ orig) & ((v ^ orig) - 1))))
                continue; /* no change, or a value the bit flips already tried */
            buf[i] = v;
            fz_run_push(st, buf, e->len, &o);
        }
        buf[i] = orig;
    }
    fz_run_flush(st);
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
    for (uint32_t i = 0; i < e->len && !fz_run_should_stop(st); i++) {
        uint8_t orig = buf[i];
        for (unsigned v = 0; v < 256 && !fz_run_should_stop(st); v++) {
            uint8_t d = (uint8_t)(v ^ orig);
            if (!d || !(d & (d - 1)) || v == 0 || v == 0xff || (uint8_t)(orig + 1) == v ||
                (uint8_t)(orig - 1) == v)
                continue; /* unchanged, or already run by flip1 / arith8 */
            buf[i] = (uint8_t)v;
            fz_run_push(st, buf, e->len, &o);
        }
        buf[i] = orig;
    }
    fz_run_flush(st);
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
    {"i2s", stage_i2s, 0},
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

/* The empty input, once, before the first turn of a new campaign, as
 * libFuzzer runs it before its corpus: a program that crashes on no input
 * at all is a common bug, and code only no input reaches (a decoder's
 * "nothing to do" path) is coverage like any other, which mutation reaches
 * only by chance (no seed is empty: outdir.c skips them).  It is judged
 * as any candidate: a crash or hang is saved, new coverage an entry.  Not
 * on a resume (the campaign ran it), not under AFL_CUSTOM_MUTATOR_ONLY
 * (only the custom mutator makes inputs), and in a -j campaign by its
 * first instance only (the others import what it keeps). */
static void run_empty(fz_state_t *st)
{
    if (st->out.resumed || fz_custom_only(st) || (st->jobs.shared && st->jobs.self) ||
        fz_run_should_stop(st))
        return;
    fz_origin_t o = {.op = "empty", .no_parent = 1};
    fz_run_one(st, (const uint8_t *)"", 0, &o);
}

void fz_fuzz_loop(fz_state_t *st)
{
    uint8_t *buf = malloc(FZ_MAX_INPUT);
    if (!buf)
        fz_die("out of memory");
    run_empty(st);
    while (!fz_run_should_stop(st)) {
        fz_sync_maybe(st); /* between turns, as afl-fuzz does; nothing for a lone instance */
        if (fz_run_should_stop(st))
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
                fz_run_should_stop(st))
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
