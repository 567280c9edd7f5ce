/*
 * minimize.c - the minimization driver (see minimize.h).  The reduction
 * strategy lives in mutators/reduce.h; this file only runs its candidates
 * and judges them, so the strategy stays a pure, testable iterator.
 */
#include "core/minimize.h"

#include <string.h>

#include "core/coverage.h"
#include "mutators/reduce.h"

/* Extra runs of the final result when it fails its last check: one miss
 * on a flaky target should not throw away a good reduction. */
#define FINAL_RETRIES 3

/* Runs buf once: 1 if it has the property, 0 if not, -1 on fsrv error. */
static int check(fz_exec_t *x, const fz_min_cfg_t *cfg, const uint8_t *buf, size_t len,
                 fz_min_stats_t *st)
{
    fz_exec_rec_t rec;
    fz_run_result_t r = fz_exec_run(x, buf, len, 0, &rec);
    st->execs++;
    if (r == FZ_RUN_ERROR) {
        st->error_signal = rec.signal;
        return -1;
    }
    if (cfg->poll && cfg->poll(cfg->poll_ctx))
        st->stopped = 1;
    int ok;
    if (cfg->mode == FZ_MIN_CRASH)
        ok = r == FZ_RUN_CRASH && (!cfg->crash_signal || rec.signal == cfg->crash_signal);
    else
        ok = r == FZ_RUN_OK && rec.map && fz_cov_covers(rec.map, cfg->want_bits, rec.map_size);
    return ok && (!cfg->accept || cfg->accept(cfg->accept_ctx, &rec));
}

/* Confirms the final candidate, allowing a flaky target a few misses. */
static int confirm(fz_exec_t *x, const fz_min_cfg_t *cfg, const uint8_t *buf, size_t len,
                   fz_min_stats_t *st)
{
    for (int i = 0; i < FINAL_RETRIES; i++) {
        int ok = check(x, cfg, buf, len, st);
        if (ok)
            return ok;
        st->flaky = 1;
    }
    return 0;
}

fz_min_result_t fz_minimize(fz_exec_t *x, const fz_min_cfg_t *cfg, const uint8_t *in, size_t len,
                            uint8_t *out, size_t *out_len, fz_min_stats_t *stats)
{
    fz_min_stats_t st;
    memset(&st, 0, sizeof st);
    st.in_len = st.out_len = len;
    memcpy(out, in, len);
    *out_len = len;
    fz_min_result_t res = FZ_MIN_OK;

    int ok = check(x, cfg, in, len, &st);
    if (ok <= 0) {
        res = ok < 0 ? FZ_MIN_ERROR : FZ_MIN_NOT_REPRODUCED;
        goto done; /* out holds in: on an error, the input that broke it */
    }
    /* The first run counts against the budget too. */
    uint64_t budget = cfg->max_execs ? (cfg->max_execs > 1 ? cfg->max_execs - 1 : 1) : 0;
    fz_reduce_t r;
    if (len == 0 || fz_reduce_init(&r, in, len, budget))
        goto done;
    r.remove_only = cfg->remove_only;
    size_t cand_len;
    while (fz_reduce_next(&r, out, &cand_len)) {
        ok = check(x, cfg, out, cand_len, &st);
        if (ok < 0) {
            /* out holds the candidate whose run lost the target: the
             * caller saves it (it may have made the target kill its
             * forkserver). */
            *out_len = st.out_len = cand_len;
            fz_reduce_free(&r);
            res = FZ_MIN_ERROR;
            goto done;
        }
        fz_reduce_result(&r, ok);
        if (st.stopped)
            break;
    }
    st.hit_budget = cfg->max_execs && st.execs >= cfg->max_execs;
    size_t best_len;
    const uint8_t *best = fz_reduce_best(&r, &best_len);
    /* A stop request skips the confirmation runs: best did show the
     * property once, and the user is waiting. */
    int confirmed = best_len < len && !st.stopped ? confirm(x, cfg, best, best_len, &st) : 1;
    if (confirmed < 0)
        res = FZ_MIN_ERROR; /* out gets best, the input whose run broke it */
    else if (!confirmed) {
        /* The reduced input stopped showing the property: fall back to
         * the original, the one input we saw with it at the start. */
        best = in;
        best_len = len;
    }
    memcpy(out, best, best_len);
    *out_len = best_len;
    st.out_len = best_len;
    fz_reduce_free(&r);
done:
    if (stats)
        *stats = st;
    return res;
}
