/*
 * run.c - a run that lost the target (see run.h).
 */
#include "fz-fuzz/run.h"

#include <stdio.h>

#include "fz-fuzz/fuzz.h"
#include "fz-log.h"

fz_run_result_t fz_run_again(fz_state_t *st, const uint8_t *buf, uint32_t len, uint32_t timeout_ms,
                             fz_exec_rec_t *rec, const fz_origin_t *o, const char *doing)
{
    fz_run_result_t r = fz_exec_run(&st->exec, buf, len, timeout_ms, rec);
    if (r == FZ_RUN_ERROR)
        fz_run_broke(st, buf, len, rec->signal, o, doing);
    return r;
}

fz_run_result_t fz_run_again_polled(fz_state_t *st, const uint8_t *buf, uint32_t len,
                                    uint32_t timeout_ms, fz_exec_rec_t *rec, const fz_origin_t *o,
                                    const char *doing)
{
    fz_run_result_t r =
        fz_exec_run_polled(&st->exec, buf, len, timeout_ms, fz_fuzz_min_poll, st, rec);
    if (r == FZ_RUN_ERROR)
        fz_run_broke(st, buf, len, rec->signal, o, doing);
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
    fz_fuzz_name(st, name, sizeof(name), st->next_crash_id++, sig, o, 0);
    fz_outdir_save(&st->out, "crashes", name, buf, len);
    st->stats.saved_crashes++;
    st->stats.last_crash_ms = fz_now_ms();
    fz_die("%s, during %s; the input is saved as %s/crashes/%s", why, doing, st->out.dir, name);
}
