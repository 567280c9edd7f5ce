/*
 * triage.c - deciding which crashing and hanging inputs are worth a file,
 * minimizing crashes, and the README in crashes/ that says how to reproduce
 * them.  See triage.h for the uniqueness rule.
 */
#include "fz-fuzz/crashinfo.h"
#include "triage.h"

#include <stdio.h>
#include <string.h>

#include "core/coverage.h"
#include "fz-fuzz/fuzz.h"
#include "core/minimize.h"
#include "fz-log.h"

/* The target command with each @@ replaced by repl (or, without @@, with
 * "< repl" appended when repl is given). */
static void target_cmd(const fz_state_t *st, const char *repl, char *out, size_t n)
{
    size_t used = 0;
    int has_at = 0;
    out[0] = 0;
    for (int i = 0; i < st->cfg.target_argc && used + 1 < n; i++) {
        const char *a = st->cfg.target_argv[i];
        int at = repl && strcmp(a, "@@") == 0;
        has_at |= at;
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? " " : "", at ? repl : a);
    }
    if (repl && !has_at && used + 1 < n)
        snprintf(out + used, n - used, " < %s", repl);
}

static void write_readme(fz_state_t *st)
{
    char text[4096], by_hand[1024], raw[1024], limited[1200];
    target_cmd(st, "CRASH_FILE", by_hand, sizeof(by_hand));
    target_cmd(st, NULL, raw, sizeof(raw));
    if (st->cfg.mem_mb) {
        /* Under -m a crash can be the memory limit itself (a failed
         * malloc): by hand it only reproduces with the same limit. */
        snprintf(limited, sizeof(limited), "(ulimit -v %llu; %s)",
                 (unsigned long long)st->cfg.mem_mb << 10, by_hand);
        snprintf(by_hand, sizeof(by_hand), "%.1000s", limited);
    }
    int n = snprintf(text, sizeof(text),
                     "Crashes found by fz-fuzz for:\n\n    %s\n\n"
                     "Each file here made the target die of a signal (the sig:NN part of its\n"
                     "name) and was minimized while it kept crashing with that signal.  To\n"
                     "reproduce one, run the target on it by hand:\n\n    %s\n\n"
                     "To re-check them all at once (e.g. in CI after a fix):\n\n"
                     "    fz-fuzz --replay %s/crashes -- %s\n\n"
                     "which exits 3 while any of them still crashes.  The other parts of a\n"
                     "name: src: the queue entry it was mutated from, time: ms since the start,\n"
                     "execs: target runs so far, op: the mutation stage.\n\n"
                     "A crash that did not happen again when fz-fuzz reran it (flaky: timing,\n"
                     "state kept between runs, uninitialized memory) is saved as found, not\n"
                     "minimized; fuzzer_stats counts them in flaky_crashes.  It may take\n"
                     "several runs by hand to reproduce.\n",
                     st->command_line ? st->command_line : raw, by_hand, st->out.dir, raw);
    if (n >= (int)sizeof(text))
        n = sizeof(text) - 1;
    fz_outdir_save(&st->out, "crashes", "README.txt", text, (size_t)n);
}

int fz_triage_crash(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                    const fz_origin_t *o)
{
    fz_exec_t *x = &st->exec;
    int sig = rec->signal;
    st->stats.total_crashes++;
    st->stats.execs_at_last_crash = st->stats.prev_execs + fz_state_execs(st);
    if (!rec->new_bits || !fz_exec_commit(x, rec, NULL))
        return 0;

    fz_min_cfg_t mc = {.mode = FZ_MIN_CRASH,
                       .crash_signal = sig,
                       .max_execs = FZ_CRASH_MIN_EXECS,
                       .poll = fz_fuzz_min_poll,
                       .poll_ctx = st};
    fz_min_stats_t ms = {0};
    size_t out_len = len;
    const uint8_t *save = buf;
    fz_min_result_t r = fz_minimize(x, &mc, buf, len, st->min_buf, &out_len, &ms);
    st->stats.min_execs += ms.execs;
    if (r == FZ_MIN_ERROR)
        fz_die("the target stopped answering while minimizing a crash: %s", fz_exec_errmsg(x));
    if (r == FZ_MIN_OK) {
        save = st->min_buf;
    } else {
        /* It did not crash again when rerun: a flaky crash (timing, state
         * kept across runs, uninitialized memory).  As afl-fuzz does, save
         * the exact bytes that crashed, unminimized, and say so: it may
         * take several runs by hand to reproduce. */
        out_len = len;
        st->stats.flaky_crashes++;
        fz_warn("a crash (signal %d) did not happen again when rerun; saved unminimized as "
                "crashes/id:%06u (flaky: it may need several runs to reproduce)",
                sig, st->next_crash_id);
    }

    char name[256];
    fz_fuzz_name(st, name, sizeof(name), st->next_crash_id++, sig, o, 0);
    if (!st->stats.saved_crashes)
        write_readme(st);
    fz_outdir_save(&st->out, "crashes", name, save, out_len);
    fz_crashinfo_artifact(&st->cfg, "crash", save, out_len); /* --artifact-prefix */
    st->stats.saved_crashes++;
    st->stats.last_crash_ms = fz_now_ms();
    return 1;
}

/* A run can time out only because the machine was busy for a moment, so a
 * new hang is run once more with the longer hang timeout (as afl-fuzz
 * does) before it is saved.  Returns that run's record, or rec itself
 * without a run when the timeout in force is already that long. */
static fz_run_result_t confirm_hang(fz_state_t *st, const uint8_t *buf, uint32_t len,
                                    const fz_exec_rec_t *rec, fz_exec_rec_t *again)
{
    uint32_t hang_ms = st->cfg.hang_ms ? st->cfg.hang_ms : FZ_HANG_CONFIRM_MS;
    *again = *rec;
    if (rec->timeout_ms >= hang_ms)
        return FZ_RUN_HANG;
    fz_run_result_t r = fz_exec_run(&st->exec, buf, len, hang_ms, again);
    if (r == FZ_RUN_ERROR)
        fz_die("the target stopped answering while confirming a hang: %s",
               fz_exec_errmsg(&st->exec));
    return r;
}

int fz_triage_hang(fz_state_t *st, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                   const fz_origin_t *o)
{
    st->stats.total_hangs++;
    if (!rec->new_bits || !fz_exec_commit(&st->exec, rec, NULL))
        return 0;
    fz_exec_rec_t again;
    switch (confirm_hang(st, buf, len, rec, &again)) {
    case FZ_RUN_HANG:
        break;
    case FZ_RUN_CRASH: /* slow on the way to a crash */
        return fz_triage_crash(st, buf, len, &again, o);
    default: /* finished given more time: slow, not hung */
        return 0;
    }
    char name[256];
    fz_fuzz_name(st, name, sizeof(name), st->next_hang_id++, 0, o, 0);
    fz_outdir_save(&st->out, "hangs", name, buf, len);
    fz_crashinfo_artifact(&st->cfg, "timeout", buf, len); /* --artifact-prefix */
    st->stats.saved_hangs++;
    st->stats.last_hang_ms = fz_now_ms();
    return 1;
}
