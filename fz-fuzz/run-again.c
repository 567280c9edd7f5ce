/*
 * run-again.c - the re-runs of inputs fz-fuzz holds, with what a lost
 * forkserver means, the stop test and the names of finds (run-again.h).
 * No decision here reads the clock (only -V's stop test does, through the
 * status screen's tick).
 */
#include "fz-fuzz/run-again.h"

#include <stdio.h>

#include "fz-fuzz/state.h"
#include "fz-fuzz/status.h"
#include "fz-log.h"

int fz_run_found_crash(const fz_state_t *st)
{
    return st->cfg.until_crash && st->stats.saved_crashes > st->stats.crashes_at_start;
}

int fz_run_should_stop(fz_state_t *st)
{
    if (*st->stop || fz_run_found_crash(st))
        return 1;
    if (st->cfg.max_execs && fz_state_execs(st) >= st->cfg.max_execs)
        return 1;
    return st->ui.time_up; /* -V, set by fz_status_tick when it reads the clock */
}

int fz_run_poll(void *ctx)
{
    fz_state_t *st = ctx;
    fz_status_tick(st);
    /* Only a signal or -V cut a minimization short: -E budgets keep their
     * exact, reproducible overshoot (the minimizer's own budget bounds it). */
    return *st->stop || st->ui.time_up;
}

int fz_run_name(const fz_state_t *st, char *buf, size_t n, uint32_t id, int sig,
                const fz_origin_t *o, int new_edge)
{
    fz_origin_t named = *o;
    if (!o->peer && !o->no_parent)
        named.src = st->queue.e[o->src]->file_id; /* names carry the parent's file id */
    /* A resumed campaign's names go on from its earlier runs' totals. */
    return fz_name_find(buf, n, id, sig, &named,
                        st->stats.prev_run_time * 1000 + fz_now_ms() - st->stats.start_ms,
                        st->stats.prev_execs + fz_state_execs(st), new_edge);
}

/* Every re-run of an input fz-fuzz holds: the plain one, or the polled
 * one for a long timeout. */
static fz_run_result_t rerun(fz_state_t *st, const uint8_t *buf, uint32_t len, uint32_t timeout_ms,
                             int polled, fz_exec_rec_t *rec)
{
    if (polled)
        return fz_exec_run_polled(&st->exec, buf, len, timeout_ms, fz_run_poll, st, rec);
    return fz_exec_run(&st->exec, buf, len, timeout_ms, rec);
}

/* A new forkserver after an input that is saved already killed the old
 * one; the run cannot go on without it. */
static void restart(fz_exec_t *x)
{
    char err[512];
    if (fz_exec_restart(x, err, sizeof err))
        fz_die("%s", err);
}

/* What a re-run that lost the target means (run-again.h): a find not saved yet
 * (o) is saved by fz_run_broke, which ends the run; an input saved
 * already that killed the forkserver crashes, and a new forkserver goes
 * on. */
static fz_run_result_t decide(fz_state_t *st, const uint8_t *buf, uint32_t len, fz_exec_rec_t *rec,
                              const fz_origin_t *o, const char *doing)
{
    if (o || !rec->signal)
        fz_run_broke(st, buf, len, rec->signal, o, doing);
    restart(&st->exec);
    return FZ_RUN_ERROR;
}

fz_run_result_t fz_run_again(fz_state_t *st, const uint8_t *buf, uint32_t len, uint32_t timeout_ms,
                             fz_exec_rec_t *rec, const fz_origin_t *o, const char *doing)
{
    fz_run_result_t r = rerun(st, buf, len, timeout_ms, 0, rec);
    return r == FZ_RUN_ERROR ? decide(st, buf, len, rec, o, doing) : r;
}

fz_run_result_t fz_run_again_polled(fz_state_t *st, const uint8_t *buf, uint32_t len,
                                    uint32_t timeout_ms, fz_exec_rec_t *rec, const fz_origin_t *o,
                                    const char *doing)
{
    fz_run_result_t r = rerun(st, buf, len, timeout_ms, 1, rec);
    return r == FZ_RUN_ERROR ? decide(st, buf, len, rec, o, doing) : r;
}

fz_run_result_t fz_run_again_deferred(fz_state_t *st, const uint8_t *buf, uint32_t len,
                                      fz_exec_rec_t *rec, fz_run_death_t *death)
{
    fz_run_result_t r = rerun(st, buf, len, 0, 0, rec);
    if (r == FZ_RUN_ERROR && !death->buf)
        *death = (fz_run_death_t){.buf = buf, .len = len, .sig = rec->signal};
    return r;
}

void fz_run_end(fz_state_t *st, const fz_run_death_t *death, const fz_origin_t *o,
                const char *doing)
{
    fz_run_broke(st, death->buf, death->len, death->sig, o, doing);
}

fz_run_result_t fz_run_kept(fz_exec_t *x, const uint8_t *buf, uint32_t len, uint32_t timeout_ms,
                            fz_exec_rec_t *rec)
{
    fz_run_result_t r = fz_exec_run(x, buf, len, timeout_ms, rec);
    if (r == FZ_RUN_ERROR && rec->signal)
        restart(x);
    return r;
}

void fz_run_broke(fz_state_t *st, const uint8_t *buf, uint32_t len, int sig, const fz_origin_t *o,
                  const char *doing)
{
    char why[FZ_FSRV_ERRLEN];
    snprintf(why, sizeof why, "%s", fz_exec_errmsg(&st->exec));
    if (!sig)
        fz_die("the target stopped answering during %s: %s", doing, why);
    if (!o)
        fz_die("%s, during %s; that input is kept where it was", why, doing);
    /* A persistent target may have been killed by the input before. */
    buf = fz_exec_find_killer(&st->exec, buf, len, &len);
    char name[256];
    fz_run_name(st, name, sizeof(name), st->next_crash_id++, sig, o, 0);
    fz_outdir_save(&st->out, "crashes", name, buf, len);
    st->stats.saved_crashes++;
    st->stats.last_crash_ms = fz_now_ms();
    fz_die("%s, during %s; the input is saved as %s/crashes/%s", why, doing, st->out.dir, name);
}
