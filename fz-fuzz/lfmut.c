/*
 * lfmut.c - candidates for a libFuzzer harness's own mutator (lfmut.h).
 *
 * A request is the entry to mutate plus a seed drawn from fz-fuzz's
 * generator, so -s and -E reproduce the campaign even though the
 * mutation itself happens in the harness.  What the harness ran comes
 * back through the test-case segment and is what the queue, crashes/ and
 * hangs/ keep, so every saved file runs as it ran.
 */
#include "fz-fuzz/lfmut.h"

#include <stdlib.h>
#include <string.h>

#include "core/opts.h"
#include "fz-config.h"
#include "fz-fuzz/run.h"
#include "fz-fuzz/jobs.h"
#include "fz-fuzz/state.h"
#include "fz-log.h"

/* The harness's mutator in use (st->lfmut; NULL: none). */
struct fz_lfmut {
    uint32_t kinds; /* FZ_FS_NEW_OPT_FZ_CUSTOM / _XOVER in use */
    uint8_t *req;   /* FZ_MAX_INPUT: the request being built */
    uint8_t *ran;   /* FZ_MAX_INPUT: the bytes a request ran, as judged */
};

void fz_lfmut_setup(fz_state_t *st)
{
    uint32_t offered = fz_exec_info(&st->exec).custom;
    if (!offered)
        return;
    if (fz_env_flag("FZ_NO_CUSTOM", NULL)) {
        fz_info("FZ_NO_CUSTOM=1: the harness's custom mutator is not used");
        return;
    }
    if (!st->exec.batch) {
        fz_warn("the harness defines a custom mutator, but it runs only in batches, which are "
                "off (FZ_NO_BATCH=1 or FZ_NO_DIRECT=1): fz's own mutations are used instead");
        return;
    }
    struct fz_lfmut *m = calloc(1, sizeof *m);
    if (!m || !(m->req = malloc(FZ_MAX_INPUT)) || !(m->ran = malloc(FZ_MAX_INPUT)))
        fz_die("out of memory");
    m->kinds = offered;
    st->lfmut = m;
    fz_info("the harness defines %s%s%s: %s",
            offered & FZ_FS_NEW_OPT_FZ_CUSTOM ? "LLVMFuzzerCustomMutator" : "",
            offered == (FZ_FS_NEW_OPT_FZ_CUSTOM | FZ_FS_NEW_OPT_FZ_XOVER) ? " and " : "",
            offered & FZ_FS_NEW_OPT_FZ_XOVER ? "LLVMFuzzerCustomCrossOver" : "",
            offered & FZ_FS_NEW_OPT_FZ_CUSTOM ? "it makes every candidate (FZ_NO_CUSTOM=1: fz's own)"
                                              : "it takes a share of havoc's candidates");
}

int fz_lfmut_owns(const fz_state_t *st)
{
    return st->lfmut && (st->lfmut->kinds & FZ_FS_NEW_OPT_FZ_CUSTOM) != 0;
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, sizeof v);
}

/* Builds and queues one request: e's bytes, and a partner for a crossover. */
static void request(fz_state_t *st, fz_entry_t *e, const fz_entry_t *partner)
{
    uint8_t *r = st->lfmut->req;
    uint32_t room = FZ_MAX_INPUT - FZ_CUSTOM_HDR;
    uint32_t n = e->len < room ? e->len : room;
    uint32_t m = partner ? (partner->len < room - n ? partner->len : room - n) : 0;
    put32(r, (uint32_t)fz_rng_next(&st->rng));
    put32(r + 4, fz_maxlen_now(&st->len));
    put32(r + 8, n);
    memcpy(r + FZ_CUSTOM_HDR, e->data, n);
    if (m)
        memcpy(r + FZ_CUSTOM_HDR + n, partner->data, m);
    fz_origin_t o = {.op = partner ? "custom_xover" : "custom", .src = e->id};
    fz_run_push_request(st, r, FZ_CUSTOM_HDR + n + m, &o);
}

/* A partner other than e, or NULL when the queue has one entry. */
static const fz_entry_t *pick_partner(fz_state_t *st, const fz_entry_t *e)
{
    if (st->queue.n < 2)
        return NULL;
    uint32_t other = fz_rng_below(&st->rng, st->queue.n - 1);
    return st->queue.e[other >= e->id ? other + 1 : other];
}

void fz_lfmut_stage(fz_state_t *st, fz_entry_t *e)
{
    uint32_t rounds = fz_queue_energy(&st->queue, e);
    int xover = (st->lfmut->kinds & FZ_FS_NEW_OPT_FZ_XOVER) != 0;
    for (uint32_t i = 0; i < rounds && !fz_run_should_stop(st) && !fz_jobs_pending(st); i++) {
        /* libFuzzer picks uniformly among its mutators: here the custom
         * mutator and, when defined, the custom crossover. */
        const fz_entry_t *p = xover && fz_rng_below(&st->rng, 2) ? pick_partner(st, e) : NULL;
        request(st, e, p);
    }
    fz_run_flush(st);
}

int fz_lfmut_maybe_xover(fz_state_t *st, fz_entry_t *e)
{
    if (!st->lfmut || !(st->lfmut->kinds & FZ_FS_NEW_OPT_FZ_XOVER) || st->queue.n < 2 ||
        !fz_rng_one_in(&st->rng, FZ_LF_XOVER_ONE_IN))
        return 0;
    request(st, e, pick_partner(st, e));
    return 1;
}

const uint8_t *fz_lfmut_ran(fz_state_t *st, uint32_t at, uint32_t *len)
{
    uint32_t n;
    const uint8_t *p = fz_exec_ran_input(&st->exec, &n);
    if (!p) {
        /* The harness's mutator died before it wrote an input: keep the
         * base input, the closest thing to what it was given. */
        uint32_t rl, base = 0;
        const uint8_t *r = fz_exec_batch_input(&st->exec, at, &rl);
        if (rl >= FZ_CUSTOM_HDR)
            memcpy(&base, r + 8, sizeof base);
        if (base > rl - FZ_CUSTOM_HDR || rl < FZ_CUSTOM_HDR)
            base = 0;
        p = r + FZ_CUSTOM_HDR;
        n = base;
    }
    memcpy(st->lfmut->ran, p, n);
    *len = n;
    return st->lfmut->ran;
}
