/*
 * triage.c - deciding which crashing and hanging inputs are worth a file,
 * minimizing crashes, and the README in crashes/ that says how to reproduce
 * them.  See triage.h for the uniqueness rule.
 */
#include "triage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/coverage.h"
#include "fz-fuzz/crashinfo.h"
#include "core/minimize.h"
#include "fz-fuzz/run-again.h"
#include "fz-log.h"

/* Target runs so far (fuzzing, calibration, minimization). */
static uint64_t execs_so_far(const fz_triage_t *t)
{
    return fz_exec_execs(t->x);
}

/* The target command with each @@ replaced by repl (or, without @@, with
 * "< repl" appended when repl is given). */
static void target_cmd(const fz_triage_t *t, const char *repl, char *out, size_t n)
{
    size_t used = 0;
    int has_at = 0;
    out[0] = 0;
    for (int i = 0; i < t->cfg->target_argc && used + 1 < n; i++) {
        const char *a = t->cfg->target_argv[i];
        int at = repl && strcmp(a, "@@") == 0;
        has_at |= at;
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? " " : "", at ? repl : a);
    }
    if (repl && !has_at && used + 1 < n)
        snprintf(out + used, n - used, " < %s", repl);
}

/* The command that reproduces one crash file by hand (path: the file, or
 * a placeholder), under -m with the same memory limit: there a crash can
 * be the limit itself (a failed malloc). */
static void repro_cmd(const fz_triage_t *t, const char *path, char *out, size_t n)
{
    char cmd[1024];
    target_cmd(t, path, cmd, sizeof(cmd));
    if (t->cfg->mem_mb)
        snprintf(out, n, "(ulimit -v %llu; %s)", (unsigned long long)t->cfg->mem_mb << 10, cmd);
    else
        snprintf(out, n, "%s", cmd);
}

/* crashes/README.txt: how to reproduce, and one line per crash site with
 * the file that reproduces it.  Rewritten (atomically) after every saved
 * crash, so it always lists every site. */
static void write_readme(fz_triage_t *t)
{
    char by_hand[1200], raw[1024], mem[32] = "";
    repro_cmd(t, "CRASH_FILE", by_hand, sizeof(by_hand));
    target_cmd(t, NULL, raw, sizeof(raw));
    /* A crash that needs -m (a failed malloc under the limit) replays as
     * "ok" without it. */
    if (t->cfg->mem_mb)
        snprintf(mem, sizeof(mem), "-m %llu ", (unsigned long long)t->cfg->mem_mb);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        fz_die("out of memory writing crashes/README.txt");
    fprintf(f,
            "Crashes found by fz-fuzz for:\n\n    %s\n\n"
            "Each file here made the target die of a signal (the sig:NN part of its\n"
            "name).  fz-fuzz tells crashes apart by their crash site: where the\n"
            "program faulted (or called abort) and the two calls that led there,\n"
            "taken from the stack by the fz runtime (or from the ASan / UBSan\n"
            "report).  One file is kept per site, minimized while it still crashed\n"
            "at that same site; a crash at a site already seen is not saved again,\n"
            "however new its coverage.  A target without the fz runtime (built by\n"
            "afl-cc, or catching its own crashes) gives no site; then a crash is\n"
            "new when its coverage is.  To reproduce one, run the target on it by\n"
            "hand:\n\n    %s\n\n"
            "To re-check them all at once (e.g. in CI after a fix):\n\n"
            "    fz-fuzz --replay %s/crashes %s-- %s\n\n"
            "which exits 3 while any of them still crashes.  The other parts of a\n"
            "name: src: the queue entry it was mutated from, time: ms since the start,\n"
            "execs: target runs so far, op: the mutation stage.\n\n"
            "A crash that did not happen again when fz-fuzz reran it (flaky: timing,\n"
            "state kept between runs, uninitialized memory) is saved as found, not\n"
            "minimized; fuzzer_stats counts them in flaky_crashes.  One that crashed\n"
            "again but at another site is saved once, under its first site, and\n"
            "counted in flaky_crash_sites.  It may take several runs by hand to\n"
            "reproduce.\n",
            t->command_line ? t->command_line : raw, by_hand, t->out->dir, mem, raw);
    if (t->sites->n)
        fprintf(f, "\nCrash sites (%u):\n", fz_sites_count(t->sites));
    for (uint32_t i = 0; i < t->sites->n; i++) {
        const fz_site_rec_t *r = &t->sites->v[i];
        char where[256];
        fz_sites_describe(r, where, sizeof where);
        fprintf(f, "\n  %016llx %s%s\n    %s\n", (unsigned long long)r->where.hash, where,
                r->alias_of ? " (the same flaky crash as above)" : r->flaky ? " (flaky site)" : "",
                r->file ? r->file : "(no file)");
    }
    fclose(f);
    fz_outdir_save(t->out, "crashes", "README.txt", text, len);
    free(text);
}

/* Single-quotes s for a shell when it holds anything but [A-Za-z0-9_./:,+=-]. */
static void shell_quote(const char *s, char *out, size_t n)
{
    if (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,+=-") ==
        strlen(s)) {
        snprintf(out, n, "%s", s);
        return;
    }
    size_t o = 0;
    if (o + 1 < n)
        out[o++] = '\'';
    for (; *s && o + 5 < n; s++) {
        if (*s == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *s;
        }
    }
    if (o + 1 < n)
        out[o++] = '\'';
    out[o] = 0;
}

/* The sites fz_triage_summary lists. */
static int summarized(const fz_site_rec_t *r)
{
    return r->this_run && !r->alias_of && r->file;
}

int fz_triage_summarized(void *ctx, const char *name)
{
    const fz_triage_t *t = ctx;
    for (uint32_t i = 0; i < t->sites->n; i++)
        if (summarized(&t->sites->v[i]) && strcmp(t->sites->v[i].file, name) == 0)
            return 1;
    return 0;
}

void fz_triage_summary(const fz_triage_t *t, uint32_t max_reports)
{
    uint32_t n = fz_sites_new(t->sites), shown = 0;
    if (!n)
        return;
    printf("fz-fuzz: %u new crash site%s; to reproduce each:\n", n, n == 1 ? "" : "s");
    for (uint32_t i = 0; i < t->sites->n; i++) {
        const fz_site_rec_t *r = &t->sites->v[i];
        if (!summarized(r))
            continue;
        char where[256], path[4096], quoted[4200], cmd[4400];
        fz_sites_describe(r, where, sizeof where);
        snprintf(path, sizeof path, "%s/crashes/%s", t->out->dir, r->file);
        shell_quote(path, quoted, sizeof quoted);
        repro_cmd(t, quoted, cmd, sizeof cmd);
        printf("  %s%s:\n    %s\n", where, r->flaky ? " (flaky site)" : "", cmd);
        if (shown++ < max_reports)
            fz_crashinfo_print(t->cfg, path);
    }
}

/* What the minimizer's runs showed, for the crash being minimized. */
typedef struct {
    const fz_exec_t *x;
    uint64_t want;     /* the site to keep */
    fz_site_t other;   /* a different site one of its runs crashed at */
    int other_sig;
    /* A run that lost the target (fz-fuzz/run-again.h): its input (in
     * t->min_buf) and signal.  The crash is saved first, as found. */
    fz_run_death_t death;
} site_watch_t;

/* Minimizing keeps the bug, not just "a crash": a candidate counts only if
 * it crashes at the same site.  A crash elsewhere is remembered: if the
 * input itself does that, its site is flaky. */
static int same_site(void *ctx, const fz_exec_rec_t *rec)
{
    site_watch_t *w = ctx;
    if (rec->site == w->want)
        return 1;
    if (rec->site && !w->other.hash) {
        w->other = *rec->where;
        w->other_sig = rec->signal;
    }
    return 0;
}

/* A site that moves shows it only now and then, so before a new site is
 * saved its input runs a few more times; the minimizer's own runs cannot
 * tell (their other sites belong to other inputs, maybe other bugs).
 * Returns 1, with *flaky = 2 and w->other set, if a run crashed elsewhere. */
static int recheck_site(fz_triage_t *t, const fz_exec_rec_t *rec, site_watch_t *w, size_t len,
                        int *flaky)
{
    if (!rec->site)
        return 0;
    for (int i = 0; i < FZ_SITE_RECHECKS; i++) {
        fz_exec_rec_t again;
        fz_run_result_t r =
            fz_run_again_deferred(t->st, t->min_buf, (uint32_t)len, &again, &w->death);
        t->stats->min_execs++;
        if (r == FZ_RUN_ERROR)
            return 0;
        if (r == FZ_RUN_CRASH && again.site && again.site != rec->site) {
            w->other = *again.where;
            w->other_sig = again.signal;
            *flaky = 2;
            return 1;
        }
    }
    return 0;
}

/* Minimizes a new crash; returns the input to save (buf itself when it did
 * not reproduce) and sets *flaky: 1 no crash on the rerun, 2 a crash at
 * another site. */
static const uint8_t *minimize_crash(fz_triage_t *t, const uint8_t *buf, uint32_t len,
                                     const fz_exec_rec_t *rec, site_watch_t *w, size_t *out_len,
                                     int *flaky)
{
    fz_min_cfg_t mc = {.mode = FZ_MIN_CRASH,
                       .crash_signal = rec->signal,
                       .max_execs = FZ_CRASH_MIN_EXECS,
                       .poll = fz_run_poll,
                       .poll_ctx = t->st};
    if (rec->site) {
        mc.crash_signal = 0; /* the site's hash includes the signal */
        mc.accept = same_site;
        mc.accept_ctx = w;
    }
    fz_min_stats_t ms = {0};
    *out_len = len;
    *flaky = 0;
    fz_min_result_t r = fz_minimize(t->x, &mc, buf, len, t->min_buf, out_len, &ms);
    t->stats->min_execs += ms.execs;
    if (r == FZ_MIN_ERROR) {
        /* A smaller candidate (or the input itself, run again) lost the
         * target: the crash is saved as found, then that candidate. */
        w->death = (fz_run_death_t){t->min_buf, (uint32_t)*out_len, ms.error_signal};
        *out_len = len;
        return buf;
    }
    if (r == FZ_MIN_OK) {
        recheck_site(t, rec, w, *out_len, flaky);
        return t->min_buf;
    }
    /* As afl-fuzz does, save the exact bytes that crashed, unminimized:
     * it may take several runs by hand to reproduce. */
    *out_len = len;
    *flaky = w->other.hash ? 2 : 1;
    return buf;
}

int fz_triage_crash(fz_triage_t *t, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                    const fz_origin_t *o)
{
    fz_exec_t *x = t->x;
    int sig = rec->signal;
    t->stats->total_crashes++;
    t->stats->execs_at_last_crash = t->stats->prev_execs + execs_so_far(t);
    if (rec->site) {
        /* A known site is a known bug, however new its coverage. */
        if (fz_sites_find(t->sites, rec->site))
            return 0;
        fz_exec_commit(x, rec, NULL);
    } else if (!rec->new_bits || !fz_exec_commit(x, rec, NULL)) {
        return 0; /* no site (no fz runtime, the program's own handler): coverage decides */
    }

    site_watch_t w = {.x = x, .want = rec->site};
    fz_site_t where = *rec->where;
    size_t out_len;
    int flaky;
    const uint8_t *save = minimize_crash(t, buf, len, rec, &w, &out_len, &flaky);

    fz_site_rec_t *known = flaky == 2 ? fz_sites_find(t->sites, w.other.hash) : NULL;
    if (known) {
        /* Rerun, it crashed at a site already saved: the same bug, whose
         * site moves.  Not saved again; this site maps to that file. */
        uint32_t to = known->alias_of ? known->alias_of : (uint32_t)(known - t->sites->v) + 1;
        const char *file = known->file;
        fz_site_rec_t *alias = fz_sites_add(t->sites, &where, sig, file, 1);
        alias->flaky = 1;
        alias->alias_of = to;
        t->sites->v[to - 1].flaky = 1;
        t->sites->flaky++;
        fz_warn("a crash moved to another site when rerun (flaky site): the same crash as "
                "crashes/%s, not saved again", t->sites->v[to - 1].file);
        write_readme(t);
        return 0;
    }

    char name[256];
    fz_run_name(t->st, name, sizeof(name), *t->next_crash_id, sig, o, 0);
    if (flaky == 1) {
        /* It did not crash again when rerun: timing, state kept across
         * runs, uninitialized memory. */
        t->stats->flaky_crashes++;
        fz_warn("a crash (signal %d) did not happen again when rerun; saved unminimized as "
                "crashes/id:%06u (flaky: it may need several runs to reproduce)",
                sig, *t->next_crash_id);
    }
    if (rec->site) {
        fz_site_rec_t *sr = fz_sites_add(t->sites, &where, sig, name, 1);
        if (flaky == 2) {
            /* The same input crashed somewhere else on the rerun: one bug
             * whose site moves (uninitialized memory, timing, a random
             * stack).  Saved once, under its first site; the other site
             * maps to the same file, so it is not saved again either. */
            sr->flaky = 1;
            uint32_t first = t->sites->n;
            t->sites->flaky++;
            if (!fz_sites_find(t->sites, w.other.hash)) {
                fz_site_rec_t *alias = fz_sites_add(t->sites, &w.other, w.other_sig, name, 1);
                alias->flaky = 1;
                alias->alias_of = first;
            }
            fz_warn("a crash moved to another site when rerun (flaky site); saved once, as "
                    "crashes/id:%06u", *t->next_crash_id);
        }
    }
    (*t->next_crash_id)++;
    /* The crash first, and counted before the README: on a disk that is
     * filling up, the crash (and exit status 3) matter more. */
    fz_outdir_save(t->out, "crashes", name, save, out_len);
    fz_crashinfo_artifact(t->cfg, "crash", save, out_len); /* --artifact-prefix */
    t->stats->saved_crashes++;
    write_readme(t);
    t->stats->last_crash_ms = fz_now_ms();
    if (w.death.buf && w.death.len == out_len && !memcmp(w.death.buf, save, out_len)) {
        char doing[300];
        snprintf(doing, sizeof doing, "the recheck of %s/crashes/%s", t->out->dir, name);
        fz_run_end(t->st, &w.death, NULL, doing);
    }
    if (w.death.buf)
        fz_run_end(t->st, &w.death, o, "crash minimization");
    return 1;
}

/* A run can time out only because the machine was busy for a moment, so a
 * new hang is run once more with the longer hang timeout (as afl-fuzz
 * does) before it is saved.  Returns that run's record, or rec itself
 * without a run when the timeout in force is already that long. */
static fz_run_result_t confirm_hang(fz_triage_t *t, const uint8_t *buf, uint32_t len,
                                    const fz_exec_rec_t *rec, const fz_origin_t *o,
                                    fz_exec_rec_t *again)
{
    uint32_t hang_ms = t->cfg->hang_ms ? t->cfg->hang_ms : FZ_HANG_CONFIRM_MS;
    *again = *rec;
    if (rec->timeout_ms >= hang_ms)
        return FZ_RUN_HANG;
    fz_run_result_t r =
        fz_run_again_polled(t->st, buf, len, hang_ms, again, o, "a hang's confirmation");
    /* Cut short by -V or a signal: not confirmed, and the run ends. */
    return again->cut ? FZ_RUN_OK : r;
}

int fz_triage_hang(fz_triage_t *t, const uint8_t *buf, uint32_t len, const fz_exec_rec_t *rec,
                   const fz_origin_t *o)
{
    t->stats->total_hangs++;
    /* Unique by edges, not hit counts: the run was killed at an arbitrary
     * moment, so an infinite loop's counter holds whatever it reached by
     * then, and counting buckets would save the same loop again and
     * again. */
    if (rec->new_bits != FZ_COV_NEW_EDGE)
        return 0;
    /* The timed-out run's map, which the confirming run overwrites. */
    uint8_t *timed_out = rec->map ? malloc(rec->map_size) : NULL;
    if (timed_out)
        memcpy(timed_out, rec->map, rec->map_size);
    fz_exec_rec_t again;
    fz_run_result_t r = confirm_hang(t, buf, len, rec, o, &again);
    /* Finished given more time: slow, not hung.  What the killed run
     * reached is marked seen (as afl-fuzz does), so that the next slow
     * input through the same edges is not confirmed again: on a target
     * with slow inputs (a PNG declaring a 2 GiB chunk) those confirmations
     * were a sixth of the campaign.  A run cut short by -V is not judged. */
    if (r == FZ_RUN_OK && !again.cut) {
        fz_exec_mark_seen(t->x, FZ_VIRGIN_HANG, timed_out);
        t->stats->slow_inputs++;
    }
    free(timed_out);
    switch (r) {
    case FZ_RUN_HANG:
        /* Marked seen only when confirmed: the next run that hangs
         * through the same edges is the same hang. */
        if (again.new_bits != FZ_COV_NEW_EDGE || !fz_exec_commit(t->x, &again, NULL))
            return 0;
        break;
    case FZ_RUN_CRASH: /* slow on the way to a crash */
        return fz_triage_crash(t, buf, len, &again, o);
    default: /* slow, not hung */
        return 0;
    }
    char name[256];
    fz_run_name(t->st, name, sizeof(name), (*t->next_hang_id)++, 0, o, 0);
    fz_outdir_save(t->out, "hangs", name, buf, len);
    fz_crashinfo_artifact(t->cfg, "timeout", buf, len); /* --artifact-prefix */
    t->stats->saved_hangs++;
    t->stats->last_hang_ms = fz_now_ms();
    return 1;
}
