/*
 * calibrate.c - several runs per input: mean exec time, the slots it hits,
 * and which slots vary between runs (those lower the stability figure); the
 * seed pass that builds the initial queue and picks the default timeout.
 */
#include "calibrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/coverage.h"
#include "fz-config.h"
#include "fz-fuzz/names.h"
#include "fz-fuzz/run-again.h"
#include "fz-fuzz/state.h"
#include "fz-fuzz/status.h"
#include "fz-log.h"

/* Slots whose classified value differs from the first run's become
 * variable; each is counted once in stats.var_bytes. */
static int mark_variable(fz_state_t *st, const uint8_t *now)
{
    fz_calib_maps_t *c = &st->calib;
    int changed = 0;
    for (uint32_t i = 0; i < st->exec.map_size; i += 8) {
        uint64_t a, b;
        memcpy(&a, now + i, 8);
        memcpy(&b, c->first + i, 8);
        if (a == b)
            continue;
        changed = 1;
        for (uint32_t k = i; k < i + 8; k++) {
            if (now[k] != c->first[k] && !c->var_map[k]) {
                c->var_map[k] = 1;
                st->stats.var_bytes++;
            }
        }
    }
    return changed;
}

uint64_t fz_calib_work(const uint8_t *map, uint32_t size)
{
    /* The smallest raw count of each bucket bit 1, 2, 4 ... 128. */
    static const uint8_t floor_of[8] = {1, 2, 3, 4, 8, 16, 32, 128};
    uint64_t w = 0;
    for (uint32_t i = 0; i < size; i += 8) {
        uint64_t word;
        memcpy(&word, map + i, 8);
        if (!word)
            continue;
        for (uint32_t k = i; k < i + 8; k++)
            if (map[k])
                w += floor_of[31 - __builtin_clz(map[k])];
    }
    return w;
}

static uint32_t list_edges(fz_state_t *st)
{
    fz_calib_maps_t *c = &st->calib;
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->exec.map_size; i += 8) {
        uint64_t w;
        memcpy(&w, c->first + i, 8);
        if (!w)
            continue;
        for (uint32_t k = i; k < i + 8; k++)
            if (c->first[k])
                c->edges[n++] = k;
    }
    return n;
}

/* The slot list (st->calib.edges), work and slowest time of an input
 * that exited normally, from its first run's map in st->calib.first. */
static void finish(fz_state_t *st, fz_calib_t *out)
{
    fz_exec_t *x = &st->exec;
    out->n_edges = x->blind ? 0 : list_edges(st);
    out->work = x->blind ? 0 : fz_calib_work(st->calib.first, x->map_size);
    if (out->max_us > st->stats.slowest_exec_us)
        st->stats.slowest_exec_us = out->max_us;
}

void fz_calibrate(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_origin_t *o,
                  const char *doing, fz_calib_t *out)
{
    fz_exec_t *x = &st->exec;
    uint64_t before = fz_exec_execs(x);
    memset(out, 0, sizeof(*out));
    uint64_t sum = 0;
    int runs = 0;
    for (int i = 0; i < FZ_CALIB_RUNS; i++) {
        /* A stop request (or -V running out) cuts calibration short: the
         * runs so far still give a time and a map, and a slow target must
         * not hold Ctrl-C or the time limit for FZ_CALIB_RUNS more runs.
         * Asked before each run, with the clock read after the last one
         * (the tick sets time_up), so -V is over at most one run late. */
        if (i > 0 && (*st->stop || st->ui.time_up))
            break;
        fz_exec_rec_t rec;
        fz_run_result_t r = fz_run_again(st, buf, len, 0, &rec, o, doing);
        if (i == 0)
            out->result = r;
        if (r != FZ_RUN_OK) {
            out->signal = rec.signal;
            out->result = r;
            break;
        }
        fz_status_tick(st);
        runs++;
        sum += rec.exec_us;
        if (rec.exec_us > out->max_us)
            out->max_us = rec.exec_us;
        if (!rec.map)
            continue; /* blind mode: time only */
        if (i == 0)
            memcpy(st->calib.first, rec.map, x->map_size);
        else if (mark_variable(st, rec.map))
            out->variable = 1;
    }
    out->exec_us = runs ? sum / runs : 0;
    if (out->result == FZ_RUN_OK)
        finish(st, out);
    st->stats.calib_execs += fz_exec_execs(x) - before;
}

void fz_calibrate_record(fz_state_t *st, const fz_exec_rec_t *rec, fz_calib_t *out)
{
    memset(out, 0, sizeof(*out));
    out->result = FZ_RUN_OK;
    out->exec_us = out->max_us = rec->exec_us;
    if (rec->map)
        memcpy(st->calib.first, rec->map, st->exec.map_size);
    finish(st, out);
}

/* Adds a calibrated seed to the queue under its AFL-style seed name (or its
 * own name when it already lives in queue/, on resume).  Nothing is written
 * here: fz_calibrate_save_seeds does that once every seed has passed. */
static void add_seed(fz_state_t *st, const fz_file_t *f, const fz_calib_t *c)
{
    char name[512];
    if (st->out.resumed)
        snprintf(name, sizeof(name), "%s", f->name);
    else
        fz_name_seed(name, sizeof(name), st->next_queue_id++, f->name);
    char *fname = strdup(name);
    if (!fname)
        fz_die("out of memory");
    fz_entry_t *e =
        fz_queue_add(&st->queue, fname, f->data, f->len, c->work, st->calib.edges, c->n_edges, 1);
    e->var_behavior = c->variable;
    e->exec_us = c->exec_us;
    if (!st->exec.blind)
        fz_exec_mark_seen(&st->exec, FZ_VIRGIN_QUEUE, st->calib.first);
}

void fz_calibrate_unsave_seeds(fz_state_t *st)
{
    for (uint32_t i = 0; i < st->queue.n && !st->out.resumed; i++)
        fz_outdir_remove(&st->out, "queue", st->queue.e[i]->fname);
}

int fz_calibrate_save_seeds(fz_state_t *st)
{
    if (st->out.resumed)
        return 0;
    for (uint32_t i = 0; i < st->queue.n; i++) {
        const fz_entry_t *e = st->queue.e[i];
        int rc = fz_outdir_try_save(&st->out, "queue", e->fname, e->data, e->len);
        if (rc) {
            for (uint32_t k = 0; k < i; k++)
                fz_outdir_remove(&st->out, "queue", st->queue.e[k]->fname);
            return rc;
        }
    }
    return 0;
}

/* 5x the slowest seed, rounded up, within the documented bounds (a
 * higher floor when runs, not time, bound the campaign). */
static uint32_t default_timeout(uint64_t slowest_us, int bounded_by_runs)
{
    uint64_t floor = bounded_by_runs ? FZ_TIMEOUT_MIN_RUNS_MS : FZ_TIMEOUT_MIN_MS;
    uint64_t ms = (slowest_us * 5 + 999) / 1000;
    ms = (ms + FZ_TIMEOUT_ROUND_MS - 1) / FZ_TIMEOUT_ROUND_MS * FZ_TIMEOUT_ROUND_MS;
    if (ms < floor)
        ms = floor;
    if (ms > FZ_TIMEOUT_MAX_MS)
        ms = FZ_TIMEOUT_MAX_MS;
    return (uint32_t)ms;
}

int fz_calibrate_seeds(fz_state_t *st, const fz_files_t *seeds)
{
    fz_maxlen_start(&st->len, st->cfg.max_len, seeds,
                    st->out.resumed ? "queue entry" : "seed");
    uint64_t slowest = 0;
    uint32_t crashed = 0;
    const char *first_crash = NULL;
    int first_sig = 0;
    for (uint32_t i = 0; i < seeds->n; i++) {
        if (*st->stop)
            return -1;
        if (st->ui.time_up && st->queue.n) {
            /* -V ran out: the seeds checked so far make the campaign (a
             * seed goes to queue/ only once it ran), and it ends soon. */
            fz_warn("-V ran out while the %s were checked: %u of %u made it into the queue",
                    st->out.resumed ? "queue entries" : "seeds", st->queue.n, seeds->n);
            break;
        }
        const fz_file_t *f = &seeds->f[i];
        if (!fz_maxlen_fits(&st->len, f->len)) {
            fz_warn("%s '%s' is %u bytes, over the maximum length %u (-l); skipping it",
                    st->out.resumed ? "queue entry" : "seed", f->name, f->len,
                    fz_maxlen_now(&st->len));
            continue;
        }
        fz_calib_t c;
        char doing[320];
        snprintf(doing, sizeof doing, "the check of %s '%s'",
                 st->out.resumed ? "queue entry" : "seed", f->name);
        fz_calibrate(st, f->data, f->len, NULL, doing, &c);
        /* FZ_RUN_ERROR: it made the target kill its forkserver (run-again.h): a
         * crashing seed, skipped like the others; a new forkserver runs. */
        int killed = c.result == FZ_RUN_ERROR;
        if (killed)
            c.result = FZ_RUN_CRASH;
        if (*st->stop)
            return -1; /* the result of an interrupted run means nothing */
        if (c.result == FZ_RUN_HANG)
            fz_die("seed '%s' makes the target hang (no exit within %u ms); remove it from the "
                   "seeds or raise -t",
                   f->name, st->exec.timeout_ms);
        if (c.result == FZ_RUN_CRASH) {
            if (st->cfg.mem_mb)
                fz_warn("seed '%s' crashes the target (signal %d) under the -m %llu MiB memory "
                        "limit; skipping it (if it needs more memory, raise -m; reproduce: "
                        "(ulimit -v %llu; run the target on it))",
                        f->name, c.signal, (unsigned long long)st->cfg.mem_mb,
                        (unsigned long long)st->cfg.mem_mb << 10);
            else
                fz_warn("%s '%s' %s the target (signal %d); skipping it (reproduce: run the "
                        "target on it by hand)",
                        st->out.resumed ? "queue entry" : "seed", f->name,
                        killed ? "kills the forkserver of" : "crashes", c.signal);
            if (!crashed++) {
                first_crash = f->name;
                first_sig = c.signal;
            }
            continue;
        }
        if (c.max_us > slowest)
            slowest = c.max_us;
        add_seed(st, f, &c);
    }
    if (!st->queue.n)
        fz_die(
            "every seed crashes the target (first: '%s', signal %d); the target may crash on "
            "any input: run it by hand on a seed, fix it, or start from inputs that do not crash",
            first_crash ? first_crash : "?", first_sig);
    if (!st->cfg.timeout_ms) {
        fz_exec_set_timeout(&st->exec, default_timeout(slowest, st->cfg.max_execs != 0));
    }
    if (st->queue.n_seen == 0 && !st->cfg.blind)
        fz_warn("no seed reached any instrumented code; is the target built with fz-cc, and "
                "does it read the input (@@ or stdin)?");
    return 0;
}
