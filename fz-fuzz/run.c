/*
 * run.c - the one place that runs the target, judges what came back and
 * decides what it means (see run.h): candidates one by one or in batches,
 * their judgement (triage, or a new queue entry); the stop test and the
 * re-runs of inputs fz-fuzz holds are run-again.c's.
 * No decision here reads the clock (only -V's stop test and the status
 * screen do, and the batches' size, never which runs are made), so
 * -s SEED -E N always produces the same queue.
 */
#include "fz-fuzz/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/coverage.h"
#include "fz-fuzz/calibrate.h"
#include "fz-fuzz/jobs-link.h"
#include "fz-fuzz/state.h"
#include "fz-fuzz/status.h"
#include "fz-fuzz/triage.h"
#include "fz-hash.h"
#include "fz-log.h"

void fz_run_triage(fz_state_t *st, fz_triage_t *t)
{
    *t = (fz_triage_t){.x = &st->exec,
                       .cfg = &st->cfg,
                       .out = &st->out,
                       .stats = &st->stats,
                       .sites = &st->sites,
                       .min_buf = st->min_buf,
                       .next_crash_id = &st->next_crash_id,
                       .next_hang_id = &st->next_hang_id,
                       .command_line = st->command_line,
                       .st = st};
}

/* A new entry: calibrate it (from rec alone once the run is to stop),
 * add it to the queue and save it.  It is
 * trimmed on its first turn (trim_entry), so an entry that never gets one
 * costs nothing; a peer's import is kept as it is: its finder trimmed it
 * already, and an import byte-identical to its source is easy to trace. */
static void add_entry(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                      int kind, const fz_origin_t *o)
{
    fz_calib_t c;
    fz_status_tick(st); /* the clock after this run: is -V up? */
    if (*st->stop || st->ui.time_up)
        fz_calibrate_record(st, rec, &c); /* no time for more runs: the one that found it */
    else
        fz_calibrate(st, buf, len, o, "calibration", &c);

    char name[256];
    fz_run_name(st, name, sizeof(name), st->next_queue_id++, 0, o, kind == FZ_COV_NEW_EDGE);
    char *fname = strdup(name);
    if (!fname)
        fz_die("out of memory");
    const fz_entry_t *parent = o->peer || o->no_parent ? NULL : st->queue.e[o->src];
    uint32_t depth = parent ? parent->depth + 1 : 1;
    fz_entry_t *e = fz_queue_add(&st->queue, fname, buf, len, c.work, st->calib.edges,
                                 c.result == FZ_RUN_OK ? c.n_edges : 0, depth);
    e->var_behavior = c.variable;
    e->exec_us = c.exec_us;
    e->trimmed = o->peer != NULL;
    fz_outdir_save(&st->out, "queue", name, buf, len);
    if (st->hooks.new_entry)
        st->hooks.new_entry(st, e, parent ? parent->fname : NULL);
    fz_jobs_share(st, name, st->next_queue_id - 1, buf, len); /* -j: to the others at once */
    fz_maxlen_found(&st->len, fz_state_execs(st));
    if (o->peer) {
        st->stats.corpus_imported++; /* a peer's find, counted apart as AFL++ does */
        return;
    }
    st->stats.corpus_found++;
    st->stats.last_find_ms = fz_now_ms();
    if (kind == FZ_COV_NEW_EDGE)
        st->stats.last_edge_ms = st->stats.last_find_ms;
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
    fz_triage_t t;
    switch (rec->result) {
    case FZ_RUN_ERROR:
        fz_run_broke(st, buf, len, rec->signal, o, o->peer ? "a sync import" : "fuzzing");
    case FZ_RUN_CRASH:
        fz_run_triage(st, &t);
        fz_triage_crash(&t, buf, len, rec, o);
        break;
    case FZ_RUN_HANG:
        fz_run_triage(st, &t);
        fz_triage_hang(&t, buf, len, rec, o);
        break;
    case FZ_RUN_OK:
        if (rec->exec_us > st->stats.slowest_exec_us)
            st->stats.slowest_exec_us = rec->exec_us;
        if (!rec->new_bits)
            break;
        add_entry(st, buf, len, rec, fz_exec_commit(&st->exec, rec, NULL), o);
        grew = 1;
        break;
    }
    fz_status_tick(st);
    return grew;
}

/* The way a run went (i2s.h): its result and a hash of its classified
 * map (blind mode: none). */
static fz_run_way_t run_way(fz_run_result_t res, const fz_exec_rec_t *rec)
{
    return (fz_run_way_t){res, rec->map ? fz_hash_bytes(rec->map, rec->map_size) : 0};
}

/* The one place a single candidate is run.  With log set the comparison
 * log is on for exactly this run (not for the minimization and
 * calibration of what it finds), so it still holds this run afterwards. */
static int run_one(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o, int log,
                   fz_run_way_t *way)
{
    fz_exec_t *x = &st->exec;
    fz_exec_rec_t rec;
    log = log && st->i2s.shm.log; /* no log (feedback off): a plain run */
    if (log)
        fz_cmplog_begin(&st->i2s.shm);
    fz_run_result_t res = fz_exec_run(x, buf, len, 0, &rec);
    if (way)
        *way = run_way(res, &rec);
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
void fz_run_flush(fz_state_t *st)
{
    fz_exec_t *x = &st->exec;
    uint32_t n = x->batch_n;
    for (uint32_t from = 0; from < n && !fz_run_should_stop(st);) {
        uint32_t k = n - from;
        if (st->cfg.max_execs && k > st->cfg.max_execs - fz_state_execs(st))
            k = (uint32_t)(st->cfg.max_execs - fz_state_execs(st));
        fz_exec_rec_t rec;
        uint32_t at, len;
        fz_exec_run_batch(x, from, k, &rec, &at);
        const uint8_t *buf = fz_exec_batch_is_request(x, at) ? st->hooks.request_ran(st, at, &len)
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

/* Queues buf in the batch (a request for the harness's mutator when
 * request is set) with its origin; runs what waits first when it does not
 * fit, and the batch once it is full. */
static void batch_add(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o,
                      int request)
{
    fz_exec_t *x = &st->exec;
    int (*add)(fz_exec_t *, const uint8_t *, uint32_t) =
        request ? fz_exec_batch_add_request : fz_exec_batch_add;
    if (add(x, buf, len) != 0) {
        fz_run_flush(st);
        if (add(x, buf, len) != 0)
            fz_die("a %u-byte %s does not fit in an empty batch", len,
                   request ? "request" : "input");
    }
    st->batch.origin[x->batch_n - 1] = *o;
    if (x->batch_n >= st->batch.size || x->batch_used >= FZ_BATCH_BYTES)
        fz_run_flush(st);
}

/* A candidate of a batched stage (havoc and the walks; not input-to-state,
 * whose next candidates depend on each run's log): queued when the target
 * takes batches, run at once otherwise. */
void fz_run_push(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o)
{
    fz_exec_t *x = &st->exec;
    if (x->post) {
        /* An AFL++ post_process may refuse the input (no run); batches
         * would save what it made of the input instead of the input. */
        if (!(st->hooks.post_refuses && st->hooks.post_refuses(st, buf, len)))
            run_one(st, buf, len, o, 0, NULL);
        return;
    }
    if (!x->batch) {
        run_one(st, buf, len, o, 0, NULL);
        return;
    }
    batch_add(st, buf, len, o, 0);
}

void fz_run_push_request(fz_state_t *st, const uint8_t *req, uint32_t len, const fz_origin_t *o)
{
    batch_add(st, req, len, o, 1);
}

int fz_run_one(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o)
{
    return run_one(st, buf, len, o, 0, NULL);
}

int fz_run_traced(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o, int log,
                  fz_run_way_t *way)
{
    return run_one(st, buf, len, o, log, way);
}
